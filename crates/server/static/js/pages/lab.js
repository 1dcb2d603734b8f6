// The Rules lab: how fair each Ringo rule set is between equal players,
// measured by `agon balance` (docs/balance/), as a table and a chart; any
// listed rule set starts a game in one click; the balanced ones are marked.
import { el, sv, toast } from "../dom.js";
import { t } from "../../i18n.js";
import { api, tokenKey } from "../api.js";
import { navigate } from "../router.js";
import { ringoSettings } from "../settings.js";

const COLOURS = ["#1a237e", "#9c3d2a", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457"];

/** A rule set is balanced when, at the strongest strength measured, the
 *  attackers win between 40% and 60% and the 95% interval holds 50%. */
function balancedSets(rows, players) {
  const strongest = players[players.length - 1];
  return new Set(rows.filter((r) => r.player === strongest && Math.abs(r.attackers_win_rate - 0.5) <= 0.1 && r.ci95[0] <= 0.5 && r.ci95[1] >= 0.5).map((r) => r.rules));
}

function chart(rows, players, ruleSets) {
  const W = 700, H = 320, L = 48, T = 12, PW = 620, PH = 270;
  const x = (i) => L + (PW * (i + 0.5)) / players.length, y = (p) => T + PH * (1 - p);
  const svg = sv("svg", { class: "graph", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("lab.chart"), id: "lab-chart" });
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(sv("line", { x1: L, x2: L + PW, y1: y(p), y2: y(p), class: p === 0.5 ? "mid" : "gridline" }),
      sv("text", { x: L - 6, y: y(p) + 4, "text-anchor": "end", class: "axis" }, Math.round(100 * p) + "%"));
  }
  players.forEach((p, i) => svg.append(sv("text", { x: x(i), y: T + PH + 18, "text-anchor": "middle", class: "axis" }, p)));
  ruleSets.forEach((rules, k) => {
    const pts = players.map((p, i) => [i, rows.find((r) => r.rules === rules && r.player === p)]).filter(([, r]) => r);
    svg.append(sv("polyline", { fill: "none", stroke: COLOURS[k % COLOURS.length], "stroke-width": 2,
      points: pts.map(([i, r]) => `${x(i)},${y(r.attackers_win_rate)}`).join(" ") }, sv("title", {}, rules)));
  });
  return svg;
}

export async function labPage(main) {
  main.append(el("h1", {}, t("lab.title")), el("p", {}, t("lab.intro")));
  const data = await api("GET", "/api/balance");
  const rows = data.rows;
  const players = [...new Set(rows.map((r) => r.player))];
  const ruleSets = [...new Set(rows.map((r) => r.rules))];
  const balanced = balancedSets(rows, players);
  const play = async (rules) => {
    try {
      const r = await api("POST", "/api/games", { game: "ringo", rules, opponent: "engine", level: 5, side: "attackers" });
      localStorage.setItem(tokenKey(r.id), r.token);
      navigate("/g/" + r.id);
    } catch (e) { toast(e.message); }
  };
  const cols = ["rules", "player", "games", "attackers", "interval", "draws", "timeouts", "plies", "balance"];
  const cell = (c, ...content) => el("td", { "data-label": t("lab.col." + c) }, ...content);
  const legend = el("ul", { class: "legend" }, ruleSets.map((rules, k) => el("li", {},
    el("span", { class: "swatch", style: `background:${COLOURS[k % COLOURS.length]}` }), " ", el("code", {}, rules),
    balanced.has(rules) ? el("b", { class: "badge" }, " " + t("lab.balanced")) : null)));
  main.append(el("section", { class: "card spaced" }, chart(rows, players, ruleSets), legend),
    el("table", { class: "list stack spaced", id: "lab-table" },
      el("thead", {}, el("tr", {}, cols.map((c) => el("th", { scope: "col" }, t("lab.col." + c))), el("th", { scope: "col" }, t("lab.play")))),
      el("tbody", {}, rows.map((r) => el("tr", { class: balanced.has(r.rules) ? "balanced" : "" },
        cell("rules", el("code", {}, r.rules), el("br"), el("small", { class: "muted" }, ringoSettings(r.rules)),
          balanced.has(r.rules) ? el("b", { class: "badge" }, " " + t("lab.balanced")) : null),
        cell("player", r.player), cell("games", r.games), cell("attackers", (100 * r.attackers_win_rate).toFixed(1) + "%"),
        cell("interval", `${(100 * r.ci95[0]).toFixed(1)}–${(100 * r.ci95[1]).toFixed(1)}%`), cell("draws", r.draws),
        cell("timeouts", r.timeouts), cell("plies", r.mean_plies), cell("balance", r.balance.toFixed(2)),
        el("td", { class: "links" }, el("button", { class: "play-rules", "data-rules": r.rules, onclick: () => play(r.rules) }, t("lab.play"))))))),
    el("p", { class: "muted" }, t("lab.source", { cmd: data.command || "" })));
}
