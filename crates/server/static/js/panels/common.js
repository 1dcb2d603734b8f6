// What both games' side panels share: who you are, presence, Undo / Resign /
// Rematch, links, the board tools (flip, sounds).
import { playerText } from "../players.js";
import { el, toast } from "../dom.js";
import { t, colon, num } from "../../i18n.js";
import { api, inviteKey, tokenKey } from "../api.js";
import { prefs } from "../prefs.js";
import { arrowsFor } from "../boards/arrows.js";
import { urMoveText } from "../log.js";
import { offerButtons, betweenPeople } from "./offers.js";

/** True when one of your seats is to act now. */
export function canAct(view) {
  const s = view.state;
  return !!s && !s.over && !s.waiting_for_friend && s.seat_to_act !== null && view.you.includes(s.seat_to_act);
}

/** A friend game before the friend has come: nobody can move yet, so the
 *  invite link comes first and largest, with its copy button; the watch
 *  link stays at the panel's end, apart. A list: empty, or the box. */
export function waitingBlock(view) {
  const s = view.state;
  if (!s.waiting_for_friend) return [];
  const box = el("section", { class: "waiting", id: "waiting", "aria-labelledby": "waiting-title" });
  if (!view.you.length) {
    box.append(el("h2", { id: "waiting-title" }, t("game.waiting_other")));
    return [box];
  }
  box.append(el("h2", { id: "waiting-title" }, t("game.waiting_title")), el("p", {}, t("game.waiting_help")));
  const invite = localStorage.getItem(inviteKey(s.id));
  box.append(invite
    ? copyField("invite-link", t("game.invite_label"), `${location.origin}/g/${s.id}?invite=${invite}`)
    : el("p", { class: "muted" }, t("game.waiting_lost")));
  return [box];
}

/** The status line of a game that waits for its second player, or null. */
export function waitingStatus(s) {
  return s.waiting_for_friend ? el("div", { class: "status", id: "turn" }, t("game.waiting_status")) : null;
}

/** Shown once this device's seat has moved to another one. A list. */
export function movedAwayBlock(view) {
  return view.movedAway ? [el("div", { class: "notice", id: "moved-away", role: "status" }, t("game.moved_away"))] : [];
}

/** Undo, only when one of your seats has a decision to take back. */
export function canUndo(view) {
  const s = view.state;
  return !!s.undoable && view.you.some((seat) => s.undoable[seat]);
}

/** A rating change as signed whole points: "+12", "−12", "±0". */
export function signed(x) {
  const n = Math.round(x);
  return n > 0 ? "+" + n : n < 0 ? "\u2212" + -n : "\u00b10";
}

/** A player's name in words, and the seat's side. */
function seatWho(s, seat) {
  return t("Side." + s.seat_names[seat]) + " (" + playerText(s.players[seat]) + ")";
}

/** A rated game: which game of its pair it is (Ringo), the pair's score
 *  once both are played, and each player's rating change once rated. A
 *  list (empty for a casual game). */
export function ratedBlock(view) {
  const s = view.state;
  if (!s.rated) return [];
  const out = [];
  const line = [t("game.rated")];
  if (s.pair) {
    line.push(t("game.pair_game", { n: s.pair.game }));
    if (s.pair.game === 2) {
      const first = el("a", { href: "/g/" + s.pair.first, "data-nav": true, id: "pair-first" }, t("game.pair_first"));
      out.push(el("p", { class: "rated", id: "rated-line" }, line.join(" · ") + " · ", first));
      // How the first game ended (the game page reads it once).
      const one = view.pairFirstResult;
      if (one) out.push(el("p", { class: "rated", id: "pair-first-result" }, t("game.pair_first_result", { result: one })));
    } else {
      out.push(el("p", { class: "rated", id: "rated-line" }, line.join(" · ") + " · " + t("game.pair_swap")));
    }
  } else {
    out.push(el("p", { class: "rated", id: "rated-line" }, line.join(" · ")));
  }
  // The pair's score, once both games are played: the player who began
  // as the attackers (seat 1 of the second game) first.
  if (s.pair && s.pair.score) {
    const [a, b] = [playerText(s.players[1]), playerText(s.players[0])];
    out.push(el("p", { class: "rated", id: "pair-score" }, t("game.pair_score", { a, b, x: num(s.pair.score[1]), y: num(s.pair.score[0]) })));
  }
  if (s.rating_change) {
    out.push(el("p", { class: "rated", id: "rating-change" }, t("game.rating_change") + colon(),
      [0, 1].map((seat) => el("span", { class: "change", "data-seat": seat }, seatWho(s, seat) + " " + signed(s.rating_change[seat]) + (seat ? "" : " · ")))));
  }
  return out;
}

