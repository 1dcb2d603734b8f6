// Two browsers through an invite link, with a spectator watching live: a Ringo
// game, and an Urgammon match with its dice, next game and stake.
import test from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, waitState, state, playRingoMove, clickRingoCell, ringoPieces, clickUrgammonMove, apiCall, newGame, SHOTS } from "./helpers.mjs";

test("a two-browser game through an invite link, seen live by a spectator", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    // Alice's browser lets the page use the clipboard, as a person's does
    // when they press Copy.
    const aliceContext = await browser.newContext();
    await aliceContext.grantPermissions(["clipboard-read", "clipboard-write"]);
    const alice = await aliceContext.newPage();
    const bob = await (await browser.newContext()).newPage();
    const carol = await (await browser.newContext()).newPage();
    await alice.goto(server.url + "/new");
    await alice.locator('input[name=game][value=ringo]').check();
    await alice.locator('input[name=opponent][value=friend]').check();
    // Between two people the page proposes the lab's most even set; Alice
    // wants classic, and says so.
    await alice.locator("#preset").selectOption("classic");
    await alice.locator('input[name=side][value=attackers]').check();
    await alice.locator("#start").click();
    await alice.waitForURL(/\/g\/[a-z0-9]+$/);
    const invite = await alice.locator("#invite-link").inputValue();
    const watch = await alice.locator("#watch-link").inputValue();
    assert.match(invite, /\?invite=[0-9a-f]{32}$/);
    // Copy puts the link on the clipboard and says so; by the keyboard too.
    await alice.locator("#invite-link-copy").click();
    await alice.locator("#toast.show").waitFor();
    assert.equal(await alice.locator("#toast").innerText(), "Copied.");
    assert.equal(await alice.evaluate(() => navigator.clipboard.readText()), invite);
    await alice.locator("#watch-link-copy").focus();
    await alice.keyboard.press("Enter");
    await alice.waitForFunction((w) => navigator.clipboard.readText().then((c) => c === w), watch);
    assert.equal(await alice.locator("#invite-link-copy").getAttribute("aria-label"), "Copy: Invite link");
    // Before Bob comes, Alice sees his seat free.
    assert.match(await alice.locator("#presence").innerText(), /Defenders — seat free/);

    await bob.goto(invite);
    await waitState(bob, () => window.agonState && window.agonYou.length === 1);
    assert.deepEqual((await state(bob)).you, [1], "the invite gives the defenders' seat");
    assert.doesNotMatch(bob.url(), /\?invite=/, "the secret leaves the address bar");
    // The invite works once: Carol, opening the same link, is told so and watches.
    await carol.goto(invite);
    await waitState(carol, () => window.agonState && window.agonYou.length === 0);
    assert.match(await carol.locator("#toast").innerText(), /already been used/);
    assert.match(await carol.locator("#role").innerText(), /watching/);
    assert.equal(await carol.locator("#resign").count(), 0, "a spectator has no player buttons");
    // Each player sees the other connected; the invite box is gone once used.
    await waitState(alice, () => window.agonPresence[0] && window.agonPresence[1]);
    await alice.locator('#presence [data-seat="1"][data-present="yes"]').waitFor();
    // Each side with who plays it: no account here, so "Anonymous".
    assert.match(await alice.locator("#presence").innerText(), /Defenders \(Anonymous\) — connected/);
    assert.equal(await alice.locator("#invite-link").count(), 0);
    // A plain watch link is a spectator too.
    await carol.goto(watch);
    await waitState(carol, () => window.agonState && window.agonYou.length === 0);

    // Alice moves; Bob and Carol see it at once.
    await waitState(alice, () => window.agonYou.includes(window.agonState.seat_to_act));
    await playRingoMove(alice, "b6-b5");
    for (const p of [bob, carol]) await waitState(p, () => window.agonState.history.includes("b6-b5"));
    assert.match(await carol.locator("#move-list").innerText(), /b6-b5/);

    // Bob answers; Alice's connection drops first and catches up when it returns.
    await alice.evaluate(() => window.agonSocket.close());
    await playRingoMove(bob, "b1-c1");
    await waitState(alice, () => window.agonState.history.includes("b1-c1"), undefined, 15000);
    await waitState(carol, () => window.agonState.history.includes("b1-c1"));

    // The spectator cannot move: clicking a piece selects nothing and changes nothing.
    const version = (await state(carol)).s.version;
    await clickRingoCell(carol, "c6");
    await clickRingoCell(carol, "c5");
    assert.equal(await carol.locator(".cell.target").count(), 0);
    assert.equal((await state(carol)).s.version, version);
    // Nor can Bob move for Alice's side.
    await clickRingoCell(bob, "c6");
    assert.equal(await bob.locator(".cell.target").count(), 0);

    // The socket only pushes: a stray message gets an error message, and an
    // oversized one closes the socket, after which the page reconnects.
    const reply = await carol.evaluate(() => new Promise((resolve) => {
      window.agonSocket.addEventListener("message", (e) => resolve(JSON.parse(e.data)), { once: true });
      window.agonSocket.send("hello");
    }));
    assert.equal(reply.type, "error");
    const closed = await carol.evaluate(() => new Promise((resolve) => {
      const ws = window.agonSocket;
      ws.addEventListener("close", () => resolve(true), { once: true });
      ws.send("x".repeat(10000));
    }));
    assert.ok(closed);
    await waitState(carol, () => window.agonSocket.readyState === 1, undefined, 10000);
    assert.equal((await state(carol)).s.version, version, "nothing changed");
    await alice.screenshot({ path: `${SHOTS}/invite-alice.png` });
    await carol.screenshot({ path: `${SHOTS}/invite-spectator.png` });

    // Bob moves his seat to his phone: the seat link takes it there, and his
    // old page can no longer move.
    const phone = await (await browser.newContext()).newPage();
    await bob.locator("#seat-link-btn").click();
    const seatLink = await bob.locator("#seat-link").inputValue();
    await phone.goto(seatLink);
    await waitState(phone, () => window.agonState && window.agonYou.length === 1);
    assert.deepEqual((await state(phone)).you, [1]);
    await waitState(alice, () => window.agonYou.includes(window.agonState.seat_to_act));
    await playRingoMove(alice, "c6-c5");
    await waitState(bob, () => window.agonState.history.includes("c6-c5"));
    const boardBefore = await ringoPieces(bob);
    const bobMove = (await state(bob)).s.moves.find((m) => /^[a-h]\d-[a-h]\d$/.test(m));
    // The old device was told at once that it watches now, and why; a
    // click on one of its old pieces picks nothing.
    await bob.locator("#moved-away").waitFor();
    assert.match(await bob.locator("#role").innerText(), /watching/);
    await clickRingoCell(bob, bobMove.slice(0, 2));
    assert.equal(await bob.locator(".cell.selected").count(), 0);
    await clickRingoCell(bob, bobMove.slice(3));
    assert.deepEqual(await ringoPieces(bob), boardBefore, "the old device moved nothing");
    // Reopened, the old device watches, forgets the token, and no longer
    // offers the game as one of its own.
    await bob.reload();
    await waitState(bob, () => window.agonState && window.agonYou.length === 0);
    assert.equal(await bob.evaluate((id) => localStorage.getItem("agon-token-" + id), seatLink.match(/\/g\/([a-z0-9]+)/)[1]), null);
    await bob.goto(server.url + "/games");
    await bob.locator("#games").waitFor();
    assert.equal(await bob.locator("#your-games").count(), 0);

    // The phone resigns (two clicks: Resign, then confirm); everyone sees it.
    await phone.locator("#resign").click();
    assert.match(await phone.locator("#resign").innerText(), /confirm/);
    await phone.locator("#resign").click();
    for (const p of [alice, phone, carol]) {
      await waitState(p, () => window.agonState.over);
      await p.locator("#result").waitFor();
      assert.match(await p.locator("#result").innerText(), /attackers win — The defenders resigned/);
    }
    // Alice offers a rematch and Bob (on his phone) accepts: both land in
    // the new game with the sides swapped; the spectator is offered to
    // watch it.
    const oldUrl = alice.url();
    await alice.locator("#rematch-offer").click();
    await phone.locator("#offer[data-kind=rematch]").waitFor();
    await phone.locator("#offer-accept").click();
    await alice.waitForURL((u) => u.toString() !== oldUrl && /\/g\/[a-z0-9]+$/.test(u.toString()));
    await phone.waitForURL((u) => u.toString() !== oldUrl && /\/g\/[a-z0-9]+$/.test(u.toString()));
    assert.equal(alice.url(), phone.url());
    await waitState(alice, () => window.agonState && window.agonState.history.length === 0 && window.agonYou.length === 1);
    await waitState(phone, () => window.agonState && window.agonState.history.length === 0 && window.agonYou.length === 1);
    assert.deepEqual((await state(alice)).you, [1], "Alice defends in the rematch");
    assert.deepEqual((await state(phone)).you, [0], "Bob attacks in the rematch");
    assert.match(await alice.locator("#role").innerText(), /defenders/);
    await carol.locator("#rematch-link").waitFor();
    await playRingoMove(phone, "b6-b5");
    await waitState(alice, () => window.agonState.history.includes("b6-b5"));

    // The games list shows the resigned game and the rematch in play.
    await alice.goto(server.url + "/games");
    await alice.locator("#games").waitFor();
    const list = await alice.locator("#games").innerText();
    assert.match(list, /in play/);
    assert.match(list, /resigned/);
  } finally {
    await browser.close();
    server.stop();
  }
});

