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
    let moves = 0;
    for (; moves < 400; moves++) {
      await waitState(page, () => window.agonState.over || window.agonYou.includes(window.agonState.seat_to_act));
      const { s } = await state(page);
      if (s.over) break;
      // Head for the fortress: the legal move whose destination is innermost.
      const ring = (m) => (m === "pass" ? 9 : m.includes("-F") || m.includes("xF") ? 0 : Number(m[4]));
      const move = [...s.moves].sort((a, b) => ring(a) - ring(b))[0];
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

test("the rules page and the language switch", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.newPage();
    await page.goto(server.url + "/rules");
    await page.locator("#rules-ringo").waitFor();
    assert.match(await page.locator("#rules-ringo").innerText(), /neutral-limit/);
    await page.selectOption("#lang", "fr");
    await page.locator("#rules-ringo").waitFor();
    const fr = await page.locator("main").innerText();
    assert.match(fr, /citadelle/);
    assert.match(fr, /zone neutre/);
    await page.selectOption("#lang", "pl");
    await page.locator("#rules-urgammon").waitFor();
    const pl = await page.locator("main").innerText();
    for (const term of ["kundel", "Isztar", "byk", "psy na ulicach", "Babilon"]) assert.match(pl, new RegExp(term));
    await page.screenshot({ path: `${SHOTS}/rules-pl.png`, fullPage: true });
  } finally {
    await browser.close();
    server.stop();
  }
});
