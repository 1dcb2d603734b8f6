// Tournaments (issue 76), as three people in three browsers see them: a
// short live arena made from the tournaments page, joined from its page,
// where each finished game is followed by a new pairing and the standings
// change on every page; pausing and joining again; and the notice, on
// whatever page a player is, that her tournament starts in five minutes;
// two-round Swiss events in both games; and a kill -9 of the instance
// pairing an arena, the other going on with it.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import { withApp, accountAs, startServer, launch, freshDatabase, startPushService, decrypt } from "./helpers.mjs";

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

/** Plays a tournament game on from its players' pages, as their pages
 *  send actions (the side to act takes the first legal step: a Ringo move;
 *  an Urgammon roll, move, verdict or next game), until each side has made
 *  a decision and at least `turns` turns (Ringo moves, Urgammon rolls) were
 *  played: a bout whose first game ended before each side moved is void
 *  (issue 86), so a test that wants a result plays a little first. */
async function playOn(pages, game, turns) {
  const acted = new Set();
  let played = 0;
  for (let i = 0; i < 400 && (acted.size < 2 || played < turns); i++) {
    const s = (await pages[0].evaluate((g) => fetch(`/api/games/${g}`).then((r) => r.json()), game)).state;
    assert.ok(!s.over, `the game ended early: ${JSON.stringify(s)}`);
    const ringo = "rings" in s;
    const step = ringo ? { type: "move", move: s.moves[0] }
      : s.between_games ? { type: "next" }
      : s.phase === "roll" ? { type: "roll" }
      : s.moves.length ? { type: "move", move: s.moves[0] } : { type: "verdict" };
    let done = false;
    for (const [n, page] of pages.entries()) {
      const status = await page.evaluate(([g, body]) => fetch(`/api/games/${g}/action`, { method: "POST",
        headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then((r) => r.status), [game, step]);
      if (status === 200) {
        acted.add(n);
        if (ringo || step.type === "roll") played++;
        done = true;
        break;
      }
    }
    // A pair's second game waits a moment before its first move.
    if (!done) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(acted.size === 2 && played >= turns, `${game}: played on ${played} turns`);
}

/** The game a player's page shows. */
const gameOf = (page) => new URL(page.url()).pathname.split("/")[2];

/** Whether a player's page is on a game. */
const onGame = (page) => new URL(page.url()).pathname.startsWith("/g/");

/** Joins the arena whose page a player is on, from its button: she is in
 *  (its Pause shows), or paired at once and taken to her game. */
async function joinArena(page) {
  await page.locator("#tour-join").click();
  await until(async () => onGame(page) || (await page.locator("#tour-withdraw", { hasText: "Pause" }).count()) > 0, 20000, "in");
}

/** Waits until a player's page is on her tournament game: taken there by
 *  itself (the event's page goes to a game paired while she is on it), or
 *  by the link to the game she already had when the page opened. */
async function toGame(page) {
  await until(async () => onGame(page) || (await page.locator("#tour-your-game a").count()) > 0, 30000, "her game");
  if (!onGame(page)) await page.locator("#tour-your-game a").click();
  await page.waitForURL(/\/g\//);
  await page.waitForFunction(() => window.agonState && !window.agonState.over);
}

/** Resigns the Ringo pair a player is in, from its game page, after
 *  `turns` turns of its first game played from both players' pages: the
 *  first game, then (seats swapped) the second. */
async function resignPair(page, other, turns) {
  await toGame(page);
  await playOn([page, other], gameOf(page), turns);
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
      await p.evaluate(() => { window.agonSounds = []; });
      await joinArena(p);
    }
    // A watcher (signed out) keeps the event's page open throughout.
    const watcher = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await watcher.goto(url);
    // Two are paired at once, and the event's page takes each to her game
    // by itself, with a sound; the third waits.
    let paired = [];
    await until(async () => {
      paired = [ala, bo, cy].filter(onGame);
      return paired.length === 2;
    }, 20000, "the first pairing");
    for (const p of paired) {
      await p.waitForFunction(() => window.agonState && !window.agonState.over);
      assert.ok((await p.evaluate(() => window.agonSounds || [])).length > 0, "a sound as she is taken there");
    }
    assert.equal(gameOf(paired[0]), gameOf(paired[1]), "the same game");
    const waiting = [ala, bo, cy].find((p) => !paired.includes(p));
    // The waiting player's page stays open from here on: what changes it
    // is pushed on the event's socket, never read again.
    const reads = [];
    waiting.on("request", (r) => { if (/^\/api\/tournaments\/[a-z0-9]+$/.test(new URL(r.url()).pathname)) reads.push(r.url()); });
    // The first paired player resigns both games of the pair: the other
    // wins 2–0, two points (and one for berserk), seen on every page.
    const [loser, winner] = paired;
    const winnerName = await winner.evaluate(() => document.getElementById("account-link").textContent.trim());
    // The winner-to-be goes berserk before her first move, from the game
    // she was taken to: her time halved (3:00 → 1:30), a point more if she
    // wins; the games list marks the bout.
    await winner.locator("#game-berserk").click();
    await winner.locator("#toast", { hasText: "Berserk: your time is halved" }).waitFor();
    const seat = await winner.evaluate(() => window.agonYou[0]);
    await winner.locator(`#clock-${seat} .clock-time`, { hasText: "1:30" }).waitFor();
    await winner.locator("#game-berserk").waitFor({ state: "detached" });
    // Seven moves each first: berserk's point needs them (lichess's line).
    await resignPair(loser, winner, 14);
    await loser.goto(url);
    for (const p of [loser, watcher]) {
      await until(async () => (await standings(p))[winnerName] === 3, 20000, "two points and one for berserk, on the event's pages");
    }
    // Paired again at once: the winner and the player who waited (not the
    // same two again). The page that waited goes to its game by itself,
    // and the winner's finished game takes her to the next.
    await until(async () => onGame(waiting) && onGame(winner) && gameOf(winner) === gameOf(waiting), 20000, "the next pairing");
    assert.equal(await loser.locator("#tour-your-game").count(), 0, "no immediate rematch");
    assert.ok(!onGame(loser), "no immediate rematch");
    assert.deepEqual(reads, [], "the standings and the pairing were pushed to the page that stayed open");
    // The game in play is listed, to watch; her own game, on the event's
    // page she opens during it, is a link and does not take her away.
    await waiting.goto(url);
    await waiting.locator("#tour-your-game a").waitFor();
    await ala.goto(url);
    await until(async () => (await ala.locator("#tour-games li[data-bout]").count()) === 2, 10000, "both bouts listed");
    assert.ok(!onGame(waiting), "the page opened during her game stays");
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
    // Under a minute to go, in seconds (it said "0 min").
    assert.match(await bar.innerText(), /^Urgammon Swiss starts in \d{1,2} s\b/);
    // It counts down, each second, without a reload.
    const first = await bar.locator("span").innerText();
    await bar.locator("span").filter({ hasNotText: first }).waitFor({ timeout: 2200 });
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

test("a finished arena game offers the way back and a pause, never a rematch, and the next game comes to the player by itself", async () => {
  await withApp(async (server, browser) => {
    const ala = await player(browser, server.url, "ala");
    const bo = await player(browser, server.url, "bo");
    const made = await ala.evaluate(() => fetch("/api/tournaments", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "arena", game: "urgammon", to: 1, clock: { base_secs: 300, increment_secs: 0 }, minutes: 30, starts_in_secs: 0, name: "Evening arena" }) }).then((r) => r.json()));
    assert.ok(made.id, JSON.stringify(made));
    const url = `${server.url}/t/${made.id}?lang=en`;
    for (const p of [ala, bo]) {
      await p.goto(url);
      await joinArena(p);
    }
    // Both are taken to the game by the event's page; Ala resigns it.
    for (const p of [ala, bo]) await toGame(p);
    const first = new URL(ala.url()).pathname;
    // Bo pauses (from another tab, as it were) so that nobody is paired
    // again at once: the finished game's page stays to be looked at.
    const tourCall = (p, verb) => p.evaluate(([id, v]) => fetch(`/api/tournaments/${id}/${v}`, { method: "POST", headers: { "content-type": "application/json" } })
      .then((r) => r.status), [made.id, verb]);
    assert.equal(await tourCall(bo, "withdraw"), 200);
    await ala.locator("#resign").click();
    await ala.locator("#resign.danger").click();
    for (const p of [ala, bo]) {
      // The way back to the event, and a pause (an arena under way); no
      // rematch, no challenge: the event pairs.
      await p.locator("#tour-back", { hasText: "Back to Evening arena" }).waitFor();
      assert.equal(await p.locator("#tour-back").getAttribute("href"), `/t/${made.id}`);
      await p.locator("#tour-pause").waitFor();
      assert.equal(await p.locator("#rematch-offer, #challenge-opponent").count(), 0);
    }
    // Ala pauses from her finished game: the event has her paused.
    await ala.locator("#tour-pause").click();
    await ala.locator("#toast", { hasText: "Paused" }).waitFor();
    const mine = await ala.evaluate((id) => fetch(`/api/tournaments/${id}`).then((r) => r.json()), made.id);
    assert.equal(mine.you.withdrawn, true, JSON.stringify(mine.you));
    // Both join again (from another tab, as it were) and are paired again:
    // both pages, still on the finished game, go to the new game by
    // themselves, with a sound.
    await ala.evaluate(() => { window.agonSounds = []; });
    assert.equal(await tourCall(ala, "join"), 200);
    assert.equal(await tourCall(bo, "join"), 200);
    for (const p of [ala, bo]) {
      await p.waitForURL((u) => u.pathname.startsWith("/g/") && u.pathname !== first, { timeout: 30000 });
      await p.waitForFunction(() => window.agonState && !window.agonState.over);
    }
    assert.equal(new URL(ala.url()).pathname, new URL(bo.url()).pathname, "the same new game");
    assert.ok((await ala.evaluate(() => window.agonSounds || [])).length > 0, "a sound as she is taken there");
    // Back to the event from a finished game: Ala resigns this one and
    // takes the way back, landing on the event's page.
    assert.equal(await tourCall(bo, "withdraw"), 200);
    await ala.locator("#resign").click();
    await ala.locator("#resign.danger").click();
    await ala.locator("#tour-back").click();
    await ala.waitForURL((u) => u.pathname === `/t/${made.id}`);
    await ala.locator("h1", { hasText: "Evening arena" }).waitFor();
    // Both bouts were resigned before anyone moved: each is listed as
    // void (and says why), and nobody scored (points cannot be traded).
    await until(async () => (await ala.locator("#tour-games li[data-bout] .void").count()) === 2, 20000, "two void bouts");
    assert.equal(await ala.locator("#tour-games li[data-bout] .void").first().getAttribute("title"),
      "ended before each side had moved: it counts for nobody");
    assert.deepEqual(Object.values(await standings(ala)), [0, 0]);
  });
});

test("four players, paired on the event's page, on a finished game and on another page: each lands in her game or is offered it", async () => {
  await withApp(async (server, browser) => {
    const names = ["ala", "bo", "cy", "dee"];
    const pages = {};
    for (const n of names) pages[n] = await player(browser, server.url, n);
    const made = await pages.ala.evaluate(() => fetch("/api/tournaments", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "arena", game: "urgammon", to: 1, clock: { base_secs: 300, increment_secs: 0 }, minutes: 30, starts_in_secs: 0, name: "Four arena" }) }).then((r) => r.json()));
    assert.ok(made.id, JSON.stringify(made));
    const url = `${server.url}/t/${made.id}?lang=en`;
    // Paired on the event's page: all four are taken to their games.
    for (const n of names) {
      await pages[n].goto(url);
      await joinArena(pages[n]);
    }
    for (const n of names) await toGame(pages[n]);
    const opponent = {};
    for (const n of names) opponent[n] = names.find((m) => m !== n && gameOf(pages[m]) === gameOf(pages[n]));
    const [x1, x2] = ["ala", opponent.ala];
    const [y1, y2] = names.filter((n) => n !== x1 && n !== x2);
    // The first bout ends: both its players stay on the finished game.
    await playOn([pages[x1], pages[x2]], gameOf(pages[x1]), 2);
    await pages[x1].locator("#resign").click();
    await pages[x1].locator("#resign.danger").click();
    for (const n of [x1, x2]) await pages[n].locator("#tour-back").waitFor();
    const finished = { [x1]: gameOf(pages[x1]), [x2]: gameOf(pages[x2]) };
    // One player of the other bout looks at another page while her
    // opponent ends it; then all four are paired again, crosswise.
    const away = y1;
    const yGame = gameOf(pages[y1]);
    await pages[away].goto(server.url + "/rules?lang=en");
    await playOn([pages[y2], pages[away]], yGame, 2);
    await pages[y2].locator("#resign").click();
    await pages[y2].locator("#resign.danger").click();
    finished[y2] = yGame;
    // From a finished game, each is taken to her new game by itself.
    for (const n of [x1, x2, y2]) {
      await pages[n].waitForURL((u) => u.pathname.startsWith("/g/") && u.pathname !== `/g/${finished[n]}`, { timeout: 30000 });
      await pages[n].waitForFunction(() => window.agonState && !window.agonState.over);
    }
    // On another page, the tournament bar offers it; a click takes her there.
    const bar = pages[away].locator('#tournament-bar [data-news="game"]');
    await bar.waitFor({ timeout: 30000 });
    assert.match(await bar.innerText(), /Four arena/);
    assert.equal(new URL(pages[away].url()).pathname, "/rules", "another page is not taken away from");
    await pages[away].locator("#tournament-bar-play").click();
    await pages[away].waitForURL((u) => u.pathname.startsWith("/g/") && u.pathname !== `/g/${yGame}`);
    await pages[away].waitForFunction(() => window.agonState && !window.agonState.over);
    // Two new games, crosswise: nobody meets her last opponent.
    for (const n of names) {
      const mate = names.find((m) => m !== n && gameOf(pages[m]) === gameOf(pages[n]));
      assert.ok(mate, `${n} has an opponent on the same game`);
      assert.notEqual(mate, opponent[n], `${n} does not meet ${opponent[n]} again`);
    }
  });
});

