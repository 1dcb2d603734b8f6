// What one player offers the other in a game between people: a takeback,
// a rematch (each accepted or declined by the other), and the win claimed
// when the opponent of a live game has left. The computer, and a game on
// one screen, need nobody's agreement: Undo and Rematch act at once.
import { el } from "../dom.js";
import { t } from "../../i18n.js";

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
  if (s.over && !s.rematch && !offered("rematch")) {
    out.push(el("button", { id: "rematch-offer", class: "primary", onclick: () => send({ type: "rematch-offer" }) }, t("offer.rematch_button")));
  }
  if (claimable(view)) {
    out.push(el("button", { id: "claim", class: "primary", onclick: () => send({ type: "claim" }) }, t("offer.claim_button")));
  }
  return out;
}

/** The opponent of a live game has been gone long enough: the win may be
 *  claimed (the server checks). */
export function claimable(view) {
  return goneFor(view) >= (view.claimAfter ?? 60000);
}

/** How long the opponent of a live game between people has been gone, in
 *  milliseconds (-1: she is here, or it does not apply). */
export function goneFor(view) {
  const s = view.state;
  if (!betweenPeople(view) || s.over || s.abortable || s.waiting_for_friend || s.days) return -1;
  const other = 1 - mine(view);
  if (view.presence[other]) { view.goneSince = null; return -1; }
  if (!view.goneSince) view.goneSince = Date.now();
  return Date.now() - view.goneSince;
}

/** The offer waiting, in words, with Accept and Decline for the player it
 *  is made to. A list: empty, or the box. */
export function offerBlock(view, send) {
  const s = view.state;
  const out = [];
  const gone = goneFor(view);
  if (gone >= 0) {
    const left = Math.ceil(((view.claimAfter ?? 60000) - gone) / 1000);
    out.push(el("p", { class: "notice", id: "opponent-gone", role: "status" },
      left > 0 ? t("offer.gone_wait", { s: left }) : t("offer.gone_claim")));
  }
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
