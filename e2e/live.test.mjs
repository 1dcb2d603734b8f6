// Live play between two people, each in a browser of her own: meeting
// through a seek in the lobby, quick pairing, clocks that tick and flag,
// abort by a click and by the server's first-move wait, and the clocks in
// Polish and French and on a phone. Each context checks what its player sees.
import test from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, waitState, state, playRingoMove, apiCall, accountAs, SHOTS } from "./helpers.mjs";
import { join } from "node:path";

/** Two players' pages, each in its own browser context. */
async function twoPlayers(browser, viewport) {
  const opts = viewport ? { viewport } : {};
  const a = await (await browser.newContext(opts)).newPage();
  const b = await (await browser.newContext(opts)).newPage();
  return [a, b];
}

/** A clocked friend game made through the API and opened by both players'
 *  pages: Ann holds the attackers, Ben the defenders. */
async function clockedGame(url, [ann, ben], clock, lang = "en") {
  const g = await apiCall(url, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers", clock });
  const j = await apiCall(url, "POST", `/api/games/${g.id}/join`, { invite: g.invite });
  for (const [page, token] of [[ann, g.token], [ben, j.token]]) {
    await page.goto(`${url}/?lang=${lang}`);
    await page.evaluate(([id, t]) => localStorage.setItem("agon-token-" + id, t), [g.id, token]);
    await page.goto(`${url}/g/${g.id}`);
    await waitState(page, () => !!window.agonState && window.agonYou.length === 1);
  }
  return { id: g.id, tokens: [g.token, j.token] };
}

test("two players meet through a seek in the lobby, and both land in the game", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const [ann, ben] = await twoPlayers(browser);
    await ann.goto(server.url + "/lobby");
    await ann.locator("#no-seeks").waitFor();
    await ann.locator("#seek-game").selectOption("ringo");
    await ann.locator("#seek-rules").selectOption("classic");
    await ann.locator("#seek-clock").selectOption("180+2");
    await ann.locator("#seek-side").selectOption("defenders");
    await ann.locator("#seek-create").click();
    // Ann sees her own seek, with Cancel rather than Play.
    await ann.locator("#seeks tr.mine .seek-cancel").waitFor();
    // Ben, on the home page, sees it appear live in the lobby's short form.
    await ben.goto(server.url + "/");
    const row = ben.locator("#home-lobby #seeks tbody tr").first();
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /Anonymous/);
    assert.match(text, /3\+2/);
    assert.match(text, /Casual/);
    assert.match(text, /Defenders/);
    await row.locator(".seek-accept").click();
    // Both land in the same game: Ben by his click, Ann sent by the lobby.
    await ben.waitForURL(/\/g\/[a-z0-9]+$/);
    await ann.waitForURL(/\/g\/[a-z0-9]+$/);
    assert.equal(new URL(ann.url()).pathname, new URL(ben.url()).pathname);
    // Ann's "stay on this page until someone accepts it" went with the
    // lobby: someone did.
    assert.doesNotMatch(await ann.locator("#toast").innerText(), /stay on this page/);
    await waitState(ann, () => window.agonState && window.agonYou.length === 1);
    await waitState(ben, () => window.agonState && window.agonYou.length === 1);
    assert.deepEqual((await state(ann)).you, [1], "Ann asked for the defenders");
    assert.deepEqual((await state(ben)).you, [0]);
    // Each sees both clocks at 3:00, and the first-move countdown.
    for (const page of [ann, ben]) {
      await page.locator("#clock-0 .clock-time", { hasText: "3:00" }).waitFor();
      assert.equal(await page.locator("#clock-1 .clock-time").innerText(), "3:00");
      assert.match(await page.locator("#first-move").innerText(), /Attackers: \d+ s for the first move/);
      assert.equal(await page.locator("#abort").count(), 1);
    }
    // The seek is gone from the lobby for a third player.
    const carol = await (await browser.newContext()).newPage();
    await carol.goto(server.url + "/lobby");
    await carol.locator("#no-seeks").waitFor();
    // Ben (attackers) moves, Ann answers: the clocks start, and abort goes.
    const s = (await state(ben)).s;
    await playRingoMove(ben, s.moves[0]);
    await waitState(ann, () => window.agonState.history.length === 1);
    await playRingoMove(ann, (await state(ann)).s.moves[0]);
    await waitState(ben, () => window.agonState.clock.running === 0);
    await ben.locator("#clock-0.running").waitFor();
    await ann.locator("#clock-0.running").waitFor();
    assert.equal(await ben.locator("#abort").count(), 0);
    // Ben's clock ticks on both pages.
    await ben.waitForFunction(() => document.querySelector("#clock-0 .clock-time").textContent < "2:58");
    await ann.waitForFunction(() => document.querySelector("#clock-0 .clock-time").textContent < "2:58");
    await ann.screenshot({ path: join(SHOTS, "live-game.png") });
  } finally {
    await browser.close();
    server.stop();
  }
});

