// Keyboard play on a board: one focusable cell at a time (roving tabindex),
// arrow keys to move, Enter or Space to pick and drop, Escape to cancel.
// Each board gives `neighbour(cell, key)`; this file keeps focus across
// redraws (the board is redrawn after every click).

/** Wires keyboard play on `svg`. `view.focus` holds the focused cell. */
export function keyboard(svg, view, { neighbour, activate, cancel }) {
  svg.addEventListener("keydown", (e) => {
    const cell = e.target.closest("[data-key]")?.dataset.key;
    if (!cell) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      view.keyboard = true;
      activate(cell);
    } else if (e.key === "Escape") {
      e.preventDefault();
      view.keyboard = true;
      cancel();
    } else if (e.key.startsWith("Arrow")) {
      e.preventDefault();
      const next = neighbour(cell, e.key);
      if (next) focusCell(svg, view, next);
    }
  });
  svg.addEventListener("focusin", (e) => {
    const cell = e.target.closest("[data-key]")?.dataset.key;
    if (cell) view.focus = cell;
  });
}

/** Moves the roving focus to `cell`. */
export function focusCell(svg, view, cell) {
  const target = svg.querySelector(`[data-key="${cell}"]`);
  if (!target) return;
  svg.querySelectorAll("[data-key]").forEach((c) => c.setAttribute("tabindex", "-1"));
  target.setAttribute("tabindex", "0");
  view.focus = cell;
  target.focus();
}

/** After a redraw: the focused cell gets tabindex 0 (else `fallback`), and
 *  focus returns to it if the keyboard was in use. */
export function restoreFocus(svg, view, fallback) {
  const cells = [...svg.querySelectorAll("[data-key]")];
  const current = cells.find((c) => c.dataset.key === view.focus) || cells.find((c) => c.dataset.key === fallback) || cells[0];
  if (!current) return;
  current.setAttribute("tabindex", "0");
  if (view.keyboard) setTimeout(() => { if (current.isConnected) current.focus(); });
}