test("the tournament bar takes its own room: on a game in play it covers neither clock nor board, at 390 and 1280 px", async () => {
  await withApp(async (server, browser) => {
    const ala = await player(browser, server.url, "ala");
    const bo = await player(browser, server.url, "bo");
    // Bo enters an event starting in four minutes: every page tells her.
    const made = await ala.evaluate(() => fetch("/api/tournaments", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "swiss", game: "urgammon", to: 1, days: 1, rounds: 3, starts_in_secs: 240, name: "Soon Swiss" }) }).then((r) => r.json()));
    assert.ok(made.id, JSON.stringify(made));
    assert.equal(await bo.evaluate((id) => fetch(`/api/tournaments/${id}/join`, { method: "POST", headers: { "content-type": "application/json" } })
      .then((r) => r.status), made.id), 200);
    // Meanwhile she plays a live game with Ala (a challenge accepted).
    const c = await ala.evaluate(() => fetch("/api/challenges", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ user: "bo", game: "ringo", clock: { base_secs: 300, increment_secs: 3 }, side: "attackers" }) }).then((r) => r.json()));
    const g = await bo.evaluate((id) => fetch(`/api/challenges/${id}/accept`, { method: "POST", headers: { "content-type": "application/json" } })
      .then((r) => r.json()), c.id);
    for (const [width, height] of [[390, 844], [1280, 800]]) {
      await bo.setViewportSize({ width, height });
      await bo.goto(`${server.url}/g/${g.game}?lang=en`);
      await bo.locator('#tournament-bar [data-news="starting"]').waitFor();
      await bo.locator("#clock-0").waitFor();
      await bo.evaluate(() => window.scrollTo(0, 0));
      const overlaps = await bo.evaluate(() => {
        const bar = document.getElementById("tournament-bar").getBoundingClientRect();
        const hit = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.left < bar.right && r.right > bar.left && r.top < bar.bottom && r.bottom > bar.top; };
        return [...document.querySelectorAll("#clock-0, #clock-1, svg.board, main h1, main h2")].filter(hit).map((e) => e.id || e.tagName);
      });
      assert.deepEqual(overlaps, [], `${width} px: the bar covers ${overlaps.join(", ")}`);
      // It pushes the page down: the page starts below it.
      const [barBottom, mainTop] = await bo.evaluate(() => [document.getElementById("tournament-bar").getBoundingClientRect().bottom,
        document.getElementById("main").getBoundingClientRect().top]);
      assert.ok(mainTop >= barBottom - 0.5, `${width} px: main at ${mainTop}, the bar ends at ${barBottom}`);
    }
  });
});

