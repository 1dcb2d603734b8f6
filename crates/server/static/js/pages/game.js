// The game page: the board and the side panel for one game, kept live over
// a WebSocket. Every action names the revision the player saw.
import { el, toast, announce } from "../dom.js";
import { t } from "../../i18n.js";
import { api, tokenKey, inviteKey } from "../api.js";
import { navigate, onLeave } from "../router.js";
import { prefs } from "../prefs.js";
import { playSound } from "../sound.js";
import { gameOf } from "../games.js";
import { canAct, presenceBlock, stepLabel, hintArrows, analysisHref, waitingBlock, movedAwayBlock } from "../panels/common.js";
import { notFoundPage } from "./notfound.js";
import { clockBlock, tickClocks, measureLag, corrBlock } from "../clock.js";
import { offerBlock, goneText, claimable, heardAway } from "../panels/offers.js";
import { chatBox } from "../panels/chat.js";
import { keepSocket } from "../socket.js";
import { notify, timeWords, notifyButton } from "../notify.js";

/** Exchanges a one-time invite (or seat-link) code for a seat token. */
async function claimInvite(id, code) {
  try {
    const r = await api("POST", `/api/games/${id}/join`, { invite: code });
    localStorage.setItem(tokenKey(id), r.token);
    toast(t("game.joined"));
  } catch (e) {
    toast(t("game.invite_used"));
  }
}

/** What happened between two states, in words (for screen readers). */
function describeChange(before, s) {
  if (!before || before.revision === s.revision) return "";
  return gameOf(s.game).lastMoveSaid(before, s);
}

