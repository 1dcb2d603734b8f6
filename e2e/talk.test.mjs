// Two people talking, each in a browser of her own: a takeback and a
// rematch, each declined and accepted; the chat's two rooms (a <script>
// shown as text, a muted opponent's lines hidden); a correspondence game in
// Your turn with a notification in the other browser when the first moves;
// a Web Push received and decrypted by the test's own push service, and
// shown by the service worker; the win claimed after a disconnection; in
// Polish and French. Each context checks what its own player sees.
import test from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import { startServer, launch, waitState, state, playRingoMove, apiCall, startPushService, decrypt } from "./helpers.mjs";

/** A friend game made through the API and opened by both players' pages
 *  (Ann the attackers, Ben the defenders), each in its language. */
async function friendGame(url, [ann, ben], extra = {}, langs = ["en", "en"]) {
  const g = await apiCall(url, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers", ...extra });
  const j = await apiCall(url, "POST", `/api/games/${g.id}/join`, { invite: g.invite });
  const tokens = [g.token, j.token];
  for (const [i, page] of [ann, ben].entries()) {
    await page.goto(`${url}/?lang=${langs[i]}`);
    await page.evaluate(([id, t]) => localStorage.setItem("agon-token-" + id, t), [g.id, tokens[i]]);
    await page.goto(`${url}/g/${g.id}`);
    await waitState(page, () => !!window.agonState && window.agonYou.length === 1);
  }
  return { id: g.id, tokens };
}

async function pages(browser, n = 2, permissions = []) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await (await browser.newContext({ permissions })).newPage());
  return out;
}

test("a takeback and a rematch, each declined then accepted, as each player sees them (Ben in Polish)", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const [ann, ben] = await pages(browser);
    const { id } = await friendGame(server.url, [ann, ben], {}, ["en", "pl"]);
    await playRingoMove(ann, (await state(ann)).s.moves[0]);
    await waitState(ben, () => window.agonState.history.length === 1);
    // Ann asks; Ben, in Polish, declines: the move stands.
    await ann.locator("#takeback-offer").click();
    await ann.locator("#offer-sent", { hasText: "waiting for the answer" }).waitFor();
    const offer = ben.locator("#offer");
    await offer.waitFor();
    assert.match(await offer.innerText(), /Przeciwnik prosi o cofnięcie ruchu/);
    await ben.locator("#offer-decline").click();
    await offer.waitFor({ state: "detached" });
    await ann.locator("#offer-sent").waitFor({ state: "detached" });
    // Ann is told: her offer did not just vanish.
    await ann.locator("#offer-declined", { hasText: "Your opponent declined your takeback: the move stands." }).waitFor();
    assert.equal(await ben.locator("#offer-declined").count(), 0, "the one who declined is not told");
    assert.equal((await state(ann)).s.history.length, 1);
    // Asked again (by keyboard this time) and accepted: the move is gone
    // on both pages, and it is Ann's turn again.
    await ann.locator("#takeback-offer").focus();
    await ann.keyboard.press("Enter");
    await ben.locator("#offer-accept").click();
    for (const page of [ann, ben]) await waitState(page, () => window.agonState.history.length === 0 && !window.agonState.offer);
    assert.equal(await ann.locator("#offer-declined").count(), 0, "told until the game changes again");
    assert.equal((await state(ann)).s.seat_to_act, 0);
    // Ann resigns (two clicks); Ben offers a rematch; Ann declines it.
    await ann.locator("#resign").click();
    await ann.locator("#resign").click();
    await waitState(ben, () => window.agonState.over);
    assert.equal(await ben.locator("#rematch").count(), 0, "between people a rematch is offered, not made");
    await ben.locator("#rematch-offer").click();
    await ann.locator("#offer[data-kind=rematch]", { hasText: "Your opponent offers a rematch." }).waitFor();
    await ben.locator("#offer-sent", { hasText: "Zaproponowałeś rewanż" }).waitFor();
    await ann.locator("#offer-decline").click();
    await ben.locator("#offer-sent").waitFor({ state: "detached" });
    await ben.locator("#offer-declined", { hasText: "Przeciwnik odrzucił rewanż." }).waitFor();
    assert.equal(new URL(ann.url()).pathname, "/g/" + id, "a declined rematch moves nobody");
    assert.equal(new URL(ben.url()).pathname, "/g/" + id);
    // Offered again and accepted: both land in the new game, seats swapped.
    await ben.locator("#rematch-offer").click();
    await ann.locator("#offer-accept").click();
    await ann.waitForURL((u) => u.pathname !== "/g/" + id);
    await ben.waitForURL((u) => u.pathname !== "/g/" + id);
    assert.equal(new URL(ann.url()).pathname, new URL(ben.url()).pathname);
    await waitState(ann, () => window.agonState && !window.agonState.over && window.agonYou.length === 1);
    await waitState(ben, () => window.agonState && !window.agonState.over && window.agonYou.length === 1);
    assert.deepEqual((await state(ann)).you, [1]);
    assert.deepEqual((await state(ben)).you, [0]);
  } finally {
    await browser.close();
    server.stop();
  }
});

