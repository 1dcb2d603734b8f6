// The HTTP API. A failed call throws an Error whose message is the server's
// error code translated into the page's language (the English sentence when
// the code is unknown); `code` and `english` keep the originals.
import { t, has } from "../i18n.js";

export const tokenKey = (id) => "agon-token-" + id;
export const inviteKey = (id) => "agon-invite-" + id;

/** The games this browser holds a seat in: those it keeps a token for. */
export function ownGameIds() {
  const ids = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith("agon-token-")) ids.push(key.slice("agon-token-".length));
  }
  return ids.filter((id) => /^[A-Za-z0-9]{1,64}$/.test(id));
}

/** The games of `ids` from `GET /api/games?ids=`, a hundred ids a request,
 *  newest first. */
export async function gamesByIds(ids) {
  const out = [];
  for (let i = 0; i < ids.length; i += 100) {
    const { games } = await api("GET", "/api/games?ids=" + ids.slice(i, i + 100).join(","));
    out.push(...games);
  }
  const key = (g) => [g.updated_at, g.created_at, g.id];
  return out.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let k = 0; k < 3; k++) if (x[k] !== y[k]) return x[k] < y[k] ? 1 : -1;
    return 0;
  });
}

/** The rules state of a set position from the analysis board's API: its
 *  request is the game's own (`gameOf(game).positionRequest(spec, move)`: a
 *  Ringo position under its rules, or an Urgammon set-up and the turn's
 *  dice). Lessons and puzzles draw their boards from it. */
export async function positionState(body) {
  return { ...(await api("POST", "/api/analyze", body)).state, game: body.game };
}

export class ApiError extends Error {
  constructor(status, code, english, at) {
    super(code && has("err." + code) ? t("err." + code) : english);
    this.status = status;
    this.code = code;
    this.english = english;
    this.at = at || null;
  }
}

/** An error in words for a box on the page: the translated meaning, then
 *  where a record failed ("at token 2, 'zz'") in the page's language when
 *  the server says where; else, on an English page, the server's own words,
 *  which name the bad part ("move 1 ('zz-top')"). A Polish or French page
 *  shows no English sentence. */
export function errorText(e) {
  if (e.at) return `${e.message} ${t("err.at", { n: e.at.index + 1, token: e.at.token })}`;
  const english = document.documentElement.lang === "en";
  // The server's sentence only when it names a bad part the translation
  // does not (a quoted token, a number), never the same reason twice in
  // other words ("One of you blocks the other. (… one of you blocks the
  // other)").
  const words = (s) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  const names = (s) => (s.match(/'[^']*'|"[^"]*"|\d+/g) || []);
  const more = e.english && !words(e.message).includes(words(e.english))
    && names(e.english).some((n) => !e.message.includes(n.replace(/^['"]|['"]$/g, "")));
  return english && more ? `${e.message} (${e.english})` : e.message;
}

export async function api(method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers["x-agon-token"] = token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, null, t("err.network", { e: e.message }));
  }
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) {
    const err = new ApiError(res.status, data.code, data.error || res.statusText, data.at);
    // Refused until a time (a chat mute): the page can say until when.
    err.untilMs = data.until_ms || null;
    // And why, in the moderator's words.
    err.reason = data.reason || null;
    throw err;
  }
  return data;
}

let META = null;
/** `/api/meta`, fetched once. */
export async function meta() {
  if (!META) META = await api("GET", "/api/meta");
  return META;
}

/** The address of a game's WebSocket, on this page's host and scheme. */
export function socketUrl(id) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/api/games/${id}/ws`;
}
