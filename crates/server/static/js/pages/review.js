// The review of a finished game: each side's accuracy (Ringo) or error rate,
// rating and luck (Urgammon); the win-chance graph, whose points open the
// position before that move; the graded move list; the key moments.
import { termsRow, TERMS } from "../glossary.js";
import { playersLineText } from "../players.js";
import { el, sv, announce, pressable } from "../dom.js";
import { t, num, percent, colon } from "../../i18n.js";
import { api, meta } from "../api.js";
import { keepSocket } from "../socket.js";
import { onLeave } from "../router.js";
import { gameOf } from "../games.js";
import { arrowsFor } from "../boards/arrows.js";
import { notFoundPage } from "./notfound.js";
import { openGameLink, analysisHref } from "../panels/common.js";

/** A reviewed move as the list and the board say it: Ringo's notation with
 *  its grade's mark ("c2xF!"), an Urgammon decision in words (its grade is
 *  said in words beside it). */
function said(game, notation, symbol) {
  return gameOf(game).moveWords(notation, symbol);
}

const pct = (x) => Math.round(100 * x);

/** What a review looks like, per game: graded ply by ply (`plies`, each
 *  move's win chance and accuracy: Ringo) or decision by decision
 *  (`decisions`, equities, dice and luck: Urgammon); whose win chance the
 *  graph draws; what its list is called. An unknown game is an error, not
 *  reviewed as another. */
const REVIEWS = {
  ringo: { byPly: true, firstSide: "attackers", listTitle: "review.moves" },
  urgammon: { byPly: false, firstSide: "light", listTitle: "review.decisions", dice: true },
};
function reviewOf(r) {
  const kind = REVIEWS[r.game];
  if (!kind) throw new Error("unknown game " + r.game);
  return kind;
}

/** How the game's own record numbers a reviewed entry, so "52." here is
 *  line 52 of the game page's log: Ringo's moves in pairs ("4." for the side
 *  that moved first, "4…" for the other, as its move list), Urgammon's turns
 *  of each game (and the game, in a match). `row` heads a list row, `place`
 *  names the position in a button or a caption. A review stored before the
 *  API gave `turn` counts tokens instead. */
function numbering(r) {
  if (reviewOf(r).byPly) {
    const offset = r.plies.length && r.plies[0].side === "defenders" ? 1 : 0;
    const at = (ply) => ({ n: Math.floor((ply + offset) / 2) + 1, second: (ply + offset) % 2 === 1 });
    return {
      row: (ply) => { const a = at(ply); return a.n + (a.second ? "…" : "."); },
      place: (ply) => { const a = at(ply); return a.n + (a.second ? "…" : ""); },
    };
  }
  const byPly = new Map([...r.win_curve, ...r.decisions].map((e) => [e.ply, e]));
  const several = r.win_curve.some((c) => c.game !== r.win_curve[0].game);
  const turn = (ply) => byPly.get(ply)?.turn ?? ply + 1;
  return {
    row: (ply) => turn(ply) + ".",
    place: (ply) => several && byPly.has(ply) ? t("review.in_game", { n: turn(ply), g: byPly.get(ply).game }) : String(turn(ply)),
  };
}

/** The graph's points: `{ply, win, label, grade, game}` with the first side's win chance. */
function points(r, number) {
  if (reviewOf(r).byPly) {
    return r.plies.map((p) => ({
      ply: p.ply,
      win: p.side === "attackers" ? p.win : 1 - p.win,
      grade: p.grade,
      game: 0,
      label: t("review.point", { n: number.place(p.ply), move: p.played + p.symbol, side: t("side.attackers"), win: pct(p.side === "attackers" ? p.win : 1 - p.win) }),
    }));
  }
  const decided = Object.fromEntries(r.decisions.filter((d) => !d.trivial).map((d) => [d.ply, d]));
  return r.win_curve.map((c) => ({ ply: c.ply, win: c.win, grade: decided[c.ply]?.grade, game: c.game,
    label: t("review.point", { n: number.place(c.ply), move: decided[c.ply] ? said("urgammon", decided[c.ply].played) : "", side: t("side.light"), win: pct(c.win) }) }));
}

