// Accounts (issue 59), taken as people take them, each browser checking
// what its own player sees: sign up and keep the recovery codes, sign out,
// sign in on another browser (by keyboard) and find the games played before
// signing up, sign another device out, reset the password with a recovery
// code (which then fails a second time), download the data, delete the
// account and see its games under "deleted player", two signed-in players
// seeing each other's names, settings that follow the account, and the
// account pages in Polish and French.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { withApp, waitState, newGame, playRingoMove, SHOTS } from "./helpers.mjs";

const PASSWORD = "correct horse battery";

/** Signs up on the account page as a person does; answers the codes shown. */
async function signUp(page, url, name, password = PASSWORD, lang) {
  await page.goto(url + "/account" + (lang ? "?lang=" + lang : ""));
  await page.locator("#signup-name").fill(name);
  await page.locator("#signup-password").fill(password);
  await page.locator("#signup-submit").click();
  await page.locator("#recovery-codes li").first().waitFor();
  return page.locator("#recovery-codes li").allInnerTexts();
}

/** Signs in on the account page by mouse. */
async function signIn(page, url, name, password = PASSWORD) {
  await page.goto(url + "/account");
  await page.locator("#signin-name").fill(name);
  await page.locator("#signin-password").fill(password);
  await page.locator("#signin-submit").click();
  await page.locator("#account-name").waitFor();
}

const header = (page) => page.locator("#account-link");

