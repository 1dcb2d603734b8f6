// Retakes the README's screenshots (docs/screenshots/) from a real server in
// headless Chromium: `node e2e/screenshots.mjs` after `cargo build`.
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, launch, waitState, apiCall } from "./helpers.mjs";

const out = join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "screenshots");
const server = await startServer();
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  // The home page with someone here: a live game in play (featured) and a
  // seek in the lobby.
  const featured = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers",
    clock: { base_secs: 300, increment_secs: 3 } });
  await apiCall(server.url, "POST", `/api/games/${featured.id}/join`, { invite: featured.invite });
  await apiCall(server.url, "POST", `/api/games/${featured.id}/action`, { type: "move", move: featured.state.moves[0] }, featured.token);
  await apiCall(server.url, "POST", "/api/seeks", { game: "urgammon", to: 3, clock: { base_secs: 600, increment_secs: 5 } });
  await page.goto(server.url + "/?lang=en");
  await page.locator("#featured svg.board").waitFor();
  await page.locator("#seeks tbody tr").waitFor();
  await page.waitForTimeout(1600);
  await page.screenshot({ path: join(out, "home.png") });
  await page.goto(server.url + "/new?lang=en");
  await page.locator("#start").waitFor();
  // The Rules lab's verdict under the rule set comes after the page.
  await page.locator("#fairness [data-lean]").waitFor();
  await page.screenshot({ path: join(out, "new-game.png") });
  // A Ringo game a few moves in, with a capture marked.
  const ringo = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" });
  let s = ringo.state;
  for (let i = 0; i < 60 && !(s.last_move && s.last_move.captured); i++) {
    const capture = s.legal.find((m) => m.captured);
    const move = capture ? capture.notation : s.legal[(i * 5) % s.legal.length].notation;
    s = (await apiCall(server.url, "POST", `/api/games/${ringo.id}/action`, { type: "move", move }, ringo.token)).state;
  }
  await page.goto(server.url + "/");
  await page.evaluate(([id, token]) => localStorage.setItem("agon-token-" + id, token), [ringo.id, ringo.token]);
  await page.goto(server.url + "/g/" + ringo.id);
  await waitState(page, () => !!window.agonState);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(out, "ringo.png") });
  // An Urgammon match a few turns in, mid-turn so the movable pieces show.
  const ur = await apiCall(server.url, "POST", "/api/games", { game: "urgammon", opponent: "local", stake: "10" });
  let u = ur.state;
  for (let i = 0; i < 14 && !u.over; i++) {
    const action = u.phase === "roll" ? { type: "roll" } : u.moves.length ? { type: "move", move: u.moves[u.moves.length - 1] } : { type: "verdict" };
    u = (await apiCall(server.url, "POST", `/api/games/${ur.id}/action`, action, ur.token)).state;
  }
  if (u.phase === "roll") u = (await apiCall(server.url, "POST", `/api/games/${ur.id}/action`, { type: "roll" }, ur.token)).state;
  await page.evaluate(([id, token]) => localStorage.setItem("agon-token-" + id, token), [ur.id, ur.token]);
  await page.goto(server.url + "/g/" + ur.id);
  await waitState(page, () => !!window.agonState);
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(out, "urgammon.png") });
  // The Rules lab with the even rule set picked out of the chart.
  await page.goto(server.url + "/lab");
  await page.locator('button.series-pick[data-rules="classic,slide=on"]').click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(200);
  await page.screenshot({ path: join(out, "lab.png") });
  // A review: the win-chance graph, and a key moment with the move played
  // and the best move drawn on the board.
  const rv = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" });
  let r = rv.state;
  for (let i = 0; i < 24 && r.status === "ongoing"; i++) {
    const capture = r.legal.find((m) => m.captured);
    const move = capture ? capture.notation : r.legal[(i * 7) % r.legal.length].notation;
    r = (await apiCall(server.url, "POST", `/api/games/${rv.id}/action`, { type: "move", move }, rv.token)).state;
  }
  if (r.status === "ongoing") await apiCall(server.url, "POST", `/api/games/${rv.id}/action`, { type: "resign" }, rv.token);
  await page.goto(server.url + "/review/" + rv.id);
  await page.locator("#review-summary").waitFor({ timeout: 120000 });
  await page.waitForFunction(() => document.querySelectorAll("#review-board [data-arrow]").length > 0 || !document.querySelector("button.key"));
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, "review.png"), fullPage: true });
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
  await phone.goto(server.url + "/");
  await phone.evaluate(([id, token]) => localStorage.setItem("agon-token-" + id, token), [ringo.id, ringo.token]);
  await phone.goto(server.url + "/g/" + ringo.id + "?lang=pl");
  await waitState(phone, () => !!window.agonState);
  await phone.waitForTimeout(400);
  await phone.screenshot({ path: join(out, "phone.png") });
  await phone.evaluate(() => localStorage.setItem("agon-lang", "en"));
  // Accounts: two players sign up, play a rated Ringo pair (each first
  // game resigned), and the account page and the pair's end are shown.
  const ala = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  const olek = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
  const call = (who, method, path, body) => who.evaluate(([m, p, b]) => fetch(p, { method: m, headers: { "content-type": "application/json" },
    body: b === undefined ? undefined : JSON.stringify(b) }).then((r) => r.json()), [method, path, body]);
  for (const [who, name] of [[ala, "ala"], [olek, "olek"]]) {
    await who.goto(server.url + "/?lang=en");
    await call(who, "POST", "/api/account/signup", { name, password: "correct horse battery" });
  }
  const pair = await call(ala, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers", rated: true });
  await call(olek, "POST", `/api/games/${pair.id}/join`, { invite: pair.invite });
  const one = await call(olek, "POST", `/api/games/${pair.id}/action`, { type: "resign" });
  await call(olek, "POST", `/api/games/${one.state.rematch}/action`, { type: "resign" });
  await ala.goto(server.url + "/g/" + one.state.rematch);
  await ala.locator("#rating-change").waitFor();
  await ala.locator("#pair-score").waitFor();
  await ala.waitForTimeout(300);
  await ala.screenshot({ path: join(out, "rated.png") });
  await ala.goto(server.url + "/account");
  await ala.locator("#sessions").waitFor();
  await ala.screenshot({ path: join(out, "account.png") });
  // The lobby with two seeks waiting (olek's rated one), and a live game
  // whose clocks run.
  await call(olek, "POST", "/api/seeks", { game: "ringo", rules: "classic", rated: true, clock: { base_secs: 300, increment_secs: 3 } });
  await call(olek, "POST", "/api/seeks", { game: "urgammon", to: 3, clock: { base_secs: 180, increment_secs: 5 } });
  await ala.goto(server.url + "/lobby?lang=en");
  await ala.locator("#seeks tbody tr").nth(1).waitFor();
  await ala.screenshot({ path: join(out, "lobby.png"), fullPage: true });
  const live = await call(ala, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers", clock: { base_secs: 300, increment_secs: 3 } });
  const joined = await call(olek, "POST", `/api/games/${live.id}/join`, { invite: live.invite });
  const first = await call(ala, "POST", `/api/games/${live.id}/action`, { type: "move", move: live.state.moves[0] });
  await olek.evaluate(([id, t]) => localStorage.setItem("agon-token-" + id, t), [live.id, joined.token]);
  await olek.goto(server.url + "/g/" + live.id);
  await olek.locator("#clock-0").waitFor();
  await call(olek, "POST", `/api/games/${live.id}/action`, { type: "move", move: first.state.moves[0] });
  await ala.goto(server.url + "/g/" + live.id);
  await ala.locator("#clock-0.running").waitFor();
  await ala.waitForTimeout(1500);
  await ala.screenshot({ path: join(out, "live.png") });
  // A correspondence game waiting for ala: the home page's Your turn.
  await call(ala, "POST", "/api/games/" + live.id + "/action", { type: "resign" });
  const corr = await call(ala, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers", days: 3 });
  await call(olek, "POST", `/api/games/${corr.id}/join`, { invite: corr.invite });
  await ala.goto(server.url + "/?lang=en");
  await ala.locator(`#your-turn-list [data-turn="${corr.id}"]`).waitFor();
  await ala.locator("#your-turn").screenshot({ path: join(out, "your-turn.png") });
  // Offers and chat: ala asks to take back her move; both have written.
  const talk = await call(ala, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers" });
  const talkJoin = await call(olek, "POST", `/api/games/${talk.id}/join`, { invite: talk.invite });
  await call(ala, "POST", `/api/games/${talk.id}/action`, { type: "move", move: talk.state.moves[1] });
  await call(ala, "POST", `/api/games/${talk.id}/chat`, { text: "Good luck, Olek!", room: "players" });
  await call(olek, "POST", `/api/games/${talk.id}/chat`, { text: "Thanks, you too.", room: "players" });
  await call(ala, "POST", `/api/games/${talk.id}/action`, { type: "takeback-offer" });
  await olek.evaluate(([id, t]) => localStorage.setItem("agon-token-" + id, t), [talk.id, talkJoin.token]);
  await olek.setViewportSize({ width: 1280, height: 1100 });
  await olek.goto(server.url + "/g/" + talk.id);
  await olek.locator("#offer").waitFor();
  await olek.locator("#chat-lines li").nth(1).waitFor();
  await olek.screenshot({ path: join(out, "talk.png") });

  // The puzzle trainer: an Urgammon puzzle solved, every choice's equity.
  const trainer = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await trainer.goto(server.url + "/puzzles/u-0001?lang=en");
  await trainer.waitForFunction(() => window.agonState?.verdict_allowed);
  await trainer.locator("#puzzle-verdict").click();
  await trainer.locator('#puzzle-feedback[data-result="right"]').waitFor();
  await trainer.screenshot({ path: join(out, "puzzles.png") });
} finally {
  await browser.close();
  server.stop();
}
