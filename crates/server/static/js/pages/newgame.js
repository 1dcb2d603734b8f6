// The new-game page (/new): choose a game, its rules, the opponent (the
// computer, a friend by link, the same screen, or someone online: a seek
// in the lobby with these settings); or import a record. The home page
// (/) links here; `?opponent=engine|friend|online|local` preselects one.
import { el, toast } from "../dom.js";
import { t, percent } from "../../i18n.js";
import { api, errorText, meta, tokenKey, inviteKey } from "../api.js";
import { navigate } from "../router.js";
import { gameOf, GAME_NAMES } from "../games.js";
import { interval } from "./lab.js";
import { account } from "../account.js";
import { handOverSeek } from "./lobby.js";
import { TIME_CONTROLS, timeControlLabel, timeControlFields } from "../gamefields.js";
import { optionValue, settingsText, ringoSettings, parseRules } from "../settings.js";

/** Which game a pasted record is, whatever game is chosen above it: an
 *  Urgammon record starts with its match header or its opening roll, a Ringo
 *  record with its rules or a start position. Anything else: `chosen`. */
export function recordGame(text, chosen) {
  const first = text.trim().split(/\s+/)[0] || "";
  return GAME_NAMES.find((g) => gameOf(g).recordStart.test(first)) ?? chosen;
}

/** Handicaps for players of unequal strength: one Ringo rule changed each,
 *  named for what it does. Dropping the fortress capture is the French
 *  sheet's ("pour équilibrer une partie entre joueurs de force
 *  différente"); the others are the balancing variants of the Polish blog
 *  and the two English texts. */
export const HANDICAPS = [
  { id: "no-fortress-capture", options: { "fortress-capture": "off" } },
  { id: "attackers-6", options: { attackers: "6" } },
  { id: "attackers-5", options: { attackers: "5" } },
  { id: "defender-pass", options: { "defender-pass": "on" } },
  { id: "no-fortress-from-neutral", options: { "fortress-from-neutral": "off" } },
  { id: "neutral-one", options: { "neutral-limit": "one" } },
];

/** Every option of a rules string (`preset[,key=value]…`), the preset's
 *  filled in, so two spellings of one rule set compare equal. */
export function fullRules(rules, presets) {
  const { preset, changes } = parseRules(rules);
  return presets[preset] ? { ...presets[preset], ...changes } : null;
}

/** The Rules lab's verdict on the rule set `options` (every option given),
 *  and the lab's most even set to suggest, from `GET /api/balance`: the
 *  main table's verdict (the strongest strengths pooled), and the set
 *  closest to even among those played again and still balanced (the
 *  checks; the main table's balanced sets when there are none). */
export function fairness(options, lab, presets) {
  const same = (rules) => {
    const full = fullRules(rules, presets);
    return !!full && Object.keys(options).every((k) => full[k] === options[k]);
  };
  const verdict = (lab.verdicts || []).find((v) => same(v.rules)) || null;
  const even = (list) => (list || []).filter((v) => v.balanced)
    .sort((a, b) => Math.abs(a.attackers_score - 0.5) - Math.abs(b.attackers_score - 0.5))[0];
  const suggest = even(lab.checks?.verdicts) || even(lab.verdicts) || null;
  return { verdict, suggest: suggest && !same(suggest.rules) ? suggest.rules : null };
}

/** The engines a verdict pooled, in words: "looking 6 to 8 moves ahead" for
 *  the searches of depth 6 to 8 (the lab's `depth:N` players), else their
 *  names as the lab gives them. */
function playersText(players) {
  const depths = players.map((p) => /^depth:(\d+)$/.exec(p)?.[1]).map(Number);
  return depths.every((d) => d > 0)
    ? t("home.fair.depths", { lo: Math.min(...depths), hi: Math.max(...depths) })
    : players.join(", ");
}