/** Who sits where, and whether they are connected. */
export function presenceBlock(view) {
  const s = view.state;
  return el("div", { class: "presence", id: "presence" }, el("small", { class: "muted" }, t("game.presence") + colon()),
    [0, 1].map((seat) => {
      // The side, then who plays it: "Attackers (ala)", the name a link to
      // her profile.
      const p = s.players && s.players[seat];
      const who = p && p.kind !== "open" && s.engine_seat !== seat ? playerText(p) : "";
      const whoEl = !who ? "" : p.kind === "account"
        ? [" (", el("a", { href: "/@/" + encodeURIComponent(p.name), "data-nav": true, class: "profile-link" }, who), ")"]
        : " (" + who + ")";
      const name = [t("Side." + s.seat_names[seat]), whoEl];
      let status, on = false;
      if (s.engine_seat === seat) status = t("game.computer") + (s.level ? ", " + t("home.level").toLowerCase() + " " + s.level : "");
      else if (s.seated && !s.seated[seat]) status = t("game.seat_free");
      else { on = !!view.presence[seat]; status = on ? t("game.present") : t("game.absent"); }
      return el("span", { class: "seat " + (on ? "on" : "off"), "data-seat": seat, "data-present": on ? "yes" : "no" },
        (on ? "● " : "○ "), name, " — " + status + " ");
    }));
}

export function whoLine(view) {
  const s = view.state;
  if (!view.you.length) return el("p", { class: "muted", id: "role" }, t("game.spectating"));
  if (view.you.length === 2) return el("p", { class: "muted", id: "role" }, t("game.you_play_both"));
  return el("p", { class: "muted", id: "role" }, t("game.you_play", { side: t("side." + s.seat_names[view.you[0]]) }));
}

/** How to move, under the status line while a player's first moves are to
 *  be made (`early`): the dashed ring that marks a movable piece says
 *  nothing by itself to someone new to the page. A list: empty, or the line. */
export function moveHint(view, early) {
  if (!canAct(view) || !early || !view.state.legal?.some((m) => m.from || m.piece)) return [];
  return [el("p", { class: "muted", id: "move-hint" }, t("game.move_hint"))];
}

/** The body of `POST /api/analyze` for the position of state `s` (a game's,
 *  or one read from `/at/{ply}`), at the engine's default strength: Ringo's
 *  rules, start and moves; the Urgammon game's record (and, while the match
 *  goes on, its score, which the verdict die's choices depend on). */
const ANALYZE_BODY = {
  ringo: (s) => ({ game: "ringo", rules: s.rules, position: s.start_position, moves: s.history.join(" ") }),
  urgammon: (s) => {
    const body = { game: "urgammon", record: s.tokens.join(" ") };
    if (!s.match.over) Object.assign(body, { to: s.match.to, score: [s.match.score.light, s.match.score.dark] });
    return body;
  },
};
function analyzeBody(s) {
  return ANALYZE_BODY[s.game](s);
}

/** A hint's move in words: Ringo's notation (and a proven win), an
 *  Urgammon move as the log says it (null: the verdict die). */
const HINT_WORDS = {
  ringo: (best, move, proven) => best + (proven ? ` (${t("review.proven", { side: t("side." + proven.winner), n: proven.plies })})` : ""),
  urgammon: (best, move) => (move ? `${urMoveText(move)} (${best})` : null),
};

/** A hint, in a game against the computer or on one screen (never between
 *  two people, whose game it would decide): the engine's choice for the
 *  position now, in words and as a green arrow on the board. It belongs to
 *  the revision it was asked for, so a move, a roll or an Undo takes it
 *  away. Nothing to choose (an Urgammon roll), nothing offered. A list:
 *  empty, or the box. */
