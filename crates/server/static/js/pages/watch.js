// Watch (/watch): the live games between two people in play now, highest
// rated first, of one game or both, with their players' ratings and how
// many watch each; each opens the game to watch. Read again every few
// seconds while the page is shown.
import { el } from "../dom.js";
import { t } from "../../i18n.js";
import { api } from "../api.js";
import { onLeave } from "../router.js";
import { gameOf, GAME_NAMES } from "../games.js";
import { playerText } from "./home.js";

const REFRESH_MS = 5000;

export async function watchPage(main) {
  document.title = t("watch.title") + " — Agon";
  const chosen = new URLSearchParams(location.search).get("game");
  let filter = GAME_NAMES.includes(chosen) ? chosen : "";
  const list = el("div", { id: "watch-list", "aria-live": "polite" });
  const filters = el("div", { class: "row", role: "group", "aria-label": t("watch.filter") });
  const drawFilters = () => filters.replaceChildren(...["", ...GAME_NAMES].map((g) =>
    el("button", { "aria-pressed": String(filter === g), "data-filter": g || "all", onclick: () => {
      filter = g;
      history.replaceState(history.state, "", "/watch" + (g ? "?game=" + g : ""));
      drawFilters();
      read();
    } }, g ? gameOf(g).name : t("watch.all"))));
  drawFilters();
  main.append(el("h1", {}, t("watch.title")), el("p", { class: "muted" }, t("watch.intro")), filters, list);

  async function read() {
    let games;
    try {
      ({ games } = await api("GET", "/api/games/live" + (filter ? "?game=" + filter : "")));
    } catch {
      return;
    }
    if (!games.length) {
      list.replaceChildren(el("p", { class: "muted", id: "watch-none" }, t("watch.none")));
      return;
    }
    list.replaceChildren(el("ul", { class: "resume" }, games.map((g) => el("li", { "data-live": g.id },
      el("a", { class: "button", href: "/g/" + g.id, "data-nav": true },
        el("span", {}, el("b", {}, `${playerText(g.players[0])} – ${playerText(g.players[1])}`), el("br", {}),
          [gameOf(g.game).name, gameOf(g.game).settingsWords(g.settings), g.clock_label, g.rated ? t("lobby.rated") : t("lobby.casual")].join(" · "), el("br", {}),
          el("span", { class: "spectators", "data-spectators": g.spectators }, t("watch.spectators", { n: g.spectators }))))))));
  }
  read();
  const timer = setInterval(() => { if (!document.hidden) read(); }, REFRESH_MS);
  onLeave(() => clearInterval(timer));
}
