// Urgammon's side panel: the match, the dice with what they mean, whose turn
// and what to do, the buttons, and the game told turn by turn.
import { termsRow } from "../glossary.js";
import { el, pressable } from "../dom.js";
import { t, amount, colon } from "../../i18n.js";
import { urgammonSettings } from "../settings.js";
import { urTurnText, urMoveText, valueText } from "../log.js";
import { canAct, whoLine, commonLinks, boardTools, moveHint, showInList, hintBlock, waitingStatus } from "./common.js";

export function gameResultLine(r) {
  if (!r) return null;
  if (!r.winner) return el("div", {}, t("ur.game_drawn"));
  return el("div", {}, t("ur.game_won", { side: t("Side." + r.winner), n: r.points, kind: t("ur.kind." + r.kind) }));
}

/** A match score in words, "Light 3 : 1 Dark". No-break spaces hold the
 *  numbers and the colon together, so a narrow line never parts them (and
 *  French wants a no-break space before a colon anyway). */
export function scoreWords(light, dark) {
  return `${t("Side.light")} ${light}\u00a0:\u00a0${dark} ${t("Side.dark")}`;
}

/** The match score line, and the stake where no settings line above says it
 *  (the game page's does: there it stood twice). */
export function scoreLine(s, stake = true) {
  const mt = s.match;
  return el("div", { class: "score", id: "score" },
    `${t("ur.match")} ${t("ur.to", { n: mt.to })} — ${scoreWords(mt.score.light, mt.score.dark)}`,
    stake && mt.stake ? el("div", { class: "muted", id: "score-stake" }, t("ur.stake", { x: amount(mt.stake) })) : null);
}

/** The race: each side's steps still to go to the palace (the pip count of
 *  backgammon), so a player sees who leads without counting houses. */
export function pipLine(s) {
  return el("div", { class: "muted", id: "pips" },
    t("ur.pips", { light: t("side.light"), l: s.light.pips, dark: t("side.dark"), d: s.dark.pips }));
}

/** The two dice and the value they make; they roll when they changed. */
export function diceBlock(s, prev) {
  const changed = prev && (prev.chance !== s.dice.chance || prev.verdict !== s.dice.verdict);
  const verdict = s.dice.verdict === null || s.dice.verdict === undefined ? "–" : s.dice.verdict ? t("ur.verdict_yes") : t("ur.verdict_no");
  return el("div", { class: "dice", id: "dice", role: "group", "aria-label": t("ur.dice") },
    el("div", { class: "die" + (changed ? " rolling" : ""), id: "chance-die", role: "img",
      "aria-label": t("ur.chance_die") + colon() + (s.dice.chance ?? t("ur.no_die")) }, s.dice.chance ?? "–"),
    el("div", { class: "die verdict" + (s.dice.verdict === true ? " yes" : s.dice.verdict === false ? " no" : "") + (changed ? " rolling" : ""),
      id: "verdict-die", role: "img", "aria-label": t("ur.verdict_die") + colon() + (verdict === "–" ? t("ur.no_die") : verdict) }, verdict),
    s.value ? el("span", { id: "value" }, valueText(s)) : null);
}

/** The game so far, one numbered row per turn; `current` marks the
 *  replay's (or the looked-at) turn; `onPick(ply)` opens a turn's end. */
export function urLog(s, current, onPick) {
  const list = el("ol", { class: "moves log", id: "move-list" });
  const playing = ["decide", "verdict", "move"].includes(s.phase);
  // A turn that opens its position is a button for the keyboard too (the
  // row stays a list item; the button is inside it).
  s.log.forEach((turn, i) => {
    const text = urTurnText(turn, playing && i === s.log.length - 1);
    list.append(el("li", { "data-turn": turn.turn, class: (current !== undefined && i === current ? "current" : "") + (onPick ? " pick" : ""),
      onclick: onPick ? () => onPick(turn.ply) : null },
    el("span", { class: "num" }, turn.turn + "."), " ",
    // The row takes the mouse's click; its text, Tab and Enter or Space.
    onPick ? el("span", { ...pressable(() => onPick(turn.ply), { class: "turn-pick" }), onclick: null }, text) : text));
  });
  return list;
}

/** The match's games so far, each with its result, once there has been more
 *  than one (the score alone did not say how it was made: a 3 : 1 may be
 *  one Babylon or three plain wins). The current game is listed once it
 *  has ended. A list: empty, or the list. */
