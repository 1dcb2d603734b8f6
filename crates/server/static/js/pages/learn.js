// The lessons (/learn): short steps on the real board, each one task the
// rules engine checks. A lesson's position goes to the analysis API, which
// answers the board and its legal moves (Ringo: a position under its
// rules; Urgammon: a set-up and the dice of the lesson); the board offers
// only legal moves, and the lesson accepts the ones its task asks for. A
// wrong try is explained and the position comes back. The lessons are data
// (`static/learn/{ringo,urgammon}.json`, each text in three languages);
// progress is kept in the browser and, signed in, on the account.
import { el, toast, announce } from "../dom.js";
import { t, LANG } from "../../i18n.js";
import { positionState } from "../api.js";
import { gameOf, GAME_NAMES } from "../games.js";
import { account, saveSetting, mergeLearned } from "../account.js";
import { termsRow } from "../glossary.js";

const GAMES = GAME_NAMES;
const cache = {};

/** A game's lessons, from its data file. */
export async function lessons(game) {
  if (!cache[game]) {
    const r = await fetch(`/static/learn/${game}.json`);
    cache[game] = (await r.json()).lessons;
  }
  return cache[game];
}

/** A lesson's text in the page's language. */
export const say = (l, key) => l[key][LANG] || l[key].en;

/** The lessons done, per game, as this browser keeps them. */
export function progress() {
  try {
    const p = JSON.parse(localStorage.getItem("agon-learn") || "{}");
    return Object.fromEntries(GAMES.map((g) => [g, Array.isArray(p[g]) ? p[g].filter((x) => typeof x === "string") : []]));
  } catch {
    return { ringo: [], urgammon: [] };
  }
}

async function markDone(game, id) {
  const p = progress();
  if (!p[game].includes(id)) p[game].push(id);
  localStorage.setItem("agon-learn", JSON.stringify(p));
  // Signed in: kept on the account (the account is read first, so a page
  // opened before the answer still saves).
  if (await account().catch(() => null)) saveSetting("learn", p);
}

/** `/learn`: every lesson of both games, those done ticked. */
export async function learnPage(main, game, id) {
  if (game && id) return lessonPage(main, game, id);
  document.title = t("learn.title") + " — Agon";
  // Signed in: the lessons done on other devices count here too.
  mergeLearned((await account().catch(() => null))?.settings?.learn);
  const done = progress();
  main.append(el("h1", {}, t("learn.title")), el("p", { class: "muted" }, t("learn.intro")),
    el("p", {}, el("a", { href: "/puzzles", "data-nav": true, id: "learn-puzzles" }, t("puzzles.link")), " · ",
      el("a", { href: "/strategy", "data-nav": true, id: "learn-strategy" }, t("strategy.title"))));
  for (const g of GAMES) {
    const list = await lessons(g);
    main.append(el("section", { class: "card", id: "learn-" + g, "aria-labelledby": "learn-title-" + g },
      el("h2", { id: "learn-title-" + g }, gameOf(g).name, " ",
        el("span", { class: "muted", id: "learn-count-" + g }, t("learn.count", { n: done[g].filter((x) => list.some((l) => l.id === x)).length, total: list.length }))),
      el("ol", { class: "lessons" }, list.map((l) => el("li", { "data-lesson": l.id, "data-done": done[g].includes(l.id) ? "yes" : "no" },
        el("a", { href: `/learn/${g}/${l.id}`, "data-nav": true }, say(l, "title")),
        done[g].includes(l.id) ? el("span", { class: "badge", "aria-label": t("learn.done") }, " ✓") : null)))));
  }
}

