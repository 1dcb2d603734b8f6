// The rules page: both games in short, and every Ringo option with each
// preset's value, its meaning and its sources.
import { el } from "../dom.js";
import { t } from "../../i18n.js";
import { meta } from "../api.js";
import { optionValue } from "../settings.js";

export async function rulesPage(main) {
  const m = await meta();
  main.append(el("h1", {}, t("rules.title")));
  const ringo = el("section", { class: "card", id: "rules-ringo" }, el("h2", {}, "Ringo"));
  ringo.insertAdjacentHTML("beforeend", t("rules.ringo"));
  const presets = m.ringo.presets;
  const cell = (label, ...content) => el("td", { "data-label": label }, ...content);
  ringo.append(el("h3", {}, t("rules.options")), el("table", { class: "list stack", id: "options-table" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("rules.col.option")), presets.map((p) => el("th", { scope: "col" }, p.name)),
      el("th", { scope: "col" }, t("rules.col.meaning")), el("th", { scope: "col" }, t("rules.col.source")))),
    el("tbody", {}, m.ringo.options.map((o) => el("tr", {},
      cell(t("rules.col.option"), el("b", {}, t("optname." + o.key)), el("br"), el("code", {}, o.key), " ",
        el("small", { class: "muted" }, o.values.join(" | "))),
      presets.map((p) => cell(p.name, optionValue(o.key, p.options[o.key]))),
      cell(t("rules.col.meaning"), t("opt." + o.key)),
      cell(t("rules.col.source"), el("small", {}, t("source." + o.key))))))),
  el("p", { class: "muted" }, t("rules.sources_legend")),
  el("p", {}, el("a", { href: "/lab", "data-nav": true, id: "lab-link" }, t("lab.title"))));
  const ur = el("section", { class: "card spaced", id: "rules-urgammon" }, el("h2", {}, "Urgammon"));
  ur.insertAdjacentHTML("beforeend", t("rules.urgammon"));
  main.append(ringo, ur);
}
