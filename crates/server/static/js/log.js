// Move lists in words: Ringo's numbered turns, and Urgammon's turns read as
// a person would say them ("Light rolled 1 · verdict YES → 5 · pawn 2a → 7").
import { t } from "../i18n.js";

/** Ringo's history as rows `{turn, first, second}`: the first mover's move
 *  and the reply share a number. */
export function ringoRows(s) {
  const h = s.history;
  // Who moved first: the side to move now, if an even number of moves was played.
  const other = s.to_move === "attackers" ? "defenders" : "attackers";
  const firstMover = h.length % 2 === 0 ? s.to_move : other;
  const offset = firstMover === "attackers" ? 0 : 1; // a defenders-first game leaves the first cell empty
  const rows = [];
  for (let i = -offset; i < h.length; i += 2) {
    rows.push({ turn: rows.length + 1, first: i >= 0 ? h[i] : "…", second: h[i + 1] ?? "", ply: i + 1 });
  }
  return rows;
}

function pieceName(letter) {
  return t("ur." + letter);
}

/** One Urgammon move in words. */
export function urMoveText(m) {
  let text;
  if (m.from === null) text = t("log.enters", { piece: pieceName(m.piece), to: m.to });
  else if (m.to === null) text = t("log.bears_off", { piece: pieceName(m.piece), from: m.from });
  else text = t("log.steps", { piece: pieceName(m.piece), from: m.from, to: m.to });
  if (m.captured) text += ", " + t("log.captures", { piece: pieceName(m.captured) });
  return text;
}

/** An Urgammon decision in words where only its notation is known (the
 *  review's lists and arrows): "P-2a" is "pawn enters 2a", "4ax6" is
 *  "4a → 6, takes", "13b-off" is "bears off from 13b", "verdict" is "the
 *  verdict die". A Polish or French reader met "najlepszy: verdict" and
 *  "4a-6??" there. Anything else is shown as it is. */
export function urNotationText(n) {
  if (n === "verdict") return t("review.verdict_choice");
  const m = /^([PCH]|\d+[ab]?)([x-])(off|\d+[ab]?)$/.exec(n || "");
  if (!m) return n;
  const [, from, sep, to] = m;
  const takes = sep === "x" ? ", " + t("log.takes") : "";
  if (/^[PCH]$/.test(from)) return t("log.enters", { piece: pieceName(from), to }) + takes;
  if (to === "off") return t("review.bears_off_from", { from });
  return t("review.moves_from", { from, to }) + takes;
}

/** One Urgammon turn in words; `inProgress` for the turn still being played. */
export function urTurnText(turn, inProgress) {
  const parts = [];
  if (turn.opening) {
    let line = t("log.opening", { l: turn.opening[0], d: turn.opening[1], side: t("side." + turn.side), Side: t("Side." + turn.side), v: turn.roll });
    if (turn.ties) line += " (" + t("log.ties", { n: turn.ties }) + ")";
    parts.push(line);
  } else {
    parts.push(t("log.rolled", { side: t("Side." + turn.side), n: turn.roll }));
  }
  if (turn.verdict === true) parts.push(t("log.verdict_yes", { v: turn.value }));
  if (turn.verdict === false) parts.push(t("log.verdict_no"));
  for (const m of turn.moves) parts.push(urMoveText(m));
  if (!turn.moves.length && turn.verdict !== false && !inProgress) parts.push(t("log.no_move"));
  return parts.join(" · ");
}

/** The value in words: `value 5 (YES on 1)`, with the die's names. */
export function valueText(s) {
  if (!s.value) return "";
  const name = (v) => (v === 1 ? t("ur.v1") : v === 4 ? t("ur.v4") : v === 10 ? t("ur.v10") : String(v));
  if (s.chance && s.value !== s.chance) return t("ur.value_yes", { v: name(s.value), c: s.chance });
  return t("ur.value_plain", { v: name(s.value) });
}