/** The grades the graph marks in colour: the errors worth finding on it. */
const MARKED = new Set(["inaccuracy", "mistake", "blunder"]);

function graph(r, select, number) {
  const pts = points(r, number);
  // Room on the left for the widest scale label at a phone's size: French
  // writes "100 %", which at L = 64 lost its first digit.
  const W = 600, H = 180, L = 84, n = Math.max(pts.length - 1, 1);
  // Room above 100% and below 0% for half a scale label (13 px, 26 on a
  // phone): the phone's "100%" stood half outside the frame.
  const x = (i) => L + (i * (W - L - 10)) / n, y = (w) => 18 + (1 - w) * (H - 36);
  // A long match has hundreds of points: at one size for all they overlapped
  // into a thick band that hid the curve. The dots shrink with their number;
  // a click anywhere on the graph still finds the nearest one.
  const r0 = pts.length <= 40 ? 6 : pts.length <= 120 ? 4 : 2.5;
  const svg = sv("svg", { class: "graph", viewBox: `0 0 ${W} ${H}`, role: "group", "aria-labelledby": "graph-caption", id: "win-graph" },
    // The scale is drawn: without it the curve said nothing of whose chance
    // it is or how large (the name was only in the label a screen reader reads).
    ...[1, 0.5, 0].map((w) => sv("text", { class: "scale", x: L - 8, y: y(w), "aria-hidden": "true" }, percent(w))),
    sv("line", { class: "mid", x1: L, x2: W - 10, y1: y(0.5), y2: y(0.5) }),
    // Each game of a match starts again near 50%: a line and its number
    // say where, so the jump reads as a new game, not as a swing.
    ...pts.flatMap((p, i) => {
      if (i === 0 || p.game === pts[i - 1].game) return [];
      // Near the right edge the number goes before its line, not outside the frame.
      const at = x(i - 0.5), before = at > W - 70;
      return [sv("line", { class: "game-start", x1: at, x2: at, y1: 4, y2: H - 4 }),
        sv("text", { class: "game-label", x: at + (before ? -4 : 4), y: 12, "text-anchor": before ? "end" : "start", "aria-hidden": "true" },
          t("ur.game_n", { n: p.game }))];
    }),
    sv("rect", { class: "hit", x: L, y: 0, width: W - L, height: H }),
    sv("polyline", { class: "curve", points: pts.map((p, i) => `${x(i)},${y(p.win)}`).join(" ") }));
  // The nearest point to a click on the graph's face.
  svg.addEventListener("click", (e) => {
    if (e.target.classList.contains("pt") || !pts.length) return;
    const m = svg.getScreenCTM();
    if (!m) return;
    const px = (e.clientX - m.e) / m.a;
    const i = Math.max(0, Math.min(pts.length - 1, Math.round(((px - L) * n) / (W - L - 10))));
    select(pts[i].ply);
  });
  // One tab stop for the whole curve (a roving tabindex): with a point per
  // move a keyboard user had to press Tab hundreds of times to get past it.
  // The arrow keys, Home and End walk the points and open each position.
  const dots = pts.map((p, i) => sv("circle", { class: "pt" + (MARKED.has(p.grade) ? " g-" + p.grade : ""), cx: x(i), cy: y(p.win), r: r0,
    tabindex: i === 0 ? 0 : -1, role: "button", "aria-label": p.label, "data-ply": p.ply,
    onclick: () => select(p.ply),
    onkeydown: (e) => {
      const to = { ArrowRight: i + 1, ArrowUp: i + 1, ArrowLeft: i - 1, ArrowDown: i - 1, Home: 0, End: pts.length - 1 }[e.key];
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); select(p.ply); }
      else if (to !== undefined && to >= 0 && to < pts.length) { e.preventDefault(); dots[to].focus(); select(pts[to].ply); }
    } },
  sv("title", {}, p.label)));
  svg.append(...dots);
  return svg;
}

