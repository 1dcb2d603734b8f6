// Hearing of one's games: the player's games between people, asked of the
// server every few seconds from whatever page is open (`POST /api/turns`),
// give the menu's count and the home page's **Your turn** list; when a game
// changes for her (her turn, an offer, a line of chat) while she looks
// elsewhere, a browser notification says so (once she has allowed it).
// Web Push reaches her with every tab closed: the service worker shows it.
import { t, LANG } from "../i18n.js";
import { api, ownGameIds, tokenKey } from "./api.js";
import { navigate } from "./router.js";
import { gameOf } from "./games.js";

/** How often the open page asks, in milliseconds. */
const POLL_MS = 8000;

/** The games this browser holds a seat in, with their tokens. */
export function heldGames() {
  return ownGameIds().map((id) => ({ id, token: localStorage.getItem(tokenKey(id)) })).filter((g) => g.token);
}

/** A time left in words, in the page's language: "2 days 4 hours",
 *  "3 hours 5 minutes", "12 minutes" (at least a minute while some is left). */
export function timeWords(ms) {
  const left = Math.max(0, ms);
  const d = Math.floor(left / 86400000), h = Math.floor((left % 86400000) / 3600000), m = Math.floor((left % 3600000) / 60000);
  const parts = d ? { days: d, hours: h } : h ? { hours: h, minutes: m } : { minutes: left > 0 ? Math.max(m, 1) : 0 };
  for (const k of Object.keys(parts)) if (!parts[k] && Object.keys(parts).length > 1) delete parts[k];
  if (typeof Intl !== "undefined" && Intl.DurationFormat) {
    return new Intl.DurationFormat(LANG, { style: "long" }).format(parts);
  }
  return Object.entries(parts).map(([k, v]) => t("time." + k, { n: v })).join(" ");
}

/** Notifications are allowed. */
export function allowed() {
  return "Notification" in window && Notification.permission === "granted";
}

/** True unless the player is looking at game `id` right now. */
function away(id) {
  return document.hidden || !document.hasFocus() || location.pathname !== "/g/" + id;
}

/** Shows a browser notification about game `id` when the player looks
 *  elsewhere; a click opens the game. One per game and kind at a time. */
export function notify(id, kind, body) {
  if (!allowed() || !away(id)) return;
  const title = t("notify." + kind);
  try {
    const n = new Notification(title, { body, tag: `agon-${id}-${kind}` });
    n.onclick = () => { window.focus(); navigate("/g/" + id); n.close(); };
  } catch {
    // A browser that only takes notifications from a service worker.
    navigator.serviceWorker?.ready.then((r) => r.showNotification(title, { body, tag: `agon-${id}-${kind}`, data: { url: "/g/" + id } }));
  }
}

/** The player's games as last heard, by id. */
let last = null;
let timer = null;
let registeredGames = "";

/** A game's name and opponent, for a notification's body. */
function gameWords(g) {
  return [gameOf(g.game).name, g.opponent].filter(Boolean).join(" · ");
}

/** Compares a new answer with the last and notifies of what concerns her. */
function compare(games) {
  const now = new Map(games.map((g) => [g.id, g]));
  if (last) {
    for (const g of games) {
      const before = last.get(g.id);
      if (!before) continue;
      if (g.your_turn && (!before.your_turn || g.revision > before.revision) && !(g.offer && !g.you.includes(g.offer.seat))) {
        notify(g.id, "turn", gameWords(g));
      }
      if (g.offer && !g.you.includes(g.offer.seat) && (!before.offer || before.offer.kind !== g.offer.kind)) {
        notify(g.id, g.offer.kind, gameWords(g));
      }
      const line = g.chat;
      if (line && line.id > (before.chat?.id || 0) && line.seat !== null && !g.you.includes(line.seat)
        && localStorage.getItem("agon-mute-" + g.id) !== "1" && localStorage.getItem("agon-chat") !== "off") {
        notify(g.id, "chat", line.text);
      }
    }
  }
  last = now;
}

/** Asks the server now; the menu's count and any listener follow. */
export async function pollTurns() {
  const held = heldGames();
  let answer;
  try {
    answer = await api("POST", "/api/turns", { games: held.slice(0, 200) });
  } catch {
    return null;
  }
  compare(answer.games);
  const link = document.getElementById("turns-link");
  if (link) {
    link.hidden = answer.your_turn === 0;
    document.getElementById("turns-count").textContent = String(answer.your_turn);
  }
  window.agonTurns = answer;
  document.dispatchEvent(new CustomEvent("agon-turns", { detail: answer }));
  // A browser subscribed to Web Push hears of its new games too.
  const ids = held.map((g) => g.id).sort().join(",");
  if (localStorage.getItem("agon-push") === "on" && ids !== registeredGames) {
    registeredGames = ids;
    subscribePush(false).catch(() => {});
  }
  return answer;
}

/** Starts asking, from every page, for as long as the tab is open. */
export function startTurns() {
  if (timer) return;
  pollTurns();
  timer = setInterval(pollTurns, POLL_MS);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) pollTurns(); });
}

/** A base64url text as bytes. */
function bytes(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64.length + 3) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** Subscribes this browser to Web Push for its games (and, signed in, its
 *  account's): the service worker, the server's key, the subscription
 *  sent with the games' tokens. Asking first makes the browser ask the
 *  player. Returns whether push works here. */
export async function subscribePush(ask = true) {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) return false;
  const reg = await navigator.serviceWorker.register("/sw.js");
  await navigator.serviceWorker.ready;
  let sub = await reg.pushManager.getSubscription();
  if (!sub) {
    if (!ask) return false;
    const { public_key } = await api("GET", "/api/push/key");
    sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(public_key) });
  }
  await api("POST", "/api/push/subscriptions", { subscription: sub.toJSON(), games: heldGames().slice(0, 200), lang: LANG });
  localStorage.setItem("agon-push", "on");
  return true;
}

/** Asks the player to allow notifications (a click's answer): in-page
 *  ones at once, Web Push where the browser has a push service. Returns
 *  `granted`, `denied` or `default`; says what it did. */
export async function turnOnNotifications() {
  if (!("Notification" in window)) return "denied";
  const answer = await Notification.requestPermission();
  if (answer !== "granted") return answer;
  try {
    await subscribePush(true);
  } catch {
    // No push service in this browser (or none reachable): notifications
    // come while a tab is open.
    localStorage.setItem("agon-push", "off");
  }
  return answer;
}

/** The button that turns notifications on, or a line saying they are. */
export function notifyButton(el) {
  if (!("Notification" in window)) return null;
  if (Notification.permission === "granted") return el("p", { class: "muted small", id: "notify-on" }, t("notify.on"));
  if (Notification.permission === "denied") return el("p", { class: "muted small", id: "notify-denied" }, t("notify.denied"));
  const b = el("button", { id: "notify-button", onclick: async () => {
    const answer = await turnOnNotifications();
    b.replaceWith(answer === "granted" ? el("p", { class: "muted small", id: "notify-on" }, t("notify.on"))
      : el("p", { class: "muted small", id: "notify-denied" }, t("notify.denied")));
  } }, t("notify.button"));
  return b;
}
