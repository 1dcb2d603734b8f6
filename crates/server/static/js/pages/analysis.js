// The analysis board: any position of either game (from a replay, a link, or
// set up by hand), the engine's view of it, updated as moves are played on
// the board; for Urgammon every option's equity, win chance and outcome
// split, and a rollout on demand. The address holds the position, so a link
// shares it.
import { term } from "../glossary.js";
import { el, toast } from "../dom.js";
import { t, num, percent, colon } from "../../i18n.js";
import { api, errorText, meta } from "../api.js";
import { ringoBoard } from "../boards/ringo.js";
import { urgammonBoard, PLURAL } from "../boards/urgammon.js";
import { arrowsFor } from "../boards/arrows.js";
import { urTurnText, urMoveText, valueText } from "../log.js";
import { copyField } from "../panels/common.js";
import { gameOf, GAME_NAMES } from "../games.js";
import { pipLine } from "../panels/urgammon.js";

const SECTORS = "abcdefgh";
const KEYS = ["game", "rules", "position", "moves", "setup", "record", "level", "to", "score", "depth"];

/** The Ringo position text of a board being edited. */
function ringoPositionText(rings, pieces, fortress, toMove) {
  const rows = [];
  for (let ring = rings; ring >= 1; ring--) {
    rows.push([...SECTORS].map((s) => ({ attackers: "A", defenders: "D" })[pieces[s + ring]] || ".").join(""));
  }
  return `${rows.join("/")} ${fortress} ${toMove === "attackers" ? "a" : "d"}`;
}

/** The Urgammon set-up text of a board being edited. */
function setupText(board, palace, roll, starter) {
  const list = (side) => [
    ...Object.entries(board).filter(([, p]) => p.side === side).map(([h, p]) => `${h}:${p.kind}`),
    ...["P", "C", "H"].flatMap((k) => Array(palace[side][k] || 0).fill(`off:${k}`)),
  ].join(",");
  return `light=${list("light")} dark=${list("dark")} roll=${roll} starter=${starter}`;
}

const LIGHT_ONLY = ["1a", "2a", "3a", "4a", "12a", "13a"], DARK_ONLY = ["1b", "2b", "3b", "4b", "12b", "13b"];
/** What a click on a house in the editor puts there next. */
function nextOccupant(house, now) {
  const cycle = [null, ...["light", "dark"].flatMap((side) => ["P", "C", "H"].map((kind) => ({ side, kind })))]
    .filter((p) => !p || !(p.side === "light" && DARK_ONLY.includes(house)) && !(p.side === "dark" && LIGHT_ONLY.includes(house)));
  const i = cycle.findIndex((p) => (p && now ? p.side === now.side && p.kind === now.kind : p === now || (!p && !now)));
  return cycle[(i + 1) % cycle.length];
}

/** The games this page analyses, in its menu's order. */
const ANALYSIS_GAMES = GAME_NAMES;

