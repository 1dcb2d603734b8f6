// The analysis board: from a replay or a link, moves played on the board
// update the engine's view and the shareable address; positions set up by
// hand; Urgammon options, chosen dice and a rollout.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, apiCall, clickRingoCell, clickUrgammonMove, SHOTS } from "./helpers.mjs";

/** The arrows on the board, as "kind:from>to". */
function arrows(page) {
  return page.locator("[data-arrow]").evaluateAll((list) => list.map((a) => `${a.dataset.arrow}:${a.dataset.from}>${a.dataset.to}`));
}

test("the menu's Analysis link opens each game's start with the engine's view, and the game buttons switch", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(server.url + "/");
    // The menu's Tools group holds the analysis board.
    await page.getByRole("button", { name: "Tools", exact: true }).click();
    await page.getByRole("link", { name: "Analysis", exact: true }).click();
    await page.waitForURL(/\/analysis/);
    // Ringo's start: the engine's best move and its arrow, no endless "thinking".
    await page.locator("#best").waitFor();
    assert.equal(await page.locator("#analysis-panel").getByText("The engine is thinking").count(), 0);
    assert.equal((await arrows(page)).length, 1);
    assert.equal(await page.locator("#back").isDisabled(), true, "nothing to take back at the start");
    // The Urgammon button: the opening, valued, and whose value it is.
    await page.getByRole("link", { name: "Urgammon", exact: true }).click();
    await page.locator("#position-eval").waitFor();
    assert.match(await page.locator("#position-eval").innerText(), /^The position for light: equity 0, win \d+%, draw \d+%$/);
    // A screen reader hears the waiting pieces by their plural names.
    assert.equal(await page.locator('[data-entry="lH"]').locator("xpath=..").getAttribute("aria-label"), "H ×1: Light heroes waiting: 1");
    // The opening roll, chosen by hand: a tie first (it is rolled again),
    // then light 3 against dark 2 by the keyboard: dark starts with its 2.
    // Finger-sized (44 px or more each way).
    for (const id of ["#opening-light", "#opening-dark"]) {
      const box = await page.locator(id).boundingBox();
      assert.ok(box.width >= 44 && box.height >= 44, `${id}: ${box.width}×${box.height}`);
    }
    await page.getByLabel("Light's die").selectOption("2");
    await page.getByLabel("Dark's die").selectOption("2");
    await page.getByRole("button", { name: "Play this opening roll" }).click();
    await page.waitForURL(/record=start%3A2-2/);
    await page.locator("#opening-roll").waitFor();
    await page.getByLabel("Light's die").focus();
    await page.keyboard.press("3");
    assert.equal(await page.getByLabel("Light's die").inputValue(), "3");
    await page.getByLabel("Dark's die").selectOption("2");
    await page.locator("#opening-roll").focus();
    await page.keyboard.press("Enter");
    await page.locator("#options").waitFor();
    assert.match(await page.locator("#move-list").innerText(), /Opening roll: light 3, dark 2 — Dark starts with 2 \(after 1 tied roll\)/);
    assert.match(await page.locator("#position-eval").innerText(), /^The position for dark:/);
    assert.equal(await page.locator("#opening-roll").count(), 0, "the opening is played");
    // And back with the Ringo button, by the keyboard.
    await page.getByRole("link", { name: "Ringo", exact: true }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/game=ringo/);
    await page.locator("#best").waitFor();
    assert.deepEqual(errors, []);
    // A mistyped link says which move is wrong, and the Ringo button starts afresh.
    await page.goto(server.url + "/analysis?game=ringo&moves=b6-b5+zz-top");
    await page.locator("#analysis-error").waitFor();
    assert.match(await page.locator("#analysis-error").innerText(), /^That move is not allowed\. \(.*zz-top/);
    await page.getByRole("link", { name: "Ringo", exact: true }).click();
    await page.locator("#best").waitFor();
  });
});