test("chat in both rooms: a <script> line is text, spectators talk apart, a muted opponent's lines are hidden", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const [ann, ben, carol, dan] = await pages(browser, 4);
    const { id } = await friendGame(server.url, [ann, ben]);
    for (const page of [carol, dan]) {
      await page.goto(`${server.url}/g/${id}`);
      await page.locator("#chat[data-room=spectators]").waitFor();
    }
    // Ann writes by keyboard: the line and Enter.
    const evil = "<script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\">";
    await ann.locator("#chat-input").fill(evil);
    await ann.locator("#chat-input").press("Enter");
    const benLine = ben.locator("#chat-lines li", { hasText: "window.pwned" });
    await benLine.waitFor();
    assert.equal(await benLine.locator(".chat-text").innerText(), evil);
    assert.equal(await ben.evaluate(() => window.pwned), undefined);
    assert.equal(await ben.locator("#chat-lines script, #chat-lines img").count(), 0);
    assert.match(await benLine.innerText(), /^Attackers: /);
    // The spectators talk in their own room: the players never see it, and
    // they never see the players'.
    await carol.locator("#chat-input").fill("hello from the stands");
    await carol.locator("#chat-send").click();
    await dan.locator("#chat-lines li", { hasText: "hello from the stands" }).waitFor();
    assert.equal(await dan.locator("#chat-lines li", { hasText: "window.pwned" }).count(), 0);
    await ben.locator("#chat-input").fill("thanks");
    await ben.locator("#chat-send").click();
    await ann.locator("#chat-lines li", { hasText: "thanks" }).waitFor();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await ann.locator("#chat-lines li", { hasText: "stands" }).count(), 0);
    assert.equal(await carol.locator("#chat-lines li", { hasText: "thanks" }).count(), 0);
    // Ben mutes Ann: her next line is hidden on his page, and back when he
    // unmutes; his own lines stay.
    await ben.locator("#chat-mute").click();
    assert.equal(await ben.locator("#chat-mute").getAttribute("aria-pressed"), "true");
    await ann.locator("#chat-input").fill("can you hear me");
    await ann.locator("#chat-send").click();
    const hidden = ben.locator("#chat-lines li", { hasText: "can you hear me" });
    await hidden.waitFor({ state: "attached" });
    assert.equal(await hidden.isVisible(), false);
    assert.equal(await ben.locator("#chat-lines li", { hasText: "window.pwned" }).isVisible(), false);
    assert.equal(await ben.locator("#chat-lines li", { hasText: "thanks" }).isVisible(), true);
    await ben.locator("#chat-mute").click();
    await hidden.waitFor({ state: "visible" });
    // Too long is cut by the field; a flood is refused with a message.
    assert.equal(await ann.locator("#chat-input").getAttribute("maxlength"), "140");
    // (5 lines in 10 s: the sixth within the window is refused, whatever
    // lines before it have left the window on a busy machine.)
    const tooFast = ann.locator("#toast", { hasText: "too fast" });
    for (let i = 0; i < 8 && !(await tooFast.isVisible()); i++) {
      await ann.locator("#chat-input").fill("line " + i);
      await ann.locator("#chat-send").click();
    }
    await tooFast.waitFor();
    // The chat can be turned off, and on again.
    await ben.locator("#chat-turn-off").click();
    await ben.locator("#chat-off").waitFor();
    assert.equal(await ben.locator("#chat-lines").count(), 0);
    await ben.locator("#chat-turn-on").click();
    await ben.locator("#chat-lines li", { hasText: "thanks" }).waitFor();
    // Kept with the game and shown in its replay once it is over.
    await ann.locator("#resign").click();
    await ann.locator("#resign").click();
    await waitState(ann, () => window.agonState.over);
    await carol.goto(`${server.url}/replay/${id}`);
    const record = carol.locator("#replay-chat");
    await record.waitFor();
    const text = await record.innerText();
    assert.match(text, /window\.pwned/);
    assert.match(text, /hello from the stands/);
  } finally {
    await browser.close();
    server.stop();
  }
});

