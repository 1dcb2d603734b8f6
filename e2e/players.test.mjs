// What a newcomer met (issue 57), taken as a person takes it, each player
// checking what their own browser shows: a friend game that waits for the
// friend, a seat moved to another device, the replay's keys and turns, an
// imported game played on, the review in Polish and French, move lists by
// keyboard, and the board's small things.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, waitState, state, playRingoMove, clickRingoCell, apiCall, openAsPlayer, newGame, SHOTS } from "./helpers.mjs";

/** A fixed Urgammon match (dice and all), resigned: its review always has
 *  graded decisions, moves and verdict choices among them. */
const UR_RECORD = "urgammon match to=3 draw=replay\nstart:2-3 P-2a r1 P-1b r1 P-1a r3 P-3b r2 2a-4a r2\nresign:light\n";

/** A Ringo game of `n` moves on one screen, through the API: its id and token. */
async function ringoGame(url, n) {
  const g = await apiCall(url, "POST", "/api/games", { game: "ringo", opponent: "local" });
  let s = g.state;
  for (let i = 0; i < n && !s.over; i++) {
    // The first legal move whose piece is not the one just moved, so the
    // game goes on (a seeded choice: the same game every run).
    const move = s.moves[(i * 7) % s.moves.length];
    s = (await apiCall(url, "POST", `/api/games/${g.id}/action`, { type: "move", move }, g.token)).state;
  }
  return { g, s };
}

/** An Urgammon match on one screen, `n` actions in, through the API. */
async function urgammonGame(url, n) {
  const g = await apiCall(url, "POST", "/api/games", { game: "urgammon", opponent: "local", to: 3 });
  let s = g.state;
  for (let i = 0; i < n && !s.over; i++) {
    const action = s.between_games ? { type: "next" } : s.phase === "roll" ? { type: "roll" }
      : s.moves.length ? { type: "move", move: s.moves[0] } : { type: "verdict" };
    s = (await apiCall(url, "POST", `/api/games/${g.id}/action`, action, g.token)).state;
  }
  return { g, s };
}

/** Presses Tab until the focused element matches `selector` (at most `max`
 *  presses); returns whether it got there. */
async function tabTo(page, selector, max = 120) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate((sel) => document.activeElement?.matches(sel), selector)) return true;
  }
  return false;
}

test("a friend game waits for the friend: the invite first and largest, nobody moves; then it begins for both", async () => {
  await withApp(async (server, browser) => {
    const aliceContext = await browser.newContext();
    await aliceContext.grantPermissions(["clipboard-read", "clipboard-write"]);
    const alice = await aliceContext.newPage({ viewport: { width: 1280, height: 900 } });
    const bob = await (await browser.newContext()).newPage();
    await newGame(alice, server.url, { game: "ringo", opponent: "friend", side: "attackers" });
    await waitState(alice, () => window.agonState && window.agonYou.length === 1);
    // The waiting box stands first in the panel, the invite link inside it,
    // with its copy button; no "Your turn".
    await alice.locator("#waiting").waitFor();
    assert.equal(await alice.locator("#waiting-title").innerText(), "Waiting for your friend");
    assert.equal(await alice.locator("aside > :first-child").getAttribute("id"), "waiting");
    assert.equal(await alice.locator("#waiting #invite-link").count(), 1);
    assert.match(await alice.locator("#turn").innerText(), /begins when the second player joins/);
    assert.doesNotMatch(await alice.locator("aside").innerText(), /Your turn/);
    const invite = await alice.locator("#invite-link").inputValue();
    assert.match(invite, /\?invite=[0-9a-f]{32}$/);
    // The invite is larger than the watch link, and the watch link stands
    // apart at the panel's end, saying it is only for watching.
    const [big, small] = [await alice.locator("#invite-link").boundingBox(), await alice.locator("#watch-link").boundingBox()];
    assert.ok(big.height > small.height, `invite ${big.height} px, watch ${small.height} px`);
    assert.ok(small.y > big.y + 200, "the watch link is well below the invite");
    assert.match(await alice.locator("#watch-box").innerText(), /For spectators only/);
    // Copy, by the keyboard.
    await alice.locator("#invite-link-copy").focus();
    await alice.keyboard.press("Enter");
    await alice.waitForFunction((w) => navigator.clipboard.readText().then((c) => c === w), invite);
    // Nobody can move: a click on a piece picks nothing, and the API says why.
    await clickRingoCell(alice, "b6");
    assert.equal(await alice.locator(".cell.selected").count(), 0);
    assert.equal(await alice.locator("#move-hint").count(), 0);
    const { s } = await state(alice);
    const token = await alice.evaluate((id) => localStorage.getItem("agon-token-" + id), s.id);
    const res = await fetch(`${server.url}/api/games/${s.id}/action`, { method: "POST",
      headers: { "content-type": "application/json", "x-agon-token": token }, body: JSON.stringify({ type: "move", move: "b6-b5" }) });
    assert.equal(res.status, 409);
    assert.equal((await res.json()).code, "waiting-for-friend");
    await alice.screenshot({ path: `${SHOTS}/friend-waiting.png` });
    // Bob opens the link: the game begins, on both pages.
    await bob.goto(invite);
    await waitState(bob, () => window.agonState && window.agonYou.length === 1);
    assert.equal(await bob.locator("#waiting").count(), 0);
    await alice.locator("#waiting").waitFor({ state: "detached" });
    await waitState(alice, () => !window.agonState.waiting_for_friend);
    assert.match(await alice.locator("#turn").innerText(), /Your turn/);
    assert.match(await bob.locator("#turn").innerText(), /Attackers to move/);
    await playRingoMove(alice, "b6-b5");
    await waitState(bob, () => window.agonState.history.includes("b6-b5"));
  });
});

