// The play loop as a person meets it: Undo in both games (and when it is
// offered), an Urgammon game's end with its result and Next game, resign and
// rematch. Each test clicks what a player clicks and checks what she sees.
import test from "node:test";
import assert from "node:assert/strict";
import {
  startServer, launch, waitState, state, playRingoMove, apiCall, ringoPieces, urgammonPieces, clickUrgammonMove, newGame, SHOTS,
} from "./helpers.mjs";

/** Waits until the human (not the engine) is to act, or the game is over. */
async function myTurn(page) {
  await waitState(page, () => window.agonState.over || window.agonState.between_games
    || window.agonYou.includes(window.agonState.seat_to_act));
}

test("Ringo against the computer as defenders: Undo appears only with something to take back, and takes it back", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await newGame(page, server.url, { game: "ringo", level: 1, side: "defenders" });
    // The attackers (the computer) open; our turn comes with nothing to undo.
    await waitState(page, () => window.agonState && window.agonState.history.length === 1);
    await myTurn(page);
    assert.equal(await page.locator("#undo").count(), 0, "no Undo before our first move");
    const before = await ringoPieces(page);
    const listBefore = await page.locator("#move-list").innerText();
    const { s } = await state(page);
    const move = s.moves.find((m) => m !== "pass");
    await playRingoMove(page, move);
    // The computer replies; Undo is offered.
    await waitState(page, () => window.agonState.history.length === 3);
    await page.locator("#undo").waitFor();
    assert.match(await page.locator("#move-list").innerText(), new RegExp(move.replace(/[()]/g, "\\$&")));
    await page.locator("#undo").click();
    // The board goes back to what it was before our move, and so does the list.
    await waitState(page, () => window.agonState.history.length === 1);
    assert.deepEqual(await ringoPieces(page), before, "the pieces are back");
    assert.equal(await page.locator("#move-list").innerText(), listBefore);
    assert.equal(await page.locator("#undo").count(), 0, "nothing left to take back");
    // And play goes on from there: the board accepts a click again.
    await playRingoMove(page, move);
    await waitState(page, () => window.agonState.history.length === 3);
    await page.screenshot({ path: `${SHOTS}/ringo-undo.png` });
  } finally {
    await browser.close();
    server.stop();
  }
});

test("Urgammon against the computer: Undo takes the move back and keeps the dice", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await newGame(page, server.url, { game: "urgammon", level: 1, side: "light" });
    await waitState(page, () => window.agonState && window.agonYou.length === 1);
    let undone = false;
    for (let i = 0; i < 200 && !undone; i++) {
      await myTurn(page);
      const { s } = await state(page);
      assert.ok(!s.over && !s.between_games, "the game is still on");
      const rev = s.revision;
      if (s.phase === "roll") {
        await page.locator("#roll").click();
      } else if (s.phase === "verdict") {
        await page.locator("#verdict").click();
      } else {
        // A move: note the board and the dice, play it, wait for the reply, undo.
        const board = await urgammonPieces(page);
        const die = await page.locator("#chance-die").innerText();
        await clickUrgammonMove(page, s.moves[0], "l");
        await waitState(page, (r) => window.agonState.revision > r, rev);
        await myTurn(page);
        await page.locator("#undo").waitFor();
        await page.locator("#undo").click();
        await waitState(page, (m) => window.agonState.moves.includes(m) && window.agonState.to_act === "light", s.moves[0]);
        assert.deepEqual(await urgammonPieces(page), board, "the board is back to before the move");
        assert.equal(await page.locator("#chance-die").innerText(), die, "the same roll, not a new one");
        assert.deepEqual((await state(page)).s.tokens, s.tokens, "the record is back, dice included");
        undone = true;
        await page.screenshot({ path: `${SHOTS}/urgammon-undo.png` });
        continue;
      }
      await waitState(page, (r) => window.agonState.revision > r, rev);
    }
    assert.ok(undone, "a move was played and taken back");
  } finally {
    await browser.close();
    server.stop();
  }
});

