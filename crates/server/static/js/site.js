// The site's socket (`/api/site/ws`), kept open by every page: while it is
// open its player counts as online, and it says when her challenges change
// (sent or received, on this instance or another). A challenge to her shows
// in a bar at the foot of whatever page she is on, with Accept and
// Decline; when one she sent is accepted she is taken to its game, and when
// it is declined she is told. Pages that show challenges (her profile
// page's Challenge button, the home page) listen for `agon-challenges`.
import { el, toast, announce } from "./dom.js";
import { t } from "../i18n.js";
import { api, tokenKey, errorText } from "./api.js";
import { navigate } from "./router.js";
import { gameOf } from "./games.js";
import { refreshAccount } from "./account.js";
import { until } from "./countdown.js";
import { playSound } from "./sound.js";
import { keepSocket } from "./socket.js";

/** The site's socket (`keepSocket`), once the page has started it. */
let socket = null;
let signedIn = false;
/** The challenges as last read: `{incoming, outgoing}`. */
let last = { incoming: [], outgoing: [] };
/** The statuses of sent challenges as last read, so a change is told once. */
const sentStatus = new Map();
/** Challenges this page answered itself (not to be told again). */
const answered = new Set();

/** The challenges as last read. */
export function challenges() {
  return last;
}

/** A challenge's terms in words: the game, its rules, its clock, rated or
 *  casual, and the side the reader plays. */
export function challengeWords(c, forTarget) {
  const g = gameOf(c.game);
  const clock = c.clock ? (c.clock.days ? t("corr.per_move", { n: c.clock.days }) : c.clock_label) : t("lobby.no_clock");
  let side;
  if (c.side === "random") side = t("challenge.side_random");
  else if (forTarget) side = t("challenge.you_play", { side: t("side." + g.sides.find((s) => s !== c.side)) });
  else side = t("challenge.you_play", { side: t("side." + c.side) });
  return [g.name, g.settingsWords(c.settings), clock, c.rated ? t("lobby.rated") : t("lobby.casual"), side].join(" · ");
}

/** What the site's socket says: who she is on opening, and that her
 *  challenges, her tournaments or a moderator's word changed. */
function heard(msg) {
  if (msg.type === "hello") {
    signedIn = !!msg.signed_in;
    if (signedIn) { refreshChallenges(); refreshTournaments(); } else { show({ incoming: [], outgoing: [] }); tournaments = []; drawTournamentBar(); }
  } else if (msg.type === "challenges") {
    // Her challenges, her tournaments (a game ready, a start near), or
    // what a moderator told her.
    refreshChallenges();
    refreshTournaments();
    refreshAccount();
  }
}

/** Reads the player's challenges and shows what changed. */
export async function refreshChallenges() {
  if (!signedIn) return last;
  let c;
  try {
    c = await api("GET", "/api/challenges");
  } catch {
    return last;
  }
  show(c);
  return c;
}

function show(c) {
  for (const s of c.outgoing) {
    const before = sentStatus.get(s.id);
    sentStatus.set(s.id, s.status);
    if (before === undefined || before === s.status || answered.has(s.id)) continue;
    if (s.status === "accepted" && s.game_id) {
      toast(t("challenge.accepted", { name: s.user }));
      navigate("/g/" + s.game_id);
    } else if (s.status === "declined") {
      toast(t("challenge.declined", { name: s.user }));
      announce(t("challenge.declined", { name: s.user }));
    }
  }
  last = c;
  window.agonChallenges = c;
  drawBar();
  document.dispatchEvent(new CustomEvent("agon-challenges", { detail: c }));
}

/** The bar of challenges received and open, the newest first. */
function drawBar() {
  const bar = document.getElementById("challenge-bar");
  if (!bar) return;
  const open = last.incoming.filter((c) => c.status === "open" && !answered.has(c.id));
  if (!open.length) { bar.hidden = true; bar.replaceChildren(); return; }
  const c = open[0];
  const error = el("p", { class: "result", role: "alert", hidden: true });
  const act = async (verb) => {
    try {
      const r = await api("POST", `/api/challenges/${c.id}/${verb}`);
      answered.add(c.id);
      if (verb === "accept") {
        if (r.token) localStorage.setItem(tokenKey(r.game), r.token);
        navigate("/g/" + r.game);
      }
      drawBar();
    } catch (e) {
      error.textContent = errorText(e);
      error.hidden = false;
      refreshChallenges();
    }
  };
  bar.replaceChildren(...[
    // Her rating in the game beside her name (it decides whether to
    // accept), with a "?" while it is provisional, as the lobby shows it.
    el("h2", { id: "challenge-title" }, t("challenge.from", {
      name: c.from + (c.from_rating ? ` (${c.from_rating.rating}${c.from_rating.provisional ? "?" : ""})` : ""),
    })),
    el("p", { id: "challenge-terms" }, challengeWords(c, true)),
    open.length > 1 ? el("p", { class: "muted" }, t("challenge.more", { n: open.length - 1 })) : null,
    error,
    el("div", { class: "row" },
      el("button", { class: "primary", id: "challenge-accept", onclick: () => act("accept") }, t("challenge.accept")),
      el("button", { id: "challenge-decline", onclick: () => act("decline") }, t("challenge.decline")),
      el("a", { class: "button", href: "/@/" + encodeURIComponent(c.from), "data-nav": true }, t("challenge.profile"))),
  ].filter(Boolean));
  bar.setAttribute("aria-labelledby", "challenge-title");
  bar.hidden = false;
}

