// Study in the browser: a finished game's Review button, the review computed
// on the server with a progress bar, each side's numbers, the win-chance
// graph whose points open positions, the graded moves and key moments.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, openAsPlayer, apiCall, twoGameMatch, SHOTS } from "./helpers.mjs";

/** The arrows on the review's board, as "kind:from>to". */
function boardArrows(page) {
  return page.locator("#review-board [data-arrow]").evaluateAll((list) => list.map((a) => `${a.dataset.arrow}:${a.dataset.from}>${a.dataset.to}`));
}

async function finishedRingo(url) {
  const g = await apiCall(url, "POST", "/api/games", { game: "ringo", opponent: "local" });
  for (const move of ["b6-b5", "b1-b2", "c6-c5", "b2-b3", "h6-a6"]) await apiCall(url, "POST", `/api/games/${g.id}/action`, { type: "move", move }, g.token);
  await apiCall(url, "POST", `/api/games/${g.id}/action`, { type: "resign" }, g.token);
  return g;
}

test("a finished Ringo game: Review, accuracy, the graph opens positions, graded moves, key moments", async () => {
  await withApp(async (server, browser) => {
    const g = await finishedRingo(server.url);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openAsPlayer(page, server.url, g);
    await page.locator("#review-link").click();
    await page.waitForURL(/\/review\//);
    await page.locator("#review-summary").waitFor({ timeout: 60000 });
    const acc = await page.locator('[data-side="attackers"] .accuracy').innerText();
    assert.ok(Number(acc) >= 0 && Number(acc) <= 100, acc);
    assert.equal(await page.locator("#win-graph .pt").count(), 5, "one point per ply");
    assert.equal(await page.locator("#graded li").count(), 5);
    // The game's words, explained in place, and the way to the strategy
    // guide ("why was it a mistake").
    const nz = page.locator('#review-body .terms button[data-term="neutral-zone"]');
    await nz.click();
    await page.locator("#" + await nz.getAttribute("aria-controls"), { hasText: "never captured" }).waitFor();
    await page.locator("#review-strategy").click();
    await page.waitForURL(/\/strategy#strategy-ringo$/);
    await page.locator("#strategy-ringo article").first().waitFor();
    await page.goBack();
    await page.locator("#review-summary").waitFor({ timeout: 60000 });
    // A point of the graph opens the position before that move: a tap
    // where the dot is drawn (the graph's face takes it, the nearest point).
    await page.locator('#win-graph .pt[data-ply="2"]').click({ force: true });
    await page.waitForFunction(() => window.agonState && window.agonState.history.length === 2);
    // Numbered as the game's move list numbers it: moves in pairs, "2." for
    // the attackers' second move, "1…" for the defenders' first.
    assert.match(await page.locator("#review-caption").innerText(), /^The position before move 2: Attackers c6-c5/);
    assert.deepEqual(await page.locator("#graded li .num").allInnerTexts(), ["1.", "1…", "2.", "2…", "3."]);
    assert.equal(await page.locator('#win-graph .pt[data-ply="3"]').getAttribute("aria-label"), (await page.evaluate(() => {
      const p = window.agonReview.plies[3];
      return `2… · ${p.played}${p.symbol}: attackers ${Math.round(100 * (1 - p.win))}%`;
    })));
    // The move played there (c6-c5) is an arrow on the board, and the best
    // move is a green one when it was another; the legend names what is drawn.
    const third = (await page.evaluate(() => window.agonReview)).plies[2];
    const arrows = await boardArrows(page);
    if (third.best === "c6-c5") assert.deepEqual(arrows, ["best:c6>c5"]);
    else {
      const [bf, bt] = third.best.split(/[-x]/);
      assert.deepEqual(arrows, [`best:${bf}>${bt}`, "played:c6>c5"]);
      assert.match(await page.locator("#arrow-legend").innerText(), /the best move.*the move played/);
    }
    // The graph says whose chance it shows, and its scale.
    assert.match(await page.locator("#graph-caption").innerText(), /Win chance of the attackers/);
    assert.deepEqual(await page.locator("#win-graph .scale").allTextContents(), ["100%", "50%", "0%"]);
    // On a phone the scale reads at 11 px or more, and stays on the screen.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    // Each label wholly inside the graph's frame (the top one stood half
    // out), in French too, whose "100 %" is the widest.
    for (const lang of ["en", "fr"]) {
      await phone.goto(`${server.url}/review/${g.id}?lang=${lang}`);
      await phone.locator("#win-graph .scale").first().waitFor();
      const frame = await phone.locator("#win-graph").evaluate((g) => g.getBoundingClientRect().toJSON());
      for (const box of await phone.locator("#win-graph .scale").evaluateAll((list) => list.map((e) => e.getBoundingClientRect().toJSON()))) {
        assert.ok(box.height >= 11 && box.left >= frame.left, `${lang} ${JSON.stringify(box)}`);
        assert.ok(box.top >= frame.top && box.bottom <= frame.bottom, `${lang} ${JSON.stringify(box)} inside ${JSON.stringify(frame)}`);
      }
    }
    await phone.close();
    // By keyboard too.
    await page.locator('#win-graph .pt[data-ply="4"]').focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => window.agonState.history.length === 4);
    // The arrows follow the position: the fifth move, h6-a6, was played there.
    assert.ok((await boardArrows(page)).some((a) => a.endsWith(":h6>a6")), (await boardArrows(page)).join());
    // Every graded move names its grade.
    const rows = await page.locator("#graded li").allInnerTexts();
    assert.ok(rows.every((r) => /best|excellent|good|inaccuracy|mistake|blunder/.test(r)), rows.join("\n"));
    await page.screenshot({ path: `${SHOTS}/review-ringo.png`, fullPage: true });
    // Analyse opens the analysis board on the position shown (before the
    // fifth move), to try other moves there; Back returns to the review.
    await page.locator("#review-analyse").click();
    await page.waitForURL(/\/analysis\?/);
    await page.locator("#best").waitFor();
    assert.equal(await page.locator("#analysis-moves").innerText(), "b6-b5 b1-b2 c6-c5 b2-b3");
    assert.equal(await page.locator("#analysis-to-move").innerText(), "Attackers to move");
    await page.goBack();
    await page.waitForURL(/\/review\//);
    await page.locator('#win-graph .pt[data-ply="4"]').click({ force: true });
    await page.waitForFunction(() => window.agonState.history.length === 4);
    // Replay opens at the position shown, to step on from it.
    await page.locator("#review-replay").click();
    await page.waitForURL(new RegExp(`/replay/${g.id}\\?ply=4$`));
    await page.waitForFunction(() => document.getElementById("replay-ply")?.innerText.startsWith("4 /"));
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => document.getElementById("replay-ply").innerText.startsWith("5 /"));
    // The games list links to it.
    await page.goto(server.url + "/games");
    // The lists come after the page: wait for them, then count.
    await page.locator("#games .review-link").first().waitFor();
    await page.locator("#own-games .review-link").first().waitFor();
    assert.equal(await page.locator("#games .review-link").count(), 1);
    assert.equal(await page.locator("#own-games .review-link").count(), 1, "the player's own game, among their games");
    // Stored: asked again, it is there at once.
    const r = await apiCall(server.url, "GET", `/api/games/${g.id}/review`);
    assert.equal(r.plies.length, 5);
  });
});

test("a resigned Urgammon match: error rates, ratings, luck and the graded decisions", async () => {
  await withApp(async (server, browser) => {
    // A fixed record (dice and all), so every run reviews the same match:
    // its last-listed moves include at least two that lose equity, so the
    // key moments are always there to check.
    const u = await apiCall(server.url, "POST", "/api/import", { game: "urgammon",
      record: "urgammon match to=3 draw=replay\nstart:2-3 P-2a r1 P-1b r1 P-1a r3 P-3b r2 2a-4a r2\nresign:light\n" });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/review/${u.id}`);
    await page.locator("#review-summary").waitFor({ timeout: 120000 });
    assert.match(await page.locator('[data-side="light"]').innerText(), /Error rate/);
    assert.match(await page.locator('[data-side="dark"]').innerText(), /Rating: \w+/);
    assert.ok(await page.locator("#win-graph .pt").count() > 0);
    await page.screenshot({ path: `${SHOTS}/review-urgammon.png`, fullPage: true });
    // Key moments: the worst decisions, stepped through with the button.
    const r = await apiCall(server.url, "GET", `/api/games/${u.id}/review`);
    // The dice counted for each side against the rules' odds: each face of
    // the chance die (1 and 2 on two faces of six, 3 and 4 on one), and the
    // verdict die's YES (four faces of six).
    const expected = { r1: "33%", r2: "33%", r3: "17%", r4: "17%", "v+": "67%" };
    for (const [token, share] of Object.entries(expected)) {
      const cells = await page.locator(`#dice-stats tr[data-token="${token}"] td`).allInnerTexts();
      const want = ["light", "dark"].map((side) => {
        const of = r.rolls.filter((x) => x.side === side && x.token[0] === token[0]).length;
        const n = r.rolls.filter((x) => x.side === side && x.token === token).length;
        return of ? `${n} (${Math.round(100 * n / of)}%)` : "–";
      });
      assert.deepEqual(cells, [...want, share], token);
    }
    for (const kind of ["r", "v"]) {
      const totals = await page.locator(`#dice-stats tr[data-token="${kind}"] td`).allInnerTexts();
      assert.deepEqual(totals, [...["light", "dark"].map((side) => String(r.rolls.filter((x) => x.side === side && x.token[0] === kind).length)), ""], kind);
    }
    assert.ok(r.rolls.some((x) => x.token[0] === "r"), "some chance rolls were counted");
    const worst = r.decisions.filter((d) => !d.trivial && d.equity_loss > 0);
    assert.ok(worst.length >= 2, "the fixed match has decisions that lose equity");
    assert.equal(await page.locator("button.key").count(), Math.min(worst.length, 5));
    {
      await page.locator("#next-key").click();
      await page.locator("#graded li.current").waitFor();
      // The decision's move is an arrow from its piece (or the waiting piece
      // it enters) to its house; the verdict die is no arrow.
      const ply = Number(await page.locator("#graded li.current").getAttribute("data-ply"));
      const d = r.decisions.find((x) => x.ply === ply);
      // It is numbered by its turn, as the game page's log numbers it (one
      // game: no game named), and the caption says the same.
      assert.equal(await page.locator("#graded li.current .num").innerText(), d.turn + ".");
      assert.match(await page.locator("#review-caption").innerText(), new RegExp(`^The position before move ${d.turn}: ${d.side === "light" ? "Light" : "Dark"} `));
      const firstKey = Math.min(...worst.sort((a, b) => b.equity_loss - a.equity_loss).slice(0, 5).map((w) => w.ply));
      assert.equal(await page.locator("button.key").first().innerText(), String(r.decisions.find((x) => x.ply === firstKey).turn));
      const moves = await page.evaluate(() => [...window.agonState.legal, ...window.agonState.promoted_legal]);
      const want = [];
      for (const [kind, n] of [["best", d.best], ["played", d.played]]) {
        const m = moves.find((x) => x.notation === n);
        const k = m && `${m.from ?? m.piece}>${m.to ?? "off"}`;
        if (k && !want.some((w) => w.endsWith(":" + k))) want.push(`${kind}:${k}`);
      }
      assert.deepEqual(await boardArrows(page), want, JSON.stringify(d));
      if (d.played !== "verdict") assert.ok(want.length > 0, JSON.stringify(d));
    }
    // A decision picked in the list, then Analyse, by keyboard: the analysis
    // board opens on that decision, with the move played and the best among
    // its options.
    const d = r.decisions.find((x) => !x.trivial);
    assert.ok(d, "a decision with a choice was graded");
    {
      await page.locator(`#graded li[data-ply="${d.ply}"]`).click();
      await page.waitForFunction((n) => document.querySelector("#graded li.current")?.dataset.ply === String(n), d.ply);
      await page.locator("#review-analyse").focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/analysis\?/);
      await page.locator("#options tbody tr").first().waitFor({ timeout: 60000 });
      const options = await page.evaluate(() => window.agonAnalysis.options.map((o) => o.option));
      for (const o of [d.played, d.best]) assert.ok(options.includes(o), `${o} among ${options}`);
      await page.goBack();
      await page.locator("#review-summary").waitFor();
    }
    // In French the numbers take a decimal comma ("12,5", "−0,0412").
    await page.goto(`${server.url}/review/${u.id}?lang=fr`);
    await page.locator("#review-summary").waitFor();
    assert.match(await page.locator('[data-side="light"] .error-rate').innerText(), /^\d+,\d$/);
    // And a no-break space before each colon: "Chance (points) : 0,04".
    assert.match(await page.locator('[data-side="light"]').innerText(), /Chance \(points\)\u00a0: /);
    assert.match(await page.locator("#dice-stats").innerText(), /Dé de la chance\u00a0: 1/);
    const losses = (await page.locator("#graded").innerText()).match(/−\d[\d.,]*/g) ?? [];
    assert.ok(losses.every((l) => !l.includes(".")), losses.join(" "));
    await page.goto(`${server.url}/review/${u.id}?lang=en`);
    await page.locator("#review-summary").waitFor();
    assert.match(await page.locator('[data-side="light"] .error-rate').innerText(), /^\d+\.\d$/);
    // An ongoing game has no review yet: the page says so in words.
    const g = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" });
    await page.goto(`${server.url}/review/${g.id}?lang=fr`);
    await page.locator("#review-status .result").waitFor();
    assert.match(await page.locator("#review-status").innerText(), /partie/);
  });
});

