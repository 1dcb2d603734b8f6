// Tournaments (issue 76), as three people in three browsers see them: a
// short live arena made from the tournaments page, joined from its page,
// where each finished game is followed by a new pairing and the standings
// change on every page; pausing and joining again; and the notice, on
// whatever page a player is, that her tournament starts in five minutes.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, accountAs } from "./helpers.mjs";

async function player(browser, url, name) {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(url + "/rules?lang=en");
  assert.equal(await accountAs(page, "signup", name), 201);
  await page.reload();
  return page;
}

/** The standings as a page shows them: name → score. */
async function standings(page) {
  return page.evaluate(() => Object.fromEntries([...document.querySelectorAll("#tour-standings tbody tr")]
    .map((r) => [r.dataset.player, Number(r.querySelector("td.score").textContent)])));
}

/** Polls `fn` (in node) until it holds, within `ms`. */
async function until(fn, ms = 20000, what = "condition") {
  const end = Date.now() + ms;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > end) throw new Error("timed out waiting for " + what);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Resigns the Ringo pair a player is in, from its game page: the first
 *  game, then (seats swapped) the second. */
async function resignPair(page) {
  await page.locator("#tour-your-game a").click();
  await page.waitForURL(/\/g\//);
  for (let n = 0; n < 2; n++) {
    await page.locator("#resign").click();
    await page.locator("#resign.danger").click();
    if (n === 0) {
      await page.locator("#pair-go").click();
      await page.waitForFunction(() => window.agonState && !window.agonState.over);
    }
  }
}

test("a short live arena: made and joined from its pages, paired again after each game, the standings changing on every page", async () => {
  await withApp(async (server, browser) => {
    const ala = await player(browser, server.url, "ala");
    const bo = await player(browser, server.url, "bo");
    const cy = await player(browser, server.url, "cy");
    // Ala makes a Ringo arena starting now, from the tournaments page.
    await ala.goto(server.url + "/tournaments?lang=en");
    await ala.locator("#tour-kind").selectOption("arena");
    await ala.locator("#tour-game").selectOption("ringo");
    await ala.locator("#tour-clock").selectOption("180+2");
    await ala.locator("#tour-minutes").selectOption("15");
    await ala.locator("#tour-starts").selectOption("0");
    await ala.locator("#tour-name").fill("Saturday arena");
    await ala.locator("#tour-make").click();
    await ala.waitForURL(/\/t\/[a-z0-9]+$/);
    const url = ala.url();
    await ala.locator("h1", { hasText: "Saturday arena" }).waitFor();
    // Everyone joins from its page (Bo and Cy found it in the list).
    for (const p of [bo, cy]) {
      await p.goto(server.url + "/tournaments?lang=en");
      await p.locator("#tournaments-running li a, #tournaments-upcoming li a", { hasText: "Saturday arena" }).first().click();
      await p.waitForURL(url.replace(/\?.*$/, ""));
    }
    for (const p of [ala, bo, cy]) {
      await p.locator("#tour-join").click();
      await p.locator("#tour-withdraw", { hasText: "Pause" }).waitFor();
    }
    // Two are paired at once; the third waits.
    let paired = [];
    await until(async () => {
      paired = [];
      for (const p of [ala, bo, cy]) if (await p.locator("#tour-your-game").count()) paired.push(p);
      return paired.length === 2;
    }, 20000, "the first pairing");
    const waiting = [ala, bo, cy].find((p) => !paired.includes(p));
    // The first paired player resigns both games of the pair: the other
    // wins 2–0, two points (and one for berserk), seen on every page.
    const [loser, winner] = paired;
    const winnerName = await winner.evaluate(() => document.getElementById("account-link").textContent.trim());
    // The winner-to-be goes berserk before her first move: her time halved,
    // a point more if she wins; the games list marks the bout.
    await winner.locator("#tour-berserk").click();
    await winner.locator("#tour-said", { hasText: "Berserk: your time is halved" }).waitFor();
    await winner.locator("#tour-berserk").waitFor({ state: "detached" });
    await resignPair(loser);
    await loser.goto(url);
    for (const p of [ala, bo, cy]) {
      if (p !== loser) await p.goto(url);
    }
    for (const p of [ala, bo, cy]) {
      await until(async () => (await standings(p))[winnerName] === 3, 20000, "two points and one for berserk, on every page");
    }
    // Paired again at once: the winner and the player who waited (not the
    // same two again).
    await until(async () => (await winner.locator("#tour-your-game").count()) === 1
      && (await waiting.locator("#tour-your-game").count()) === 1, 20000, "the next pairing");
    assert.equal(await loser.locator("#tour-your-game").count(), 0, "no immediate rematch");
    // The game in play is listed, to watch.
    const bouts = await ala.locator("#tour-games li[data-bout]").count();
    assert.equal(bouts, 2);
    // The winner's profile shows the event and her place.
    await ala.goto(`${server.url}/@/${winnerName}?lang=en`);
    await ala.locator("#profile-tournaments li", { hasText: /Saturday arena · place 1 of 3 so far, 3 points/ }).waitFor();
  });
});

test("pausing and joining again, and the notice that a tournament starts in five minutes, on another page", async () => {
  await withApp(async (server, browser) => {
    const ala = await player(browser, server.url, "ala");
    const bo = await player(browser, server.url, "bo");
    // An event in four minutes, made through the form.
    await ala.goto(server.url + "/tournaments?lang=en");
    await ala.locator("#tour-kind").selectOption("swiss");
    await ala.locator("#tour-game").selectOption("urgammon");
    await ala.locator("#tour-clock").selectOption("days1");
    await ala.locator("#tour-rounds").selectOption("3");
    await ala.locator("#tour-starts").selectOption("1");
    await ala.locator("#tour-make").click();
    await ala.waitForURL(/\/t\/[a-z0-9]+$/);
    const url = ala.url();
    await ala.locator("#tour-status", { hasText: /Starts in \d+ min/ }).waitFor();
    // Bo joins, withdraws, joins again: the buttons say where she stands.
    await bo.goto(url);
    await bo.locator("#tour-join").click();
    await bo.locator("#tour-said", { hasText: "You are in." }).waitFor();
    await bo.locator("#tour-standings tr[data-player=bo]").waitFor();
    await bo.locator("#tour-withdraw", { hasText: "Withdraw" }).click();
    await bo.locator("#tour-join", { hasText: "Join again" }).waitFor();
    await bo.locator("#tour-standings tr[data-player=bo]", { hasText: "paused" }).waitFor();
    await bo.locator("#tour-join").click();
    await bo.locator("#tour-withdraw").waitFor();
    // On another page, she is told it starts soon (within five minutes),
    // with a link to it.
    await bo.goto(server.url + "/rules?lang=en");
    const bar = bo.locator('#tournament-bar [data-news="starting"]');
    await bar.waitFor();
    assert.match(await bar.innerText(), /Urgammon Swiss starts in \d+ min/);
    await bar.locator("a").click();
    await bo.waitForURL(url);
    // The home page lists it, with a way to it.
    await bo.goto(server.url + "/?lang=en");
    await bo.locator("#home-tournaments li a", { hasText: "Urgammon Swiss" }).waitFor();
    // The list page shows it coming up; signed out, the page asks to sign in.
    const anon = await (await browser.newContext()).newPage();
    await anon.goto(url + "?lang=en");
    await anon.locator("#tour-sign-in").waitFor();
    await anon.goto(server.url + "/tournaments?lang=en");
    await anon.locator("#tournaments-upcoming li", { hasText: "Urgammon Swiss" }).waitFor();
    await anon.locator("#tournament-sign-in").waitFor();
  });
});

/** Plays a two-round Swiss event of `game` among three players in three
 *  browsers: each round, the paired players find their game from the
 *  event's page and the first seat resigns (a Ringo bout's both games);
 *  the bye goes round; every page ends on the podium. */
async function swissInBrowsers(game) {
  await withApp(async (server, browser) => {
    const names = ["ala", "bo", "cy"];
    const pages = {};
    for (const n of names) pages[n] = await player(browser, server.url, n);
    const made = await pages.ala.evaluate((g) => fetch("/api/tournaments", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "swiss", game: g, days: 1, rounds: 2, to: 1, starts_in_secs: 2, name: "Two rounds" }) }).then((r) => r.json()), game);
    assert.ok(made.id, JSON.stringify(made));
    const url = `${server.url}/t/${made.id}?lang=en`;
    for (const n of names) {
      await pages[n].goto(url);
      await pages[n].locator("#tour-join").click();
      await pages[n].locator("#tour-withdraw", { hasText: "Withdraw" }).waitFor();
    }
    const byes = new Set();
    for (const round of [1, 2]) {
      for (const n of names) await pages[n].locator("#tour-status", { hasText: `Round ${round} of 2` }).waitFor({ timeout: 20000 });
      // Who plays whom, as the page lists it: one board and one bye.
      const bouts = await pages.ala.evaluate((r) => [...document.querySelectorAll("#tour-games li[data-bout]")]
        .map((li) => li.textContent).filter((text) => text.startsWith(`round ${r} `)), round);
      assert.equal(bouts.length, 2, JSON.stringify(bouts));
      const bye = bouts.find((b) => b.includes("bye"));
      assert.ok(bye, JSON.stringify(bouts));
      const byeName = bye.split(" · ")[1];
      assert.ok(!byes.has(byeName), `one bye each: ${byeName}`);
      byes.add(byeName);
      // The first seat of the board resigns from her game's page.
      const board = bouts.find((b) => !b.includes("bye"));
      const first = board.split(" · ")[1].split(" – ")[0];
      const p = pages[first];
      await p.locator("#tour-your-game a").click();
      await p.waitForURL(/\/g\//);
      for (let n = 0; n < (game === "ringo" ? 2 : 1); n++) {
        await p.locator("#resign").click();
        await p.locator("#resign.danger").click();
        if (game === "ringo" && n === 0) {
          await p.locator("#pair-go").click();
          await p.waitForFunction(() => window.agonState && !window.agonState.over);
        }
      }
      await p.goto(url);
    }
    // Every page ends on the podium; three players, four points in all
    // (two boards and two byes).
    for (const n of names) {
      await pages[n].locator("#tour-status", { hasText: "Finished" }).waitFor({ timeout: 20000 });
      await pages[n].locator("#tour-podium-list li").nth(2).waitFor();
      const table = await standings(pages[n]);
      assert.equal(Object.values(table).reduce((a, b) => a + b, 0), 4, JSON.stringify(table));
    }
  });
}

test("a two-round Swiss event in Urgammon (a match a round), in three browsers, to its podium", async () => {
  await swissInBrowsers("urgammon");
});

test("a two-round Swiss event in Ringo (a pair of games a round), in three browsers, to its podium", async () => {
  await swissInBrowsers("ringo");
});
