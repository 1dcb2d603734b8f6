// Live games' clocks on the page: both sides' time, ticking for the side
// whose clock runs (tenths under ten seconds, red and a tone when low), and
// the wait for a first move before the server aborts the game. The server
// keeps the time; the page counts down from the last state it heard, and
// measures its own network lag (the socket's ping) so the server can credit
// it.
import { el } from "./dom.js";
import { t } from "../i18n.js";
import { playSound } from "./sound.js";

/** Below this a clock is low: red, and a tone once. */
const LOW_MS = 20000;

/** Milliseconds as a clock shows them: 4:05, or 7.3 under ten seconds,
 *  1:02:03 past an hour. */
export function clockText(ms) {
  const left = Math.max(0, ms);
  if (left < 10000) return (Math.floor(left / 100) / 10).toFixed(1);
  const s = Math.ceil(left / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** Each seat's time left now, from the state heard at `heardAt`
 *  (performance.now()). */
export function remainingNow(clock, heardAt) {
  const left = [...clock.remaining_ms];
  if (clock.running !== null && clock.running !== undefined) {
    left[clock.running] = Math.max(0, left[clock.running] - (performance.now() - heardAt));
  }
  return left;
}

/** The clocks of a live game (nothing for a game without one): one per
 *  seat, the running one marked; refreshed by `tickClocks`. */
export function clockBlock(view) {
  const s = view.state;
  if (!s.clock) return [];
  const names = s.seat_names;
  const box = el("div", { class: "clocks", id: "clocks", role: "group", "aria-label": t("clock.label") },
    [0, 1].map((seat) => el("div", {
      class: "clock" + (s.clock.running === seat ? " running" : ""), id: "clock-" + seat, "data-seat": seat,
      "aria-label": t("clock.of", { side: t("Side." + names[seat]) }),
    }, el("span", { class: "clock-side" }, t("Side." + names[seat])), " ", el("span", { class: "clock-time" }, ""))),
    el("div", { class: "muted", id: "first-move", "aria-live": "polite" }));
  // The server keeping the clock went silent: it is shown stopped, and
  // nobody's time runs, until another server takes it over.
  const paused = s.clock.paused ? [el("p", { class: "notice", id: "clock-paused", role: "status" }, t("clock.paused"))] : [];
  return [box, ...paused];
}

/** Redraws the clocks' figures from the state heard last (called ten
 *  times a second by the game page). */
export function tickClocks(view) {
  const s = view.state;
  if (!s || !s.clock) return;
  const left = remainingNow(s.clock, view.heardAt || performance.now());
  view.lowSounded = view.lowSounded || [false, false];
  for (const seat of [0, 1]) {
    const box = document.getElementById("clock-" + seat);
    if (!box) continue;
    const time = box.querySelector(".clock-time");
    const text = clockText(left[seat]);
    if (time.textContent !== text) time.textContent = text;
    const low = left[seat] < LOW_MS && !s.over;
    box.classList.toggle("low", low);
    box.classList.toggle("flagged", left[seat] <= 0);
    // One tone when the player's own clock runs low.
    if (low && s.clock.running === seat && view.you.includes(seat) && !view.lowSounded[seat]) {
      view.lowSounded[seat] = true;
      playSound("low-time");
    }
  }
  const wait = document.getElementById("first-move");
  if (wait) {
    const deadline = s.clock.first_move_deadline_ms;
    const text = deadline && !s.over && s.seat_to_act !== null
      // The wait ends in an abort, or (a pair's second game, which cannot
      // be aborted) in the loss of the game.
      ? t(s.abortable ? "clock.first_move" : "clock.first_move_loses", { side: t("Side." + s.seat_names[s.seat_to_act]), n: Math.max(0, Math.ceil((deadline - serverNow(view)) / 1000)) })
      : "";
    if (wait.textContent !== text) wait.textContent = text;
  }
}

/** The server's time now, as best the page knows it: the local clock
 *  corrected by the offset measured at the last ping. */
export function serverNow(view) {
  return Date.now() + (view.clockOffset || 0);
}

/** Measures the network's round trip on the game's socket every few
 *  seconds (`ping` → `pong`); `view.lag` is half its median, which actions
 *  send as `lag_ms`. */
export function measureLag(view, ws) {
  const trips = [];
  let sent = 0;
  const ping = () => {
    if (ws.readyState !== 1) return;
    sent = performance.now();
    ws.send(JSON.stringify({ type: "ping" }));
  };
  const timer = setInterval(ping, 5000);
  setTimeout(ping, 300);
  return {
    pong() {
      if (!sent) return;
      trips.push(performance.now() - sent);
      if (trips.length > 5) trips.shift();
      const sorted = [...trips].sort((a, b) => a - b);
      view.lag = Math.round(sorted[Math.floor(sorted.length / 2)] / 2);
      sent = 0;
    },
    stop() { clearInterval(timer); },
  };
}

/** A correspondence game's days: the days per move, and the time the side
 *  to act has left, in words ("2 days 4 hours"). A list. */
export function corrBlock(view, timeWords) {
  const s = view.state;
  if (!s.days) return [];
  const lines = [el("p", { id: "corr-days" }, t("corr.per_move", { n: s.days }))];
  if (s.deadline && !s.over && s.seat_to_act !== null && s.seat_to_act !== undefined) {
    const left = s.deadline - Date.now();
    const mine = view.you.includes(s.seat_to_act);
    lines.push(el("p", { id: "corr-left", class: mine ? "mine" : "" },
      t(mine ? "corr.you_left" : "corr.left", { side: t("Side." + s.seat_names[s.seat_to_act]), time: timeWords(left) })));
  }
  return [el("section", { class: "corr", id: "corr", "aria-label": t("corr.label") }, lines)];
}
