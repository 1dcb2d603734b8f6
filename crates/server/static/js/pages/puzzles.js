// The puzzle trainer (/puzzles, /puzzles/{id}): one position with one best
// decision, found by `agon puzzles build` (Ringo: the endgame tablebases;
// Urgammon: level-10 self-play with review). The board comes from the
// analysis API, so it offers only legal moves; a try goes to
// `POST /api/puzzles/{id}/attempt`, which says whether it was right and
// gives the solution, shown on the board. A puzzle rating per game
// (Glicko-2, computed by the server): on the account when signed in, in this
// browser otherwise (`agon-puzzles`). Only a first try is rated.
import { termsRow, TERMS } from "../glossary.js";
import { el, toast, announce } from "../dom.js";
import { t } from "../../i18n.js";
import { api, positionState } from "../api.js";
import { gameOf, GAME_NAMES } from "../games.js";
import { account } from "../account.js";

const GAMES = GAME_NAMES;
const NEW = { rating: 1500, deviation: 350, volatility: 0.06, attempts: 0 };
/** How many tried ids the browser remembers per game (sent as `exclude`). */
const REMEMBER = 200;

/** This browser's puzzle ratings and tried puzzles. */
function local() {
  try {
    const p = JSON.parse(localStorage.getItem("agon-puzzles") || "{}");
    const out = { game: GAMES.includes(p.game) ? p.game : GAMES[0], rating: {}, tried: {} };
    for (const g of GAMES) {
      const r = p.rating?.[g];
      out.rating[g] = r && Number.isFinite(r.rating) ? r : { ...NEW };
      out.tried[g] = Array.isArray(p.tried?.[g]) ? p.tried[g].filter((x) => typeof x === "string").slice(-REMEMBER) : [];
    }
    return out;
  } catch {
    return { game: GAMES[0], rating: Object.fromEntries(GAMES.map((g) => [g, { ...NEW }])), tried: Object.fromEntries(GAMES.map((g) => [g, []])) };
  }
}

function saveLocal(p) {
  localStorage.setItem("agon-puzzles", JSON.stringify(p));
}

/** A rating as shown: `1523`, with `?` while it is still provisional. */
function ratingText(r) {
  return Math.round(r.rating) + (r.deviation > 110 ? "?" : "");
}

/** A theme's name in the page's language. */
const themeName = (id) => t("theme." + id);

