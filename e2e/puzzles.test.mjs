// The puzzle trainer as a player meets it: a Ringo puzzle solved by
// keyboard and another failed by mouse (the solution then shown on the
// board), an Urgammon puzzle failed and retried, and one whose answer is the
// verdict die; the puzzle rating kept in the browser, and on the account
// when signed in (seen on a second device); themes chosen in French.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { withApp, waitState, state, clickRingoCell, clickUrgammonMove, accountAs } from "./helpers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const shipped = (game) => JSON.parse(readFileSync(join(here, "..", "crates", "server", "puzzles", game + ".json"), "utf8")).puzzles;
const RINGO = shipped("ringo");
const URGAMMON = shipped("urgammon");
const SECTORS = "abcdefgh";

/** The arrow keys from one Ringo cell to another (sectors round the ring,
 *  then rings; "F" is below ring 1). */
function arrows(from, to) {
  const keys = [];
  const sec = (c) => SECTORS.indexOf(c[0]);
  const ring = (c) => (c === "F" ? 0 : Number(c.slice(1)));
  if (to !== "F") {
    const d = (sec(to) - sec(from) + 8) % 8;
    for (let i = 0; i < (d <= 4 ? d : 8 - d); i++) keys.push(d <= 4 ? "ArrowRight" : "ArrowLeft");
  }
  const r = ring(to) - ring(from);
  for (let i = 0; i < Math.abs(r); i++) keys.push(r > 0 ? "ArrowUp" : "ArrowDown");
  return keys;
}

async function focused(page) {
  return page.evaluate(() => document.activeElement?.dataset?.key);
}