test("a seat moved to another device: the old device switches to watching at once and says why", async () => {
  await withApp(async (server, browser) => {
    const first = await (await browser.newContext()).newPage();
    const second = await (await browser.newContext()).newPage();
    await newGame(first, server.url, { game: "ringo", opponent: "engine", level: 1, side: "attackers" });
    await waitState(first, () => window.agonState && window.agonYou.length === 1);
    await first.locator("#seat-link-btn").click();
    const link = await first.locator("#seat-link").inputValue();
    await second.goto(link);
    await waitState(second, () => window.agonState && window.agonYou.length === 1);
    // The first device is told on its socket, without a reload.
    await first.locator("#moved-away").waitFor();
    assert.equal(await first.locator("#moved-away").innerText(), "Your seat moved to another device: this device now only watches.");
    assert.equal(await first.locator("#role").innerText(), "You are watching.");
    assert.doesNotMatch(await first.locator("aside").innerText(), /Your turn/);
    assert.equal(await first.locator("#resign").count(), 0);
    assert.equal(await first.locator("#seat-link-btn").count(), 0);
    await clickRingoCell(first, "b6");
    assert.equal(await first.locator(".cell.selected").count(), 0, "nothing can be picked");
    // It forgets the seat: the game is no longer among its own.
    assert.equal(await first.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("agon-token-")).length), 0);
    // The second device plays, and the first sees the move come.
    await playRingoMove(second, "b6-b5");
    await waitState(first, () => window.agonState.history.includes("b6-b5"));
  });
});

