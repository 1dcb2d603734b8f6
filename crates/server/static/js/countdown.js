// Time left in words, for countdowns (an event's start): "3 days",
// "2 h 10 min", "5 min 03 s", and under a minute the seconds alone ("45 s").
import { t } from "../i18n.js";

/** Time left until `ms` from now, in words. */
export function until(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 2 * 86400) return t("tour.days", { n: Math.floor(s / 86400) });
  if (s >= 3600) return t("tour.hours", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  if (s < 60) return t("tour.seconds", { s });
  return t("tour.minutes", { m: Math.floor(s / 60), s: String(s % 60).padStart(2, "0") });
}
