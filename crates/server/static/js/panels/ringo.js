// Ringo's side panel: the rules, whose turn, the result, a capture chooser,
// Pass, the captured tally, and the numbered move list.
import { el, pressable } from "../dom.js";
import { termsRow } from "../glossary.js";
import { t } from "../../i18n.js";
import { ringoSettings } from "../settings.js";
import { ringoRows } from "../log.js";
import { canAct, whoLine, commonLinks, boardTools, moveHint, showInList, hintBlock, waitingStatus } from "./common.js";

/** The result line of a finished game, or null. */
export function ringoResult(s) {
  if (s.status === "ongoing") return null;
  if (s.status === "aborted") return t("game.aborted") + " — " + t("reason.abort");
  const winner = s.status === "attackers-win" ? "attackers" : s.status === "defenders-win" ? "defenders" : null;
  const loser = winner && (winner === "attackers" ? "defenders" : "attackers");
  // A flag or a claim names the side it fell on: "the other side" reads
  // as the opponent to each of the two players.
  const why = s.resigned ? t("game.resigned", { side: t("side." + s.resigned) })
    : loser && s.reason === "time" ? t("game.flagged", { side: t("side." + loser) })
      : loser && s.reason === "claim" ? t("game.claimed", { side: t("side." + loser) })
        : t("reason." + s.reason);
  return (winner ? t("game.won", { side: t("side." + winner) }) : t("game.draw")) + " — " + why;
}

/** What was taken, per side, and out of how many. */
export function capturedTally(s) {
  const attackers = s.captured.attackers + s.board.filter((p) => p.side === "attackers").length + s.fortress;
  return el("div", { id: "captured" }, t("game.captured_tally", { a: s.captured.attackers, at: attackers, d: s.captured.defenders }));
}

/** The numbered move list, one row per turn; `upTo` greys later moves (replay). */
export function ringoMoveList(s, upTo, onPick) {
  const list = el("ol", { class: "moves", id: "move-list" });
  for (const row of ringoRows(s)) {
    const cls = (ply) => "mv" + (upTo !== undefined && ply > upTo ? " later" : "") + (upTo !== undefined && ply === upTo ? " current" : "");
    // A move that opens its position is a button for the keyboard too.
    const cell = (text, ply) => el("span", onPick && text && text !== "…"
      ? pressable(() => onPick(ply), { class: cls(ply) + " pick", "aria-label": text })
      : { class: cls(ply) }, text);
    list.append(el("li", { "data-turn": row.turn }, el("span", { class: "num" }, row.turn + "."), cell(row.first, row.ply), cell(row.second, row.ply + 1)));
  }
  return list;
}

export function ringoPanel(view, send) {
  const s = view.state;
  const out = [el("h2", {}, "Ringo"), el("div", { class: "muted", id: "settings" }, ringoSettings(s.rules)), whoLine(view)];
  const result = ringoResult(s);
  if (result) {
    out.push(el("div", { class: "result", id: "result" }, el("b", {}, result.split(" — ")[0]), " — ", result.split(" — ").slice(1).join(" — ")));
  } else if (s.waiting_for_friend) {
    out.push(waitingStatus(s));
  } else {
    const turn = canAct(view) ? t("game.your_turn", { side: t("side." + s.to_move) }) : t("game.to_move", { side: t("Side." + s.to_move) });
    out.push(el("div", { class: "status", id: "turn" }, turn));
    // Each side's first two moves.
    out.push(...moveHint(view, s.history.length < 4));
    if (s.mode === "engine" && !canAct(view) && view.you.length) out.push(el("div", { class: "muted" }, t("game.engine_thinking")));
  }
  const chooser = el("div", { class: "chooser", id: "chooser" });
  out.push(chooser);
  if (view.chooser) {
    chooser.append(el("span", {}, t("game.choose_capture")),
      view.chooser.map((m) => el("button", { onclick: () => send({ type: "move", move: m }) }, m)));
  }
  if (canAct(view) && s.legal.some((m) => !m.from)) out.push(el("button", { id: "pass", onclick: () => send({ type: "move", move: "pass" }) }, t("game.pass")));
  out.push(capturedTally(s));
  out.push(...hintBlock(view));
  // The game's own words, each explained in place.
  out.push(termsRow(["fortress", "neutral-zone", "rings-sectors", ...(/slide=on|globe/.test(s.rules) ? ["long-range"] : [])]));
  out.push(boardTools(view));
  out.push(el("h3", {}, t("game.moves")));
  // A move picked in the list shows the position after it (the game page's
  // look back); the list then marks it, else it follows the last move.
  const list = ringoMoveList(s, view.past ? view.past.ply : undefined, view.browse);
  out.push(list);
  setTimeout(() => showInList(list));
  out.push(...commonLinks(view, send));
  return out;
}