export function matchGames(s) {
  const mt = s.match;
  const done = [...mt.results, ...(s.result ? [s.result] : [])];
  if (mt.games < 2 || !done.length) return [];
  return [el("ol", { class: "muted match-games", id: "match-games", "aria-label": t("ur.match_games") },
    done.map((r, i) => el("li", { "data-game": i + 1 }, t("ur.game_n", { n: i + 1 }) + " — " + gameResultLine(r).textContent)))];
}

export function urgammonPanel(view, send) {
  const s = view.state, mt = s.match;
  const out = [el("h2", {}, "Urgammon"), el("div", { class: "muted", id: "settings" }, urgammonSettings(s.settings)), whoLine(view), scoreLine(s, false),
    ...matchGames(s), pipLine(s)];
  out.push(diceBlock(s, view.prev && view.prev.dice));
  if (mt.over) {
    const winner = mt.winner;
    const loser = winner === "light" ? "dark" : "light";
    out.push(el("div", { class: "result", id: "result" },
      el("b", {}, s.reason === "abort" ? t("game.aborted") : winner ? t("ur.match_won", { side: t("Side." + winner) }) : t("ur.match_drawn")),
      s.reason === "abort" ? el("div", {}, t("reason.abort")) : null,
      s.reason === "time" ? el("div", { id: "flag" }, t("ur.match_time", { side: t("Side." + loser) })) : null,
      s.reason === "claim" ? el("div", { id: "claimed" }, t("ur.match_claim", { side: t("Side." + loser) })) : null,
      mt.resigned ? el("div", {}, t("ur.match_resigned", { side: t("Side." + mt.resigned) })) : null,
      winner && mt.payout ? el("div", {}, t("ur.payout", { loser: t("Side." + (winner === "light" ? "dark" : "light")), amount: amount(mt.payout) })) : null,
      mt.resigned || s.reason ? null : gameResultLine(s.result)));
  } else if (s.between_games) {
    out.push(el("div", { class: "result", id: "game-result" },
      el("b", {}, t("ur.game_over", { n: mt.games })), gameResultLine(s.result)));
    if (view.you.length) out.push(el("div", { class: "row" }, el("button", { class: "primary", id: "next", onclick: () => send({ type: "next" }) }, t("ur.next_game"))));
  } else if (s.waiting_for_friend) {
    out.push(waitingStatus(s));
  } else {
    out.push(el("div", {}, t("ur.game_n", { n: mt.games })));
    const side = s.to_act ? t("Side." + s.to_act) : "";
    out.push(el("div", { class: "status", id: "turn" }, t("ur.phase." + s.phase, { side, v: s.value ? valueText(s) : "" })));
    if (s.last_turn) out.push(el("div", { class: "muted" }, t("ur.last_turn")));
    // The match's first turns (the opening roll is the log's first line).
    out.push(...moveHint(view, mt.games === 1 && s.log.length < 4 && ["move", "decide"].includes(s.phase)));
    const row = el("div", { class: "row" });
    if (canAct(view) && s.phase === "roll") row.append(el("button", { class: "primary", id: "roll", onclick: () => send({ type: "roll" }) }, t("ur.roll")));
    if (canAct(view) && s.verdict_allowed) {
      row.append(el("button", { id: "verdict", class: s.verdict_forced ? "primary" : "", onclick: () => send({ type: "verdict" }) },
        s.verdict_forced ? t("ur.verdict_forced") : t("ur.verdict")));
    }
    out.push(row);
    if (canAct(view) && s.phase === "decide" && s.promoted_legal.length) {
      // What a YES would allow, in the log's words ("pawn 3b → 9"): the
      // notation alone asked the player to read the record's code. A dot
      // parts the moves, since a capture's words hold a comma.
      out.push(el("div", { class: "muted", id: "if-yes" }, t("ur.if_yes", { moves: s.promoted_legal.map(urMoveText).join(" · ") })));
    }
    if (s.mode === "engine" && !canAct(view) && view.you.length) out.push(el("div", { class: "muted" }, t("game.engine_thinking")));
  }
  out.push(...hintBlock(view));
  // The game's own words, each explained in place.
  out.push(termsRow(["chance-die", "verdict-die", "mongrel", "ishtar", "bull", "rosette", "waiting-area",
    ...(s.result ? [{ plain: "plain", streets: "streets", waiting: "dogs", babylon: "babylon" }[s.result.kind]].filter(Boolean) : [])]));
  out.push(boardTools(view));
  out.push(el("h3", {}, t("game.moves")));
  const looked = view.past ? s.log.findIndex((l) => l.ply === view.past.ply) : -1;
  const list = urLog(s, looked >= 0 ? looked : undefined, view.browse);
  out.push(list);
  setTimeout(() => showInList(list));
  out.push(...commonLinks(view, send));
  return out;
}
