// The lobby (/lobby, and its short form on the home page): quick pairing,
// a form to post a seek, and the open seeks, kept live over the lobby's
// WebSocket. A seek lasts while its creator's page holds it on the socket;
// when someone accepts it, the socket names the game and the page goes there.
import { el, toast, clearToast } from "../dom.js";
import { t } from "../../i18n.js";
import { api, meta, tokenKey } from "../api.js";
import { navigate, onLeave } from "../router.js";
import { account } from "../account.js";
import { gameOf, GAME_NAMES } from "../games.js";
import { gameFields, clockLabel } from "../gamefields.js";
import { keepSocket } from "../socket.js";

/** A seek's or pool's settings in words. */
function settingsWords(game, settings) {
  return gameOf(game).settingsWords(settings);
}

/** The lobby's socket address. */
/** The seeks another page made (the new-game page's "someone online") and
 *  hands to the lobby page to hold: id → token, for this tab only. */
const HANDED = "agon-handed-seeks";

/** Hands a seek made elsewhere to the lobby page, which holds it on its
 *  socket (a seek lasts while a lobby socket of its creator holds it). */
export function handOverSeek(id, token) {
  const handed = JSON.parse(sessionStorage.getItem(HANDED) || "{}");
  handed[id] = token;
  sessionStorage.setItem(HANDED, JSON.stringify(handed));
}

/** Draws the lobby into `root`; `compact` (the home page) leaves out the
 *  seek form. */
