// The boards as a player meets them: a last move you can see (3:1 against
// every cell), a mark where a piece was taken, readable ring numbers,
// keyboard-only play in both games with spoken moves, flip, sounds with a
// remembered mute switch, the "your turn" title, the replay keys, and the
// not-found page.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, openAsPlayer, waitState, state, apiCall, twoGameMatch, ringoPieces, urgammonPieces, clickRingoCell as clickCell, SHOTS } from "./helpers.mjs";

/** WCAG contrast of two CSS colours, computed in the page. */
function contrastIn(page, pairs) {
  return page.evaluate((pairs) => {
    const rgb = (c) => c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
    const lum = (c) => {
      const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
    return pairs.map(([a, ap, b, bp]) => {
      const [x, y] = [lum(style(a, ap)), lum(style(b, bp))];
      return [a + " on " + b, (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)];
    });
  }, pairs);
}

/** Moves the board's keyboard focus to `key` with arrow keys, as a person would. */
async function arrowTo(page, key) {
  // A click or Enter redraws the board; focus returns to a cell just after.
  await page.waitForFunction(() => !!document.activeElement?.dataset?.key);
  for (let i = 0; i < 30; i++) {
    const here = await page.evaluate((key) => {
      const a = document.activeElement, b = document.querySelector(`[data-key="${key}"]`);
      return { at: a.dataset.key, ax: +a.dataset.x, ay: +a.dataset.y, bx: +b.dataset.x, by: +b.dataset.y };
    }, key);
    if (here.at === key) return;
    const dx = here.bx - here.ax, dy = here.by - here.ay;
    const k = Math.abs(dy) > 20 ? (dy > 0 ? "ArrowDown" : "ArrowUp") : dx > 0 ? "ArrowRight" : "ArrowLeft";
    await page.keyboard.press(k);
  }
  throw new Error("could not reach " + key + " with the arrow keys");
}

test("Ringo by keyboard: a move, its highlight, its announcement; capture marks; readable labels; flip; sounds", async () => {
  await withApp(async (server, browser) => {
    const g = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openAsPlayer(page, server.url, g);
    await waitState(page, () => window.agonYou.length === 2);
    assert.match(await page.title(), /^● /, "the title says it is your turn");
    // Keyboard only: Tab into the board, pick b6, go down to b5, drop.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => !!document.activeElement.dataset.key)) break;
    }
    const start = await page.evaluate(() => document.activeElement.dataset.key);
    assert.equal(start, "b6", "focus starts on a piece that can move");
    await page.keyboard.press("Enter");
    // Picking redraws the board; focus comes back to the picked cell.
    await page.waitForFunction(() => document.activeElement?.dataset?.key === "b6");
    assert.match(await page.evaluate(() => document.activeElement.getAttribute("aria-label")), /b6.*picked/);
    await page.keyboard.press("ArrowDown");
    assert.match(await page.evaluate(() => document.activeElement.getAttribute("aria-label")), /b5.*move goes here/);
    await page.keyboard.press("Enter");
    await waitState(page, () => window.agonState.history.length === 1);
    assert.deepEqual((await state(page)).s.history, ["b6-b5"]);
    await page.waitForFunction(() => document.getElementById("announce").textContent.includes("b6-b5"));
    // The last move: both cells outlined, the outline at 3:1 against every cell colour.
    assert.equal(await page.locator('.hl[data-last="b6"]').count(), 1);
    assert.equal(await page.locator('.hl[data-last="b5"]').count(), 1);
    const ratios = await contrastIn(page, [
      [".hl", "stroke", ".cell.light", "fill"], [".hl", "stroke", ".cell.dark", "fill"],
      [".hl", "stroke", ".cell.nz", "fill"], [".hl", "stroke", ".fortress", "fill"],
      [".ringno", "fill", ".cell.nz", "fill"], [".label", "fill", "body", "backgroundColor"],
      [".piece.att", "fill", ".fortress", "fill"],
    ]);
    for (const [what, r] of ratios.slice(0, 4)) assert.ok(r >= 3, `${what}: ${r.toFixed(2)}:1`);
    for (const [what, r] of ratios.slice(4)) assert.ok(r >= 4.5, `${what}: ${r.toFixed(2)}:1`);
    assert.ok((await page.evaluate(() => window.agonSounds || [])).includes("move"), "a move sound played");
    // Mute, remembered across a reload; then no more sounds.
    await page.locator("#sound").click();
    assert.equal(await page.locator("#sound").getAttribute("aria-pressed"), "false");
    // Flip: sector a goes to the bottom, and stays there after a reload.
    const aY = () => page.evaluate(() => [...document.querySelectorAll("text.label")].find((e) => e.textContent === "a").getAttribute("y"));
    assert.ok(Number(await aY()) < 0);
    await page.locator("#flip").click();
    assert.ok(Number(await aY()) > 0, "flipped");
    await page.reload();
    await waitState(page, () => !!window.agonState);
    assert.ok(Number(await aY()) > 0, "still flipped after a reload");
    assert.equal(await page.locator("#sound").getAttribute("aria-pressed"), "false", "still muted");
    // Play on (by the API) until a capture, then the page marks the taken piece.
    let s = (await state(page)).s;
    for (let i = 0; i < 300 && !(s.last_move && s.last_move.captured) && !s.over; i++) {
      const capture = s.legal.find((m) => m.captured);
      const move = capture ? capture.notation : s.legal[(i * 7) % s.legal.length].notation;
      s = (await apiCall(server.url, "POST", `/api/games/${g.id}/action`, { type: "move", move }, g.token)).state;
    }
    assert.ok(s.last_move && s.last_move.captured, "a capture was played");
    await waitState(page, (r) => window.agonState.revision === r, s.revision);
    assert.equal(await page.locator(`[data-captured="${s.last_move.captured}"]`).count(), 1, "the capture is marked");
    assert.match(await page.locator("#captured").innerText(), /[1-9] of (7|4)|1 of/);
    assert.deepEqual(await page.evaluate(() => window.agonSounds || []), [], "muted: no sound since the reload");
    await page.screenshot({ path: `${SHOTS}/ringo-capture.png` });
  });
});