test("the replay: ten quick → presses go ten steps; Urgammon steps a turn at a time, or each die and move on request", async () => {
  await withApp(async (server, browser) => {
    const { g } = await ringoGame(server.url, 24);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/replay/${g.id}?ply=5`);
    await page.waitForFunction(() => document.getElementById("replay-ply")?.innerText.startsWith("5 /"));
    for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => document.getElementById("replay-ply").innerText.startsWith("15 /"));
    // And stays there: no late answer takes it elsewhere.
    await page.waitForFunction(() => window.agonState.history.length === 15);
    assert.match(await page.locator("#replay-ply").innerText(), /^15 \//);
    for (let i = 0; i < 7; i++) await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => document.getElementById("replay-ply").innerText.startsWith("8 /"));
    await page.waitForFunction(() => window.agonState.history.length === 8);

    // Urgammon: by turn.
    const { g: u } = await urgammonGame(server.url, 40);
    await page.goto(`${server.url}/replay/${u.id}?ply=0`);
    await page.waitForFunction(() => document.getElementById("replay-ply")?.innerText.startsWith("0 /"));
    const plies = await page.evaluate(() => window.agonState.turn_plies);
    assert.ok(plies.length > 5, JSON.stringify(plies));
    assert.equal(await page.locator("#replay-turn").innerText(), `Turn 0 of ${plies.length - 1}`);
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((n) => document.getElementById("replay-ply").innerText.startsWith(n + " /"), plies[1]);
    assert.equal(await page.locator("#replay-turn").innerText(), `Turn 1 of ${plies.length - 1}`);
    // Each step's position ends a turn: the side to act rolls next (or the
    // game's opening is over).
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await page.waitForFunction((n) => document.getElementById("replay-ply").innerText.startsWith(n + " /"), plies[2]);
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    await page.waitForFunction((n) => document.getElementById("replay-ply").innerText.startsWith(n + " /"), plies[5]);
    // Each die and each move, by the box (with the keyboard).
    await page.locator("#replay-by-token").focus();
    await page.keyboard.press("Space");
    await page.waitForFunction(() => document.getElementById("replay-by-token")?.checked);
    await page.locator("#replay-ply").click();
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((n) => document.getElementById("replay-ply").innerText.startsWith(n + " /"), plies[5] + 1);
    assert.equal(await page.locator("#replay-turn").count(), 0);
  });
});

test("an imported half game goes on against the computer, from the home page", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url + "/new?lang=en");
    await page.locator("#import-record").fill("classic\nb6-b5 d1-d2");
    // Chosen by the keyboard: the menu, then the level.
    await page.locator("#import-opponent").focus();
    await page.selectOption("#import-opponent", "engine");
    await page.locator("#import-level").waitFor();
    await page.selectOption("#import-level", "1");
    await page.locator("#import").click();
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    await waitState(page, () => window.agonState && window.agonYou.length === 1);
    const { s, you } = await state(page);
    assert.equal(s.mode, "engine");
    assert.deepEqual(you, [0], "the importer goes on with the side to move, the attackers");
    assert.deepEqual(s.history, ["b6-b5", "d1-d2"]);
    assert.match(await page.locator("#role").innerText(), /You play the attackers/);
    assert.match(await page.locator("#presence").innerText(), /computer, level 1/i);
    // She plays on, and the computer answers.
    await playRingoMove(page, s.moves.includes("c6-c5") ? "c6-c5" : s.moves[0]);
    await waitState(page, () => window.agonState.history.length === 4, undefined, 15000);
    // With a friend: the invite link to send.
    await page.goto(server.url + "/new?lang=en");
    await page.locator("#import-record").fill("classic\nb6-b5");
    await page.selectOption("#import-opponent", "friend");
    await page.locator("#import").click();
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    await page.locator("#waiting #invite-link").waitFor();
    assert.deepEqual((await state(page)).you, [1], "the defenders, to move");
  });
});

test("the Urgammon review in Polish and French speaks words, not notation or English; so does a bad import", async () => {
  await withApp(async (server, browser) => {
    const u = await apiCall(server.url, "POST", "/api/import", { game: "urgammon", record: UR_RECORD });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const [lang, enters, best] of [["pl", /pion wchodzi na/, /najlepszy: /], ["fr", /pion entre en/, /meilleur\u00a0: /]]) {
      await page.goto(`${server.url}/review/${u.id}?lang=${lang}`);
      await page.locator("#review-summary").waitFor({ timeout: 120000 });
      const list = await page.locator("#graded").innerText();
      assert.match(list, enters, list);
      assert.match(list, best, list);
      // No notation (P-2a, 2a-4a, ??, the bare word "verdict") and no
      // English word of the review (French has "verdict" of its own: "le dé
      // du verdict").
      assert.doesNotMatch(list, /\b[PCH][-x]\d|\d[ab]?[-x]\d|\?\?|!\?|\bbest\b|\benters\b/, list);
      assert.doesNotMatch(list.replace(/dé du verdict/g, ""), /\bverdict\b/, list);
      const caption = await page.locator("#review-caption").innerText();
      assert.doesNotMatch(caption.replace(/dé du verdict/g, ""), /\b[PCH]-\d|\bverdict\b/, caption);
      // The board's pieces are lettered in the language (a Polish chariot,
      // "rydwan", is R).
      await page.goto(`${server.url}/replay/${u.id}?lang=${lang}`);
      await page.locator("#replay-ply").waitFor();
      const letters = await page.locator(".upiece-letter").allTextContents();
      assert.ok(letters.includes(lang === "pl" ? "R" : "C"), letters.join(","));
      assert.ok(!letters.includes(lang === "pl" ? "C" : "R"), letters.join(","));
    }
    // The Polish home page says what the verdict die does in Polish.
    await page.goto(`${server.url}/new?lang=pl`);
    await page.locator("#start").waitFor();
    assert.doesNotMatch(await page.locator("main").innerText(), /double-or-quit/);
    // A bad record says where, in the page's language, with no English.
    await page.locator("#import-record").fill("start:3-1 zz");
    await page.locator("#import").click();
    await page.locator("#import-error").waitFor();
    const error = await page.locator("#import-error").innerText();
    assert.match(error, /Tego zapisu nie da się odczytać/);
    assert.match(error, /od elementu 2 \(„zz”\)/);
    assert.doesNotMatch(error, /expected|token|invalid/, error);
  });
});

test("both move lists and the review's rows are reached and opened by the keyboard", async () => {
  await withApp(async (server, browser) => {
    const { g } = await ringoGame(server.url, 6);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openAsPlayer(page, server.url, g);
    // The game page's Ringo list: Tab reaches its moves, Enter opens one.
    assert.ok(await tabTo(page, "#move-list .mv.pick"), "Tab reaches a move of the list");
    const first = await page.evaluate(() => document.activeElement.textContent);
    await page.keyboard.press("Enter");
    await page.locator("#browsing").waitFor();
    assert.match(await page.locator("#browsing").innerText(), /after move 1 of 6/);
    assert.equal(await page.locator("#move-list .mv.current").innerText(), first);
    await page.keyboard.press("Escape");
    await page.locator("#browsing").waitFor({ state: "detached" });
    // Urgammon's log likewise (Space this time).
    const { g: u, s } = await urgammonGame(server.url, 12);
    await openAsPlayer(page, server.url, u);
    assert.ok(await tabTo(page, "#move-list .turn-pick"), "Tab reaches a turn of the log");
    await page.keyboard.press("Space");
    await page.locator("#browsing").waitFor();
    assert.match(await page.locator("#browsing").innerText(), new RegExp(`turn 1 of ${s.log.length}`));
    // The review's graded rows.
    const r = await apiCall(server.url, "POST", "/api/import", { game: "urgammon", record: UR_RECORD });
    await page.goto(`${server.url}/review/${r.id}`);
    await page.locator("#review-summary").waitFor({ timeout: 120000 });
    assert.ok(await tabTo(page, "#graded li [role=button]"), "Tab reaches a row of the graded list");
    const ply = await page.evaluate(() => document.activeElement.closest("li").dataset.ply);
    await page.keyboard.press("Enter");
    await page.waitForFunction((p) => document.querySelector("#graded li.current")?.dataset.ply === p, ply);
  });
});

test("the board's small things: a picked piece put down by a second click, arrows of one step, ring numbers clear of the pieces, whole option names, no ghost in an empty palace, dice clear of the line above", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const g = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" });
    await openAsPlayer(page, server.url, g);
    await clickRingoCell(page, "b6");
    await page.locator(".cell.selected").waitFor();
    await clickRingoCell(page, "b6");
    await page.locator(".cell.selected").waitFor({ state: "detached" });
    // An arrow of one step keeps its shaft and ends on its target's centre.
    const arrow = await page.evaluate(async () => {
      const { drawArrows } = await import("/static/js/boards/arrows.js");
      const [g] = drawArrows([{ from: "a", to: "b", kind: "best" }], (k) => (k === "a" ? [0, 0] : [30, 0]));
      const line = g.querySelector("line"), tip = g.querySelector("polygon").getAttribute("points").split(" ")[0];
      return { shaft: Number(line.getAttribute("x2")) - Number(line.getAttribute("x1")), start: Number(line.getAttribute("x1")), tip };
    });
    assert.ok(arrow.shaft >= 15, `a shaft of ${arrow.shaft}`);
    assert.equal(arrow.start, 0);
    assert.equal(arrow.tip, "30,0");
    // Ring numbers stand clear of the pieces on ring 1, the board flipped
    // or not.
    for (const flip of [false, true]) {
      if (flip) await page.locator("#flip").click();
      const gap = await page.evaluate(() => {
        const label = [...document.querySelectorAll(".ringno")].find((e) => e.textContent === "1").getBoundingClientRect();
        let least = Infinity;
        for (const c of document.querySelectorAll("circle.piece")) {
          const r = c.getBoundingClientRect();
          const dx = Math.max(r.left - label.right, label.left - r.right, 0), dy = Math.max(r.top - label.bottom, label.top - r.bottom, 0);
          least = Math.min(least, Math.hypot(dx, dy));
        }
        return least;
      });
      assert.ok(gap >= 2, `ring 1's number is ${gap.toFixed(1)} px from a piece (flipped: ${flip})`);
    }
    // Every option's value shows whole in its menu (French, the longest).
    await page.goto(server.url + "/new?lang=fr");
    await page.locator("input[name=game][value=ringo]").check();
    await page.locator("#options-fold > summary").click();
    await page.selectOption("#opt-neutral-limit", "defenders");
    const fits = await page.locator("#opt-neutral-limit").evaluate((sel) => {
      const probe = document.createElement("span");
      probe.style.font = getComputedStyle(sel).font;
      probe.style.whiteSpace = "nowrap";
      probe.textContent = sel.options[sel.selectedIndex].text;
      document.body.append(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      return { need, have: sel.clientWidth };
    });
    assert.ok(fits.have >= fits.need + 16, `the menu is ${fits.have} px for ${fits.need} px of text`);
    // Urgammon: an empty palace shows no piece; the dice do not cover the
    // line above them, even mid-roll.
    const u = await apiCall(server.url, "POST", "/api/games", { game: "urgammon", opponent: "local" });
    await openAsPlayer(page, server.url, u);
    assert.equal(await page.locator(".passive").count(), 0, "no ghost piece in the empty palaces");
    await page.locator("#roll, [data-entry]").first().waitFor();
    const m = (await state(page)).s.moves[0];
    await apiCall(server.url, "POST", `/api/games/${u.id}/action`, { type: "move", move: m }, u.token);
    await waitState(page, () => window.agonState.phase === "roll");
    await page.locator("#roll").click();
    await waitState(page, () => window.agonState.dice.chance !== null);
    // The roll turns the die and scales it: at its widest (turned 45°) a
    // square of side s reaches s·k·√2/2 from its centre at scale k. The line
    // above must stand clear of that, whenever the animation is caught.
    const room = await page.evaluate(() => {
      const pips = document.getElementById("pips").getBoundingClientRect();
      const die = document.getElementById("chance-die").getBoundingClientRect();
      let most = 1;
      for (const sheet of document.styleSheets) {
        for (const rule of sheet.cssRules) {
          if (rule.type !== CSSRule.KEYFRAMES_RULE || rule.name !== "roll") continue;
          for (const k of rule.cssRules) {
            const m = /scale\(([\d.]+)\)/.exec(k.style.transform);
            if (m) most = Math.max(most, Number(m[1]));
          }
        }
      }
      return { gap: die.top - pips.bottom, reach: die.height * (most * Math.SQRT2 / 2 - 0.5) };
    });
    assert.ok(room.gap >= room.reach, `the rolling die reaches ${room.reach.toFixed(1)} px above its square, and has ${room.gap.toFixed(1)} px`);
  });
});
