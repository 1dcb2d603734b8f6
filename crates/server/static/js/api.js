// The HTTP API. A failed call throws an Error whose message is the server's
// error code translated into the page's language (the English sentence when
// the code is unknown); `code` and `english` keep the originals.
import { t, has } from "../i18n.js";

export const tokenKey = (id) => "agon-token-" + id;
export const inviteKey = (id) => "agon-invite-" + id;

export class ApiError extends Error {
  constructor(status, code, english) {
    super(code && has("err." + code) ? t("err." + code) : english);
    this.status = status;
    this.code = code;
    this.english = english;
  }
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
  if (!res.ok) throw new ApiError(res.status, data.code, data.error || res.statusText);
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
