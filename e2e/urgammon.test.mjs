// A whole Urgammon game on one screen: chance rolls, the verdict die, moves.
import test from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, waitState, state, withApp, newGame, twoGameMatch, openAsPlayer, apiCall, SHOTS } from "./helpers.mjs";

async function act(page, fn) {
  const before = (await state(page)).s.revision;
  await fn();
  await waitState(page, (v) => window.agonState.revision > v, before);
}

test("play an Urgammon game through dice, the verdict die and moves", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(server.url + "/new");
    await page.locator('input[name=game][value=urgammon]').check();
    // The match settings are typed first: choosing the opponent after redraws
    // the form, and what was typed must stay.
    await page.locator("#match-to").fill("1");
    await page.locator("#stake").fill("10");
    await page.selectOption("#draw", "end");
    await page.locator('input[name=opponent][value=local]').check();
    assert.equal(await page.locator("#match-to").inputValue(), "1");
    assert.equal(await page.locator("#stake").inputValue(), "10");
    assert.equal(await page.locator("#draw").inputValue(), "end");
    // This game plays a drawn game again (the decider path below).
    await page.selectOption("#draw", "replay");
    await page.locator("#start").click();
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    await waitState(page, () => window.agonState && window.agonYou.length === 2);
    const { s: first } = await state(page);
    assert.deepEqual([first.match.to, first.match.stake, first.match.draw], [1, "10", "replay"]);
    // The stake is said once: in the settings line, not again under the score.
    assert.equal((await page.locator("aside").innerText()).match(/10 per point/g).length, 1);
    assert.match(await page.locator("#settings").innerText(), /stake 10 per point/);
    assert.equal(await page.locator("#score-stake").count(), 0);
    // The replay has no settings line: there the score says it.
    const replay = await browser.newPage();
    await replay.goto(page.url().replace("/g/", "/replay/"));
    assert.equal(await replay.locator("#score-stake").innerText(), "Stake: 10 per point");
    await replay.close();
    let verdicts = 0, moves = 0, rolls = 0, forced = 0, checkedYes = 0;
    for (let i = 0; i < 3000; i++) {
      const { s } = await state(page);
      if (s.over) break;
      if (s.between_games) {
        // A drawn game: its result stays until Next game starts the decider.
        await page.locator("#game-result").waitFor();
        await act(page, () => page.locator("#next").click());
      } else if (s.phase === "roll") {
        // The verdict button appears only when rolling it is allowed; no piece moves yet.
        assert.equal(await page.locator("#verdict").count(), 0);
        assert.equal(await page.locator("#move-hint").count(), 0);
        await act(page, () => page.locator("#roll").click());
        rolls++;
      } else if (s.phase === "verdict") {
        assert.match(await page.locator("#verdict").innerText(), /forced/);
        await act(page, () => page.locator("#verdict").click());
        verdicts++; forced++;
      } else if (s.phase === "decide" && verdicts < 3 && i % 3 === 0) {
        // What a YES would allow is said in the log's words, one per move.
        if (s.promoted_legal.length) {
          const text = await page.locator("#if-yes").innerText();
          assert.match(text, /^If the verdict die says YES: /);
          assert.equal(text.split(" · ").length, s.promoted_legal.length, text);
          assert.ok(s.promoted_legal.every((m) => text.includes(m.to ?? m.from) && /pawn|chariot|hero/.test(text)), text);
          assert.doesNotMatch(text, /[PCH]-\d/, "no notation");
          checkedYes++;
        }
        await act(page, () => page.locator("#verdict").click());
        verdicts++;
      } else {
        const move = s.moves[0];
        // The match's first move comes with a line on how to move; later ones not.
        if (moves === 0) assert.match(await page.locator("#move-hint").innerText(), /^Pick a piece with a dashed ring/);
        if (moves >= 10) assert.equal(await page.locator("#move-hint").count(), 0);
        const [, from, , to] = move.match(/^([PCH]|\d+[ab]?)([-x])(\d+[ab]?|off)$/);
        const side = s.to_act[0];
        await act(page, async () => {
          if (/^[PCH]$/.test(from)) await page.locator(`[data-entry="${side}${from}"]`).click({ force: true });
          else await page.locator(`[data-piece="${from}"]`).click({ force: true });
          if (to === "off") await page.locator(`[data-off="${side}"]`).click({ force: true });
          else await page.locator(`[data-house="${to}"]`).click({ force: true });
        });
        moves++;
        if (moves === 40) await page.screenshot({ path: `${SHOTS}/urgammon-game.png` });
        if (moves % 10 === 0) {
          // The race count, worked out here from the pieces: 17 steps for a
          // waiting piece, 17 − its place on its path for one on the board.
          const now = (await state(page)).s;
          const steps = (side) => Object.keys(now[side].board).reduce((n, h) => n + 16 - now.paths[side].indexOf(h), 0)
            + 17 * (now[side].waiting.P + now[side].waiting.C + now[side].waiting.H);
          assert.equal(await page.locator("#pips").innerText(), `Steps to the palace: light ${steps("light")} · dark ${steps("dark")}`);
        }
      }
    }
    const { s } = await state(page);
    assert.ok(s.over, "the match ended");
    assert.ok(verdicts > 0 && moves > 10 && rolls > 10 && checkedYes > 0, `verdicts ${verdicts}, moves ${moves}, rolls ${rolls}, checked YES ${checkedYes}`);
    await page.locator("#result").waitFor();
    const text = await page.locator("#result").innerText();
    assert.match(text, /wins the match|draw/);
    if (s.match.winner) assert.match(text, /pays \d+/);
    await page.screenshot({ path: `${SHOTS}/urgammon-finished.png` });
  } finally {
    await browser.close();
    server.stop();
  }
});

