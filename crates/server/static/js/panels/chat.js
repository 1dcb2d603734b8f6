// A game's chat: the players talk in their room, those watching in theirs.
// Lines are plain text (never HTML), at most 140 characters; a player may
// mute her opponent, and the settings turn the chat off altogether. The
// box is drawn once per page, beside the board (a redraw of the panel must
// not take a half-written line away).
import { el, toast } from "../dom.js";
import { t } from "../../i18n.js";
import { api, errorText } from "../api.js";
import { blockedNames } from "../account.js";

/** The chat is shown (a setting, on unless turned off). */
export function chatOn() {
  return localStorage.getItem("agon-chat") !== "off";
}

/** Turns the chat on or off. */
export function setChat(on) {
  localStorage.setItem("agon-chat", on ? "on" : "off");
}

const muteKey = (id) => "agon-mute-" + id;

/** Who wrote a line, in words. */
function author(line, view) {
  const s = view.state;
  if (line.seat === null || line.seat === undefined) return line.name || t("chat.spectator");
  if (view.you.includes(line.seat)) return t("chat.you");
  return line.name || t("Side." + s.seat_names[line.seat]);
}

/** The chat box of a game between people, for the player (the players'
 *  room) or a spectator (the spectators' room): `{box, add}`, `add(line)`
 *  taking a line from the socket. Null for a game against the computer. */
export function chatBox(view) {
  const s = view.state;
  if (s.mode !== "friend") return null;
  const id = s.id;
  const room = view.you.length ? "players" : "spectators";
  const box = el("section", { class: "card chat", id: "chat", "aria-labelledby": "chat-title", "data-room": room });
  if (!chatOn()) {
    box.append(el("p", { class: "muted", id: "chat-off" }, t("chat.off"), " ",
      el("button", { id: "chat-turn-on", onclick: () => { setChat(true); box.replaceWith(chatBox(view).box); } }, t("chat.turn_on"))));
    return { box, add: () => {} };
  }
  const lines = el("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" });
  const seen = new Set();
  const opponent = view.you.length === 1 ? 1 - view.you[0] : null;
  const muted = () => localStorage.getItem(muteKey(id)) === "1";
  const show = () => {
    for (const li of lines.children) li.hidden = muted() && li.dataset.seat === String(opponent);
  };
  // The lines of players she blocks are never shown to her.
  let blocks = new Set();
  const ready = blockedNames().then((b) => { blocks = b; });
  function add(line) {
    if (line.room !== room || seen.has(line.id)) return;
    if (line.name && blocks.has(line.name.toLowerCase())) return;
    seen.add(line.id);
    // textContent only: a line is shown as it was written, never as HTML.
    const li = el("li", { "data-seat": line.seat ?? "", "data-id": line.id },
      el("b", {}, author(line, view) + ": "), el("span", { class: "chat-text" }, line.text));
    lines.append(li);
    show();
    lines.scrollTop = lines.scrollHeight;
  }
  const input = el("input", { id: "chat-input", maxlength: 140, autocomplete: "off", "aria-label": t("chat.write"), placeholder: t("chat.write") });
  const form = el("form", { class: "row chat-form", onsubmit: async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    try {
      const r = await api("POST", `/api/games/${id}/chat`, { text, room }, view.token);
      input.value = "";
      add(r.line);
    } catch (err) {
      // Muted: she is told until when and why, not only that.
      toast(err.code === "muted" && err.untilMs
        ? t(err.reason ? "chat.muted_why" : "chat.muted_until",
          { until: new Date(err.untilMs).toLocaleString(document.documentElement.lang), reason: err.reason })
        : err.message);
    }
  } }, input, el("button", { type: "submit", id: "chat-send" }, t("chat.send")));
  const tools = el("div", { class: "row" });
  if (opponent !== null) {
    const mute = el("button", { id: "chat-mute", "aria-pressed": String(muted()), onclick: () => {
      localStorage.setItem(muteKey(id), muted() ? "0" : "1");
      mute.setAttribute("aria-pressed", String(muted()));
      mute.textContent = muted() ? t("chat.unmute") : t("chat.mute");
      show();
    } }, muted() ? t("chat.unmute") : t("chat.mute"));
    tools.append(mute);
    // Her opponent's lines reported to the moderators (the server attaches
    // them, and the game).
    const other = s.players && s.players[opponent];
    if (other && other.kind === "account" && other.name) tools.append(reportButton(other.name, id));
  }
  tools.append(el("button", { id: "chat-turn-off", onclick: () => { setChat(false); box.replaceWith(chatBox(view).box); } }, t("chat.turn_off")));
  box.append(el("h2", { id: "chat-title" }, t(room === "players" ? "chat.players" : "chat.spectators")), lines, form, tools);
  ready.then(() => api("GET", `/api/games/${id}/chat?room=${room}`, undefined, view.token))
    .then((r) => r.lines.forEach(add)).catch(() => {});
  return { box, add };
}

/** "Report" for a player's chat: a short form (what was wrong), sent to
 *  the moderators with the game; says when it is filed. */
export function reportButton(name, game, reason = "chat") {
  const wrap = el("div", { class: "report" });
  const open = el("button", { id: "chat-report", onclick: () => {
    const text = el("input", { id: "report-text", maxlength: 2000, "aria-label": t("report.text") });
    const said = el("p", { id: "report-said", role: "status" });
    const send = el("button", { class: "primary", id: "report-send", onclick: async () => {
      try {
        await api("POST", "/api/reports", { target: name, reason, text: text.value, game });
        wrap.replaceChildren(el("p", { id: "report-said", role: "status" }, t("report.filed", { name })));
      } catch (e) { said.textContent = errorText(e); }
    } }, t("report.send"));
    wrap.replaceChildren(el("label", { for: "report-text" }, t("report.why", { name })), text, el("div", { class: "row" }, send), said);
    text.focus();
  } }, t("report.chat", { name }));
  wrap.append(open);
  return wrap;
}

/** A game's chat, both rooms (those the reader may read), for its replay;
 *  `s` the game's state, for the sides' names. */
export async function chatRecord(id, s) {
  const rooms = await Promise.all(["players", "spectators"].map((room) =>
    api("GET", `/api/games/${id}/chat?room=${room}`).then((r) => [room, r.lines]).catch(() => [room, []])));
  const shown = rooms.filter(([, lines]) => lines.length);
  if (!shown.length) return null;
  return el("section", { class: "card chat", id: "replay-chat", "aria-labelledby": "replay-chat-title" },
    el("h2", { id: "replay-chat-title" }, t("chat.record")),
    shown.map(([room, lines]) => [el("h3", {}, t("chat." + room)),
      el("ol", { class: "chat-lines" }, lines.map((l) => el("li", { "data-seat": l.seat ?? "" },
        // The replay is nobody's seat: a player's line reads by her name
        // or side.
        el("b", {}, author(l, { state: s, you: [] }) + ": "),
        el("span", { class: "chat-text" }, l.text))))]));
}
