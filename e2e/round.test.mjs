// One door for every change of a game (issue 71), as two players see it,
// each in a browser of her own: a rated pair's second game opens after a
// pause both see, shows the first game's result, and waits for its first
// move (a player who does not move at once does not lose on time); an
// aborted game is neither won nor lost on the profile and the games list,
// in three languages; and "left the game" shows only once the opponent has
// really gone (never while both are here), and goes when she comes back.
import test from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, waitState, state, playRingoMove, SHOTS } from "./helpers.mjs";

const PASSWORD = "correct horse battery";

/** Calls the API as the account of `cookie` (none: anonymous). */
async function asAccount(url, cookie, method, path, body) {
  const headers = { "content-type": "application/json" };
  if (cookie) headers.cookie = "agon_session=" + cookie;
  const res = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${data.error}`);
  return { data, res };
}

/** A new account, and a browser context signed in as it. */
async function player(browser, url, name, options = {}) {
  const { res } = await asAccount(url, null, "POST", "/api/account/signup", { name, password: PASSWORD });
  const cookie = res.headers.get("set-cookie").match(/agon_session=([^;]+)/)[1];
  const context = await browser.newContext(options);
  await context.addCookies([{ name: "agon_session", value: cookie, url }]);
  return { page: await context.newPage(), cookie, context };
}

/** A rated friend game `body` made by `a` (seat 0) and joined by `b`, open
 *  in both players' pages. */
async function ratedGame(url, a, b, body, lang = "en") {
  const { data: g } = await asAccount(url, a.cookie, "POST", "/api/games", { opponent: "friend", rated: true, ...body });
  const { data: j } = await asAccount(url, b.cookie, "POST", `/api/games/${g.id}/join`, { invite: g.invite });
  for (const [p, token] of [[a.page, g.token], [b.page, j.token]]) {
    await p.goto(`${url}/?lang=${lang}`);
    await p.evaluate(([id, t]) => localStorage.setItem("agon-token-" + id, t), [g.id, token]);
    await p.goto(`${url}/g/${g.id}`);
    await waitState(p, () => !!window.agonState && window.agonYou.length === 1);
  }
  return g.id;
}

test("a rated 1+0 pair: game 2 begins after a pause both see, shows game 1's result, and waits for its first move", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const ala = await player(browser, server.url, "ala");
    // Olek plays on a phone.
    const olek = await player(browser, server.url, "olek", { viewport: { width: 390, height: 844 } });
    const one = await ratedGame(server.url, ala, olek, { game: "ringo", side: "attackers", clock: { base_secs: 60, increment_secs: 0 } });
    await playRingoMove(ala.page, (await state(ala.page)).s.moves[0]);
    await waitState(olek.page, () => window.agonState.history.length === 1);
    await playRingoMove(olek.page, (await state(olek.page)).s.moves[0]);
    await waitState(ala.page, () => window.agonState.history.length === 2);
    // Ala resigns game 1: both pages show its result and count down to game 2.
    await ala.page.locator("#resign").click();
    await ala.page.locator("#resign.danger").click();
    for (const { page } of [ala, olek]) {
      await page.locator("#pair-next").waitFor();
      assert.match(await page.locator("#pair-next-text").innerText(), /Game 2 of the pair begins in [1-5] s, with the seats swapped\./);
      assert.match(await page.locator("#result").innerText(), /The defenders win/);
      assert.match(page.url(), new RegExp(one + "$"), "still on game 1 during the pause");
      // Game 2 is no rematch (nobody offered one): its link says so.
      await page.locator("#rematch-go").waitFor();
      assert.equal(await page.locator("#rematch-go").innerText(), "Go to game 2");
      assert.doesNotMatch(await page.locator("main").innerText(), /rematch/i);
    }

    await olek.page.locator("#pair-go").scrollIntoViewIfNeeded();
    const go = await olek.page.locator("#pair-go").boundingBox();
    assert.ok(go.x >= 0 && go.x + go.width <= 390 && go.height >= 44, `the button fits a phone: ${JSON.stringify(go)}`);
    await olek.page.screenshot({ path: `${SHOTS}/pair-pause.png` });
    // Olek goes at once by the button (from the keyboard); Ala's page goes
    // by itself when the count reaches zero.
    await olek.page.locator("#pair-go").focus();
    await olek.page.keyboard.press("Enter");
    await olek.page.waitForURL((u) => !u.pathname.endsWith(one), { timeout: 3000 });
    assert.match(ala.page.url(), new RegExp(one + "$"), "Ala's page still counts down");
    for (const { page } of [ala, olek]) {
      await page.waitForURL((u) => !u.pathname.endsWith(one) && /\/g\/[a-z0-9]+$/.test(u.pathname), { timeout: 10000 });
      await waitState(page, () => window.agonState && window.agonState.pair && window.agonState.pair.game === 2 && window.agonYou.length === 1);
      await page.locator("#pair-first-result").waitFor();
      assert.match(await page.locator("#pair-first-result").innerText(), /^Game 1: The defenders win — The attackers resigned\.$/);
      // The side to act has its own first-move wait, which loses the game
      // (not aborts it) when it passes: the page says so.
      assert.match(await page.locator("#first-move").innerText(), /Attackers: \d+ s for the first move, or this game of the pair is lost\./);
    }
    // Olek, the attackers now, does not move at once: nobody's clock runs.
    await new Promise((r) => setTimeout(r, 3000));
    for (const { page } of [ala, olek]) {
      const s = (await state(page)).s;
      assert.equal(s.over, false);
      assert.equal(s.clock.running, null);
      assert.deepEqual(s.clock.remaining_ms, [60000, 60000]);
      assert.equal(await page.locator("#clock-0 .clock-time").innerText(), "1:00");
    }
    // Then both play, and the game goes on with the clocks running.
    await playRingoMove(olek.page, (await state(olek.page)).s.moves[0]);
    await waitState(ala.page, () => window.agonState.history.length === 1);
    await playRingoMove(ala.page, (await state(ala.page)).s.moves[0]);
    for (const { page } of [ala, olek]) {
      await waitState(page, () => window.agonState.history.length === 2 && window.agonState.clock.running === 0);
      assert.equal((await state(page)).s.over, false, "nobody lost game 2 on time");
      assert.equal(await page.locator("#first-move").innerText(), "");
    }
    await ala.page.screenshot({ path: `${SHOTS}/pair-second.png` });
    // A spectator of game 1 is told of game 2 as such, not as a rematch.
    const watcher = await (await browser.newContext()).newPage();
    await watcher.goto(`${server.url}/g/${one}?lang=en`);
    await watcher.locator("#rematch-link").waitFor();
    assert.equal(await watcher.locator("#rematch-link").innerText(), "Game 2 of the pair has started: watch it");
    await watcher.context().close();
  } finally {
    await browser.close();
    server.stop();
  }
});

test("an aborted game is neither won nor lost, on the profile and the games list, in three languages", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const ala = await player(browser, server.url, "ala");
    const olek = await player(browser, server.url, "olek");
    await ratedGame(server.url, ala, olek, { game: "ringo", side: "attackers", clock: { base_secs: 60, increment_secs: 1 } });
    await playRingoMove(ala.page, (await state(ala.page)).s.moves[0]);
    await waitState(olek.page, () => window.agonState.history.length === 1);
    await olek.page.locator("#abort").click();
    for (const { page } of [ala, olek]) {
      await waitState(page, () => window.agonState.over);
      assert.match(await page.locator("#result").innerText(), /Aborted/);
    }
    const words = {
      en: { aborted: "Aborted", lost: "lost", col: "Aborted" },
      pl: { aborted: "Przerwana", lost: "przegrane", col: "Przerwane" },
      fr: { aborted: "Annulée", lost: "perdues", col: "Annulées" },
    };
    for (const [lang, w] of Object.entries(words)) {
      for (const [who, { page }] of [["ala", ala], ["olek", olek]]) {
        // The games list says it was aborted: no raw key, no winner.
        await page.goto(`${server.url}/games?lang=${lang}`);
        const row = page.locator("#own-games tbody tr").first();
        await row.waitFor();
        const status = await row.locator("td").nth(3).innerText();
        assert.match(status, new RegExp("^" + w.aborted), `${who} ${lang}: ${status}`);
        assert.doesNotMatch(status, /Side\.|won|undefined|null/, status);
        // Her profile counts it as aborted: not lost, not won.
        await page.goto(`${server.url}/@/${who}?lang=${lang}`);
        await page.locator("#results").waitFor();
        const headers = await page.locator("#results thead th").allInnerTexts();
        assert.equal(headers.at(-1), w.col, headers.join("|"));
        const cells = await page.locator("#results tbody tr").first().locator("td").allInnerTexts();
        assert.deepEqual(cells.slice(3), ["0", "0", "0", "1"], `${who} ${lang}: won, lost, drawn, aborted`);
        await page.locator("#filter-result").selectOption("lost");
        assert.equal(await page.locator("#profile-games tbody tr:not([hidden])").count(), 0, "not among the lost");
        await page.locator("#filter-result").selectOption("aborted");
        assert.equal(await page.locator("#profile-games tbody tr:not([hidden])").count(), 1);
        const line = await page.locator("#profile-games tbody tr:not([hidden]) td").nth(3).innerText();
        assert.match(line, new RegExp("^" + w.aborted), line);
      }
    }
    await olek.page.screenshot({ path: `${SHOTS}/profile-aborted.png`, fullPage: true });
  } finally {
    await browser.close();
    server.stop();
  }
});

test("'left the game' never shows while both are here, shows once she has gone as long as a claim needs, and goes when she returns", async () => {
  const server = await startServer({ claimAfterSecs: 4 });
  const browser = await launch();
  try {
    const ala = await player(browser, server.url, "ala");
    const olek = await player(browser, server.url, "olek");
    const id = await ratedGame(server.url, ala, olek, { game: "ringo", side: "attackers", clock: { base_secs: 300, increment_secs: 0 } });
    // Both see nothing of the kind while both are here: on opening the
    // game, and after both first moves, for longer than a claim needs.
    for (const { page } of [ala, olek]) assert.equal(await page.locator("#opponent-gone").count(), 0);
    await playRingoMove(ala.page, (await state(ala.page)).s.moves[0]);
    await waitState(olek.page, () => window.agonState.history.length === 1);
    await playRingoMove(olek.page, (await state(olek.page)).s.moves[0]);
    await waitState(ala.page, () => window.agonState.history.length === 2);
    const watch = (page) => page.evaluate(() => {
      window.goneSeen = false;
      const seen = () => { if (document.getElementById("opponent-gone") || document.getElementById("claim")) window.goneSeen = true; };
      new MutationObserver(seen).observe(document.body, { childList: true, subtree: true });
      seen();
    });
    await watch(ala.page);
    await watch(olek.page);
    // A reload is no departure either.
    await olek.page.reload();
    await waitState(olek.page, () => !!window.agonState && window.agonYou.length === 1);
    await watch(olek.page);
    await new Promise((r) => setTimeout(r, 5500));
    for (const { page } of [ala, olek]) {
      assert.equal(await page.evaluate(() => window.goneSeen), false, "no 'left the game' while both are here");
    }
    // Olek's tab closes: Ala is told, first that she may claim soon, then
    // that she may claim now (every text the line shows is kept).
    await ala.page.evaluate(() => {
      window.goneTexts = [];
      const note = () => {
        const line = document.getElementById("opponent-gone");
        const text = line ? line.textContent : "";
        if (text && window.goneTexts.at(-1) !== text) window.goneTexts.push(text);
      };
      new MutationObserver(note).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await olek.page.close();
    await ala.page.locator("#opponent-gone", { hasText: /has left the game: you may claim the win\.$/ }).waitFor({ timeout: 20000 });
    await ala.page.locator("#claim").waitFor();
    assert.match(await ala.page.locator("#presence").innerText(), /olek.*not connected/si);
    const texts = await ala.page.evaluate(() => window.goneTexts);
    assert.match(texts[0], /not connected: if she does not come back, you may claim the win in \d s\./, texts.join(" | "));
    assert.doesNotMatch(texts.slice(0, -1).join(" | "), /has left the game/, "the countdown comes first");
    // He comes back: the line and the button go at once, and stay gone.
    olek.page = await olek.context.newPage();
    await olek.page.goto(`${server.url}/g/${id}`);
    await waitState(olek.page, () => !!window.agonState && window.agonYou.length === 1);
    await ala.page.locator("#opponent-gone").waitFor({ state: "detached", timeout: 10000 });
    assert.equal(await ala.page.locator("#claim").count(), 0);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(await ala.page.locator("#opponent-gone").count(), 0);
  } finally {
    await browser.close();
    server.stop();
  }
});