export function hintBlock(view) {
  const s = view.state;
  if (!canAct(view) || !["engine", "local"].includes(s.mode) || view.past) return [];
  // Nothing to choose (an Urgammon roll): no hint.
  if (!(s.moves?.length || s.verdict_allowed)) return [];
  const shown = view.hint?.revision === s.revision ? view.hint : null;
  const ask = async () => {
    const revision = s.revision;
    view.hint = { revision, busy: true };
    view.rerender();
    try {
      const r = await api("POST", "/api/analyze", analyzeBody(s));
      // The position moved on meanwhile: this answer is for none shown.
      if (view.state.revision !== revision) return;
      const best = r.analysis?.best;
      const move = [...(s.legal || []), ...(s.promoted_legal || [])].find((m) => m.notation === best);
      // A win the search or the endgame tables prove is said so.
      const proven = r.analysis?.proven;
      const words = HINT_WORDS[s.game](best, move, proven);
      view.hint = !best ? null : { revision, best, text: words ? t("game.hint_move", { move: words }) : t("game.hint_verdict") };
    } catch (e) {
      view.hint = null;
      toast(e.message);
    }
    view.rerender();
  };
  return [el("div", { class: "row hint", id: "hint-box" },
    el("button", { id: "hint", disabled: !!shown, onclick: ask }, t("game.hint")),
    shown ? el("span", { class: "muted", id: "hint-text", role: "status" }, shown.busy ? t("game.hint_wait") : shown.text) : null)];
}

/** The arrow of the hint shown for the position now (none once it moved on). */
export function hintArrows(view) {
  const h = view.hint;
  return h?.best && h.revision === view.state.revision
    ? arrowsFor(view.state, [{ notation: h.best, kind: "best", label: h.text }]) : [];
}

/** Scrolls a move list (not the page) so that its marked move stands in
 *  its middle, or, with none marked, to its last move. At the end of a long
 *  game the marked move was far below the list's window; scrolling it into
 *  view moved the page too, away from the board. */
export function showInList(list) {
  const cur = list && list.querySelector(".current");
  if (!list) return;
  if (!cur) { list.scrollTop = list.scrollHeight; return; }
  const top = cur.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  list.scrollTop = Math.max(0, top - list.clientHeight / 2 + cur.offsetHeight / 2);
}

/** A step button's name without its arrows ("◀ Previous" is "Previous"),
 *  for screen readers and for tests that find it by name. */
export function stepLabel(key) {
  return t(key).replace(/[|◀▶]/g, "").trim();
}

/** The analysis board's address for the position of a state read from
 *  `GET /api/games/{id}/at/{ply}`: the analysis's own body as its query (a
 *  score as "2,3"). The replay and the review link to it, to try other
 *  moves from the position shown. */
export function analysisHref(s) {
  const body = Object.entries(analyzeBody(s)).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : String(v)]);
  return "/analysis?" + new URLSearchParams(body);
}

/** The link back to game `id`'s own page (from its replay or review). */
export function openGameLink(id) {
  return el("a", { class: "button", href: "/g/" + id, "data-nav": true, id: "open-game" }, t("replay.open_game"));
}

/** Flip and sound switches; both remembered. */
export function boardTools(view) {
  const flip = el("button", { id: "flip", "aria-pressed": String(!!view.flipped), onclick: () => {
    view.flipped = !view.flipped;
    prefs.setFlipped(view.id, view.flipped);
    view.rerender();
  } }, "⇅ " + t("game.flip"));
  const sound = el("button", { id: "sound", "aria-pressed": String(prefs.sound), onclick: () => {
    prefs.sound = !prefs.sound;
    document.dispatchEvent(new CustomEvent("agon-sound", { detail: prefs.sound }));
    sound.setAttribute("aria-pressed", String(prefs.sound));
  } }, "♪ " + t("game.sound"));
  return el("div", { class: "row tools" }, flip, sound);
}