test("an Urgammon match between two browsers by invite: dice, turns, the next game, resignation and rematch", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const alice = await (await browser.newContext()).newPage();
    const bob = await (await browser.newContext()).newPage();
    const carol = await (await browser.newContext()).newPage();
    // Alice takes dark in a match to 7 with a stake, so the invite gives light.
    await newGame(alice, server.url, { game: "urgammon", opponent: "friend", side: "dark", to: 7, stake: "5" });
    const invite = await alice.locator("#invite-link").inputValue();
    const watch = await alice.locator("#watch-link").inputValue();
    assert.match(await alice.locator("#presence").innerText(), /Light — seat free/);
    await bob.goto(invite);
    await waitState(bob, () => window.agonState && window.agonYou.length === 1);
    assert.deepEqual((await state(bob)).you, [0], "the invite gives light");
    assert.match(await bob.locator("#role").innerText(), /light/);
    await carol.goto(watch);
    await waitState(carol, () => window.agonState && window.agonYou.length === 0);
    await alice.locator('#presence [data-seat="0"][data-present="yes"]').waitFor();

    // Whoever acts, the others see the same dice, record and score at once;
    // only the player whose turn it is has a Roll or Verdict button, and the
    // other's clicks on the board change nothing.
    const pages = [alice, bob, carol];
    const seen = async (p) => p.evaluate(() => ({
      rev: window.agonState.revision,
      chance: document.querySelector("#chance-die").textContent,
      verdict: document.querySelector("#verdict-die").textContent,
      log: document.querySelector("#move-list").innerText,
      score: document.querySelector("#score").innerText,
    }));
    let checkedIdle = false, rolls = 0, compared = 0;
    for (let i = 0; i < 40; i++) {
      const { s } = await state(alice);
      const [actor, idle] = s.to_act === "light" ? [bob, alice] : [alice, bob];
      assert.equal(await idle.locator("#roll, #verdict").count(), 0, "no dice buttons out of turn");
      if (!checkedIdle && s.phase === "move" && s.legal.length) {
        // The idle player tries the actor's move on their own page: nothing happens.
        await clickUrgammonMove(idle, s.legal[0].notation, s.to_act === "light" ? "l" : "d");
        assert.equal(await idle.locator(".target, .picked").count(), 0);
        assert.equal((await state(idle)).s.revision, s.revision);
        checkedIdle = true;
      }
      if (s.phase === "roll") { await actor.locator("#roll").click(); rolls++; }
      else if (s.phase === "verdict" || (s.phase === "decide" && i % 4 === 0)) await actor.locator("#verdict").click();
      else await clickUrgammonMove(actor, s.legal[i % s.legal.length].notation, s.to_act === "light" ? "l" : "d");
      for (const p of pages) await waitState(p, (v) => window.agonState.revision > v, s.revision);
      // A page may be a revision ahead of another for a moment: compare
      // when all three show the same one.
      const views = await Promise.all(pages.map(seen));
      if (views[0].rev === views[1].rev && views[1].rev === views[2].rev) {
        assert.deepEqual(views[1], views[0], "Bob sees what Alice sees");
        assert.deepEqual(views[2], views[0], "Carol sees what Alice sees");
        compared++;
      }
    }
    assert.ok(checkedIdle && rolls > 0 && compared > 30, `${checkedIdle} ${rolls} ${compared}`);
    // The rest of the first game goes faster, through the API with each
    // player's own seat token (what their page sends); the pages follow live.
    const id = alice.url().match(/\/g\/([a-z0-9]+)$/)[1];
    const token = async (p) => p.evaluate((g) => localStorage.getItem("agon-token-" + g), id);
    const tokens = { light: await token(bob), dark: await token(alice) };
    let s = (await apiCall(server.url, "GET", `/api/games/${id}`)).state;
    for (let i = 0; i < 3000 && !s.between_games; i++) {
      const action = s.phase === "roll" ? { type: "roll" }
        : s.moves.length ? { type: "move", move: s.moves[i % s.moves.length] } : { type: "verdict" };
      s = (await apiCall(server.url, "POST", `/api/games/${id}/action`, action, tokens[s.to_act])).state;
    }

    // The first game ends (a game is worth at most 4 points, so the match to
    // 7 goes on): all three see its result, the players alone get Next game.
    for (const p of pages) await waitState(p, (v) => window.agonState.revision >= v, s.revision);
    const { s: end } = await state(alice);
    assert.ok(end.between_games, "the first game ended");
    const result = await alice.locator("#game-result").innerText();
    // (A drawn game, which the dice sometimes make, is over too.)
    assert.match(result, /Game 1 is over\.\n((Light|Dark) wins \d points?: |The game is drawn: both finished\.)/);
    for (const p of [bob, carol]) assert.equal(await p.locator("#game-result").innerText(), result);
    assert.match(await carol.locator("#score").innerText(), new RegExp(`Light ${end.match.score.light}\\s:\\s${end.match.score.dark} Dark`));
    assert.equal(await carol.locator("#next").count(), 0, "a spectator cannot start the next game");
    await bob.locator("#next").click();
    for (const p of pages) {
      await waitState(p, () => window.agonState.match.games === 2 && !window.agonState.between_games);
      await p.locator("text=Game 2").first().waitFor();
      assert.match(await p.locator("#move-list").innerText(), /^1\. Opening roll: light \d, dark \d/);
    }

    // Alice resigns the match (Resign, then confirm): everyone sees who won
    // and what the stake costs; Bob offers a rematch, Alice accepts, and
    // both swap colours.
    await alice.locator("#resign").click();
    await alice.locator("#resign").click();
    for (const p of pages) {
      await waitState(p, () => window.agonState.match.over);
      const text = await p.locator("#result").innerText();
      assert.match(text, /Light wins the match\./);
      assert.match(text, /Dark resigned the match\./);
      assert.match(text, /Dark pays \d+/);
      assert.equal(await p.locator("#undo").count(), 0);
    }
    const oldUrl = bob.url();
    await bob.locator("#rematch-offer").click();
    await alice.locator("#offer-accept").click();
    for (const p of [alice, bob]) {
      await p.waitForURL((u) => u.toString() !== oldUrl && /\/g\/[a-z0-9]+$/.test(u.toString()));
      await waitState(p, () => window.agonState && window.agonState.match.games === 1 && window.agonYou.length === 1);
    }
    assert.equal(alice.url(), bob.url());
    assert.deepEqual((await state(alice)).you, [0], "Alice plays light in the rematch");
    assert.deepEqual((await state(bob)).you, [1], "Bob plays dark in the rematch");
    assert.match(await alice.locator("#settings").innerText(), /7/);
    await carol.locator("#rematch-link").click();
    await waitState(carol, (u) => window.location.href === u && window.agonState && window.agonState.match.games === 1, alice.url());
    assert.match(await carol.locator("#role").innerText(), /watching/);
  } finally {
    await browser.close();
    server.stop();
  }
});
