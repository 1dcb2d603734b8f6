// A player's profile (/@/{name}): each game's rating (a provisional one with
// "?") and its history as a chart, results per rule set and seat, games in
// progress, and her games with filters; and the leaderboard (/leaderboard).
import { el, sv } from "../dom.js";
import { t, num } from "../../i18n.js";
import { api, errorText, meta } from "../api.js";
import { gameOf, GAME_NAMES } from "../games.js";
import { settingsText } from "../settings.js";
import { playerText } from "../players.js";
import { statusText } from "./list.js";
import { signed } from "../panels/common.js";
import { account, forgetBlocks } from "../account.js";
import { TIME_CONTROLS, gameFields } from "../gamefields.js";
import { sendChallenge, cancelChallenge, challenges } from "../site.js";
import { onLeave } from "../router.js";

/** A rating as shown: "1612", or "1500?" while provisional. */
export const ratingText = (r) => String(r.rating) + (r.provisional ? "?" : "");

/** The rating history as an SVG line chart, labelled for screen readers. */
function chart(game, points) {
  const W = 480, H = 160, P = 30;
  if (!points.length) return el("p", { class: "muted", id: `chart-${game}` }, t("profile.no_rated"));
  const all = [1500, ...points.map((p) => p.rating)];
  const lo = Math.min(...all) - 20, hi = Math.max(...all) + 20;
  const x = (i) => P + (i * (W - 2 * P)) / Math.max(1, points.length);
  const y = (r) => H - P - ((r - lo) * (H - 2 * P)) / (hi - lo);
  const line = [1500, ...points.map((p) => p.rating)].map((r, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(" ");
  const last = points[points.length - 1].rating;
  return sv("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", id: `chart-${game}`, role: "img",
    "aria-label": t("profile.chart_label", { game: gameOf(game).name, after: gameOf(game).ratedCount(points.length), from: 1500, to: last }) },
    sv("line", { x1: P, x2: W - P, y1: y(1500), y2: y(1500), class: "base" }),
    sv("path", { d: line, class: "line" }),
    points.map((p, i) => sv("circle", { cx: x(i + 1), cy: y(p.rating), r: 3.5, "data-rating": p.rating },
      sv("title", {}, `${p.rating} — ${new Date(p.at * 1000).toLocaleDateString(document.documentElement.lang)}`))),
    sv("text", { x: 4, y: y(hi - 20) + 4, class: "axis" }, String(Math.round(hi - 20))),
    sv("text", { x: 4, y: y(lo + 20) + 4, class: "axis" }, String(Math.round(lo + 20))));
}

/** A listed game's result for the player in `seat`, as the server reads
 *  its status: won, lost, drawn, aborted (neither a win nor a loss) or
 *  ongoing. */
function resultOf(g, seat) {
  if (g.status === "ongoing") return "ongoing";
  return seat < 0 ? "" : g.outcome[seat];
}

/** One listed game's row for the profile's tables. */
function gameRow(g, name) {
  const seat = g.players.findIndex((p) => p.kind === "account" && p.name === name);
  const change = g.rating_change && seat >= 0 ? " " + signed(g.rating_change[seat]) : "";
  return el("tr", { "data-game": g.id, "data-kind": g.game, "data-rated": g.rated ? "yes" : "no", "data-settings": g.game + " " + g.settings,
    "data-result": resultOf(g, seat) },
    el("td", { "data-label": t("games.col.game") }, gameOf(g.game).name),
    el("td", { "data-label": t("games.col.settings") }, settingsText(g.game, g.settings, false)),
    el("td", { "data-label": t("games.col.players") }, g.players.map(playerText).join(" – ")),
    el("td", { "data-label": t("games.col.status") }, statusText(g.status) + (g.rated ? " · " + t("game.rated") + change : "")),
    el("td", { class: "links" }, el("a", { href: "/g/" + g.id, "data-nav": true }, t("games.open"))));
}

export async function profilePage(main, name) {
  let p;
  try {
    p = await api("GET", "/api/users/" + name);
  } catch (e) {
    main.append(el("h1", {}, decodeURIComponent(name)), el("p", { class: "result" }, errorText(e)));
    return;
  }
  document.title = p.name + " — Agon";
  main.append(el("h1", { id: "profile-name" }, p.online ? el("span", { class: "online-badge", "aria-hidden": "true" }) : null, p.name),
    el("p", { class: "muted" }, el("span", { id: "profile-online" }, p.online ? t("players.online") : t("players.offline")), " · ",
      t("account.since", { date: new Date(p.created_at * 1000).toLocaleDateString(document.documentElement.lang) }),
      " · ", el("span", { id: "profile-followers" }, t("profile.followers", { n: p.followers })),
      " · ", el("a", { href: "/leaderboard", "data-nav": true }, t("nav.leaderboard"))));
  if (p.marked) main.append(el("p", { class: "notice", id: "profile-marked" }, t("profile.marked")));
  const me = await account();
  if (me && me.name.toLowerCase() !== p.name.toLowerCase()) main.append(await meetBlock(p));
  const cards = el("div", { class: "cards" });
  for (const game of GAME_NAMES) {
    const r = p.ratings[game];
    cards.append(el("section", { class: "card", id: "rating-" + game, "aria-labelledby": `rating-${game}-title` },
      el("h2", { id: `rating-${game}-title` }, gameOf(game).name),
      el("p", { class: "rating" }, el("strong", { class: "rating-value" }, ratingText(r)),
        " " + gameOf(game).ratedCount(r.games), r.provisional ? el("span", { class: "muted" }, " · " + t("profile.provisional")) : null),
      chart(game, p.history[game])));
  }
  main.append(cards);
  if (p.results.length) {
    main.append(el("section", { "aria-labelledby": "results-title" }, el("h2", { id: "results-title" }, t("profile.results")),
      el("table", { class: "list stack", id: "results" },
        el("thead", {}, el("tr", {}, ["game", "settings", "seat", "won", "lost", "drawn", "aborted"].map((c) => el("th", { scope: "col" }, t("profile.col." + c))))),
        el("tbody", {}, p.results.map((r) => el("tr", {},
          el("td", { "data-label": t("profile.col.game") }, gameOf(r.game).name),
          el("td", { "data-label": t("profile.col.settings") }, settingsText(r.game, r.settings, false)),
          el("td", { "data-label": t("profile.col.seat") }, t("Side." + r.seat)),
          el("td", { "data-label": t("profile.col.won") }, num(r.won)),
          el("td", { "data-label": t("profile.col.lost") }, num(r.lost)),
          el("td", { "data-label": t("profile.col.drawn") }, num(r.drawn)),
          el("td", { "data-label": t("profile.col.aborted") }, num(r.aborted))))))));
  }
  if (p.playing.length) {
    main.append(el("section", { "aria-labelledby": "playing-title" }, el("h2", { id: "playing-title" }, t("profile.playing")),
      el("table", { class: "list stack", id: "playing" }, el("tbody", {}, p.playing.map((g) => gameRow(g, p.name))))));
  }
  // Her tournaments, with her place in each.
  if (p.tournaments && p.tournaments.length) {
    main.append(el("section", { "aria-labelledby": "profile-tournaments-title" },
      el("h2", { id: "profile-tournaments-title" }, t("profile.tournaments")),
      el("ul", { class: "resume", id: "profile-tournaments" }, p.tournaments.map((r) => el("li", { "data-tournament": r.id },
        el("a", { href: "/t/" + r.id, "data-nav": true }, r.name), " · ",
        t(r.status === "finished" ? "profile.tournament_place" : "profile.tournament_place_now", { rank: r.rank, of: r.of, score: r.score }))))));
  }
  // Her games, filtered by game, result and rated, as she chooses.
  const body = el("tbody", {}, p.games.map((g) => gameRow(g, p.name)));
  const filters = { kind: "", rules: "", result: "", rated: "" };
  const apply = () => {
    for (const tr of body.rows) {
      tr.hidden = (filters.kind && tr.dataset.kind !== filters.kind) || (filters.rules && tr.dataset.settings !== filters.rules)
        || (filters.result && tr.dataset.result !== filters.result)
        || (filters.rated && tr.dataset.rated !== filters.rated);
    }
  };
  const select = (id, key, options) => el("label", { for: id }, t("profile.filter." + key) + " ",
    el("select", { id, onchange: (e) => { filters[key] = e.target.value; apply(); } },
      options.map(([v, label]) => el("option", { value: v }, label))));
  main.append(el("section", { "aria-labelledby": "profile-games-title" },
    el("h2", { id: "profile-games-title" }, t("profile.games")),
    el("div", { class: "row" },
      select("filter-game", "kind", [["", t("profile.all")], ...GAME_NAMES.map((g) => [g, gameOf(g).name])]),
      select("filter-rules", "rules", [["", t("profile.all")],
        ...[...new Map(p.games.map((g) => [g.game + " " + g.settings, gameOf(g.game).name + " · " + settingsText(g.game, g.settings, false)])).entries()]]),
      select("filter-result", "result", [["", t("profile.all")], ["won", t("profile.won")], ["lost", t("profile.lost")], ["drawn", t("profile.drawn")], ["aborted", t("profile.aborted")], ["ongoing", t("games.ongoing")]]),
      select("filter-rated", "rated", [["", t("profile.all")], ["yes", t("profile.rated")], ["no", t("profile.casual")]])),
    p.games.length ? el("table", { class: "list stack", id: "profile-games" }, body) : el("p", { class: "muted" }, t("games.none"))));
}

/** Follow and Challenge, for another signed-in player's profile: the
 *  challenge's form (the game, its rules or match length, a clock or days,
 *  rated or casual, a side), and what became of the one sent. */
async function meetBlock(p) {
  const m = await meta();
  let following = p.following;
  const status = el("p", { id: "challenge-status", role: "status" });
  const followButton = el("button", { id: "follow", "aria-pressed": String(following), onclick: async () => {
    try {
      const r = await api(following ? "DELETE" : "POST", `/api/users/${encodeURIComponent(p.name)}/follow`);
      following = r.following;
      followButton.setAttribute("aria-pressed", String(following));
      followButton.textContent = t(following ? "profile.unfollow" : "profile.follow");
    } catch (e) { status.textContent = errorText(e); }
  } }, t(following ? "profile.unfollow" : "profile.follow"));
  const fields = gameFields("challenge", m, { clocks: ["", ...TIME_CONTROLS] });
  let sent = null;
  const send = el("button", { class: "primary", id: "challenge-send", onclick: async () => {
    const body = { user: p.name, ...fields.body(), rated: fields.rated.checked };
    try {
      sent = await sendChallenge(body);
      show();
    } catch (e) { status.textContent = errorText(e); }
  } }, t("challenge.send"));
  const cancel = el("button", { id: "challenge-cancel", hidden: true, onclick: async () => {
    if (sent) await cancelChallenge(sent.id).catch(() => {});
    show();
  } }, t("challenge.cancel"));
  // What became of the challenge sent from here (or one open already).
  const show = () => {
    const mine = challenges().outgoing.filter((c) => c.user?.toLowerCase() === p.name.toLowerCase());
    const c = (sent && mine.find((x) => x.id === sent.id)) || mine.find((x) => x.status === "open");
    cancel.hidden = !c || c.status !== "open";
    send.hidden = !!c && c.status === "open";
    if (c) sent = c;
    status.textContent = c ? t("challenge.status." + c.status, { name: p.name }) : "";
  };
  const listen = () => show();
  document.addEventListener("agon-challenges", listen);
  onLeave(() => document.removeEventListener("agon-challenges", listen));
  // Block: she can no longer reach this player (challenges, seeks,
  // pairing, following, chat); Report: to the moderators, with a reason.
  let blocked = (await api("GET", "/api/account/blocks").catch(() => ({ blocks: [] }))).blocks
    .some((b) => b.name.toLowerCase() === p.name.toLowerCase());
  const blockButton = el("button", { id: "block", "aria-pressed": String(blocked), onclick: async () => {
    try {
      const r = await api(blocked ? "DELETE" : "POST", `/api/users/${encodeURIComponent(p.name)}/block`);
      blocked = r.blocked;
      forgetBlocks();
      blockButton.setAttribute("aria-pressed", String(blocked));
      blockButton.textContent = t(blocked ? "profile.unblock" : "profile.block");
      status.textContent = t(blocked ? "profile.blocked" : "profile.unblocked", { name: p.name });
    } catch (e) { status.textContent = errorText(e); }
  } }, t(blocked ? "profile.unblock" : "profile.block"));
  const reason = el("select", { id: "report-reason" }, ["chat", "cheat", "boost", "name", "other"].map((r) => el("option", { value: r }, t("report.reason." + r))));
  const reportText = el("textarea", { id: "report-body", rows: 3, maxlength: 2000 });
  const reportSaid = el("p", { id: "report-status", role: "status" });
  const report = el("details", { class: "fold", id: "report-form" },
    el("summary", {}, el("h2", {}, t("report.title", { name: p.name }))),
    el("div", { class: "opt" }, el("label", { for: "report-reason" }, t("report.reason")), reason),
    el("label", { for: "report-body" }, t("report.why", { name: p.name })), reportText,
    el("div", { class: "row" }, el("button", { id: "report-submit", onclick: async () => {
      try {
        await api("POST", "/api/reports", { target: p.name, reason: reason.value, text: reportText.value });
        reportSaid.textContent = t("report.filed", { name: p.name });
      } catch (e) { reportSaid.textContent = errorText(e); }
    } }, t("report.send"))), reportSaid);
  const policy = p.challenges || "everyone";
  const open = new URLSearchParams(location.search).has("challenge");
  const form = policy === "nobody"
    ? el("p", { class: "muted", id: "challenge-refused" }, t("challenge.policy.nobody", { name: p.name }))
    : el("details", { class: "fold", id: "challenge-form", open },
      el("summary", {}, el("h2", {}, t("challenge.title", { name: p.name }))),
      ...fields.rows,
      el("label", { class: "rated-choice" }, fields.rated, " " + t("home.rated")),
      el("div", { class: "row" }, send, cancel));
  show();
  return el("section", { class: "card", id: "meet", "aria-label": t("profile.meet") },
    el("div", { class: "row" }, followButton, blockButton),
    policy !== "everyone" && policy !== "nobody" ? el("p", { class: "muted", id: "challenge-policy" }, t("challenge.policy." + policy, { name: p.name })) : null,
    form, status, report);
}

export async function leaderboardPage(main) {
  main.append(el("h1", {}, t("leaderboard.title")), el("p", { class: "muted" }, t("leaderboard.help")));
  const cards = el("div", { class: "cards" });
  main.append(cards);
  for (const game of GAME_NAMES) {
    const { players } = await api("GET", "/api/leaderboard/" + game);
    cards.append(el("section", { class: "card", id: "leaders-" + game, "aria-labelledby": `leaders-${game}-title` },
      el("h2", { id: `leaders-${game}-title` }, gameOf(game).name),
      players.length ? el("table", { class: "list" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "#"), el("th", { scope: "col" }, t("account.name")), el("th", { scope: "col" }, t("leaderboard.rating")))),
        el("tbody", {}, players.map((p) => el("tr", {}, el("td", {}, String(p.rank)),
          el("td", {}, el("a", { href: "/@/" + encodeURIComponent(p.name), "data-nav": true }, p.name)), el("td", {}, String(p.rating))))))
        : el("p", { class: "muted" }, t("leaderboard.empty"))));
  }
}