test("Urgammon by keyboard: roll, pick a movable piece, walk to its house, drop; path and marks shown", async () => {
  await withApp(async (server, browser) => {
    const g = await apiCall(server.url, "POST", "/api/games", { game: "urgammon", opponent: "local" });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openAsPlayer(page, server.url, g);
    await waitState(page, () => window.agonYou.length === 2);
    let s = (await state(page)).s;
    // The opening roll already gave a value; if not, roll with the keyboard.
    if (s.phase === "roll") {
      await page.locator("#roll").focus();
      await page.keyboard.press("Enter");
      await waitState(page, () => window.agonState.phase !== "roll");
      s = (await state(page)).s;
    }
    assert.ok(s.legal.length > 0, "a move is possible");
    assert.equal(await page.locator(`polyline[data-path="${s.to_act}"]`).count(), 1, "the path of the side to act is drawn");
    assert.ok(await page.locator(".upiece.movable").count() > 0, "movable pieces are marked");
    assert.match(await page.locator("#move-list").innerText(), /Opening roll: light \d, dark \d/);
    const move = s.legal[0];
    const from = move.from ?? move.piece;
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => !!document.activeElement.dataset.key)) break;
    }
    await arrowTo(page, from);
    await page.keyboard.press("Enter");
    await arrowTo(page, move.to ?? "off");
    await page.keyboard.press("Enter");
    await waitState(page, (v) => window.agonState.version > v, s.version);
    s = (await state(page)).s;
    assert.equal(s.log[0].moves[0].notation, move.notation, "the move was played by keyboard");
    assert.equal(await page.locator(`.hl[data-last="${move.to}"]`).count(), 1);
    const ratios = await contrastIn(page, [[".hl", "stroke", ".house", "fill"], [".hl", "stroke", ".house.rosette", "fill"]]);
    for (const [what, r] of ratios) assert.ok(r >= 3, `${what}: ${r.toFixed(2)}:1`);
    await page.waitForFunction(() => document.getElementById("announce").textContent.length > 0);
    await page.screenshot({ path: `${SHOTS}/urgammon-keyboard.png` });
  });
});

