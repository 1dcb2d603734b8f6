// Agon's browser front end: plain JS, no build step. Pages: new game, game
// (Ringo or Urgammon board), games list, replay, rules. The server checks every
// action; this code only draws the state it is sent and posts what is clicked.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const main = document.getElementById("main");

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c.nodeType ? c : String(c));
  return e;
}

function sv(tag, attrs, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c.nodeType ? c : document.createTextNode(String(c)));
  return e;
}

function toast(msg) {
  const box = document.getElementById("toast");
  box.textContent = msg;
  box.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.remove("show"), 3500);
}

const tokenKey = (id) => "agon-token-" + id;
const inviteKey = (id) => "agon-invite-" + id;

async function api(method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers["x-agon-token"] = token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Error(t("err.network", { e: e.message }));
  }
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

// ---------- routing ----------

let cleanup = null;

function navigate(path) {
  history.pushState({}, "", path);
  route();
}

function route() {
  if (cleanup) { cleanup(); cleanup = null; }
  main.replaceChildren();
  document.querySelectorAll("[data-i18n]").forEach((e) => (e.textContent = t(e.dataset.i18n)));
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/g\/([a-z0-9]+)$/))) return gamePage(m[1]);
  if ((m = path.match(/^\/replay\/([a-z0-9]+)$/))) return replayPage(m[1]);
  if (path === "/games") return gamesPage();
  if (path === "/rules") return rulesPage();
  return homePage();
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-nav]");
  if (a && !e.ctrlKey && !e.metaKey) { e.preventDefault(); navigate(a.getAttribute("href")); }
});
window.addEventListener("popstate", route);

const langSelect = document.getElementById("lang");
langSelect.value = LANG;
langSelect.addEventListener("change", () => { setLang(langSelect.value); route(); });

// ---------- home: a new game ----------

let META = null;
async function meta() {
  if (!META) META = await api("GET", "/api/meta");
  return META;
}

async function homePage() {
  const m = await meta();
  const form = { game: localStorage.getItem("agon-last-game") || "ringo" };
  const presets = Object.fromEntries(m.ringo.presets.map((p) => [p.name, p.options]));
  const wrap = el("div", {});
  main.append(wrap);

  function radio(name, value, label, checked, onchange) {
    return el("label", {}, el("input", { type: "radio", name, value, checked, onchange }), label);
  }

  function draw() {
    wrap.replaceChildren();
    const gameChoice = el("div", { class: "cards" },
      ["ringo", "urgammon"].map((g) =>
        el("label", { class: "card", "data-game": g },
          el("input", { type: "radio", name: "game", value: g, checked: form.game === g,
            onchange: () => { form.game = g; localStorage.setItem("agon-last-game", g); draw(); } }),
          el("b", {}, t("home." + g)), el("p", { class: "muted" }, t("home." + g + "_desc")))));
    wrap.append(el("h1", {}, t("home.title")), gameChoice);

    const settings = el("div", { class: "card" });
    if (form.game === "ringo") {
      const presetSel = el("select", { id: "preset" }, Object.keys(presets).map((p) => el("option", { value: p }, p)));
      presetSel.value = form.preset || "classic";
      const opts = el("div", {});
      const fill = () => {
        opts.replaceChildren();
        const base = presets[presetSel.value];
        for (const o of m.ringo.options) {
          const sel = el("select", { "data-opt": o.key }, o.values.map((v) => el("option", { value: v }, v)));
          sel.value = base[o.key];
          opts.append(el("div", { class: "opt" }, el("label", {}, o.key), sel,
            el("small", {}, t("opt." + o.key) + " — " + OPTION_SOURCES[o.key])));
        }
      };
      presetSel.addEventListener("change", () => { form.preset = presetSel.value; fill(); });
      fill();
      settings.append(el("h3", {}, t("home.preset")), presetSel, el("h3", {}, t("home.options")), opts);
    } else {
      settings.append(
        el("div", { class: "opt" }, el("label", { for: "match-to" }, t("home.match_to")), el("input", { id: "match-to", type: "number", min: 1, max: 99, value: 7 })),
        el("div", { class: "opt" }, el("label", { for: "draw" }, t("home.draw")),
          el("select", { id: "draw" }, el("option", { value: "replay" }, t("draw.replay")), el("option", { value: "end" }, t("draw.end")))),
        el("div", { class: "opt" }, el("label", { for: "stake" }, t("home.stake")), el("input", { id: "stake", type: "text", inputmode: "decimal", placeholder: "10" })));
    }
    const sides = form.game === "ringo" ? ["attackers", "defenders", "random"] : ["light", "dark", "random"];
    form.opponent = form.opponent || "engine";
    const level = el("input", { id: "level", type: "range", min: 1, max: 10, value: form.level || 3,
      oninput: (e) => { form.level = e.target.value; levelOut.textContent = e.target.value; } });
    const levelOut = el("output", {}, form.level || 3);
    const who = el("div", { class: "card" },
      el("h3", {}, t("home.opponent")),
      el("div", { class: "choice" }, ["engine", "friend", "local"].map((o) =>
        radio("opponent", o, t("opp." + o), form.opponent === o, () => { form.opponent = o; draw(); }))),
      form.opponent === "engine" ? el("div", { class: "row" }, el("label", { for: "level" }, t("home.level")), level, levelOut) : null,
      form.opponent === "engine" ? el("p", { class: "muted" }, t("home.engine_note")) : null,
      form.opponent !== "local" ? el("h3", {}, t("home.side")) : null,
      form.opponent !== "local" ? el("div", { class: "choice" }, sides.map((s, i) =>
        radio("side", s, t("side." + s), i === 0, null))) : null,
      el("div", { class: "row" }, el("button", { class: "primary", id: "start", onclick: start }, t("home.start"))));
    wrap.append(el("div", { class: "cards" }, settings, who));

    const record = el("textarea", { id: "import-record", rows: 3, style: "width:100%" });
    wrap.append(el("div", { class: "card", style: "margin-top:1rem" },
      el("h3", {}, t("home.import")), el("p", { class: "muted" }, t("home.import_help")), record,
      el("div", { class: "row" }, el("button", { id: "import", onclick: async () => {
        try {
          const r = await api("POST", "/api/import", { game: form.game, record: record.value });
          localStorage.setItem(tokenKey(r.id), r.token);
          navigate("/g/" + r.id);
        } catch (e) { toast(e.message); }
      } }, t("home.import_btn")))));
  }

  async function start() {
    const body = { game: form.game, opponent: form.opponent };
    if (form.game === "ringo") {
      const preset = document.getElementById("preset").value;
      const base = presets[preset];
      const changed = [...document.querySelectorAll("[data-opt]")].filter((s) => s.value !== base[s.dataset.opt])
        .map((s) => s.dataset.opt + "=" + s.value);
      body.rules = [preset, ...changed].join(",");
    } else {
      body.to = Number(document.getElementById("match-to").value);
      body.draw = document.getElementById("draw").value;
      const stake = document.getElementById("stake").value.trim();
      if (stake) body.stake = stake;
    }
    if (form.opponent === "engine") body.level = Number(document.getElementById("level").value);
    const side = document.querySelector("input[name=side]:checked");
    if (side) body.side = side.value;
    try {
      const r = await api("POST", "/api/games", body);
      localStorage.setItem(tokenKey(r.id), r.token);
      if (r.invite) localStorage.setItem(inviteKey(r.id), r.invite);
      navigate("/g/" + r.id);
    } catch (e) { toast(e.message); }
  }
  draw();
}

