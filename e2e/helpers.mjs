// Shared set-up for the browser tests: start a real `agon serve` on a free port
// with a fresh data directory, and launch Debian's headless Chromium.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import net from "node:net";
import http from "node:http";
import crypto from "node:crypto";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SHOTS = join(root, "target", "e2e-screenshots");
mkdirSync(SHOTS, { recursive: true });

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** The servers still running, with their data directories. */
const live = new Map();
process.on("exit", () => {
  for (const [proc, data] of live) {
    proc.kill("SIGKILL");
    rmSync(data, { recursive: true, force: true });
  }
});

/** Starts `agon serve`; `engineDelayMs` paces the computer (0: it answers at
 *  once; a test that must see the computer thinking gives it time). */
/** Push flags for a test's own push service on this machine: plain http,
 * any port, and the loopback network allowed (the address rule refuses it
 * otherwise). */
const PUSH_ON_LOOPBACK = ["--push-insecure-endpoints", "--push-allow-network", "127.0.0.0/8",
  "--push-allow-network", "::1/128", "--push-allow-ports", "any"];

/** A fresh PostgreSQL database on the test server (`AGON_TEST_DATABASE_URL`,
 *  which ./test.sh starts), for instances that share it: its URL, or null
 *  when there is no server (a failure under ./test.sh's AGON_REQUIRE_ALL). */
export function freshDatabase(name) {
  const admin = process.env.AGON_TEST_DATABASE_URL;
  if (!admin) {
    if (process.env.AGON_REQUIRE_ALL) throw new Error("AGON_TEST_DATABASE_URL is not set, and ./test.sh (AGON_REQUIRE_ALL) runs every test");
    return null;
  }
  const db = `agon_${name.replace(/[^a-z0-9]/gi, "_")}_${Math.random().toString(16).slice(2, 10)}`;
  execFileSync("psql", [admin, "-q", "-v", "ON_ERROR_STOP=1", "-c", `CREATE DATABASE ${db}`], { stdio: ["ignore", "ignore", "inherit"] });
  return admin.replace(/\/[^/]*$/, "/" + db);
}

export async function startServer(options = {}) {
  // A port found free may be taken by another test file's server before
  // this one binds it (the suite runs two files at once): then once more,
  // on another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(options);
    } catch (e) {
      if (attempt >= 3 || !/exited/.test(String(e))) throw e;
    }
  }
}

async function startServerOnce({ engineDelayMs = 0, firstMoveSecs = 30, claimAfterSecs = 60, pushInsecure = false, database = null, extra = [] } = {}) {
  const bin = process.env.AGON_BIN || join(root, "target", "debug", "agon");
  const data = mkdtempSync(join(tmpdir(), "agon-e2e-"));
  const port = await freePort();
  // Classic's smallest endgame tables (2 attackers against 1 defender), where
  // the server looks for them: the analysis board shows their proven results.
  execFileSync(bin, ["ringo", "tablebase", "build", "--rules", "classic", "--attackers", "2", "--defenders", "1",
    "--dir", join(data, "tablebases")], { stdio: ["ignore", "ignore", "inherit"] });
  // The tests click faster than a person: no per-client rate limits here
  // (their own API tests cover them).
  const proc = spawn(bin, ["serve", "--data", data, "--port", String(port), "--engine-delay-ms", String(engineDelayMs),
    "--rate-limit", "0", "--create-limit", "0", "--first-move-secs", String(firstMoveSecs),
    "--claim-after-secs", String(claimAfterSecs), ...(pushInsecure ? PUSH_ON_LOOPBACK : []),
    ...(database ? ["--database", database] : []), ...extra], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The data directory goes with the server: every test starts one, and the
  // suite used to leave about 100 MiB of them in /tmp a run. A server still
  // stopping when the test file ends is killed with it.
  live.set(proc, data);
  proc.on("exit", () => {
    live.delete(proc);
    rmSync(data, { recursive: true, force: true });
  });
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server did not start")), 20000);
    proc.stdout.on("data", (d) => { if (String(d).includes("Agon is running")) { clearTimeout(timer); resolve(); } });
    proc.on("exit", (code) => reject(new Error("server exited with " + code)));
  });
  return {
    url: `http://127.0.0.1:${port}`, data, bin, stop: () => proc.kill("SIGTERM"),
    // kill -9: no stop, no goodbye to the store (a crash, an OOM kill).
    kill: () => new Promise((resolve) => { proc.once("exit", resolve); proc.kill("SIGKILL"); }),
  };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}