export async function newGamePage(main) {
  const m = await meta();
  const me = await account();
  const form = { game: localStorage.getItem("agon-last-game") || "ringo", rated: false };
  const asked = new URLSearchParams(location.search).get("opponent");
  if (["engine", "friend", "local", "online"].includes(asked)) form.opponent = asked;
  const presets = Object.fromEntries(m.ringo.presets.map((p) => [p.name, p.options]));
  // The Rules lab's measurements, read once: how even the chosen rule set
  // is between equal players, said under it (the lab page was the only
  // place that told a player `classic` is an attackers' game).
  let lab = null;
  const labRead = api("GET", "/api/balance").then((d) => { lab = d; }).catch(() => {});
  const wrap = el("div", {});
  main.append(wrap);

  /** Said once the page has set a game between two people to the lab's
   *  most even set, with the other way to a fair game: a rated pair. */
  /** The note that the rules were set to the most even set: none (an
   *  empty list, so that appending it adds nothing, not the word "null")
   *  unless the page chose them for a friend game. */
  function steerNote() {
    if (!form.steered || form.rulesTouched || !twoPeople()) return [];
    return [el("p", { class: "notice", id: "fair-steer", role: "status" }, t("home.fair.steered"))];
  }

  /** The opponent is a person at another screen (a friend by link, or
   *  someone online): the game may be rated and on a clock. */
  function twoPeople() {
    return form.opponent === "friend" || form.opponent === "online";
  }

  function radio(name, value, label, checked, onchange) {
    return el("label", {}, el("input", { type: "radio", name, value, checked, onchange }), label);
  }

  function draw() {
    wrap.replaceChildren();
    const gameChoice = el("fieldset", { class: "cards plain" }, el("legend", { class: "sr-only" }, t("home.game")),
      GAME_NAMES.map((g) =>
        el("label", { class: "card", "data-game": g },
          el("input", { type: "radio", name: "game", value: g, checked: form.game === g,
            onchange: () => { form.game = g; localStorage.setItem("agon-last-game", g); draw(); } }),
          el("b", {}, t("home." + g)), el("p", { class: "muted" }, t("home." + g + "_desc")))));
    wrap.append(el("h1", {}, t("home.title")),
      el("p", {}, el("a", { href: "/learn", "data-nav": true, id: "learn-link" }, t("learn.link"))),
      el("p", {}, el("a", { href: "/puzzles", "data-nav": true, id: "puzzles-link" }, t("puzzles.link"))), gameChoice);

    const settings = el("section", { class: "card", "aria-labelledby": "settings-title" });
    // Each game's own part; an unknown game is an error, not shown as another.
    const settingsCard = {
      ringo: () => {
      const presetSel = el("select", { id: "preset", "aria-describedby": "preset-help" },
        Object.keys(presets).map((p) => el("option", { value: p }, p + " — " + t("preset." + p))));
      presetSel.value = form.preset || "classic";
      // The options the player changed from the rule set's, kept while the
      // page redraws (choosing an opponent redraws it; until 2026-11-26 that
      // put every option back to the rule set's without a word).
      form.options = form.options || {};
      const opts = el("div", {});
      const fair = el("div", { class: "muted", id: "fairness", "aria-live": "polite" });
      // The rule set's menu says when its options were changed (the even
      // set, a handicap, an option by hand): "classic" alone was not true.
      const labelPreset = () => {
        const name = presetSel.value;
        const changes = Object.entries(form.options).filter(([k, v]) => presets[name][k] !== v);
        const option = presetSel.querySelector(`option[value="${name}"]`);
        if (option) option.textContent = name + " — " + (changes.length ? t("home.preset_changed") : t("preset." + name));
        // Every change in words under it (a closed menu is too narrow).
        const help = document.getElementById("preset-help");
        if (help) {
          help.textContent = changes.length
            ? t("home.preset_changes", { rules: ringoSettings([name, ...changes.map(([k, v]) => k + "=" + v)].join(","), false) })
            : t("home.preset_help");
        }
      };
      // The handicap the options make, if any: one of HANDICAPS's changes
      // made, against the rule set's own value.
      const handicapChosen = () => {
        const current = { ...presets[presetSel.value], ...form.options };
        return HANDICAPS.find((h) => Object.entries(h.options).every(([k, v]) => current[k] === v)
          && Object.entries(h.options).some(([k, v]) => presets[presetSel.value][k] !== v));
      };
      const sayFair = () => {
        labelPreset();
        fair.replaceChildren();
        if (!lab) return;
        const options = { ...presets[presetSel.value], ...form.options };
        const { verdict: v, suggest: even } = fairness(options, lab, presets);
        // A handicap chosen from its menu is uneven on purpose: no
        // suggestion to undo it (an option changed by hand still gets one).
        const handicapped = form.handicap && handicapChosen()?.id === form.handicap;
        const suggest = handicapped ? null : even;
        if (handicapped) fair.append(el("p", { id: "fair-handicap" }, t("home.fair.handicap")));
        if (v) {
          const lean = v.balanced ? "even" : v.attackers_score > 0.5 ? "attackers" : "defenders";
          fair.append(el("p", { "data-lean": lean }, t("home.fair.measured", {
            share: percent(v.attackers_score), interval: interval(v, 0),
            players: playersText(v.players), games: v.games,
          }), " ", v.balanced ? el("b", { class: "badge" }, t("lab.balanced"))
            : lean === "attackers" ? t("home.fair.attackers") : t("home.fair.defenders")));
        } else {
          fair.append(el("p", { "data-lean": "unknown" }, t("home.fair.unmeasured")));
        }
        const more = el("a", { href: "/lab", "data-nav": true, id: "fair-lab" }, t("home.fair.lab"));
        fair.append(suggest
          ? el("p", {}, t("home.fair.try", { rules: ringoSettings(suggest, false) }), " ",
            el("button", { type: "button", id: "use-even", "data-rules": suggest, onclick: () => {
              ({ preset: form.preset, changes: form.options } = parseRules(suggest));
              draw();
              document.getElementById("preset")?.focus();
            } }, t("home.fair.use")), " ", more)
          : el("p", {}, more));
      };
      labRead.then(sayFair);
      // Two people starting a Ringo game are steered to an even setting:
      // the lab's most even set, unless they chose their rules themselves.
      labRead.then(() => {
        if (!twoPeople() || form.rulesTouched || form.steered || !lab) return;
        const { verdict: v, suggest } = fairness({ ...presets[presetSel.value], ...form.options }, lab, presets);
        if (!suggest || (v && v.balanced)) return;
        form.steered = true;
        ({ preset: form.preset, changes: form.options } = parseRules(suggest));
        draw();
      });
      const fill = () => {
        opts.replaceChildren();
        const base = presets[presetSel.value];
        for (const o of m.ringo.options) {
          const id = "opt-" + o.key;
          const sel = el("select", { id, "data-opt": o.key, "aria-describedby": id + "-help",
            onchange: () => { form.options[o.key] = sel.value; form.rulesTouched = true; sayFair(); } },
          o.values.map((v) => el("option", { value: v }, optionValue(o.key, v))));
          sel.value = form.options[o.key] ?? base[o.key];
          opts.append(el("div", { class: "opt" }, el("label", { for: id }, t("optname." + o.key)), sel,
            el("small", { id: id + "-help" }, t("opt." + o.key) + " — " + t("source." + o.key))));
        }
      };
      presetSel.addEventListener("change", () => { form.preset = presetSel.value; form.options = {}; form.rulesTouched = true; draw(); document.getElementById("preset")?.focus(); });
      fill();
      sayFair();
      // The options come folded: a rule set sets them all, and on a phone
      // the thirteen of them stood between the rule set and the start
      // button (2,000 px of scrolling).
      const fold = el("details", { class: "fold", id: "options-fold", open: !!form.optionsOpen,
        ontoggle: () => { form.optionsOpen = fold.open; } },
      el("summary", {}, el("h3", {}, t("home.options")), " ", el("span", { class: "muted" }, t("home.options_hint"))), opts);
      // A handicap for players of unequal strength: one rule changed, named
      // for what it does (the seeds' balancing variants, and the French
      // sheet's dropped fortress capture).
      const chosen = handicapChosen();
      const handicap = el("select", { id: "handicap", "aria-describedby": "handicap-help", onchange: () => {
        const h = HANDICAPS.find((x) => x.id === handicap.value);
        // Back to the rule set's own values for every handicap's option,
        // then the chosen one's.
        for (const x of HANDICAPS) for (const k of Object.keys(x.options)) delete form.options[k];
        if (h) Object.assign(form.options, h.options);
        form.handicap = h ? h.id : null;
        form.rulesTouched = true;
        draw();
        document.getElementById("handicap")?.focus();
      } }, [el("option", { value: "" }, t("handicap.none")),
        ...HANDICAPS.map((h) => el("option", { value: h.id }, t("handicap." + h.id)))]);
      handicap.value = chosen ? chosen.id : "";
      // Wide, and the chosen handicap in full under it: its name is longer
      // than a closed menu shows on a phone.
      const handicapBox = el("div", { class: "opt wide" }, el("label", { for: "handicap" }, t("handicap.label")), handicap,
        el("small", { id: "handicap-help" }, chosen ? t("handicap.chosen", { name: t("handicap." + chosen.id) }) : t("handicap.help")));
      settings.append(el("h2", { id: "settings-title" }, t("home.preset")),
        el("label", { for: "preset", class: "sr-only" }, t("home.preset")), presetSel,
        el("p", { class: "muted", id: "preset-help" }, t("home.preset_help")), ...steerNote(), fair, handicapBox, fold);
      },
      urgammon: () => {
      // What the player typed is kept while the page redraws, as the Ringo options are.
      const drawSel = el("select", { id: "draw", onchange: () => { form.draw = drawSel.value; } },
        el("option", { value: "replay" }, t("draw.replay")), el("option", { value: "end" }, t("draw.end")));
      drawSel.value = form.draw || "replay";
      settings.append(el("h2", { id: "settings-title" }, t("ur.match")),
        el("div", { class: "opt" }, el("label", { for: "match-to" }, t("home.match_to")), el("input", { id: "match-to", type: "number", min: 1, max: 99,
          value: form.to ?? 7, oninput: (e) => { form.to = e.target.value; } })),
        el("div", { class: "opt" }, el("label", { for: "draw" }, t("home.draw")), drawSel),
        el("div", { class: "opt" }, el("label", { for: "stake" }, t("home.stake")), el("input", { id: "stake", type: "text", inputmode: "decimal", placeholder: "10",
          value: form.stake ?? "", oninput: (e) => { form.stake = e.target.value; } })));
      },
    };
    settingsCard[form.game]();
    const sides = [...gameOf(form.game).sides, "random"];
    form.opponent = form.opponent || "engine";
    const levelOut = el("output", { for: "level", id: "level-out" }, form.level || 3);
    // What the chosen level is, for the chosen game (until 2026-11-26 one
    // paragraph told both games' ten levels at once, whichever was chosen).
    const levelText = (n) => t(`level.${form.game}.${n}`);
    const levelNote = el("p", { class: "muted", id: "level-note", "aria-live": "polite" }, levelText(form.level || 3));
    const level = el("input", { id: "level", type: "range", min: 1, max: 10, value: form.level || 3, "aria-describedby": "level-note",
      oninput: (e) => { form.level = e.target.value; levelOut.textContent = e.target.value; levelNote.textContent = levelText(e.target.value); } });
    const who = el("section", { class: "card", "aria-labelledby": "opponent-title" },
      el("h2", { id: "opponent-title" }, t("home.opponent")),
      el("fieldset", { class: "choice plain" }, el("legend", { class: "sr-only" }, t("home.opponent")),
        ["engine", "friend", "online", "local"].map((o) =>
          radio("opponent", o, t("opp." + o), form.opponent === o, () => { form.opponent = o; draw(); }))),
      form.opponent === "engine" ? el("div", { class: "row" }, el("label", { for: "level" }, t("home.level_label")), level, levelOut) : null,
      form.opponent === "engine" ? levelNote : null,
      form.opponent !== "local" ? el("h3", {}, t("home.side")) : null,
      form.opponent !== "local" ? el("fieldset", { class: "choice plain" }, el("legend", { class: "sr-only" }, t("home.side")),
        sides.map((s, i) => radio("side", s, t("side." + s), sides.includes(form.side) ? form.side === s : i === 0,
          () => { form.side = s; }))) : null,
      // Rated games are between two accounts, so only with a friend, and
      // only signed in.
      twoPeople() ? (me
        ? el("label", { class: "rated-choice" }, el("input", { type: "checkbox", id: "rated", checked: form.rated,
            onchange: (e) => { form.rated = e.target.checked; } }), " " + t("home.rated"))
        : el("p", { class: "muted", id: "rated-signin" }, el("a", { href: "/account", "data-nav": true }, t("home.rated_signin"))))
        : null,
      twoPeople() && me ? el("p", { class: "muted small", id: "rated-help" }, t("home.rated_help." + form.game)) : null,
      // A game between two people may be live, on a clock.
      twoPeople() ? el("div", { class: "opt" }, el("label", { for: "clock" }, t("home.clock")),
        el("select", { id: "clock", "aria-describedby": "clock-help", onchange: (e) => { form.clock = e.target.value; } },
          ["", ...TIME_CONTROLS].map((v) => el("option", { value: v, selected: (form.clock || "") === v }, timeControlLabel(v))))) : null,
      twoPeople() ? el("p", { class: "muted small", id: "clock-help" }, t("home.clock_help")) : null,
      form.opponent === "online" ? el("p", { class: "muted small", id: "online-help" }, t("home.online_help")) : null);
    // The start button under both cards, in a block of its own: on a phone
    // it stays at the foot of the screen while the choices scroll by.
    wrap.append(el("div", { class: "play-block" }, el("div", { class: "cards" }, settings, who),
      el("div", { class: "row start-row" }, el("button", { class: "primary", id: "start", onclick: start }, t("home.start")))));

    const record = el("textarea", { id: "import-record", rows: 3, "aria-describedby": "import-help" });
    // A failed import says why where the record is, and stays until the next try.
    const error = el("p", { class: "result", id: "import-error", role: "alert", hidden: true });
    // A file saved with "Download record" opens into the box.
    const file = el("input", { type: "file", id: "import-file", accept: ".txt,text/plain", onchange: async () => {
      const f = file.files && file.files[0];
      if (f) record.value = await f.text();
    } });
    // Who plays the imported game on: one screen, the computer (the
    // importer keeps the side to move) or a friend.
    const importLevel = el("select", { id: "import-level", hidden: form.importOpponent !== "engine",
      "aria-label": t("home.level_label"), onchange: () => { form.importLevel = importLevel.value; } },
    [...Array(10).keys()].map((i) => el("option", { value: i + 1 }, t("home.level") + " " + (i + 1))));
    importLevel.value = form.importLevel || 3;
    const importOpponent = el("select", { id: "import-opponent", onchange: () => {
      form.importOpponent = importOpponent.value;
      importLevel.hidden = importOpponent.value !== "engine";
    } }, ["local", "engine", "friend"].map((o) => el("option", { value: o }, t("opp." + o))));
    importOpponent.value = form.importOpponent || "local";
    wrap.append(el("section", { class: "card spaced", "aria-labelledby": "import-title" },
      el("h2", { id: "import-title" }, t("home.import")), el("p", { class: "muted", id: "import-help" }, t("home.import_help")),
      el("label", { for: "import-record" }, t("home.import_label")), record,
      el("div", { class: "row" }, el("label", { for: "import-file" }, t("home.import_file")), file),
      el("div", { class: "row" }, el("label", { for: "import-opponent" }, t("home.import_opponent")), importOpponent, importLevel),
      el("p", { class: "muted", id: "import-side-help" }, t("home.import_side")),
      error,
      el("div", { class: "row" }, el("button", { id: "import", onclick: async () => {
        error.hidden = true;
        try {
          const body = { game: recordGame(record.value, form.game), record: record.value, opponent: importOpponent.value };
          if (importOpponent.value === "engine") body.level = Number(importLevel.value);
          const r = await api("POST", "/api/import", body);
          localStorage.setItem(tokenKey(r.id), r.token);
          if (r.invite) localStorage.setItem(inviteKey(r.id), r.invite);
          navigate("/g/" + r.id);
        } catch (e) {
          error.textContent = errorText(e);
          error.hidden = false;
        }
      } }, t("home.import_btn")))));
  }

  async function start() {
    const body = { game: form.game, opponent: form.opponent };
    // Each game's own part; an unknown game is an error, not shown as another.
    const requestFields = {
      ringo: () => {
      const preset = document.getElementById("preset").value;
      const base = presets[preset];
      const changed = [...document.querySelectorAll("[data-opt]")].filter((s) => s.value !== base[s.dataset.opt])
        .map((s) => s.dataset.opt + "=" + s.value);
      body.rules = [preset, ...changed].join(",");
      },
      urgammon: () => {
      body.to = Number(document.getElementById("match-to").value);
      body.draw = document.getElementById("draw").value;
      // A decimal comma is how Polish and French write 2,5: the record
      // (and the API) take a point.
      const stake = document.getElementById("stake").value.trim().replace(",", ".");
      if (stake) body.stake = stake;
      },
    };
    requestFields[form.game]();
    if (form.opponent === "engine") body.level = Number(document.getElementById("level").value);
    const side = document.querySelector("input[name=side]:checked");
    if (side) body.side = side.value;
    if (twoPeople() && form.rated) body.rated = true;
    if (twoPeople() && form.clock) Object.assign(body, timeControlFields(form.clock));
    if (form.opponent === "online") return seek(body);
    try {
      const r = await api("POST", "/api/games", body);
      localStorage.setItem(tokenKey(r.id), r.token);
      if (r.invite) localStorage.setItem(inviteKey(r.id), r.invite);
      navigate("/g/" + r.id);
    } catch (e) { toast(e.message); }
  }
  /** Someone online: the settings as a seek in the lobby, where the page
   *  waits (and holds it) until someone takes it. */
  async function seek(body) {
    const req = { game: body.game, side: body.side || "random" };
    for (const k of ["rules", "to", "clock", "days", "rated"]) if (body[k] !== undefined) req[k] = body[k];
    try {
      const r = await api("POST", "/api/seeks", req);
      handOverSeek(r.id, r.token);
      navigate("/lobby");
    } catch (e) { toast(e.message); }
  }
  draw();
}
