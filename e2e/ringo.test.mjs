// A whole Ringo game against the engine, played by clicking in the browser.
import test from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, withApp, waitState, state, playRingoMove, newGame, apiCall, SHOTS } from "./helpers.mjs";

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
    await page.goto(server.url + "/new?lang=en");
    await page.locator("input[name=game][value=ringo]").check();
    const fold = page.locator("#options-fold > summary");
    await fold.waitFor();
    // Folded: no option shows, and the start button is a short scroll away.
    assert.equal(await page.locator("#opt-rings").isVisible(), false);
    assert.ok((await fold.innerText()).startsWith("Options"), await fold.innerText());
    // The start button is on the first screen, at its foot, and stays
    // there while the choices scroll by (it stood 1.4 screens down).
    const onScreen = () => page.locator("#start").evaluate((b) => {
      const r = b.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return r.top >= 0 && r.bottom <= window.innerHeight && (top === b || b.contains(top));
    });
    assert.ok(await onScreen(), "the start button shows on the first screen");
    await page.locator("#level-note, #preset").first().scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 300);
    assert.ok(await onScreen(), "and while the choices scroll by");
    await page.evaluate(() => window.scrollTo(0, 0));
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

test("on a phone, a tap that just misses a small target still plays it; a tap away from every target drops the piece", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await newGame(page, server.url, { game: "ringo", opponent: "local" });
    await waitState(page, () => window.agonState && window.agonYou.length === 2);
    await playRingoMove(page, "b6-b5");
    // The defenders' pieces stand on ring 1, whose cells a phone shows at
    // about 20 px. Pick one and find, for one of its targets, a point within
    // a fingertip of the target's centre but on another cell that is
    // neither a target nor a piece to pick.
    const from = (await state(page)).s.legal.find((m) => /^[a-h]1$/.test(m.from) && /^[a-h]1$/.test(m.to)).from;
    const centre = (cell) => page.evaluate((cell) => {
      const path = document.querySelector(`[data-cell="${cell}"]`);
      const q = new DOMPoint(Number(path.dataset.cx), Number(path.dataset.cy)).matrixTransform(path.ownerSVGElement.getScreenCTM());
      return { x: q.x, y: q.y };
    }, cell);
    const f = await centre(from);
    await page.touchscreen.tap(f.x, f.y);
    await page.locator(`.cell.selected[data-cell="${from}"]`).waitFor();
    const miss = await page.evaluate(() => {
      const targets = [...document.querySelectorAll(".cell.target")];
      for (const t of targets) {
        const q = new DOMPoint(Number(t.dataset.cx), Number(t.dataset.cy)).matrixTransform(t.ownerSVGElement.getScreenCTM());
        for (let r = 12; r <= 20; r += 2) {
          for (let a = 0; a < 360; a += 10) {
            const x = q.x + r * Math.cos(a * Math.PI / 180), y = q.y + r * Math.sin(a * Math.PI / 180);
            const hit = document.elementFromPoint(x, y)?.closest("[data-key]");
            const cell = hit?.dataset.key;
            if (!cell || cell === t.dataset.cell || document.querySelector(`.cell.target[data-cell="${cell}"]`)
              || hit.querySelector(".piece")) continue;
            // The nearest target to this point must be this one.
            const nearest = targets.map((o) => {
              const p = new DOMPoint(Number(o.dataset.cx), Number(o.dataset.cy)).matrixTransform(o.ownerSVGElement.getScreenCTM());
              return [Math.hypot(p.x - x, p.y - y), o.dataset.cell];
            }).sort((u, v) => u[0] - v[0])[0][1];
            if (nearest === t.dataset.cell) return { x, y, target: t.dataset.cell, on: cell, size: t.getBoundingClientRect().height };
          }
        }
      }
      return null;
    });
    assert.ok(miss, "a near miss exists");
    assert.ok(miss.size < 44, `the target is small on a phone (${miss.size} px)`);
    const before = (await state(page)).s.revision;
    await page.touchscreen.tap(miss.x, miss.y);
    await waitState(page, (v) => window.agonState.revision > v, before);
    assert.equal((await state(page)).s.history.at(-1), `${from}-${miss.target}`, `the tap on ${miss.on} played the move to ${miss.target}`);
    assert.match(await page.locator("#move-list").innerText(), new RegExp(`${from}-${miss.target}`));
    // A tap far from every target (the corner of the board's frame) drops
    // the piece and plays nothing.
    const piece = (await state(page)).s.legal[0].from;
    const p = await centre(piece);
    await page.touchscreen.tap(p.x, p.y);
    await page.locator(".cell.selected").waitFor();
    const box = await page.locator("svg.board").boundingBox();
    const rev = (await state(page)).s.revision;
    await page.touchscreen.tap(box.x + 4, box.y + 4);
    await page.locator(".cell.selected").waitFor({ state: "detached" });
    assert.equal(await page.locator(".cell.target").count(), 0);
    assert.equal((await state(page)).s.revision, rev, "nothing played");
  });
});