test("sign up and keep the codes, sign out, sign in elsewhere by keyboard and find the games played before", async () => {
  await withApp(async (server, browser) => {
    const ala = await (await browser.newContext()).newPage();
    // An anonymous game first, with a move played.
    await newGame(ala, server.url, { game: "ringo", opponent: "engine", level: 1, side: "attackers" });
    await waitState(ala, () => window.agonState && window.agonYou.length === 1);
    const id = ala.url().split("/g/")[1];
    const first = await ala.evaluate(() => window.agonState.moves[0]);
    await playRingoMove(ala, first);
    assert.match(await ala.locator("#presence").innerText(), /Attackers \(Anonymous\)/);

    // The header's "Sign in" leads to the account page.
    assert.equal(await header(ala).innerText(), "Sign in");
    await header(ala).click();
    await ala.waitForURL(/\/account$/);
    const codes = await (async () => {
      await ala.locator("#signup-name").fill("Ala");
      await ala.locator("#signup-password").fill(PASSWORD);
      await ala.locator("#signup-submit").click();
      await ala.locator("#recovery-codes li").first().waitFor();
      return ala.locator("#recovery-codes li").allInnerTexts();
    })();
    assert.equal(await ala.locator("h1").innerText(), "Welcome, Ala");
    assert.equal(codes.length, 10);
    for (const c of codes) assert.match(c, /^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    assert.match(await ala.locator("#codes").innerText(), /shown only now/);
    assert.match(await ala.locator("#toast").innerText(), /1 game of this browser is now your account's/);
    assert.equal(await header(ala).innerText(), "Ala");
    // The codes download as a text file.
    const [download] = await Promise.all([ala.waitForEvent("download"), ala.locator("#codes-download").click()]);
    assert.equal(readFileSync(await download.path(), "utf8").trim().split("\n").length, 10);
    await ala.screenshot({ path: `${SHOTS}/account-codes.png` });
    await ala.locator("#codes-done").click();
    await ala.locator("#account-name").waitFor();
    assert.equal(await ala.locator("#sessions tbody tr").count(), 1);
    assert.match(await ala.locator("#sessions tbody tr").innerText(), /this device/);
    // Signed out, the page offers to sign in again.
    await ala.locator("#signout").click();
    await ala.locator("#signin").waitFor();
    assert.equal(await header(ala).innerText(), "Sign in");
    assert.match(await ala.locator("#toast").innerText(), /signed out/);

    // Another browser, by keyboard alone: Tab to "Sign in", type, Enter.
    const bob = await (await browser.newContext()).newPage();
    await bob.goto(server.url + "/");
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await bob.keyboard.press("Tab");
      reached = await bob.evaluate(() => document.activeElement?.id === "account-link");
    }
    assert.ok(reached, "the account link is reached by Tab");
    await bob.keyboard.press("Enter");
    await bob.locator("#signin-name").waitFor();
    await bob.locator("#signin-name").focus();
    await bob.keyboard.type("ala");
    await bob.keyboard.press("Tab");
    await bob.keyboard.type(PASSWORD);
    await bob.keyboard.press("Enter");
    await bob.locator("#account-name").waitFor();
    assert.equal(await bob.locator("#account-name").innerText(), "Ala");
    // Her games, with her name, and the game played before she signed up.
    await bob.locator("#my-games").click();
    await bob.locator(`#own-games tr[data-game="${id}"]`).waitFor();
    assert.match(await bob.locator(`#own-games tr[data-game="${id}"] .players`).innerText(), /Ala – Computer, level 1/);
    await bob.locator(`#own-games tr[data-game="${id}"] a`, { hasText: "open" }).click();
    await waitState(bob, () => window.agonState && window.agonYou.length === 1);
    assert.deepEqual(await bob.evaluate(() => window.agonYou), [0]);
    assert.match(await bob.locator("#presence").innerText(), /Attackers \(Ala\)/);
    // She plays on from here, with no seat token in this browser.
    assert.equal(await bob.evaluate((id) => localStorage.getItem("agon-token-" + id), id), null);
    await waitState(bob, () => window.agonState.seat_to_act === 0 && window.agonState.moves.length > 0);
    await playRingoMove(bob, await bob.evaluate(() => window.agonState.moves[0]));

    // A third device signs in; the second signs it out from the list.
    const third = await (await browser.newContext()).newPage();
    await signIn(third, server.url, "ala");
    await bob.goto(server.url + "/account");
    await bob.locator("#sessions tbody tr").nth(1).waitFor();
    assert.equal(await bob.locator("#sessions tbody tr").count(), 2);
    // One button on the page is named "Sign out" (this device's); the
    // list's says which device it signs out, by name to a screen reader.
    assert.equal(await bob.getByRole("button", { name: "Sign out", exact: true }).count(), 1);
    const end = bob.locator('#sessions tr[data-current="no"] .end-session');
    assert.equal(await end.innerText(), "Sign that device out");
    assert.match(await end.getAttribute("aria-label"), /^Sign out .+/);
    await bob.getByRole("button", { name: await end.getAttribute("aria-label"), exact: true }).click();
    await waitState(bob, () => document.querySelectorAll("#sessions tbody tr").length === 1);
    await third.goto(server.url + "/account");
    await third.locator("#signin").waitFor();
    assert.equal(await header(third).innerText(), "Sign in");
    // The data download holds the game and its record.
    const [data] = await Promise.all([bob.waitForEvent("download"), bob.locator("#download-data").click()]);
    const json = JSON.parse(readFileSync(await data.path(), "utf8"));
    assert.equal(json.account.name, "Ala");
    assert.equal(json.games[0].id, id);
    assert.match(json.games[0].record, new RegExp(first.replace(/[()]/g, "\\$&")));
    // Sign out everywhere ends this session too.
    await bob.locator("#signout-all").click();
    await bob.locator("#signin").waitFor();
  });
});

test("a recovery code resets the password once; a new set replaces the old", async () => {
  await withApp(async (server, browser) => {
    const page = await (await browser.newContext()).newPage();
    const codes = await signUp(page, server.url, "ola");
    await page.locator("#codes-done").click();
    await page.locator("#signout").click();
    await page.locator("#signin").waitFor();
    const recover = async (code, password) => {
      await page.goto(server.url + "/account");
      await page.locator("#forgot summary").click();
      await page.locator("#recover-name").fill("ola");
      await page.locator("#recover-code").fill(code);
      await page.locator("#recover-password").fill(password);
      await page.locator("#recover-submit").click();
    };
    await recover(codes[2], "a brand new secret");
    await page.locator("#account-name").waitFor();
    assert.equal(await header(page).innerText(), "ola");
    assert.match(await page.locator("#toast").innerText(), /password is changed/);
    // Nine codes left; the one used fails a second time.
    assert.match(await page.locator("#codes-form").innerText(), /9 unused codes left/);
    await page.locator("#signout").click();
    await page.locator("#signin").waitFor();
    await recover(codes[2], "yet another secret");
    await page.locator("#recover-error").filter({ hasText: /./ }).waitFor();
    // Said as the form asks: a code, which works once (not "password").
    assert.equal(await page.locator("#recover-error").innerText(), "Wrong name or recovery code: each code works only once.");
    // A wrong password says so on the sign-in form; the new one works.
    await page.locator("#signin-name").fill("ola");
    await page.locator("#signin-password").fill(PASSWORD);
    await page.locator("#signin-submit").click();
    await page.locator("#signin-error").filter({ hasText: /./ }).waitFor();
    assert.match(await page.locator("#signin-error").innerText(), /Wrong name or password/);
    await signIn(page, server.url, "ola", "a brand new secret");
    // Ten new codes; an old one no longer works.
    await page.locator("#codes-password").fill("a brand new secret");
    await page.locator("#codes-form-submit").click();
    await page.locator("#new-codes #recovery-codes li").nth(9).waitFor();
    // Changing the password keeps this device signed in.
    await page.locator("#password-current").fill("a brand new secret");
    await page.locator("#password-new").fill("password");
    await page.locator("#password-submit").click();
    await page.locator("#password-error").filter({ hasText: /./ }).waitFor();
    assert.match(await page.locator("#password-error").innerText(), /too short or too common/);
    await page.locator("#password-new").fill("the third secret");
    await page.locator("#password-submit").click();
    await page.locator("#toast", { hasText: "Password changed" }).waitFor();
    await page.locator("#account-name").waitFor();
    await page.locator("#signout").click();
    await page.locator("#signin").waitFor();
    await recover(codes[5], "a fourth secret");
    await page.locator("#recover-error").filter({ hasText: /./ }).waitFor();
    // Said as the form asks: a code, which works once (not "password").
    assert.equal(await page.locator("#recover-error").innerText(), "Wrong name or recovery code: each code works only once.");
  });
});

test("two signed-in players see each other's names; a deleted account's games show a deleted player", async () => {
  await withApp(async (server, browser) => {
    const ala = await (await browser.newContext()).newPage();
    const olek = await (await browser.newContext()).newPage();
    await signUp(ala, server.url, "ala");
    await signUp(olek, server.url, "olek");
    await newGame(ala, server.url, { game: "ringo", opponent: "friend", side: "attackers" });
    await ala.locator("#waiting").waitFor();
    const invite = await ala.locator("#invite-link").inputValue();
    await olek.goto(invite);
    await waitState(olek, () => window.agonState && window.agonYou.length === 1 && !window.agonState.waiting_for_friend);
    await waitState(ala, () => window.agonState && !window.agonState.waiting_for_friend);
    for (const page of [ala, olek]) {
      await page.locator("#presence", { hasText: "olek" }).waitFor();
      const line = await page.locator("#presence").innerText();
      assert.match(line, /Attackers \(ala\)/);
      assert.match(line, /Defenders \(olek\)/);
    }
    const id = ala.url().split("/g/")[1];
    // Olek deletes his account (the password asked, the confirmation accepted).
    olek.on("dialog", (d) => d.accept());
    await olek.goto(server.url + "/account");
    await olek.locator("#delete-password").fill(PASSWORD);
    await olek.locator("#delete-submit").click();
    await olek.waitForURL(server.url + "/");
    assert.equal(await header(olek).innerText(), "Sign in");
    // Ala sees it at once on her open game, and so does the games list.
    await ala.goto(server.url + "/g/" + id);
    await ala.locator("#presence", { hasText: "deleted player" }).waitFor();
    assert.match(await ala.locator("#presence").innerText(), /Defenders \(deleted player\)/);
    await ala.goto(server.url + "/games");
    await ala.locator(`#own-games tr[data-game="${id}"]`).waitFor();
    assert.match(await ala.locator(`#own-games tr[data-game="${id}"] .players`).innerText(), /ala – deleted player/);
    // The replay names both sides too.
    await ala.goto(server.url + "/replay/" + id);
    await ala.locator("#players-line", { hasText: "deleted" }).waitFor();
    assert.equal(await ala.locator("#players-line").innerText(), "Attackers: ala · Defenders: deleted player");
    // His name is gone: signing in with it fails.
    await olek.goto(server.url + "/account");
    await olek.locator("#signin-name").fill("olek");
    await olek.locator("#signin-password").fill(PASSWORD);
    await olek.locator("#signin-submit").click();
    await olek.locator("#signin-error").filter({ hasText: /./ }).waitFor();
  });
});

test("settings follow the account: the language, sounds, sliding and board orientation chosen on one device are the other's", async () => {
  await withApp(async (server, browser) => {
    const one = await (await browser.newContext()).newPage();
    await signUp(one, server.url, "ewa");
    await one.locator("#lang").selectOption("fr");
    await one.locator("#account-link", { hasText: "ewa" }).waitFor();
    await waitState(one, () => document.documentElement.lang === "fr");
    // Sounds off, no sliding, boards upside down: on the account page.
    await one.goto(server.url + "/account");
    await one.locator("#pref-sound").uncheck();
    await one.locator("#pref-animation").uncheck();
    await one.locator("#pref-flip").check();
    // No chat, and no takebacks in rated games.
    await one.locator("#pref-chat").uncheck();
    await one.locator("#pref-takebacks").uncheck();
    await waitState(one, () => localStorage.getItem("agon-flip-default") === "on" && localStorage.getItem("agon-chat") === "off");
    await one.waitForLoadState("networkidle");
    const two = await (await browser.newContext({ locale: "en-GB" })).newPage();
    await signIn(two, server.url, "ewa");
    await waitState(two, () => document.documentElement.lang === "fr");
    assert.equal(await two.locator("#sessions-title").innerText(), "Appareils connectés");
    // The other device takes the board settings too: its account page shows
    // them, and a new game opens upside down.
    assert.equal(await two.locator("#pref-sound").isChecked(), false);
    assert.equal(await two.locator("#pref-animation").isChecked(), false);
    assert.equal(await two.locator("#pref-flip").isChecked(), true);
    assert.equal(await two.locator("#pref-chat").isChecked(), false);
    assert.equal(await two.locator("#pref-takebacks").isChecked(), false);
    const saved = await two.evaluate(() => fetch("/api/account").then((r) => r.json()));
    assert.equal(saved.settings.takebacks, false, "the server holds it: a rated takeback is refused");
    // The chat is off on the other device too: a game with a friend says so.
    await newGame(two, server.url, { game: "ringo", opponent: "friend", side: "attackers", lang: "en" });
    await two.locator("#chat-off").waitFor();
    await newGame(two, server.url, { game: "ringo", opponent: "engine", level: 1, side: "attackers", lang: "en" });
    await two.locator("#flip[aria-pressed=true]").waitFor();
    assert.equal(await two.locator("#sound").getAttribute("aria-pressed"), "false");
  });
});

test("the account pages in Polish and French", async () => {
  await withApp(async (server, browser) => {
    const cases = [
      { lang: "pl", title: "Twoje konto", welcome: "Witaj, zosia", codes: "Twoje kody odzyskiwania", weak: "To hasło jest za krótkie lub zbyt popularne.", signin: "Zaloguj się" },
      { lang: "fr", title: "Votre compte", welcome: "Bienvenue, zoe", codes: "Vos codes de récupération", weak: "Ce mot de passe est trop court ou trop courant.", signin: "Se connecter" },
    ];
    for (const c of cases) {
      const page = await (await browser.newContext()).newPage();
      await page.goto(server.url + "/account?lang=" + c.lang);
      assert.equal(await page.locator("h1").innerText(), c.title);
      assert.equal(await header(page).innerText(), c.signin);
      await page.locator("#signup-name").fill(c.welcome.split(", ")[1]);
      await page.locator("#signup-password").fill("12345678");
      await page.locator("#signup-submit").click();
      await page.locator("#signup-error").filter({ hasText: /./ }).waitFor();
      assert.equal(await page.locator("#signup-error").innerText(), c.weak);
      await page.locator("#signup-password").fill(PASSWORD);
      await page.locator("#signup-submit").click();
      await page.locator("#recovery-codes li").first().waitFor();
      assert.equal(await page.locator("h1").innerText(), c.welcome);
      assert.equal(await page.locator("#codes-title").innerText(), c.codes);
      await page.locator("#codes-done").click();
      await page.locator("#account-name").waitFor();
      await page.screenshot({ path: `${SHOTS}/account-${c.lang}.png`, fullPage: true });
    }
  });
});

/** Resigns in `page`'s game by its button (pressed twice: it asks first). */
async function resignHere(page) {
  await page.locator("#resign").click();
  await page.locator("#resign.danger").click();
}

test("a rated Ringo pair between two accounts: both games, seats swapped; both profiles' ratings and charts change", async () => {
  await withApp(async (server, browser) => {
    const ala = await (await browser.newContext()).newPage();
    const olek = await (await browser.newContext()).newPage();
    await signUp(ala, server.url, "ala");
    await signUp(olek, server.url, "olek");
    // The home page offers "Rated" only for a friend game, signed in.
    await ala.goto(server.url + "/new");
    await ala.locator("input[name=game][value=ringo]").check();
    await ala.locator("input[name=opponent][value=friend]").check();
    await ala.locator("#preset").selectOption("classic");
    await ala.locator("input[name=side][value=attackers]").check();
    await ala.locator("#rated").check();
    assert.match(await ala.locator("#rated-help").innerText(), /pair/);
    await ala.locator("#start").click();
    await ala.waitForURL(/\/g\/[a-z0-9]+$/);
    const one = ala.url().split("/g/")[1];
    await ala.locator("#invite-link").waitFor();
    await olek.goto(await ala.locator("#invite-link").inputValue());
    for (const page of [ala, olek]) {
      await waitState(page, () => window.agonState && !window.agonState.waiting_for_friend);
      await page.locator("#rated-line").waitFor();
      assert.match(await page.locator("#rated-line").innerText(), /Rated · pair, game 1 of 2 · the seats swap for game 2/);
    }
    // Ala resigns the first game: both pages go to the second, seats swapped.
    await waitState(ala, () => window.agonYou.length === 1);
    await resignHere(ala);
    for (const page of [ala, olek]) {
      await page.waitForURL((u) => !u.pathname.endsWith(one) && /\/g\/[a-z0-9]+$/.test(u.pathname));
      await waitState(page, () => window.agonState && window.agonState.pair && window.agonState.pair.game === 2 && window.agonYou.length === 1);
      assert.match(await page.locator("#rated-line").innerText(), /pair, game 2 of 2/);
    }
    assert.equal(await ala.locator("#role").innerText(), "You play the defenders.");
    assert.equal(await olek.locator("#role").innerText(), "You play the attackers.");
    assert.match(await ala.locator("#presence").innerText(), /Attackers \(olek\).*Defenders \(ala\)/s);
    // She resigns the second too: olek wins the pair 2 : 0, and both see it
    // with each rating change.
    await resignHere(ala);
    for (const page of [ala, olek]) {
      await page.locator("#rating-change").waitFor();
      await page.locator("#pair-score").waitFor();
      assert.equal(await page.locator("#pair-score").innerText(), "The pair: ala 0 : 2 olek");
      assert.match(await page.locator("#rating-change").innerText(), /Attackers \(olek\) \+\d+ · Defenders \(ala\) −\d+/);
    }
    await olek.screenshot({ path: `${SHOTS}/rated-pair.png` });
    // The profiles: a provisional rating each side of 1500, one point on each chart.
    await olek.locator("#presence a", { hasText: "ala" }).click();
    await olek.waitForURL(/\/@\/ala$/);
    await olek.locator("#rating-ringo .rating-value").waitFor();
    const alaRating = await olek.locator("#rating-ringo .rating-value").innerText();
    assert.match(alaRating, /^1[0-4]\d\d\?$/);
    assert.equal(await olek.locator("#chart-ringo circle").count(), 1);
    assert.match(await olek.locator("#chart-urgammon").innerText(), /No rated game yet/);
    await olek.goto(server.url + "/@/olek");
    await olek.locator("#rating-ringo .rating-value").waitFor();
    assert.match(await olek.locator("#rating-ringo .rating-value").innerText(), /^1[6-9]\d\d\?$/);
    assert.equal(await olek.locator("#chart-ringo circle").count(), 1);
    assert.match(await olek.locator("#chart-ringo").getAttribute("aria-label"), /^Ringo rating after 1 rated pair of games: from 1500 to 1[6-9]\d\d$/);
    // Two games were played, rated once as a pair: the count says a pair,
    // not "1 rated game".
    assert.match(await olek.locator("#rating-ringo .rating").innerText(), /^1[6-9]\d\d\? after 1 rated pair of games · provisional$/);
    // Her games, filtered: two rated games won.
    assert.equal(await olek.locator("#profile-games tbody tr").count(), 2);
    await olek.locator("#filter-result").selectOption("lost");
    assert.equal(await olek.locator("#profile-games tbody tr:not([hidden])").count(), 0);
    await olek.locator("#filter-result").selectOption("won");
    assert.equal(await olek.locator("#profile-games tbody tr:not([hidden])").count(), 2);
    await olek.locator("#filter-rules").selectOption({ label: "Ringo · classic" });
    assert.equal(await olek.locator("#profile-games tbody tr:not([hidden])").count(), 2);
    await olek.locator("#filter-game").selectOption("urgammon");
    assert.equal(await olek.locator("#profile-games tbody tr:not([hidden])").count(), 0);
    assert.equal(await olek.locator("#results tbody tr").count(), 2, "one row per side he played");
    await olek.screenshot({ path: `${SHOTS}/profile.png`, fullPage: true });
    // The first game's review names who played it.
    await olek.goto(server.url + "/review/" + one);
    await olek.locator("#players-line", { hasText: "olek" }).waitFor();
    assert.equal(await olek.locator("#players-line").innerText(), "Attackers: ala · Defenders: olek");
    // Provisional both: nobody on the leaderboard yet.
    await olek.goto(server.url + "/leaderboard");
    await olek.locator("#leaders-ringo").waitFor();
    assert.match(await olek.locator("#leaders-ringo").innerText(), /Nobody yet/);
  });
});

test("a rated Urgammon match to 1 between two accounts: the change shown to both", async () => {
  await withApp(async (server, browser) => {
    const ala = await (await browser.newContext()).newPage();
    const olek = await (await browser.newContext()).newPage();
    await signUp(ala, server.url, "ala");
    await signUp(olek, server.url, "olek");
    await ala.goto(server.url + "/new");
    await ala.locator("input[name=game][value=urgammon]").check();
    await ala.locator("input[name=opponent][value=friend]").check();
    await ala.locator("input[name=side][value=light]").check();
    await ala.locator("#match-to").fill("1");
    await ala.locator("#rated").check();
    await ala.locator("#start").click();
    await ala.waitForURL(/\/g\/[a-z0-9]+$/);
    await ala.locator("#invite-link").waitFor();
    await olek.goto(await ala.locator("#invite-link").inputValue());
    await waitState(olek, () => window.agonState && !window.agonState.waiting_for_friend && window.agonYou.length === 1);
    assert.equal(await olek.locator("#rated-line").innerText(), "Rated");
    await resignHere(olek);
    for (const page of [ala, olek]) {
      await page.locator("#rating-change").waitFor();
      assert.match(await page.locator("#rating-change").innerText(), /Light \(ala\) \+\d+ · Dark \(olek\) −\d+/);
    }
    await ala.goto(server.url + "/@/ala");
    await ala.locator("#rating-urgammon .rating-value").waitFor();
    assert.match(await ala.locator("#rating-urgammon .rating-value").innerText(), /^1[67]\d\d\?$/);
    assert.equal(await ala.locator("#chart-urgammon circle").count(), 1);
    // A match is rated once, however many games it had: the count says so.
    assert.match(await ala.locator("#rating-urgammon .rating").innerText(), / after 1 rated match · provisional$/);
  });
});

/** A virtual authenticator in `page` (Chromium's, through the DevTools
 *  protocol): it holds passkeys, verifies its user and says yes. */
async function authenticator(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true,
      isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

test("a passkey: added on the account page, then signing in with it alone, here and on another browser", async () => {
  await withApp(async (server, browser) => {
    // Passkeys need the site's name: the page opens as localhost.
    const url = server.url.replace("127.0.0.1", "localhost");
    const page = await (await browser.newContext()).newPage();
    const { cdp, authenticatorId } = await authenticator(page);
    await signUp(page, url, "kasia");
    await page.locator("#codes-done").click();
    await page.locator("#no-passkeys").waitFor();
    await page.locator("#passkey-add").click();
    await page.locator("#passkeys li").waitFor();
    assert.match(await page.locator("#toast").innerText(), /Passkey added/);
    assert.match(await page.locator("#passkeys li").innerText(), /^Added /);
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    assert.equal(credentials.length, 1);
    assert.ok(credentials[0].isResidentCredential);
    // Signed out, the passkey alone signs her in: no name, no password.
    await page.locator("#signout").click();
    await page.locator("#passkey-signin").waitFor();
    await page.locator("#passkey-signin").click();
    await page.locator("#account-name").waitFor();
    assert.equal(await page.locator("#account-name").innerText(), "kasia");
    assert.equal(await header(page).innerText(), "kasia");
    assert.match(await page.locator("#passkeys li").innerText(), /last used/);
    // Another browser holding the same passkey (copied, with its counter as
    // it stands now, into its own authenticator) signs in with it too. (A
    // copy with an older counter is refused: that is how a cloned
    // authenticator shows.)
    const now = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials[0];
    assert.ok(now.signCount > credentials[0].signCount);
    const other = await (await browser.newContext()).newPage();
    const second = await authenticator(other);
    await second.cdp.send("WebAuthn.addCredential", { authenticatorId: second.authenticatorId, credential: now });
    await other.goto(url + "/account");
    await other.locator("#passkey-signin").click();
    await other.locator("#account-name").waitFor();
    assert.equal(await other.locator("#sessions tbody tr").count(), 2);
    // A browser without it is told so, and stays signed out.
    const none = await (await browser.newContext()).newPage();
    await authenticator(none);
    await none.goto(url + "/account");
    await none.locator("#passkey-signin").click();
    await none.locator("#passkey-error").filter({ hasText: /./ }).waitFor();
    assert.match(await none.locator("#passkey-error").innerText(), /not used/);
    // Removed, the passkey no longer signs anyone in.
    await page.locator(".remove-passkey").click();
    await page.locator("#no-passkeys").waitFor();
    await other.locator("#signout").click();
    await other.locator("#passkey-signin").click();
    await other.locator("#passkey-error").filter({ hasText: /./ }).waitFor();
    assert.match(await other.locator("#passkey-error").innerText(), /Wrong name or password/);
    // On an address with no name (an IP), the page says why.
    await page.goto(server.url + "/account");
    await page.locator("#passkey-signin").click();
    await page.locator("#passkey-error").filter({ hasText: /./ }).waitFor();
    assert.match(await page.locator("#passkey-error").innerText(), /name, not an IP address/);
  });
});
