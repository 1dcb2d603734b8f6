// Where the games come from: each game's history as its sources tell it,
// with short quotations credited to them, in the reader's language (the
// quotations stay in the language they were written in).
import { el } from "../dom.js";
import { t } from "../../i18n.js";

/** The quotations: the source's own words, its language, and its credit. */
const QUOTES = {
  ringo: [
    { lang: "en", text: "Ringo originates from Germany. It is not known how old the game is, but is usually assumed to be invented around 1900. It is meant to simulate a castle siege.", credit: "history.credit.encyclopedia" },
    { lang: "pl", text: "Ringo to gra znana w Niemczech od początków XX wieku, a być może nawet od XIX wieku.", credit: "history.credit.blog" },
    { lang: "fr", text: "Le ringo est un jeu d'origine allemande, non daté formellement mais dont le mécanisme (forces inégales et objectifs des joueurs différents) rappelle les jeux de chasse médiévaux.", credit: "history.credit.globe" },
    { lang: "pl", text: "Potem prawdopodobnie odkryjecie, że warto podzielić obrońców na tych, którzy bronią twierdzy i takich, którzy zajmują się wybijaniem atakujących.", credit: "history.credit.blog" },
  ],
  urgammon: [
    { lang: "pl", text: "Czyli wariant Królewskiej Gry z Ur, inspirowany pochodzącym z II w. p.n.e. zestawem reguł, spisanych pismem klinowym na glinianej tabliczce przez babilońskiego astronoma Itti-Marduk-Balātu z myślą o grze hazardowej.", credit: "history.credit.urgammon" },
  ],
};

export function historyPage(main) {
  document.title = t("history.title") + " — Agon";
  const section = (game, name) => el("section", { class: "card history", "aria-labelledby": "history-" + game },
    el("h2", { id: "history-" + game }, name),
    ...t(`history.${game}`).split("\n").map((p) => el("p", {}, p)),
    ...QUOTES[game].map((q) => el("figure", { class: "quote" },
      el("blockquote", { lang: q.lang }, q.text),
      el("figcaption", {}, "— ", t(q.credit)))),
    el("h3", {}, t("history.sources")),
    el("ul", {}, t(`history.${game}_sources`).split("\n").map((s) => el("li", {}, s))));
  main.append(el("h1", {}, t("history.title")), el("p", { class: "muted" }, t("history.intro")),
    section("ringo", "Ringo"), section("urgammon", "Urgammon"),
    el("p", {}, el("a", { href: "/glossary", "data-nav": true, id: "glossary-link" }, t("glossary.title")), " · ",
      el("a", { href: "/rules", "data-nav": true }, t("nav.rules"))));
}
