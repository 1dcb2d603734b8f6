// The strategy guide (/strategy): for each game, advice for the opening, the
// middle of the game and the endings. Each piece says where it comes from
// (a seed's tip, the Rules lab, the endgame tables, the engine) and is shown
// on a position the reader can play from on the analysis board. The advice
// is data (`static/learn/strategy.json`, three languages), and the engine's
// verdict on each position is checked by crates/server/tests/lessons.rs.
import { el } from "../dom.js";
import { t, LANG } from "../../i18n.js";
import { positionState } from "../api.js";
import { gameOf, GAME_NAMES } from "../games.js";

const say = (item, key) => item[key][LANG] || item[key].en;

/** Where an item's position opens on the analysis board. */
function analysisLink(game, item) {
  const p = new URLSearchParams({ game, ...gameOf(game).analysisParams(item) });
  return `/analysis?${p}`;
}

/** The position of an item, drawn by the game's own board (nothing moves). */
async function figure(game, item, into) {
  try {
    const request = gameOf(game).positionRequest(item);
    const state = await positionState(request);
    const view = { id: "strategy-" + item.id, you: [], state, selected: null, flipped: false, arrows: [] };
    into.replaceChildren(gameOf(game).board(view), ...gameOf(game).boardExtras(state));
  } catch {
    into.remove();
  }
}

export async function strategyPage(main) {
  document.title = t("strategy.title") + " — Agon";
  const data = await fetch("/static/learn/strategy.json").then((r) => r.json());
  main.append(el("h1", {}, t("strategy.title")), el("p", { class: "muted" }, t("strategy.intro")),
    el("p", {}, el("a", { href: "/learn", "data-nav": true }, t("learn.title")), " · ",
      el("a", { href: "/glossary", "data-nav": true }, t("glossary.title"))));
  const drawn = [];
  for (const game of GAME_NAMES) {
    const section = el("section", { class: "card spaced", id: "strategy-" + game, "aria-labelledby": "strategy-h-" + game },
      el("h2", { id: "strategy-h-" + game }, gameOf(game).name));
    for (const item of data[game] || []) {
      const board = el("figure", { class: "rules-board strategy-board" });
      section.append(el("article", { class: "strategy", id: item.id, "data-phase": item.phase },
        el("h3", {}, t("strategy.phase." + item.phase), " — ", say(item, "title")),
        el("p", {}, say(item, "text")),
        el("p", { class: "muted" }, el("small", {}, t("strategy.source"), " ", say(item, "source"))),
        board,
        el("p", {}, el("a", { class: "button", href: analysisLink(game, item), "data-nav": true, "data-strategy": item.id }, t("strategy.play")))));
      drawn.push(() => figure(game, item, board));
    }
    main.append(section);
  }
  main.append(el("p", { class: "sr-only", id: "board-help" }, t("game.board_help")));
  // One position at a time: the analysis API answers a client two at once.
  for (const draw of drawn) await draw();
  const target = location.hash.slice(1);
  if (target) document.getElementById(target)?.scrollIntoView();
}
