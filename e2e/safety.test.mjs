// Safety between strangers (issue 75), as three people in three browsers
// see it: a player blocks another and no longer sees her chat; a report
// filed from a chat line reaches the moderator's page with the line
// attached (the first moderator made with `agon mod grant`, as
// docs/deploy.md says); the moderator mutes the player, whose chat is then
// refused and who is told why and until when.
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { withApp, accountAs, waitState, startServer, launch, freshDatabase } from "./helpers.mjs";

async function player(browser, url, name) {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(url + "/rules?lang=en");
  assert.equal(await accountAs(page, "signup", name), 201);
  await page.reload();
  return page;
}

/** Ala challenges Eve (through the API) and Eve accepts: both on the
 *  game's page; its id. */
async function gameBetween(ala, eve, url, eveUrl = url) {
  const c = await ala.evaluate(() => fetch("/api/challenges", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ user: "eve", game: "ringo", days: 1, side: "attackers" }) }).then((r) => r.json()));
  const p = await eve.evaluate((id) => fetch(`/api/challenges/${id}/accept`, { method: "POST", headers: { "content-type": "application/json" } })
    .then((r) => r.json()), c.id);
  for (const [page, at] of [[ala, url], [eve, eveUrl]]) {
    await page.goto(`${at}/g/${p.game}?lang=en`);
    await waitState(page, () => !!window.agonState);
  }
  return p.game;
}

async function say(page, text) {
  await page.locator("#chat-input").fill(text);
  await page.locator("#chat-send").click();
}

test("a player blocks another and no longer sees her lines; unblocked, she does again", async () => {
  await withApp(async (server, browser) => {
    const ala = await player(browser, server.url, "ala");
    const eve = await player(browser, server.url, "eve");
    const game = await gameBetween(ala, eve, server.url);
    await say(eve, "first line");
    await ala.locator("#chat-lines li", { hasText: "first line" }).waitFor();
    // Ala blocks Eve from her profile.
    await ala.goto(server.url + "/@/eve?lang=en");
    await ala.locator("#block").click();
    await ala.locator("#challenge-status", { hasText: "You block eve" }).waitFor();
    assert.equal(await ala.locator("#block").getAttribute("aria-pressed"), "true");
    // Eve, challenging Ala from her profile, is refused in one sentence
    // (it said the reason twice: "One of you blocks the other. (… one of
    // you blocks the other)"), in English and in Polish.
    for (const [lang, says] of [["en", "One of you blocks the other."], ["pl", null]]) {
      await eve.goto(`${server.url}/@/ala?lang=${lang}`);
      await eve.locator("#challenge-form > summary").click();
      await eve.locator("#challenge-send").click();
      const status = eve.locator("#challenge-status");
      await status.filter({ hasText: /\S/ }).waitFor();
      const text = (await status.innerText()).trim();
      if (says) assert.equal(text, says);
      else assert.ok(!/block/i.test(text) && /^[^.]+\.$/.test(text), `one Polish sentence: ${text}`);
    }
    await eve.goto(`${server.url}/g/${game}?lang=en`);
    await waitState(eve, () => !!window.agonState);
    await ala.goto(`${server.url}/g/${game}?lang=en`);
    await waitState(ala, () => !!window.agonState);
    await say(eve, "second line");
    await eve.locator("#chat-lines li", { hasText: "second line" }).waitFor();
    await ala.waitForTimeout(1500);
    assert.equal(await ala.locator("#chat-lines li").count(), 0, "neither the old line nor the new one");
    // The account page lists her, with Unblock.
    await ala.goto(server.url + "/account?lang=en");
    const row = ala.locator('#blocks [data-blocked="eve"]');
    await row.waitFor();
    await row.locator("button").click();
    await ala.locator("#blocks-none").waitFor();
    await ala.goto(`${server.url}/g/${game}?lang=en`);
    await ala.locator("#chat-lines li", { hasText: "second line" }).waitFor();
  });
});

