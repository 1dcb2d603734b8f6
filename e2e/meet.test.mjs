// Where players meet (issue 74), each as two people in two browsers see it:
// the home page's first screen (a quick pairing made on a phone, taken on a
// desktop, no scrolling to reach a button); a challenge by name from a
// profile, seen live by the other wherever she is, declined (the sender
// told), sent again and accepted (both in the game); a followed player's
// game on the follower's home page; the games-in-play page and its
// spectator count; who is online; the menu by mouse and by keyboard; and a
// player who takes no challenges.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, accountAs, apiCall } from "./helpers.mjs";

/** A page of a new browser context, signed up as `name` (the page loaded
 *  again, so that the site's socket counts her signed in). */
async function player(browser, url, name, viewport = { width: 1280, height: 900 }) {
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(url + "/rules?lang=en");
  assert.equal(await accountAs(page, "signup", name), 201);
  await page.reload();
  return page;
}

test("from the home page's first screen, a quick pairing made on a phone is taken on a desktop, no scrolling", async () => {
  await withApp(async (server, browser) => {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
    const desk = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await phone.goto(server.url + "/?lang=en");
    const tile = phone.locator('#home-lobby [data-pool="ringo-even-5+3"]');
    await tile.waitFor();
    // On the first screen as it opens: counts, the three ways to a game,
    // and this tile, with nothing scrolled.
    for (const sel of ["#site-counts", "#home-create", "#home-friend", "#home-computer"]) {
      const box = await phone.locator(sel).boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= 844, `${sel} on the first screen: ${JSON.stringify(box)}`);
    }
    const box = await tile.boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= 844, `the tile on the first screen: ${JSON.stringify(box)}`);
    assert.equal(await phone.evaluate(() => window.scrollY), 0);
    await tile.tap();
    await phone.locator("#pool-waiting").waitFor();
    assert.match(await phone.locator("#pool-waiting").innerText(), /Ringo 5\+3/);
    await desk.goto(server.url + "/?lang=en");
    const deskTile = desk.locator('#home-lobby [data-pool="ringo-even-5+3"]');
    await deskTile.locator("text=1 waiting").waitFor();
    const dbox = await deskTile.boundingBox();
    assert.ok(dbox.y + dbox.height <= 800, `the desktop's tile on the first screen: ${JSON.stringify(dbox)}`);
    await deskTile.click();
    await Promise.all([phone.waitForURL(/\/g\/[a-z0-9]+$/), desk.waitForURL(/\/g\/[a-z0-9]+$/)]);
    assert.equal(phone.url(), desk.url(), "both in one game");
    // Back on the home page, the game counts as in play, and the tile says so.
    const third = await (await browser.newContext()).newPage();
    await third.goto(server.url + "/?lang=en");
    await third.locator("#playing-count", { hasText: "1 game in play" }).waitFor();
    await third.locator('#home-lobby [data-pool="ringo-even-5+3"] [data-playing="1"]').waitFor();
    await third.locator("#featured-players", { hasText: "Anonymous – Anonymous" }).waitFor();
  });
});