test("a seek goes when its creator cancels it or leaves the lobby", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const [ann, ben] = await twoPlayers(browser);
    await ben.goto(server.url + "/lobby");
    await ann.goto(server.url + "/lobby");
    await ann.locator("#seek-game").selectOption("urgammon");
    await ann.locator("#seek-to").fill("3");
    await ann.locator("#seek-create").click();
    await ben.locator("#seeks tbody tr").waitFor();
    assert.match(await ben.locator("#seeks tbody tr").innerText(), /Urgammon/);
    await ann.locator("#seeks tr.mine .seek-cancel").click();
    await ben.locator("#no-seeks").waitFor();
    // Posted again, then Ann leaves for the games list: it goes too.
    await ann.locator("#seek-create").click();
    await ben.locator("#seeks tbody tr").waitFor();
    await ann.locator("button[aria-controls=nav-play]").click();
    await ann.locator('nav a[href="/games"]').click();
    await ben.locator("#no-seeks").waitFor();
    // And a closed tab takes it away as well (the server sees the socket go).
    await ann.goto(server.url + "/lobby");
    await ann.locator("#seek-create").click();
    await ben.locator("#seeks tbody tr").waitFor();
    await ann.context().close();
    await ben.locator("#no-seeks").waitFor({ timeout: 5000 });
  } finally {
    await browser.close();
    server.stop();
  }
});

test("quick pairing pairs two players waiting in the same pool", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const [ann, ben] = await twoPlayers(browser);
    await ann.goto(server.url + "/");
    await ann.locator('#home-lobby [data-pool="urgammon-3-5+5"]').click();
    await ann.locator("#pool-waiting").waitFor();
    // The waiting line names the pool, as its tile does.
    assert.equal(await ann.locator("#pool-waiting").innerText(), "Looking for an opponent in Urgammon 5+5…");
    await ben.goto(server.url + "/lobby");
    // Ben sees one player waiting in that pool.
    await ben.locator('[data-pool="urgammon-3-5+5"]', { hasText: "1 waiting" }).waitFor();
    // By the keyboard: Tab to the pool's button and press Enter.
    await ben.locator('[data-pool="urgammon-3-5+5"]').focus();
    await ben.keyboard.press("Enter");
    await ben.waitForURL(/\/g\/[a-z0-9]+$/);
    await ann.waitForURL(/\/g\/[a-z0-9]+$/);
    assert.equal(new URL(ann.url()).pathname, new URL(ben.url()).pathname);
    // Ann's "stay on this page until someone accepts it" went with the
    // lobby: someone did.
    assert.doesNotMatch(await ann.locator("#toast").innerText(), /stay on this page/);
    for (const page of [ann, ben]) {
      await waitState(page, () => window.agonState && window.agonYou.length === 1);
      const { s } = await state(page);
      assert.equal(s.match.to, 3);
      assert.equal(s.clock.increment_ms, 5000);
      await page.locator("#clock-0 .clock-time", { hasText: "5:00" }).waitFor();
    }
    const [a, b] = [(await state(ann)).you[0], (await state(ben)).you[0]];
    assert.notEqual(a, b, "one seat each");
  } finally {
    await browser.close();
    server.stop();
  }
});

test("an account waits once in a pool: its second page is told, in its language, and the pool counts one", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    // One person, one browser, two pages (the same account's cookie), and
    // someone else watching the lobby.
    const mine = await browser.newContext();
    const [first, second] = [await mine.newPage(), await mine.newPage()];
    await first.goto(server.url + "/lobby");
    assert.equal(await accountAs(first, "signup", "ola"), 201);
    await first.reload();
    await first.locator('[data-pool="ringo-even-5+3"]').click();
    await first.locator("#pool-waiting").waitFor();
    await second.goto(server.url + "/lobby?lang=fr");
    await second.locator('[data-pool="ringo-even-5+3"]').click();
    await second.locator("#toast.show").waitFor();
    assert.match(await second.locator("#toast").innerText(), /Vous attendez déjà dans cette partie rapide/);
    assert.equal(await second.locator("#pool-waiting").count(), 0, "the second page does not wait too");
    const other = await (await browser.newContext()).newPage();
    await other.goto(server.url + "/lobby");
    await other.locator('[data-pool="ringo-even-5+3"]', { hasText: "1 waiting" }).waitFor();
  } finally {
    await browser.close();
    server.stop();
  }
});