test("the home page says what the chosen level is, for the chosen game, and the game names it", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(server.url + "/new?lang=en");
    await page.locator("input[name=game][value=ringo]").check();
    await page.locator("input[name=opponent][value=engine]").check();
    const note = page.locator("#level-note");
    // The default level, in Ringo's words only (one paragraph used to tell
    // both games' ten levels at once).
    assert.match(await note.innerText(), /^Level 3: looks one move ahead/);
    assert.doesNotMatch(await page.locator("main").innerText(), /Urgammon: level 1|neural network/);
    // By keyboard: the slider's End and Home keys, and the note follows.
    await page.locator("#level").focus();
    await page.keyboard.press("End");
    assert.match(await note.innerText(), /^Level 10: full strength, a second of thought a move; it reads how you play/);
    assert.equal(await page.locator("#level-out").innerText(), "10");
    await page.keyboard.press("Home");
    assert.match(await note.innerText(), /^Level 1: looks one move ahead and mostly plays at random/);
    // Urgammon keeps the level and tells it in its own words.
    await page.locator("input[name=game][value=urgammon]").check();
    assert.match(await note.innerText(), /^Level 1: a careless greedy player/);
    assert.doesNotMatch(await page.locator("main").innerText(), /looks one move ahead/);
    await page.locator("#level").focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    assert.match(await note.innerText(), /^Level 4: a hand-written evaluation/);
    // With the mouse: a click near the slider's right end is level 10.
    const box = await page.locator("#level").boundingBox();
    await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
    assert.match(await note.innerText(), /^Level 10: full strength: the network looks two rolls ahead/);
    // The note is the slider's description, for a screen reader.
    assert.equal(await page.locator("#level").getAttribute("aria-describedby"), "level-note");
    await page.locator("#level").focus();
    await page.keyboard.press("ArrowLeft");
    // The game page names the computer's level among the players.
    await page.locator("#start").click();
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    await page.locator("#presence").waitFor();
    assert.match(await page.locator("#presence").innerText(), /computer, level 9/);
    // In Polish the note is Polish.
    await page.goto(server.url + "/new?lang=pl");
    await page.locator("input[name=opponent][value=engine]").check();
    assert.match(await page.locator("#level-note").innerText(), /^Poziom \d+: /);
  });
});