test("on a phone and on a desktop, every word and number on both boards reads at 11 px or more, and no two overlap", async () => {
  await withApp(async (server, browser) => {
    const games = {
      ringo: await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" }),
      urgammon: await apiCall(server.url, "POST", "/api/games", { game: "urgammon", opponent: "local" }),
    };
    for (const width of [390, 1280]) {
      // Polish has the longest tray names ("Przedpole").
      const page = await browser.newPage({ viewport: { width, height: 900 }, isMobile: width < 500, hasTouch: width < 500 });
      await page.goto(server.url + "/?lang=pl");
      for (const [game, g] of Object.entries(games)) {
        await openAsPlayer(page, server.url, g);
        await page.locator("svg.board text").first().waitFor();
        const texts = await page.evaluate(() => {
          const svg = document.querySelector("svg.board");
          const box = svg.getBoundingClientRect();
          const scale = box.width / svg.viewBox.baseVal.width;
          return [...svg.querySelectorAll("text")].map((t) => {
            const r = t.getBoundingClientRect();
            return { text: t.textContent, cls: t.getAttribute("class"), px: parseFloat(getComputedStyle(t).fontSize) * scale,
              r: { left: r.left, right: r.right, top: r.top, bottom: r.bottom }, inside: r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1 };
          });
        });
        assert.ok(texts.length > 8, `${game}: text on the board`);
        const small = texts.filter((t) => t.px < 11).map((t) => `${t.text} (${t.cls}) ${t.px.toFixed(1)} px`);
        assert.deepEqual(small, [], `${game} at ${width} px: text under 11 px`);
        assert.deepEqual(texts.filter((t) => !t.inside).map((t) => t.text), [], `${game} at ${width} px: text cut off at the board's edge`);
        // Labels (not the letters on the pieces, which sit inside them) never overlap one another.
        const labels = texts.filter((t) => !/upiece-letter/.test(t.cls));
        const overlaps = [];
        for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) {
          const [a, b] = [labels[i].r, labels[j].r];
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) overlaps.push(`${labels[i].text} / ${labels[j].text}`);
        }
        assert.deepEqual(overlaps, [], `${game} at ${width} px: labels overlap`);
        if (width < 500) await page.locator("svg.board").screenshot({ path: `${SHOTS}/phone-board-${game}.png` });
      }
      await page.close();
    }
  });
});

