// The glossary page (/glossary): every term of both games, with its
// explanation, each game under its name; a term's id is its anchor, so the
// game pages' "Words" link to it.
import { el } from "../dom.js";
import { t } from "../../i18n.js";
import { TERMS } from "../glossary.js";
import { gameOf } from "../games.js";

/** Where a term's first example opens on the analysis board: its position
 *  with the move that shows the rule played. */
function exampleLink(game, e) {
  const p = new URLSearchParams({ game, ...gameOf(game).analysisParams(e, e.accept[0]) });
  return `/analysis?${p}`;
}

/** The glossary page: every term of both games, with its explanation; an
 *  entry that states a rule links to a position that shows it (the rules
 *  engine checks each, `static/learn/terms.json`). */
export async function glossaryPage(main) {
  document.title = t("glossary.title") + " — Agon";
  const examples = await fetch("/static/learn/terms.json").then((r) => r.json()).catch(() => ({}));
  const show = (game, id) => {
    const e = examples[game]?.[id]?.[0];
    return e ? [" ", el("a", { href: exampleLink(game, e), "data-nav": true, class: "term-example", "data-example": id }, t("glossary.show"))] : [];
  };
  main.append(el("h1", {}, t("glossary.title")), el("p", { class: "muted" }, t("glossary.intro")),
    ...Object.entries(TERMS).map(([game, ids]) => el("section", { class: "card", "aria-labelledby": "glossary-" + game },
      el("h2", { id: "glossary-" + game }, gameOf(game).name),
      el("dl", { class: "glossary" }, ids.map((id) => [el("dt", { id }, t("term." + id)), el("dd", {}, t(`term.${id}.text`), ...show(game, id))])))),
    el("p", {}, el("a", { href: "/history", "data-nav": true, id: "history-link" }, t("history.title")), " · ",
      el("a", { href: "/rules", "data-nav": true }, t("nav.rules"))));
  const target = location.hash.slice(1);
  if (target) document.getElementById(target)?.scrollIntoView();
}