/** Plays a two-round Swiss event of `game` among three players in three
 *  browsers: each round, the paired players are taken to their game (from
 *  the event's page, or from the last finished game), each side decides
 *  once and the first seat resigns (a Ringo bout's both games); the bye
 *  goes round; every page ends on the podium. */
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
    // A watcher (signed out) keeps the event's page open: the players'
    // pages go to their games by themselves.
    const watcher = await (await browser.newContext()).newPage();
    await watcher.goto(url);
    const byes = new Set();
    for (const round of [1, 2]) {
      await watcher.locator("#tour-status", { hasText: `Round ${round} of 2` }).waitFor({ timeout: 20000 });
      // Who plays whom, as the page lists it: one board and one bye (the
      // round's status and its list arrive in separate pushes: wait for
      // the list).
      const listed = () => watcher.evaluate((r) => [...document.querySelectorAll("#tour-games li[data-bout]")]
        .map((li) => li.textContent).filter((text) => text.startsWith(`round ${r} `)), round);
      let bouts = [];
      await until(async () => (bouts = await listed()).length >= 2, 20000, `round ${round}'s bouts listed`);
      assert.equal(bouts.length, 2, JSON.stringify(bouts));
      const bye = bouts.find((b) => b.includes("bye"));
      assert.ok(bye, JSON.stringify(bouts));
      const byeName = bye.split(" · ")[1];
      assert.ok(!byes.has(byeName), `one bye each: ${byeName}`);
      byes.add(byeName);
      // The first seat of the board, taken to her game (from the event's
      // page, or from her last finished game), resigns it there.
      const board = bouts.find((b) => !b.includes("bye"));
      const [first, second] = board.split(" · ")[1].split(" – ");
      const p = pages[first];
      await toGame(p);
      for (let n = 0; n < (game === "ringo" ? 2 : 1); n++) {
        // Each side decides once first: a bout ended before that is void.
        await playOn([p, pages[second]], gameOf(p), 2);
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
      await pages[n].goto(url);
      await pages[n].locator("#tour-status", { hasText: "Finished" }).waitFor({ timeout: 20000 });
      await pages[n].locator("#tour-podium-list li").nth(2).waitFor();
      const table = await standings(pages[n]);
      assert.equal(Object.values(table).reduce((a, b) => a + b, 0), 4, JSON.stringify(table));
      // The Games column counts games played, as FIDE does: a bye is none
      // (two rounds, so one game for each player who had a bye, two for
      // the one who had none); its sheet shows the bye as B.
      const rows = await pages[n].evaluate(() => Object.fromEntries([...document.querySelectorAll("#tour-standings tbody tr")]
        .map((r) => [r.dataset.player, [Number(r.querySelectorAll("td")[4].textContent), r.querySelector("td.sheet").textContent]])));
      for (const who of names) {
        const [played, sheet] = rows[who];
        const byesHad = sheet.split(" ").filter((x) => x === "B").length;
        assert.equal(byesHad, byes.has(who) ? 1 : 0, `${who}: ${sheet}`);
        assert.equal(played, 2 - byesHad, `${who}'s games with ${byesHad} bye: ${JSON.stringify(rows)}`);
      }
    }
  });
}