test("a report from a chat line reaches the moderator with the line; a mute stops the chat and tells the player why", async () => {
  await withApp(async (server, browser) => {
    const ala = await player(browser, server.url, "ala");
    const eve = await player(browser, server.url, "eve");
    const mo = await player(browser, server.url, "mo");
    // The first moderator, as an operator makes her.
    const said = execFileSync(server.bin, ["mod", "grant", "mo", "--data", server.data]).toString();
    assert.match(said, /mo is a moderator now/);
    const game = await gameBetween(ala, eve, server.url);
    await say(eve, "you play like a potato");
    await ala.locator("#chat-lines li", { hasText: "potato" }).waitFor();
    await ala.locator("#chat-report").click();
    await ala.locator("#report-text").fill("insults");
    await ala.locator("#report-send").click();
    await ala.locator("#report-said", { hasText: "Your report about eve is filed" }).waitFor();
    // A player is refused the moderation page.
    await ala.goto(server.url + "/mod?lang=en");
    await ala.locator("#mod-refused", { hasText: "Only moderators may do this." }).waitFor();
    // The moderator finds it under Community, with the line attached.
    await mo.goto(server.url + "/?lang=en");
    await mo.locator("button[aria-controls=nav-community]").click();
    await mo.locator("#nav-mod a").click();
    const card = mo.locator("#mod-reports li[data-report]").first();
    await card.waitFor();
    assert.match(await card.innerText(), /eve · Abuse in chat/);
    await card.locator(".mod-lines li", { hasText: "you play like a potato" }).waitFor();
    assert.match(await card.innerText(), /Reported by ala/);
    // Eve has a second page open, in Polish.
    const evePl = await eve.context().newPage();
    await evePl.goto(server.url + "/rules?lang=pl");
    await evePl.locator("#rules-ringo").waitFor();
    await evePl.waitForTimeout(500);
    // Muted for an hour, with a reason: the report closes, the log says so.
    await card.locator("input").fill("insults in chat");
    await card.locator('[data-action="mute-60"]').click();
    await mo.locator("#mod-none").waitFor();
    await mo.locator('#mod-log-table tr[data-action="mute"]', { hasText: "insults in chat" }).waitFor();
    // Every page Eve has open tells her at once, without a reload, why and
    // until when, in its language (she learned of it only after a reload).
    const told = eve.locator('#notices [data-notice="mute"]');
    await told.filter({ hasText: /^A moderator muted your chat until .*\d.*: insults in chat$/ }).waitFor();
    await evePl.locator('#notices [data-notice="mute"]').filter({ hasText: /^Moderator wyciszył twój czat do .*\d.*: insults in chat$/ }).waitFor();
    // Her next line is refused, in her page's words, with why.
    await say(eve, "still here");
    await eve.locator("#toast", { hasText: /A moderator has muted your chat until .*\d.*: insults in chat/ }).waitFor();
    await eve.locator("#notices-close").click();
    await eve.locator("#notices").waitFor({ state: "hidden" });
    // Told once: a page opened later does not say it again.
    await eve.goto(server.url + "/rules?lang=en");
    await eve.waitForTimeout(500);
    assert.equal(await eve.locator("#notices").isVisible(), false, "told once");
  });
});

test("a mute holds on both instances of one database: refused on the other, told until when, never shown", async (t) => {
  const database = freshDatabase("e2e_mute_two");
  if (!database) return t.skip("no PostgreSQL test server (AGON_TEST_DATABASE_URL)");
  const [a, b] = [await startServer({ database }), await startServer({ database })];
  const browser = await launch();
  try {
    // Ala and the moderator on one instance, Eve on the other.
    const ala = await player(browser, a.url, "ala");
    const eve = await player(browser, b.url, "eve");
    const mo = await player(browser, a.url, "mo");
    assert.match(execFileSync(a.bin, ["mod", "grant", "mo", "--database", database]).toString(), /mo is a moderator now/);
    await gameBetween(ala, eve, a.url, b.url);
    await say(eve, "hello from the other instance");
    await ala.locator("#chat-lines li", { hasText: "hello from the other instance" }).waitFor();
    // Muted for an hour from Eve's record on the moderation page.
    await mo.goto(a.url + "/mod?lang=en");
    await mo.locator("#mod-user").fill("eve");
    await mo.locator("#mod-lookup").click();
    await mo.locator("#mod-record-reason").fill("spam across instances");
    await mo.locator('#mod-record [data-action="mute-60"]').click();
    await mo.locator("#mod-muted").waitFor();
    await mo.locator('#mod-log-table tr[data-action="mute"]', { hasText: "spam across instances" }).waitFor();
    // On her instance, at once: her open page says why, a line is
    // refused, and told until when and why.
    await eve.locator('#notices [data-notice="mute"]', { hasText: "spam across instances" }).waitFor();
    await say(eve, "muted line");
    await eve.locator("#toast", { hasText: /A moderator has muted your chat until .*\d.*: spam across instances/ }).waitFor();
    await ala.waitForTimeout(1000);
    assert.equal(await ala.locator("#chat-lines li", { hasText: "muted line" }).count(), 0, "never shown on the other instance");
  } finally {
    await browser.close();
    a.stop();
    b.stop();
  }
});

