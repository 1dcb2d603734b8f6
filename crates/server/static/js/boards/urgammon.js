// The Urgammon board: 20 houses in three rows (light's field on top, dark's
// below, the shared street between), each side's waiting area and palace,
// the path of the side to act drawn with arrows, movable pieces ringed.
import { sv, reducedMotion } from "../dom.js";
import { prefs } from "../prefs.js";
import { t, colon } from "../../i18n.js";
import { keyboard, restoreFocus } from "./keys.js";
import { drawArrows } from "./arrows.js";

const HOUSE_GRID = {
  "4a": [0, 0], "3a": [0, 1], "2a": [0, 2], "1a": [0, 3], "12a": [0, 6], "13a": [0, 7],
  "5": [1, 0], "6": [1, 1], "7": [1, 2], "8": [1, 3], "9": [1, 4], "10": [1, 5], "11": [1, 6], "14": [1, 7],
  "4b": [2, 0], "3b": [2, 1], "2b": [2, 2], "1b": [2, 3], "12b": [2, 6], "13b": [2, 7],
};
const ROSETTES = ["4a", "4b", "8", "12a", "12b"];
const C = 80, TOP = 100;

function pieceShape(kind, side, cx, cy, size, attrs) {
  const cls = "upiece " + side;
  let shape;
  if (kind === "P") shape = sv("circle", { class: cls, cx, cy, r: size * 0.42, ...attrs });
  else if (kind === "C") shape = sv("rect", { class: cls, x: cx - size * 0.4, y: cy - size * 0.4, width: size * 0.8, height: size * 0.8, rx: size * 0.12, ...attrs });
  else {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      // A broad star: with a thin one (inner radius 0.22) its points crossed
      // the letter H, which a phone showed as a smudge.
      const r = i % 2 ? size * 0.32 : size * 0.54, a = -Math.PI / 2 + i * Math.PI / 5;
      pts.push(`${cx + r * Math.cos(a)},${cy + r * Math.sin(a)}`);
    }
    shape = sv("polygon", { class: cls, points: pts.join(" "), ...attrs });
  }
  return [shape, sv("text", { class: "upiece-letter " + side + (kind === "H" ? " hero" : ""), x: cx, y: cy + (kind === "H" ? size * 0.04 : 0), "aria-hidden": "true" }, t("ur.letter." + kind))];
}

/** The board for `view.state`; `act(notation)` plays a move. */
/** Each piece kind's plural, as a translation key ("heroes", not hero + s). */
export const PLURAL = { P: "ur.pawns", C: "ur.chariots", H: "ur.heroes" };

