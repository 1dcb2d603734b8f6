// Tournaments: the list (/tournaments: running, upcoming and finished
// events, and a form to make one) and an event's page (/t/ID: its
// countdown, standings pushed by the server as they change (the event's
// socket), the games in play to watch, join, withdraw or pause, and the
// player's game when one is ready; the podium once finished). The server
// pairs; the page only shows.
import { el, announce } from "../dom.js";
import { t } from "../../i18n.js";
import { api, errorText } from "../api.js";
import { onLeave, navigate } from "../router.js";
import { gameOf, GAME_NAMES } from "../games.js";
import { account } from "../account.js";
import { until } from "../countdown.js";
import { carryToGame } from "../site.js";
import { keepSocket } from "../socket.js";

/** An event's terms in words: game, kind, clock, length, rated. */
export function terms(e) {
  const clock = e.clock ? (e.clock.days ? t("corr.per_move", { n: e.clock.days })
    : `${Math.round(e.clock.base_secs / 60 * 10) / 10}+${e.clock.increment_secs}`) : t("lobby.no_clock");
  const length = e.kind === "arena" ? t("tour.arena_minutes", { n: e.minutes }) : t("tour.swiss_rounds", { n: e.rounds });
  return [gameOf(e.game).name, length, clock, e.rated ? t("lobby.rated") : t("lobby.casual"), e.private ? t("tour.private") : null]
    .filter(Boolean).join(" · ");
}

function when(ms) {
  return new Date(ms).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
}

/** One event in a list: a link to its page. */
function item(e) {
  const time = e.status === "upcoming" ? t("tour.starts_at", { when: when(e.starts_ms) })
    : e.status === "running" ? (e.ends_ms ? t("tour.ends_at", { when: when(e.ends_ms) }) : t("tour.running"))
      : t("tour.finished_at", { when: when(e.ends_ms || e.starts_ms) });
  return el("li", { "data-tournament": e.id },
    el("a", { class: "button", href: "/t/" + e.id, "data-nav": true },
      el("span", {}, el("b", {}, e.name), el("br", {}), terms(e), el("br", {}), el("span", { class: "muted" }, time))));
}

export async function tournamentsPage(main) {
  document.title = t("tour.title") + " — Agon";
  const me = await account();
  const lists = el("div", { id: "tournament-lists", "aria-live": "polite" });
  main.append(el("h1", {}, t("tour.title")), el("p", { class: "muted" }, t("tour.intro")), lists);
  async function read() {
    let l;
    try { l = await api("GET", "/api/tournaments"); } catch { return; }
    // Each list's title and its words when empty, spelled out so that
    // every key the page uses can be found.
    const words = {
      running: ["tour.list_running", "tour.none_running"],
      upcoming: ["tour.list_upcoming", "tour.none_upcoming"],
      finished: ["tour.list_finished", "tour.none_finished"],
    };
    lists.replaceChildren(...["running", "upcoming", "finished"].map((s) => el("section", { class: "card", id: "tournaments-" + s, "aria-labelledby": "tournaments-" + s + "-title" },
      el("h2", { id: "tournaments-" + s + "-title" }, t(words[s][0])),
      l[s].length ? el("ul", { class: "resume" }, l[s].map(item)) : el("p", { class: "muted" }, t(words[s][1])))));
  }
  read();
  const timer = setInterval(() => { if (!document.hidden) read(); }, 5000);
  onLeave(() => clearInterval(timer));
  main.append(me ? createForm() : el("p", { id: "tournament-sign-in" }, el("a", { href: "/account", "data-nav": true }, t("tour.sign_in_to_make"))));
}

