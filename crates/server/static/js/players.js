// Who plays a seat, in words: an account's name, "Anonymous", "Computer,
// level N", "deleted player", or a seat still open.
import { t, colon } from "../i18n.js";

/** One seat's player (`state.players[seat]` or a listed game's) in words. */
export function playerText(p) {
  if (!p) return "";
  if (p.kind === "account") return p.name;
  if (p.kind === "computer") return t("player.computer", { level: p.level ?? "" });
  return t("player." + p.kind);
}

/** Who played each side, as one line under a replay's or review's title:
 *  "Attackers: ala · Defenders: Computer, level 3". */
export function playersLineText(s) {
  if (!s || !s.players) return "";
  return [0, 1].map((seat) => t("Side." + s.seat_names[seat]) + colon() + playerText(s.players[seat])).join(" · ");
}