export async function gamePage(main, id) {
  const params = new URLSearchParams(location.search);
  if (params.get("invite") || params.get("t")) {
    // An invite or seat link: drop its secret from the address bar first.
    history.replaceState({}, "", "/g/" + id);
    if (params.get("t")) localStorage.setItem(tokenKey(id), params.get("t"));
    else await claimInvite(id, params.get("invite"));
  }
  const token = localStorage.getItem(tokenKey(id));
  const view = { id, token, you: [], state: null, selected: null, socket: null, closed: false, presence: [false, false],
    flipped: prefs.flipped(id) };
  const boardWrap = el("div", { class: "boardwrap" });
  const side = el("aside", { class: "side", "aria-label": t("game.moves") });
  const conn = el("div", { class: "conn off", id: "conn" }, t("game.reconnecting"));
  const help = el("p", { class: "sr-only", id: "board-help" }, t("game.board_help"));
  main.append(el("h1", { class: "sr-only", id: "game-title" }, "Agon"), el("div", { class: "game" }, boardWrap, side), help);

  const render = () => {
    const s = view.state;
    if (!s) return;
    window.agonState = s;
    window.agonYou = view.you;
    window.agonPresence = view.presence;
    const mine = canAct(view);
    document.title = mine ? t("app.your_turn_title") : t("app.title");
    const game = gameOf(s.game);
    document.getElementById("game-title").textContent = game.name;
    let board;
    if (view.past) {
      // An earlier position, to look at: nothing on it can be played.
      const past = { ...view, state: view.past.state, selected: null, chooser: null, animate: false };
      board = game.board(past);
    } else {
      // A hint asked for this position is an arrow on it.
      view.arrows = hintArrows(view);
      board = game.board(view, (m) => send({ type: "move", move: m }), mine);
    }
    boardWrap.replaceChildren(board);
    boardWrap.classList.toggle("past", !!view.past);
    view.animate = false;
    side.replaceChildren(...movedAwayBlock(view), ...pairBlock(), ...waitingBlock(view), ...clockBlock(view), ...corrBlock(view, timeWords),
      ...offerBlock(view, send), ...(view.past ? [browsingBanner()] : []),
      ...game.panel(view, send), ...notifyLine(), conn);
    tickClocks(view);
  };
  /** A player of a game between people may turn notifications on here. */
  const notifyLine = () => {
    const s = view.state;
    if (s.mode !== "friend" || !view.you.length || s.over) return [];
    const b = notifyButton(el);
    return b && b.tagName === "BUTTON" ? [el("div", { class: "row" }, b)] : [];
  };
  // A live game's clocks count down between states; the wait before the
  // win may be claimed from an opponent who left counts down too.
  const ticker = setInterval(() => {
    tickClocks(view);
    if (!view.state) return;
    showGone();
    pairCountdown();
  }, 100);
  /** The line about an opponent who has gone, kept as the server measures
   *  it: its words change in place; it comes, goes, or brings the claim
   *  with a redraw. */
  function showGone() {
    const text = goneText(view);
    const claim = claimable(view);
    const line = document.getElementById("opponent-gone");
    const button = document.getElementById("claim");
    if (line && text && claim === !!button) { if (line.textContent !== text) line.textContent = text; }
    else if (!!line !== !!text || claim !== !!button) render();
  }

  // Looking back while the game goes on: a move in the list, or ← and →,
  // shows the position after it on the board, read-only; Back to the game
  // (or Escape, or → past the last) returns. The panel stays live, so whose
  // turn it is and every button still speak of the game now.
  view.past = null;
  /** The plies one can look at, in order, the live one last: Ringo's every
   *  move from the start, Urgammon's every turn of the game in play, after
   *  the game's opening position (its opening roll made, no piece moved). */
  const stops = (s) => gameOf(s.game).stops(s);
  // The ply asked for last (null: the game now), ahead of its answer, so
  // keys pressed faster than the server answers step from it.
  let asked = 0, lookingAt = null;
  /** Back to the game now; an answer still on its way is dropped. */
  const backToGame = () => { lookingAt = null; view.past = null; asked++; };
  async function browse(ply) {
    const s = view.state;
    const all = s ? stops(s) : [];
    if (!s || ply === null || ply === undefined || ply >= all[all.length - 1]) {
      backToGame();
      return render();
    }
    const n = ++asked;
    lookingAt = Math.max(0, ply);
    const at = await api("GET", `/api/games/${id}/at/${Math.max(0, ply)}`);
    // A later request (another click, a key held down) wins.
    if (n !== asked || view.closed) return;
    view.past = { ply: Math.max(0, ply), state: at };
    render();
  }
  /** One step back (-1) or on (+1) from the position shown. */
  const step = (d) => {
    const all = stops(view.state);
    const at = lookingAt === null ? all.length - 1 : all.indexOf(lookingAt);
    if (d < 0 && at > 0) browse(all[at - 1]);
    else if (d > 0 && lookingAt !== null) browse(all[at + 1] ?? null);
  };
  // A move picked in the list: on a phone the list is far below the board,
  // so the board (with the banner and its step buttons under it) comes
  // into view.
  view.browse = (ply) => {
    browse(ply);
    const top = boardWrap.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight / 2) boardWrap.scrollIntoView({ block: "start" });
  };
  function browsingBanner() {
    const s = view.state;
    const where = gameOf(s.game).lookingAt(s, view.past.ply);
    return el("div", { class: "browsing", id: "browsing", role: "status" },
      el("span", {}, where, " ", el("span", { class: "muted keys-hint" }, t("game.browsing_keys"))),
      el("div", { class: "row" },
        el("button", { id: "look-prev", "aria-label": stepLabel("replay.prev"), disabled: lookingAt === stops(s)[0], onclick: () => step(-1) }, t("replay.prev")),
        el("button", { id: "look-next", "aria-label": stepLabel("replay.next"), onclick: () => step(1) }, t("replay.next")),
        el("button", { class: "primary", id: "back-to-game", onclick: () => browse(null) }, t("game.back_to_game")),
        // Once the game is over, the analysis board opens on the position
        // looked at (while it goes on, the engine's view would play for you).
        s.over ? el("a", { class: "button", id: "look-analyse", href: analysisHref(view.past.state), "data-nav": true }, t("analysis.open")) : null));
  }
  const keys = (e) => {
    // The board has its own arrow keys, and a field its own.
    if (!view.state || e.target.closest("svg, input, select, textarea") || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "ArrowLeft") step(-1);
    else if (e.key === "ArrowRight") step(1);
    else if (e.key === "Escape" && lookingAt !== null) browse(null);
    else return;
    e.preventDefault();
  };
  document.addEventListener("keydown", keys);
  onLeave(() => document.removeEventListener("keydown", keys));
  onLeave(() => { window.agonFinishedTournamentGame = null; });
  view.rerender = () => {
    // A redraw for a new selection keeps the board's focus; the panel follows.
    render();
  };

  // Every action names the revision the player saw, so a click on a board
  // that has changed meanwhile is refused rather than applied elsewhere.
  async function send(action) {
    // Acting returns to the game from an earlier position, at once (the
    // answer may bring no state the socket has not brought already).
    if (lookingAt !== null) { backToGame(); render(); }
    try {
      const body = { ...action, expect_revision: view.state ? view.state.revision : undefined };
      // On the clock, the network's delay is the server's to credit.
      if (view.state && view.state.clock && view.lag) body.lag_ms = view.lag;
      const r = await api("POST", `/api/games/${id}/action`, body, token);
      view.selected = null;
      view.chooser = null;
      if (r.rematch) return goToRematch(r.rematch, r.invite);
      accept(r.state);
    } catch (e) {
      toast(e.message);
      view.selected = null;
      view.chooser = null;
      refresh();
    }
  }
  view.send = send;

  /** The count down to a pair's second game, with a button to go at once. */
  function pairBlock() {
    if (!view.pairNext) return [];
    return [el("section", { class: "notice", id: "pair-next", role: "status" },
      el("p", { id: "pair-next-text" }, pairNextText()),
      el("button", { class: "primary", id: "pair-go", onclick: () => { const g = view.pairNext.game; view.pairNext = null; goToRematch(g); } }, t("game.pair_go")))];
  }
  const pairNextText = () => t("game.pair_next", { s: Math.max(0, Math.ceil((view.pairNext.at - performance.now()) / 1000)) });
  /** Counts down to the pair's second game, and goes there at zero. */
  function pairCountdown() {
    if (!view.pairNext) return;
    if (performance.now() >= view.pairNext.at) {
      const g = view.pairNext.game;
      view.pairNext = null;
      return goToRematch(g);
    }
    const line = document.getElementById("pair-next-text");
    const text = pairNextText();
    if (line && line.textContent !== text) line.textContent = text;
  }

  function goToRematch(next, invite) {
    if (view.closed) return;
    if (token) localStorage.setItem(tokenKey(next), token);
    if (invite) localStorage.setItem(inviteKey(next), invite);
    navigate("/g/" + next);
  }

  // Any state with a higher revision replaces the one shown, whatever its
  // length: an Undo has fewer tokens and a higher revision.
  function accept(state) {
    if (view.state && state.revision < view.state.revision) return;
    // The same state again (the page's read and the socket's first message):
    // nothing to redraw, and redrawing could swallow a click in progress.
    if (view.state && state.revision === view.state.revision
      && JSON.stringify(state) === JSON.stringify(view.state)) return;
    const before = view.state;
    view.prev = before;
    view.state = state;
    // This player's offer gone with nothing done for it (the same moves,
    // no rematch made): her opponent declined it, and she is told so until
    // the game changes again.
    const myOffer = before?.offer && view.you.includes(before.offer.seat) ? before.offer.kind : null;
    view.declined = myOffer && !state.offer && !state.rematch
      && (state.history || []).length === (before.history || []).length ? myOffer : null;
    // The clocks count down from the moment this state was heard.
    view.heardAt = performance.now();
    if (state.clock) view.clockOffset = state.clock.now_ms - Date.now();
    // A position looked at that the game no longer holds (an Undo took it
    // back, or the next game of the match began): back to the game.
    if (lookingAt !== null && !stops(state).slice(0, -1).includes(lookingAt)) backToGame();
    const moved = before && JSON.stringify(before.last_move) !== JSON.stringify(state.last_move) && state.last_move;
    view.animate = !!moved && state.version > before.version;
    if (view.animate) {
      const captured = gameOf(state.game).captured(state);
      playSound(captured ? "capture" : "move");
    }
    render();
    // A game between people: is it a tournament's (asked once)? In play,
    // an arena's game offers berserk before her first move; over, its
    // panel offers the way back to the event, not a rematch, and the
    // site's tournament bar takes her from here to her next game.
    const finishedHere = () => {
      if (view.state.over && view.tournament) window.agonFinishedTournamentGame = { tournament: view.tournament.id, game: id };
    };
    if (state.mode === "friend" && view.you.length === 1 && view.tournament === undefined) {
      view.tournament = null;
      api("GET", `/api/games/${id}/tournament`).then((r) => {
        if (!r.tournament) return;
        view.tournament = r.tournament;
        finishedHere();
        render();
      }).catch(() => {});
    }
    finishedHere();
    const said = [describeChange(before, state)];
    const result = gameOf(state.game).result;
    if (result(state) && (!before || !result(before))) said.push(result(state));
    if (canAct(view) && before && !canAct({ ...view, state: before })) said.push(t("say.your_turn"));
    const offerFrom = state.offer && view.you.length && !view.you.includes(state.offer.seat) ? state.offer.kind : null;
    if (offerFrom && (!before?.offer || before.offer.kind !== offerFrom)) said.push(t("offer." + offerFrom + "_from"));
    if (view.declined) said.push(t("offer." + view.declined + "_declined"));
    announce(said.filter(Boolean).join(" "));
    // Looking elsewhere: a notification, once allowed.
    if (before && state.mode === "friend" && view.you.length === 1) {
      const name = gameOf(state.game).name;
      if (offerFrom && (!before.offer || before.offer.kind !== offerFrom)) notify(id, offerFrom, name);
      else if (canAct(view) && (!canAct({ ...view, state: before }) || state.revision > before.revision)) notify(id, "turn", name);
    }
    // A rematch this player offered was accepted (or the computer's): go
    // there too. Between people, a rematch nobody here agreed to is a link.
    const mineOffered = before?.offer?.kind === "rematch" && view.you.includes(before.offer.seat);
    // A rated pair's second game is part of the pairing: nobody is asked.
    // It begins after a pause both players see, with the first game's
    // result still on the page.
    const pairGoesOn = state.pair && state.pair.game === 1;
    if (state.rematch && before && !before.rematch && view.you.length && pairGoesOn) {
      view.pairNext = { game: state.rematch, at: performance.now() + (state.pair.pause_ms ?? 5000) };
      render();
    } else if (state.rematch && before && !before.rematch && view.you.length && (state.mode !== "friend" || mineOffered)) {
      goToRematch(state.rematch);
    }
    // A pair's second game shows how the first ended.
    if (state.pair && state.pair.game === 2 && view.pairFirstResult === undefined) {
      view.pairFirstResult = null;
      api("GET", "/api/games/" + state.pair.first)
        .then((r) => { view.pairFirstResult = gameOf(r.state.game).result(r.state); render(); })
        .catch(() => { view.pairFirstResult = undefined; });
    }
  }

  // A fresh read also brings the seats and presence, which may have changed
  // with the same state: it always redraws.
  function refresh() {
    return api("GET", `/api/games/${id}`, undefined, token).then((r) => {
      // A token that holds no seat any more (the seat was moved to another
      // device) is forgotten, so the game leaves this browser's own games.
      if (token && !r.you.length) localStorage.removeItem(tokenKey(id));
      view.you = r.you;
      window.agonYou = r.you;
      view.presence = r.presence || view.presence;
      view.claimAfter = r.claim_after_ms ?? view.claimAfter;
      heardAway(view, r.away_ms);
      if (view.state && r.state.revision <= view.state.revision) render();
      else accept(r.state);
    });
  }
  try {
    await refresh();
  } catch (e) {
    view.closed = true;
    main.replaceChildren();
    if (e.code === "game-not-found") return notFoundPage(main, true);
    main.append(el("p", { class: "result" }, e.message));
    return;
  }
  // The chat, drawn once (a redraw of the panel keeps a half-written line).
  const chat = chatBox(view);
  if (chat) main.append(chat.box);

  // The game's socket: the state at every change, chat, presence, a seat
  // moved away; a hello at every opening says whose seats this page holds.
  view.socket = keepSocket(`/api/games/${id}/ws`, {
    onSocket: (ws) => {
      window.agonSocket = ws; // lets tests drop the connection and watch it catch up
      if (view.lagMeter) view.lagMeter.stop();
      view.lagMeter = measureLag(view, ws);
    },
    onOpen: (ws) => {
      conn.textContent = "● " + t("game.connected"); conn.className = "conn";
      // Say who we are (never in the URL), so our seat shows as connected.
      // A signed-in player's seats come with her cookie, token or not.
      ws.send(JSON.stringify({ type: "hello", token: token || "" }));
    },
    onDrop: () => { conn.textContent = t("game.reconnecting"); conn.className = "conn off"; },
    onMessage: (msg) => {
      if (msg.type === "state") accept(msg.state);
      else if (msg.type === "pong") view.lagMeter.pong();
      else if (msg.type === "chat") {
        chat?.add(msg.line);
        const l = msg.line;
        if (l.room === "players" && l.seat !== null && view.you.length === 1 && !view.you.includes(l.seat)
          && localStorage.getItem("agon-mute-" + id) !== "1" && localStorage.getItem("agon-chat") !== "off") notify(id, "chat", l.text);
      }
      else if (msg.type === "presence") {
        // Only the presence line changes: redrawing the board here could
        // swallow a click in progress.
        view.presence = msg.seats;
        window.agonPresence = msg.seats;
        // The opponent left or came back: the claim's wait starts or ends.
        heardAway(view, msg.away_ms);
        const line = document.getElementById("presence");
        if (line && view.state) line.replaceWith(presenceBlock(view));
        if (view.state) showGone();
      } else if (msg.type === "moved") {
        // This device's seat was taken to another one (its seat link was
        // used): it watches from now on, and says why.
        view.you = msg.you;
        window.agonYou = msg.you;
        if (!msg.you.length) localStorage.removeItem(tokenKey(id));
        view.movedAway = true;
        view.selected = null;
        view.chooser = null;
        view.seatLink = null;
        toast(t("game.moved_away"));
        render();
      }
    },
  });
  onLeave(() => {
    view.closed = true;
    clearInterval(ticker);
    if (view.lagMeter) view.lagMeter.stop();
    if (view.socket) view.socket.close();
  });
}