test("a stake typed with a decimal comma, and amounts written as the page's language writes them", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await newGame(page, server.url, { game: "urgammon", opponent: "local", to: 1, stake: "2,5", lang: "fr" });
    await waitState(page, () => window.agonState && window.agonYou.length === 2);
    assert.equal((await state(page)).s.match.stake, "2.50", "the API got the amount");
    assert.match(await page.locator("#settings").innerText(), /mise de 2,50 par point/);
    // Resigned at 0–0 in a match to 1: the loser pays one point's stake.
    await page.locator("#resign").click();
    await page.locator("#resign").click();
    await page.locator("#result").waitFor();
    assert.match(await page.locator("#result").innerText(), /paient 2,50\./);
    // In English the same amounts take a point.
    await page.goto(page.url() + "?lang=en");
    await page.locator("#result").waitFor();
    assert.match(await page.locator("#settings").innerText(), /stake 2\.50 per point/);
    assert.match(await page.locator("#result").innerText(), /pays 2\.50\./);
  });
});

/** A finished game's result as the page words it, worked out here. */
function resultWords(r) {
  if (!r.winner) return "The game is drawn: both finished.";
  const kinds = { plain: "a plain win", streets: "dogs in the streets", waiting: "dogs in the waiting area", babylon: "Babylon" };
  return `${r.winner === "light" ? "Light" : "Dark"} wins ${r.points} ${r.points === 1 ? "point" : "points"}: ${kinds[r.kind]}.`;
}

test("a match lists its games with their results under the score, from the second game to the end", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // The first game: nothing to list yet.
    const first = await apiCall(server.url, "POST", "/api/games", { game: "urgammon", opponent: "local" });
    await openAsPlayer(page, server.url, first);
    await page.locator("#score").waitFor();
    assert.equal(await page.locator("#match-games").count(), 0);
    // The second game: the first one's result.
    const { u, s } = await twoGameMatch(server.url);
    await openAsPlayer(page, server.url, u);
    const list = page.locator("#match-games li");
    await list.first().waitFor();
    assert.deepEqual(await list.allInnerTexts(), s.match.results.map((r, i) => `Game ${i + 1} — ${resultWords(r)}`));
    // Played on to the end of the match (the page follows live): every
    // game, the last one with it, and their points make the final score.
    let end = s;
    for (let i = 0; i < 20000 && !end.over; i++) {
      const action = end.between_games ? { type: "next" } : end.phase === "roll" ? { type: "roll" }
        : end.moves.length ? { type: "move", move: end.moves[end.moves.length - 1] } : { type: "verdict" };
      end = (await apiCall(server.url, "POST", `/api/games/${u.id}/action`, action, u.token)).state;
    }
    assert.ok(end.over, "the match ended");
    await waitState(page, () => window.agonState.match.over);
    const games = [...end.match.results, end.result];
    assert.equal(games.length, end.match.games);
    assert.deepEqual(await list.allInnerTexts(), games.map((r, i) => `Game ${i + 1} — ${resultWords(r)}`));
    for (const side of ["light", "dark"]) {
      assert.equal(games.filter((r) => r.winner === side).reduce((a, r) => a + r.points, 0), end.match.score[side], side);
    }
    // The replay lists them as they stood at the position shown: all of
    // them at the end, none at the start.
    await page.goto(`${server.url}/replay/${u.id}`);
    await list.first().waitFor();
    assert.equal(await list.count(), games.length);
    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.getElementById("replay-ply")?.innerText.startsWith("0 /"));
    assert.equal(await page.locator("#match-games").count(), 0);
    // In Polish too.
    await page.goto(`${server.url}/g/${u.id}?lang=pl`);
    await list.first().waitFor();
    assert.match(await list.first().innerText(), /^Partia 1 — /);
  });
});