/** Runs `fn(server, browser)` with a fresh server and browser, and stops both after. */
export async function withApp(fn, options) {
  const server = await startServer(options);
  const browser = await launch();
  try {
    return await fn(server, browser);
  } finally {
    await browser.close();
    server.stop();
  }
}

/** Opens game `g` (from the API) in `page` as its player: the seat token goes
 *  where the page keeps it, as after creating the game in the browser. */
export async function openAsPlayer(page, url, g) {
  await page.goto(url + "/");
  await page.evaluate(([id, token]) => localStorage.setItem("agon-token-" + id, token), [g.id, g.token]);
  await page.goto(url + "/g/" + g.id);
  await waitState(page, () => !!window.agonState);
}

/** Waits until the page's state satisfies `fn` (evaluated in the page). */
export async function waitState(page, fn, arg, timeout = 20000) {
  await page.waitForFunction(fn, arg, { timeout, polling: 50 });
}

/** The page's current game state and seats. */
export function state(page) {
  return page.evaluate(() => ({ s: window.agonState, you: window.agonYou }));
}

/** Clicks a Ringo cell at its centre, as a person would. */
export async function clickRingoCell(page, cell) {
  if (cell === "F") return page.locator('[data-cell="F"]').click({ force: true });
  const point = await page.evaluate((cell) => {
    const path = document.querySelector(`[data-cell="${cell}"]`);
    // A person scrolls the board into view before she clicks on it.
    const box = path.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) path.scrollIntoView({ block: "center" });
    const svg = path.ownerSVGElement;
    const p = svg.createSVGPoint();
    p.x = Number(path.dataset.cx); p.y = Number(path.dataset.cy);
    const q = p.matrixTransform(svg.getScreenCTM());
    return { x: q.x, y: q.y };
  }, cell);
  await page.mouse.click(point.x, point.y);
}

/** Plays one Ringo move by clicking its piece, then its destination. */
export async function playRingoMove(page, move) {
  const before = (await state(page)).s.revision;
  if (move === "pass") {
    await page.locator("#pass").click();
  } else {
    const from = move.slice(0, 2);
    let to = move.slice(3);
    const paren = to.indexOf("(");
    if (paren >= 0) to = to.slice(0, paren);
    await clickRingoCell(page, from);
    await clickRingoCell(page, to);
    if (paren >= 0) await page.locator("#chooser button", { hasText: move }).click();
  }
  await waitState(page, (v) => window.agonState.revision > v, before);
}

