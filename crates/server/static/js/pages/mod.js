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
  // A player's record: her games and ratings (her profile), the accounts
  // on her devices, her sanctions, what was done to her, and every action.
  const lookupName = el("input", { id: "mod-user", maxlength: 40, autocomplete: "off" });
  const record = el("div", { id: "mod-record" });
  const player = el("section", { "aria-labelledby": "mod-player-title", id: "mod-player", class: "card" },
    el("h2", { id: "mod-player-title" }, t("mod.player")),
    el("form", { class: "row", onsubmit: (e) => { e.preventDefault(); showRecord(lookupName.value.trim()); } },
      el("label", { for: "mod-user" }, t("mod.name_label")), lookupName, el("button", { type: "submit", id: "mod-lookup" }, t("mod.lookup"))),
    record);
  main.append(player, list, log);

  async function showRecord(name) {
    if (!name) return;
    history.replaceState(history.state, "", "/mod?user=" + encodeURIComponent(name));
    let r, p;
    try {
      [r, p] = await Promise.all([api("GET", "/api/mod/users/" + encodeURIComponent(name)), api("GET", "/api/users/" + encodeURIComponent(name))]);
    } catch (e) {
      record.replaceChildren(el("p", { class: "result", role: "alert" }, errorText(e)));
      return;
    }
    const reason = el("input", { id: "mod-record-reason", maxlength: 2000 });
    const newName = el("input", { id: "mod-new-name", maxlength: 20 });
    const said = el("p", { role: "status", id: "mod-record-said" });
    const button = (action, key, extra = {}) => el("button", { "data-action": action + (extra.minutes ? "-" + extra.minutes : ""),
      onclick: async () => {
        const body = { target: r.name, action, reason: reason.value, ...extra };
        if (action === "rename") body.name = newName.value;
        if (!(await act(body, said))) return;
        if (action === "close") record.replaceChildren(said);
        else showRecord(action === "rename" ? newName.value.trim() : r.name);
      } }, t(key));
    record.replaceChildren(
      el("h3", {}, el("a", { href: "/@/" + encodeURIComponent(r.name), "data-nav": true }, r.name),
        r.moderator ? el("span", { class: "badge" }, " " + t("nav.mod")) : null),
      el("p", {}, Object.entries(p.ratings).map(([g, x]) => `${g}: ${x.rating}${x.provisional ? "?" : ""} (${x.games})`).join(" · ")),
      r.marked ? el("p", { id: "mod-marked" }, t("profile.marked")) : null,
      r.hidden_lines ? el("p", { id: "mod-hidden" }, t("mod.hidden_lines", { n: r.hidden_lines })) : null,
      r.muted_until ? el("p", { id: "mod-muted" }, t("mod.muted_until", { until: when(r.muted_until) })) : null,
      r.rated_banned_until ? el("p", { id: "mod-banned" }, t("mod.banned_until", { until: when(r.rated_banned_until) })) : null,
      el("h4", {}, t("mod.same_devices")),
      r.same_devices.length ? el("ul", { class: "people", id: "mod-same-devices" }, r.same_devices.map((n) => el("li", {},
        el("a", { href: "/mod?user=" + encodeURIComponent(n), onclick: (e) => { e.preventDefault(); lookupName.value = n; showRecord(n); } }, n))))
        : el("p", { class: "muted" }, t("mod.none_devices")),
      el("h4", {}, t("mod.recent_games")),
      el("ul", { class: "resume" }, p.games.slice(0, 10).map((g) => el("li", {}, el("a", { href: "/g/" + g.id, "data-nav": true }, g.game + " · " + g.status)))),
      el("h4", {}, t("mod.log")),
      el("ul", { class: "resume", id: "mod-record-actions" }, r.actions.map((a) => el("li", { "data-action": a.action },
        `${when(a.created_ms)} · ${a.moderator || "agon"} · ${t("mod.action." + a.action)} · ${a.reason}`))),
      el("label", { for: "mod-record-reason" }, t("mod.reason")), reason,
      el("div", { class: "row" }, button("warn", "mod.warn"), button("mute", "mod.mute_hour", { minutes: 60 }), button("unmute", "mod.unmute"),
        button("rated-ban", "mod.rated_ban_day", { minutes: 1440 }), button("rated-ban", "mod.rated_ban_week", { minutes: 10080 }),
        button("lift-rated-ban", "mod.lift_ban"), button("grant", "mod.grant")),
      el("div", { class: "row" }, r.marked ? button("unmark", "mod.unmark") : button("mark", "mod.mark")),
      el("div", { class: "row" }, el("label", { for: "mod-new-name" }, t("mod.new_name")), newName, button("rename", "mod.rename")),
      el("div", { class: "row" }, button("close", "mod.close_account")),
      said);
  }
  const asked = new URLSearchParams(location.search).get("user");
  if (asked) { lookupName.value = asked; showRecord(asked); }

  /** Sends an action; says what became of it; answers whether it was done. */
  async function act(body, said) {
    try {
      await api("POST", "/api/mod/actions", body);
      said.textContent = t("mod.done");
      await draw();
      return true;
    } catch (e) {
      said.textContent = errorText(e);
      return false;
    }
  }

  function reportCard(r) {
    const reason = el("input", { id: `mod-reason-${r.id}`, maxlength: 2000 });
    const said = el("p", { role: "status" });
    const lines = r.evidence?.lines || [];
    const button = (action, key, extra = {}) => el("button", { "data-action": action + (extra.minutes ? "-" + extra.minutes : ""),
      onclick: () => act({ target: r.target, action, reason: reason.value, report: r.id, ...extra }, said) }, t(key));
    return el("li", { class: "card", "data-report": r.id },
      el("h3", {}, el("a", { href: "/mod?user=" + encodeURIComponent(r.target || ""), onclick: (e) => {
        e.preventDefault(); lookupName.value = r.target; showRecord(r.target); } }, r.target), " · ", t("report.reason." + r.reason),
        r.about_target > 1 ? el("span", { class: "muted" }, " · " + t("mod.about", { n: r.about_target })) : null),
      el("p", { class: "muted" }, t("mod.by", { name: r.reporter || t("mod.server"), when: when(r.created_ms) })),
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
