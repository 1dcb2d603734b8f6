// The replay: any ply of a stored game, with First / Previous / Next / Last,
// the arrow, Home and End keys, a slider, the numbered move list, and for
// Urgammon the dice and the match score at that ply.
import { playersLineText } from "../players.js";
import { el } from "../dom.js";
import { t } from "../../i18n.js";
import { api } from "../api.js";
import { onLeave } from "../router.js";
import { gameOf } from "../games.js";
import { ringoMoveList, ringoResult, capturedTally } from "../panels/ringo.js";
import { diceBlock, scoreLine, urLog, gameResultLine, pipLine, matchGames } from "../panels/urgammon.js";
import { notFoundPage } from "./notfound.js";
import { chatRecord } from "../panels/chat.js";
import { openGameLink, showInList, stepLabel, analysisHref } from "../panels/common.js";

/** The result at a replayed ply, if the game (or match) has ended there. */
const REPLAY_RESULT = {
  ringo: (s) => ringoResult(s),
  urgammon: (s) => (s.resigned ? t("ur.match_resigned", { side: t("Side." + s.resigned) })
    : s.phase === "over" ? gameResultLine(s.result) : null),
};
function replayResult(s) {
  const content = REPLAY_RESULT[s.game](s);
  return content ? el("div", { class: "result", id: "replay-result" }, content) : null;
}

/** The plies at which a match record's games start: 0 for the first, and for
 *  each later one the ply after its opening roll (its `start:` tokens, one
 *  more for each tie), where that game's board and dice are first shown. */
function matchGameStarts(tokens) {
  const starts = [0];
  tokens.forEach((tk, i) => {
    if (i > 0 && tk.startsWith("start:") && !tokens[i - 1].startsWith("start:")) {
      let j = i;
      while (j < tokens.length && tokens[j].startsWith("start:")) j++;
      starts.push(j);
    }
  });
  return starts;
}