test("the replay: labelled buttons, arrow/Home/End keys, numbered moves, dice and score", async () => {
  await withApp(async (server, browser) => {
    const ringo = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" });
    for (const move of ["b6-b5", "b1-b2", "c6-c5"]) await apiCall(server.url, "POST", `/api/games/${ringo.id}/action`, { type: "move", move }, ringo.token);
    const page = await browser.newPage();
    await page.goto(`${server.url}/replay/${ringo.id}`);
    await page.locator("#replay-ply").waitFor();
    assert.match(await page.locator("#replay-ply").innerText(), /^3 \/ 3/);
    assert.match(await page.locator("#replay-ply").textContent(), /— Move 3 of 3$/);
    for (const name of ["First", "Previous", "Next", "Last"]) assert.equal(await page.getByRole("button", { name, exact: true }).count(), 1, name);
    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.getElementById("replay-ply").innerText.startsWith("0 /"));
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => document.getElementById("replay-ply").innerText.startsWith("1 /"));
    await page.keyboard.press("End");
    await page.waitForFunction(() => document.getElementById("replay-ply").innerText.startsWith("3 /"));
    assert.equal(new URL(page.url()).search, "", "the end needs no ply in the address");
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => document.getElementById("replay-ply").innerText.startsWith("2 /"));
    // The address follows the position: reloaded (or shared), it opens there.
    assert.equal(new URL(page.url()).search, "?ply=2");
    await page.reload();
    await page.waitForFunction(() => document.getElementById("replay-ply")?.innerText.startsWith("2 /"));
    assert.equal((await page.evaluate(() => window.agonState)).history.length, 2);
    // A ply that is no number, or past the end, opens the end.
    for (const bad of ["abc", "-1", "1.5", "99"]) {
      await page.goto(`${server.url}/replay/${ringo.id}?ply=${bad}`);
      await page.waitForFunction(() => document.getElementById("replay-ply")?.innerText.startsWith("3 /"));
    }
    await page.goto(`${server.url}/replay/${ringo.id}?ply=2`);
    await page.waitForFunction(() => document.getElementById("replay-ply")?.innerText.startsWith("2 /"));
    const rows = await page.locator("#move-list li").allInnerTexts();
    assert.equal(rows.length, 2, "one row per turn");
    assert.match(rows[0], /^1\.\s*b6-b5\s*b1-b2/);
    const ur = await apiCall(server.url, "POST", "/api/games", { game: "urgammon", opponent: "local", to: 3 });
    await page.goto(`${server.url}/replay/${ur.id}`);
    await page.locator("#replay-ply").waitFor();
    assert.equal(await page.locator("#dice #chance-die").count(), 1, "the dice at this ply");
    assert.match(await page.locator("#score").innerText(), /0\u00a0:\u00a00/);
    assert.equal(await page.locator("#replay-game").innerText(), "Game 1");
    assert.equal(await page.locator("#replay-game-start").count(), 0, "one game: no game buttons");
    // Its record counts dice and moves alike: steps, not moves.
    assert.match(await page.locator("#replay-ply").textContent(), /^\d+ \/ \d+ — Step \d+ of \d+$/);
    assert.equal(await page.getByRole("slider", { name: "Step of the record (each die and each move)" }).count(), 1);
    // A match's replay says which game each ply is in, and its slider spans
    // the panel.
    const { u } = await twoGameMatch(server.url);
    await page.goto(`${server.url}/replay/${u.id}`);
    await page.locator("#replay-ply").waitFor();
    assert.equal(await page.locator("#replay-game").innerText(), "Game 2");
    // A turn of the log, clicked, opens the position after it, as Ringo's moves do.
    const turnTwo = (await page.evaluate(() => window.agonState)).log[1];
    await page.locator('#move-list li[data-turn="2"]').click();
    await page.waitForFunction((n) => document.getElementById("replay-ply").innerText.startsWith(n + " /"), turnTwo.ply);
    assert.equal(await page.locator("#move-list li.current").getAttribute("data-turn"), "2");
    await page.keyboard.press("End");
    await page.waitForFunction(() => { const [a, b] = document.getElementById("replay-ply").innerText.split(" / "); return parseInt(a) === parseInt(b); });
    const [slider, panel] = [await page.locator("#replay-slider").boundingBox(), await page.locator("aside").boundingBox()];
    assert.ok(slider.width >= 0.8 * panel.width, `the slider is ${slider.width} px in a ${panel.width} px panel`);
    // A game at a time: Game start goes to the second game's first position
    // (after its opening roll), then to the first game's start; Next game back.
    const all = (await page.evaluate(() => window.agonState)).tokens_all;
    let second = all.findIndex((tk, i) => i > 0 && tk.startsWith("start:") && !all[i - 1].startsWith("start:"));
    while (all[second].startsWith("start:")) second++;
    const plyIs = (n) => page.waitForFunction((n) => document.getElementById("replay-ply").innerText.startsWith(n + " /"), n);
    assert.equal(await page.getByRole("button", { name: "Next game", exact: true }).isDisabled(), true, "no game after the last");
    await page.getByRole("button", { name: "Game start", exact: true }).click();
    await plyIs(second);
    assert.equal(await page.locator("#replay-game").innerText(), "Game 2");
    await page.locator("#replay-game-start").click();
    await plyIs(0);
    assert.equal(await page.locator("#replay-game").innerText(), "Game 1");
    assert.equal(await page.locator("#replay-game-start").isDisabled(), true, "no game before the first");
    await page.locator("#replay-game-next").click();
    await plyIs(second);
    // And by the keyboard: Page Up, Page Down.
    await page.keyboard.press("PageUp");
    await plyIs(0);
    await page.keyboard.press("PageDown");
    await plyIs(second);
    assert.equal(await page.locator("#replay-game").innerText(), "Game 2");
    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.getElementById("replay-ply").innerText.startsWith("0 /"));
    assert.equal(await page.locator("#replay-game").innerText(), "Game 1");
    // Before the first move every piece waits: 7 × 17 steps each.
    assert.equal(await page.locator("#pips").innerText(), "Steps to the palace: light 119 · dark 119");
  });
});

test("unknown pages and games: a 404 page in the reader's language", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    const res = await page.goto(server.url + "/no/such/page?lang=fr");
    assert.equal(res.status(), 404);
    await page.locator("#not-found").waitFor();
    assert.match(await page.locator("#not-found h1").innerText(), /Page introuvable/);
    await page.goto(server.url + "/g/zzzzzzzzzz?lang=en");
    await page.locator("#not-found").waitFor();
    assert.match(await page.locator("#not-found").innerText(), /no game with this id/);
    await page.locator("#not-found a", { hasText: "Start a game" }).click();
    await page.locator("#start").waitFor();
    const icon = await fetch(server.url + "/static/favicon.svg");
    assert.equal(icon.status, 200);
    assert.match(icon.headers.get("content-type"), /svg/);
  });
});