test("Ringo puzzles: one solved by keyboard, one failed by mouse with the solution shown; the rating kept in this browser", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // A puzzle whose answer is a quiet step from a cell off the fortress.
    const easy = RINGO.find((p) => p.goal === "win" && p.rules === "classic" && /^[a-h]\d-[a-h]\d$/.test(p.solution[0]));
    await page.goto(server.url + "/new?lang=en");
    await page.locator("#puzzles-link").click();
    await page.waitForURL(/\/puzzles\/r-/);
    await page.locator("#puzzle-rating", { hasText: "Your Ringo puzzle rating: 1500?" }).waitFor();
    // The lessons page leads here too.
    await page.goto(server.url + "/learn");
    await page.locator("#learn-puzzles").click();
    await page.waitForURL(/\/puzzles\/r-/);
    await page.locator("h1", { hasText: "Puzzles" }).waitFor();
    await page.goto(server.url + "/puzzles/" + easy.id);
    await waitState(page, () => window.agonState && window.agonState.moves?.length > 1);
    const side = easy.to_act;
    assert.match(await page.locator("#puzzle-task").innerText(), new RegExp(`The ${side} to move: find the only winning move \\(they win in ${easy.plies} ${easy.plies === 1 ? "ply" : "plies"}\\)`));
    assert.match(await page.locator("#puzzle-info").innerText(), new RegExp(`Puzzle ${easy.id} · rated ${easy.rating}`));
    // By keyboard: the board has the focus; walk to the piece, pick it, walk
    // to its cell, drop it.
    const [from, to] = easy.solution[0].split("-");
    await page.waitForFunction(() => !!document.activeElement?.dataset?.key);
    for (const k of arrows(await focused(page), from)) await page.keyboard.press(k);
    assert.equal(await focused(page), from);
    await page.keyboard.press("Enter");
    await page.waitForFunction((c) => document.activeElement?.dataset?.key === c, from);
    for (const k of arrows(from, to)) await page.keyboard.press(k);
    assert.equal(await focused(page), to);
    await page.keyboard.press("Enter");
    await page.locator('#puzzle-feedback[data-result="right"]').waitFor();
    assert.match(await page.locator("#puzzle-feedback").innerText(), /Right! That is the best decision/);
    await waitState(page, (m) => window.agonState.history.length === 1 && window.agonState.history[0] === m, easy.solution[0]);
    // The rating rose, and this browser keeps it.
    assert.match(await page.locator("#puzzle-change").innerText(), /\(\+\d+\)/);
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem("agon-puzzles")));
    assert.ok(kept.rating.ringo.rating > 1500 && kept.rating.ringo.attempts === 1, JSON.stringify(kept));
    assert.ok(kept.tried.ringo.includes(easy.id));
    const rose = Math.round(kept.rating.ringo.rating);
    assert.match(await page.locator("#puzzle-rating").innerText(), new RegExp(`rating: ${rose}\\?`));

    // The next puzzle, by mouse: a wrong move.
    await page.locator("#puzzle-next").click();
    await page.waitForURL((u) => !u.pathname.endsWith(easy.id));
    const hard = RINGO.find((p) => p.goal === "win" && p.rules === "globe" && /^[a-h]\d-[a-h]\d$/.test(p.solution[0]));
    await page.goto(server.url + "/puzzles/" + hard.id);
    await waitState(page, () => window.agonState && window.agonState.moves?.length > 1);
    const moves = (await state(page)).s.moves;
    const wrong = moves.find((m) => m !== hard.solution[0] && /^[a-h]\d-[a-h]\d$/.test(m));
    await clickRingoCell(page, wrong.slice(0, 2));
    await clickRingoCell(page, wrong.slice(3));
    await page.locator('#puzzle-feedback[data-result="wrong"]').waitFor();
    // Told it is wrong, not the answer: "Try again" must mean something.
    const told = await page.locator("#puzzle-feedback").innerText();
    assert.match(told, new RegExp(`^${wrong} is not the answer: try again, or show the solution\\.`));
    assert.ok(!told.includes(hard.solution[0]), `the answer stays hidden: ${told}`);
    assert.match(await page.locator("#puzzle-change").innerText(), /\(−\d+\)/);
    assert.deepEqual((await state(page)).s.history, [], "the position is back");
    // The solution, on the board.
    await page.locator("#puzzle-solution").click();
    await page.locator('#puzzle-feedback[data-result="solution"]', { hasText: `The solution: ${hard.solution[0]}, shown on the board.` }).waitFor();
    // Now the wrong try is explained, the answer named.
    assert.match(await page.locator("#puzzle-feedback").innerText(),
      new RegExp(`${wrong} does not win\\. The only winning move was ${hard.solution[0]}`));
    await waitState(page, (m) => window.agonState.history[0] === m, hard.solution[0]);
    const [sf, st] = hard.solution[0].split("-");
    assert.equal(await page.locator(`circle.piece[data-piece="${sf}"]`).count(), 0, "the piece left its cell");
    assert.equal(await page.locator(`circle.piece[data-piece="${st}"]`).count(), 1, "and stands on the solution's");
    const after = await page.evaluate(() => JSON.parse(localStorage.getItem("agon-puzzles")).rating.ringo);
    assert.ok(after.rating < kept.rating.ringo.rating && after.attempts === 2);

    // A puzzle from a level-10 game: one move far ahead of the others; a
    // wrong one is told with both win chances, and the list shows them all.
    const game = RINGO.find((p) => p.source === "self-play" && p.options.some((o, i) => i > 0 && /^[a-h]\d-[a-h]\d$/.test(o[0])));
    await page.goto(server.url + "/puzzles/" + game.id);
    await waitState(page, () => window.agonState && window.agonState.moves?.length > 1);
    assert.match(await page.locator("#puzzle-task").innerText(), /one move is far better than every other\. Find it\./);
    assert.match(await page.locator("#puzzle-info").innerText(), /From a game/);
    const [second, chance] = game.options.find((o, i) => i > 0 && /^[a-h]\d-[a-h]\d$/.test(o[0]));
    await clickRingoCell(page, second.slice(0, 2));
    await clickRingoCell(page, second.slice(3));
    await page.locator('#puzzle-feedback[data-result="wrong"]').waitFor();
    assert.equal(await page.locator("#puzzle-feedback").innerText(),
      `${second} is not the answer: try again, or show the solution.`);
    await page.locator("#puzzle-solution").click();
    await page.locator('#puzzle-feedback[data-result="solution"]').waitFor();
    assert.equal(await page.locator("#puzzle-feedback").innerText(),
      `${second} is not it: after ${game.solution[0]} the win chance is ${Math.round(100 * game.options[0][1])}%, after ${second} ${Math.round(100 * chance)}%. `
      + `The solution: ${game.solution[0]}, shown on the board.`);
    await page.locator(`#puzzle-options li.best[data-choice="${game.solution[0]}"]`, { hasText: `win ${Math.round(100 * game.options[0][1])}%` }).waitFor();
    assert.equal(await page.locator("#puzzle-options li").count(), game.options.length);
  });
});

