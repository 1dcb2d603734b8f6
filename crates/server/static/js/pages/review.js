// The review of a finished game: each side's accuracy (Ringo) or error rate,
// rating and luck (Urgammon); the win-chance graph, whose points open the
// position before that move; the graded move list; the key moments.
import { el, sv, announce } from "../dom.js";
import { t } from "../../i18n.js";
import { api, socketUrl } from "../api.js";
import { onLeave } from "../router.js";
import { ringoBoard } from "../boards/ringo.js";
import { urgammonBoard } from "../boards/urgammon.js";
import { arrowsFor } from "../boards/arrows.js";
import { notFoundPage } from "./notfound.js";
import { openGameLink } from "../panels/common.js";

const pct = (x) => Math.round(100 * x);

/** The graph's points: `{ply, win, label}` with the first side's win chance. */
function points(r) {
  if (r.game === "ringo") {
    return r.plies.map((p) => ({
      ply: p.ply,
      win: p.side === "attackers" ? p.win : 1 - p.win,
      label: t("review.point", { n: p.ply + 1, move: p.played + p.symbol, side: t("side.attackers"), win: pct(p.side === "attackers" ? p.win : 1 - p.win) }),
    }));
  }
  const played = Object.fromEntries(r.decisions.map((d) => [d.ply, d.played + d.symbol]));
  return r.win_curve.map((c) => ({ ply: c.ply, win: c.win, label: t("review.point", { n: c.ply + 1, move: played[c.ply] ?? "", side: t("side.light"), win: pct(c.win) }) }));
}

function graph(r, select) {
  const pts = points(r);
  const W = 600, H = 180, L = 64, n = Math.max(pts.length - 1, 1);
  // Room above 100% and below 0% for half a scale label (13 px, 26 on a
  // phone): the phone's "100%" stood half outside the frame.
  const x = (i) => L + (i * (W - L - 10)) / n, y = (w) => 18 + (1 - w) * (H - 36);
  const first = r.game === "ringo" ? "attackers" : "light";
  // The scale is drawn: without it the curve said nothing of whose chance
  // it is or how large (the name was only in the label a screen reader reads).
  const svg = sv("svg", { class: "graph", viewBox: `0 0 ${W} ${H}`, role: "group", "aria-labelledby": "graph-caption", id: "win-graph" },
    ...[1, 0.5, 0].map((w) => sv("text", { class: "scale", x: L - 8, y: y(w), "aria-hidden": "true" }, pct(w) + "%")),
    sv("line", { class: "mid", x1: L, x2: W - 10, y1: y(0.5), y2: y(0.5) }),
    sv("polyline", { class: "curve", points: pts.map((p, i) => `${x(i)},${y(p.win)}`).join(" ") }));
  pts.forEach((p, i) => {
    svg.append(sv("circle", { class: "pt", cx: x(i), cy: y(p.win), r: 6, tabindex: 0, role: "button", "aria-label": p.label, "data-ply": p.ply,
      onclick: () => select(p.ply), onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); select(p.ply); } } },
    sv("title", {}, p.label)));
  });
  return svg;
}

function sideCards(r) {
  if (r.game === "ringo") {
    return el("div", { class: "cards", id: "review-summary" }, ["attackers", "defenders"].map((s) => el("div", { class: "card", "data-side": s },
      el("h2", {}, t("Side." + s)),
      el("p", {}, t("review.accuracy") + ": ", el("b", { class: "accuracy" }, r.accuracy[s] ?? "–")),
      el("p", {}, t("review.mean_loss") + ": ", el("b", {}, r.mean_loss[s] == null ? "–" : r.mean_loss[s].toFixed(2))))));
  }
  return el("div", { class: "cards", id: "review-summary" }, ["light", "dark"].map((s) => el("div", { class: "card", "data-side": s },
    el("h2", {}, t("Side." + s)),
    el("p", {}, t("review.error_rate") + ": ", el("b", { class: "error-rate" }, r.error_rate[s].toFixed(1))),
    el("p", {}, t("review.rating") + ": ", el("b", {}, t("rating." + r.rating[s].toLowerCase().replace(/ /g, "-")))),
    el("p", {}, t("review.luck") + ": ", el("b", {}, r.luck[s])),
    el("p", {}, t("review.luck_adjusted") + ": ", el("b", {}, r.luck_adjusted[s])))));
}

