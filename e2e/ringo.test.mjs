// A whole Ringo game against the engine, played by clicking in the browser.
import test from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, waitState, state, playRingoMove, newGame, SHOTS } from "./helpers.mjs";

test("play a whole Ringo game against the engine by clicking", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await newGame(page, server.url, { game: "ringo", level: 1, side: "attackers" });
    await waitState(page, () => window.agonState && window.agonYou.length === 1);
    // No move yet: the move list shows a dash, not an empty box.
    assert.equal(await page.locator("#move-list").evaluate((l) => getComputedStyle(l, "::before").content), '"–"');
    let moves = 0;
    for (; moves < 400; moves++) {
      await waitState(page, () => window.agonState.over || window.agonYou.includes(window.agonState.seat_to_act));
      const { s } = await state(page);
      if (s.over) break;
      // Head for the fortress: the legal move whose destination is innermost.
      const ring = (m) => (m === "pass" ? 9 : m.includes("-F") || m.includes("xF") ? 0 : Number(m[4]));
      const move = [...s.moves].sort((a, b) => ring(a) - ring(b))[0];
      // The first two moves come with a line on how to move; then it goes.
      if (moves < 2) {
        assert.equal(await page.locator("#move-hint").innerText(),
          "Pick a piece with a dashed ring (click or tap it), then where it goes; or use the keyboard: arrow keys, then Enter.");
        // It stands right under the status line.
        assert.equal(await page.locator("#turn + #move-hint").count(), 1);
      } else assert.equal(await page.locator("#move-hint").count(), 0, `no hint at move ${moves + 1}`);
      await playRingoMove(page, move);
      // Not while the engine thinks.
      if (moves === 0 && !(await state(page)).s.over) {
        const after = await state(page);
        if (!after.you.includes(after.s.seat_to_act)) assert.equal(await page.locator("#move-hint").count(), 0);
      }
      if (moves === 6) await page.screenshot({ path: `${SHOTS}/ringo-game.png` });
    }
    await waitState(page, () => window.agonState.over);
    await page.locator("#result").waitFor();
    const { s } = await state(page);
    assert.notEqual(s.status, "ongoing");
    assert.ok(s.history.length >= 2, "moves were recorded");
    // The move list and the result are shown.
    assert.match(await page.locator("#result").innerText(), /win|Draw/);
    await page.screenshot({ path: `${SHOTS}/ringo-finished.png` });
    // Illegal clicks do nothing harmful: clicking around a finished game changes nothing.
    await page.locator('[data-cell="c3"]').dispatchEvent("click");
    assert.equal((await state(page)).s.version, s.version);
  } finally {
    await browser.close();
    server.stop();
  }
});

test("the home page on a phone: the options come folded above the start button, open by click or keyboard, and a changed option survives choosing the opponent", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(server.url + "/?lang=en");
    await page.locator("input[name=game][value=ringo]").check();
    const fold = page.locator("#options-fold > summary");
    await fold.waitFor();
    // Folded: no option shows, and the start button is a short scroll away.
    assert.equal(await page.locator("#opt-rings").isVisible(), false);
    assert.ok((await fold.innerText()).startsWith("Options"), await fold.innerText());
    const startTop = await page.locator("#start").evaluate((b) => b.getBoundingClientRect().top + window.scrollY);
    assert.ok(startTop < 2 * 844, `the start button is ${Math.round(startTop)} px down the page`);
    // Opened by a tap, shut again by the keyboard (Space), opened by Enter.
    await fold.click();
    await page.locator("#opt-rings").waitFor();
    await fold.focus();
    await page.keyboard.press(" ");
    await page.locator("#opt-rings").waitFor({ state: "hidden" });
    await page.keyboard.press("Enter");
    await page.locator("#opt-rings").waitFor();
    await page.selectOption("#opt-rings", "5");
    // Choosing the opponent redraws the form: the fold stays open, the small
    // board stays chosen (it used to go back to the rule set's), and so does
    // the side.
    await page.locator("input[name=side][value=defenders]").check();
    await page.locator("input[name=opponent][value=friend]").check();
    assert.equal(await page.locator("input[name=side][value=defenders]").isChecked(), true);
    await page.locator("input[name=opponent][value=local]").check();
    assert.equal(await page.locator("#opt-rings").isVisible(), true);
    assert.equal(await page.locator("#opt-rings").inputValue(), "5");
    // A new rule set puts every option back to its own.
    await page.selectOption("#preset", "globe");
    assert.equal(await page.locator("#opt-rings").inputValue(), "6");
    await page.selectOption("#preset", "classic");
    await page.selectOption("#opt-rings", "5");
    await page.locator("#start").click();
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    await waitState(page, () => !!window.agonState);
    assert.equal(await page.evaluate(() => window.agonState.rules), "classic,rings=5");
    assert.equal(await page.evaluate(() => window.agonState.rings), 5);
  } finally {
    await browser.close();
    server.stop();
  }
});

test("the rules page and the language switch", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.goto(server.url + "/rules");
    await page.locator("#rules-ringo").waitFor();
    assert.match(await page.locator("#rules-ringo").innerText(), /neutral-limit/);
    // Each game's start is drawn under its rules, with a caption: Ringo's
    // seven attackers and four defenders, Urgammon's pieces all waiting.
    const ringoFigure = page.locator("#rules-board-ringo");
    await ringoFigure.locator("svg.ringo").waitFor();
    assert.equal(await ringoFigure.locator("circle.piece.att").count(), 7);
    assert.equal(await ringoFigure.locator("circle.piece").count(), 11);
    assert.match(await ringoFigure.locator("figcaption").innerText(), /^At the start: the seven attackers \(dark\)/);
    const urFigure = page.locator("#rules-board-urgammon");
    await urFigure.locator("svg.urgammon").waitFor();
    assert.equal(await urFigure.locator("[data-piece]").count(), 0, "no piece on the board yet");
    assert.match(await urFigure.locator("figcaption").innerText(), /every piece waits beside the board/);
    // Nothing on them moves: a click on an attacker selects nothing.
    await ringoFigure.locator('[data-cell="b6"]').dispatchEvent("click");
    assert.equal(await ringoFigure.locator("[data-selected], .selected").count(), 0);
    // The figures sit under the rules' lists, the options table after.
    assert.equal(await page.locator("#rules-ringo ul + #rules-board-ringo").count(), 1);
    await page.selectOption("#lang", "fr");
    await page.locator("#rules-ringo").waitFor();
    const fr = await page.locator("main").innerText();
    assert.match(fr, /citadelle/);
    assert.match(fr, /zone neutre/);
    await page.selectOption("#lang", "pl");
    await page.locator("#rules-urgammon").waitFor();
    const pl = await page.locator("main").innerText();
    for (const term of ["kundel", "Isztar", "byk", "psy na ulicach", "Babilon"]) assert.match(pl, new RegExp(term));
    await page.locator("#rules-board-ringo figcaption").waitFor();
    assert.match(await page.locator("#rules-board-ringo figcaption").innerText(), /^Na początku: siedmiu atakujących/);
    await page.screenshot({ path: `${SHOTS}/rules-pl.png`, fullPage: true });
  } finally {
    await browser.close();
    server.stop();
  }
});