test("a three-second game flags on both pages and in the API, with the low-time warning", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const [ann, ben] = await twoPlayers(browser);
    const { id } = await clockedGame(server.url, [ann, ben], { base_secs: 3, increment_secs: 0 });
    await playRingoMove(ann, (await state(ann)).s.moves[0]);
    await waitState(ben, () => window.agonState.history.length === 1);
    await playRingoMove(ben, (await state(ben)).s.moves[0]);
    // Ann's clock runs: under ten seconds it shows tenths, low and red.
    await ann.locator("#clock-0.running.low").waitFor();
    assert.match(await ann.locator("#clock-0 .clock-time").innerText(), /^\d\.\d$/);
    await ann.waitForFunction(() => (window.agonSounds || []).includes("low-time"));
    // Ann does not move: the flag falls for both.
    for (const page of [ann, ben]) {
      await waitState(page, () => window.agonState.over, undefined, 8000);
      // Each page names the side whose flag fell (not "the other side",
      // which the attackers' player would read as her opponent).
      assert.match(await page.locator("#result").innerText(), /The defenders win — The attackers ran out of time\./);
      assert.equal(await page.locator("#clock-0 .clock-time").innerText(), "0.0");
    }
    const g = await apiCall(server.url, "GET", `/api/games/${id}`);
    assert.equal(g.state.reason, "time");
    assert.equal(g.state.winner, "defenders");
    assert.deepEqual(g.state.clock.remaining_ms[0], 0);
  } finally {
    await browser.close();
    server.stop();
  }
});

test("abort: by a player's click, and by the server when the first move does not come", async () => {
  const server = await startServer({ firstMoveSecs: 6 });
  const browser = await launch();
  try {
    const [ann, ben] = await twoPlayers(browser);
    let g = await clockedGame(server.url, [ann, ben], { base_secs: 60, increment_secs: 1 });
    await ben.locator("#abort").click();
    for (const page of [ann, ben]) {
      await waitState(page, () => window.agonState.over);
      assert.match(await page.locator("#result").innerText(), /Aborted — the game was called off/);
      assert.equal(await page.locator("#abort").count(), 0);
    }
    assert.equal((await apiCall(server.url, "GET", `/api/games/${g.id}`)).state.status, "aborted");
    // Nobody moves in the next one: the server aborts it after 6 seconds
    // (room for two pages to open on a busy machine), counting down on
    // both pages meanwhile.
    g = await clockedGame(server.url, [ann, ben], { base_secs: 60, increment_secs: 1 });
    assert.match(await ann.locator("#first-move").innerText(), /Attackers: [1-6] s for the first move/);
    for (const page of [ann, ben]) {
      await waitState(page, () => window.agonState.over, undefined, 12000);
      assert.match(await page.locator("#result").innerText(), /Aborted/);
    }
    assert.equal((await apiCall(server.url, "GET", `/api/games/${g.id}`)).state.reason, "abort");
  } finally {
    await browser.close();
    server.stop();
  }
});

test("the clocks in Polish and French, and on a phone", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const phone = { width: 390, height: 844 };
    for (const [lang, label, first] of [["pl", /^Zegar: Atakujący$/, /Atakujący: \d+ s na pierwszy ruch/], ["fr", /^Pendule\s:\sAssaillants$/, /Assaillants\s:\s\d+\ss pour jouer/]]) {
      const pages = await twoPlayers(browser, phone);
      await clockedGame(server.url, pages, { base_secs: 300, increment_secs: 3 }, lang);
      for (const page of pages) {
        assert.match(await page.locator("#clock-0").getAttribute("aria-label"), label);
        assert.match(await page.locator("#first-move").innerText(), first);
        assert.equal(await page.locator("#clock-0 .clock-time").innerText(), "5:00");
        // On a phone both clocks fit side by side in the width.
        const [c0, c1] = [await page.locator("#clock-0").boundingBox(), await page.locator("#clock-1").boundingBox()];
        assert.ok(c1.x + c1.width <= phone.width && c0.x >= 0, `${lang}: the clocks fit`);
        assert.ok(Math.abs(c0.y - c1.y) < 2, `${lang}: side by side`);
      }
      await pages[0].screenshot({ path: join(SHOTS, `live-phone-${lang}.png`) });
      // The lobby in that language too.
      await pages[1].goto(`${server.url}/lobby?lang=${lang}`);
      await pages[1].locator("#quick h2", { hasText: lang === "pl" ? "Szybka gra" : "Partie rapide" }).waitFor();
    }
  } finally {
    await browser.close();
    server.stop();
  }
});
