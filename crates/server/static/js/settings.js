// Rule settings in words: option names and values, presets, and the one-line
// summary of a game's settings (a Ringo rules string, an Urgammon match).
import { t, amount } from "../i18n.js";

/** An option's value in words (numbers stay numbers). */
export function optionValue(key, value) {
  if (/^\d+$/.test(value)) return value;
  if (value === "on" || value === "off") return t("optval." + value);
  return t(`optval.${key}.${value}`);
}

/** A Ringo rules string (`classic,attackers=5`) taken apart: the preset,
 *  and the options it changes as `{key: value}`. */
export function parseRules(rules) {
  const [preset, ...changes] = String(rules).split(",");
  return { preset, changes: Object.fromEntries(changes.map((c) => c.split("="))) };
}

/** A Ringo rules string (`classic,attackers=5`) in words; `labelled` false
 *  leaves out the "Rules:" a column headed Rules already says. */
export function ringoSettings(rules, labelled = true) {
  const { preset, changes } = parseRules(rules);
  const parts = Object.entries(changes).map(([k, v]) =>
    t("settings.changed", { name: t("optname." + k), value: optionValue(k, v) }));
  return [labelled ? t("settings.ringo", { preset }) : preset, ...parts].join(" · ");
}

/** An Urgammon match header (`urgammon match to=7 draw=replay stake=5`) in words. */
export function urgammonSettings(header) {
  const f = Object.fromEntries(String(header).split(/\s+/).filter((w) => w.includes("=")).map((w) => w.split("=")));
  const line = t("settings.urgammon", { to: f.to || 7, draw: t("draw." + (f.draw || "replay")) });
  return f.stake ? line + " · " + t("settings.stake", { x: amount(f.stake) }) : line;
}

/** A stored game's settings in words, whichever game (`labelled`: as in
 *  `ringoSettings`). */
export function settingsText(game, settings, labelled = true) {
  // One line per game; an unknown game is an error, not read as another.
  const says = { ringo: () => ringoSettings(settings, labelled), urgammon: () => urgammonSettings(settings) }[game];
  if (!says) throw new Error("unknown game " + game);
  return says();
}
