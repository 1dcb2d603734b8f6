// One entry per game: what the pages need of it (its board, its side panel,
// its name and seats, how its moves are said, where the look back stops).
// A page asks `gameOf(name)` instead of testing `game === "ringo"`, so a
// third game is one more entry here, and a game no entry knows is an error
// to see, not one drawn as the other game.
import { t } from "../i18n.js";
import { ringoBoard } from "./boards/ringo.js";
import { urgammonBoard } from "./boards/urgammon.js";
import { ringoPanel, ringoResult } from "./panels/ringo.js";
import { urgammonPanel, diceBlock, pipLine } from "./panels/urgammon.js";
import { urNotationText, urMoveText } from "./log.js";
import { ringoSettings, urgammonSettings } from "./settings.js";

const GAMES = {
  ringo: {
    name: "Ringo",
    sides: ["attackers", "defenders"],
    /** The board of `view.state`: `act(notation)` plays a move (none: to look at). */
    board: (view, act, mine = false, onChoice = () => view.rerender?.()) => ringoBoard(view, act || (() => {}), onChoice, mine),
    panel: (view, send) => ringoPanel(view, send),
    /** A move as the review's lists say it: Ringo keeps its notation and the grade's mark. */
    moveWords: (notation, symbol) => notation + (symbol || ""),
    /** The positions the game page's look back stops at, the live one last: every move. */
    stops: (s) => [...Array(s.history.length + 1).keys()],
    /** Whether the last move took a piece (for its sound). */
    captured: (s) => !!s.last_move?.captured,
    /** The last move, said for screen readers ("" when none was made). */
    lastMoveSaid: (before, s) => {
      if (s.history.length <= before.history.length) return "";
      // Ringo alternates strictly (a pass is a move): the mover is the side not to move now.
      const mover = s.to_move === "attackers" ? "defenders" : "attackers";
      return t("say.played", { side: t("Side." + mover), move: s.history[s.history.length - 1] });
    },
    /** The game's result in words once it has ended, else null. */
    result: (s) => ringoResult(s),
    /** Where the look back stands, in words. */
    lookingAt: (s, ply) => t("game.browsing_move", { n: ply, total: s.history.length }),
    /** A rule set (a rules string) in words. */
    settingsWords: (settings) => ringoSettings(settings, false),
    /** What a seek or a new game names its rules by: a preset. */
    seekRules: "rules",
    /** The most even rule set (`m`: `/api/meta`), which quick pairing's even
     *  pools play. */
    evenRules: (m) => m.ringo.even_rules,
    /** The rule sets a seek or a challenge offers, as `[value, label]`: the
     *  most even set first (the one quick pairing's even pools and a friend
     *  game on the home page play), then each source's (`m`: `/api/meta`). */
    ruleChoices: (m) => [
      ...(m.ringo.even_rules ? [[m.ringo.even_rules, t("lobby.even_rules", { rules: ringoSettings(m.ringo.even_rules, false) })]] : []),
      ...m.ringo.presets.map((p) => [p.name, p.name + " — " + t("preset." + p.name)]),
    ],
    /** What a tournament made on the page adds for the game: nothing (its
     *  rules are the most even set, the server's default). */
    eventFields: {},
    /** How a pasted record of the game begins: its rules or a start
     *  position. */
    recordStart: /^(classic|encyclopedia|globe)\b|\//,
    /** A rating's count in words: a rated Ringo game is a pair (seats
     *  swapped), rated once. */
    ratedCount: (n) => t("profile.rated_pairs", { n }),
    /** The analysis board's request for a set position (a lesson's or a
     *  puzzle's `rules` and `position`) with `move` played after it. */
    positionRequest: (spec, move) => ({ game: "ringo", rules: spec.rules, position: spec.position,
      moves: [spec.moves, move].filter(Boolean).join(" "), depth: 1 }),
    /** The analysis board's address parameters for a set position (a
     *  strategy item's or a glossary example's) with `move` played after it. */
    analysisParams: (spec, move) => {
      const p = { rules: spec.rules, position: spec.position };
      if (move) p.moves = move;
      return p;
    },
    /** What a board shows beside it (Urgammon's dice): nothing. */
    boardExtras: () => [],
    /** Whether the verdict die may be rolled: never. */
    verdictAllowed: () => false,
    /** A puzzle's task in words: the fastest win, a win in n, or the best margin. */
    puzzleTask: (p) => {
      const side = t("side." + p.to_act);
      if (p.goal === "best") return t("puzzles.task_margin", { side });
      return p.goal === "fastest" ? t("puzzles.task_fastest", { side, n: p.plies }) : t("puzzles.task_win", { side, n: p.plies });
    },
    /** A wrong try at a puzzle, said without giving the answer away (the
     *  explanation, which names it, comes with "Show the solution"). */
    puzzleWrongTry: (a, move) => t("puzzles.wrong_try", { move }),
    /** A wrong try at a puzzle, explained (`a`: the attempt's answer). */
    puzzleWrong: (a, move) => {
      const sol = a.solution.join(" ");
      if (a.goal === "best") {
        const win = (c) => Math.round(100 * (a.options.find((o) => o.choice === c)?.win ?? 0));
        return t("puzzles.wrong_margin", { move, solution: sol, best: win(sol), other: win(move) });
      }
      return t(a.goal === "fastest" ? "puzzles.wrong_fastest" : "puzzles.wrong_win", { move, solution: sol, n: a.plies });
    },
  },
  urgammon: {
    name: "Urgammon",
    sides: ["light", "dark"],
    board: (view, act, mine = false) => urgammonBoard(view, act || (() => {}), mine),
    panel: (view, send) => urgammonPanel(view, send),
    /** A decision in words ("pawn enters 2a"); its grade is said beside it. */
    moveWords: (notation) => urNotationText(notation),
    /** Every turn of the game in play, after its opening position (its
     *  opening roll made, no piece moved). The game's tokens follow the
     *  match's earlier games in the record; the tied opening rolls come
     *  first, then the one that decided. */
    stops: (s) => {
      const turns = s.log.map((l) => l.ply);
      const opening = s.version - s.tokens.length + (s.log[0]?.ties || 0) + 1;
      return turns.length && opening < turns[0] ? [opening, ...turns] : turns;
    },
    captured: (s) => !!s.log.at(-1)?.moves.at(-1)?.captured,
    lastMoveSaid: (before, s) => {
      const turn = s.log[s.log.length - 1];
      const move = turn && turn.moves[turn.moves.length - 1];
      return move && turn.side ? t("say.played", { side: t("Side." + turn.side), move: urMoveText(move) }) : "";
    },
    /** A match's result is said by its own panel as it changes. */
    result: () => null,
    /** A stop is a turn of the log, or the game's opening before them. */
    lookingAt: (s, ply) => {
      const turn = s.log.find((l) => l.ply === ply);
      return turn ? t("game.browsing_turn", { n: turn.turn, total: s.log.length }) : t("game.browsing_opening");
    },
    /** A match header in words. */
    settingsWords: (settings) => urgammonSettings(settings),
    /** What a seek or a new game names its rules by: the match's length. */
    seekRules: "to",
    /** One rule set: none more even than another. */
    evenRules: () => null,
    /** One rule set: nothing to choose. */
    ruleChoices: () => [],
    /** What a tournament made on the page adds for the game: its matches
     *  are to 3 points. */
    eventFields: { to: 3 },
    /** How a pasted record of the game begins: its match header or its
     *  opening roll. */
    recordStart: /^(urgammon|start:)/,
    /** A rating's count in words: a rated Urgammon match is rated once,
     *  however many games it had. */
    ratedCount: (n) => t("profile.rated_matches", { n }),
    /** The analysis board's request for a set-up (a lesson's or a
     *  puzzle's `setup` and `record`: the turn's dice) with `move` after it. */
    positionRequest: (spec, move) => ({ game: "urgammon", setup: spec.setup, record: move ? spec.record + " " + move : spec.record, level: 1 }),
    /** The analysis board's address parameters for a set-up and its
     *  record (the turn's dice), with `move` after it. */
    analysisParams: (spec, move) => ({ setup: spec.setup, record: move ? `${spec.record} ${move}` : spec.record }),
    /** The dice and the pips, beside a board. */
    boardExtras: (s) => [diceBlock(s), pipLine(s)],
    /** Whether the verdict die may be rolled now. */
    verdictAllowed: (s) => !!s.verdict_allowed,
    /** A puzzle's task in words: the best decision with this die. */
    puzzleTask: (p, s) => {
      const side = t("side." + p.to_act);
      // English starts the sentence with the side ("Dark to play"); the
      // other languages put it later, in lower case.
      const words = { side, Side: side.charAt(0).toUpperCase() + side.slice(1), die: s.dice?.chance ?? "–" };
      // The verdict die is a choice only while it may be rolled: a puzzle
      // set after its YES asks for the best move with the promoted value.
      if (s.verdict_allowed) return t("puzzles.task_best", words);
      if (s.dice?.verdict === true) return t("puzzles.task_best_yes", { ...words, v: s.value });
      return t("puzzles.task_best_move", words);
    },
    /** A wrong try at a puzzle: the equity it lost, not the best choice. */
    puzzleWrongTry: (a, move) => {
      const eq = (c) => a.options.find((o) => o.choice === c)?.equity;
      return t("puzzles.wrong_best_try", { move: move === "verdict" ? t("puzzles.verdict") : move,
        lost: (eq(a.solution[0]) - eq(move)).toFixed(2) });
    },
    /** A wrong try at a puzzle, explained with the equity it lost. */
    puzzleWrong: (a, move) => {
      const sol = a.solution.join(" ");
      const eq = (c) => a.options.find((o) => o.choice === c)?.equity;
      return t("puzzles.wrong_best", { move: move === "verdict" ? t("puzzles.verdict") : move, solution: sol === "verdict" ? t("puzzles.verdict") : sol,
        lost: (eq(a.solution[0]) - eq(move)).toFixed(2) });
    },
  },
};

/** Every game's name (`ringo`, `urgammon`), in the order pages list them. */
export const GAME_NAMES = Object.keys(GAMES);

/** The entry of game `name` (`ringo`, `urgammon`); an unknown game throws. */
export function gameOf(name) {
  const g = GAMES[name];
  if (!g) throw new Error(t("err.unknown-game") + " (" + name + ")");
  return g;
}
