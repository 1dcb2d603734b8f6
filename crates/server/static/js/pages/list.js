// The games list: the player's own games (those this browser holds a seat
// token for) first, then every game on the site, newest first, a page at a
// time, with links to play, replay, review or download each. On a phone
// each row becomes a stacked card.
import { el, toast } from "../dom.js";
import { t } from "../../i18n.js";
import { api, ownGameIds, gamesByIds } from "../api.js";
import { settingsText } from "../settings.js";
import { scoreWords } from "../panels/urgammon.js";
import { gameOf } from "../games.js";
import { playerText } from "../players.js";
import { account } from "../account.js";

/** A stored status (`ongoing`, `attackers-win`, `light-wins`, `draw`,
 *  `aborted`) in words. */
export function statusText(status) {
  if (status === "ongoing") return t("games.ongoing");
  if (status === "draw") return t("game.draw");
  if (status === "aborted") return t("game.aborted");
  const side = status.replace(/-wins?$/, "");
  return t("games.won", { side: t("Side." + side) });
}

/** An Urgammon match's score as the game page shows it ("Light 3 : 1 Dark");
 *  empty for Ringo, or a match stored before scores were listed. */
export function scoreText(g) {
  return Array.isArray(g.score) ? scoreWords(g.score[0], g.score[1]) : "";
}

const COLS = ["game", "settings", "mode", "status", "updated", "players"];

/** A listed game's name. */
export const gameName = (g) => gameOf(g.game).name;

/** A listed game's opponent in words: the computer with its level, one
 *  screen, a friend still to come by the invite link, or, once both seats
 *  are taken (a friend who came, a lobby or pool pairing), another player. */
export const opponentText = (g) => {
  if (g.mode === "friend" && g.players && g.players.every((p) => p.kind !== "open")) {
    return t(g.rated ? "opp.person_rated" : "opp.person");
  }
  return t("opp." + g.mode) + (g.level ? " " + g.level : "");
};

/** One game's row. */
function row(g) {
  const cell = (col, ...content) => el("td", { "data-label": t("games.col." + col) }, ...content);
  const score = scoreText(g);
  return el("tr", { "data-game": g.id },
    cell("game", gameName(g)),
    // Under the Rules heading (or its label on a phone): "classic", not "Rules: classic".
    cell("settings", settingsText(g.game, g.settings, false)),
    cell("mode", opponentText(g)),
    // A match in play said only "in play": its score tells one match from another.
    cell("status", statusText(g.status) + (g.reason === "resignation" ? " — " + t("reason.resignation") : "")
      + (score ? " · " + score : "")),
    cell("updated", new Date(g.updated_at * 1000).toLocaleString(document.documentElement.lang)),
    cell("players", el("span", { class: "players" }, (g.players || []).map(playerText).join(" – "))),
    el("td", { "data-label": t("games.col.links"), class: "links" },
      el("a", { href: "/g/" + g.id, "data-nav": true }, t("games.open")),
      el("a", { href: "/replay/" + g.id, "data-nav": true }, t("games.replay")),
      g.status !== "ongoing" ? el("a", { href: "/review/" + g.id, "data-nav": true, class: "review-link" }, t("games.review")) : null,
      el("a", { href: `/api/games/${g.id}/record` }, t("games.record"))));
}

/** A table of games, named by the heading `labelledby`; its body grows
 *  when more are appended. */
function table(id, games, labelledby) {
  const body = el("tbody", {}, games.map(row));
  return el("table", { class: "list stack", id, "aria-labelledby": labelledby },
    el("thead", {}, el("tr", {}, COLS.map((c) => el("th", { scope: "col" }, t("games.col." + c))), el("th", { scope: "col" }, t("games.col.links")))),
    body);
}

export async function gamesPage(main) {
  main.append(el("h1", {}, t("games.title")));
  // The player's own games: once a hundred newer games were played on the
  // site, a game of theirs was no longer on the list at all.
  // A failure here (a dropped connection) leaves the list of all games.
  // With an account, its games from every device join this browser's.
  const own = ownGameIds();
  const me = await account();
  if (own.length || me) {
    const byIds = own.length ? await gamesByIds(own).catch((e) => { toast(e.message); return []; }) : [];
    const mine = me ? await api("GET", "/api/games?mine=1").then((r) => r.games).catch(() => []) : [];
    const seen = new Set(byIds.map((g) => g.id));
    const games = [...byIds, ...mine.filter((g) => !seen.has(g.id))]
      .sort((a, b) => (b.updated_at - a.updated_at) || (b.created_at - a.created_at) || (a.id < b.id ? 1 : -1));
    if (games.length) {
      main.append(el("section", { id: "your-games", "aria-labelledby": "your-games-title" },
        el("h2", { id: "your-games-title" }, t("games.yours")),
        el("p", { class: "muted" }, t(me ? "games.yours_help_account" : "games.yours_help")),
        table("own-games", games, "your-games-title")));
    }
  }
  const section = el("section", { "aria-labelledby": "all-games-title" }, el("h2", { id: "all-games-title" }, t("games.all")));
  main.append(section);
  let { games, next } = await api("GET", "/api/games");
  if (!games.length) return section.append(el("p", { class: "muted" }, t("games.none")));
  const list = table("games", games, "all-games-title");
  section.append(list);
  // Older games, a page at a time, after the last one shown.
  const more = el("button", { id: "more-games", hidden: !next, onclick: async () => {
    more.disabled = true;
    try {
      ({ games, next } = await api("GET", "/api/games?after=" + encodeURIComponent(next)));
      list.tBodies[0].append(...games.map(row));
      more.hidden = !next;
      // The first new row takes the focus, so a keyboard user goes on from there.
      const first = games.length ? list.querySelector(`tr[data-game="${games[0].id}"] a`) : null;
      if (first) first.focus();
    } catch (e) {
      toast(e.message);
    } finally {
      more.disabled = false;
    }
  } }, t("games.more"));
  section.append(el("div", { class: "row" }, more));
}