/** Calls the HTTP API from the test, as another program would. */
export async function apiCall(url, method, path, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers["x-agon-token"] = token;
  const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.error}`);
  return data;
}

/** The Ringo pieces the board shows, as "cell:piece" strings, sorted. */
export function ringoPieces(page) {
  return page.evaluate(() => [...document.querySelectorAll("circle.piece")]
    .map((c) => c.dataset.piece + ":" + (c.classList.contains("att") ? "A" : "D")).sort());
}

/** The Urgammon pieces on the board's houses, as "house:side" strings, sorted. */
export function urgammonPieces(page) {
  return page.evaluate(() => [...document.querySelectorAll("[data-piece]")]
    .map((p) => p.dataset.piece + ":" + (p.classList.contains("l") ? "l" : "d")).sort());
}

/** Clicks an Urgammon move: its piece (or waiting tray), then its destination. */
export async function clickUrgammonMove(page, move, side) {
  const [, from, , to] = move.match(/^([PCH]|\d+[ab]?)([-x])(\d+[ab]?|off)$/);
  if (/^[PCH]$/.test(from)) await page.locator(`[data-entry="${side}${from}"]`).click({ force: true });
  else await page.locator(`[data-piece="${from}"]`).first().click({ force: true });
  if (to === "off") await page.locator(`[data-off="${side}"]`).click({ force: true });
  else await page.locator(`[data-house="${to}"]`).click({ force: true });
}

/** Starts a game from the home page as a person does: the game, the opponent
 *  (and level), the side, an Urgammon match's target and stake (typed as
 *  given), then Start; waits for the game page. `lang` opens the page in it. */
export async function newGame(page, url, { game, opponent = "engine", level, side, to, stake, lang }) {
  await page.goto(url + "/new" + (lang ? "?lang=" + lang : ""));
  await page.locator(`input[name=game][value=${game}]`).check();
  await page.locator(`input[name=opponent][value=${opponent}]`).check();
  // Between two people the page proposes the lab's most even set: these
  // tests play classic unless they say otherwise.
  if (game === "ringo" && opponent === "friend") await page.locator("#preset").selectOption("classic");
  if (level !== undefined) await page.locator("#level").fill(String(level));
  if (side) await page.locator(`input[name=side][value=${side}]`).check();
  if (to !== undefined) await page.locator("#match-to").fill(String(to));
  if (stake !== undefined) await page.locator("#stake").fill(stake);
  await page.locator("#start").click();
  await page.waitForURL(/\/g\/[a-z0-9]+$/);
}

/** An Urgammon match played on one screen through the API until its second
 *  game has begun (a few turns in); answers the game and its last state.
 *  With `scored`, until a later game has begun with a point scored (a drawn
 *  first game scores nothing, so the second may start at 0 : 0). */
export async function twoGameMatch(url, { scored = false } = {}) {
  const u = await apiCall(url, "POST", "/api/games", { game: "urgammon", opponent: "local" });
  let s = u.state;
  const done = () => !s.between_games && s.log.length > 6
    && (scored ? s.match.games >= 2 && s.match.score.light + s.match.score.dark > 0 : s.match.games === 2);
  for (let i = 0; i < 6000 && !done(); i++) {
    const action = s.between_games ? { type: "next" } : s.phase === "roll" ? { type: "roll" }
      : s.moves.length ? { type: "move", move: s.moves[s.moves.length - 1] } : { type: "verdict" };
    s = (await apiCall(url, "POST", `/api/games/${u.id}/action`, action, u.token)).state;
  }
  if (!done()) throw new Error("the match did not reach its second game");
  return { u, s };
}

/** Signs the page's browser up (`"signup"`) or in (`"login"`) as `name`
 *  through the account API, as the account page would; the status. */
export function accountAs(page, what, name) {
  return page.evaluate(([w, n]) => fetch("/api/account/" + w, { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: n, password: "correct horse battery" }) }).then((r) => r.status), [what, name]);
}

/** A push service of the test's own, on loopback: what it receives, and
 *  an endpoint on it per device. */
export async function startPushService() {
  const received = [];
  const push = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => { received.push({ headers: req.headers, url: req.url, body: Buffer.concat(chunks) }); res.writeHead(201); res.end(); });
  });
  await new Promise((r) => push.listen(0, "127.0.0.1", r));
  return {
    received,
    endpoint: (device) => `http://127.0.0.1:${push.address().port}/push/${device}`,
    close: () => push.close(),
  };
}

/** RFC 8291 decryption, written here from the RFC with Node's own crypto:
 *  the browser's side of Web Push. */
export function decrypt(body, ua, auth) {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const serverKey = body.subarray(21, 21 + idlen);
  const cipher = body.subarray(21 + idlen);
  assert.equal(idlen, 65);
  assert.ok(rs >= cipher.length);
  const shared = ua.computeSecret(serverKey);
  const info = Buffer.concat([Buffer.from("WebPush: info\0"), ua.getPublicKey(), serverKey]);
  const ikm = Buffer.from(crypto.hkdfSync("sha256", shared, auth, info, 32));
  const cek = Buffer.from(crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(crypto.hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const d = crypto.createDecipheriv("aes-128-gcm", cek, nonce);
  d.setAuthTag(cipher.subarray(cipher.length - 16));
  const plain = Buffer.concat([d.update(cipher.subarray(0, cipher.length - 16)), d.final()]);
  assert.equal(plain[plain.length - 1], 2, "the last record's delimiter");
  return JSON.parse(plain.subarray(0, plain.length - 1).toString("utf8"));
}


/** Runs `fn(item, worker)` for every item, `workers` at a time, each worker
 *  taking the next item when it is done; the results in the items' order.
 *  The page-by-page checks (axe, sizes, pictures) spend most of their time
 *  in the browser's renderer, one core at a time: two pages at once use the
 *  machine's second core and need no timing to hold. */
export async function inParallel(items, workers, fn) {
  const results = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(workers, items.length) }, async (_, worker) => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], worker);
    }
  }));
  return results;
}
