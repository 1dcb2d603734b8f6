// The interface in English, Polish and French: one file per language under
// lang/, each using the sources' own terms (Polish Urgammon: kundel, Isztar,
// byk, psy na ulicach, Babilon; French Ringo: citadelle, zone neutre).
// The language comes from ?lang=xx, then the saved choice, then the browser.
import en from "./lang/en.js";
import pl from "./lang/pl.js";
import fr from "./lang/fr.js";

export const LANGS = { en, pl, fr };

function pick() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && LANGS[asked]) {
    localStorage.setItem("agon-lang", asked);
    return asked;
  }
  const saved = localStorage.getItem("agon-lang");
  if (saved && LANGS[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (LANGS[short]) return short;
  }
  return "en";
}

export let LANG = pick();
document.documentElement.lang = LANG;

/** The string for `key` in the page's language, with `{name}` filled from
 *  `vars`, and `{name|one:…|few:…|many:…|other:…}` replaced by the form the
 *  language's plural rules give for that number (`Intl.PluralRules`: one
 *  and other in English and French, one, few and many in Polish), so no
 *  string needs "point(s)". */
export function t(key, vars) {
  let s = LANGS[LANG][key] ?? LANGS.en[key] ?? key;
  // French sets a no-break space before : ; ! ? and %, so a line never
  // starts with one; the language files keep plain spaces, easier to edit.
  // Only the string's own text is set, before any value is put in.
  if (LANG === "fr") s = s.replace(/ ([:;!?%])/g, "\u00a0$1");
  if (vars) {
    s = s.replace(/\{(\w+)\|([^{}]*)\}/g, (whole, k, forms) => {
      if (!(k in vars)) return whole;
      const map = Object.fromEntries(forms.split("|").map((f) => [f.slice(0, f.indexOf(":")), f.slice(f.indexOf(":") + 1)]));
      return map[plural(Number(vars[k]))] ?? map.other ?? whole;
    });
    for (const k of Object.keys(vars)) s = s.split("{" + k + "}").join(vars[k]);
  }
  return s;
}

/** The colon that joins a label to its value, as the language sets it:
 *  French puts a no-break space before it ("Chance : 0,04"). */
export function colon() {
  return t("punct.colon");
}

/** `x` as the page's language writes a number: a decimal comma in Polish
 *  and French ("−0,0783", "101,7"), with `digits` decimals (as many as it
 *  has when omitted); no grouping, so a count reads as the record says it. */
export function num(x, digits) {
  if (x === null || x === undefined || Number.isNaN(Number(x))) return "–";
  const places = digits === undefined ? { maximumFractionDigits: 10 } : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat(LANG, { ...places, useGrouping: false }).format(Number(x));
}

/** An amount of money (a stake, a payout) in the page's language: whole, or
 *  with two decimals ("12,50" in French). */
export function amount(x) {
  return num(x, Number(x) % 1 ? 2 : 0);
}

/** The fraction `x` as a percentage in the page's language ("57%", "57 %"),
 *  with `digits` decimals. */
export function percent(x, digits = 0) {
  return new Intl.NumberFormat(LANG, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(x);
}

/** The plural category of `n` in the page's language. */
function plural(n) {
  return new Intl.PluralRules(LANG).select(n);
}

/** Whether `key` has a string. */
export function has(key) {
  return key in LANGS.en;
}

/** Switches the language, remembers it, and sets `<html lang>`. */
export function setLang(lang) {
  if (!LANGS[lang]) return;
  LANG = lang;
  localStorage.setItem("agon-lang", lang);
  document.documentElement.lang = lang;
}
