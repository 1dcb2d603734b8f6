// The games list: every stored game, newest first, with links to play,
// replay or download it. On a phone each row becomes a stacked card.
import { el } from "../dom.js";
import { t } from "../../i18n.js";
import { api } from "../api.js";
import { settingsText } from "../settings.js";

/** A stored status (`ongoing`, `attackers-win`, `light-wins`, `draw`) in words. */
export function statusText(status) {
  if (status === "ongoing") return t("games.ongoing");
  if (status === "draw") return t("game.draw");
  const side = status.replace(/-wins?$/, "");
  return t("games.won", { side: t("Side." + side) });
}

export async function gamesPage(main) {
  main.append(el("h1", {}, t("games.title")));
  const { games } = await api("GET", "/api/games");
  if (!games.length) return main.append(el("p", { class: "muted" }, t("games.none")));
  const cols = ["game", "settings", "mode", "status", "updated"];
  const cell = (col, ...content) => el("td", { "data-label": t("games.col." + col) }, ...content);
  main.append(el("table", { class: "list stack", id: "games" },
    el("thead", {}, el("tr", {}, cols.map((c) => el("th", { scope: "col" }, t("games.col." + c))), el("th", { scope: "col" }, t("games.col.links")))),
    el("tbody", {}, games.map((g) => el("tr", {},
      cell("game", g.game === "ringo" ? "Ringo" : "Urgammon"),
      cell("settings", settingsText(g.game, g.settings)),
      cell("mode", t("opp." + g.mode) + (g.level ? " " + g.level : "")),
      cell("status", statusText(g.status) + (g.reason === "resignation" ? " — " + t("reason.resignation") : "")),
      cell("updated", new Date(g.updated_at * 1000).toLocaleString(document.documentElement.lang)),
      el("td", { "data-label": t("games.col.links"), class: "links" },
        el("a", { href: "/g/" + g.id, "data-nav": true }, t("games.open")),
        el("a", { href: "/replay/" + g.id, "data-nav": true }, t("games.replay")),
        g.status !== "ongoing" ? el("a", { href: "/review/" + g.id, "data-nav": true, class: "review-link" }, t("games.review")) : null,
        el("a", { href: `/api/games/${g.id}/record` }, t("games.record"))))))));
}
