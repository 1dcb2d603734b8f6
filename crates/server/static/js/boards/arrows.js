// Arrows over a board: the move played and the engine's best move, in the
// review and on the analysis board. One copy for both games; each board
// says where a key (a cell, a house, a waiting piece, the palace) stands.
import { sv } from "../dom.js";

/** The arrows for `entries` (`[{notation, kind, label}]`) in state `s`: each
 *  notation is looked up among the legal moves the server sent, so the page
 *  never parses notation. A move not found there (a pass, the verdict die)
 *  has no arrow. Returns `[{from, to, kind, label, notation}]` with board keys:
 *  a Ringo cell or `F`; an Urgammon house, a waiting piece `P`/`C`/`H`, or `off`. */
export function arrowsFor(s, entries) {
  const legal = [...(s.legal || []), ...(s.promoted_legal || [])];
  const out = [];
  for (const e of entries) {
    if (!e || !e.notation) continue;
    const m = legal.find((x) => x.notation === e.notation);
    if (!m) continue;
    // No destination: a pass (nothing moves), or a piece borne off.
    const from = m.from ?? m.piece, to = m.to ?? (from ? "off" : null);
    if (!from || !to) continue;
    // The same move twice (played was best): one arrow, the best's.
    if (out.some((a) => a.from === from && a.to === to)) continue;
    out.push({ from, to, kind: e.kind, label: e.label, notation: e.notation });
  }
  return out;
}

/** The SVG of `arrows` on a board whose `pos(key)` gives a key's centre
 *  (`null` when the board has no such place). */
export function drawArrows(arrows, pos) {
  const out = [];
  for (const a of arrows || []) {
    const p = pos(a.from), q = pos(a.to);
    if (!p || !q) continue;
    const dx = q[0] - p[0], dy = q[1] - p[1], len = Math.hypot(dx, dy);
    if (len < 1) continue;
    const ux = dx / len, uy = dy / len;
    // The shaft starts a little off the piece's centre and stops under the
    // head, which ends short of the target's centre, so both stay readable.
    // A short move (one step) keeps its whole length: shaft from the
    // piece's centre, tip on the target's, so it is no triangle under the
    // piece.
    const short = len < 60;
    const head = short ? Math.min(14, len * 0.4) : Math.min(16, len * 0.45), start = short ? 0 : Math.min(8, len * 0.15);
    const back = short ? 0 : 4;
    const tipX = q[0] - ux * back, tipY = q[1] - uy * back;
    const baseX = tipX - ux * head, baseY = tipY - uy * head;
    const half = head * 0.6;
    out.push(sv("g", { class: "arrow arrow-" + a.kind, "data-arrow": a.kind, "data-from": a.from, "data-to": a.to, "aria-hidden": "true" },
      sv("title", {}, a.label || a.notation),
      sv("line", { x1: p[0] + ux * start, y1: p[1] + uy * start, x2: baseX, y2: baseY }),
      sv("polygon", { points: `${tipX},${tipY} ${baseX - uy * half},${baseY + ux * half} ${baseX + uy * half},${baseY - ux * half}` })));
  }
  return out;
}
