// The rules page: both games in short, and every Ringo option with each
// preset's value, its meaning and its sources.
import { el } from "../dom.js";
import { t } from "../../i18n.js";
import { api, meta } from "../api.js";
import { optionValue } from "../settings.js";
import { gameOf } from "../games.js";
import { termsRow, TERMS } from "../glossary.js";

/** Each game's start, drawn by the game page's own board (nothing to
 *  move), with a caption saying what is where; the text alone left a new
 *  player to picture the board. Drawn when the server's start position
 *  comes; without it the page keeps its text. */
async function startFigure(game, into) {
  try {
    // The cheapest look each game's engine takes: the start is all we draw.
    // A client may have two analyses at once: switching languages quickly
    // asks for more (each page draws two), so a refusal for that is tried
    // again in a moment rather than losing the figure.
    const body = { ringo: { game, depth: 1 }, urgammon: { game, level: 1 } }[game];
    let r = null;
    for (let tries = 0; !r; tries++) {
      try {
        r = await api("POST", "/api/analyze", body);
      } catch (e) {
        if (e.status !== 429 || tries >= 20) throw e;
        await new Promise((done) => setTimeout(done, 250));
      }
    }
    const view = { id: "rules-" + game, you: [], state: { ...r.state, game: r.game }, selected: null, flipped: false, arrows: [] };
    into.replaceChildren(gameOf(game).board(view),
      el("figcaption", { class: "muted" }, t({ ringo: "rules.board_ringo", urgammon: "rules.board_urgammon" }[game])));
    into.hidden = false;
  } catch {
    into.remove();
  }
}

export async function rulesPage(main) {
  const m = await meta();
  main.append(el("h1", {}, t("rules.title")), el("p", {},
    el("a", { href: "/glossary", "data-nav": true, id: "rules-glossary" }, t("glossary.title")), " · ",
    el("a", { href: "/history", "data-nav": true, id: "rules-history" }, t("history.title")), " · ",
    el("a", { href: "/learn", "data-nav": true, id: "rules-learn" }, t("learn.title"))));
  const ringo = el("section", { class: "card", id: "rules-ringo" }, el("h2", {}, "Ringo"));
  ringo.insertAdjacentHTML("beforeend", t("rules.ringo"));
  const presets = m.ringo.presets;
  const cell = (label, ...content) => el("td", { "data-label": label }, ...content);
  ringo.append(el("h3", {}, t("rules.options")), el("table", { class: "list stack", id: "options-table" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("rules.col.option")), presets.map((p) => el("th", { scope: "col" }, p.name)),
      el("th", { scope: "col" }, t("rules.col.meaning")), el("th", { scope: "col" }, t("rules.col.source")))),
    el("tbody", {}, m.ringo.options.map((o) => el("tr", {},
      cell(t("rules.col.option"), el("b", {}, t("optname." + o.key)), el("br"), el("code", {}, o.key), " ",
        el("small", { class: "muted" }, o.values.join(" | "))),
      presets.map((p) => cell(p.name, optionValue(o.key, p.options[o.key]))),
      cell(t("rules.col.meaning"), t("opt." + o.key)),
      cell(t("rules.col.source"), el("small", {}, t("source." + o.key))))))),
  el("p", { class: "muted" }, t("rules.sources_legend")),
  el("p", {}, el("a", { href: "/lab", "data-nav": true, id: "lab-link" }, t("lab.title"))));
  const ur = el("section", { class: "card spaced", id: "rules-urgammon" }, el("h2", {}, "Urgammon"));
  ur.insertAdjacentHTML("beforeend", t("rules.urgammon"));
  const figure = (game) => el("figure", { class: "rules-board", id: "rules-board-" + game, hidden: true });
  const ringoFigure = figure("ringo"), urFigure = figure("urgammon");
  // Under each game's list of rules (or at its end, were a translation without one).
  (ringo.querySelector("ul") || ringo.lastChild).after(ringoFigure);
  (ur.querySelector("ul") || ur.lastChild).after(urFigure);
  // Every word of each game that the glossary explains, opened in place,
  // under the game's start.
  ringoFigure.after(termsRow(TERMS.ringo));
  urFigure.after(termsRow(TERMS.urgammon));
  main.append(ringo, ur, el("p", { class: "sr-only", id: "board-help" }, t("game.board_help")));
  await Promise.all([startFigure("ringo", ringoFigure), startFigure("urgammon", urFigure)]);
}
