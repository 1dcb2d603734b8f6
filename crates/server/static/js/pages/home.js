// The home page (/): where players meet. On its first screen, on a phone
// as on a desktop: who is here (players online, games in play), the three
// ways to a game (create one for someone online, play a friend, play the
// computer), quick pairing's tiles and the open seeks; then the player's
// own games and turns, her challenges, the players she follows, a game
// being played now to watch, the puzzle of the day and her next lesson.
// The full new-game form is one click away (/new).
import { el } from "../dom.js";
import { t } from "../../i18n.js";
import { api, ownGameIds, gamesByIds } from "../api.js";
import { onLeave } from "../router.js";
import { gameOf, GAME_NAMES } from "../games.js";
import { gameName, opponentText, scoreText } from "./list.js";
import { account } from "../account.js";
import { lobbyBlock } from "./lobby.js";
import { clockLabel } from "../gamefields.js";
import { clockText } from "../clock.js";
import { timeWords, notifyButton, pollTurns } from "../notify.js";
import { settingsText } from "../settings.js";
import { challenges, challengeWords, cancelChallenge } from "../site.js";
import { lessons, progress, say } from "./learn.js";
import { terms } from "./tournaments.js";

/** How often the counts, the featured game and the followed players are
 *  read again, in milliseconds. */
const REFRESH_MS = 5000;

/** A player of a game in play: "ala (1530?)", or "Anonymous". */
export function playerText(p) {
  if (!p.name) return t("player.anonymous");
  return p.rating != null ? `${p.name} (${p.rating}${p.provisional ? "?" : ""})` : p.name;
}

export async function homePage(main) {
  const me = await account();
  let timer = null;
  onLeave(() => clearInterval(timer));
  const counts = el("p", { class: "counts", id: "site-counts", "aria-live": "polite" });
  const actions = el("nav", { class: "home-actions", "aria-label": t("home.ways") },
    el("a", { class: "button primary", href: "/new?opponent=online", "data-nav": true, id: "home-create" }, t("home.create")),
    el("a", { class: "button", href: "/new?opponent=friend", "data-nav": true, id: "home-friend" }, t("home.friend")),
    el("a", { class: "button", href: "/new?opponent=engine", "data-nav": true, id: "home-computer" }, t("home.computer")));
  const turns = el("section", { class: "card", id: "your-turn", hidden: true, "aria-labelledby": "your-turn-title" });
  const sent = el("section", { class: "card", id: "home-challenges", hidden: true, "aria-labelledby": "home-challenges-title" });
  // Someone to play: the quick pairings and the open seeks, live.
  const lobby = el("div", { class: "lobby home-lobby", id: "home-lobby" });
  const resume = el("section", { class: "card", id: "resume", hidden: true, "aria-labelledby": "resume-title" });
  const featured = el("section", { class: "card featured", id: "featured", hidden: true, "aria-labelledby": "featured-title" });
  const follows = el("section", { class: "card", id: "following", hidden: true, "aria-labelledby": "following-title" });
  const study = el("section", { class: "card", id: "study", "aria-labelledby": "study-title" });
  const events = el("section", { class: "card", id: "home-tournaments", hidden: true, "aria-labelledby": "home-tournaments-title" });
  // Two columns on a wide screen (someone to play on the left; a game to
  // watch, the players followed and the day's study on the right), so the
  // first screen holds them all; one column on a phone.
  main.append(el("h1", { class: "sr-only" }, t("home.meet_title")), counts, actions,
    el("div", { class: "home-layout" },
      el("div", { class: "home-main" }, turns, sent, lobby, resume),
      el("div", { class: "home-side" }, events, featured, follows, study)));

  const drawTurns = (e) => yourTurn(turns, e.detail);
  document.addEventListener("agon-turns", drawTurns);
  onLeave(() => document.removeEventListener("agon-turns", drawTurns));
  if (window.agonTurns) yourTurn(turns, window.agonTurns);
  pollTurns();
  const drawSent = (e) => sentChallenges(sent, e.detail);
  document.addEventListener("agon-challenges", drawSent);
  onLeave(() => document.removeEventListener("agon-challenges", drawSent));
  sentChallenges(sent, challenges());
  lobbyBlock(lobby, true).then(() => lobby.append(el("p", {}, el("a", { href: "/lobby", "data-nav": true, id: "lobby-link" }, t("lobby.home_link")))))
    .catch(() => {});
  // The section says when the look is over (found or not), so a test can
  // wait for that instead of for a fixed time.
  showUnfinished(resume).catch(() => {}).finally(() => { resume.dataset.checked = "1"; });
  showStudy(study).catch(() => {});

  let watched = null;
  async function refresh() {
    const [online, live] = await Promise.all([
      api("GET", "/api/online").catch(() => null),
      api("GET", "/api/games/live").catch(() => null),
    ]);
    if (online) {
      counts.replaceChildren(
        el("span", { id: "online-count" }, el("b", {}, String(online.players)), " ", t("home.players_online", { n: online.players })),
        el("span", { id: "playing-count" }, el("b", {}, String(online.games)), " ", t("home.games_in_play", { n: online.games })),
        el("a", { href: "/players", "data-nav": true, id: "home-players" }, t("home.who")),
        el("a", { href: "/watch", "data-nav": true, id: "home-watch" }, t("home.watch_all")));
    }
    if (live) watched = await showFeatured(featured, live.games[0], watched);
    await showTournaments(events).catch(() => {});
    if (me) await showFollowing(follows).catch(() => {});
  }
  refresh();
  // Once more when this page's own socket has been counted.
  setTimeout(refresh, 1500);
  timer = setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
}