test("a hint against the computer or on one screen: the engine's move in words and as an arrow, gone once the position moves on; none between two people", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await newGame(page, server.url, { game: "ringo", level: 1, side: "attackers" });
    await waitState(page, () => window.agonState && window.agonYou.length === 1 && window.agonState.seat_to_act === 0);
    const hint = page.locator("#hint");
    const text = page.locator("#hint-text");
    assert.equal(await text.count(), 0, "no hint until asked");
    await hint.click();
    await page.waitForFunction(() => /would play/.test(document.getElementById("hint-text")?.innerText || ""));
    const said = await text.innerText();
    const best = said.match(/^Hint: the computer would play (\S+)\.$/)?.[1];
    const { s } = await state(page);
    assert.ok(best && s.moves.includes(best), `${said} among ${s.moves}`);
    // The same move as the analysis board gives for this position.
    const a = await apiCall(server.url, "POST", "/api/analyze", { game: "ringo", rules: s.rules, position: s.start_position, moves: s.history.join(" ") });
    assert.equal(best, a.analysis.best);
    // As a green arrow on the board, from the piece to where it goes.
    const [from, to] = best.split(/[-x(]/);
    assert.deepEqual(await page.locator("[data-arrow]").evaluateAll((l) => l.map((x) => `${x.dataset.arrow}:${x.dataset.from}>${x.dataset.to}`)), [`best:${from}>${to}`]);
    assert.equal(await hint.isDisabled(), true, "asked once for this position");
    // Played: the computer answers, and the hint and its arrow are gone.
    await playRingoMove(page, best);
    await waitState(page, () => window.agonState.seat_to_act === 0 && window.agonState.history.length === 2);
    assert.equal(await text.count(), 0);
    assert.equal(await page.locator("[data-arrow]").count(), 0);
    // By keyboard this time.
    await hint.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => /would play/.test(document.getElementById("hint-text")?.innerText || ""));
    // Undo takes the position back: the hint was for the one undone.
    await page.locator("#undo").click();
    await waitState(page, () => window.agonState.history.length === 0);
    assert.equal(await text.count(), 0);
    assert.equal(await page.locator("[data-arrow]").count(), 0);
    // On one screen too, in French.
    await newGame(page, server.url, { game: "ringo", opponent: "local", lang: "fr" });
    await waitState(page, () => !!window.agonState);
    await page.locator("#hint").click();
    await page.waitForFunction(() => /jouerait/.test(document.getElementById("hint-text")?.innerText || ""));
    assert.match(await text.innerText(), /^Indice\u00a0: l'ordinateur jouerait \S+\.$/);
    // A win the engine proves is said so: an imported ending, the
    // attackers one jump from the fortress.
    const ending = await apiCall(server.url, "POST", "/api/import", { game: "ringo", record: "classic ......../......../......../......../..A...../..D..... 1 a" });
    await page.goto(`${server.url}/?lang=en`);
    await page.evaluate(([id, token]) => localStorage.setItem("agon-token-" + id, token), [ending.id, ending.token]);
    await page.goto(`${server.url}/g/${ending.id}`);
    await waitState(page, () => !!window.agonState && window.agonYou.length > 0);
    await page.locator("#hint").click();
    await page.waitForFunction(() => /would play/.test(document.getElementById("hint-text")?.innerText || ""));
    assert.equal(await text.innerText(), "Hint: the computer would play c2xF (proven: the attackers win in 1).");
    // Between two people no hint is offered, to either.
    const f = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers" });
    await page.goto(`${server.url}/?lang=en`);
    await page.evaluate(([id, token]) => localStorage.setItem("agon-token-" + id, token), [f.id, f.token]);
    await page.goto(`${server.url}/g/${f.id}`);
    await waitState(page, () => !!window.agonState && window.agonYou.length === 1);
    await page.locator("#turn, .status").first().waitFor();
    assert.equal(await page.locator("#hint").count(), 0);
    // Urgammon against the computer: after the roll, the engine's choice
    // in the log's words with its notation, or the verdict die.
    await newGame(page, server.url, { game: "urgammon", level: 1, side: "light" });
    await waitState(page, () => !!window.agonState && window.agonYou.length === 1);
    for (let i = 0; i < 60 && !(await page.locator("#hint").count()); i++) {
      if (await page.locator("#roll").count()) await page.locator("#roll").click();
      await page.waitForTimeout(200);
    }
    const u = (await state(page)).s;
    assert.ok(u.moves.length || u.verdict_allowed, "a decision to make");
    await page.locator("#hint").click();
    await page.waitForFunction(() => /^Hint: the computer would/.test(document.getElementById("hint-text")?.innerText || ""));
    const ur = await text.innerText();
    const notation = ur.match(/\(([^()]+)\)\.$/)?.[1];
    if (notation) assert.ok([...u.legal, ...u.promoted_legal].some((m) => m.notation === notation), ur);
    else assert.equal(ur, "Hint: the computer would roll the verdict die.");
    await page.screenshot({ path: `${SHOTS}/hint-urgammon.png` });
  });
});

test("while the computer thinks, the player is offered no move hint and no Hint", async () => {
  // The computer waits 1.5 s before it answers, so its turn is certain to
  // be seen (with no delay the answer came first and nothing was checked).
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await newGame(page, server.url, { game: "ringo", level: 1, side: "attackers" });
    await waitState(page, () => window.agonState && window.agonYou.length === 1);
    assert.equal(await page.locator("#move-hint").count(), 1, "the move hint on the first move");
    assert.equal(await page.locator("#hint").count(), 1);
    await playRingoMove(page, "b6-b5");
    const { s, you } = await state(page);
    assert.ok(!you.includes(s.seat_to_act), "the computer's turn");
    assert.equal(await page.locator("#move-hint").count(), 0);
    assert.equal(await page.locator("#hint").count(), 0);
    assert.match(await page.locator("#turn").innerText(), /Defenders to move/);
    // Then it answers, and the player's turn comes back with its hint.
    await waitState(page, () => window.agonYou.includes(window.agonState.seat_to_act), undefined, 10000);
    assert.equal(await page.locator("#move-hint").count(), 1, "the second move's hint");
  }, { engineDelayMs: 1500 });
});