test("looking back during a game: a move in the list, or ← →, shows the position after it; the game goes on; Back, Escape or acting returns", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const g = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" });
    for (const move of ["b6-b5", "b1-b2", "c6-c5"]) await apiCall(server.url, "POST", `/api/games/${g.id}/action`, { type: "move", move }, g.token);
    await openAsPlayer(page, server.url, g);
    const live = await ringoPieces(page);
    const piecesAt = async (ply) => {
      const other = await browser.newPage();
      await other.goto(`${server.url}/replay/${g.id}?ply=${ply}`);
      await other.waitForFunction((p) => document.getElementById("replay-ply")?.innerText.startsWith(p + " /"), ply);
      const pieces = await ringoPieces(other);
      await other.close();
      return pieces;
    };
    // A click on the first move: the board shows the position after it, the
    // later moves are greyed, and a banner says where we are.
    await page.locator("#move-list .mv", { hasText: "b6-b5" }).click();
    await page.locator("#browsing").waitFor();
    assert.match(await page.locator("#browsing").innerText(), /The position after move 1 of 3\. ← → step through the game; Escape returns\./);
    assert.deepEqual(await ringoPieces(page), await piecesAt(1));
    assert.equal(await page.locator("#move-list .mv.later").filter({ hasText: /\S/ }).count(), 2);
    assert.equal(await page.locator("#move-list .mv.current").innerText(), "b6-b5");
    assert.equal(await page.locator("#look-analyse").count(), 0, "no engine's view while the game goes on");
    // Nothing on the old position can be played.
    await clickCell(page, "b5");
    assert.equal(await page.locator(".cell.selected").count(), 0);
    // ← to the start, → back up; past the last move, the game again (with
    // the focus off the board, whose own arrow keys walk its cells).
    await page.locator("#browsing span").first().click();
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => /after move 0 of 3/.test(document.getElementById("browsing")?.innerText));
    assert.deepEqual(await ringoPieces(page), await piecesAt(0));
    for (let i = 0; i < 2; i++) await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => /after move 2 of 3/.test(document.getElementById("browsing")?.innerText));
    await page.keyboard.press("ArrowRight");
    await page.locator("#browsing").waitFor({ state: "detached" });
    assert.deepEqual(await ringoPieces(page), live);
    // The game goes on while we look: the other side's move comes into the
    // list, the board stays where we were, and Back to the game shows it.
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => /after move 2 of 3/.test(document.getElementById("browsing")?.innerText));
    const past = await ringoPieces(page);
    await apiCall(server.url, "POST", `/api/games/${g.id}/action`, { type: "move", move: "b2-b3" }, g.token);
    await page.waitForFunction(() => /after move 2 of 4/.test(document.getElementById("browsing")?.innerText));
    assert.match(await page.locator("#move-list").innerText(), /b2-b3/);
    assert.deepEqual(await ringoPieces(page), past);
    await page.locator("#back-to-game").click();
    await page.locator("#browsing").waitFor({ state: "detached" });
    assert.ok((await ringoPieces(page)).includes("b3:D"), "the new move on the board");
    // Escape returns too.
    await page.keyboard.press("ArrowLeft");
    await page.locator("#browsing").waitFor();
    await page.keyboard.press("Escape");
    await page.locator("#browsing").waitFor({ state: "detached" });
    // An Undo that takes back the position looked at ends the look back.
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => /after move 2 of 4/.test(document.getElementById("browsing")?.innerText));
    for (let i = 0; i < 2; i++) await apiCall(server.url, "POST", `/api/games/${g.id}/action`, { type: "undo" }, g.token);
    await page.locator("#browsing").waitFor({ state: "detached" });
    assert.equal((await state(page)).s.history.length, 2);
    assert.deepEqual(await ringoPieces(page), await piecesAt(2));

    // On a phone the list is far below the board: a tap on a move brings the
    // board into view, with the banner's step buttons under it.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await openAsPlayer(phone, server.url, g);
    await phone.locator("#move-list").waitFor();
    await phone.evaluate(() => window.scrollTo(0, document.scrollingElement.scrollHeight));
    assert.ok((await phone.locator("svg.board").boundingBox()).y < 0, "the board is off the screen at the list");
    await phone.locator("#move-list .mv", { hasText: "b6-b5" }).tap();
    await phone.locator("#browsing").waitFor();
    const seen = await phone.locator("svg.board").boundingBox();
    assert.ok(seen.y >= -2 && seen.y < 200, `the board in view (${seen.y})`);
    assert.match(await phone.locator("#browsing").innerText(), /after move 1 of 2/);
    // A touch screen has no keys to press: their hint is left out there.
    assert.equal(await phone.locator("#browsing .keys-hint").isVisible(), false);
    assert.doesNotMatch(await phone.locator("#browsing").innerText(), /Escape/);
    await phone.locator("#look-prev").tap();
    await phone.waitForFunction(() => /after move 0 of 2/.test(document.getElementById("browsing")?.innerText));
    assert.equal(await phone.locator("#look-prev").isDisabled(), true, "nothing before the start");
    await phone.locator("#look-next").tap();
    await phone.waitForFunction(() => /after move 1 of 2/.test(document.getElementById("browsing")?.innerText));
    await phone.locator("#look-next").tap();
    await phone.locator("#browsing").waitFor({ state: "detached" });
    await phone.close();

    // Urgammon: a turn of the log opens the position after it; acting (the
    // Roll button) returns to the game.
    const { u } = await twoGameMatch(server.url);
    await openAsPlayer(page, server.url, u);
    let s = (await state(page)).s;
    while (s.phase !== "roll") {
      s = (await apiCall(server.url, "POST", `/api/games/${u.id}/action`, s.moves.length ? { type: "move", move: s.moves[0] } : { type: "verdict" }, u.token)).state;
    }
    await waitState(page, (r) => window.agonState.revision >= r, s.revision);
    const line = s.log[1];
    await page.locator(`#move-list li[data-turn="${line.turn}"]`).click();
    await page.locator("#browsing").waitFor();
    assert.match(await page.locator("#browsing").innerText(), new RegExp(`The position after turn ${line.turn} of ${s.log.length}\\.`));
    assert.equal(await page.locator("#move-list li.current").getAttribute("data-turn"), String(line.turn));
    const at = await apiCall(server.url, "GET", `/api/games/${u.id}/at/${line.ply}`);
    const onBoard = await urgammonPieces(page);
    assert.deepEqual(onBoard, [...Object.keys(at.light.board).map((h) => h + ":l"), ...Object.keys(at.dark.board).map((h) => h + ":d")].sort());
    // Back from the first turn: this game's opening position (the opening
    // roll made, no piece moved; not the end of the game before it), and
    // no further back.
    await page.locator("#browsing span").first().click();
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => /after turn 1 of/.test(document.getElementById("browsing")?.innerText));
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => /opening roll, before its first move/.test(document.getElementById("browsing")?.innerText));
    assert.equal(await page.locator("#look-prev").isDisabled(), true);
    assert.equal(await page.locator("#move-list li.current").count(), 0);
    const opening = s.version - s.tokens.length + (s.log[0].ties || 0) + 1;
    const first = await apiCall(server.url, "GET", `/api/games/${u.id}/at/${opening}`);
    assert.equal(first.match.games, 2, "the second game's opening, not the first game's end");
    assert.equal(first.between_games, false);
    assert.equal(Object.keys(first.light.board).length + Object.keys(first.dark.board).length, 0, "no piece on the board yet");
    assert.deepEqual(await urgammonPieces(page), []);
    // → walks on to the first turn.
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => /after turn 1 of/.test(document.getElementById("browsing")?.innerText));
    await page.locator("#roll").click();
    await page.locator("#browsing").waitFor({ state: "detached" });
    await waitState(page, (r) => window.agonState.revision > r, s.revision);
  });
});

test("once a game is over, a position looked back at opens on the analysis board", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const g = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" });
    for (const move of ["b6-b5", "b1-b2", "c6-c5"]) await apiCall(server.url, "POST", `/api/games/${g.id}/action`, { type: "move", move }, g.token);
    await apiCall(server.url, "POST", `/api/games/${g.id}/action`, { type: "resign" }, g.token);
    await openAsPlayer(page, server.url, g);
    await page.locator("#move-list .mv", { hasText: "b1-b2" }).click();
    await page.waitForFunction(() => /after move 2 of 3/.test(document.getElementById("browsing")?.innerText));
    // By keyboard: Tab reaches it from Back to the game.
    await page.locator("#back-to-game").focus();
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.id), "look-analyse");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/analysis\?/);
    await page.locator("#best").waitFor();
    assert.equal(await page.locator("#analysis-moves").innerText(), "b6-b5 b1-b2");
    assert.equal(await page.locator("#analysis-to-move").innerText(), "Attackers to move");
  });
});