/** The tournaments under way and coming up (three at most), each a link
 *  to its page where one joins; hidden when there are none. */
async function showTournaments(section) {
  const l = await api("GET", "/api/tournaments");
  const shown = [...l.running, ...l.upcoming].slice(0, 3);
  if (!shown.length) { section.hidden = true; return; }
  section.replaceChildren(el("h2", { id: "home-tournaments-title" }, t("home.tournaments")),
    el("ul", { class: "resume" }, shown.map((e) => el("li", { "data-tournament": e.id },
      el("a", { href: "/t/" + e.id, "data-nav": true }, e.name), " · ", terms(e), " · ",
      e.status === "upcoming" ? t("tour.starts_at", { when: new Date(e.starts_ms).toLocaleTimeString(document.documentElement.lang, { timeStyle: "short" }) }) : t("tour.running")))),
    el("p", {}, el("a", { href: "/tournaments", "data-nav": true, id: "home-tournaments-all" }, t("home.tournaments_all"))));
  section.hidden = false;
}

/** The highest-rated live game, its board updating: a link to watch it.
 *  Answers the id shown. */
async function showFeatured(section, game, before) {
  if (!game) { section.hidden = true; return null; }
  let g;
  try {
    g = await api("GET", "/api/games/" + game.id);
  } catch {
    return before;
  }
  const state = { ...g.state, game: g.state.game || game.game };
  // The board is a picture here (no cell to press): the link watches.
  const board = el("div", { class: "featured-board", inert: true, "aria-hidden": "true" }, gameOf(game.game).board({ state }));
  section.replaceChildren(
    el("h2", { id: "featured-title" }, t("home.featured")),
    el("p", { id: "featured-players" }, `${playerText(game.players[0])} – ${playerText(game.players[1])}`),
    el("p", { class: "muted" }, [gameOf(game.game).name, gameOf(game.game).settingsWords(game.settings), game.clock_label,
      game.rated ? t("lobby.rated") : t("lobby.casual"), t("watch.spectators", { n: game.spectators })].join(" · ")),
    board,
    el("p", {}, el("a", { class: "button", href: "/g/" + game.id, "data-nav": true, id: "featured-watch" }, t("home.watch_game"))));
  section.dataset.game = game.id;
  section.hidden = false;
  return game.id;
}

/** The players she follows: who is online, and their games in play. */
async function showFollowing(section) {
  const { players } = await api("GET", "/api/account/following");
  if (!players.length) { section.hidden = true; return; }
  section.replaceChildren(el("h2", { id: "following-title" }, t("home.following")),
    el("ul", { class: "resume", id: "following-list" }, players.map((p) => el("li", { "data-player": p.name },
      el("a", { href: "/@/" + encodeURIComponent(p.name), "data-nav": true },
        p.online ? el("span", { class: "online-badge", "aria-hidden": "true" }) : null,
        p.name, " · ", p.online ? t("players.online") : t("players.offline")),
      p.games.map((g) => el("a", { class: "button", href: "/g/" + g.id, "data-nav": true, "data-followed-game": g.id },
        t("home.followed_game", { game: gameOf(g.game).name, players: `${playerText(g.players[0])} – ${playerText(g.players[1])}`, clock: g.clock_label })))))));
  section.hidden = false;
}