/** `/puzzles` (a new puzzle) or `/puzzles/{id}` (that one). */
export async function puzzlesPage(main, id) {
  document.title = t("puzzles.title") + " — Agon";
  const store = local();
  const me = await account().catch(() => null);
  let sets = null;
  try {
    sets = await api("GET", "/api/puzzles");
  } catch (e) {
    main.append(el("p", { class: "result" }, e.message));
    return;
  }
  let game = store.game;
  let theme = "";
  const view = { id: "puzzle", you: [0, 1], state: null, selected: null, flipped: false, presence: [true, true] };
  let puzzle = null;
  let tried = false; // a try was sent for this puzzle (later ones are retries)
  let lastWrong = null; // the last wrong try, explained with the solution
  let done = false; // solved, or the solution shown: the board rests

  const gameSelect = el("select", { id: "puzzle-game", onchange: () => { game = gameSelect.value; theme = ""; store.game = game; saveLocal(store); fillThemes(); next(); } },
    GAMES.map((g) => el("option", { value: g }, gameOf(g).name)));
  const themeSelect = el("select", { id: "puzzle-theme", onchange: () => { theme = themeSelect.value; next(); } });
  function fillThemes() {
    gameSelect.value = game;
    const set = sets.games.find((s) => s.game === game);
    themeSelect.replaceChildren(el("option", { value: "" }, t("puzzles.all_themes", { n: set.count })),
      ...Object.entries(set.themes).map(([k, n]) => el("option", { value: k }, `${themeName(k)} (${n})`)));
    themeSelect.value = theme;
    showRating();
  }
  const ratingLine = el("p", { id: "puzzle-rating" });
  function myRating() {
    return me ? (sets.player?.[game] || { ...NEW }) : store.rating[game];
  }
  function showRating(change) {
    const r = myRating();
    ratingLine.replaceChildren(t("puzzles.your_rating", { game: gameOf(game).name, rating: ratingText(r) }),
      change === undefined ? "" : el("span", { id: "puzzle-change", class: change >= 0 ? "up" : "down" },
        " (" + (change >= 0 ? "+" : "−") + Math.abs(Math.round(change)) + ")"),
      me ? "" : el("span", { class: "muted" }, " " + t("puzzles.in_browser")));
  }

  const boardWrap = el("div", { class: "boardwrap" });
  const task = el("p", { id: "puzzle-task" });
  const info = el("p", { class: "muted", id: "puzzle-info" });
  const extra = el("div", { id: "puzzle-extra" });
  // The puzzle's game's words, explained in place as on the game page.
  const words = el("div", { id: "puzzle-words" });
  const feedback = el("div", { class: "notice", id: "puzzle-feedback", role: "status", hidden: true });
  const verdictButton = el("button", { id: "puzzle-verdict", hidden: true, onclick: () => play("verdict") }, t("ur.verdict"));
  const retryButton = el("button", { id: "puzzle-retry", hidden: true, onclick: () => retry() }, t("puzzles.retry"));
  const solutionButton = el("button", { id: "puzzle-solution", hidden: true, onclick: () => showSolution() }, t("puzzles.show_solution"));
  const nextButton = el("button", { id: "puzzle-next", class: "primary", onclick: () => next() }, t("puzzles.next"));
  const options = el("ol", { id: "puzzle-options", class: "moves log", hidden: true });
  const exactNote = el("p", { id: "puzzle-exact", class: "muted", hidden: true }, t("puzzles.options_exact"));
  let answer = null; // the last attempt's answer

  main.append(el("h1", {}, t("puzzles.title")),
    el("p", { class: "muted" }, t("puzzles.intro")),
    el("div", { class: "row", id: "puzzle-choice" },
      el("label", {}, t("puzzles.game"), " ", gameSelect),
      el("label", {}, t("puzzles.theme"), " ", themeSelect)),
    ratingLine,
    el("div", { class: "game puzzle" }, boardWrap,
      el("aside", { class: "side", "aria-label": t("puzzles.title") }, task, info, words, extra, verdictButton, feedback, options, exactNote,
        el("div", { class: "row", id: "puzzle-buttons" }, retryButton, solutionButton, nextButton))),
    el("p", { class: "sr-only", id: "board-help" }, t("game.board_help")));
  fillThemes();

  /** The puzzle's position (with `move` played after it), from the rules
   *  engine. */
  async function load(move) {
    view.state = await positionState(gameOf(puzzle.game).positionRequest(puzzle, move));
    view.selected = null;
    view.chooser = null;
    window.agonState = view.state;
    draw();
  }
  function draw() {
    const s = view.state;
    const g = gameOf(puzzle.game);
    boardWrap.replaceChildren(g.board(view, play, !done, () => draw()));
    extra.replaceChildren(...g.boardExtras(s));
    words.replaceChildren(termsRow(TERMS[puzzle.game] || []));
    verdictButton.hidden = done || !g.verdictAllowed(s);
  }

  async function show(p) {
    puzzle = p;
    tried = false;
    done = false;
    answer = null;
    lastWrong = null;
    feedback.hidden = true;
    retryButton.hidden = true;
    solutionButton.hidden = true;
    options.hidden = true;
    exactNote.hidden = true;
    game = p.game;
    if (gameSelect.value !== game) { gameSelect.value = game; fillThemes(); }
    if (p.player) sets.player = { ...(sets.player || {}), [game]: p.player };
    showRating();
    history.replaceState(null, "", "/puzzles/" + p.id);
    info.textContent = t("puzzles.info", { id: p.id, rating: p.rating, themes: p.themes.map(themeName).join(", ") });
    await load();
    task.textContent = gameOf(p.game).puzzleTask(p, view.state);
    announce(task.textContent);
    boardWrap.querySelector("[tabindex='0'], button, [role='button']")?.focus({ preventScroll: true });
  }

  async function next() {
    const q = new URLSearchParams({ game });
    if (theme) q.set("theme", theme);
    if (puzzle) q.set("after", puzzle.id);
    if (!me) {
      q.set("rating", String(Math.round(Math.min(4000, Math.max(100, store.rating[game].rating)))));
      if (store.tried[game].length) q.set("exclude", store.tried[game].join(","));
    }
    try {
      await show(await api("GET", "/api/puzzles/next?" + q));
    } catch (e) {
      toast(e.message);
    }
  }

  /** The answer's words: a wrong try is told it is wrong (and, in
   *  Urgammon, what it lost), never the answer, so that "Try again" means
   *  something; the explanation naming the answer waits for "Show the
   *  solution". */
  function explain(a, move) {
    return a.correct ? t("puzzles.right") : gameOf(puzzle.game).puzzleWrongTry(a, move);
  }

  function showOptions(a) {
    if (!a.options?.length) return;
    const value = (o) => o.win !== undefined ? t("puzzles.win_chance", { n: Math.round(100 * o.win) })
      : (o.equity >= 0 ? "+" : "−") + Math.abs(o.equity).toFixed(3);
    options.replaceChildren(...a.options.map((o) => el("li", { "data-choice": o.choice, class: o.choice === a.solution[0] ? "best" : "" },
      (o.choice === "verdict" ? t("puzzles.verdict") : o.choice) + " " + value(o))));
    // Exact values (every line played out) are said as such.
    options.setAttribute("aria-label", t(a.options[0].win !== undefined ? "puzzles.options_win" : a.exact ? "puzzles.options_exact" : "puzzles.options"));
    options.hidden = false;
    exactNote.hidden = !a.exact;
  }

  async function play(move) {
    if (done || !puzzle) return;
    const first = !tried;
    tried = true;
    const body = { moves: [move] };
    if (first && !me) body.player = store.rating[game];
    let a;
    try {
      a = await api("POST", `/api/puzzles/${puzzle.id}/attempt`, body);
    } catch (e) {
      toast(e.message);
      view.selected = null;
      draw();
      return;
    }
    answer = a;
    if (!a.correct) lastWrong = move;
    if (first) {
      if (!me && a.player) store.rating[game] = a.player;
      if (me && a.player) sets.player = { ...(sets.player || {}), [game]: a.player };
      if (!me) store.tried[game] = [...store.tried[game].filter((x) => x !== puzzle.id), puzzle.id].slice(-REMEMBER);
      saveLocal(store);
      showRating(a.rated ? a.change : undefined);
    }
    feedback.dataset.result = a.correct ? "right" : "wrong";
    // A retry is never rated; nor is a first try here at a puzzle the
    // account tried on another device.
    feedback.textContent = explain(a, move) + (first && (a.rated || !me) ? "" : " " + t("puzzles.not_rated"));
    feedback.hidden = false;
    announce(feedback.textContent);
    if (a.correct) {
      done = true;
      showOptions(a);
      retryButton.hidden = true;
      solutionButton.hidden = true;
      if (move !== "verdict") await load(move).catch((e) => toast(e.message));
      else draw();
      nextButton.focus();
    } else {
      retryButton.hidden = false;
      solutionButton.hidden = false;
      view.selected = null;
      view.chooser = null;
      draw();
      retryButton.focus();
    }
  }

  /** Back to the puzzle's position for another try (not rated). */
  function retry() {
    feedback.hidden = true;
    retryButton.hidden = true;
    load().then(() => boardWrap.querySelector("[tabindex='0'], button, [role='button']")?.focus()).catch((e) => toast(e.message));
  }

  /** The solution played on the board, with the words that go with it. */
  async function showSolution() {
    if (!answer) return;
    done = true;
    const sol = answer.solution[0];
    feedback.dataset.result = "solution";
    const why = lastWrong ? gameOf(puzzle.game).puzzleWrong(answer, lastWrong) + " " : "";
    feedback.textContent = why + t("puzzles.solution_is", { solution: sol === "verdict" ? t("puzzles.verdict") : sol });
    feedback.hidden = false;
    retryButton.hidden = true;
    solutionButton.hidden = true;
    showOptions(answer);
    if (sol !== "verdict") await load(sol).catch((e) => toast(e.message));
    else draw();
    announce(feedback.textContent);
    nextButton.focus();
  }

  if (id) {
    try {
      await show(await api("GET", "/api/puzzles/" + encodeURIComponent(id)));
      return;
    } catch (e) {
      toast(e.message);
    }
  }
  await next();
}
