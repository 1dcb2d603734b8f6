// The Rules lab: how fair each Ringo rule set is between equal players,
// measured by `agon balance` (docs/balance/), as a table and a chart; any
// listed rule set starts a game in one click; the balanced ones are marked.
import { el, sv, toast } from "../dom.js";
import { t, num, percent } from "../../i18n.js";
import { api, tokenKey } from "../api.js";
import { navigate } from "../router.js";
import { ringoSettings } from "../settings.js";

// Twelve colours that stay apart on the white chart, then the same colours
// dashed, dotted and dash-dotted: with more rule sets than colours (the lab
// has 40), no two of the first 48 lines look alike. The SVG `agon balance`
// writes uses the same styles (crates/cli/src/commands/balance.rs).
const COLOURS = ["#1a237e", "#c62828", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457",
  "#9e9d24", "#0277bd", "#4e342e", "#546e7a"];
const DASHES = ["", "7 4", "2 3", "10 3 2 3"];

/** The colour and dash pattern of the `k`-th rule set's line. */
function lineStyle(k) {
  return { colour: COLOURS[k % COLOURS.length], dash: DASHES[Math.floor(k / COLOURS.length) % DASHES.length] };
}

/** A row's or verdict's 95% interval, "42.1–51.3%", to `digits` places. */
export const interval = (r, digits = 1) => `${num(100 * r.ci95[0], digits)}–${percent(r.ci95[1], digits)}`;

/** The commands behind one `agon balance --json` file: its own, then, when
 * it pooled earlier runs (`--from A B …`), theirs, so a reader can remake
 * every game counted. */
const runCommands = (run) => [run.command || "", ...(run.sources || [])];

/** The caption of a check table: "N games each" only when every rule set
 * in it was played as often; pooled runs (level 10: 30, 130 and 240 games)
 * point to the games column instead. */
function checkCaption(check, id) {
  const key = id === "lab-checks" ? "lab.checks" : "lab.checks.more";
  return new Set(check.verdicts.map((v) => v.games)).size > 1 ? key + ".varied" : key;
}

/** Further check runs by the same player (level 10 played several runs,
 * each its own `agon balance` command) as one table: their rows and
 * verdicts together, with every run's command under it (and, for rows
 * pooled from several runs, those runs' commands). */
function byPlayer(runs) {
  const groups = new Map();
  for (const run of runs) {
    const player = run.rows[0]?.player || "";
    if (!groups.has(player)) groups.set(player, { ...run, rows: [], verdicts: [], commands: [] });
    const group = groups.get(player);
    group.rows.push(...run.rows);
    group.verdicts.push(...run.verdicts);
    group.commands.push(...runCommands(run));
  }
  return [...groups.values()];
}

// The chart's frame: its size, the left margin for the percentages, the plot.
const W = 700, H = 320, L = 48, T = 12, PW = 620, PH = 270;
const y = (p) => T + PH * (1 - p);
const TICKS = [0, 0.25, 0.5, 0.75, 1];
/** The percentages of the chart's scale. */
const scale = () => TICKS.map((p) => sv("text", { x: L - 6, y: y(p) + 4, "text-anchor": "end", class: "axis" }, percent(p)));

/** The scale again, alone, for a phone: there the chart scrolls sideways in
 *  its frame, and this copy stays at the frame's left edge over it, so the
 *  lines on the right still have their percentages beside them. */
function scaleOverlay() {
  return sv("svg", { class: "graph chart-axis", viewBox: `0 0 ${L} ${H}`, "aria-hidden": "true" },
    sv("rect", { x: 0, y: 0, width: L, height: H, fill: "#fff" }), ...scale());
}

/** The chart: one line per rule set. Each line carries its points and 95%
 *  intervals, drawn only while that rule set is picked out (`focus`): with
 *  many sets at 0% or 100% the lines lie on top of each other, and picking
 *  one out is how a reader tells them apart. */
function chart(rows, players, ruleSets) {
  const x = (i) => L + (PW * (i + 0.5)) / players.length;
  const svg = sv("svg", { class: "graph", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("lab.chart"), id: "lab-chart" });
  for (const p of TICKS) svg.append(sv("line", { x1: L, x2: L + PW, y1: y(p), y2: y(p), class: p === 0.5 ? "mid" : "gridline" }));
  svg.append(...scale());
  players.forEach((p, i) => svg.append(sv("text", { x: x(i), y: T + PH + 18, "text-anchor": "middle", class: "axis" }, p)));
  ruleSets.forEach((rules, k) => {
    const { colour, dash } = lineStyle(k);
    const pts = players.map((p, i) => [i, rows.find((r) => r.rules === rules && r.player === p)]).filter(([, r]) => r);
    svg.append(sv("g", { class: "series", "data-rules": rules },
      sv("polyline", { fill: "none", stroke: colour, "stroke-width": 2, "stroke-dasharray": dash || null,
        points: pts.map(([i, r]) => `${x(i)},${y(r.attackers_win_rate)}`).join(" ") }, sv("title", {}, rules)),
      pts.flatMap(([i, r]) => [
        sv("line", { class: "ci", x1: x(i), x2: x(i), y1: y(r.ci95[0]), y2: y(r.ci95[1]), stroke: colour }),
        sv("circle", { class: "dot", cx: x(i), cy: y(r.attackers_win_rate), r: 4, fill: colour }),
      ])));
  });
  return svg;
}