export function copyField(id, label, value, help) {
  const input = el("input", { id, readonly: true, value, onclick: (e) => e.target.select() });
  // A link is for sending: one press copies it (selecting the text by hand
  // on a phone was the only way).
  const copy = el("button", { type: "button", id: id + "-copy", "aria-label": t("game.copy_label", { what: label }), onclick: async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // No clipboard API (a page served over plain http off this machine):
      // the older command, on the selected text.
      input.select();
      if (!document.execCommand("copy")) { toast(t("game.copy_failed")); return; }
    }
    toast(t("game.copied"));
  } }, t("game.copy"));
  return el("div", { class: "invite" }, el("label", { for: id }, label),
    el("div", { class: "copyrow" }, input, copy),
    help ? el("p", { class: "muted" }, help) : null);
}

export function commonLinks(view, send) {
  const s = view.state;
  const out = [];
  const row = el("div", { class: "row" });
  if (canUndo(view)) row.append(el("button", { id: "undo", onclick: () => send({ type: "undo" }) }, t("game.undo")));
  // Before both sides have moved, a game between two people may be
  // called off without a result.
  if (view.you.length && s.abortable) row.append(el("button", { id: "abort", onclick: () => send({ type: "abort" }) }, t("game.abort")));
  if (view.you.length && !s.over) {
    const resign = el("button", { id: "resign", onclick: () => {
      if (resign.dataset.armed) return send({ type: "resign" });
      resign.dataset.armed = "1"; resign.textContent = t("game.resign_confirm"); resign.classList.add("danger");
    } }, t("game.resign"));
    row.append(resign);
  }
  // Between people a takeback and a rematch are asked for; against the
  // computer or on one screen they happen at once.
  row.append(...offerButtons(view, send));
  if (view.you.length && s.over && !betweenPeople(view)) row.append(el("button", { id: "rematch", class: "primary", onclick: () => send({ type: "rematch" }) }, t("game.rematch")));
  // A rated pair's first game leads to its second, which is no rematch:
  // nobody offered one.
  const pairNext = s.pair && s.pair.game === 1 && s.rematch === s.pair.second;
  if (betweenPeople(view) && s.rematch) row.append(el("a", { class: "button primary", id: "rematch-go", href: "/g/" + s.rematch, "data-nav": true,
    // The player's token holds her seat in the rematch too.
    onclick: () => { if (view.token) localStorage.setItem(tokenKey(s.rematch), view.token); } }, t(pairNext ? "game.pair_go" : "offer.rematch_go")));
  if (!view.you.length && s.rematch) row.append(el("a", { class: "button", id: "rematch-link", href: "/g/" + s.rematch, "data-nav": true },
    t(pairNext ? "game.pair_watch" : "game.rematch_watch")));
  if (s.over) row.append(el("a", { class: "button", id: "review-link", href: `/review/${s.id}`, "data-nav": true }, t("review.button")));
  row.append(el("a", { class: "button", href: `/api/games/${s.id}/record`, download: true }, t("game.export")),
    el("a", { class: "button", id: "replay-link", href: `/replay/${s.id}`, "data-nav": true }, t("game.replay")));
  out.push(row);
  out.push(...ratedBlock(view));
  out.push(presenceBlock(view));
  const invite = localStorage.getItem(inviteKey(s.id));
  const free = s.seated ? s.seated.indexOf(false) : -1;
  // While the game waits for the friend, the invite stands at the top.
  if (s.mode === "friend" && invite && free >= 0 && view.you.length && !s.waiting_for_friend) {
    out.push(el("h3", {}, t("game.invite")),
      copyField("invite-link", t("game.invite_label"), `${location.origin}/g/${s.id}?invite=${invite}`, t("game.invite_help")));
  }
  out.push(el("div", { class: "watch-box", id: "watch-box" },
    copyField("watch-link", t("game.watch_link"), `${location.origin}/g/${s.id}`, s.waiting_for_friend ? t("game.watch_help") : null)));
  if (view.you.length && !s.over) {
    const box = el("div", { class: "invite", id: "seat-link-box" });
    if (view.seatLink) {
      box.append(copyField("seat-link", t("game.seat_link_label"), location.origin + view.seatLink, t("game.seat_link_help")));
    } else {
      box.append(el("button", { id: "seat-link-btn", onclick: async () => {
        try {
          const r = await api("POST", `/api/games/${s.id}/seat-link`, {}, view.token);
          view.seatLink = r.url;
          view.rerender();
        } catch (e) { toast(e.message); }
      } }, t("game.seat_link")));
    }
    out.push(box);
  }
  return out;
}