test("Ringo: from a replay to the analysis board, moves on the board, take back, a shared link, a set-up position", async () => {
  await withApp(async (server, browser) => {
    const g = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" });
    for (const move of ["b6-b5", "b1-b2"]) await apiCall(server.url, "POST", `/api/games/${g.id}/action`, { type: "move", move }, g.token);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/replay/${g.id}`);
    await page.locator("#analyse-link").click();
    await page.waitForURL(/\/analysis\?/);
    await page.locator("#best").waitFor();
    assert.match(await page.locator("#analysis-moves").innerText(), /b6-b5 b1-b2/);
    // Whose move the engine's view is for.
    assert.equal(await page.locator("#analysis-to-move").innerText(), "Attackers to move");
    // The engine's best move is drawn on the board as an arrow, from its
    // piece to where it goes, and nothing else is.
    const best = await page.locator("#best").innerText();
    const [from, to] = best.split(/[-x]/);
    assert.deepEqual(await arrows(page), [`best:${from}>${to.replace(/\(.*$/, "")}`]);
    await clickRingoCell(page, from);
    await clickRingoCell(page, to.replace(/\(.*$/, ""));
    await page.waitForFunction((b) => document.getElementById("analysis-moves")?.innerText.includes(b), best);
    // The arrow follows: the new position's best move.
    await page.locator("#best").waitFor();
    const next = await page.locator("#best").innerText();
    const [nf, nt] = next.split(/[-x]/);
    assert.deepEqual(await arrows(page), [`best:${nf}>${nt.replace(/\(.*$/, "")}`]);
    assert.ok(new URL(page.url()).searchParams.get("moves").endsWith(best), page.url());
    const shared = await page.locator("#share-link").inputValue();
    // The link opens the same position elsewhere.
    const other = await browser.newPage();
    await other.goto(shared);
    await other.locator("#best").waitFor();
    assert.match(await other.locator("#analysis-moves").innerText(), new RegExp(best.replace(/[()]/g, ".")));
    // Take back.
    await page.locator("#back").click();
    await page.waitForFunction((b) => {
      const moves = document.getElementById("analysis-moves");
      return moves && !moves.innerText.includes(b) && document.getElementById("best");
    }, best);
    // The same position under another rule set: chosen with the mouse, the
    // position carries over as a start and the engine reads it under globe.
    const here = await page.evaluate(() => window.agonState.position);
    await page.selectOption("#analysis-rules", "globe");
    await page.waitForFunction(() => window.agonState.rules === "globe" && document.getElementById("best"));
    assert.equal(new URL(page.url()).searchParams.get("position"), here);
    assert.equal(new URL(page.url()).searchParams.get("rules"), "globe");
    assert.equal(await page.evaluate(() => window.agonState.position), here);
    assert.match(await page.locator("#analysis-panel").innerText(), /Rules: globe/);
    // And back with the keyboard (typing the name's first letter).
    await page.locator("#analysis-rules").focus();
    await page.keyboard.type("c");
    await page.waitForFunction(() => window.agonState.rules === "classic" && document.getElementById("best"));
    // Set up a position: clear, two attackers and a defender, defenders to move.
    await page.locator("#edit").click();
    // The editor shows the board bare: no arrow.
    assert.deepEqual(await arrows(page), []);
    await page.locator("#clear").click();
    for (const cell of ["c3", "e2"]) await clickRingoCell(page, cell);
    await clickRingoCell(page, "g1");
    await clickRingoCell(page, "g1");
    await page.selectOption("#edit-to-move", "defenders");
    await page.locator("#analyse").click();
    await page.locator("#best").waitFor();
    assert.equal(await page.locator("#analysis-to-move").innerText(), "Defenders to move");
    const pos = new URL(page.url()).searchParams.get("position");
    assert.equal(pos, "......../......../......../..A...../....A.../......D. 0 d");
    // Two attackers against one defender: the endgame tables know the
    // exact result, and the page says it is proven, with the winning line.
    await page.locator("#tablebase").waitFor();
    assert.match(await page.locator("#tablebase").innerText(), /^Tablebase \(proven\): the attackers win in 14 · g1-h1 e2-e1 /);
    assert.match(await page.locator("#score-value").innerText(), /proven: the attackers win in 14/);
    await page.screenshot({ path: `${SHOTS}/analysis-ringo.png` });
  });
});

test("Urgammon: options with equities, dice chosen by hand, a move on the board, a rollout, a set-up position", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/analysis?game=urgammon&record=start:2-3&level=4`);
    await page.locator("#position-eval").waitFor();
    const s = await page.evaluate(() => window.agonState);
    assert.equal(s.to_act, "light");
    const move = s.legal[0];
    await clickUrgammonMove(page, move.notation, "l");
    await page.waitForFunction(() => window.agonState.phase === "roll");
    await page.locator('.roll-choice[data-roll="1"]').click();
    await page.waitForFunction(() => window.agonState.dice.chance === 1);
    assert.ok(await page.locator("#options tbody tr").count() >= 1);
    // Each move option is also said in words, as the log says it.
    const opts = await page.evaluate(() => ({ options: window.agonAnalysis.options.map((o) => o.option),
      moves: [...window.agonState.legal, ...window.agonState.promoted_legal] }));
    assert.ok(opts.options.some((x) => x !== "verdict"), "a move among the options");
    for (const o of opts.options.filter((x) => x !== "verdict")) {
      const m = opts.moves.find((x) => x.notation === o);
      const words = await page.locator(`#options tr[data-option="${o}"] .words`).innerText();
      assert.match(words, new RegExp(`^· (pawn|chariot|hero) (enters ${m.to}|${m.from} → ${m.to}|bears off from ${m.from})`), words);
    }
    // The panel says where the turn stands, so the verdict die's two buttons read.
    // After start:2-3 P-2a r1 Dark has one move and no verdict die to
    // choose (the position where it has is checked below).
    const turn = await page.evaluate(() => window.agonState);
    assert.equal(turn.phase, "move");
    assert.match(await page.locator("#analysis-turn").innerText(), /^Dark: move with value 1 \(mongrel\)$/);
    assert.equal(await page.locator("#verdict-yes").count(), 0);
    // The best option, when it is a move, is an arrow from the piece (or the
    // waiting piece it enters) to its house (or the palace); the verdict die
    // has none.
    const a = await page.evaluate(() => ({ best: window.agonAnalysis.best, legal: window.agonState.legal }));
    const m = a.legal.find((x) => x.notation === a.best);
    assert.deepEqual(await arrows(page), m ? [`best:${m.from ?? m.piece}>${m.to ?? "off"}`] : [], JSON.stringify(a));
    assert.match(new URL(page.url()).searchParams.get("record"), /r1$/);
    await page.locator("#rollout").click();
    await page.waitForFunction(() => /500/.test(document.getElementById("rollout-result").innerText), null, { timeout: 120000 });
    await page.screenshot({ path: `${SHOTS}/analysis-urgammon.png` });
    // Set up: a light pawn on 5, dark to roll.
    await page.locator("#edit").click();
    await page.locator("#clear").click();
    await page.locator('[data-house="5"]').click({ force: true });
    await page.selectOption("#edit-roll", "dark");
    // The palace counts name each kind's plural in words, and a light hero
    // borne off is set up by its label.
    assert.deepEqual(await page.locator("#analysis-panel label:has(input[data-palace])").allInnerTexts(), [
      "Light: pawns in the palace", "Light: chariots in the palace", "Light: heroes in the palace",
      "Dark: pawns in the palace", "Dark: chariots in the palace", "Dark: heroes in the palace"].map((s) => s + " "));
    await page.getByLabel("Light: heroes in the palace").fill("1");
    await page.getByLabel("Light: heroes in the palace").dispatchEvent("change");
    // Each menu stands on its own line with its label.
    const [roll, starter] = [await page.locator("#edit-roll").boundingBox(), await page.locator("#edit-starter").boundingBox()];
    assert.ok(starter.y >= roll.y + roll.height, "the two menus do not share a line");
    await page.locator("#analyse").click();
    await page.locator(".roll-choice").first().waitFor();
    assert.equal(await page.locator("#analysis-turn").innerText(), "Dark: roll the chance die");
    // A pawn on 5 (12 steps to go), a hero in the palace, five waiting (85).
    assert.equal(await page.locator("#pips").innerText(), "Steps to the palace: light 97 · dark 119");
    const setup = new URL(page.url()).searchParams.get("setup");
    assert.match(setup, /light=5:P,off:H/);
    assert.match(setup, /roll=dark/);
    // A bad link says what is wrong, in words.
    await page.goto(`${server.url}/analysis?game=urgammon&setup=light%3D2a%3AX`);
    await page.locator("#analysis-error").waitFor();
    // A position where the verdict die may be chosen instead of a move:
    // the panel says so, and offers the die's YES.
    await page.goto(`${server.url}/analysis?game=urgammon&record=${encodeURIComponent("start:2-3 P-2a r1 P-1b r1")}&level=4`);
    await page.locator("#position-eval").waitFor();
    assert.equal((await page.evaluate(() => window.agonState)).phase, "decide");
    assert.equal(await page.locator("#analysis-turn").innerText(), "Light: move with value 1 (mongrel), or risk the verdict die");
    assert.equal(await page.locator("#verdict-yes").count(), 1);
  });
});