function sideCards(r) {
  if (reviewOf(r).byPly) {
    return el("div", { class: "cards", id: "review-summary" }, ["attackers", "defenders"].map((s) => el("div", { class: "card", "data-side": s },
      el("h2", {}, t("Side." + s)),
      el("p", {}, t("review.accuracy") + colon(), el("b", { class: "accuracy" }, num(r.accuracy[s]))),
      el("p", {}, t("review.mean_loss") + colon(), el("b", {}, num(r.mean_loss[s], 2))))));
  }
  return el("div", { class: "cards", id: "review-summary" }, ["light", "dark"].map((s) => el("div", { class: "card", "data-side": s },
    el("h2", {}, t("Side." + s)),
    el("p", {}, t("review.error_rate") + colon(), el("b", { class: "error-rate" }, num(r.error_rate[s], 1))),
    el("p", {}, t("review.rating") + colon(), el("b", {}, t("rating." + r.rating[s].toLowerCase().replace(/ /g, "-")))),
    el("p", {}, t("review.luck") + colon(), el("b", {}, num(r.luck[s]))),
    el("p", {}, t("review.luck_adjusted") + colon(), el("b", {}, num(r.luck_adjusted[s]))))));
}

/** How each side's dice fell against the rules' odds (Urgammon): each face
 *  of the chance die and the verdict die's YES, counted from the review's
 *  rolls, beside the share the rules give it. A player who doubts the dice
 *  sees them counted; the opening rolls, which only choose who starts, are
 *  not among the rolls. */
function diceCard(r, m) {
  const faces = m.urgammon.chance_faces;
  const count = (side, test) => r.rolls.filter((x) => x.side === side && test(x.token)).length;
  const cell = (side, token, kind) => {
    const n = count(side, (k) => k === token), of = count(side, (k) => k[0] === kind);
    return el("td", {}, of ? `${n} (${percent(n / of)})` : "–");
  };
  const row = (label, token, share) => el("tr", { "data-token": token }, el("th", { scope: "row" }, label),
    cell("light", token, token[0]), cell("dark", token, token[0]), el("td", {}, percent(share)));
  // How many rolls each share is of.
  const total = (label, kind) => el("tr", { "data-token": kind }, el("th", { scope: "row" }, label),
    ...["light", "dark"].map((side) => el("td", {}, String(count(side, (k) => k[0] === kind)))), el("td", {}, ""));
  return el("section", { class: "card spaced", id: "dice-stats" }, el("h2", {}, t("ur.dice")),
    el("table", { class: "list" }, el("caption", { class: "muted" }, t("review.dice_caption")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("review.die")), el("th", { scope: "col" }, t("Side.light")),
        el("th", { scope: "col" }, t("Side.dark")), el("th", { scope: "col" }, t("review.expected")))),
      // Both dice are six-sided: each face's share is its count over six.
      el("tbody", {}, total(t("review.chance_rolls"), "r"),
        [...new Set(faces)].map((f) => row(t("review.die_face", { die: t("ur.chance_die"), face: f }), "r" + f, faces.filter((x) => x === f).length / faces.length)),
        total(t("review.verdict_rolls"), "v"),
        row(t("review.die_face", { die: t("ur.verdict_die"), face: t("ur.verdict_yes") }), "v+", m.urgammon.verdict_yes_faces / faces.length))));
}

/** A row's text as a button for the keyboard (Tab, then Enter or Space);
 *  the row itself takes the mouse's click. */
function keys(action) {
  return { ...pressable(action), onclick: null };
}

