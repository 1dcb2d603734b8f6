// The Ringo board: rings around the fortress, sector a the neutral zone.
// Cells, pieces and legal moves come from the server as data (`board`,
// `legal`, `last_move`); the board never parses notation.
import { sv, reducedMotion } from "../dom.js";
import { prefs } from "../prefs.js";
import { t } from "../../i18n.js";
import { keyboard, restoreFocus } from "./keys.js";
import { drawArrows } from "./arrows.js";

const SECTORS = "abcdefgh";

/** The board for `view.state`. `act(notation)` plays a move; a capture that
 *  needs a choice is put in `view.chooser` and `onChoice()` is called. */
export function ringoBoard(view, act, onChoice, mine, onCell) {
  const s = view.state;
  const R = s.rings, r0 = 46, w = (262 - r0) / R;
  const turn = view.flipped ? 180 : 0;
  const pieces = Object.fromEntries(s.board.map((p) => [p.cell, p.side]));
  const legal = mine ? s.legal.filter((m) => m.from) : [];
  const sel = view.selected;
  const targets = sel ? legal.filter((m) => m.from === sel) : [];
  const last = s.last_move || {};
  // The board itself is no Tab stop (Chromium made the svg one): Tab goes
  // straight to the roving cell.
  const svg = sv("svg", { class: "board ringo", viewBox: "-300 -300 600 600", role: "group", tabindex: "-1",
    "aria-label": t("board.ringo"), "aria-describedby": "board-help" });
  const pt = (rad, deg) => [rad * Math.cos(deg * Math.PI / 180), rad * Math.sin(deg * Math.PI / 180)];
  const angle = (sec) => -90 + sec * 45 + turn;
  const centre = (cell) => {
    if (cell === "F") return [0, 0];
    const sec = SECTORS.indexOf(cell[0]), ring = Number(cell.slice(1));
    return pt(r0 + (ring - 0.5) * w, angle(sec));
  };
  const rerender = () => { const b = svg.parentNode; if (b) b.replaceChildren(ringoBoard(view, act, onChoice, mine, onCell)); };
  // A tap that just misses a target plays it: on a phone the inner rings'
  // cells are about 20 px, under the 44 px a finger needs. The nearest
  // target whose centre is within a fingertip (24 px on the screen, or the
  // fortress's own radius and 12 px more) takes the tap, which otherwise
  // would drop the piece. The keyboard and exact clicks never get here.
  const nearTarget = (e) => {
    const m = svg.getScreenCTM();
    if (!e || !m) return null;
    let best = null, bestD = Infinity;
    for (const to of new Set(targets.map((x) => x.to))) {
      const [cx, cy] = centre(to);
      const d = Math.hypot(m.a * cx + m.c * cy + m.e - e.clientX, m.b * cx + m.d * cy + m.f - e.clientY);
      const reach = to === "F" ? (r0 - 4) * Math.hypot(m.a, m.b) + 12 : 24;
      if (d <= reach && d < bestD) { best = to; bestD = d; }
    }
    return best;
  };
  const click = (cell, e) => {
    if (onCell) return onCell(cell);
    if (!mine) return;
    if (sel) {
      let cands = targets.filter((m) => m.to === cell);
      const ownPiece = pieces[cell] === s.to_move && legal.some((m) => m.from === cell);
      if (!cands.length && !ownPiece) {
        const near = nearTarget(e);
        if (near) cands = targets.filter((m) => m.to === near);
      }
      if (cands.length === 1) return act(cands[0].notation);
      if (cands.length > 1) { view.chooser = cands.map((m) => m.notation); view.selected = sel; onChoice(); return rerender(); }
    }
    const own = s.to_move;
    // The selected piece, clicked again, is put down.
    view.selected = sel !== cell && pieces[cell] === own && legal.some((m) => m.from === cell) ? cell : null;
    view.chooser = null;
    onChoice();
    rerender();
  };
  const cellLabel = (cell, sec) => {
    const piece = pieces[cell];
    const parts = [piece ? t("cell.piece", { cell, piece: t(piece === "attackers" ? "piece.attacker" : "piece.defender") }) : t("cell.empty", { cell })];
    if (sec === 0) parts.push(t("cell.neutral"));
    if (targets.some((m) => m.to === cell)) parts.push(t("cell.target"));
    if (sel === cell) parts.push(t("cell.selected"));
    if (last.from === cell || last.to === cell) parts.push(t("cell.last"));
    if (last.captured === cell) parts.push(t("cell.captured"));
    return parts.join(", ");
  };
  const overlays = [];
  for (let ring = 1; ring <= R; ring++) {
    for (let sec = 0; sec < 8; sec++) {
      const cell = SECTORS[sec] + ring;
      const ri = r0 + (ring - 1) * w, ro = ri + w, c = angle(sec), a0 = c - 22.5, a1 = c + 22.5;
      const [x0, y0] = pt(ri, a0), [x1, y1] = pt(ro, a0), [x2, y2] = pt(ro, a1), [x3, y3] = pt(ri, a1);
      const d = `M${x0},${y0} L${x1},${y1} A${ro},${ro} 0 0 1 ${x2},${y2} L${x3},${y3} A${ri},${ri} 0 0 0 ${x0},${y0} Z`;
      const colour = sec === 0 ? "nz" : (sec + ring) % 2 === 0 ? "light" : "dark";
      const classes = ["cell", colour];
      if (targets.some((m) => m.to === cell)) classes.push("target");
      if (sel === cell) classes.push("selected");
      const [cx, cy] = centre(cell);
      const g = sv("g", { role: "button", tabindex: "-1", "data-key": cell, "aria-label": cellLabel(cell, sec), onclick: (e) => click(cell, e) },
        sv("path", { class: classes.join(" "), "data-cell": cell, "data-cx": cx.toFixed(1), "data-cy": cy.toFixed(1), d }));
      const piece = pieces[cell];
      if (piece) {
        const movable = mine && !sel && piece === s.to_move && legal.some((m) => m.from === cell);
        g.append(sv("circle", { class: "piece " + (piece === "attackers" ? "att" : "def") + (movable ? " movable" : ""),
          cx, cy, r: Math.min(w * 0.36, 15), "data-piece": cell }));
      }
      svg.append(g);
      if (last.from === cell || last.to === cell) overlays.push(sv("path", { class: "hl", d, "data-last": cell }));
      if (last.captured === cell) overlays.push(captureMark(cx, cy, cell));
    }
  }
  // Sector letters outside the board; ring numbers down the neutral zone.
  for (let sec = 0; sec < 8; sec++) {
    const [x, y] = pt(r0 + R * w + 18, angle(sec));
    svg.append(sv("text", { class: "label", x, y, "aria-hidden": "true" }, SECTORS[sec]));
  }
  // On the line between the neutral zone and sector h, as far from a
  // piece on a1 as from one on h1 (at 15° from the zone's middle, ring 1's
  // number touched a piece on a1, the board flipped or not).
  for (let ring = 1; ring <= R; ring++) {
    const [x, y] = pt(r0 + (ring - 0.5) * w, angle(0) - 22.5);
    svg.append(sv("text", { class: "ringno", x, y, "aria-hidden": "true" }, ring));
  }
  const fClasses = ["fortress"];
  if (targets.some((m) => m.to === "F")) fClasses.push("target");
  const fortress = sv("g", { role: "button", tabindex: "-1", "data-key": "F", onclick: (e) => click("F", e),
    "aria-label": [t("cell.fortress", { n: s.fortress }), targets.some((m) => m.to === "F") ? t("cell.target") : null,
      last.to === "F" ? t("cell.last") : null, last.captured === "F" ? t("cell.captured") : null].filter(Boolean).join(", ") },
  sv("circle", { class: fClasses.join(" "), cx: 0, cy: 0, r: r0 - 4, "data-cell": "F" }));
  for (let i = 0; i < s.fortress; i++) {
    fortress.append(sv("circle", { class: "piece att", cx: s.fortress === 1 ? 0 : (i ? 14 : -14), cy: 0, r: 12, "data-piece": "F" }));
  }
  svg.append(fortress);
  if (last.to === "F") overlays.push(sv("circle", { class: "hl", cx: 0, cy: 0, r: r0 - 4, "data-last": "F" }));
  if (last.captured === "F") overlays.push(captureMark(0, 0, "F"));
  svg.append(...overlays);
  // The review's and the analysis board's arrows (played, best), over everything.
  svg.append(...drawArrows(view.arrows, (cell) => (cell === "F" || /^[a-h]\d$/.test(cell) && Number(cell[1]) <= R ? centre(cell) : null)));
  // The piece that just moved slides from where it was.
  if (view.animate && prefs.animation && last.from && last.to && !reducedMotion()) {
    const moved = [...svg.querySelectorAll(`[data-piece="${last.to}"]`)].pop();
    const [fx, fy] = centre(last.from), [tx, ty] = centre(last.to);
    if (moved && moved.animate) {
      moved.animate([{ transform: `translate(${fx - tx}px, ${fy - ty}px)` }, { transform: "translate(0, 0)" }],
        { duration: 320, easing: "ease-out" });
    }
  }
  const neighbour = (cell, key) => {
    const dir = view.flipped ? { ArrowLeft: 1, ArrowRight: -1 } : { ArrowLeft: -1, ArrowRight: 1 };
    if (cell === "F") return key === "ArrowUp" ? (view.lastSector || "a") + "1" : null;
    const sec = SECTORS.indexOf(cell[0]), ring = Number(cell.slice(1));
    view.lastSector = cell[0];
    if (key in dir) return SECTORS[(sec + dir[key] + 8) % 8] + ring;
    if (key === "ArrowUp") return ring < R ? SECTORS[sec] + (ring + 1) : null;
    if (key === "ArrowDown") return ring > 1 ? SECTORS[sec] + (ring - 1) : "F";
    return null;
  };
  // A tap beside the rings (between the labels) may still reach a target
  // on the outer ring; missing everything, it drops the piece.
  if (mine && !onCell && sel) svg.addEventListener("click", (e) => { if (!e.target.closest("[data-key]")) click(null, e); });
  keyboard(svg, view, { neighbour, activate: click, cancel: () => { view.selected = null; view.chooser = null; onChoice(); rerender(); } });
  restoreFocus(svg, view, sel || legal[0]?.from || "a" + R);
  return svg;
}

/** A mark where a piece was captured: a dashed ring and a cross. */
function captureMark(cx, cy, cell) {
  return sv("g", { class: "capmark", "data-captured": cell, "aria-hidden": "true" },
    sv("circle", { cx, cy, r: 13 }),
    sv("path", { d: `M${cx - 7},${cy - 7} L${cx + 7},${cy + 7} M${cx + 7},${cy - 7} L${cx - 7},${cy + 7}` }));
}
