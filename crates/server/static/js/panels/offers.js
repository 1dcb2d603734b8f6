// What one player offers the other in a game between people: a takeback,
// a rematch (each accepted or declined by the other), and the win claimed
// when the opponent of a live game has left. The computer, and a game on
// one screen, need nobody's agreement: Undo and Rematch act at once.
import { el, toast } from "../dom.js";
import { t } from "../../i18n.js";
import { api, errorText } from "../api.js";

/** A game between two people, seen by one of them. */
export function betweenPeople(view) {
  return view.state.mode === "friend" && view.you.length === 1;
}

/** The player's own seat in a game between people. */
function mine(view) {
  return view.you[0];
}

/** The buttons for the panel's row: propose a takeback, offer a rematch,
 *  claim the win. A list. */
export function offerButtons(view, send) {
  const s = view.state;
  if (!betweenPeople(view)) return [];
  const me = mine(view);
  const out = [];
  const offered = (kind) => s.offer && s.offer.kind === kind;
  if (!s.over && s.takebackable && s.takebackable[me] && !offered("takeback")) {
    out.push(el("button", { id: "takeback-offer", onclick: () => send({ type: "takeback-offer" }) }, t("offer.takeback_button")));
  }
  // An arena's game before her first move (and before her clock was
  // halved): berserk, here where the event brought her (the server says
  // when she may not). A Ringo bout's berserk is in its first game.
  const arena = view.tournament && view.tournament.kind === "arena" && view.tournament.status === "running";
  if (arena && !s.over && s.abortable && !(s.pair && s.pair.game === 2) && s.clock && s.clock.remaining_ms[me] === s.clock.base_ms) {
    const tourId = view.tournament.id;
    const berserk = el("button", { id: "game-berserk", title: t("tour.berserk_help"), onclick: async () => {
      try {
        await api("POST", `/api/tournaments/${tourId}/berserk`);
        berserk.disabled = true;
        toast(t("tour.done_berserk"));
      } catch (e) { toast(errorText(e)); }
    } }, t("tour.berserk"));
    out.push(berserk);
  }
  // A tournament game over: the way back to the event (and, in an arena
  // under way, a pause), never a rematch or a challenge: the event pairs.
  const tour = s.over ? view.tournament : null;
  if (tour) {
    out.push(el("a", { class: "button primary", id: "tour-back", href: "/t/" + tour.id, "data-nav": true }, t("tour.back", { name: tour.name })));
    if (tour.kind === "arena" && tour.status === "running") {
      const pause = el("button", { id: "tour-pause", onclick: async () => {
        try {
          await api("POST", `/api/tournaments/${tour.id}/withdraw`);
          pause.disabled = true;
          toast(t("tour.paused_done"));
        } catch (e) { toast(errorText(e)); }
      } }, t("tour.pause"));
      out.push(pause);
    }
  }
  if (s.over && !tour && !s.rematch && !offered("rematch")) {
    out.push(el("button", { id: "rematch-offer", class: "primary", onclick: () => send({ type: "rematch-offer" }) }, t("offer.rematch_button")));
  }
  if (claimable(view)) {
    out.push(el("button", { id: "claim", class: "primary", onclick: () => send({ type: "claim" }) }, t("offer.claim_button")));
  }
  // After the end, a player with an account may be challenged from here
  // to a game of any other terms (her profile's Challenge form, opened).
  const other = s.players && s.players[1 - me];
  if (s.over && !tour && other && other.kind === "account" && other.name) {
    out.push(el("a", { class: "button", id: "challenge-opponent", href: "/@/" + encodeURIComponent(other.name) + "?challenge=1", "data-nav": true },
      t("challenge.title", { name: other.name })));
  }
  return out;
}

/** The opponent of a live game has been gone long enough: the win may be
 *  claimed (the server checks). */
export function claimable(view) {
  return goneFor(view) >= (view.claimAfter ?? 60000);
}

/** How long the opponent has been gone before the page says so, in
 *  milliseconds: a reload or a dropped connection is not worth a word. */
export const GONE_GRACE_MS = 3000;

/** How long the opponent of a game between people has been gone, in
 *  milliseconds, by the server's own measure (the one a claim is judged
 *  by, sent with who is connected as `away_ms` and counted on from when it
 *  was heard); -1 while she is connected, before the server has said, or
 *  where no claim is possible (a game not begun, over, by correspondence). */
export function goneFor(view) {
  if (!betweenPeople(view) || view.state.over || !view.away) return -1;
  const other = 1 - mine(view);
  const ms = view.away.ms[other];
  if (ms === null || ms === undefined || view.presence[other]) return -1;
  return ms + (performance.now() - view.away.at);
}

/** Notes the server's measure of who has been gone how long. */
export function heardAway(view, awayMs) {
  view.away = awayMs ? { ms: awayMs, at: performance.now() } : null;
}

/** The line about an opponent who has gone, as the page shows it now:
 *  nothing while she is here (or only just gone), a count down to the claim,
 *  then the claim. */
export function goneText(view) {
  const gone = goneFor(view);
  const after = view.claimAfter ?? 60000;
  if (gone < Math.min(GONE_GRACE_MS, after / 2)) return "";
  const left = Math.ceil((after - gone) / 1000);
  return left > 0 ? t("offer.gone_away", { s: left }) : t("offer.gone_claim");
}

/** The offer waiting, in words, with Accept and Decline for the player it
 *  is made to. A list: empty, or the box. */
export function offerBlock(view, send) {
  const s = view.state;
  const out = [];
  const gone = goneText(view);
  if (gone) out.push(el("p", { class: "notice", id: "opponent-gone", role: "status" }, gone));
  if (view.declined) out.push(el("p", { class: "notice", id: "offer-declined", role: "status" }, t("offer." + view.declined + "_declined")));
  if (!s.offer || !view.you.length) return out;
  const kind = s.offer.kind;
  if (view.you.includes(s.offer.seat)) {
    out.push(el("p", { class: "notice", id: "offer-sent", role: "status" }, t("offer." + kind + "_sent")));
    return out;
  }
  out.push(el("section", { class: "offer notice", id: "offer", role: "status", "data-kind": kind },
    el("p", {}, t("offer." + kind + "_from")),
    el("div", { class: "row" },
      el("button", { class: "primary", id: "offer-accept", onclick: () => send({ type: kind + "-accept" }) }, t("offer.accept")),
      el("button", { id: "offer-decline", onclick: () => send({ type: kind + "-decline" }) }, t("offer.decline")))));
  return out;
}