test("a correspondence game is in Your turn, and the other browser is notified when the first moves (in French)", async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const annContext = await browser.newContext();
    const benContext = await browser.newContext();
    await benContext.grantPermissions(["notifications"], { origin: server.url });
    // Every notification Ben's pages raise is noted (and still shown).
    await benContext.addInitScript(() => {
      const Real = window.Notification;
      window.agonNotes = [];
      class Noted extends Real {
        constructor(title, options) { super(title, options); window.agonNotes.push({ title, body: options?.body }); }
      }
      Object.defineProperty(Noted, "permission", { get: () => Real.permission });
      Noted.requestPermission = (...a) => Real.requestPermission(...a);
      window.Notification = Noted;
    });
    const ann = await annContext.newPage();
    const ben = await benContext.newPage();
    // Ann makes the game on the home page: a friend, three days a move.
    await ann.goto(server.url + "/new?lang=fr");
    await ann.locator('[data-game="ringo"] input').check();
    await ann.locator('input[name="opponent"][value="friend"]').check();
    await ann.locator("#clock").selectOption("d3");
    await ann.locator('input[name="side"][value="attackers"]').check();
    await ann.locator("#start").click();
    await ann.waitForURL(/\/g\/[a-z0-9]+$/);
    const invite = await ann.locator("#invite-link").inputValue();
    const id = new URL(ann.url()).pathname.split("/").pop();
    await ben.goto(server.url + "/?lang=fr");
    await ben.goto(invite);
    await waitState(ben, () => window.agonState && window.agonYou.length === 1);
    assert.match(await ben.locator("#corr-days").innerText(), /3\sjours\spar\scoup/);
    assert.match(await ben.locator("#corr-left").innerText(), /Aux\sAssaillants\s:\sil\sreste\s(2\sjours\set\s23\sheures|3\sjours)/);
    // Ann's home page lists the game under "À vous de jouer", with the
    // days left in words; the menu counts it.
    await ann.goto(server.url + "/");
    const item = ann.locator(`#your-turn-list [data-turn="${id}"]`);
    await item.waitFor();
    assert.match(await item.innerText(), /3\sjours\spar\scoup/);
    assert.match(await item.innerText(), /il\sreste\s(2\sjours|3\sjours)/);
    await ann.locator("#turns-link:not([hidden]) #turns-count", { hasText: "1" }).waitFor();
    // Ben waits on his home page, notifications allowed.
    await ben.goto(server.url + "/");
    await ben.locator("#your-turn #their-turn").waitFor();
    await ben.locator("#notify-on").waitFor();
    // Ann opens the game from the list and moves.
    await item.click();
    await waitState(ann, () => window.agonState && window.agonYou.length === 1);
    await playRingoMove(ann, (await state(ann)).s.moves[0]);
    // Ben's page raises a notification, and his list now holds the game.
    await ben.waitForFunction(() => window.agonNotes.some((n) => n.title === "À vous de jouer"), null, { timeout: 30000 });
    const benItem = ben.locator(`#your-turn-list [data-turn="${id}"]`);
    await benItem.waitFor();
    await ben.locator("#turns-count", { hasText: "1" }).waitFor();
    // Ann, in her game, offers a takeback: Ben hears of it too.
    await ann.locator("#takeback-offer").click();
    await ben.waitForFunction(() => window.agonNotes.some((n) => n.title === "Votre adversaire demande à reprendre un coup"), null, { timeout: 30000 });
    await benItem.click();
    await ben.locator("#offer", { hasText: "Votre adversaire demande à reprendre un coup." }).waitFor();
    await ben.locator("#corr-left", { hasText: /À vous\s:\sil reste/ }).waitFor();
  } finally {
    await browser.close();
    server.stop();
  }
});