/** The challenges she sent that wait for an answer, each with Cancel. */
function sentChallenges(section, c) {
  const open = (c?.outgoing || []).filter((x) => x.status === "open");
  if (!open.length) { section.hidden = true; return; }
  section.replaceChildren(el("h2", { id: "home-challenges-title" }, t("challenge.sent_title")),
    el("ul", { class: "resume" }, open.map((x) => el("li", { "data-challenge": x.id },
      el("p", {}, t("challenge.to", { name: x.user }), " · ", challengeWords(x, false)),
      el("button", { class: "challenge-cancel", onclick: () => cancelChallenge(x.id).catch(() => {}) }, t("challenge.cancel"))))));
  section.hidden = false;
}

/** The puzzle of the day of each game, and the next lesson not done. */
async function showStudy(section) {
  const sets = await api("GET", "/api/puzzles").catch(() => ({ games: [] }));
  const done = progress();
  const next = [];
  for (const g of GAME_NAMES) {
    const list = await lessons(g).catch(() => []);
    const l = list.find((x) => !done[g].includes(x.id));
    if (l) next.push(el("li", {}, el("a", { class: "button", href: `/learn/${g}/${l.id}`, "data-nav": true, "data-next-lesson": g },
      t("home.next_lesson", { game: gameOf(g).name, title: say(l, "title") }))));
  }
  section.replaceChildren(el("h2", { id: "study-title" }, t("home.study")),
    el("ul", { class: "resume" }, sets.games.filter((s) => s.daily).map((s) => el("li", {},
      el("a", { class: "button", href: "/puzzles/" + s.daily, "data-nav": true, "data-daily": s.game },
        t("home.daily", { game: gameOf(s.game).name }))))),
    el("ul", { class: "resume" }, next));
}

/** Fills `section` with the player's unfinished games (newest first, five at
 *  most, and a link to the rest), and shows it when there is one. */
async function showUnfinished(section) {
  const ids = ownGameIds();
  if (!ids.length) return;
  const games = (await gamesByIds(ids)).filter((g) => g.status === "ongoing");
  if (!games.length) return;
  const shown = games.slice(0, 5);
  section.replaceChildren(...[el("h2", { id: "resume-title" }, t("home.resume")),
    el("ul", { class: "resume" }, shown.map((g) => el("li", {},
      el("a", { class: "button", href: "/g/" + g.id, "data-nav": true, "data-game": g.id },
        [gameName(g), settingsText(g.game, g.settings), opponentText(g), scoreText(g)].filter(Boolean).join(" · "))))),
    games.length > shown.length ? el("p", {}, el("a", { href: "/games", "data-nav": true, id: "resume-all" }, t("home.resume_all", { n: games.length }))) : null]
    .filter(Boolean));
  section.hidden = false;
}
/** The **Your turn** list: the games between people waiting for this
 *  player (correspondence ones with the time left in words, live ones
 *  with their clock and her time left, any offer),
 *  and a word on those waiting for the opponent; with the button that
 *  turns notifications on. Hidden when she plays nobody. */
function yourTurn(section, answer) {
  const games = answer?.games || [];
  if (!games.length) { section.hidden = true; return; }
  const waiting = games.filter((g) => g.your_turn);
  const item = (g) => el("li", {}, el("a", { class: "button" + (g.your_turn ? " primary" : ""), href: "/g/" + g.id, "data-nav": true, "data-turn": g.id },
    [gameOf(g.game).name, settingsText(g.game, g.settings), g.opponent ? t("turns.against", { name: g.opponent }) : null,
      g.days ? t("corr.per_move", { n: g.days }) : null,
      // A live game says so, with its clock and her time left.
      g.clock ? t("turns.live", { tc: clockLabel({ base_secs: g.clock.base_ms / 1000, increment_secs: g.clock.increment_ms / 1000 }) }) : null,
      g.clock ? t("turns.clock", { time: clockText(g.clock.left_ms) }) : null,
      g.deadline ? t("turns.left", { time: timeWords(g.deadline - Date.now()) }) : null,
      g.offer && !g.you.includes(g.offer.seat) ? t("offer." + g.offer.kind + "_from") : null].filter(Boolean).join(" · ")));
  const button = notifyButton(el);
  section.replaceChildren(...[el("h2", { id: "your-turn-title" }, t("turns.title"), " ", el("span", { class: "badge", id: "your-turn-count" }, String(waiting.length))),
    waiting.length ? el("ul", { class: "resume", id: "your-turn-list" }, waiting.map(item))
      : el("p", { class: "muted", id: "your-turn-none" }, t("turns.none")),
    games.length > waiting.length ? el("p", { class: "muted", id: "their-turn" }, t("turns.theirs", { n: games.length - waiting.length })) : null,
    button].filter(Boolean));
  section.hidden = false;
}
