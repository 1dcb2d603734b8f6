// The words the game pages use, explained where they stand: a term is a
// button that opens its explanation in place (by mouse, touch, Enter or
// Space; Escape closes it), with a link to the glossary, which lists every
// term of both games. The words and explanations are in the language files
// (`term.<id>` and `term.<id>.text`).
import { el } from "./dom.js";
import { t } from "../i18n.js";

/** Every term, per game, in the glossary's order. */
export const TERMS = {
  ringo: ["attackers", "defenders", "fortress", "neutral-zone", "rings-sectors", "long-range", "score"],
  urgammon: ["chance-die", "astragalus", "verdict-die", "mongrel", "ishtar", "bull", "rosette", "waiting-area",
    "lower-city", "bridge", "upper-city", "gates", "palace", "pawn", "figure", "chariot", "hero",
    "plain", "streets", "dogs", "babylon", "match"],
};

/** The explanations open now, kept while a panel redraws. */
const open = new Set();
let serial = 0;

/** A term that explains itself in place: `term("ishtar")`. */
export function term(id) {
  const tip = el("span", { class: "term-tip", id: `term-tip-${id}-${++serial}`, role: "note", hidden: !open.has(id) },
    t(`term.${id}.text`), " ", el("a", { href: "/glossary#" + id, "data-nav": true }, t("glossary.more")));
  const button = el("button", { type: "button", class: "term", "data-term": id, "aria-expanded": String(open.has(id)),
    "aria-controls": tip.id, onclick: () => toggle(!open.has(id)),
    onkeydown: (e) => { if (e.key === "Escape" && open.has(id)) { toggle(false); e.stopPropagation(); } } }, t("term." + id));
  function toggle(on) {
    if (on) open.add(id); else open.delete(id);
    tip.hidden = !on;
    button.setAttribute("aria-expanded", String(on));
  }
  return el("span", { class: "term-wrap" }, button, tip);
}

/** A row of terms under a heading ("Words"), for a game's panel. */
export function termsRow(ids) {
  return el("div", { class: "terms", role: "group", "aria-label": t("glossary.words") },
    el("span", { class: "muted" }, t("glossary.words") + " "), ids.map(term));
}