function moveList(r, select, number) {
  const list = el("ol", { class: "moves graded", id: "graded" });
  if (reviewOf(r).byPly) {
    for (const p of r.plies) {
      const proven = p.proven ? " · " + t("review.proven", { side: t("side." + p.proven.winner), n: p.proven.plies }) : "";
      list.append(el("li", { class: "g-" + p.grade, "data-ply": p.ply, onclick: () => select(p.ply) },
        el("span", { class: "num" }, number.row(p.ply)),
        el("span", keys(() => select(p.ply)), t("Side." + p.side) + " ", el("b", { class: "mv" }, p.played + p.symbol), " — " + t("grade." + p.grade)
          + (p.played !== p.best && p.grade !== "best" ? " (" + t("review.best", { move: p.best }) + ", −" + num(p.loss) + ")" : "") + proven)));
    }
  } else {
    const shown = r.decisions.filter((d) => !d.trivial);
    const several = shown.some((d) => d.game !== shown[0].game);
    shown.forEach((d, i) => {
      // A match's games are headed, as on the graph: the plies run on
      // through the match, and without it a list of 200 rows hid where a
      // game began.
      if (several && (i === 0 || d.game !== shown[i - 1].game)) list.append(el("li", { class: "game-head" }, t("ur.game_n", { n: d.game })));
      list.append(el("li", { class: "g-" + d.grade, "data-ply": d.ply, onclick: () => select(d.ply) },
        el("span", { class: "num" }, number.row(d.ply)),
        el("span", keys(() => select(d.ply)), t("Side." + d.side) + " ", el("b", { class: "mv" }, said("urgammon", d.played)), " — " + t("grade." + d.grade)
          + (d.grade !== "best" ? " (" + t("review.best", { move: said("urgammon", d.best) }) + ", −" + num(d.equity_loss) + ")" : ""))));
    });
  }
  return list;
}

/** The plies worth stopping at: Ringo's key moments, Urgammon's five worst decisions. */
function keyMoments(r) {
  if (reviewOf(r).byPly) return r.key;
  return r.decisions.filter((d) => !d.trivial && d.equity_loss > 0).sort((a, b) => b.equity_loss - a.equity_loss).slice(0, 5).map((d) => d.ply).sort((a, b) => a - b);
}