/** The form that makes an event. */
function createForm() {
  const field = (id, label, input) => el("div", { class: "field" }, el("label", { for: id }, label), input);
  const select = (id, options, value) => el("select", { id }, options.map(([v, words]) => el("option", { value: v, selected: v === value }, words)));
  const kind = select("tour-kind", [["arena", t("tour.kind_arena")], ["swiss", t("tour.kind_swiss")]], "arena");
  const game = select("tour-game", GAME_NAMES.map((g) => [g, gameOf(g).name]), "ringo");
  const clock = select("tour-clock", [["60+1", "1+1"], ["180+2", "3+2"], ["300+3", "5+3"], ["600+5", "10+5"], ["days1", t("corr.per_move", { n: 1 })], ["days3", t("corr.per_move", { n: 3 })]], "180+2");
  const minutes = select("tour-minutes", [5, 15, 30, 60, 90].map((n) => [String(n), t("tour.arena_minutes", { n })]), "30");
  const rounds = select("tour-rounds", [2, 3, 5, 7].map((n) => [String(n), t("tour.swiss_rounds", { n })]), "3");
  const starts = select("tour-starts", [0, 1, 5, 15, 60].map((n) => [String(n), n ? t("tour.in_minutes", { n }) : t("tour.now")]), "5");
  const name = el("input", { id: "tour-name", maxlength: 40, autocomplete: "off" });
  const password = el("input", { id: "tour-password", maxlength: 100, autocomplete: "off" });
  const rated = el("input", { type: "checkbox", id: "tour-rated" });
  const said = el("p", { role: "status", id: "tour-said" });
  const lengthBox = el("div", {});
  const showLength = () => lengthBox.replaceChildren(kind.value === "arena"
    ? field("tour-minutes", t("tour.length"), minutes) : field("tour-rounds", t("tour.rounds"), rounds));
  kind.addEventListener("change", showLength);
  showLength();
  const form = el("form", { class: "card", id: "tour-create", "aria-labelledby": "tour-create-title", onsubmit: async (e) => {
    e.preventDefault();
    const body = { kind: kind.value, game: game.value, rated: rated.checked, starts_in_secs: Number(starts.value) * 60 };
    if (clock.value.startsWith("days")) body.days = Number(clock.value.slice(4));
    else { const [b, i] = clock.value.split("+").map(Number); body.clock = { base_secs: b, increment_secs: i }; }
    if (kind.value === "arena") body.minutes = Number(minutes.value); else body.rounds = Number(rounds.value);
    Object.assign(body, gameOf(game.value).eventFields);
    if (name.value.trim()) body.name = name.value.trim();
    if (password.value) body.password = password.value;
    try {
      const made = await api("POST", "/api/tournaments", body);
      navigate("/t/" + made.id);
    } catch (err) { said.textContent = errorText(err); }
  } },
  el("h2", { id: "tour-create-title" }, t("tour.make")),
  field("tour-kind", t("tour.kind"), kind), field("tour-game", t("tour.game"), game), field("tour-clock", t("tour.clock"), clock),
  lengthBox, field("tour-starts", t("tour.starts"), starts), field("tour-name", t("tour.name"), name),
  field("tour-password", t("tour.password"), password),
  el("div", { class: "field" }, rated, el("label", { for: "tour-rated" }, t("lobby.rated"))),
  el("div", { class: "row" }, el("button", { type: "submit", class: "primary", id: "tour-make" }, t("tour.make_button"))), said);
  return form;
}