test("a two-round Swiss event in Urgammon (a match a round), in three browsers, to its podium", async () => {
  await swissInBrowsers("urgammon");
});

test("a two-round Swiss event in Ringo (a pair of games a round), in three browsers, to its podium", async () => {
  await swissInBrowsers("ringo");
});

/** Resigns the game a player's event page offers her, from its page,
 *  once each side has made a decision (from both players' pages). */
async function resignGame(page, other) {
  await toGame(page);
  await playOn([page, other], gameOf(page), 2);
  await page.locator("#resign").click();
  await page.locator("#resign.danger").click();
  await page.waitForFunction(() => window.agonState && window.agonState.over);
}

/** An arena's points recounted from the stored games themselves: 2 a win,
 *  4 on a streak of two wins before it (Urgammon has no draws). */
async function recount(url, view) {
  const results = {};
  for (const b of [...view.games].reverse()) {
    if (!b.over) continue;
    const g = await (await fetch(`${url}/api/games/${b.id}`)).json();
    assert.ok(g.state.over, `bout ${b.id} is over in its stored game`);
    const winner = g.state.players[g.state.seat_names.indexOf(g.state.winner)].name;
    for (const n of [b.first, b.second]) (results[n] ??= []).push(n === winner);
  }
  const points = {};
  for (const [n, r] of Object.entries(results)) {
    points[n] = r.reduce((sum, won, i) => sum + (won ? (i >= 2 && r[i - 1] && r[i - 2] ? 4 : 2) : 0), 0);
  }
  return points;
}