test("Urgammon puzzles: a wrong choice explained and retried (not rated), the verdict die chosen by keyboard; ratings on the account on a second device; themes in French", async () => {
  await withApp(async (server, browser) => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(server.url + "/?lang=en");
    const signed = await accountAs(page, "signup", "solver");
    assert.equal(signed, 201);
    // A move puzzle whose second option is a move too.
    // (One set before the roll: the task offers the verdict die.)
    const mv = URGAMMON.find((p) => !/ v\+$/.test(p.record) && p.options.some((o) => o[0] === "verdict") && p.solution[0] !== "verdict" && p.options[1][0] !== "verdict" && !p.solution[0].startsWith("P")
      && !p.options[1][0].startsWith("P") && !/off/.test(p.solution[0] + p.options[1][0]));
    await page.goto(server.url + "/puzzles/" + mv.id);
    await page.locator("#account-link", { hasText: "solver" }).waitFor();
    await waitState(page, () => window.agonState && window.agonState.legal?.length > 0);
    const side = mv.to_act;
    const die = (await state(page)).s.dice.chance;
    assert.match(await page.locator("#puzzle-task").innerText(), new RegExp(`${side[0].toUpperCase() + side.slice(1)} to play, with ${die} on the chance die: find the best choice`));
    assert.match(await page.locator("#chance-die").getAttribute("aria-label"), new RegExp(`${die}$`));
    await page.locator("#puzzle-rating", { hasText: "Your Urgammon puzzle rating: 1500?" }).waitFor();
    const s = side === "light" ? "l" : "d";
    const second = mv.options[1][0];
    await clickUrgammonMove(page, second, s);
    await page.locator('#puzzle-feedback[data-result="wrong"]').waitFor();
    const lost = (mv.options[0][1] - mv.options[1][1]).toFixed(2);
    // What it lost, not what was best.
    const told = await page.locator("#puzzle-feedback").innerText();
    assert.ok(told.startsWith(`${second} loses ${lost} points on average against the best choice: try again, or show the solution.`), told);
    assert.ok(!told.includes(mv.solution[0]), `the best choice stays hidden: ${told}`);
    const down = await page.locator("#puzzle-rating").innerText();
    assert.match(down, /Your Urgammon puzzle rating: 1\d{3}\? \(−\d+\)/);
    // Retry: the position is back; the right move now is right, not rated.
    // The retry loads the position again and redraws the board: wait for
    // that state (the one before it has legal moves too), or the click can
    // land on a board being replaced.
    await page.evaluate(() => { window.beforeRetry = window.agonState; });
    await page.locator("#puzzle-retry").click();
    await waitState(page, () => window.agonState !== window.beforeRetry && window.agonState.legal?.length > 0);
    await clickUrgammonMove(page, mv.solution[0], s);
    await page.locator('#puzzle-feedback[data-result="right"]', { hasText: "(A second try is not rated.)" }).waitFor();
    assert.equal(await page.locator("#puzzle-rating").innerText(), down, "the rating did not move");
    assert.equal(await page.locator("#puzzle-options li.best").getAttribute("data-choice"), mv.solution[0]);
    const rated = down.match(/rating: (\d+)/)[1];

    // A verdict-die puzzle: the button, by keyboard.
    const vd = URGAMMON.find((p) => p.solution[0] === "verdict");
    await page.goto(server.url + "/puzzles/" + vd.id);
    await waitState(page, () => window.agonState && window.agonState.verdict_allowed);
    await page.locator("#puzzle-verdict").focus();
    await page.keyboard.press("Enter");
    await page.locator('#puzzle-feedback[data-result="right"]').waitFor();
    await page.locator("#puzzle-change", { hasText: "+" }).waitFor();
    assert.equal(await page.locator("#puzzle-options li.best").getAttribute("data-choice"), "verdict");
    assert.equal(await page.locator("#puzzle-exact").isVisible(), vd.exact === true, "estimates are not called exact");

    // A puzzle whose values are exact (every line played out) says so
    // under its options (issue 87).
    const ex = URGAMMON.find((p) => p.exact && p.solution[0] !== "verdict");
    await page.goto(server.url + "/puzzles/" + ex.id);
    await waitState(page, () => window.agonState?.legal?.length > 0);
    await clickUrgammonMove(page, ex.solution[0], ex.to_act === "light" ? "l" : "d");
    await page.locator('#puzzle-feedback[data-result="right"]').waitFor();
    await page.locator("#puzzle-exact").waitFor();
    assert.equal(await page.locator("#puzzle-exact").innerText(), "Every choice with its exact equity (every line played out to the end)");
    const best = ex.options[0][1];
    assert.ok((await page.locator(`#puzzle-options li.best[data-choice="${ex.solution[0]}"]`).innerText()).endsWith((best >= 0 ? "+" : "−") + Math.abs(best).toFixed(3)));

    // Another device, signed in to the account, in French: the same rating;
    // a theme chosen by its French name.
    const other = await (await browser.newContext()).newPage();
    await other.goto(server.url + "/?lang=fr");
    const login = await accountAs(other, "login", "solver");
    assert.equal(login, 200);
    await other.goto(server.url + "/puzzles");
    await other.locator("h1", { hasText: "Problèmes" }).waitFor();
    await other.locator("#puzzle-game").selectOption("urgammon");
    await other.locator("#puzzle-rating", { hasText: "Votre classement aux problèmes (Urgammon)" }).waitFor();
    const shown = (await other.locator("#puzzle-rating").innerText()).match(/: (\d+)/)[1];
    assert.ok(Number(shown) > Number(rated), `${shown}: the verdict puzzle solved raised ${rated}`);
    const prise = other.locator("#puzzle-theme option", { hasText: /^Prise \(\d+\)$/ });
    await other.locator("#puzzle-theme").selectOption({ label: await prise.innerText() });
    await other.locator("#puzzle-info", { hasText: "Prise" }).waitFor();
    // Before the verdict die, or after its YES: the task says which.
    assert.match(await other.locator("#puzzle-task").innerText(),
      /Aux (clairs|foncés) de jouer(, avec \d au dé de la chance|\s:\s\d au dé de la chance et OUI au dé du verdict)/);
  });
});

