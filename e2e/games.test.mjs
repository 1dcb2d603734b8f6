// Finding one's games again: the home page lists the player's unfinished
// games, and the games page shows "Your games" above every game on the
// site, which comes a hundred at a time with an "Older games" button.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, apiCall, openAsPlayer, waitState, twoGameMatch } from "./helpers.mjs";

test("a player's games: back to an unfinished game from the home page, their own games above a paged list of all", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // A first visit: nothing to go back to.
    await page.goto(server.url + "/?lang=en");
    await page.locator("#resume[data-checked]").waitFor({ state: "attached" });
    assert.equal(await page.locator("#resume").isVisible(), false);
    await page.goto(server.url + "/new?lang=en");
    await page.locator("#start").waitFor();
    // The player starts a Ringo game in the browser, and finishes another.
    await page.locator("input[name=game][value=ringo]").check();
    await page.locator("input[name=opponent][value=local]").check();
    await page.locator("#start").click();
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    const mine = page.url().split("/").pop();
    const done = await apiCall(server.url, "POST", "/api/games", { game: "urgammon", opponent: "local", to: 1 });
    await apiCall(server.url, "POST", `/api/games/${done.id}/action`, { type: "resign" }, done.token);
    await openAsPlayer(page, server.url, done);
    // Then 105 games are played by others: the player's are off the first
    // page (a second later: times are whole seconds, and games of one
    // second come in the order of their ids).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const others = [];
    for (let i = 0; i < 105; i++) others.push((await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" })).id);
    // The home page offers the unfinished game (not the finished one) and
    // takes the player back to it, by a click.
    await page.goto(server.url + "/?lang=en");
    await page.locator("#resume").waitFor();
    const links = page.locator("#resume a[data-game]");
    assert.deepEqual(await links.evaluateAll((l) => l.map((a) => a.dataset.game)), [mine]);
    assert.match(await links.first().innerText(), /^Ringo · Rules: classic · Same screen/);
    assert.equal((await page.locator("#resume").innerText()).trim(), "Your unfinished games\n" + (await links.first().innerText()).trim());
    await links.first().click();
    await page.waitForURL(new RegExp(`/g/${mine}$`));
    await waitState(page, () => window.agonState && window.agonYou.length === 2);
    // And by the keyboard.
    await page.goto(server.url + "/?lang=en");
    await links.first().focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(new RegExp(`/g/${mine}$`));
    // The games page: the player's two games first (times are whole
    // seconds, so games of one second come in the order of their ids).
    await page.goto(server.url + "/games?lang=en");
    await page.locator("#own-games").waitFor();
    const own = await page.locator("#own-games tbody tr").evaluateAll((r) => r.map((x) => x.dataset.game));
    assert.deepEqual(own.sort(), [done.id, mine].sort());
    assert.match(await page.locator("#your-games").innerText(), /Your games/);
    // The Rules column says the rule set, not "Rules:" again.
    assert.equal(await page.locator(`#own-games tr[data-game="${mine}"] td[data-label="Rules"]`).innerText(), "classic");
    // Every game on the site, a hundred at a time: the player's are on the
    // next page, which the "Older games" button brings.
    const all = page.locator("#games tbody tr");
    assert.equal(await all.count(), 100);
    const firstPage = await all.evaluateAll((r) => r.map((x) => x.dataset.game));
    assert.ok(firstPage.every((id) => others.includes(id)), "the newest hundred are the others' games");
    await page.locator("#more-games").click();
    await page.waitForFunction(() => document.querySelectorAll("#games tbody tr").length === 107);
    const rows = await all.evaluateAll((r) => r.map((x) => x.dataset.game));
    assert.equal(new Set(rows).size, 107, "no game twice");
    assert.deepEqual(rows.slice(-7).filter((id) => !others.includes(id)).sort(), [done.id, mine].sort());
    // At the end the button goes; the first new row has the focus.
    assert.equal(await page.locator("#more-games").isVisible(), false);
    assert.equal(await page.evaluate(() => document.activeElement.closest("tr")?.dataset.game), rows[100]);
    // By the keyboard too: a fresh page, Tab to the button, Enter.
    await page.goto(server.url + "/games?lang=en");
    await page.locator("#more-games").focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#games tbody tr").length === 107);
    // A dropped connection: the button says so and stays, and works again after.
    await page.goto(server.url + "/games?lang=en");
    await page.locator("#more-games").waitFor();
    await page.route("**/api/games?after=*", (route) => route.abort());
    await page.locator("#more-games").click();
    await page.locator("#toast.show").waitFor();
    assert.match(await page.locator("#toast").innerText(), /network|connection|reach/i);
    assert.equal(await page.locator("#games tbody tr").count(), 100);
    assert.equal(await page.locator("#more-games").isEnabled(), true);
    await page.unroute("**/api/games?after=*");
    await page.locator("#more-games").click();
    await page.waitForFunction(() => document.querySelectorAll("#games tbody tr").length === 107);
    // Six unfinished games: five are offered, and a link leads to the rest.
    for (let i = 0; i < 5; i++) {
      const g = await apiCall(server.url, "POST", "/api/games", { game: "urgammon", opponent: "local" });
      await page.evaluate(([id, token]) => localStorage.setItem("agon-token-" + id, token), [g.id, g.token]);
    }
    await page.goto(server.url + "/?lang=en");
    await page.locator("#resume-all").waitFor();
    assert.equal(await links.count(), 5);
    assert.equal(await page.locator("#resume-all").innerText(), "All 6 of them on the games page");
    await page.locator("#resume-all").click();
    await page.waitForURL(/\/games$/);
    await page.locator("#own-games").waitFor();
    assert.equal(await page.locator("#own-games tbody tr").count(), 7);
    // A browser that plays nothing sees no "Your games" and no resume box.
    const stranger = await browser.newPage();
    await stranger.goto(server.url + "/games?lang=en");
    await stranger.locator("#games").waitFor();
    assert.equal(await stranger.locator("#your-games").count(), 0);
    await stranger.goto(server.url + "/?lang=en");
    await stranger.locator("#home-create").waitFor();
    // The page has looked for the browser's own games (and found none).
    await stranger.locator("#resume[data-checked]").waitFor({ state: "attached" });
    assert.equal(await stranger.locator("#resume").isVisible(), false);
  });
});