test("a challenge from a profile is seen live by the other, declined (the sender told), sent again and accepted", async () => {
  await withApp(async (server, browser) => {
    const ala = await player(browser, server.url, "ala");
    const ola = await player(browser, server.url, "ola");
    // Ola reads the rules; Ala opens her profile and challenges her.
    await ola.goto(server.url + "/rules?lang=en");
    await ala.goto(server.url + "/@/ola?lang=en");
    await ala.locator("#profile-online", { hasText: "online" }).waitFor();
    await ala.locator("#challenge-form > summary").click();
    await ala.locator("#challenge-game").selectOption("ringo");
    await ala.locator("#challenge-clock").selectOption("300+3");
    await ala.locator("#challenge-side").selectOption("attackers");
    await ala.locator("#challenge-send").click();
    await ala.locator("#challenge-status", { hasText: "waiting for ola to answer" }).waitFor();
    // Ola sees it where she is, with its terms.
    const bar = ola.locator("#challenge-bar");
    // With Ala's Ringo rating beside her name, as her profile has it ("?":
    // provisional, as in the lobby).
    const r = (await (await fetch(server.url + "/api/users/ala")).json()).ratings.ringo;
    await bar.locator("#challenge-title").filter({ hasText: /\S/ }).waitFor();
    assert.equal((await bar.locator("#challenge-title").innerText()).trim(), `ala (${r.rating}${r.provisional ? "?" : ""}) challenges you`);
    assert.match(await bar.locator("#challenge-terms").innerText(), /Ringo · .* · 5\+3 · casual · you play the defenders/i);
    await bar.locator("#challenge-decline").click();
    await bar.waitFor({ state: "hidden" });
    // Ala is told, on the page she is on.
    await ala.locator("#challenge-status", { hasText: "ola declined your challenge" }).waitFor();
    // Again, and this time accepted: both are in the game, Ala attackers.
    await ala.locator("#challenge-send").click();
    await ala.locator("#challenge-status", { hasText: "waiting for ola" }).waitFor();
    await ola.goto(server.url + "/glossary?lang=en");
    await ola.locator("#challenge-accept").click();
    await Promise.all([ola.waitForURL(/\/g\/[a-z0-9]+$/), ala.waitForURL(/\/g\/[a-z0-9]+$/)]);
    assert.equal(ala.url(), ola.url());
    await ala.locator("svg.board").waitFor();
    const you = await ala.evaluate(async () => (await (await fetch("/api/games/" + location.pathname.split("/")[2])).json()).you);
    assert.deepEqual(you, [0], "Ala plays the attackers, seat 0");
  });
});

test("a followed player's game is on the follower's home page; the games-in-play page counts who watches", async () => {
  await withApp(async (server, browser) => {
    const ala = await player(browser, server.url, "ala");
    const ola = await player(browser, server.url, "ola");
    const eve = await player(browser, server.url, "eve");
    // Eve follows Ala from her profile.
    await eve.goto(server.url + "/@/ala?lang=en");
    await eve.locator("#follow", { hasText: "Follow" }).click();
    await eve.locator("#follow[aria-pressed=true]", { hasText: "Unfollow" }).waitFor();
    // Ala and Ola play a live game (a challenge, through the API).
    const c = await ala.evaluate(() => fetch("/api/challenges", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ user: "ola", game: "urgammon", to: 3, clock: { base_secs: 600, increment_secs: 5 } }) }).then((r) => r.json()));
    const p = await ola.evaluate((id) => fetch(`/api/challenges/${id}/accept`, { method: "POST", headers: { "content-type": "application/json" } }).then((r) => r.json()), c.id);
    assert.ok(p.game, JSON.stringify([c, p]));
    await eve.goto(server.url + "/?lang=en");
    const followed = eve.locator(`#following [data-followed-game="${p.game}"]`);
    await followed.waitFor();
    assert.match(await followed.innerText(), /Urgammon · ala \(1500\?\) – ola \(1500\?\)|Urgammon · ola \(1500\?\) – ala \(1500\?\)/);
    // The games-in-play page lists it, watched by nobody; Eve opens it,
    // and the page of a fourth reader counts her.
    const reader = await (await browser.newContext()).newPage();
    await reader.goto(server.url + "/watch?lang=en");
    const row = reader.locator(`[data-live="${p.game}"] .spectators`);
    await row.waitFor();
    assert.equal(await row.getAttribute("data-spectators"), "0");
    await followed.click();
    await eve.waitForURL(new RegExp(`/g/${p.game}$`));
    await eve.locator("svg.board").waitFor();
    await reader.locator(`[data-live="${p.game}"] .spectators[data-spectators="1"]`).waitFor({ timeout: 15000 });
    // Filtered to Ringo, it is gone; to Urgammon, back.
    await reader.locator('button[data-filter="ringo"]').click();
    await reader.locator("#watch-none").waitFor();
    await reader.locator('button[data-filter="urgammon"]').click();
    await reader.locator(`[data-live="${p.game}"]`).waitFor();
    // Who is online names the three signed in, never the reader.
    await reader.goto(server.url + "/players?lang=en");
    for (const n of ["ala", "ola", "eve"]) await reader.locator(`[data-online="${n}"]`).waitFor();
    assert.equal(await reader.locator("[data-online]").count(), 3);
  });
});