/** Her tournaments with a game ready or a start near, as last read, and
 *  when (this browser's clock), so a start counts down from the server's
 *  time. */
let tournaments = [];
let readAt = Date.now();
/** The bar's countdown: once a second while a start is shown. */
let ticking = null;
/** The tournament games she was taken to already (once each). */
const taken = new Set();

/** Takes her to a tournament game she was paired in, with a sound, once
 *  per game (from a finished game of the event here, and from the event's
 *  page): false when she was taken there already. */
export function carryToGame(game) {
  if (taken.has(game)) return false;
  taken.add(game);
  playSound("move");
  navigate("/g/" + game);
  return true;
}

/** Reads her tournaments' news and shows it in the tournament bar. */
async function refreshTournaments() {
  if (!signedIn) return;
  try {
    ({ tournaments } = await api("GET", "/api/account/tournaments"));
    readAt = Date.now();
  } catch {
    return;
  }
  drawTournamentBar();
}

/** The tournament bar, at the top of every page: her game ready (unless
 *  she is on it), or an event she entered starting within five minutes. */
function drawTournamentBar() {
  const bar = document.getElementById("tournament-bar");
  if (!bar) return;
  const here = location.pathname;
  const news = [];
  for (const v of tournaments) {
    const game = v.you && v.you.game;
    // The next game comes to her: from a finished game of the same event
    // she is taken to it (with a sound), as a player who looks away would
    // otherwise lose it to the first-move limit. Once per game.
    const finished = window.agonFinishedTournamentGame;
    const carried = finished && finished.tournament === v.id && here === "/g/" + finished.game;
    if (game && here !== "/g/" + game && carried && carryToGame(game)) return;
    if (game && here !== "/g/" + game) {
      news.push(el("p", { "data-tournament": v.id, "data-news": "game" }, t("tour.bar_game", { name: v.name }), " ",
        el("a", { class: "button primary", href: "/g/" + game, "data-nav": true, id: "tournament-bar-play" }, t("tour.bar_play"))));
    } else if (v.status === "upcoming" && here !== "/t/" + v.id) {
      // A countdown, in seconds under a minute (it said "0 min").
      news.push(el("p", { "data-tournament": v.id, "data-news": "starting" },
        el("span", { class: "starts-in" }, startingWords(v)), " ",
        el("a", { class: "button", href: "/t/" + v.id, "data-nav": true }, t("tour.bar_open"))));
    }
  }
  bar.replaceChildren(...news);
  bar.hidden = !news.length;
  // Only the words change each second, so a focused link stays focused.
  clearInterval(ticking);
  ticking = news.some((p) => p.dataset.news === "starting") ? setInterval(() => {
    for (const span of bar.querySelectorAll(".starts-in")) {
      const v = tournaments.find((x) => x.id === span.parentElement.dataset.tournament);
      if (v) span.textContent = startingWords(v);
    }
  }, 1000) : null;
}

/** "Weekly Swiss starts in 45 s", counted from when the news was read. */
function startingWords(v) {
  return t("tour.bar_starting", { name: v.name, left: until(v.starts_ms - v.now_ms - (Date.now() - readAt)) });
}

/** Sends a challenge; answers it (or throws the API's error). */
export async function sendChallenge(body) {
  const c = await api("POST", "/api/challenges", body);
  sentStatus.set(c.id, c.status);
  await refreshChallenges();
  return c;
}

/** Cancels a challenge sent. */
export async function cancelChallenge(id) {
  answered.add(id);
  const c = await api("POST", `/api/challenges/${id}/cancel`);
  await refreshChallenges();
  return c;
}

/** Opens the socket, once per page load; a sign-in or sign-out opens it
 *  again. */
export function startSite() {
  if (socket) return;
  socket = keepSocket("/api/site/ws", { onMessage: heard });
  // Opened again after a sign-in or a sign-out, so that the server counts
  // the right player.
  document.addEventListener("agon-account", () => socket.reopen());
  // Redrawn in the page's language after a switch.
  document.addEventListener("agon-lang", drawBar);
  document.addEventListener("agon-lang", drawTournamentBar);
  // A page change may be onto the game the bar names.
  document.addEventListener("agon-route", drawTournamentBar);
}