export function urgammonBoard(view, act, mine, onCell) {
  const s = view.state;
  const flip = !!view.flipped;
  const rowOf = (row) => (flip ? 2 - row : row);
  const legal = mine && (s.phase === "move" || s.phase === "decide") ? s.legal : [];
  const sel = view.selected;
  const targets = sel ? legal.filter((m) => (m.from ?? m.piece) === sel) : [];
  const actSide = s.to_act === "light" ? "l" : "d";
  // The board itself is no Tab stop: Tab goes straight to the roving cell.
  const svg = sv("svg", { class: "board urgammon", viewBox: `-10 -10 ${8 * C + 20} ${3 * C + 2 * TOP + 20}`, role: "group", tabindex: "-1",
    "aria-label": t("board.urgammon"), "aria-describedby": "board-help" });
  const rerender = () => { const b = svg.parentNode; if (b) b.replaceChildren(urgammonBoard(view, act, mine, onCell)); };
  const source = (m) => m.from ?? m.piece; // a house, or P/C/H for an entry
  const click = (key) => {
    if (onCell) return onCell(key);
    if (!mine) return;
    const to = key === "off" ? null : key;
    if (sel) {
      const m = targets.find((x) => x.to === to && (key === "off" || HOUSE_GRID[key]));
      if (m) return act(m.notation);
    }
    view.selected = legal.some((m) => source(m) === key) ? key : null;
    rerender();
  };
  const centre = (house) => { const [row, col] = HOUSE_GRID[house]; return [col * C + C / 2, TOP + rowOf(row) * C + C / 2]; };
  const occupant = {};
  for (const side of ["light", "dark"]) for (const [h, k] of Object.entries(s[side].board)) occupant[h] = [side[0], k, side];
  const lastTurn = s.log && s.log.length ? s.log[s.log.length - 1] : null;
  const lastMove = lastTurn && lastTurn.moves.length ? lastTurn.moves[lastTurn.moves.length - 1] : null;
  const last = s.last_move || {};
  // The path of the side to act, under the pieces.
  const pathSide = s.to_act || "light";
  const pts = s.paths[pathSide].map(centre);
  svg.append(sv("defs", {}, sv("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
    sv("path", { d: "M0,0 L10,5 L0,10 z", class: "path-arrow" }))));
  const overlays = [];
  for (const [house, [row, col]] of Object.entries(HOUSE_GRID)) {
    const x = col * C, y = TOP + rowOf(row) * C;
    const classes = ["house"];
    if (ROSETTES.includes(house)) classes.push("rosette");
    if (targets.some((m) => m.to === house)) classes.push("target");
    if (sel === house) classes.push("selected");
    const occ = occupant[house];
    const label = [occ ? t("ur.house_piece", { h: house, side: t("side." + occ[2]), piece: t("ur." + occ[1]) }) : t("ur.house", { h: house })];
    if (ROSETTES.includes(house)) label.push(t("ur.rosette"));
    if (legal.some((m) => m.from === house)) label.push(t("cell.movable"));
    if (targets.some((m) => m.to === house)) label.push(t("cell.target"));
    if (sel === house) label.push(t("cell.selected"));
    if (last.from === house || last.to === house) label.push(t("cell.last"));
    const g = sv("g", { role: "button", tabindex: "-1", "data-key": house, "data-x": x + C / 2, "data-y": y + C / 2,
      "aria-label": label.join(", "), onclick: () => click(house) },
    sv("rect", { class: classes.join(" "), x: x + 2, y: y + 2, width: C - 4, height: C - 4, rx: 6, "data-house": house }));
    if (ROSETTES.includes(house)) {
      for (let i = 0; i < 4; i++) g.append(sv("ellipse", { class: "rosette-mark", cx: x + C / 2, cy: y + C / 2, rx: 26, ry: 9, transform: `rotate(${i * 45} ${x + C / 2} ${y + C / 2})` }));
    }
    g.append(sv("text", { class: "hname", x: x + 18, y: y + 15, "aria-hidden": "true" }, house));
    svg.append(g);
    if (last.from === house || last.to === house) overlays.push(sv("rect", { class: "hl", x: x + 3, y: y + 3, width: C - 6, height: C - 6, rx: 6, "data-last": house }));
    if (lastMove && lastMove.captured && lastMove.to === house) overlays.push(captureMark(x + C - 16, y + 16, house));
  }
  svg.append(sv("polyline", { class: "path", points: pts.map((p) => p.join(",")).join(" "), "marker-mid": "url(#arrow)", "marker-end": "url(#arrow)",
    "data-path": pathSide, "aria-hidden": "true" }, sv("title", {}, t("ur.path", { side: t("side." + pathSide) }))));
  for (const [house, occ] of Object.entries(occupant)) {
    const [cx, cy] = centre(house);
    const movable = legal.some((m) => m.from === house) && !sel;
    const shapes = pieceShape(occ[1], occ[0], cx, cy + 4, C * 0.7, { "data-piece": house, onclick: () => click(house) });
    if (movable) shapes[0].classList.add("movable");
    svg.append(...shapes);
  }
  // Trays: the side that sits on top (light, unless flipped) above the board.
  for (const side of ["light", "dark"]) {
    const sc = side[0], onTop = (side === "light") !== flip, y = onTop ? 0 : TOP + 3 * C + 10, army = s[side];
    svg.append(sv("text", { class: "traylabel", x: 4 * C, y: y + 8 }, t("Side." + side)));
    svg.append(sv("rect", { class: "tray", x: 0, y: y + 16, width: 3.9 * C, height: 70, rx: 8 }));
    // The trays' names stand above them, at the outer ends of the side's
    // name, so that on a phone, where the text is drawn larger, no name
    // covers a piece.
    svg.append(sv("text", { class: "traylabel small tray-start", x: 0, y: y + 8 }, t("ur.waiting")));
    ["P", "C", "H"].forEach((k, i) => {
      const cx = 0.8 * C + i * C * 1.05, cy = y + 55;
      const canEnter = sc === actSide && legal.some((m) => m.from === null && m.piece === k);
      const g = sv("g", { role: "button", tabindex: "-1", "data-key": sc === actSide ? k : sc + k, "data-x": cx, "data-y": cy,
        // The label starts with the visible text (the letter and the count).
        "aria-label": `${t("ur.letter." + k)} ×${army.waiting[k]}: ` + t("ur.waiting_piece", { side: t("Side." + side), pieces: t(PLURAL[k]), n: army.waiting[k] }) + (canEnter ? ", " + t("cell.movable") : ""),
        onclick: () => (onCell || sc === actSide) && click(k) });
      const shapes = pieceShape(k, sc, cx, cy, 38, { "data-entry": sc + k });
      if (canEnter && !sel) shapes[0].classList.add("movable");
      if (sel === k && sc === actSide) shapes[0].classList.add("picked");
      // The piece's whole slot of the tray is what a tap hits (a piece
      // and its count were 18 px high on a phone).
      g.append(...shapes, sv("text", { class: "count", x: cx + 30, y: cy, "aria-hidden": "true" }, "×" + army.waiting[k]),
        sv("rect", { class: "hit", x: cx - 0.525 * C, y: y + 16, width: 1.05 * C, height: 70 }));
      svg.append(g);
    });
    const offTarget = sc === actSide && targets.some((m) => m.to === null);
    const palace = sv("g", { role: "button", tabindex: "-1", "data-key": sc === actSide ? "off" : sc + "off", "data-x": 6 * C, "data-y": y + 50,
      "aria-label": t("ur.palace") + colon() + t("ur.palace_tray", { side: t("Side." + side), p: army.palace.P, c: army.palace.C, h: army.palace.H }) + (offTarget ? ", " + t("cell.target") : ""),
      onclick: () => offTarget && click("off") },
    sv("rect", { class: "tray" + (offTarget ? " target" : ""), x: 4.1 * C, y: y + 16, width: 3.9 * C, height: 70, rx: 8, "data-off": sc }),
    sv("text", { class: "traylabel small tray-end", x: 8 * C, y: y + 8 }, t("ur.palace")));
    svg.append(palace);
    // The palace's pieces sit on the tray but outside its button, so the
    // button's name is its label (clicks pass through them to the tray).
    ["P", "C", "H"].forEach((k, i) => {
      // An empty palace is empty: no ghost piece marked ×0.
      if (!army.palace[k]) return;
      const cx = 4.9 * C + i * C * 1.05, cy = y + 55;
      svg.append(sv("g", { class: "passive", "aria-hidden": "true" }, ...pieceShape(k, sc, cx, cy, 38, {}),
        sv("text", { class: "count", x: cx + 30, y: cy }, "×" + army.palace[k])));
    });
  }
  svg.append(...overlays);
  // The review's and the analysis board's arrows (played, best): a house, a
  // waiting piece of the side to act (an entry), or its palace (a bear-off).
  const trayY = ((s.to_act || "light") === "light") !== flip ? 0 : TOP + 3 * C + 10;
  const place = (key) => {
    if (HOUSE_GRID[key]) return centre(key);
    const i = ["P", "C", "H"].indexOf(key);
    if (i >= 0) return [0.8 * C + i * C * 1.05, trayY + 55];
    return key === "off" ? [6.05 * C, trayY + 51] : null;
  };
  svg.append(...drawArrows(view.arrows, place));
  if (view.animate && prefs.animation && last.to && last.from && !reducedMotion()) {
    const moved = svg.querySelector(`[data-piece="${last.to}"]`);
    const [fx, fy] = centre(last.from), [tx, ty] = centre(last.to);
    if (moved && moved.animate) moved.animate([{ transform: `translate(${fx - tx}px, ${fy - ty}px)` }, { transform: "translate(0, 0)" }], { duration: 320, easing: "ease-out" });
  }
  // Arrow keys go to the nearest focusable thing in that direction.
  const neighbour = (key, dir) => {
    const from = svg.querySelector(`[data-key="${key}"]`);
    const fx = Number(from.dataset.x), fy = Number(from.dataset.y);
    let best = null, bestScore = Infinity;
    for (const c of svg.querySelectorAll("[data-key]")) {
      const dx = Number(c.dataset.x) - fx, dy = Number(c.dataset.y) - fy;
      const along = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[dir];
      const across = dir === "ArrowRight" || dir === "ArrowLeft" ? Math.abs(dy) : Math.abs(dx);
      if (along <= 1) continue;
      const score = along + 3 * across;
      if (score < bestScore) { bestScore = score; best = c.dataset.key; }
    }
    return best;
  };
  keyboard(svg, view, { neighbour, activate: click, cancel: () => { view.selected = null; rerender(); } });
  const firstMovable = legal.length ? source(legal[0]) : null;
  restoreFocus(svg, view, sel || firstMovable || "5");
  return svg;
}

function captureMark(cx, cy, house) {
  return sv("g", { class: "capmark", "data-captured": house, "aria-hidden": "true" },
    sv("circle", { cx, cy, r: 11 }),
    sv("path", { d: `M${cx - 6},${cy - 6} L${cx + 6},${cy + 6} M${cx + 6},${cy - 6} L${cx - 6},${cy + 6}` }));
}