export async function labPage(main) {
  main.append(el("h1", {}, t("lab.title")), el("p", {}, t("lab.intro")));
  const data = await api("GET", "/api/balance");
  const rows = data.rows;
  const players = [...new Set(rows.map((r) => r.player))];
  const ruleSets = [...new Set(rows.map((r) => r.rules))];
  // The server's verdicts (one definition of "balanced" for the page, the
  // docs' table and other programs): the strongest strengths pooled.
  const verdict = new Map((data.verdicts || []).map((v) => [v.rules, v]));
  const balanced = new Set(ruleSets.filter((rules) => verdict.get(rules)?.balanced));
  const pooledN = data.pooled || 0;
  const cellOf = (rules, player) => rows.find((r) => r.rules === rules && r.player === player);
  const play = async (rules) => {
    try {
      const r = await api("POST", "/api/games", { game: "ringo", rules, opponent: "engine", level: 5, side: "attackers" });
      localStorage.setItem(tokenKey(r.id), r.token);
      navigate("/g/" + r.id);
    } catch (e) { toast(e.message); }
  };
  const playButton = (rules) => el("button", { class: "play-rules", "data-rules": rules, onclick: () => play(rules) }, t("lab.play"));
  const badge = (rules) => (balanced.has(rules) ? el("b", { class: "badge" }, " " + t("lab.balanced")) : null);

  // Picking a rule set out of the chart: its line on top and bold, the
  // others faded, its points and intervals drawn, its numbers written out
  // (and read out) under the chart. The same button again puts it back.
  const svg = chart(rows, players, ruleSets);
  const caption = el("p", { id: "lab-focus", class: "muted", "aria-live": "polite" }, t("lab.pick"));
  let picked = null;
  const pick = (rules) => {
    picked = picked === rules ? null : rules;
    svg.classList.toggle("focusing", picked !== null);
    for (const g of svg.querySelectorAll(".series")) {
      const on = g.dataset.rules === picked;
      g.classList.toggle("focus", on);
      if (on) svg.append(g);
    }
    for (const b of legend.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.rules === picked));
    caption.textContent = picked === null ? t("lab.pick") : t("lab.focus", {
      rules: picked,
      values: players.filter((p) => cellOf(picked, p)).map((p) => { const r = cellOf(picked, p); return `${p} ${percent(r.attackers_win_rate)} (${interval(r)})`; }).join(" · "),
    });
  };
  const legend = el("ul", { class: "legend" }, ruleSets.map((rules, k) => {
    const { colour, dash } = lineStyle(k);
    return el("li", {}, el("button", { type: "button", class: "series-pick", "data-rules": rules, "aria-pressed": "false", onclick: () => pick(rules) },
      sv("svg", { class: "swatch", width: 28, height: 10, "aria-hidden": "true" },
        sv("line", { x1: 0, x2: 28, y1: 5, y2: 5, stroke: colour, "stroke-width": 3, "stroke-dasharray": dash || null })),
      " ", el("code", {}, rules)), badge(rules));
  }));

  // At a glance: one row per rule set, the attackers' share at each strength
  // (its interval on hover), tinted by which side the interval favours.
  const lean = (r) => (r.ci95[0] > 0.5 ? "lean-attackers" : r.ci95[1] < 0.5 ? "lean-defenders" : "lean-even");
  const summary = el("table", { class: "list stack spaced", id: "lab-summary" },
    el("caption", {}, t("lab.summary")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("lab.col.rules")), players.map((p) => el("th", { scope: "col" }, p)),
      el("th", { scope: "col" }, t("lab.col.pooled", { n: Math.min(pooledN, players.length) })), el("th", { scope: "col" }, t("lab.play")))),
    el("tbody", {}, ruleSets.map((rules) => el("tr", { class: balanced.has(rules) ? "balanced" : "", "data-rules": rules },
      el("th", { scope: "row", "data-label": t("lab.col.rules") }, el("code", {}, rules), el("br"), el("small", { class: "muted" }, ringoSettings(rules)), badge(rules)),
      players.map((p) => {
        const r = cellOf(rules, p);
        return r ? el("td", { "data-label": p, class: lean(r), title: interval(r) }, percent(r.attackers_win_rate)) : el("td", { "data-label": p }, "–");
      }),
      (() => {
        const v = verdict.get(rules);
        return v ? el("td", { "data-label": t("lab.col.pooled", { n: v.players.length }), class: "pooled " + lean(v) },
          `${percent(v.attackers_score)} (${interval(v)})`) : el("td", {}, "–");
      })(),
      el("td", { class: "links" }, playButton(rules))))));

  // The near-even sets played again (at the strongest strength, on new
  // openings, and by level 10): the verdicts a player choosing rules should
  // read last, since the sliding game leans to the defenders as play gets
  // stronger.
  const checkTable = (check, id) => el("table", { class: "list stack spaced", id },
    el("caption", {}, t(checkCaption(check, id), { player: check.rows[0]?.player || "", games: check.verdicts[0]?.games || 0 })),
    el("thead", {}, el("tr", {}, ["rules", "player", "games", "attackers", "draws", "score"].map((c) => el("th", { scope: "col" }, t("lab.col." + c))),
      el("th", { scope: "col" }, t("lab.play")))),
    el("tbody", {}, check.verdicts.map((v) => el("tr", { class: v.balanced ? "balanced" : "", "data-rules": v.rules },
      el("th", { scope: "row", "data-label": t("lab.col.rules") }, el("code", {}, v.rules), el("br"), el("small", { class: "muted" }, ringoSettings(v.rules)),
        v.balanced ? el("b", { class: "badge" }, " " + t("lab.balanced")) : null),
      el("td", { "data-label": t("lab.col.player") }, v.players.join(", ")),
      el("td", { "data-label": t("lab.col.games") }, v.games),
      el("td", { "data-label": t("lab.col.attackers") }, percent(v.attackers_win_rate)),
      el("td", { "data-label": t("lab.col.draws") }, v.draws),
      el("td", { "data-label": t("lab.col.score"), class: lean(v) }, `${percent(v.attackers_score)} (${interval(v)})`),
      el("td", { class: "links" }, playButton(v.rules))))));
  const checkRuns = [data.checks, ...byPlayer(data.more_checks || [])].filter(Boolean);
  const checkSections = checkRuns.flatMap((check, i) => [checkTable(check, i ? `lab-checks-${i + 1}` : "lab-checks"),
    ...(check.commands || runCommands(check)).map((cmd) => el("p", { class: "muted" }, t("lab.source", { cmd })))]);

  const cols = ["rules", "player", "games", "attackers", "interval", "draws", "timeouts", "plies", "balance"];
  const cell = (c, ...content) => el("td", { "data-label": t("lab.col." + c) }, ...content);
  // On a phone the chart keeps a width its axis labels read at (11 px or
  // more) and scrolls sideways in its own frame, by finger or by keyboard.
  const frame = el("div", { class: "chart-frame", id: "lab-chart-frame", tabindex: "0", role: "region", "aria-label": t("lab.chart") },
    el("div", { class: "chart-inner" }, scaleOverlay(), svg));
  // The rule sets to pick from: some forty buttons, a screen and a half on a
  // phone before the summary; there they come folded, on a desktop open.
  const legendFold = el("details", { class: "fold", id: "lab-legend", open: matchMedia("(min-width: 561px)").matches },
    el("summary", {}, t("lab.legend", { n: ruleSets.length })), legend);
  main.append(el("section", { class: "card spaced" }, frame, caption, legendFold), summary,
    el("p", { class: "muted", id: "lab-verdict" }, t("lab.verdict", { n: Math.min(pooledN, players.length) })),
    ...checkSections,
    // Every measured cell, one row each (hundreds): folded away until asked
    // for, since above it the summary already gives each rule set one row; a
    // phone showed them as a page some 90,000 pixels long.
    el("details", { class: "fold spaced", id: "lab-every" },
      el("summary", {}, el("h2", {}, `${t("lab.every")} (${rows.length})`)),
      el("table", { class: "list stack spaced", id: "lab-table" },
      el("thead", {}, el("tr", {}, cols.map((c) => el("th", { scope: "col" }, t("lab.col." + c))), el("th", { scope: "col" }, t("lab.play")))),
      el("tbody", {}, rows.map((r) => el("tr", { class: balanced.has(r.rules) ? "balanced" : "" },
        cell("rules", el("code", {}, r.rules), el("br"), el("small", { class: "muted" }, ringoSettings(r.rules)), badge(r.rules)),
        cell("player", r.player), cell("games", r.games), cell("attackers", percent(r.attackers_win_rate, 1)),
        cell("interval", interval(r)), cell("draws", r.draws),
        cell("timeouts", r.timeouts), cell("plies", num(r.mean_plies)), cell("balance", num(r.balance, 2)),
        el("td", { class: "links" }, playButton(r.rules))))))),
    ...runCommands(data).map((cmd) => el("p", { class: "muted" }, t("lab.source", { cmd }))));
}