test("kill -9 of the instance pairing an arena: the other pairs within seconds, no game lost, the standings a recount of the stored games", async (t) => {
  const database = freshDatabase("e2e_arena_kill");
  if (!database) return t.skip("no PostgreSQL test server (AGON_TEST_DATABASE_URL)");
  // Instance A alone makes, starts and pairs the arena (it holds the lease).
  const a = await startServer({ database });
  const browser = await launch();
  let b = null;
  try {
    const names = ["ala", "bo", "cy", "dee"];
    const pages = {};
    for (const n of names) pages[n] = await player(browser, a.url, n);
    const made = await pages.ala.evaluate(() => fetch("/api/tournaments", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "arena", game: "urgammon", to: 1, clock: { base_secs: 300, increment_secs: 0 }, minutes: 30, starts_in_secs: 0, name: "Failover arena" }) })
      .then((r) => r.json()));
    const id = made.id;
    for (const n of names) {
      await pages[n].goto(`${a.url}/t/${id}?lang=en`);
      await joinArena(pages[n]);
    }
    const pairer = () => execFileSync("psql", [database, "-tAc", `SELECT coalesce(pairer, '') FROM tournaments WHERE id = '${id}'`]).toString().trim();
    await until(() => pairer() !== "", 20000, "A to hold the arena's lease");
    const holder = pairer();
    for (const n of names) await toGame(pages[n]);
    // A first bout ends on A: its winner scores.
    const first = await (await fetch(`${a.url}/api/tournaments/${id}`)).json();
    const [bout1, bout2] = first.games;
    await resignGame(pages[bout1.first], pages[bout1.second]);
    await until(async () => (await (await fetch(`${a.url}/api/tournaments/${id}`)).json()).games.some((g) => g.id === bout1.id && g.over), 20000, "the first bout settled");
    // Instance B starts; every player's page moves to it; A is killed.
    b = await startServer({ database });
    for (const n of names) {
      await pages[n].goto(`${b.url}/t/${id}?lang=en`);
      await pages[n].locator("#tour-standings tr[data-player=ala]").waitFor();
    }
    assert.equal(pairer(), holder, "A still holds the lease when it is killed");
    await a.kill();
    const killed = Date.now();
    // The bout A opened and never saw end is played out on B: no game lost.
    await resignGame(pages[bout2.first], pages[bout2.second]);
    for (const n of names) await pages[n].goto(`${b.url}/t/${id}?lang=en`);
    // B takes the lease over and pairs the four again (not the same two):
    // each event's page takes its player to her game.
    for (const n of names) await toGame(pages[n]);
    const took = Date.now() - killed;
    assert.ok(took < 20000, `paired again ${took} ms after the kill`);
    t.diagnostic(`paired again ${took} ms after the kill (a lease lasts 5 s)`);
    assert.notEqual(pairer(), holder, "B holds the lease now");
    const after = await (await fetch(`${b.url}/api/tournaments/${id}`)).json();
    assert.equal(after.games.length, 4, "two bouts before the kill, two after");
    for (const g of after.games.slice(0, 2)) {
      assert.notDeepEqual([g.first, g.second].sort(), [bout1.first, bout1.second].sort(), "no immediate rematch");
      assert.notDeepEqual([g.first, g.second].sort(), [bout2.first, bout2.second].sort(), "no immediate rematch");
    }
    // The standings, on the API and on every page, are a recount of the
    // stored games.
    const points = await recount(b.url, after);
    const api = Object.fromEntries(after.standings.map((s) => [s.name, s.score]));
    for (const n of names) assert.equal(api[n], points[n] ?? 0, `${n}'s score`);
    for (const n of names) {
      await pages[n].goto(`${b.url}/t/${id}?lang=en`);
      await until(async () => JSON.stringify(await standings(pages[n])) === JSON.stringify(Object.fromEntries(after.standings.map((s) => [s.name, s.score]))),
        10000, `${n}'s page showing the recount`);
    }
    assert.deepEqual(Object.values(points).sort(), [0, 0, 2, 2], "two bouts won, two lost");
  } finally {
    await browser.close();
    a.stop();
    if (b) b.stop();
  }
});

