// Client-side routes: every page of the app is the same HTML; the path picks
// the view. Links marked data-nav are followed without a reload.
import { t } from "../i18n.js";

const routes = [];
let cleanups = [];

/** Adds a route: `pattern` a RegExp on the path, `show(main, ...groups)`. */
export function addRoute(pattern, show) {
  routes.push([pattern, show]);
}

/** Runs `fn` when the current page is left (every function given, in
 *  order: a page with a socket and a key handler gives both). */
export function onLeave(fn) {
  cleanups.push(fn);
}

export function navigate(path) {
  history.pushState({}, "", path);
  route();
}

/** Draws the page for the current path. */
export function route() {
  const leaving = cleanups;
  cleanups = [];
  for (const fn of leaving) fn();
  // Each page draws into a fresh box of its own: a page still waiting for
  // an answer when the reader moved on then draws into a box no longer on
  // the page, never beside the next page.
  const main = document.createElement("div");
  main.className = "page";
  document.getElementById("main").replaceChildren(main);
  document.title = t("app.title");
  document.querySelectorAll("[data-i18n]").forEach((e) => (e.textContent = t(e.dataset.i18n)));
  document.querySelectorAll("[data-i18n-label]").forEach((e) => e.setAttribute("aria-label", t(e.dataset.i18nLabel)));
  const accountLink = document.getElementById("account-link");
  if (accountLink && accountLink.dataset.signedIn !== "yes") accountLink.textContent = t("nav.signin");
  const path = location.pathname;
  document.dispatchEvent(new Event("agon-route"));
  for (const [pattern, show] of routes) {
    const m = path.match(pattern);
    if (m) return show(main, ...m.slice(1));
  }
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-nav]");
  if (a && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
    e.preventDefault();
    navigate(a.getAttribute("href"));
  }
});
window.addEventListener("popstate", route);