test("an Urgammon puzzle set after the verdict die's YES asks for the best move at the promoted value, never for the verdict die", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    // The verdict die promotes 1→5, 2→6, 3→7, 4→10 (docs/rules/urgammon.md).
    const PROMOTED = { 1: 5, 2: 6, 3: 7, 4: 10 };
    const after = URGAMMON.filter((p) => / v\+$/.test(p.record)).slice(0, 3);
    assert.ok(after.length > 0, "the set has such puzzles");
    for (const p of after) {
      const die = Number(p.record.match(/r(\d) v\+$/)[1]);
      await page.goto(`${server.url}/puzzles/${p.id}?lang=en`);
      await waitState(page, () => window.agonState && window.agonState.dice?.verdict === true);
      const side = p.to_act.charAt(0).toUpperCase() + p.to_act.slice(1);
      assert.equal(await page.locator("#puzzle-task").innerText(),
        `${side} to play: ${die} on the chance die and YES on the verdict die, so the value is ${PROMOTED[die]}: find the best move.`);
      assert.ok(await page.locator("#puzzle-verdict").isHidden(), "no verdict die to roll");
    }
    // One before the roll still offers it, and says so.
    const before = URGAMMON.find((p) => p.solution[0] === "verdict");
    await page.goto(`${server.url}/puzzles/${before.id}?lang=en`);
    await waitState(page, () => window.agonState && window.agonState.verdict_allowed);
    assert.match(await page.locator("#puzzle-task").innerText(), /find the best choice \(a move, or the verdict die\)\.$/);
  });
});

test("a puzzle's board is on the first screen at 1280x800, for both games", async () => {
  await withApp(async (server, browser) => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    for (const game of ["ringo", "urgammon"]) {
      const p = (game === "ringo" ? RINGO : URGAMMON)[0];
      await page.goto(`${server.url}/puzzles/${p.id}?lang=en`);
      await waitState(page, () => window.agonState && (window.agonState.moves?.length > 0 || window.agonState.verdict_allowed));
      const box = await page.locator(".game svg.board").boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= 800, `${game}: the board from ${box.y} to ${box.y + box.height} px`);
      assert.ok(box.height >= 300, `${game}: a board one can play on (${box.height} px)`);
    }
  });
});