// ---------- the game page ----------

/** Exchanges a one-time invite (or seat-link) code for a seat token. */
async function claimInvite(id, code) {
  try {
    const r = await api("POST", `/api/games/${id}/join`, { invite: code });
    localStorage.setItem(tokenKey(id), r.token);
    toast(t("game.joined"));
  } catch (e) {
    toast(t("game.invite_used"));
  }
}

async function gamePage(id) {
  const params = new URLSearchParams(location.search);
  if (params.get("invite") || params.get("t")) {
    // An invite or seat link: drop its secret from the address bar first.
    history.replaceState({}, "", "/g/" + id);
    if (params.get("t")) localStorage.setItem(tokenKey(id), params.get("t"));
    else await claimInvite(id, params.get("invite"));
  }
  const token = localStorage.getItem(tokenKey(id));
  const view = { id, token, you: [], state: null, selected: null, socket: null, closed: false, presence: [false, false] };
  const boardWrap = el("div", { class: "boardwrap" });
  const side = el("aside", { class: "side" });
  const conn = el("div", { class: "conn off" }, t("game.reconnecting"));
  main.append(el("div", { class: "game" }, boardWrap, side));
  view.rerender = () => render();

  const render = () => {
    const s = view.state;
    if (!s) return;
    window.agonState = s;
    window.agonYou = view.you;
    window.agonPresence = view.presence;
    boardWrap.replaceChildren(s.game === "ringo" ? ringoBoard(view, send) : urgammonBoard(view, send));
    side.replaceChildren(...(s.game === "ringo" ? ringoPanel(view, send) : urgammonPanel(view, send)), conn);
  };

  // Every action names the revision the player saw, so a click on a board
  // that has changed meanwhile is refused rather than applied elsewhere.
  async function send(action) {
    try {
      const body = { ...action, expect_revision: view.state ? view.state.revision : undefined };
      const r = await api("POST", `/api/games/${id}/action`, body, token);
      view.selected = null;
      if (r.rematch) return goToRematch(r.rematch, r.invite);
      accept(r.state);
    } catch (e) {
      toast(e.message);
      view.selected = null;
      refresh();
    }
  }
  view.send = send;

  function goToRematch(next, invite) {
    if (view.closed) return;
    if (token) localStorage.setItem(tokenKey(next), token);
    if (invite) localStorage.setItem(inviteKey(next), invite);
    navigate("/g/" + next);
  }

  // Any state with a higher revision replaces the one shown, whatever its
  // length: an Undo has fewer tokens and a higher revision.
  function accept(state) {
    if (view.state && state.revision < view.state.revision) return;
    // The same state again (the page's read and the socket's first message):
    // nothing to redraw, and redrawing could swallow a click in progress.
    if (view.state && state.revision === view.state.revision
      && JSON.stringify(state) === JSON.stringify(view.state)) return;
    const before = view.state;
    view.prev = before;
    view.state = state;
    render();
    // The other player asked for a rematch while we watched: go there too.
    if (state.rematch && before && !before.rematch && view.you.length) goToRematch(state.rematch);
  }

  // A fresh read also brings the seats and presence, which may have changed
  // with the same state: it always redraws.
  function refresh() {
    return api("GET", `/api/games/${id}`, undefined, token).then((r) => {
      view.you = r.you;
      window.agonYou = r.you;
      view.presence = r.presence || view.presence;
      if (view.state && r.state.revision <= view.state.revision) render();
      else accept(r.state);
    });
  }
  refresh().catch((e) => { main.replaceChildren(el("p", {}, e.message)); });

  let retry = 500;
  function connect() {
    if (view.closed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/api/games/${id}/ws`);
    view.socket = ws;
    window.agonSocket = ws; // lets tests drop the connection and watch it catch up
    ws.onopen = () => {
      retry = 500; conn.textContent = "● " + t("game.connected"); conn.className = "conn";
      // Say who we are (never in the URL), so our seat shows as connected.
      if (token) ws.send(JSON.stringify({ type: "hello", token }));
    };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === "state") accept(msg.state);
      else if (msg.type === "presence") {
        // Only the presence line changes: redrawing the board here could
        // swallow a click in progress.
        view.presence = msg.seats;
        window.agonPresence = msg.seats;
        const line = document.getElementById("presence");
        if (line && view.state) line.replaceWith(presenceBlock(view));
      }
    };
    ws.onclose = () => {
      conn.textContent = t("game.reconnecting"); conn.className = "conn off";
      if (!view.closed) setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }
  connect();
  cleanup = () => { view.closed = true; if (view.socket) view.socket.close(); };
}

function canAct(view) {
  const s = view.state;
  return s && !s.over && s.seat_to_act !== null && view.you.includes(s.seat_to_act);
}

function sideName(s, seat) { return t("Side." + s.seat_names[seat]); }

/** Undo, only when one of your seats has a decision to take back. */
function canUndo(view) {
  const s = view.state;
  return !!s.undoable && view.you.some((seat) => s.undoable[seat]);
}

/** Who sits where, and whether they are connected. */
function presenceBlock(view) {
  const s = view.state;
  return el("div", { class: "presence", id: "presence" }, el("small", { class: "muted" }, t("game.presence") + ": "),
    [0, 1].map((seat) => {
      const name = t("Side." + s.seat_names[seat]);
      let status, on = false;
      if (s.engine_seat === seat) status = t("game.computer");
      else if (s.seated && !s.seated[seat]) status = t("game.seat_free");
      else { on = !!view.presence[seat]; status = on ? t("game.present") : t("game.absent"); }
      return el("span", { class: "seat " + (on ? "on" : "off"), "data-seat": seat, "data-present": on ? "yes" : "no" },
        (on ? "● " : "○ ") + name + " — " + status + " ");
    }));
}

function commonLinks(view, send) {
  const s = view.state;
  const out = [];
  const row = el("div", { class: "row" });
  if (canUndo(view)) row.append(el("button", { id: "undo", onclick: () => send({ type: "undo" }) }, t("game.undo")));
  if (view.you.length && !s.over) {
    const resign = el("button", { id: "resign", onclick: () => {
      if (resign.dataset.armed) return send({ type: "resign" });
      resign.dataset.armed = "1"; resign.textContent = t("game.resign_confirm"); resign.classList.add("danger");
    } }, t("game.resign"));
    row.append(resign);
  }
  if (view.you.length && s.over) row.append(el("button", { id: "rematch", class: "primary", onclick: () => send({ type: "rematch" }) }, t("game.rematch")));
  if (!view.you.length && s.rematch) row.append(el("a", { class: "button", id: "rematch-link", href: "/g/" + s.rematch, "data-nav": true }, t("game.rematch_watch")));
  row.append(el("a", { class: "button", href: `/api/games/${s.id}/record`, download: true }, t("game.export")),
    el("a", { class: "button", href: `/replay/${s.id}`, "data-nav": true }, t("game.replay")));
  out.push(row);
  out.push(presenceBlock(view));
  const invite = localStorage.getItem(inviteKey(s.id));
  const free = s.seated ? s.seated.indexOf(false) : -1;
  if (s.mode === "friend" && invite && free >= 0 && view.you.length) {
    const link = `${location.origin}/g/${s.id}?invite=${invite}`;
    out.push(el("div", { class: "invite" }, el("h3", {}, t("game.invite")),
      el("input", { id: "invite-link", readonly: true, value: link, onclick: (e) => e.target.select() }),
      el("p", { class: "muted" }, t("game.invite_help"))));
  }
  out.push(el("div", { class: "invite" }, el("small", { class: "muted" }, t("game.watch_link") + ": "),
    el("input", { id: "watch-link", readonly: true, value: `${location.origin}/g/${s.id}`, onclick: (e) => e.target.select() })));
  if (view.you.length && !s.over) {
    const box = el("div", { class: "invite", id: "seat-link-box" });
    if (view.seatLink) {
      box.append(el("input", { id: "seat-link", readonly: true, value: location.origin + view.seatLink, onclick: (e) => e.target.select() }),
        el("p", { class: "muted" }, t("game.seat_link_help")));
    } else {
      box.append(el("button", { id: "seat-link-btn", onclick: async () => {
        try {
          const r = await api("POST", `/api/games/${s.id}/seat-link`, {}, view.token);
          view.seatLink = r.url;
          view.rerender();
        } catch (e) { toast(e.message); }
      } }, t("game.seat_link")));
    }
    out.push(box);
  }
  return out;
}

function whoLine(view) {
  const s = view.state;
  if (!view.you.length) return el("p", { class: "muted", id: "role" }, t("game.spectating"));
  if (view.you.length === 2) return el("p", { class: "muted", id: "role" }, t("game.you_play_both"));
  return el("p", { class: "muted", id: "role" }, t("game.you_play", { side: t("side." + s.seat_names[view.you[0]]) }));
}

// ---------- Ringo ----------

const SECTORS = "abcdefgh";

function parseRingoMove(text) {
  if (text === "pass") return { pass: true, text };
  let rest = text.slice(3), captured = null;
  const p = rest.indexOf("(");
  if (p >= 0) { captured = rest.slice(p + 1, -1); rest = rest.slice(0, p); }
  return { from: text.slice(0, 2), to: rest, capture: text[2] === "x", captured, text };
}

function parseRingoPosition(pos) {
  const [rings, fortress, side] = pos.split(" ");
  const cells = {};
  const parts = rings.split("/");
  parts.forEach((ring, i) => {
    const r = parts.length - i;
    [...ring].forEach((ch, s) => { if (ch !== ".") cells[SECTORS[s] + r] = ch; });
  });
  return { cells, fortress: Number(fortress), side };
}

function ringoBoard(view, send) {
  const s = view.state;
  const R = s.rings, r0 = 46, w = (262 - r0) / R;
  const pos = parseRingoPosition(s.position);
  const mine = canAct(view);
  const legal = mine ? s.moves.map(parseRingoMove) : [];
  const sel = view.selected;
  const targets = sel ? legal.filter((m) => m.from === sel) : [];
  const last = s.last_move || {};
  const svg = sv("svg", { class: "board ringo", viewBox: "-290 -290 580 580", role: "img", "aria-label": "Ringo board" });
  const pt = (rad, deg) => [rad * Math.cos(deg * Math.PI / 180), rad * Math.sin(deg * Math.PI / 180)];
  const click = (cell) => {
    if (!mine) return;
    if (sel) {
      const cands = targets.filter((m) => m.to === cell);
      if (cands.length === 1) return send({ type: "move", move: cands[0].text });
      if (cands.length > 1) { view.chooser = cands; view.selected = sel; return rerender(); }
    }
    const own = s.to_move === "attackers" ? "A" : "D";
    view.selected = pos.cells[cell] === own && legal.some((m) => m.from === cell) ? cell : null;
    view.chooser = null;
    rerender();
  };
  const rerender = () => { const b = svg.parentNode; if (b) b.replaceChildren(ringoBoard(view, send)); refreshChooser(view, send); };
  for (let ring = 1; ring <= R; ring++) {
    for (let sec = 0; sec < 8; sec++) {
      const cell = SECTORS[sec] + ring;
      const ri = r0 + (ring - 1) * w, ro = ri + w, c = -90 + sec * 45, a0 = c - 22.5, a1 = c + 22.5;
      const [x0, y0] = pt(ri, a0), [x1, y1] = pt(ro, a0), [x2, y2] = pt(ro, a1), [x3, y3] = pt(ri, a1);
      const colour = sec === 0 ? "nz" : (sec + ring) % 2 === 0 ? "light" : "dark";
      const classes = ["cell", colour];
      if (last.from === cell || last.to === cell) classes.push("last");
      if (targets.some((m) => m.to === cell)) classes.push("target");
      if (sel === cell) classes.push("selected");
      const [cx, cy] = pt((ri + ro) / 2, c);
      svg.append(sv("path", {
        class: classes.join(" "), "data-cell": cell, "data-cx": cx.toFixed(1), "data-cy": cy.toFixed(1),
        d: `M${x0},${y0} L${x1},${y1} A${ro},${ro} 0 0 1 ${x2},${y2} L${x3},${y3} A${ri},${ri} 0 0 0 ${x0},${y0} Z`,
        onclick: () => click(cell),
      }, sv("title", {}, cell)));
      const piece = pos.cells[cell];
      if (piece) {
        const [px, py] = pt((ri + ro) / 2, c);
        svg.append(sv("circle", { class: "piece " + (piece === "A" ? "att" : "def"), cx: px, cy: py, r: Math.min(w * 0.36, 15),
          "data-piece": cell, onclick: () => click(cell) }));
      }
    }
  }
  for (let sec = 0; sec < 8; sec++) {
    const [x, y] = pt(r0 + R * w + 14, -90 + sec * 45);
    svg.append(sv("text", { class: "label", x, y }, SECTORS[sec]));
  }
  for (let ring = 1; ring <= R; ring++) {
    const [x, y] = pt(r0 + (ring - 0.5) * w, -90 - 22.5);
    svg.append(sv("text", { class: "label", x, y, style: "font-size:10px" }, ring));
  }
  const fClasses = ["fortress"];
  if (targets.some((m) => m.to === "F")) fClasses.push("target");
  if (last.to === "F") fClasses.push("last");
  svg.append(sv("circle", { class: fClasses.join(" "), cx: 0, cy: 0, r: r0 - 4, "data-cell": "F", onclick: () => click("F") },
    sv("title", {}, t("game.fortress"))));
  for (let i = 0; i < pos.fortress; i++) {
    svg.append(sv("circle", { class: "piece att", cx: pos.fortress === 1 ? 0 : (i ? 14 : -14), cy: 0, r: 12, "data-piece": "F", onclick: () => click("F") }));
  }
  return svg;
}

function refreshChooser(view, send) {
  const box = document.getElementById("chooser");
  if (!box) return;
  box.replaceChildren();
  if (view.chooser) {
    box.append(el("span", {}, t("game.choose_capture")),
      view.chooser.map((m) => el("button", { onclick: () => send({ type: "move", move: m.text }) }, m.text)));
  }
}

function ringoPanel(view, send) {
  const s = view.state;
  const out = [el("h2", {}, "Ringo"), el("div", { class: "muted" }, s.rules)];
  out.push(whoLine(view));
  if (s.status !== "ongoing") {
    const winner = s.status === "attackers-win" ? "attackers" : s.status === "defenders-win" ? "defenders" : null;
    out.push(el("div", { class: "result", id: "result" },
      el("b", {}, winner ? t("game.won", { side: t("side." + winner) }) : t("game.draw")), " — ",
      s.resigned ? t("game.resigned", { side: t("side." + s.resigned) }) : t("reason." + s.reason)));
  } else {
    const turn = canAct(view) ? t("game.your_turn", { side: t("side." + s.to_move) }) : t("game.to_move", { side: t("Side." + s.to_move) });
    out.push(el("div", { class: "status", id: "turn" }, turn));
    if (s.mode === "engine" && !canAct(view) && view.you.length) out.push(el("div", { class: "muted" }, t("game.engine_thinking")));
  }
  const chooser = el("div", { class: "chooser", id: "chooser" });
  out.push(chooser);
  setTimeout(() => refreshChooser(view, send));
  if (canAct(view) && s.moves.includes("pass")) out.push(el("button", { id: "pass", onclick: () => send({ type: "move", move: "pass" }) }, t("game.pass")));
  out.push(el("div", {}, t("game.captured") + ": ", t("side.attackers") + " " + s.captured.attackers + ", " + t("side.defenders") + " " + s.captured.defenders));
  out.push(el("h3", {}, t("game.moves")));
  const list = el("div", { class: "moves", id: "move-list" });
  for (let i = 0; i < s.history.length; i += 2) {
    list.append(el("div", {}, el("span", {}, `${i / 2 + 1}. ${s.history[i]}`), s.history[i + 1] ? el("span", {}, s.history[i + 1]) : null));
  }
  out.push(list);
  setTimeout(() => { list.scrollTop = list.scrollHeight; });
  out.push(...commonLinks(view, send));
  return out;
}

// ---------- Urgammon ----------

const HOUSE_GRID = {
  "4a": [0, 0], "3a": [0, 1], "2a": [0, 2], "1a": [0, 3], "12a": [0, 6], "13a": [0, 7],
  "5": [1, 0], "6": [1, 1], "7": [1, 2], "8": [1, 3], "9": [1, 4], "10": [1, 5], "11": [1, 6], "14": [1, 7],
  "4b": [2, 0], "3b": [2, 1], "2b": [2, 2], "1b": [2, 3], "12b": [2, 6], "13b": [2, 7],
};
const ROSETTES = ["4a", "4b", "8", "12a", "12b"];

function parseUrMove(text) {
  const m = text.match(/^([PCH]|\d+[ab]?)([-x])(\d+[ab]?|off)$/);
  return m ? { from: m[1], to: m[3], capture: m[2] === "x", text } : null;
}

function valueName(v) {
  return v === 1 ? t("ur.v1") : v === 4 ? t("ur.v4") : v === 10 ? t("ur.v10") : String(v);
}

function pieceShape(kind, side, cx, cy, size, attrs) {
  const cls = "upiece " + side;
  let shape;
  if (kind === "P") shape = sv("circle", { class: cls, cx, cy, r: size * 0.42, ...attrs });
  else if (kind === "C") shape = sv("rect", { class: cls, x: cx - size * 0.4, y: cy - size * 0.4, width: size * 0.8, height: size * 0.8, rx: size * 0.12, ...attrs });
  else {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 ? size * 0.22 : size * 0.5, a = -Math.PI / 2 + i * Math.PI / 5;
      pts.push(`${cx + r * Math.cos(a)},${cy + r * Math.sin(a)}`);
    }
    shape = sv("polygon", { class: cls, points: pts.join(" "), ...attrs });
  }
  return [shape, sv("text", { class: "upiece-letter " + side, x: cx, y: cy }, kind)];
}

function urgammonBoard(view, send) {
  const s = view.state;
  const C = 80, top = 100, mine = canAct(view) && (s.phase === "move" || s.phase === "decide");
  const legal = mine ? s.moves.map(parseUrMove).filter(Boolean) : [];
  const sel = view.selected;
  const targets = sel ? legal.filter((m) => m.from === sel) : [];
  const actSide = s.to_act === "light" ? "l" : "d";
  const svg = sv("svg", { class: "board urgammon", viewBox: `-10 -10 ${8 * C + 20} ${3 * C + 2 * top + 20}`, role: "img", "aria-label": "Urgammon board" });
  const rerender = () => { const b = svg.parentNode; if (b) b.replaceChildren(urgammonBoard(view, send)); };
  const click = (from, to) => {
    if (!mine) return;
    if (sel && to) {
      const m = targets.find((x) => x.to === to);
      if (m) return send({ type: "move", move: m.text });
    }
    view.selected = from && legal.some((m) => m.from === from) ? from : null;
    rerender();
  };
  const occupant = {};
  for (const side of ["light", "dark"]) for (const [h, k] of Object.entries(s[side].board)) occupant[h] = [side[0], k];
  const last = s.last_move || {};
  for (const [house, [row, col]] of Object.entries(HOUSE_GRID)) {
    const x = col * C, y = top + row * C;
    const classes = ["house"];
    if (ROSETTES.includes(house)) classes.push("rosette");
    if (targets.some((m) => m.to === house)) classes.push("target");
    if (last.from === house || last.to === house) classes.push("last");
    if (sel === house) classes.push("selected");
    const occ = occupant[house];
    const onclick = () => click(occ && occ[0] === actSide ? house : null, house);
    svg.append(sv("rect", { class: classes.join(" "), x: x + 2, y: y + 2, width: C - 4, height: C - 4, rx: 6, "data-house": house, onclick }, sv("title", {}, house)));
    if (ROSETTES.includes(house)) {
      for (let i = 0; i < 4; i++) svg.append(sv("ellipse", { class: "rosette-mark", cx: x + C / 2, cy: y + C / 2, rx: 26, ry: 9, transform: `rotate(${i * 45} ${x + C / 2} ${y + C / 2})` }));
    }
    svg.append(sv("text", { class: "label", x: x + 14, y: y + 13, style: "font-size:11px" }, house));
    if (occ) svg.append(...pieceShape(occ[1], occ[0], x + C / 2, y + C / 2 + 4, C * 0.7, { "data-piece": house, onclick }));
  }
  // Trays: light's above the board, dark's below: waiting (entries) and palace (bear-off).
  for (const side of ["light", "dark"]) {
    const sc = side[0], y = side === "light" ? 0 : top + 3 * C + 10, army = s[side];
    svg.append(sv("text", { class: "label", x: 4 * C, y: y + 8, style: "font-size:13px" }, t("Side." + side)));
    svg.append(sv("rect", { class: "tray", x: 0, y: y + 16, width: 3.9 * C, height: 70, rx: 8 }));
    svg.append(sv("text", { class: "label", x: 0.35 * C, y: y + 30, style: "font-size:11px" }, t("ur.waiting")));
    ["P", "C", "H"].forEach((k, i) => {
      const cx = 0.8 * C + i * C * 1.05, cy = y + 55;
      const entry = sc === actSide && army.waiting[k] > 0;
      svg.append(...pieceShape(k, sc, cx, cy, 38, { "data-entry": sc + k, onclick: () => entry && click(k, null), style: entry && legal.some((m) => m.from === k) ? "cursor:pointer" : "" }));
      svg.append(sv("text", { class: "label", x: cx + 30, y: cy, style: "font-size:15px;fill:#2a2118" }, "×" + army.waiting[k]));
    });
    const offTarget = sc === actSide && targets.some((m) => m.to === "off");
    svg.append(sv("rect", { class: "tray" + (offTarget ? " target" : ""), x: 4.1 * C, y: y + 16, width: 3.9 * C, height: 70, rx: 8, "data-off": sc, onclick: () => offTarget && click(null, "off") }));
    svg.append(sv("text", { class: "label", x: 4.45 * C, y: y + 30, style: "font-size:11px" }, t("ur.palace")));
    ["P", "C", "H"].forEach((k, i) => {
      const cx = 4.9 * C + i * C * 1.05, cy = y + 55;
      svg.append(...pieceShape(k, sc, cx, cy, 38, { onclick: () => offTarget && click(null, "off") }));
      svg.append(sv("text", { class: "label", x: cx + 30, y: cy, style: "font-size:15px;fill:#2a2118" }, "×" + army.palace[k]));
    });
  }
  return svg;
}

function urgammonPanel(view, send) {
  const s = view.state, mt = s.match;
  const out = [el("h2", {}, "Urgammon"), el("div", { class: "muted" }, s.settings), whoLine(view)];
  out.push(el("div", { class: "score", id: "score" },
    `${t("ur.match")} ${t("ur.to", { n: mt.to })} — ${t("Side.light")} ${mt.score.light} : ${mt.score.dark} ${t("Side.dark")}`,
    mt.stake ? el("div", { class: "muted" }, t("ur.stake", { x: mt.stake })) : null));
  // Dice: roll animation when they changed since the last state.
  const prev = view.prev && view.prev.dice;
  const changed = !prev || prev.chance !== s.dice.chance || prev.verdict !== s.dice.verdict;
  const die = el("div", { class: "die" + (changed ? " rolling" : ""), id: "chance-die", title: s.dice.chance ? valueName(s.dice.chance) : "" }, s.dice.chance ?? "–");
  const verdict = s.dice.verdict === null || s.dice.verdict === undefined ? "–" : s.dice.verdict ? t("ur.verdict_yes") : t("ur.verdict_no");
  const vdie = el("div", { class: "die verdict" + (s.dice.verdict === true ? " yes" : s.dice.verdict === false ? " no" : "") + (changed ? " rolling" : ""), id: "verdict-die" }, verdict);
  out.push(el("div", { class: "dice" }, die, vdie, s.value ? el("span", {}, t("ur.value", { v: valueName(s.value) })) : null));
  if (mt.over) {
    const winner = mt.winner;
    out.push(el("div", { class: "result", id: "result" },
      el("b", {}, winner ? t("ur.match_won", { side: t("Side." + winner) }) : t("ur.match_drawn")),
      mt.resigned ? el("div", {}, t("ur.match_resigned", { side: t("Side." + mt.resigned) })) : null,
      winner && mt.payout ? el("div", {}, t("ur.payout", { loser: t("Side." + (winner === "light" ? "dark" : "light")), amount: mt.payout })) : null,
      mt.resigned ? null : gameResultLine(s.result)));
  } else if (s.between_games) {
    // A game of the match has ended: its final position stays on the board
    // with its result until a player starts the next game.
    out.push(el("div", { class: "result", id: "game-result" },
      el("b", {}, t("ur.game_over", { n: mt.games })), gameResultLine(s.result)));
    if (view.you.length) out.push(el("div", { class: "row" }, el("button", { class: "primary", id: "next", onclick: () => send({ type: "next" }) }, t("ur.next_game"))));
  } else {
    out.push(el("div", {}, t("ur.game_n", { n: mt.games })));
    const side = s.to_act ? t("Side." + s.to_act) : "";
    out.push(el("div", { class: "status", id: "turn" }, t("ur.phase." + s.phase, { side, v: s.value ? valueName(s.value) : "" })));
    if (s.last_turn) out.push(el("div", { class: "muted" }, t("ur.last_turn")));
    const row = el("div", { class: "row" });
    if (canAct(view) && s.phase === "roll") row.append(el("button", { class: "primary", id: "roll", onclick: () => send({ type: "roll" }) }, t("ur.roll")));
    if (canAct(view) && s.verdict_allowed) {
      row.append(el("button", { id: "verdict", class: s.verdict_forced ? "primary" : "", onclick: () => send({ type: "verdict" }) },
        s.verdict_forced ? t("ur.verdict_forced") : t("ur.verdict")));
    }
    out.push(row);
    if (canAct(view) && s.phase === "decide" && s.promoted_moves.length) out.push(el("div", { class: "muted" }, t("ur.verdict_yes") + " → " + s.promoted_moves.join(" ")));
    if (s.mode === "engine" && !canAct(view) && view.you.length) out.push(el("div", { class: "muted" }, t("game.engine_thinking")));
  }
  out.push(el("h3", {}, t("game.moves")));
  const list = el("div", { class: "moves", id: "move-list" }, s.tokens.join(" "));
  out.push(list);
  setTimeout(() => { list.scrollTop = list.scrollHeight; });
  out.push(...commonLinks(view, send));
  return out;
}

function gameResultLine(r) {
  if (!r) return null;
  if (!r.winner) return el("div", {}, t("ur.game_drawn"));
  return el("div", {}, t("ur.game_won", { side: t("Side." + r.winner), n: r.points, kind: t("ur.kind." + r.kind) }));
}

// ---------- games list ----------

async function gamesPage() {
  main.append(el("h1", {}, t("games.title")));
  const { games } = await api("GET", "/api/games");
  if (!games.length) return main.append(el("p", { class: "muted" }, t("games.none")));
  const cols = ["game", "settings", "mode", "status", "updated"];
  main.append(el("table", { class: "list", id: "games" },
    el("tr", {}, cols.map((c) => el("th", {}, t("games.col." + c))), el("th", {})),
    games.map((g) => el("tr", {},
      el("td", {}, g.game), el("td", {}, g.settings), el("td", {}, t("opp." + g.mode) + (g.level ? " " + g.level : "")),
      el("td", {}, statusText(g.status) + (g.reason === "resignation" ? " — " + t("reason.resignation") : "")), el("td", {}, new Date(g.updated_at * 1000).toLocaleString()),
      el("td", {}, el("a", { href: "/g/" + g.id, "data-nav": true }, t("games.open")), " · ",
        el("a", { href: "/replay/" + g.id, "data-nav": true }, t("games.replay")), " · ",
        el("a", { href: `/api/games/${g.id}/record` }, t("games.record")))))));
}

/** A stored status (`ongoing`, `attackers-win`, `light-wins`, `draw`) in words. */
function statusText(status) {
  if (status === "ongoing") return t("games.ongoing");
  if (status === "draw") return t("game.draw");
  const side = status.replace(/-wins?$/, "");
  return t("games.won", { side: t("Side." + side) });
}

// ---------- replay ----------

async function replayPage(id) {
  const view = { id, you: [], state: null, selected: null };
  const boardWrap = el("div", { class: "boardwrap" });
  const side = el("aside", { class: "side" });
  main.append(el("h1", {}, t("replay.title")), el("div", { class: "game" }, boardWrap, side));
  let ply = 1e9;
  async function show(p) {
    const s = await api("GET", `/api/games/${id}/at/${Math.max(0, p)}`);
    ply = Math.min(Math.max(0, p), s.total);
    view.state = s;
    window.agonState = s;
    boardWrap.replaceChildren(s.game === "ringo" ? ringoBoard(view, () => {}) : urgammonBoard(view, () => {}));
    const tokens = s.tokens_all;
    side.replaceChildren(
      el("div", { class: "row" },
        el("button", { id: "replay-start", onclick: () => show(0) }, t("replay.start")),
        el("button", { id: "replay-back", onclick: () => show(ply - 1) }, t("replay.back")),
        el("button", { id: "replay-forward", onclick: () => show(ply + 1) }, t("replay.forward")),
        el("button", { id: "replay-end", onclick: () => show(s.total) }, t("replay.end"))),
      el("div", { id: "replay-ply" }, `${ply} / ${s.total}`),
      replayResult(s),
      el("input", { type: "range", min: 0, max: s.total, value: ply, style: "width:100%", onchange: (e) => show(Number(e.target.value)) }),
      el("div", { class: "moves" }, tokens.map((tk, i) => el("span", { style: i < ply ? "" : "color:#aaa", onclick: () => show(i + 1) }, tk + " "))),
      el("div", { class: "row" }, el("a", { href: "/g/" + id, "data-nav": true }, t("games.open"))));
  }
  show(ply).catch((e) => main.append(el("p", {}, e.message)));
}

/** The result at a replayed ply: a game's end (Urgammon), or the game's or
 *  match's end with how it ended. */
function replayResult(s) {
  let text = null;
  if (s.game === "urgammon") {
    if (s.resigned) text = t("ur.match_resigned", { side: t("Side." + s.resigned) });
    else if (s.phase === "over") return el("div", { class: "result", id: "replay-result" }, gameResultLine(s.result));
  } else if (s.status !== "ongoing") {
    const winner = s.status === "attackers-win" ? "attackers" : s.status === "defenders-win" ? "defenders" : null;
    text = (winner ? t("game.won", { side: t("side." + winner) }) : t("game.draw")) + " — "
      + (s.resigned ? t("game.resigned", { side: t("side." + s.resigned) }) : t("reason." + s.reason));
  }
  return text ? el("div", { class: "result", id: "replay-result" }, text) : null;
}

// ---------- rules ----------

async function rulesPage() {
  const m = await meta();
  main.append(el("h1", {}, t("rules.title")));
  const ringo = el("div", { class: "card", id: "rules-ringo" }, el("h2", {}, "Ringo"));
  ringo.insertAdjacentHTML("beforeend", t("rules.ringo"));
  const presets = m.ringo.presets;
  ringo.append(el("h3", {}, t("rules.options")), el("table", { class: "list" },
    el("tr", {}, el("th", {}, t("rules.col.option")), presets.map((p) => el("th", {}, p.name)), el("th", {}, t("rules.col.meaning")), el("th", {}, t("rules.col.source"))),
    m.ringo.options.map((o) => el("tr", {}, el("td", {}, el("code", {}, o.key), el("br"), el("small", { class: "muted" }, o.values.join(" | "))),
      presets.map((p) => el("td", {}, p.options[o.key])), el("td", {}, t("opt." + o.key)), el("td", {}, el("small", {}, OPTION_SOURCES[o.key]))))));
  const ur = el("div", { class: "card", id: "rules-urgammon", style: "margin-top:1rem" }, el("h2", {}, "Urgammon"));
  ur.insertAdjacentHTML("beforeend", t("rules.urgammon"));
  main.append(ringo, ur);
}

route();
