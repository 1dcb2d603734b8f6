// The moderation page (/mod, moderators only): the open reports, those
// about the most reported players first, each with what the server
// attached (the game, the player's chat lines) and the actions (warn, mute
// for an hour or a day, close), each needing a reason; then the log of
// what moderators did, with who, when and why.
import { el } from "../dom.js";
import { t } from "../../i18n.js";
import { api, errorText } from "../api.js";

/** A time as the page's language writes it. */
const when = (ms) => new Date(ms).toLocaleString(document.documentElement.lang);

export async function modPage(main) {
  document.title = t("mod.title") + " — Agon";
  main.append(el("h1", {}, t("mod.title")));
  let reports;
  try {
    ({ reports } = await api("GET", "/api/mod/reports"));
  } catch (e) {
    main.append(el("p", { class: "result", id: "mod-refused" }, errorText(e)));
    return;
  }
  const list = el("section", { "aria-labelledby": "mod-reports-title", id: "mod-reports" });
  const log = el("section", { "aria-labelledby": "mod-log-title", id: "mod-log" });
  main.append(list, log);

  async function act(body, said) {
    try {
      await api("POST", "/api/mod/actions", body);
      said.textContent = t("mod.done");
      await draw();
    } catch (e) { said.textContent = errorText(e); }
  }

  function reportCard(r) {
    const reason = el("input", { id: `mod-reason-${r.id}`, maxlength: 2000 });
    const said = el("p", { role: "status" });
    const lines = r.evidence?.lines || [];
    const button = (action, key, extra = {}) => el("button", { "data-action": action + (extra.minutes ? "-" + extra.minutes : ""),
      onclick: () => act({ target: r.target, action, reason: reason.value, report: r.id, ...extra }, said) }, t(key));
    return el("li", { class: "card", "data-report": r.id },
      el("h3", {}, el("a", { href: "/@/" + encodeURIComponent(r.target || ""), "data-nav": true }, r.target), " · ", t("report.reason." + r.reason),
        r.about_target > 1 ? el("span", { class: "muted" }, " · " + t("mod.about", { n: r.about_target })) : null),
      el("p", { class: "muted" }, t("mod.by", { name: r.reporter, when: when(r.created_ms) })),
      r.text ? el("p", { class: "report-text" }, r.text) : null,
      r.game ? el("p", {}, el("a", { href: "/g/" + r.game, "data-nav": true }, t("mod.game"))) : null,
      lines.length ? el("ol", { class: "chat-lines mod-lines" }, lines.map((l) => el("li", {}, el("span", { class: "muted" }, when(l.at_ms) + " "), l.text))) : null,
      el("label", { for: `mod-reason-${r.id}` }, t("mod.reason")), reason,
      el("div", { class: "row" }, button("warn", "mod.warn"), button("mute", "mod.mute_hour", { minutes: 60 }),
        button("mute", "mod.mute_day", { minutes: 1440 }), button("close-report", "mod.close")),
      said);
  }

  async function draw() {
    ({ reports } = await api("GET", "/api/mod/reports"));
    list.replaceChildren(el("h2", { id: "mod-reports-title" }, t("mod.reports"), " ", el("span", { class: "badge" }, String(reports.length))),
      reports.length ? el("ul", { class: "resume" }, reports.map(reportCard)) : el("p", { class: "muted", id: "mod-none" }, t("mod.none")));
    const { actions } = await api("GET", "/api/mod/log");
    log.replaceChildren(el("h2", { id: "mod-log-title" }, t("mod.log")),
      actions.length ? el("table", { class: "list stack", id: "mod-log-table" },
        el("thead", {}, el("tr", {}, ["when", "moderator", "player", "action", "reason"].map((c) => el("th", { scope: "col" }, t("mod.col." + c))))),
        el("tbody", {}, actions.map((a) => el("tr", { "data-action": a.action },
          el("td", { "data-label": t("mod.col.when") }, when(a.created_ms)),
          el("td", { "data-label": t("mod.col.moderator") }, a.moderator || "agon"),
          el("td", { "data-label": t("mod.col.player") }, a.target || ""),
          el("td", { "data-label": t("mod.col.action") }, t("mod.action." + a.action) + (a.until_ms ? " · " + when(a.until_ms) : "")),
          el("td", { "data-label": t("mod.col.reason") }, a.reason))))) : el("p", { class: "muted" }, t("mod.log_empty")));
  }
  await draw();
}