test("Web Push tells players away that their tournament starts in five minutes and that their game is ready, each in her language", async () => {
  const server = await startServer({ pushInsecure: true });
  const push = await startPushService();
  const browser = await launch();
  try {
    // Two players, each with a browser subscribed to Web Push (its keys made
    // by the test as a browser makes them), Ala in Polish.
    const keys = {};
    const pages = {};
    for (const [n, lang] of [["ala", "pl"], ["bo", "en"]]) {
      pages[n] = await player(browser, server.url, n);
      const ua = crypto.createECDH("prime256v1");
      ua.generateKeys();
      const auth = crypto.randomBytes(16);
      keys[n] = { ua, auth };
      const status = await pages[n].evaluate(([endpoint, p256dh, a, l]) => fetch("/api/push/subscriptions", {
        method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ subscription: { endpoint, keys: { p256dh, auth: a } }, games: [], lang: l }),
      }).then((r) => r.status), [push.endpoint(n), ua.getPublicKey().toString("base64url"), auth.toString("base64url"), lang]);
      assert.equal(status, 201);
    }
    // A one-round Swiss by correspondence, starting in 20 s; both enter,
    // then close every page (away).
    const made = await pages.ala.evaluate(() => fetch("/api/tournaments", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "swiss", game: "urgammon", to: 1, days: 1, rounds: 1, starts_in_secs: 20, name: "Push Swiss" }) }).then((r) => r.json()));
    for (const n of ["ala", "bo"]) {
      const status = await pages[n].evaluate((id) => fetch(`/api/tournaments/${id}/join`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
        .then((r) => r.status), made.id);
      assert.equal(status, 200);
      await pages[n].context().close();
    }
    const told = (n) => push.received.filter((r) => r.url === `/push/${n}`).map((r) => decrypt(r.body, keys[n].ua, keys[n].auth));
    await until(() => told("ala").length >= 2 && told("bo").length >= 2, 40000, "both notices to both players");
    const [starting, ready] = told("ala");
    assert.equal(starting.title, "Twój turniej zaczyna się za 5 minut");
    assert.equal(starting.body, "Push Swiss");
    assert.equal(starting.url, `/t/${made.id}`);
    assert.equal(ready.title, "Twoja partia turniejowa czeka");
    assert.equal(ready.url, `/t/${made.id}`);
    assert.deepEqual(told("bo").map((m) => m.title), ["Your tournament starts in 5 minutes", "Your tournament game is ready"]);
    // Each notice once.
    await new Promise((r) => setTimeout(r, 2500));
    assert.equal(told("ala").length, 2);
    assert.equal(told("bo").length, 2);
  } finally {
    await browser.close();
    push.close();
    server.stop();
  }
});

