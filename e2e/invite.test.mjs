// Two browsers through an invite link, with a spectator watching live.
import test from "node:test";
import assert from "node:assert/strict";
import { startServer, launch, waitState, state, playRingoMove, clickRingoCell, SHOTS } from "./helpers.mjs";

test("a two-browser game through an invite link, seen live by a spectator", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const alice = await (await browser.newContext()).newPage();
    const bob = await (await browser.newContext()).newPage();
    const carol = await (await browser.newContext()).newPage();
    await alice.goto(server.url + "/");
    await alice.locator('input[name=game][value=ringo]').check();
    await alice.locator('input[name=opponent][value=friend]').check();
    await alice.locator('input[name=side][value=attackers]').check();
    await alice.locator("#start").click();
    await alice.waitForURL(/\/g\/[a-z0-9]+$/);
    const invite = await alice.locator("#invite-link").inputValue();
    const watch = await alice.locator("#watch-link").inputValue();
    assert.match(invite, /\?t=[0-9a-f]{32}$/);

    await bob.goto(invite);
    await waitState(bob, () => window.agonState && window.agonYou.length === 1);
    assert.deepEqual((await state(bob)).you, [1], "the invite gives the defenders' seat");
    assert.doesNotMatch(bob.url(), /\?t=/, "the secret leaves the address bar");
    await carol.goto(watch);
    await waitState(carol, () => window.agonState && window.agonYou.length === 0);
    assert.match(await carol.locator("#role").innerText(), /watching/);

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
    // The games list shows the game in play.
    await alice.goto(server.url + "/games");
    await alice.locator("#games").waitFor();
    assert.match(await alice.locator("#games").innerText(), /in play/);

    await alice.screenshot({ path: `${SHOTS}/invite-alice.png` });
    await carol.screenshot({ path: `${SHOTS}/invite-spectator.png` });
  } finally {
    await browser.close();
    server.stop();
  }
});