test("importing a record: the game is read from the record, a downloaded file opens into the box, and a bad record says why", async () => {
  await withApp(async (server, browser) => {
    // A resigned Urgammon match, downloaded as the game page's link saves it.
    const u = await apiCall(server.url, "POST", "/api/games", { game: "urgammon", opponent: "local" });
    await apiCall(server.url, "POST", `/api/games/${u.id}/action`, { type: "resign" }, u.token);
    const saved = await (await fetch(`${server.url}/api/games/${u.id}/record`)).text();
    assert.match(saved, /^urgammon match to=7/);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url + "/new?lang=en");
    // Ringo is chosen above; the record is Urgammon's all the same.
    assert.equal(await page.locator("input[name=game][value=ringo]").isChecked(), true);
    await page.locator("#import-record").fill("classic b6-b5 zz-top");
    await page.getByRole("button", { name: "Import" }).click();
    const error = page.locator("#import-error");
    await error.waitFor();
    // It says where, in the page's words: the second item of the moves.
    assert.equal(await error.innerText(), "This record cannot be read or replayed. It cannot be read from item 2 ('zz-top') on.");
    assert.equal(new URL(page.url()).pathname, "/new", "the page stays, the record in its box");
    assert.equal(await page.locator("#import-record").inputValue(), "classic b6-b5 zz-top");
    // The downloaded file, opened with the file button, fills the box.
    await page.getByLabel("Or open a saved record file:").setInputFiles({ name: `agon-urgammon-${u.id}.txt`, mimeType: "text/plain", buffer: Buffer.from(saved) });
    await page.waitForFunction(() => document.getElementById("import-record").value.startsWith("urgammon match"));
    // Imported by the keyboard: the match and its resignation.
    await page.locator("#import").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    await waitState(page, () => window.agonState && window.agonState.game === "urgammon");
    assert.match(await page.locator("#result").innerText(), /resigned/);
    // A Ringo record is read as Ringo with Urgammon chosen.
    await page.goto(server.url + "/new?lang=en");
    await page.locator("input[name=game][value=urgammon]").check();
    await page.locator("#import-record").fill("globe b6-b5 b1-c1");
    await page.locator("#import").click();
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    await waitState(page, () => window.agonState && window.agonState.game === "ringo");
    assert.equal(await page.evaluate(() => window.agonState.rules), "globe");
    assert.deepEqual(await page.evaluate(() => window.agonState.history), ["b6-b5", "b1-c1"]);
  });
});

test("a match's score in the lists: the games page and the home page's unfinished games", async () => {
  await withApp(async (server, browser) => {
    // A match in a later game with a point scored, so not at 0 : 0.
    const { u, s } = await twoGameMatch(server.url, { scored: true });
    // No-break spaces hold "3 : 1" together on a narrow line.
    const want = `Light ${s.match.score.light}\u00a0:\u00a0${s.match.score.dark} Dark`;
    assert.ok(s.match.score.light + s.match.score.dark > 0, "a point was scored");
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openAsPlayer(page, server.url, u);
    await page.goto(server.url + "/?lang=en");
    const link = page.locator(`#resume a[data-game="${u.id}"]`);
    await link.waitFor();
    assert.match(await link.innerText(), new RegExp(`^Urgammon · .* · Same screen · ${want}$`));
    await page.goto(server.url + "/games?lang=en");
    const status = page.locator(`#own-games tr[data-game="${u.id}"] td[data-label="Status"]`);
    await status.waitFor();
    assert.equal(await status.innerText(), `in play · ${want}`);
    // A Ringo game has no score; in French the sides are named in French.
    const r = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local" });
    await page.goto(server.url + "/games?lang=en");
    assert.equal(await page.locator(`#games tr[data-game="${r.id}"] td[data-label="Status"]`).innerText(), "in play");
    await page.goto(server.url + "/games?lang=fr");
    await page.locator(`#own-games tr[data-game="${u.id}"]`).waitFor();
    assert.match(await page.locator(`#own-games tr[data-game="${u.id}"] td:nth-child(4)`).innerText(),
      new RegExp(` · Clairs ${s.match.score.light}\u00a0:\u00a0${s.match.score.dark} Foncés$`));
  });
});