/** Does `change` on the account page and waits until the server has the
 *  setting it saves (the page answers nothing visible; a fixed 300 ms was
 *  a guess). */
async function saved(page, change) {
  const put = page.waitForResponse((r) => r.url().endsWith("/api/account/settings") && r.request().method() === "PUT");
  await change();
  assert.equal((await put).ok(), true);
}

test("a player who takes no challenges: her profile says so; one who takes them from players she follows only", async () => {
  await withApp(async (server, browser) => {
    const ala = await player(browser, server.url, "ala");
    const ola = await player(browser, server.url, "ola");
    await ola.goto(server.url + "/account?lang=en");
    await saved(ola, () => ola.locator("#pref-challenges").selectOption("nobody"));
    await ala.goto(server.url + "/@/ola?lang=en");
    await ala.locator("#challenge-refused", { hasText: "ola takes no challenges." }).waitFor();
    assert.equal(await ala.locator("#challenge-send").count(), 0);
    await saved(ola, () => ola.locator("#pref-challenges").selectOption("followed"));
    await ala.goto(server.url + "/@/ola?lang=fr");
    await ala.locator("#challenge-policy", { hasText: "que des joueurs qu'elle suit" }).waitFor();
    await ala.locator("#challenge-form > summary").click();
    await ala.locator("#challenge-send").click();
    // The server refuses, in the page's language.
    await ala.locator("#challenge-status", { hasText: "n'accepte pas ce défi" }).waitFor();
  });
});

test("the menu: a group opens by mouse and by keyboard, Escape closes it, the page's link is marked", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url + "/?lang=pl");
    // Mouse: Community → Players online.
    await page.getByRole("button", { name: "Społeczność" }).click();
    await page.getByRole("link", { name: "Gracze online" }).click();
    await page.waitForURL(/\/players$/);
    await page.locator("h1", { hasText: "Gracze online" }).waitFor();
    assert.equal(await page.locator('#site-nav a[href="/players"]').getAttribute("aria-current"), "page");
    assert.equal(await page.locator("#nav-community").isVisible(), false, "the list closes once followed");
    // Keyboard: Tab to Learn, Enter opens it and focuses its first link;
    // Escape closes it, the focus back on its button.
    const learn = page.locator("button[aria-controls=nav-learn]");
    await learn.focus();
    await page.keyboard.press("Enter");
    assert.equal(await learn.getAttribute("aria-expanded"), "true");
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute("href")), "/learn");
    await page.keyboard.press("Escape");
    assert.equal(await learn.getAttribute("aria-expanded"), "false");
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute("aria-controls")), "nav-learn");
    // Enter again, down to Puzzles with Tab, Enter follows it.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/puzzles/);
  });
});

test("hostile calls to the meeting routes from a page are refused with a reason in the page's language", async () => {
  await withApp(async (server) => {
    // Not signed in.
    for (const [m, path] of [["POST", "/api/challenges"], ["GET", "/api/challenges"], ["POST", "/api/users/x/follow"], ["GET", "/api/account/following"]]) {
      const r = await fetch(server.url + path, { method: m, headers: { "content-type": "application/json" }, body: m === "POST" ? "{}" : undefined });
      assert.equal(r.status, 401, `${m} ${path}`);
    }
    // The online list of an empty site.
    const o = await apiCall(server.url, "GET", "/api/online");
    assert.deepEqual(o.names, []);
  });
});