test("a lobby pause after three abandoned live games, its reason and end shown, the seek refused", async () => {
  await withApp(async (server, browser) => {
    const ala = await player(browser, server.url, "ala");
    const bob = await player(browser, server.url, "bob");
    const post = (page, path, body) => page.evaluate(([p, b]) => fetch(p, { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify(b) }).then(async (r) => ({ status: r.status, body: await r.json() })), [path, body]);
    // Three live games where Ala, the attackers, never moves: each aborts
    // after the first-move wait (one second on this server).
    for (let i = 0; i < 3; i++) {
      const seek = await post(ala, "/api/seeks", { game: "ringo", rules: "classic", side: "attackers", clock: { base_secs: 300, increment_secs: 3 } });
      assert.equal(seek.status, 201);
      const taken = await post(bob, `/api/seeks/${seek.body.id}/accept`, {});
      assert.equal(taken.status, 201);
      for (let n = 0; ; n++) {
        const g = await (await fetch(`${server.url}/api/games/${taken.body.game}`)).json();
        if (g.state.status === "aborted") break;
        assert.ok(n < 100, "aborted within 20 s");
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const me = await ala.evaluate(() => fetch("/api/account").then((r) => r.json()));
    assert.equal(me.paused?.abandoned, 3, JSON.stringify(me));
    await ala.goto(server.url + "/lobby?lang=en");
    const note = ala.locator("#pause");
    await note.waitFor();
    assert.match(await note.innerText(), /You abandoned your last 3 live games .* you may seek or pair again at \d/);
    await ala.locator("#seek-create").click();
    await ala.locator("#toast", { hasText: "You abandoned your last live games" }).waitFor();
    // Bob is not paused.
    await bob.goto(server.url + "/lobby?lang=en");
    await bob.locator("#seek-create").waitFor();
    assert.equal(await bob.locator("#pause").count(), 0);
  }, { firstMoveSecs: 1 });
});

test("the moderation page in Polish and French, by keyboard: a player's record and a ban from rated play she meets in the lobby", async () => {
  await withApp(async (server, browser) => {
    const eve = await player(browser, server.url, "eve");
    const mo = await player(browser, server.url, "mo");
    execFileSync(server.bin, ["mod", "grant", "mo", "--data", server.data]);
    await mo.goto(server.url + "/mod?lang=pl");
    await mo.locator("h1", { hasText: "Moderacja" }).waitFor();
    await mo.locator("#mod-none", { hasText: "Nie ma otwartych zgłoszeń." }).waitFor();
    // By keyboard: the name, Enter looks her up.
    await mo.locator("#mod-user").focus();
    await mo.keyboard.type("eve");
    await mo.keyboard.press("Enter");
    await mo.locator("#mod-record h3", { hasText: "eve" }).waitFor();
    await mo.locator("#mod-record-reason").fill("pompowanie rankingu");
    await mo.locator('#mod-record [data-action="rated-ban-1440"]').click();
    await mo.locator("#mod-banned", { hasText: "Zakaz partii rankingowych do" }).waitFor();
    await mo.locator('#mod-record-actions [data-action="rated-ban"]', { hasText: "pompowanie rankingu" }).waitFor();
    // In French, the log names it.
    await mo.goto(server.url + "/mod?lang=fr&user=eve");
    await mo.locator('#mod-log-table tr[data-action="rated-ban"]', { hasText: "exclu des parties classées" }).waitFor();
    // Eve's rated seek is refused, and she is told why.
    await eve.goto(server.url + "/lobby?lang=en");
    await eve.locator("#seek-rated").check();
    await eve.locator("#seek-create").click();
    await eve.locator("#toast", { hasText: "A moderator banned you from rated play for now" }).waitFor();
  });
});

test("every moderator's button on a player's record, and a report filed from a profile", async () => {
  await withApp(async (server, browser) => {
    const ala = await player(browser, server.url, "ala");
    const eve = await player(browser, server.url, "eve");
    const mo = await player(browser, server.url, "mo");
    execFileSync(server.bin, ["mod", "grant", "mo", "--data", server.data]);
    // Ala reports Eve from her profile: the reason chosen, a few words.
    await ala.goto(server.url + "/@/eve?lang=en");
    await ala.locator("#report-form > summary").click();
    await ala.locator("#report-reason").selectOption("name");
    await ala.locator("#report-body").fill("her name is an insult");
    await ala.locator("#report-submit").click();
    await ala.locator("#report-status", { hasText: "Your report about eve is filed" }).waitFor();
    // The moderator sees it, and closes it without action from its card.
    await mo.goto(server.url + "/mod?lang=en");
    const card = mo.locator("#mod-reports li[data-report]").first();
    await card.locator("h3", { hasText: "An offensive name" }).waitFor();
    assert.match(await card.innerText(), /her name is an insult/);
    await card.locator("input").fill("not offensive");
    await card.locator('[data-action="close-report"]').click();
    await mo.locator("#mod-none").waitFor();
    // Each action of the record, in turn: the log shows it with its reason.
    await mo.locator("#mod-user").fill("eve");
    await mo.locator("#mod-lookup").click();
    for (const [button, action] of [["warn", "warn"], ["mute-60", "mute"], ["unmute", "unmute"], ["rated-ban-1440", "rated-ban"],
      ["rated-ban-10080", "rated-ban"], ["lift-rated-ban", "lift-rated-ban"], ["mark", "mark"], ["unmark", "unmark"]]) {
      await mo.locator("#mod-record-reason").fill("reason " + button);
      await mo.locator(`#mod-record [data-action="${button}"]`).click();
      await mo.locator(`#mod-record-actions [data-action="${action}"]`, { hasText: "reason " + button }).waitFor();
    }
    // Renamed: the record follows the new name.
    await mo.locator("#mod-record-reason").fill("offensive name");
    await mo.locator("#mod-new-name").fill("player9");
    await mo.locator('#mod-record [data-action="rename"]').click();
    await mo.locator("#mod-record h3", { hasText: "player9" }).waitFor();
    // Made a moderator, then (another player) closed.
    await mo.locator("#mod-user").fill("ala");
    await mo.locator("#mod-lookup").click();
    await mo.locator("#mod-record h3", { hasText: "ala" }).waitFor();
    await mo.locator("#mod-record-reason").fill("trusted");
    await mo.locator('#mod-record [data-action="grant"]').click();
    await mo.locator('#mod-record-actions [data-action="grant"]', { hasText: "trusted" }).waitFor();
    await mo.locator("#mod-user").fill("player9");
    await mo.locator("#mod-lookup").click();
    await mo.locator("#mod-record h3", { hasText: "player9" }).waitFor();
    await mo.locator("#mod-record-reason").fill("repeated abuse");
    await mo.locator('#mod-record [data-action="close"]').click();
    await mo.locator("#mod-record-said", { hasText: "Done, and logged." }).waitFor();
    // Eve's session is over: her page shows her signed out.
    await eve.goto(server.url + "/rules?lang=en");
    await eve.locator("#account-link", { hasText: "Sign in" }).waitFor();
    // Ala, now a moderator, finds the page under Community.
    await ala.goto(server.url + "/?lang=en");
    await ala.locator("button[aria-controls=nav-community]").click();
    await ala.locator("#nav-mod a").click();
    await ala.locator("#mod-player-title").waitFor();
  });
});
