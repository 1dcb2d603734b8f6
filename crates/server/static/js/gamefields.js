// What a game is asked to be, in the forms that ask it: the time controls
// (a live clock, or days per move) and the fields a seek and a challenge
// share, one component for both (the lobby's seek form, a profile's
// challenge form). What differs by game is asked of its entry in games.js.
import { el } from "./dom.js";
import { t } from "../i18n.js";
import { gameOf, GAME_NAMES } from "./games.js";

/** The clocks a seek may have, as base+increment seconds. */
export const CLOCKS = [[60, 0], [180, 2], [300, 3], [600, 5], [900, 10], [1800, 20]];

/** The days per move a correspondence game may have. */
export const DAYS = [1, 2, 3, 7];

/** A clock's label: "5+3" (minutes + seconds), or "3 days per move". */
export function clockLabel(c) {
  if (c && c.days) return t("corr.per_move", { n: c.days });
  return c ? `${c.base_secs % 60 ? (c.base_secs / 60).toFixed(1) : c.base_secs / 60}+${c.increment_secs}` : t("lobby.no_clock");
}

/** Every time control a game may have, as a select's values: `300+3`
 *  (a live clock) or `d3` (three days per move). */
export const TIME_CONTROLS = [...CLOCKS.map(([b, i]) => `${b}+${i}`), ...DAYS.map((d) => "d" + d)];

/** A select value's label. */
export function timeControlLabel(v) {
  if (!v) return t("lobby.no_clock");
  if (v.startsWith("d")) return t("corr.per_move", { n: Number(v.slice(1)) });
  const [b, i] = v.split("+").map(Number);
  return clockLabel({ base_secs: b, increment_secs: i });
}

/** A select value as a request's fields: `{clock}` or `{days}`. */
export function timeControlFields(v) {
  if (!v) return {};
  if (v.startsWith("d")) return { days: Number(v.slice(1)) };
  const [b, i] = v.split("+").map(Number);
  return { clock: { base_secs: b, increment_secs: i } };
}

/** The fields a seek and a challenge share: the game, its rules (a game
 *  of several rule sets) or its match's length, the time control, the side
 *  and the Rated box. Ids are `PREFIX-game`, `-rules`, `-to`, `-clock`,
 *  `-side` and `-rated` (the labels, and the tests, name them). `m` is
 *  `/api/meta`; `clocks` the time controls offered (a challenge may have
 *  none); `clockHelp` a line under the clock; `rated` whether the box is
 *  offered. Answers the controls, the rows to show (the Rated box apart,
 *  which each form places itself), and `body()`: the request's fields the
 *  form says. */
export function gameFields(prefix, m, { clocks = TIME_CONTROLS, clockHelp = null, rated = true } = {}) {
  const id = (name) => `${prefix}-${name}`;
  const game = el("select", { id: id("game") }, GAME_NAMES.map((g) => el("option", { value: g }, gameOf(g).name)));
  const rules = el("select", { id: id("rules") },
    GAME_NAMES.filter((g) => gameOf(g).seekRules === "rules").flatMap((g) => gameOf(g).ruleChoices(m))
      .map(([value, label]) => el("option", { value }, label)));
  const to = el("input", { id: id("to"), type: "number", min: 1, max: 99, value: 3 });
  const clock = el("select", clockHelp ? { id: id("clock"), "aria-describedby": id("clock-help") } : { id: id("clock") },
    clocks.map((v) => el("option", { value: v }, timeControlLabel(v))));
  clock.value = "300+3";
  const side = el("select", { id: id("side") });
  const ratedBox = rated ? el("input", { type: "checkbox", id: id("rated") }) : null;
  const rulesRow = el("div", { class: "opt" }, el("label", { for: id("rules") }, t("home.preset")), rules);
  const toRow = el("div", { class: "opt" }, el("label", { for: id("to") }, t("home.match_to")), to);
  const sync = () => {
    const g = gameOf(game.value);
    rulesRow.hidden = g.seekRules !== "rules";
    toRow.hidden = g.seekRules !== "to";
    side.replaceChildren(...["random", ...g.sides].map((s) => el("option", { value: s }, t("side." + s))));
  };
  game.addEventListener("change", sync);
  sync();
  const rows = [
    el("div", { class: "opt" }, el("label", { for: id("game") }, t("lobby.game")), game),
    rulesRow, toRow,
    el("div", { class: "opt" }, el("label", { for: id("clock") }, t("lobby.clock")), clock,
      clockHelp ? el("small", { id: id("clock-help") }, clockHelp) : null),
    el("div", { class: "opt" }, el("label", { for: id("side") }, t("home.side")), side),
  ];
  const body = () => ({
    game: game.value, ...timeControlFields(clock.value), side: side.value,
    ...(gameOf(game.value).seekRules === "rules" ? { rules: rules.value } : { to: Number(to.value) }),
  });
  return { game, rules, to, clock, side, rated: ratedBox, rows, body };
}
