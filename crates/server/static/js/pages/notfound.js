// The page for an address the app does not have (the server answers 404).
import { el } from "../dom.js";
import { t } from "../../i18n.js";

/** Not found: the path, or (with `gameMissing`) a game id nobody has. */
export function notFoundPage(main, gameMissing) {
  document.title = t("notfound.title") + " — Agon";
  main.append(el("section", { class: "card notfound", id: "not-found" },
    el("h1", {}, t("notfound.title")),
    el("p", {}, gameMissing === true ? t("notfound.game") : t("notfound.text")),
    el("p", {}, el("a", { class: "button", href: "/new", "data-nav": true }, t("notfound.home")), " ",
      el("a", { class: "button", href: "/games", "data-nav": true }, t("nav.games")), " ",
      el("a", { class: "button", href: "/rules", "data-nav": true }, t("nav.rules")))));
}