function moveList(r, select) {
  const list = el("ol", { class: "moves graded", id: "graded" });
  if (r.game === "ringo") {
    for (const p of r.plies) {
      const proven = p.proven ? " · " + t("review.proven", { side: t("side." + p.proven.winner), n: p.proven.plies }) : "";
      list.append(el("li", { class: "g-" + p.grade, "data-ply": p.ply, onclick: () => select(p.ply) },
        el("span", { class: "num" }, (p.ply + 1) + "."),
        el("span", {}, t("Side." + p.side) + " ", el("b", { class: "mv" }, p.played + p.symbol), " — " + t("grade." + p.grade)
          + (p.played !== p.best && p.grade !== "best" ? " (" + t("review.best", { move: p.best }) + ", −" + p.loss + ")" : "") + proven)));
    }
  } else {
    for (const d of r.decisions.filter((d) => !d.trivial)) {
      list.append(el("li", { class: "g-" + d.grade, "data-ply": d.ply, onclick: () => select(d.ply) },
        el("span", { class: "num" }, (d.ply + 1) + "."),
        el("span", {}, t("Side." + d.side) + " ", el("b", { class: "mv" }, d.played + d.symbol), " — " + t("grade." + d.grade)
          + (d.grade !== "best" ? " (" + t("review.best", { move: d.best }) + ", −" + d.equity_loss + ")" : ""))));
    }
  }
  return list;
}

/** The plies worth stopping at: Ringo's key moments, Urgammon's five worst decisions. */
function keyMoments(r) {
  if (r.game === "ringo") return r.key;
  return r.decisions.filter((d) => !d.trivial && d.equity_loss > 0).sort((a, b) => b.equity_loss - a.equity_loss).slice(0, 5).map((d) => d.ply).sort((a, b) => a - b);
}

export async function reviewPage(main, id) {
  main.append(el("h1", {}, t("review.title")));
  const status = el("div", { id: "review-status", role: "status" });
  const body = el("div", { id: "review-body" });
  main.append(status, body);
  let socket = null, done = false;
  const show = (r) => {
    done = true;
    status.replaceChildren();
    const view = { id, you: [], state: null, selected: null };
    const boardWrap = el("div", { id: "review-board" });
    const caption = el("p", { class: "muted", id: "review-caption" });
    // What the arrows on the board mean, for the arrows drawn.
    const legend = el("p", { class: "muted", id: "arrow-legend" });
    const keys = keyMoments(r);
    let keyAt = -1;
    async function select(ply) {
      const s = await api("GET", `/api/games/${id}/at/${ply}`);
      view.state = s;
      window.agonState = s;
      // The move played and, when it was not the best, the best one, as
      // arrows on the position before it (the best first, so a best move
      // played shows as one green arrow).
      const entry = (r.game === "ringo" ? r.plies : r.decisions).find((e) => e.ply === ply);
      view.arrows = entry ? arrowsFor(s, [
        { notation: entry.best, kind: "best", label: t("review.best", { move: entry.best }) },
        { notation: entry.played, kind: "played", label: entry.played + entry.symbol },
      ]) : [];
      legend.replaceChildren(...["best", "played"].filter((k) => view.arrows.some((a) => a.kind === k))
        .flatMap((k) => [el("span", { class: "arrow-key " + k, "aria-hidden": "true" }), k === "best" ? t("review.arrow_best") : t("review.arrow_played")]));
      boardWrap.replaceChildren(s.game === "ringo" ? ringoBoard(view, () => {}, () => {}, false) : urgammonBoard(view, () => {}, false));
      body.querySelectorAll("[data-ply].current").forEach((e) => e.classList.remove("current"));
      body.querySelectorAll(`[data-ply="${ply}"]`).forEach((e) => e.classList.add("current"));
      const row = body.querySelector(`#graded [data-ply="${ply}"]`);
      if (row) row.scrollIntoView({ block: "nearest" });
      caption.textContent = t("review.position") + " " + (ply + 1) + (row ? ": " + row.innerText.replace(/^\d+\.\s*/, "") : "");
      announce(caption.textContent);
    }
    const keyButton = el("button", { id: "next-key", disabled: !keys.length, onclick: () => { keyAt = (keyAt + 1) % keys.length; select(keys[keyAt]); } }, t("review.next_key"));
    body.replaceChildren(sideCards(r),
      el("section", { class: "card spaced" }, el("h2", {}, t("review.key")),
        keys.length ? el("p", {}, keys.map((k) => el("button", { class: "key", onclick: () => select(k) }, String(k + 1))), " ", keyButton)
          : el("p", { class: "muted" }, t("review.none")),
        el("p", { class: "muted", id: "graph-caption" }, t("review.graph", { side: t("side." + (r.game === "ringo" ? "attackers" : "light")) })),
        graph(r, select)),
      el("div", { class: "game spaced" }, el("div", { class: "boardwrap" }, boardWrap, caption,
        legend),
        el("aside", { class: "side", "aria-labelledby": "graded-title" }, el("h2", { id: "graded-title" }, t(r.game === "ringo" ? "review.moves" : "review.decisions")),
          el("p", { class: "muted" }, t("review.legend")), moveList(r, select),
          el("div", { class: "row" }, el("a", { class: "button", href: "/replay/" + id, "data-nav": true }, t("game.replay")),
            openGameLink(id)))));
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
  // Progress comes over the game's WebSocket; a slow poll covers a lost socket.
  socket = new WebSocket(socketUrl(id));
  socket.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type !== "review") return;
    if (msg.ready) ask(); else progress(msg.done, msg.total);
  };
  const timer = setInterval(ask, 2000);
  onLeave(() => { done = true; clearInterval(timer); if (socket) socket.close(); });
}