test("the review and the replay lead back to the game with 'Open the game', by mouse and by keyboard", async () => {
  await withApp(async (server, browser) => {
    const g = await apiCall(server.url, "POST", "/api/import", {
      game: "ringo", record: "classic ......../......../......../......../..A...../..D..... 1 a c2xF" });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/review/${g.id}`);
    const open = page.getByRole("link", { name: "Open the game" });
    await open.click();
    await page.waitForURL(new RegExp(`/g/${g.id}$`));
    assert.match(await page.locator("#result").innerText(), /attackers win/i);
    await page.goto(`${server.url}/replay/${g.id}`);
    await page.getByRole("link", { name: "Open the game" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`/g/${g.id}$`));
    await page.locator("#result").waitFor();
    // In Polish too.
    await page.goto(`${server.url}/replay/${g.id}?lang=pl`);
    assert.equal(await page.locator("#open-game").innerText(), "Otwórz partię");
    // An unfinished game's review says it comes after the end, and leads back to the game.
    const live = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" });
    await page.goto(`${server.url}/review/${live.id}?lang=en`);
    assert.equal(await page.locator("#review-error").innerText(), "This game is not over yet: its review comes after the end.");
    await page.getByRole("link", { name: "Open the game" }).click();
    await page.waitForURL(new RegExp(`/g/${live.id}$`));
  });
});

test("a two-game match's review: games marked on the graph and the list, one tab stop, arrows and clicks walk the curve", async () => {
  await withApp(async (server, browser) => {
    // A match played until its second game has begun, then resigned: a
    // review of two games.
    const { u } = await twoGameMatch(server.url);
    await apiCall(server.url, "POST", `/api/games/${u.id}/action`, { type: "resign" }, u.token);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/review/${u.id}`);
    await page.locator("#review-summary").waitFor({ timeout: 240000 });
    const r = await page.evaluate(() => window.agonReview);
    // Where the second game begins: a line with its number on the graph, and a
    // heading in the graded list before its first decision.
    assert.equal(await page.locator("#win-graph .game-start").count(), 1);
    assert.deepEqual(await page.locator("#win-graph .game-label").allTextContents(), ["Game 2"]);
    const frame = await page.locator("#win-graph").boundingBox();
    const label = await page.locator("#win-graph .game-label").boundingBox();
    assert.ok(label.x >= frame.x && label.x + label.width <= frame.x + frame.width, "the game's number inside the graph");
    assert.deepEqual(await page.locator("#graded li.game-head").allInnerTexts(), ["Game 1", "Game 2"]);
    const second = r.decisions.find((d) => d.game === 2 && !d.trivial);
    assert.equal(await page.locator("#graded li.game-head + li").nth(1).getAttribute("data-ply"), String(second.ply));
    // Game 2's turns are numbered from 1 again, as its log on the game page:
    // the line of that number there is the same side's turn.
    assert.equal(await page.locator("#graded li.game-head + li .num").nth(1).innerText(), second.turn + ".");
    assert.ok(second.turn < second.ply, "numbered within its game, not through the match");
    // A point per position, small enough not to hide the curve when there are
    // many; the errors in their grade's colour.
    const dots = page.locator("#win-graph .pt");
    assert.equal(await dots.count(), r.win_curve.length);
    if (r.win_curve.length > 120) assert.equal(await dots.nth(1).getAttribute("r"), "2.5");
    const onCurve = new Set(r.win_curve.map((c) => c.ply));
    const blunders = r.decisions.filter((d) => !d.trivial && d.grade === "blunder" && onCurve.has(d.ply)).length;
    assert.equal(await page.locator("#win-graph .pt.g-blunder").count(), blunders);
    // The graph is one tab stop, on the position shown.
    const tabStops = () => page.locator('#win-graph .pt[tabindex="0"]').evaluateAll((l) => l.map((e) => e.dataset.ply));
    const shown = () => page.evaluate(() => document.querySelector("#win-graph .pt.current")?.dataset.ply);
    const start = await shown();
    assert.deepEqual(await tabStops(), [start]);
    // The keyboard: Tab from the Next key moment button reaches the graph's
    // point; the arrow keys step to the next position and back, End to the last.
    await page.locator("#next-key").focus();
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.dataset.ply), start);
    const at = r.win_curve.findIndex((c) => String(c.ply) === start);
    await page.keyboard.press("ArrowRight");
    const next = String(r.win_curve[at + 1].ply);
    await page.waitForFunction((p) => document.querySelector("#win-graph .pt.current")?.dataset.ply === p, next);
    const nextPoint = r.win_curve[at + 1];
    assert.match(await page.locator("#review-caption").innerText(), new RegExp(`^The position before move ${nextPoint.turn} \\(game ${nextPoint.game}\\)`));
    assert.deepEqual(await tabStops(), [next]);
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction((p) => document.querySelector("#win-graph .pt.current")?.dataset.ply === p, start);
    await page.keyboard.press("End");
    const last = String(r.win_curve[r.win_curve.length - 1].ply);
    await page.waitForFunction((p) => document.querySelector("#win-graph .pt.current")?.dataset.ply === p, last);
    // A click on the graph's face, between the dots, opens the nearest position.
    const box = await page.locator("#win-graph").boundingBox();
    const left = Number(await page.locator("#win-graph rect.hit").getAttribute("x"));
    await page.mouse.click(box.x + left / 600 * box.width + 1, box.y + box.height - 6);
    await page.waitForFunction((p) => document.querySelector("#win-graph .pt.current")?.dataset.ply === p, String(r.win_curve[0].ply));
    await page.screenshot({ path: `${SHOTS}/review-urgammon-match.png`, fullPage: true });
    // The game page shows game 2's log: its line of that number is the same
    // side's turn.
    await page.goto(`${server.url}/g/${u.id}`);
    const line = await page.locator(`#move-list li[data-turn="${second.turn}"]`).innerText();
    const who = second.side === "light" ? "Light" : "Dark";
    assert.match(line, new RegExp(`^${second.turn}\\. (${who} rolled|Opening roll: .* ${who} starts)`), line);
  });
});
