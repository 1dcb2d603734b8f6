// Small helpers to build the page: elements, SVG, the toast and the
// screen-reader announcer.
const SVG = "http://www.w3.org/2000/svg";

function fill(e, attrs, children, svg) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class" && !svg) e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c.nodeType ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** An HTML element: `el("button", {id: "x", onclick: f}, "text")`. */
export function el(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children, false);
}

/** An SVG element. */
export function sv(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children, true);
}

/** The attributes that make an element a button for every hand: the mouse
 *  clicks it, Tab reaches it, Enter or Space press it. For list entries
 *  that pick a move (a `<button>` in each row would break the list's look,
 *  and a phone's 44 px targets). */
export function pressable(action, attrs = {}) {
  return {
    ...attrs,
    role: "button",
    tabindex: 0,
    onclick: action,
    onkeydown: (e) => {
      if (e.key !== "Enter" && e.key !== " ") return;
      e.preventDefault();
      action();
    },
  };
}

let toastTimer = null;
/** A short message at the bottom of the screen (also read out). */
export function toast(msg) {
  const box = document.getElementById("toast");
  box.textContent = msg;
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), 3500);
}

/** Takes a toast away at once (what it said no longer holds). */
export function clearToast() {
  const box = document.getElementById("toast");
  if (!box) return;
  clearTimeout(toastTimer);
  box.classList.remove("show");
  box.textContent = "";
}

/** Says something to screen readers through the page's `aria-live` line. */
export function announce(text) {
  const line = document.getElementById("announce");
  if (!line || !text) return;
  // The same words again must still be read: clear, then set.
  line.textContent = "";
  setTimeout(() => { line.textContent = text; }, 30);
}

/** True when the user asked for less motion. */
export function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