export async function lobbyBlock(root, compact = false) {
  const [m, me] = await Promise.all([meta(), account()]);
  // The signed-in player's ratings, for the seeks she may take (a player
  // never rated counts as 1500, as the server counts her).
  // Read afresh: a game rated since the page opened has moved them.
  const ratings = me ? await api("GET", "/api/account").then((a) => a.ratings || {}).catch(() => ({})) : {};
  /** Why this page may not take seek `s` (null: it may). */
  const barred = (s) => {
    if (!me && (s.rated || s.rating_min != null || s.rating_max != null)) return "signin";
    if (s.rating_min == null && s.rating_max == null) return null;
    const r = ratings[s.game]?.rating ?? 1500;
    return r < (s.rating_min ?? -Infinity) || r > (s.rating_max ?? Infinity) ? "range" : null;
  };
  const state = { seeks: [], pools: [], mine: new Map(), waiting: null, socket: null, closed: false, rated: false, inPlay: [] };
  // Seeks the new-game page made for this tab: ours, held from here.
  let handed = {};
  try { handed = JSON.parse(sessionStorage.getItem(HANDED) || "{}"); } catch { /* none */ }
  sessionStorage.removeItem(HANDED);
  for (const [id, token] of Object.entries(handed)) if (typeof token === "string") state.mine.set(id, token);
  if (state.mine.size) toast(t("lobby.posted"));
  const quick = el("section", { class: "card", id: "quick", "aria-labelledby": "quick-title" });
  const list = el("section", { class: "card", id: "seeks", "aria-labelledby": "seeks-title" });
  const form = compact ? null : el("section", { class: "card", id: "seek-form", "aria-labelledby": "seek-form-title" });
  root.append(...[quick, form, list].filter(Boolean));

  /** Goes to a game whose seat token is `token`. */
  function enter(game, token) {
    localStorage.setItem(tokenKey(game), token);
    state.closed = true;
    // "Stay on this page until someone accepts it" no longer holds.
    clearToast();
    navigate("/g/" + game);
  }

  /** Holds a seek of ours on the socket (and again after a reconnect). */
  function hold(id) {
    state.socket?.send({ type: "hold", seek: id, token: state.mine.get(id) });
  }

  /** The live games in play of a pool (its game, rules and clock), as
   *  last read. */
  const playing = (p) => state.inPlay.filter((g) => g.game === p.game && g.settings === p.settings && g.clock_label === p.clock_label).length;

  /** Reads the games in play again, every few seconds, for the tiles. */
  async function readInPlay() {
    if (state.closed) return;
    try {
      state.inPlay = (await api("GET", "/api/games/live")).games;
      if (!state.waiting) drawQuick();
    } catch { /* the tiles keep their last counts */ }
  }

  // A player paused for abandoning live games is told why and until when,
  // before she tries (the server refuses her seeks and pairings meanwhile).
  const pause = me?.paused;
  const pauseNote = () => pause && pause.until_ms > Date.now()
    ? el("p", { class: "notice", id: "pause", role: "status" }, t("lobby.paused", { n: pause.abandoned,
      until: new Date(pause.until_ms).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" }) }))
    : null;

  // Two pools of one game on one clock differ by their rules: their
  // titles say so ("Ringo 5+3 · classic", "Ringo 5+3 · most even"), not
  // "Ringo 5+3" twice.
  function poolTitle(p) {
    const title = (x) => gameOf(x.game).name + " " + (x.clock?.days ? clockLabel(x.clock) : x.clock_label);
    const twin = state.pools.some((q) => q !== p && title(q) === title(p));
    if (!twin) return title(p);
    return title(p) + " · " + (p.settings === gameOf(p.game).evenRules(m) ? t("lobby.pool_even") : p.settings.split(/[,\s]/)[0]);
  }

  function drawQuick() {
    quick.replaceChildren(el("h2", { id: "quick-title" }, t("lobby.quick")), ...[pauseNote()].filter(Boolean),
      el("p", { class: "muted" }, t("lobby.quick_help")),
      el("p", { class: "muted", id: "pool-clock-help" }, t("lobby.clock_help")));
    if (state.waiting) {
      const pool = state.pools.find((p) => p.id === state.waitingPool);
      const named = pool ? t("lobby.waiting_in", { pool: poolTitle(pool) })
        : t("lobby.waiting");
      quick.append(el("div", { class: "status", id: "pool-waiting", role: "status" }, named),
        el("button", { id: "pool-cancel", onclick: () => cancel(state.waiting) }, t("lobby.cancel")));
      return;
    }
    const row = el("div", { class: "row pools" });
    for (const p of state.pools) {
      row.append(el("button", { class: "pool", id: "pool-" + p.id, "data-pool": p.id, onclick: () => joinPool(p.id) },
        el("b", {}, poolTitle(p)),
        el("span", { class: "muted pool-rules" }, settingsWords(p.game, p.settings)),
        p.waiting ? el("span", { class: "muted pool-rules" }, t("lobby.pool_waiting", { n: p.waiting })) : null,
        playing(p) ? el("span", { class: "muted pool-rules", "data-playing": playing(p) }, t("lobby.pool_playing", { n: playing(p) })) : null));
    }
    quick.append(row);
    if (me) {
      quick.append(el("label", {}, el("input", { type: "checkbox", id: "pool-rated", checked: state.rated,
        onchange: (e) => { state.rated = e.target.checked; } }), " " + t("home.rated")));
    }
  }

  async function joinPool(pool) {
    try {
      const r = await api("POST", `/api/pools/${encodeURIComponent(pool)}`, { rated: state.rated });
      if (r.game) return enter(r.game, r.token);
      state.mine.set(r.id, r.token);
      state.waiting = r.id;
      state.waitingPool = pool;
      hold(r.id);
      drawQuick();
    } catch (e) { toast(e.message); }
  }

  async function cancel(id) {
    try {
      await api("DELETE", `/api/seeks/${id}`, undefined, state.mine.get(id));
    } catch (e) {
      if (e.status !== 404) toast(e.message);
    }
    state.mine.delete(id);
    if (state.waiting === id) state.waiting = null;
    drawQuick();
    drawList();
  }

  async function accept(id) {
    try {
      const r = await api("POST", `/api/seeks/${id}/accept`);
      enter(r.game, r.token);
    } catch (e) { toast(e.message); }
  }

  function drawList() {
    list.replaceChildren(el("h2", { id: "seeks-title" }, t("lobby.seeks")));
    if (!state.seeks.length) {
      list.append(el("p", { class: "muted", id: "no-seeks" }, t("lobby.none")));
      return;
    }
    const rows = state.seeks.map((s) => {
      const ours = state.mine.has(s.id);
      const who = s.name ? s.name + (s.rating ? ` (${Math.round(s.rating)}${s.provisional ? "?" : ""})` : "") : t("player.anonymous");
      const range = s.rating_min || s.rating_max ? ` · ${s.rating_min ?? "…"}–${s.rating_max ?? "…"}` : "";
      // On a phone each seek is a card, its cells labelled (`table.stack`),
      // so that Play is never off the screen's edge.
      return el("tr", { "data-seek": s.id, class: ours ? "mine" : "" },
        el("td", { "data-label": t("lobby.player") }, who),
        el("td", { "data-label": t("lobby.game") }, gameOf(s.game).name),
        el("td", { "data-label": t("lobby.rules") }, settingsWords(s.game, s.settings)),
        el("td", { "data-label": t("lobby.clock") }, s.clock?.days ? clockLabel(s.clock) : s.clock_label || t("lobby.no_clock")),
        el("td", { "data-label": t("lobby.mode") }, (s.rated ? t("lobby.rated") : t("lobby.casual")) + range),
        el("td", { "data-label": t("lobby.side") }, t("Side." + s.side)),
        el("td", { class: "links" }, ours
          ? el("button", { class: "seek-cancel", onclick: () => cancel(s.id) }, t("lobby.cancel"))
          // A seek this player cannot take says why instead of offering Play.
          : barred(s) === "signin"
            ? el("a", { class: "seek-barred", href: "/account", "data-nav": true }, t(s.rated ? "lobby.signin_rated" : "lobby.signin_range"))
            : barred(s) === "range"
              ? el("span", { class: "muted seek-barred" }, t("lobby.out_of_range", { r: ratings[s.game]?.rating ?? 1500 }))
              : el("button", { class: "primary seek-accept", "aria-label": t("lobby.accept_label", { who, game: gameOf(s.game).name }), onclick: () => accept(s.id) }, t("lobby.accept"))));
    });
    list.append(el("div", { class: "table-wrap" }, el("table", { class: "seeks stack" },
      el("thead", {}, el("tr", {}, ["lobby.player", "lobby.game", "lobby.rules", "lobby.clock", "lobby.mode", "lobby.side", "lobby.take"].map((k) =>
        el("th", { scope: "col" }, k === "lobby.take" ? el("span", { class: "sr-only" }, t(k)) : t(k))))),
      el("tbody", {}, rows))));
  }

  function drawForm() {
    if (!form) return;
    const fields = gameFields("seek", m, { clockHelp: t("lobby.clock_help"), rated: !!me });
    const rated = fields.rated;
    const min = me ? el("input", { id: "seek-min", type: "number", min: 0, max: 4000, step: 50, placeholder: "—" }) : null;
    const max = me ? el("input", { id: "seek-max", type: "number", min: 0, max: 4000, step: 50, placeholder: "—" }) : null;
    form.replaceChildren(...[el("h2", { id: "seek-form-title" }, t("lobby.create")),
      ...fields.rows,
      me ? el("label", {}, rated, " " + t("home.rated")) : el("p", { class: "muted" }, el("a", { href: "/account", "data-nav": true }, t("home.rated_signin"))),
      me ? el("div", { class: "opt" }, el("label", { for: "seek-min" }, t("lobby.range")),
        el("span", { class: "range" }, min, " – ", max)) : null,
      el("div", { class: "row" }, el("button", { class: "primary", id: "seek-create", onclick: async () => {
        const body = fields.body();
        if (rated && rated.checked) body.rated = true;
        if (min && min.value !== "") body.rating_min = Number(min.value);
        if (max && max.value !== "") body.rating_max = Number(max.value);
        try {
          const r = await api("POST", "/api/seeks", body);
          state.mine.set(r.id, r.token);
          hold(r.id);
          toast(t("lobby.posted"));
          drawList();
        } catch (e) { toast(e.message); }
      } }, t("lobby.post")))].filter(Boolean));
  }

  function onMessage(msg) {
    if (msg.type === "seeks") {
      state.seeks = msg.seeks;
      state.pools = msg.pools;
    } else if (msg.type === "lobby") {
      for (const g of msg.gone) {
        state.seeks = state.seeks.filter((s) => s.id !== g.id);
        // One of ours was taken: its game is ours too.
        if (g.game && state.mine.has(g.id)) return enter(g.game, state.mine.get(g.id));
        if (state.mine.has(g.id) && !g.game && state.waiting !== g.id) state.mine.delete(g.id);
      }
      for (const s of msg.added) if (!state.seeks.some((x) => x.id === s.id)) state.seeks.push(s);
      if (msg.pools) state.pools = msg.pools;
    } else return;
    window.agonLobby = state.seeks.map((s) => s.id);
    drawList();
    if (!state.waiting) drawQuick();
  }

  drawQuick();
  drawForm();
  drawList();
  // The lobby's socket: its seeks and pools, and ours held again at every
  // opening (the server drops a seek whose maker's socket is gone).
  state.socket = keepSocket("/api/lobby/ws", {
    onSocket: (ws) => { window.agonLobbySocket = ws; },
    onOpen: () => { for (const id of state.mine.keys()) hold(id); },
    onMessage,
  });
  readInPlay();
  const inPlayTimer = setInterval(() => { if (!document.hidden) readInPlay(); }, 5000);
  onLeave(() => {
    clearInterval(inPlayTimer);
    state.closed = true;
    // Leaving takes our seeks away (the server drops them as the socket
    // closes; saying so at once spares the others a stale line).
    for (const [id, token] of state.mine) api("DELETE", `/api/seeks/${id}`, undefined, token).catch(() => {});
    if (state.socket) state.socket.close();
  });
}

export async function lobbyPage(main) {
  main.append(el("h1", {}, t("lobby.title")), el("p", { class: "muted" }, t("lobby.intro")));
  const root = el("div", { class: "lobby" });
  main.append(root);
  await lobbyBlock(root, false);
}