export async function analysisPage(main) {
  const params = new URLSearchParams(location.search);
  const q = Object.fromEntries(KEYS.map((k) => [k, params.get(k)]).filter(([, v]) => v !== null && v !== ""));
  // Each game's part of the board, below: an unknown game opens Ringo's.
  q.game = ANALYSIS_GAMES.includes(q.game) ? q.game : ANALYSIS_GAMES[0];
  const view = { id: "analysis", you: [0, 1], state: null, selected: null, flipped: false };
  let editing = null;
  const head = el("div", { class: "row" });
  const boardWrap = el("div", { class: "boardwrap", id: "analysis-board" });
  const side = el("aside", { class: "side", id: "analysis-panel", "aria-labelledby": "eval-title" });
  main.append(el("h1", {}, t("analysis.title")), head, el("div", { class: "game" }, boardWrap, side),
    el("p", { class: "sr-only", id: "board-help" }, t("game.board_help")));

  const link = () => {
    const p = new URLSearchParams();
    for (const k of KEYS) if (q[k] !== undefined && q[k] !== "") p.set(k, q[k]);
    return `/analysis?${p}`;
  };
  // The menu's plain /analysis (and /analysis?game=ringo) has no moves yet.
  // What differs from game to game on this page, one entry per game (its
  // board, panel and editor are below).
  const per = {};
  const game = () => per[q.game];
  const moves = () => (q[game().movesKey] || "").split(" ").filter(Boolean);
  const setMoves = (list) => { q[game().movesKey] = list.join(" "); };

  head.replaceChildren(
    ...ANALYSIS_GAMES.map((g) => el("a", { class: "button", href: "/analysis?game=" + g, "data-nav": true, "aria-current": q.game === g ? "page" : null }, gameOf(g).name)),
    el("button", { id: "edit", onclick: () => startEditing() }, t("analysis.edit")));

  const presetNames = (await meta()).ringo.presets.map((p) => p.name);
  async function load() {
    history.replaceState({}, "", link());
    side.replaceChildren(el("p", { class: "muted", role: "status" }, t("analysis.thinking")));
    let r;
    try {
      const body = Object.fromEntries(Object.entries(q).map(([k, v]) => [k, ["level", "to", "depth"].includes(k) ? Number(v) : k === "score" ? v.split(",").map(Number) : v]));
      r = await api("POST", "/api/analyze", body);
    } catch (e) {
      toast(e.message);
      side.replaceChildren(el("p", { class: "result", id: "analysis-error" }, errorText(e)));
      return;
    }
    // The editor was opened while this analysis ran: it keeps the screen.
    if (editing) return;
    view.state = { ...r.state, game: r.game };
    window.agonState = view.state;
    window.agonAnalysis = r.analysis;
    // The engine's best move as an arrow on the board (not the verdict die).
    view.arrows = r.analysis && r.analysis.best ? arrowsFor(view.state, [{ notation: r.analysis.best, kind: "best", label: t("analysis.best") + colon() + r.analysis.best }]) : [];
    const play = (m) => { setMoves([...moves(), m]); view.selected = null; load(); };
    boardWrap.replaceChildren(per[r.game].board(play));
    side.replaceChildren(...panel(r, play));
  }
  function ringoBoardRedraw() {
    boardWrap.replaceChildren(ringoBoard(view, (m) => { setMoves([...moves(), m]); load(); }, () => ringoBoardRedraw(), true));
    const chooser = document.getElementById("chooser");
    if (chooser) chooser.replaceChildren(...(view.chooser || []).map((m) => el("button", { onclick: () => { setMoves([...moves(), m]); view.chooser = null; load(); } }, m)));
  }

  // The endgame tables' exact result: proven, not estimated.
  function tablebaseText(tb) {
    if (tb.result === "draw") return t("analysis.tablebase_draw");
    const side = t("side." + tb.result);
    return tb.plies == null ? t("analysis.tablebase_repetition", { side })
      : t("analysis.tablebase_win", { side, n: tb.plies }) + (tb.pv.length ? " · " + tb.pv.join(" ") : "");
  }

  function panel(r, play) {
    const s = view.state, a = r.analysis, out = [el("h2", { id: "eval-title" }, t("analysis.eval"))];
    per[r.game].panel(out, s, a, play);
    out.push(el("div", { class: "row" }, el("button", { id: "back", disabled: !moves().length, onclick: () => { setMoves(moves().slice(0, -1)); load(); } }, t("analysis.back"))));
    out.push(copyField("share-link", t("analysis.share"), location.origin + link()));
    return out;
  }

  /** The editor: clicks change cells; "Analyse this position" starts from it. */
  function startEditing() {
    const s = view.state;
    if (!s) return;
    editing = game().editing(s);
    drawEditor();
  }

  function drawEditor() {
    const s = view.state;
    const edited = { ...s, legal: [], last_move: null, log: [], moves: [], promoted_legal: [] };
    const controls = game().editor(edited);
    side.replaceChildren(el("h2", { id: "eval-title" }, t("analysis.edit")), el("p", { class: "muted" }, t("analysis.editing")), ...controls,
      el("div", { class: "row" },
        el("button", { id: "clear", onclick: () => { game().clear(); drawEditor(); } }, t("analysis.clear")),
        el("button", { id: "analyse", class: "primary", onclick: () => {
          game().analyse();
          editing = null;
          load();
        } }, t("analysis.done"))));
  }

  per.ringo = {
    movesKey: "moves",
    board: (play) => ringoBoard(view, play, () => ringoBoardRedraw(), !view.state.over && view.state.status === "ongoing"),
    panel: (out, s, a, play) => {
      out.push(el("div", { class: "muted" }, t("analysis.rules") + colon() + s.rules));
      // Another rule set for the same position: a position set up by hand
      // had no way to be read under globe, say, but by editing the address.
      // The position goes on as a start (its earlier moves, and with them
      // the repetition count, are left behind).
      const rulesSel = el("select", { id: "analysis-rules", onchange: () => {
        q.rules = rulesSel.value;
        q.position = s.position;
        q.moves = "";
        load();
      } }, [...new Set([...presetNames, s.rules])].map((p) => el("option", { value: p, selected: p === s.rules }, p)));
      out.push(el("div", { class: "row" }, el("label", { for: "analysis-rules" }, t("home.preset")), rulesSel));
      if (!a) out.push(el("p", { class: "result", id: "analysis-over" }, t("analysis.over")));
      else {
        // Whose move it is: the score and the best move are that side's, and
        // the board alone does not say (a position set up or opened by link).
        out.push(el("p", { class: "status", id: "analysis-to-move" }, t("game.to_move", { side: t("Side." + s.to_move) })));
        out.push(el("dl", { class: "eval", id: "eval" },
          el("dt", {}, t("analysis.best")), el("dd", { id: "best" }, a.best ?? "–"),
          el("dt", {}, t("analysis.score"), " ", term("score")), el("dd", { id: "score-value" }, a.proven ? t("review.proven", { side: t("side." + a.proven.winner), n: a.proven.plies }) : String(a.score)),
          el("dt", {}, t("analysis.line")), el("dd", { id: "pv" }, a.pv.join(" ")),
          el("dt", {}, t("analysis.depth")), el("dd", {}, String(a.depth))));
        if (a.tablebase) out.push(el("p", { class: "proven", id: "tablebase" }, tablebaseText(a.tablebase)));
      }
      out.push(el("div", { class: "chooser", id: "chooser" }));
      if (a && s.legal.some((m) => !m.from)) out.push(el("button", { id: "pass", onclick: () => play("pass") }, t("game.pass")));
      out.push(el("h3", {}, t("game.moves")), el("p", { id: "analysis-moves", class: "mv" }, s.history.join(" ") || "–"));
    },
    editing: (s) => ({ pieces: Object.fromEntries(s.board.map((p) => [p.cell, p.side])), fortress: s.fortress, toMove: s.to_move }),
    editor: (edited) => {
      edited.board = Object.entries(editing.pieces).map(([cell, sd]) => ({ cell, side: sd }));
      edited.fortress = editing.fortress;
      boardWrap.replaceChildren(ringoBoard({ ...view, state: edited, arrows: [] }, () => {}, () => {}, false, (cell) => {
        if (cell === "F") editing.fortress = (editing.fortress + 1) % 2;
        else editing.pieces[cell] = { undefined: "attackers", attackers: "defenders", defenders: undefined }[editing.pieces[cell]];
        if (!editing.pieces[cell]) delete editing.pieces[cell];
        drawEditor();
      }));
      return [
        el("div", {}, el("label", { for: "edit-to-move" }, t("analysis.to_move")), " ",
          el("select", { id: "edit-to-move", onchange: (e) => { editing.toMove = e.target.value; } },
            ["attackers", "defenders"].map((x) => el("option", { value: x, selected: editing.toMove === x }, t("Side." + x))))),
        el("p", { class: "muted" }, t("analysis.fortress") + colon() + editing.fortress),
      ];
    },
    clear: () => { editing.pieces = {}; editing.fortress = 0; },
    analyse: () => { q.position = ringoPositionText(view.state.rings, editing.pieces, editing.fortress, editing.toMove); q.moves = ""; },
  };
  per.urgammon = {
    movesKey: "record",
    board: (play) => urgammonBoard(view, play, view.state.phase !== "over"),
    panel: (out, s, a, play) => {
      // Where the turn stands, as the game page says it: the buttons below
      // (a chance die, the verdict die's two faces) mean nothing without it.
      if (s.phase === "opening" || s.to_act) {
        out.push(el("p", { class: "status", id: "analysis-turn" }, t("ur.phase." + s.phase, { side: s.to_act ? t("Side." + s.to_act) : "", v: s.value ? valueText(s) : "" })));
      }
      out.push(pipLine(s));
      // The opening: both dice chosen by hand (a tie rolls again), as the
      // chance die is below; without it the opening was a dead end.
      if (s.phase === "opening") {
        const die = (id) => el("select", { id }, [1, 2, 3, 4].map((n) => el("option", { value: String(n) }, String(n))));
        const light = die("opening-light"), dark = die("opening-dark");
        out.push(el("div", { class: "row", role: "group", "aria-label": t("ur.phase.opening") },
          el("label", { for: "opening-light" }, t("analysis.opening_light")), light,
          el("label", { for: "opening-dark" }, t("analysis.opening_dark")), dark,
          el("button", { id: "opening-roll", onclick: () => play(`start:${light.value}-${dark.value}`) }, t("analysis.opening_play"))));
      }
      if (s.phase === "roll") {
        out.push(el("div", { class: "row", role: "group", "aria-label": t("ur.roll") },
          [1, 2, 3, 4].map((n) => el("button", { class: "roll-choice", "data-roll": n, onclick: () => play("r" + n) }, t("analysis.roll", { n })))));
      }
      if (s.verdict_allowed) {
        out.push(el("div", { class: "row" }, el("button", { id: "verdict-yes", onclick: () => play("v+") }, t("analysis.verdict_yes")),
          el("button", { id: "verdict-no", onclick: () => play("v-") }, t("analysis.verdict_no"))));
      }
      if (a) {
        out.push(el("p", { id: "position-eval" }, t("analysis.position_eval", { side: t("side." + a.perspective), e: num(a.equity), w: Math.round(100 * a.win), d: Math.round(100 * a.outcomes.draw) }),
          a.mwc !== undefined ? " · " + t("analysis.mwc", { m: Math.round(100 * a.mwc) }) : ""));
        // Exact values (every line played out) are said as such: a reader
        // must know which figures are the engine's estimate.
        if (a.exact) out.push(el("p", { id: "exact-note", class: "muted" }, t("analysis.exact")));
        if (a.options.length) {
          // Each move also in the log's words ("pawn enters 2b"), so the
          // table reads without the record's code.
          const moveOf = (n) => [...s.legal, ...s.promoted_legal].find((x) => x.notation === n);
          const names = ["win1", "win2", "win3", "win4", "loss1", "loss2", "loss3", "loss4", "draw"];
          out.push(el("table", { class: "list", id: "options" },
            el("caption", { class: "muted" }, t("analysis.outcomes")),
            el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("analysis.option")), el("th", { scope: "col" }, t("analysis.equity")), el("th", { scope: "col" }, t("analysis.win")))),
            el("tbody", {}, a.options.map((o) => {
              const m = moveOf(o.option);
              return el("tr", { "data-option": o.option },
                el("td", {}, o.option === "verdict" ? t("ur.verdict") : o.option,
                  m ? [" ", el("span", { class: "muted words" }, "· " + urMoveText(m))] : null,
                  el("br"), el("small", { class: "muted split" }, names.map((n, i) => `${["+1", "+2", "+3", "+4", "−1", "−2", "−3", "−4", "="][i]} ${percent(o.outcomes[n])}`).join(" · "))),
                el("td", {}, num(o.equity)), el("td", {}, percent(o.win)));
            }))));
        }
        const result = el("p", { id: "rollout-result", role: "status" });
        out.push(el("button", { id: "rollout", onclick: async () => {
          result.textContent = t("analysis.thinking");
          try {
            const body = { game: "urgammon", games: 500 };
            for (const k of ["setup", "record"]) if (q[k]) body[k] = q[k];
            if (q.to) { body.to = Number(q.to); if (q.score) body.score = q.score.split(",").map(Number); }
            const ro = await api("POST", "/api/rollout", body);
            result.textContent = t("analysis.rollout_result", { games: ro.games, mean: num(ro.mean_points), lo: num(ro.mean_points_95[0]), hi: num(ro.mean_points_95[1]), win: Math.round(100 * ro.win) });
          } catch (e) { result.textContent = e.message; }
        } }, t("analysis.rollout")), result);
      } else out.push(el("p", { class: "result", id: "analysis-over" }, t("analysis.over")));
      out.push(el("h3", {}, t("game.moves")), el("ol", { class: "moves log", id: "move-list" },
        s.log.map((turn, i) => el("li", {}, el("span", { class: "num" }, turn.turn + "."), " ",
          urTurnText(turn, i === s.log.length - 1 && ["decide", "verdict", "move"].includes(s.phase))))));
    },
    editing: (s) => {
      const board = {};
      for (const sd of ["light", "dark"]) for (const [h, k] of Object.entries(s[sd].board)) board[h] = { side: sd, kind: k };
      return { board, palace: { light: { ...s.light.palace }, dark: { ...s.dark.palace } }, roll: s.to_act || "light", starter: s.starter || "light" };
    },
    editor: (edited) => {
      const s = view.state;
      for (const sd of ["light", "dark"]) {
        edited[sd] = { ...s[sd], board: Object.fromEntries(Object.entries(editing.board).filter(([, p]) => p.side === sd).map(([h, p]) => [h, p.kind])) };
      }
      boardWrap.replaceChildren(urgammonBoard({ ...view, state: edited, arrows: [] }, () => {}, false, (key) => {
        if (!/^\d/.test(key)) return;
        const next = nextOccupant(key, editing.board[key]);
        if (next) editing.board[key] = next; else delete editing.board[key];
        drawEditor();
      }));
      // Each kind's plural in words ("heros" and "héross" were made by adding an s).
      const count = (sd, k) => el("label", {}, t("analysis.palace_count", { side: t("Side." + sd), pieces: t(PLURAL[k]) }) + " ",
        el("input", { type: "number", min: 0, max: k === "H" ? 1 : 3, value: editing.palace[sd][k], "data-palace": sd + k,
          onchange: (e) => { editing.palace[sd][k] = Number(e.target.value); } }));
      // Each menu on a line of its own with its label (they ran together).
      const pick = (id, label, key) => el("div", {}, el("label", { for: id }, label), " ",
        el("select", { id, onchange: (e) => { editing[key] = e.target.value; } },
          ["light", "dark"].map((x) => el("option", { value: x, selected: editing[key] === x }, t("Side." + x)))));
      return [pick("edit-roll", t("analysis.roll_side"), "roll"), pick("edit-starter", t("analysis.starter"), "starter"),
        ...["light", "dark"].flatMap((sd) => ["P", "C", "H"].map((k) => el("div", {}, count(sd, k))))];
    },
    clear: () => { editing.board = {}; },
    analyse: () => { q.setup = setupText(editing.board, editing.palace, editing.roll, editing.starter); q.record = ""; },
  };
  await load();
}