/** One lesson: its task, the board, a hint, and what a try means. */
async function lessonPage(main, game, id) {
  const list = await lessons(game).catch(() => []);
  const index = list.findIndex((l) => l.id === id);
  if (index < 0) {
    main.append(el("p", { class: "result" }, t("learn.unknown")), el("a", { href: "/learn", "data-nav": true }, t("learn.all")));
    return;
  }
  const l = list[index];
  const next = list[index + 1];
  document.title = say(l, "title") + " — Agon";
  const view = { id: "lesson", you: [0, 1], state: null, selected: null, flipped: false, presence: [true, true] };
  const boardWrap = el("div", { class: "boardwrap" });
  const feedback = el("div", { class: "notice", id: "lesson-feedback", role: "status", hidden: true });
  const hint = el("p", { class: "muted", id: "lesson-hint", hidden: true }, say(l, "hint"));
  // Beside the board what the game page shows there (Urgammon's dice and
  // pips), so the roll a task names is the roll the learner sees.
  const extra = el("div", { id: "lesson-extra" });
  // A lesson about the verdict die has its button (the die then shows the
  // lesson's roll, `verdict_roll`).
  const verdictButton = l.accept.includes("verdict")
    ? el("button", { id: "lesson-verdict", onclick: () => play("verdict") }, t("ur.verdict")) : null;
  // A lesson about passing has the Pass button the game page has.
  const passButton = l.accept.includes("pass")
    ? el("button", { id: "lesson-pass", onclick: () => play("pass") }, t("game.pass")) : null;
  // A lesson at the end of a match says the score, and after the move what
  // the match came to (the lesson's data, checked by tests/lessons.rs
  // against the rules crate's own match).
  const matchLine = l.match ? el("p", { id: "lesson-match", class: "notice" }, t("learn.match",
    { to: l.match.to, stake: l.match.stake, light: l.match.score[0], dark: l.match.score[1] })) : null;
  const side = el("aside", { class: "side", "aria-label": t("learn.title") },
    el("p", { class: "muted" }, t("learn.step", { n: index + 1, total: list.length, game: gameOf(game).name })),
    matchLine,
    el("p", { id: "lesson-task" }, say(l, "task")),
    // The words of the lesson that the glossary explains, opened in place
    // as on the game page.
    l.terms?.length ? termsRow(l.terms) : null,
    extra,
    verdictButton,
    passButton,
    el("div", { class: "row" }, el("button", { id: "lesson-hint-button", onclick: () => { hint.hidden = false; } }, t("learn.hint"))),
    hint, feedback,
    el("div", { class: "row", id: "lesson-nav" },
      el("a", { class: "button", href: "/learn", "data-nav": true, id: "lesson-all" }, t("learn.all")),
      el("a", { class: "button", href: "/strategy#strategy-" + game, "data-nav": true, id: "lesson-strategy" }, t("strategy.title")),
      next ? el("a", { class: "button", href: `/learn/${game}/${next.id}`, "data-nav": true, id: "lesson-next", hidden: true }, t("learn.next")) : null));
  main.append(el("h1", {}, say(l, "title")), el("div", { class: "game" }, boardWrap, side),
    el("p", { class: "sr-only", id: "board-help" }, t("game.board_help")));
  let solved = false;

  /** The lesson's position (with `move` played after it), from the rules
   *  engine. */
  async function load(move) {
    view.state = await positionState(gameOf(game).positionRequest(l, move));
    view.selected = null;
    view.chooser = null;
    window.agonState = view.state;
    draw();
  }
  function draw() {
    const mine = !solved;
    boardWrap.replaceChildren(gameOf(game).board(view, play, mine, () => draw()));
    extra.replaceChildren(...gameOf(game).boardExtras(view.state));
  }
  async function play(move) {
    if (solved) return;
    if (l.accept.includes(move)) {
      solved = true;
      feedback.dataset.result = "right";
      feedback.textContent = t("learn.right") + " " + say(l, "done");
      if (matchLine && l.match_after) {
        const a = l.match_after;
        matchLine.textContent = t("learn.match_after", { light: a.score[0], dark: a.score[1],
          winner: t("Side." + a.winner), payout: a.payout });
      }
      feedback.hidden = false;
      markDone(game, l.id);
      document.getElementById("lesson-next")?.removeAttribute("hidden");
      announce(feedback.textContent);
      for (const b of [verdictButton, passButton]) if (b) b.hidden = true;
      try { await load(move === "verdict" ? l.verdict_roll : move); } catch (e) { toast(e.message); }
      (document.getElementById("lesson-next") || document.getElementById("lesson-all")).focus();
    } else {
      // A legal move, but not the one the task asks for: say why, and put
      // the position back.
      feedback.dataset.result = "wrong";
      // A wrong capture has its own text where the lesson has one: the
      // general one may say "that move captures nothing" (the lesson check
      // in crates/server/tests/lessons.rs holds each text to the moves it
      // answers).
      const why = move.includes("x") && l.wrong_capture ? "wrong_capture" : "wrong";
      feedback.textContent = t("learn.wrong", { move }) + " " + say(l, why);
      feedback.hidden = false;
      announce(feedback.textContent);
      view.selected = null;
      view.chooser = null;
      draw();
    }
  }
  try {
    await load();
  } catch (e) {
    main.append(el("p", { class: "result" }, e.message));
  }
}
