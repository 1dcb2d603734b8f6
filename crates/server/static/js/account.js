// The signed-in account, as this page knows it: fetched once from
// `GET /api/account` (the session cookie is HttpOnly, so the page never sees
// it), shown in the header, and changed by signing in or out. Settings
// (language, sounds) follow the account to every device.
import { api, gamesByIds, inviteKey, ownGameIds, tokenKey } from "./api.js";
import { t, LANG, setLang } from "../i18n.js";
import { prefs } from "./prefs.js";
import { el } from "./dom.js";

let current; // undefined: not asked yet; null: signed out; else the account

/** The signed-in account (`{name, sessions, settings, …}`) or null. */
export async function account() {
  if (current === undefined) {
    try {
      current = await api("GET", "/api/account");
    } catch (e) {
      current = null;
    }
    showInHeader();
  }
  return current;
}

/** Reads the account again when the server says something of hers
 *  changed (the site's socket): a moderator's warning or mute shows at
 *  once, on every page she has open, with its reason. */
export async function refreshAccount() {
  if (!current) return;
  const before = current;
  try {
    current = await api("GET", "/api/account");
  } catch (e) {
    // Signed out meanwhile, or the server is away: the next page asks.
    return;
  }
  // A mute new since this page last looked shows here too, though another
  // of her pages may have read it first as a notice (each is told once).
  if (current.muted_until && current.muted_until !== before.muted_until
      && !(current.notices || []).some((n) => n.action === "mute")) {
    current.notices = [...(current.notices || []), { action: "mute", until_ms: current.muted_until, reason: current.muted_reason }];
  }
  showInHeader();
}

let blocked = null; // the names the signed-in player blocks, once asked

/** The names of the players the signed-in player blocks (none signed
 *  out): their chat lines are not shown to her. */
export async function blockedNames() {
  if (blocked) return blocked;
  try {
    blocked = new Set((await api("GET", "/api/account/blocks")).blocks.map((b) => b.name.toLowerCase()));
  } catch {
    blocked = new Set();
  }
  return blocked;
}

/** Forgets the blocks read (after a block or an unblock). */
export function forgetBlocks() {
  blocked = null;
}

/** Forgets what is known, so the next `account()` asks again. */
export function forgetAccount() {
  current = undefined;
}

/** Sets the account after a sign-in, sign-up or sign-out (null). */
export function setAccount(a) {
  current = a;
  blocked = null;
  showInHeader();
  // The site's socket opens again as the new player (or as nobody).
  document.dispatchEvent(new Event("agon-account"));
}

/** The header's account link: the name when signed in, else "Sign in". */
export function showInHeader() {
  const link = document.getElementById("account-link");
  if (!link) return;
  link.textContent = current ? current.name : t("nav.signin");
  link.dataset.signedIn = current ? "yes" : "no";
  // A moderator finds the moderation page under Community.
  const mod = document.getElementById("nav-mod");
  if (mod) mod.hidden = !current?.moderator;
  showNotices();
}

/** What moderators told her (a warning, a mute, and why), once each: a
 *  bar over the page until she closes it. */
function showNotices() {
  const bar = document.getElementById("notices");
  const notices = current?.notices || [];
  if (!bar || !notices.length) return;
  bar.replaceChildren(...notices.map((n) => el("p", { "data-notice": n.action },
    n.action === "mute"
      ? t("notice.mute", { until: new Date(n.until_ms).toLocaleString(document.documentElement.lang), reason: n.reason })
      : n.action === "mark" ? t("notice.mark", { reason: n.reason }) : t("notice.warn", { reason: n.reason }))),
  el("button", { id: "notices-close", onclick: () => { bar.hidden = true; } }, t("notice.close")));
  bar.hidden = false;
  current.notices = [];
}

/** The seats this browser holds, for the server to give to the account. */
export function heldSeats() {
  return ownGameIds().map((game) => ({ game, token: localStorage.getItem(tokenKey(game)) }));
}

/** Before signing out: this browser forgets its seats in the account's
 *  games (the list says which seats the signed-in account holds), so that
 *  signed out, nobody at this browser plays them or is counted their
 *  turns; signed in again, anywhere, the account holds them still. A seat
 *  the account does not hold (a claim refused) stays. */
export async function dropAccountSeats() {
  for (const g of await gamesByIds(ownGameIds())) {
    if (g.you && g.you.length) {
      localStorage.removeItem(tokenKey(g.id));
      localStorage.removeItem(inviteKey(g.id));
    }
  }
}

/** Adds the lessons an account has done (`{game: [ids]}`) to those this
 *  browser keeps (`agon-learn`, read by the lessons' page). */
export function mergeLearned(learn) {
  if (!learn || typeof learn !== "object") return;
  let here = {};
  try { here = JSON.parse(localStorage.getItem("agon-learn") || "{}"); } catch { here = {}; }
  for (const [game, ids] of Object.entries(learn)) {
    if (!Array.isArray(ids)) continue;
    here[game] = [...new Set([...(Array.isArray(here[game]) ? here[game] : []), ...ids.filter((x) => typeof x === "string")])];
  }
  localStorage.setItem("agon-learn", JSON.stringify(here));
}

/** Applies the account's saved settings to this browser: its language
 *  (unless the address asks for one) and its sounds. */
export function applySettings(a) {
  const s = (a && a.settings) || {};
  if (typeof s.sound === "boolean") prefs.sound = s.sound;
  if (typeof s.animation === "boolean") prefs.animation = s.animation;
  if (typeof s.flip === "boolean") prefs.flipDefault = s.flip;
  if (typeof s.chat === "boolean") localStorage.setItem("agon-chat", s.chat ? "on" : "off");
  // The lessons done on another device are done here too (the lesson
  // page reads `agon-learn`).
  mergeLearned(s.learn);
  const asked = new URLSearchParams(location.search).get("lang");
  if (s.lang && s.lang !== LANG && !asked) {
    setLang(s.lang);
    return true;
  }
  return false;
}

/** Saves a setting on the account, when signed in (quietly: the browser
 *  keeps it anyway). */
export function saveSetting(key, value) {
  if (!current) return;
  const settings = { ...(current.settings || {}), [key]: value };
  current.settings = settings;
  api("PUT", "/api/account/settings", settings).catch(() => {});
}
