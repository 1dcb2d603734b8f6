// Players online (/players): the signed-in players with a page of the site
// open now, each a link to her profile (a player not signed in is counted,
// never named), and how many players and games there are in all.
import { el } from "../dom.js";
import { t } from "../../i18n.js";
import { api } from "../api.js";
import { onLeave } from "../router.js";

const REFRESH_MS = 5000;

export async function playersPage(main) {
  document.title = t("players.title") + " — Agon";
  const count = el("p", { id: "players-count", "aria-live": "polite" });
  const list = el("div", { id: "players-list" });
  main.append(el("h1", {}, t("players.title")), count, list,
    el("p", {}, el("a", { href: "/leaderboard", "data-nav": true }, t("nav.leaderboard"))));
  async function read() {
    let o;
    try { o = await api("GET", "/api/online"); } catch { return; }
    count.textContent = t("players.count", { n: o.players, named: o.names.length, games: o.games });
    list.replaceChildren(o.names.length
      ? el("ul", { class: "people" }, o.names.map((n) => el("li", {},
        el("a", { href: "/@/" + encodeURIComponent(n), "data-nav": true, "data-online": n },
          el("span", { class: "online-badge", "aria-hidden": "true" }), n))))
      : el("p", { class: "muted", id: "players-none" }, t("players.none")));
  }
  read();
  const timer = setInterval(() => { if (!document.hidden) read(); }, REFRESH_MS);
  onLeave(() => clearInterval(timer));
}