test("a Web Push reaches the test's own push service, signed and decrypted, and the service worker shows one", async () => {
  const server = await startServer({ pushInsecure: true });
  const push = await startPushService();
  const received = push.received;
  const endpoint = push.endpoint("ben-device");
  const browser = await launch();
  try {
    // Ben's browser keys, made by the test as a browser makes them.
    const ua = crypto.createECDH("prime256v1");
    ua.generateKeys();
    const auth = crypto.randomBytes(16);
    const g = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers", days: 1 });
    const j = await apiCall(server.url, "POST", `/api/games/${g.id}/join`, { invite: g.invite });
    const sub = await apiCall(server.url, "POST", "/api/push/subscriptions", {
      subscription: { endpoint, keys: { p256dh: ua.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } },
      games: [{ id: g.id, token: j.token }], lang: "fr",
    });
    assert.deepEqual(sub.games, [g.id]);
    const s = (await apiCall(server.url, "GET", `/api/games/${g.id}`)).state;
    await apiCall(server.url, "POST", `/api/games/${g.id}/action`, { type: "move", move: s.moves[0] }, g.token);
    const deadline = Date.now() + 15000;
    while (!received.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(received.length, 1, "one push, to Ben");
    const got = received[0];
    assert.equal(got.url, "/push/ben-device");
    assert.equal(got.headers["content-encoding"], "aes128gcm");
    assert.ok(Number(got.headers.ttl) > 0);
    // The VAPID signature: a JWT for this push service, signed by the key
    // the server publishes.
    const { public_key } = await apiCall(server.url, "GET", "/api/push/key");
    const m = /^vapid t=([^,]+), k=(.+)$/.exec(got.headers.authorization);
    assert.ok(m, got.headers.authorization);
    assert.equal(m[2], public_key);
    const [h, c, sig] = m[1].split(".");
    const claims = JSON.parse(Buffer.from(c, "base64url"));
    assert.equal(claims.aud, new URL(endpoint).origin);
    assert.ok(claims.exp > Date.now() / 1000);
    const point = Buffer.from(public_key, "base64url");
    const key = crypto.createPublicKey({ key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") }, format: "jwk" });
    assert.ok(crypto.verify("sha256", Buffer.from(`${h}.${c}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(sig, "base64url")));
    // What Ben's browser reads.
    const message = decrypt(got.body, ua, auth);
    assert.equal(message.title, "À vous de jouer");
    assert.equal(message.url, "/g/" + g.id);
    // Ann's moves never reach Ann's... nor does a spectator's chat; Ann's
    // chat line does.
    await apiCall(server.url, "POST", `/api/games/${g.id}/chat`, { text: "à toi", room: "players" }, g.token);
    const until = Date.now() + 15000;
    while (received.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    assert.equal(decrypt(received[1].body, ua, auth).body, "Ringo: à toi");

    // The service worker shows a push it is given (the browser's own push
    // service is not reachable here, so the test hands the message over).
    const context = await browser.newContext({ permissions: ["notifications"] });
    const page = await context.newPage();
    await page.goto(server.url + "/");
    const cdp = await context.newCDPSession(page);
    const registered = new Promise((resolve) => cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => {
      const r = e.registrations.find((x) => x.scopeURL === server.url + "/" && !x.isDeleted);
      if (r) resolve(r.registrationId);
    }));
    await cdp.send("ServiceWorker.enable");
    await page.evaluate(async () => { await navigator.serviceWorker.register("/sw.js"); await navigator.serviceWorker.ready; });
    const registrationId = await registered;
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: server.url, registrationId,
      data: JSON.stringify({ title: "Your turn", body: "Ringo", url: "/g/" + g.id, tag: "agon-" + g.id }) });
    await page.waitForFunction(async () => {
      const r = await navigator.serviceWorker.ready;
      return (await r.getNotifications()).some((n) => n.title === "Your turn" && n.body === "Ringo");
    }, null, { timeout: 10000, polling: 100 });
  } finally {
    await browser.close();
    push.close();
    server.stop();
  }
});

test("the win is claimed after the opponent has gone, and both players see it", async () => {
  const server = await startServer({ claimAfterSecs: 3 });
  const browser = await launch();
  try {
    const [ann, ben] = await pages(browser);
    const { id, tokens } = await friendGame(server.url, [ann, ben]);
    await playRingoMove(ann, (await state(ann)).s.moves[0]);
    await waitState(ben, () => window.agonState.history.length === 1);
    await playRingoMove(ben, (await state(ben)).s.moves[0]);
    await waitState(ann, () => window.agonState.history.length === 2);
    assert.equal(await ann.locator("#claim").count(), 0, "Ben is here");
    // Ben's tab closes.
    await ben.close();
    await ann.locator("#opponent-gone", { hasText: "claim the win in" }).waitFor();
    await ann.locator("#claim").click({ timeout: 15000 });
    await waitState(ann, () => window.agonState.over);
    const result = await ann.locator("#result").innerText();
    assert.match(result, /attackers win/i);
    // The side that left is named (each player would read "the other
    // side" as her opponent).
    assert.equal(result, "The attackers win — The defenders left the game: the win was claimed.");
    // Ben comes back and sees it too.
    const back = await (await browser.newContext()).newPage();
    await back.goto(server.url + "/");
    await back.evaluate(([gid, t]) => localStorage.setItem("agon-token-" + gid, t), [id, tokens[1]]);
    await back.goto(`${server.url}/g/${id}`);
    await waitState(back, () => window.agonState && window.agonState.over);
    assert.match(await back.locator("#result").innerText(), /win was claimed/);
  } finally {
    await browser.close();
    server.stop();
  }
});