test("an Urgammon game ends on the board with its result and a Next game button", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    // Play a same-screen game to its end through the API, then import all of
    // it but the last token, so the browser plays the end itself.
    const g = await apiCall(server.url, "POST", "/api/games", { game: "urgammon", opponent: "local", to: 7 });
    let s = g.state;
    for (let i = 0; i < 3000 && !s.between_games; i++) {
      const a = s.phase === "roll" ? { type: "roll" } : s.phase === "verdict" ? { type: "verdict" } : { type: "move", move: s.moves[0] };
      s = (await apiCall(server.url, "POST", `/api/games/${g.id}/action`, a, g.token)).state;
    }
    assert.ok(s.between_games, "the scripted game ended");
    const tokens = s.tokens.slice(0, -1).join(" ");
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url + "/new");
    await page.locator('input[name=game][value=urgammon]').check();
    await page.locator("#import-record").fill(tokens);
    await page.locator("#import").click();
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    await waitState(page, () => window.agonState && window.agonYou.length === 2);
    for (let i = 0; i < 500; i++) {
      const { s } = await state(page);
      if (s.between_games) break;
      const rev = s.revision;
      if (s.phase === "roll") await page.locator("#roll").click();
      else if (s.phase === "verdict") await page.locator("#verdict").click();
      else await clickUrgammonMove(page, s.moves[0], s.to_act[0]);
      await waitState(page, (r) => window.agonState.revision > r, rev);
    }
    const end = (await state(page)).s;
    assert.equal(end.phase, "over");
    // The final position stays on the board: the winner's seven pieces are home.
    const winner = end.result.winner;
    if (winner) {
      const home = Object.values(end[winner].palace).reduce((a, b) => a + b, 0);
      assert.equal(home, 7, "the winner has borne off all seven");
    }
    const box = page.locator("#game-result");
    await box.waitFor();
    const text = await box.innerText();
    assert.match(text, /Game 1 is over/);
    assert.match(text, winner ? /wins \d point/ : /drawn/);
    assert.match(await page.locator("#score").innerText(), new RegExp(`${end.match.score.light}\\s:\\s${end.match.score.dark}`));
    assert.equal(await page.locator("#roll").count(), 0, "no dice while the result is shown");
    await page.screenshot({ path: `${SHOTS}/urgammon-game-over.png` });
    // A reload shows the same end.
    await page.reload();
    await page.locator("#game-result").waitFor();
    await page.locator("#next").click();
    await waitState(page, () => !window.agonState.between_games);
    assert.equal(await page.locator("#game-result").count(), 0);
    assert.match(await page.locator("aside").innerText(), /Game 2/);
    assert.ok((await state(page)).s.tokens[0].startsWith("start:"), "the next game opened with its roll");
    // The replay shows the end too: at the game's last token, the result.
    const gameId = page.url().split("/").pop();
    await page.goto(`${server.url}/replay/${gameId}`);
    await page.locator("#replay-ply").waitFor();
    const total = (await state(page)).s.total;
    const endPly = total - (await state(page)).s.tokens.length;
    // Back a step at a time (a turn, or a game's opening rolls: a tied
    // opening roll is two tokens but one step) until the game's end, each
    // step awaited: clicks made before the button redraws all asked for the
    // same ply, so counting clicks by tokens overshot when they did not.
    const plyShown = () => page.evaluate(() => Number(document.getElementById("replay-ply").textContent.split(" /")[0]));
    for (let i = 0; i < total && (await plyShown()) > endPly; i++) {
      const from = await plyShown();
      await page.locator("#replay-back").click();
      await waitState(page, (f) => Number(document.getElementById("replay-ply").textContent.split(" /")[0]) < f, from);
    }
    await waitState(page, (n) => window.agonState.tokens_all && document.getElementById("replay-ply").textContent.startsWith(n + " /"), endPly);
    assert.equal((await state(page)).s.phase, "over");
    assert.match(await page.locator("#replay-result").innerText(), winner ? /wins \d point/ : /drawn/);
    // The move list shows the move of the ply replayed: the game is longer
    // than the list's window, which used to show its first moves whatever
    // the ply; and the page itself did not scroll to it.
    const seen = await page.evaluate(() => {
      const list = document.getElementById("move-list"), cur = list.querySelector(".current");
      const a = list.getBoundingClientRect(), b = cur.getBoundingClientRect();
      return { overflows: list.scrollHeight > list.clientHeight, inside: b.top >= a.top - 1 && b.bottom <= a.bottom + 1, pageY: window.scrollY };
    });
    assert.deepEqual(seen, { overflows: true, inside: true, pageY: 0 });
  } finally {
    await browser.close();
    server.stop();
  }
});