export async function reviewPage(main, id) {
  const players = el("p", { class: "muted", id: "players-line" });
  main.append(el("h1", {}, t("review.title")), players);
  api("GET", `/api/games/${id}`).then((g) => { players.textContent = playersLineText(g.state); }).catch(() => {});
  const status = el("div", { id: "review-status", role: "status" });
  const body = el("div", { id: "review-body" });
  main.append(status, body);
  let socket = null, done = false;
  // The dice's odds, from the rules (one request, kept by the page); without
  // them the review shows all else.
  const facts = await meta().catch(() => null);
  const show = (r) => {
    done = true;
    status.replaceChildren();
    const view = { id, you: [], state: null, selected: null };
    const boardWrap = el("div", { id: "review-board" });
    const caption = el("p", { class: "muted", id: "review-caption" });
    // What the arrows on the board mean, for the arrows drawn.
    const legend = el("p", { class: "muted", id: "arrow-legend" });
    const keys = keyMoments(r);
    const number = numbering(r);
    let keyAt = -1;
    // The latest position asked for: an answer to an earlier ask that
    // comes after it is dropped (a quick click on the graph while the
    // first position was still on its way showed the first, its Replay
    // link pointing there).
    let asked = 0;
    async function select(ply) {
      const mine = ++asked;
      const s = await api("GET", `/api/games/${id}/at/${ply}`);
      if (mine !== asked) return;
      view.state = s;
      window.agonState = s;
      // The move played and, when it was not the best, the best one, as
      // arrows on the position before it (the best first, so a best move
      // played shows as one green arrow).
      const entry = (reviewOf(r).byPly ? r.plies : r.decisions).find((e) => e.ply === ply);
      view.arrows = entry ? arrowsFor(s, [
        { notation: entry.best, kind: "best", label: t("review.best", { move: said(r.game, entry.best) }) },
        { notation: entry.played, kind: "played", label: said(r.game, entry.played, entry.symbol) },
      ]) : [];
      legend.replaceChildren(...["best", "played"].filter((k) => view.arrows.some((a) => a.kind === k))
        .flatMap((k) => [el("span", { class: "arrow-key " + k, "aria-hidden": "true" }), k === "best" ? t("review.arrow_best") : t("review.arrow_played")]));
      boardWrap.replaceChildren(gameOf(s.game).board(view));
      body.querySelectorAll("[data-ply].current").forEach((e) => e.classList.remove("current"));
      body.querySelectorAll(`[data-ply="${ply}"]`).forEach((e) => e.classList.add("current"));
      // The graph's one tab stop follows the position shown.
      const dot = body.querySelector(`#win-graph .pt[data-ply="${ply}"]`);
      if (dot) body.querySelectorAll("#win-graph .pt").forEach((e) => e.setAttribute("tabindex", e === dot ? "0" : "-1"));
      const row = body.querySelector(`#graded [data-ply="${ply}"]`);
      if (row) row.scrollIntoView({ block: "nearest" });
      caption.textContent = t("review.position") + " " + number.place(ply) + (row ? colon() + row.lastChild.textContent : "");
      // Replay opens at the position shown, to play on from it move by move.
      replayLink.setAttribute("href", `/replay/${id}?ply=${ply}`);
      // The analysis board opens on it too, to try other moves there.
      analyseLink.setAttribute("href", analysisHref(s));
      announce(caption.textContent);
    }
    const replayLink = el("a", { class: "button", id: "review-replay", href: "/replay/" + id, "data-nav": true }, t("game.replay"));
    const analyseLink = el("a", { class: "button", id: "review-analyse", href: "/analysis?game=" + r.game, "data-nav": true }, t("analysis.open"));
    const keyButton = el("button", { id: "next-key", disabled: !keys.length, onclick: () => { keyAt = (keyAt + 1) % keys.length; select(keys[keyAt]); } }, t("review.next_key"));
    body.replaceChildren(sideCards(r), reviewOf(r).dice && facts ? diceCard(r, facts) : "",
      // The game's words, explained in place as on the game page.
      termsRow(TERMS[r.game] || []),
      el("section", { class: "card spaced" }, el("h2", {}, t("review.key")),
        keys.length ? el("p", {}, keys.map((k) => el("button", { class: "key", onclick: () => select(k) }, number.place(k))), " ", keyButton)
          : el("p", { class: "muted" }, t("review.none")),
        el("p", { class: "muted", id: "graph-caption" }, t("review.graph", { side: t("side." + (reviewOf(r).firstSide)) })),
        graph(r, select, number)),
      el("div", { class: "game spaced" }, el("div", { class: "boardwrap" }, boardWrap, caption,
        legend),
        el("aside", { class: "side", "aria-labelledby": "graded-title" }, el("h2", { id: "graded-title" }, t(reviewOf(r).listTitle)),
          el("p", { class: "muted" }, t("review.legend")),
          el("p", {}, el("a", { href: "/strategy#strategy-" + r.game, "data-nav": true, id: "review-strategy" }, t("strategy.why"))),
          moveList(r, select, number),
          el("div", { class: "row" }, replayLink, analyseLink, openGameLink(id)))));
    window.agonReview = r;
    select(keys.length ? keys[0] : 0);
  };
  const progress = (d, total) => {
    status.replaceChildren(el("label", { for: "review-progress" }, t("review.running", { done: d, total })),
      el("progress", { id: "review-progress", max: Math.max(total, 1), value: d }));
  };
  async function ask() {
    if (done) return;
    const res = await fetch(`/api/games/${id}/review`);
    const data = await res.json();
    if (res.status === 200) return show(data);
    if (res.status === 202) { progress(data.done, data.total); return; }
    if (data.code === "game-not-found") { main.replaceChildren(); return notFoundPage(main, true); }
    status.replaceChildren(el("p", { class: "result", id: "review-error" }, data.code ? t("err." + data.code) : data.error),
      // An unfinished game: the way back to it, to finish it.
      data.code === "game-not-over" ? el("div", { class: "row" }, openGameLink(id)) : "");
    done = true;
  }
  await ask();
  if (done) return;
  // Progress comes over the game's WebSocket (opened again after a drop);
  // a slow poll covers the time it is away.
  socket = keepSocket(`/api/games/${id}/ws`, {
    onMessage: (msg) => {
      if (msg.type !== "review") return;
      if (msg.ready) ask(); else progress(msg.done, msg.total);
    },
  });
  const timer = setInterval(ask, 2000);
  onLeave(() => { done = true; clearInterval(timer); if (socket) socket.close(); });
}