export async function tournamentPage(main, id) {
  const me = await account();
  const head = el("div", { id: "tour-head" });
  const status = el("p", { id: "tour-status", "aria-live": "polite" });
  const yours = el("div", { id: "tour-yours" });
  const actions = el("div", { class: "row", id: "tour-actions" });
  const said = el("p", { role: "status", id: "tour-said" });
  const podium = el("div", { id: "tour-podium" });
  const standings = el("section", { class: "card", id: "tour-standings", "aria-labelledby": "tour-standings-title" });
  const games = el("section", { class: "card", id: "tour-games", "aria-labelledby": "tour-games-title" });
  main.append(head, status, yours, actions, said, podium, standings, games);
  let view = null;
  let everyone = false;
  let lastRead = 0;
  let skew = 0;
  let told = null;
  // Her game when this page opened: a new one paired while she is here
  // takes her to it by itself, with a sound (issue 86: a player who looks
  // away would lose it to the first-move limit); the one she had when she
  // came stays a link, so she may look at the event during her game.
  let arrived;

  function tick() {
    if (!view) return;
    const now = Date.now() + skew;
    let text;
    if (view.status === "upcoming") text = t("tour.starts_in", { left: until(view.starts_ms - now) });
    else if (view.status === "running" && view.kind === "arena") text = view.ends_ms > now ? t("tour.ends_in", { left: until(view.ends_ms - now) }) : t("tour.last_games");
    else if (view.status === "running") text = t("tour.round_of", { round: view.round, rounds: view.rounds });
    else text = t("tour.finished");
    status.textContent = text;
  }

  function draw(v) {
    view = v;
    skew = v.now_ms - Date.now();
    document.title = v.name + " — Agon";
    head.replaceChildren(el("h1", {}, v.name), el("p", { class: "muted", id: "tour-terms" }, terms(v),
      v.created_by ? " · " + t("tour.made_by", { name: v.created_by }) : ""));
    tick();
    // The player's game, when one is ready: told once, with a link.
    const game = v.you && v.you.game;
    // In an arena, before her first move, she may halve her own clock for
    // a point more if she wins (the server says when she may not).
    const mine = game && v.games.find((g) => g.id === game);
    const seat = mine ? (mine.first === (me && me.name) ? 0 : 1) : 0;
    const berserk = v.kind === "arena" && mine && !mine.berserk[seat]
      ? el("button", { id: "tour-berserk", title: t("tour.berserk_help"), onclick: () => act("berserk") }, t("tour.berserk")) : "";
    yours.replaceChildren(game ? el("p", { class: "result row", id: "tour-your-game" },
      el("a", { class: "button primary", href: "/g/" + game, "data-nav": true }, t("tour.your_game")), berserk) : "");
    if (arrived === undefined) arrived = game || null;
    else if (game && game !== arrived && carryToGame(game)) return;
    if (game && told !== game) { told = game; announce(t("tour.your_game")); }
    actions.replaceChildren();
    if (!me) {
      if (v.status !== "finished") actions.append(el("a", { href: "/account", "data-nav": true, id: "tour-sign-in" }, t("tour.sign_in_to_join")));
    } else if (v.status !== "finished") {
      if (v.you && v.you.joined) {
        actions.append(el("button", { id: "tour-withdraw", onclick: () => act("withdraw") }, v.kind === "arena" ? t("tour.pause") : t("tour.withdraw")));
      } else {
        const pw = v.private ? el("input", { id: "tour-join-password", "aria-label": t("tour.password"), placeholder: t("tour.password"), autocomplete: "off" }) : null;
        actions.append(...(pw ? [pw] : []), el("button", { class: "primary", id: "tour-join", onclick: () => act("join", pw ? { password: pw.value } : undefined) },
          v.you && v.you.withdrawn ? t("tour.rejoin") : t("tour.join")));
      }
    }
    podium.replaceChildren(...(v.podium.length ? [el("h2", {}, t("tour.podium")),
      el("ol", { class: "podium", id: "tour-podium-list" }, v.podium.map((n) => el("li", {}, el("a", { href: "/@/" + encodeURIComponent(n), "data-nav": true }, n))))] : []));
    const swiss = v.kind === "swiss";
    const rows = v.standings.slice();
    const own = v.you && v.you.standing;
    if (v.standings_left && own && !rows.some((s) => s.name === own.name)) rows.push(own);
    const cols = [t("tour.rank"), t("tour.player"), t("tour.score"), t("tour.sheet"), t("tour.games"), t("tour.buchholz"), t("tour.sb")];
    // Each cell names its column, for the stacked table on a phone.
    const td = (col, attrs, ...children) => el("td", { ...attrs, "data-label": cols[col] }, ...children);
    standings.replaceChildren(el("h2", { id: "tour-standings-title" }, t("tour.standings"), " ", el("span", { class: "muted" }, t("tour.players", { n: v.players }))),
      v.standings.length ? el("table", { class: "standings stack" },
        el("thead", {}, el("tr", {}, cols.slice(0, swiss ? 7 : 5).map((h) => el("th", { scope: "col" }, h)))),
        el("tbody", {}, rows.map((s) => el("tr", { "data-player": s.name || "", class: s.withdrawn ? "muted" : "" },
          td(0, {}, String(s.rank)),
          td(1, {}, s.name ? el("a", { href: "/@/" + encodeURIComponent(s.name), "data-nav": true }, s.name) : t("player.anonymous"),
            ` (${s.rating})`, s.fire ? el("span", { class: "fire", title: t("tour.fire") }, " 🔥") : "",
            s.withdrawn ? el("span", { class: "muted" }, " · " + t("tour.paused")) : "",
            s.playing ? el("span", {}, " · ", el("a", { href: "/g/" + s.playing, "data-nav": true }, t("tour.playing"))) : ""),
          td(2, { class: "score" }, String(s.score)),
          td(3, { class: "sheet" }, s.sheet.join(" ")),
          td(4, {}, String(s.games)),
          ...(swiss ? [td(5, {}, String(s.buchholz)), td(6, {}, String(s.sonneborn_berger))] : []))))) : el("p", { class: "muted", id: "tour-nobody" }, t("tour.nobody")),
      // A large event's socket sends the leaders; her own line follows
      // them, and everyone is a click away.
      v.standings_left ? el("p", { class: "row", id: "tour-more" }, el("span", { class: "muted" }, t("tour.more", { n: v.standings_left })),
        el("button", { id: "tour-show-all", onclick: () => { everyone = true; read(); } }, t("tour.show_all"))) : "");
    games.replaceChildren(el("h2", { id: "tour-games-title" }, t("tour.games_title")),
      v.games.length ? el("ul", { class: "resume" }, v.games.map((g) => el("li", { "data-bout": g.id },
        g.second ? el("a", { href: "/g/" + g.id, "data-nav": true },
          `${swiss ? t("tour.round", { n: g.round }) + " · " : ""}${g.first} – ${g.second}`, " · ",
          g.over ? (g.void ? el("span", { class: "void", title: t("tour.void_help") }, t("tour.void")) : `${g.score}–${1 - g.score}`) : t("tour.in_play"),
          g.berserk && (g.berserk[0] || g.berserk[1]) ? el("span", { title: t("tour.berserk") }, " ⚔") : "")
          : el("span", {}, `${t("tour.round", { n: g.round })} · ${g.first} · ${t("tour.bye")}`)))) : el("p", { class: "muted" }, t("tour.no_games")));
  }

  async function act(verb, body) {
    said.textContent = "";
    try {
      draw(await api("POST", `/api/tournaments/${id}/${verb}`, body));
      said.textContent = t({ join: "tour.done_join", withdraw: "tour.done_withdraw", berserk: "tour.done_berserk" }[verb]);
    } catch (e) { said.textContent = errorText(e); }
  }

  async function read() {
    lastRead = Date.now();
    try {
      draw(await api("GET", "/api/tournaments/" + id));
    } catch (e) {
      if (!view) head.replaceChildren(el("h1", {}, t("tour.title")), el("p", { class: "result", role: "alert", id: "tour-missing" }, errorText(e)));
    }
  }
  // The event's socket: its view whenever it changes (without `you`,
  // which comes on its own when the player's place changes); on a lost
  // connection the page reads the event once and connects again.
  await read();
  const socket = view ? keepSocket(`/api/tournaments/${encodeURIComponent(id)}/ws`, {
    // Opened again after a drop: the event is read once, for what was
    // missed while away.
    onOpen: (_ws, first) => { if (!first) read(); },
    onMessage: (m) => {
      if (m.type === "view") {
        // Everyone shown (asked for): the pushed leaders are not enough,
        // so the page reads the whole event again, at most every 5 s.
        if (everyone && m.view.standings_left) {
          draw({ ...m.view, standings: view.standings, standings_left: 0, you: view.you });
          if (Date.now() - lastRead > 5000) read();
        } else draw({ ...m.view, you: view ? view.you : undefined });
      }
      else if (m.type === "you" && view) draw({ ...view, you: m.you });
    },
  }) : null;
  const clockTimer = setInterval(tick, 1000);
  onLeave(() => {
    clearInterval(clockTimer);
    socket?.close();
  });
}