test("a large event's page shows the leaders pushed, the player's own line below them, and everyone on a click", async () => {
  await withApp(async (server, browser) => {
    // 55 players sign up and enter through the API, as other programs do.
    const signup = async (name) => {
      const r = await fetch(server.url + "/api/account/signup", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ name, password: "correct horse battery" }) });
      assert.equal(r.status, 201);
      return r.headers.get("set-cookie").split(";")[0];
    };
    const post = (path, cookie, body) => fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json", cookie },
      body: JSON.stringify(body ?? {}) });
    const cookies = [];
    for (let i = 0; i < 54; i++) cookies.push(await signup(`p${String(i).padStart(2, "0")}`));
    const made = await (await post("/api/tournaments", cookies[0], { kind: "arena", game: "ringo", clock: { base_secs: 180, increment_secs: 2 },
      minutes: 30, starts_in_secs: 600, name: "Big arena" })).json();
    for (const c of cookies) assert.equal((await post(`/api/tournaments/${made.id}/join`, c)).status, 200);
    // The 55th joins from her page: the last line.
    const zed = await player(browser, server.url, "zed");
    await zed.goto(`${server.url}/t/${made.id}?lang=en`);
    await zed.locator("#tour-join").click();
    await zed.locator("#tour-more", { hasText: "and 5 more" }).waitFor();
    await until(async () => (await zed.locator("#tour-standings tbody tr").count()) === 51, 10000, "the leaders and her own line");
    assert.equal(await zed.locator("#tour-standings tbody tr").last().getAttribute("data-player"), "zed");
    // Everyone, by keyboard.
    await zed.locator("#tour-show-all").focus();
    await zed.keyboard.press("Enter");
    await until(async () => (await zed.locator("#tour-standings tbody tr").count()) === 55, 10000, "everyone");
    await zed.locator("#tour-more").waitFor({ state: "detached" });
    // On her phone (390 px, touch): the same page fits the screen, and
    // "Show everyone" is a tap that shows all 55 lines, still in 390 px.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.addCookies(await zed.context().cookies());
    const mobile = await phone.newPage();
    await mobile.goto(`${server.url}/t/${made.id}?lang=en`);
    await mobile.locator("#tour-more", { hasText: "and 5 more" }).waitFor();
    const wide = () => mobile.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(await wide() <= 390, `the page is ${await wide()} px wide on a 390 px screen`);
    assert.equal(await mobile.locator("#tour-standings tbody tr").count(), 51);
    await mobile.locator("#tour-show-all").tap();
    await until(async () => (await mobile.locator("#tour-standings tbody tr").count()) === 55, 10000, "everyone on the phone");
    assert.ok(await wide() <= 390, `everyone shown, the page is ${await wide()} px wide`);
    const last = mobile.locator("#tour-standings tbody tr").last();
    await last.scrollIntoViewIfNeeded();
    const box = await last.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the last line within the screen: ${JSON.stringify(box)}`);
    assert.match(await last.innerText(), /\S/);
  }, { extra: ["--account-limit", "0"] });
});