export async function replayPage(main, id) {
  const view = { id, you: [], state: null, selected: null };
  const boardWrap = el("div", { class: "boardwrap" });
  const side = el("aside", { class: "side", "aria-label": t("replay.title") });
  const players = el("p", { class: "muted", id: "players-line" });
  main.append(el("h1", {}, t("replay.title")), players, el("div", { class: "game" }, boardWrap, side),
    el("p", { class: "sr-only", id: "board-help" }, t("game.board_help")));
  // The players' and spectators' chat, kept with the game (the players'
  // is everyone's once the game is over).
  api("GET", `/api/games/${id}`).then((g) => chatRecord(id, g.state)).then((box) => { if (box) main.append(box); }).catch(() => {});
  // `?ply=N` opens that position (a link from the review, or one shared);
  // without it, or with anything but a whole number, the game's end.
  const asked = Number(new URLSearchParams(location.search).get("ply") ?? "x");
  let ply = Number.isInteger(asked) && asked >= 0 ? asked : 1e9, total = 0, busy = false;
  // The ply wanted: keys and buttons step from it at once, ahead of the
  // server's answer, so ten quick presses go ten steps (the answer for the
  // last one is the one shown; none is lost while another loads).
  let target = ply;
  // Urgammon steps a turn at a time (the record counts each die and each
  // move: 270 steps for one game), or token by token on request.
  let byToken = false;
  /** The plies a step may land on, or null for every ply. */
  // A game whose record counts several tokens a turn says where its turns end.
  const stopsOf = (s) => (s && !byToken && s.turn_plies ? s.turn_plies : null);
  /** The ply one step back (-1) or on (+1) from `from`. */
  const stepFrom = (from, d) => {
    const stops = stopsOf(view.state);
    if (!stops) return from + d;
    return d > 0 ? (stops.find((x) => x > from) ?? total + 1) : (stops.filter((x) => x < from).pop() ?? -1);
  };
  // Urgammon: the ply each game of the match starts at (after its opening
  // roll; the first game at 0), from the whole record.
  let gameStarts = [];
  const gameBack = () => gameStarts.filter((g) => g < ply).pop() ?? -1;
  const gameNext = () => gameStarts.find((g) => g > ply) ?? -1;
  /** Shows ply `p` (clamped to the record): the newest ply asked for is
   *  the one loaded next, whatever was loading when it was asked. */
  async function show(p) {
    target = Math.max(0, Math.min(p, total || 1e9));
    if (busy) return;
    busy = true;
    try {
      for (;;) {
        const want = target;
        await load(want);
        if (target === want || view.closed) break;
      }
    } finally {
      busy = false;
    }
  }
  async function load(p) {
    {
      const before = view.state;
      const s = await api("GET", `/api/games/${id}/at/${Math.max(0, Math.min(p, 1e9))}`);
      if (!players.textContent) players.textContent = playersLineText(s);
      ply = Math.min(Math.max(0, p), s.total);
      if (target === p) target = ply;
      // The whole record is the same at every ply: read its games once.
      if (s.turn_plies && !gameStarts.length) gameStarts = matchGameStarts(s.tokens_all);
      total = s.total;
      view.prev = before;
      view.animate = !!before && s.version === before.version + 1;
      view.state = s;
      window.agonState = s;
      // The address follows the position shown, so it can be shared or
      // reloaded (replaced, not pushed: Back leaves the replay).
      const here = "/replay/" + id;
      if (location.pathname === here) history.replaceState(history.state, "", here + (ply < total ? "?ply=" + ply : ""));
      boardWrap.replaceChildren(gameOf(s.game).board(view));
      const button = (id, key, to) => el("button", { id, "aria-label": stepLabel(key), disabled: to === ply || to < 0 || to > total,
        onclick: () => show(to) }, t(key));
      // Urgammon's record counts each die and each move: its counter says
      // steps, since "move 231" named no move of the game's log.
      // Steps of a record that counts each die and each move.
      const ur = !!s.turn_plies;
      const slider = el("input", { id: "replay-slider", type: "range", min: 0, max: s.total, value: ply, "aria-label": ur ? t("replay.slider_steps") : t("replay.slider"),
        onchange: (e) => show(Number(e.target.value)) });
      const stops = stopsOf(s);
      const turnAt = stops ? stops.filter((x) => x <= ply).length - 1 : null;
      const parts = [
        el("div", { class: "row", role: "group", "aria-label": t("replay.title") },
          button("replay-start", "replay.first", 0), button("replay-back", "replay.prev", stepFrom(ply, -1)),
          button("replay-forward", "replay.next", stepFrom(ply, 1)), button("replay-end", "replay.last", s.total)),
        el("div", { id: "replay-ply", "aria-live": "polite" }, `${ply} / ${s.total}`, el("span", { class: "sr-only" }, " — " + (ur ? t("replay.step", { n: ply, total: s.total }) : t("replay.position", { n: ply, total: s.total })))),
        // Urgammon: whole turns by default, each die and move on request.
        ur ? el("div", { class: "row" },
          stops ? el("span", { id: "replay-turn" }, t("replay.turn_of", { n: turnAt, total: stops.length - 1 })) : null,
          el("label", { class: "check" }, el("input", { type: "checkbox", id: "replay-by-token", checked: byToken,
            onchange: (e) => { byToken = e.target.checked; show(ply); } }), " " + t("replay.by_token"))) : null,
        el("p", { class: "muted keys-hint" }, t("replay.keys")),
        slider,
        replayResult(s),
      ];
      // Each game's own part of the panel: its moves, and its match's.
      const perGame = {
        ringo: () => {
          // The whole game's moves, numbered; those after this ply are grey.
          const moves = s.tokens_all.filter((tk) => !tk.startsWith("resign:"));
          const other = (x) => (x === "attackers" ? "defenders" : "attackers");
          const first = s.history.length % 2 === 0 ? s.to_move : other(s.to_move);
          const full = { history: moves, to_move: moves.length % 2 === 0 ? first : other(first) };
          parts.push(capturedTally(s), el("h2", {}, t("game.moves")), ringoMoveList(full, ply, (p) => show(p)));
        },
        urgammon: () => {
          // A match of several games: a game at a time, by button or Page Up / Down.
          if (gameStarts.length > 1) {
            parts.splice(3, 0, el("div", { class: "row", role: "group", "aria-label": t("ur.match") },
              button("replay-game-start", "replay.game_start", gameBack()), button("replay-game-next", "replay.game_next", gameNext())),
            el("p", { class: "muted keys-hint" }, t("replay.keys_games")));
          }
          // Which game of the match this ply is in: the plies run on through
          // the match, and the score alone did not say.
          parts.push(scoreLine(s), ...matchGames(s), el("div", { id: "replay-game" }, t("ur.game_n", { n: s.match.games })), pipLine(s), diceBlock(s, null), el("h2", {}, t("game.moves")), urLog(s, s.log.length - 1, (p) => show(p)));

        },
      };
      perGame[s.game]();
      parts.push(el("div", { class: "row" }, openGameLink(id),
        el("a", { class: "button", id: "analyse-link", href: analysisHref(s), "data-nav": true }, t("analysis.open"))));
      side.replaceChildren(...parts.filter(Boolean));
      // The move of this ply stands in the middle of the move list.
      showInList(side.querySelector("#move-list"));
    }
  }
  const keys = (e) => {
    if (e.target.closest("input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
    // Steps count from the ply wanted, not the one shown yet.
    const to = { ArrowLeft: stepFrom(target, -1), ArrowRight: stepFrom(target, 1), Home: 0, End: total,
      PageUp: gameStarts.length > 1 ? gameBack() : undefined, PageDown: gameStarts.length > 1 ? gameNext() : undefined }[e.key];
    if (to === undefined || e.target.closest("svg")) return;
    e.preventDefault();
    if (to >= 0 && to <= total) show(to);
  };
  document.addEventListener("keydown", keys);
  onLeave(() => { view.closed = true; document.removeEventListener("keydown", keys); });
  try {
    await show(ply);
  } catch (e) {
    main.replaceChildren();
    if (e.code === "game-not-found") return notFoundPage(main, true);
    main.append(el("p", { class: "result" }, e.message));
  }
}
