// What a newcomer tripped on at the front door, each as she meets it: the
// home page's rule-set card printed "null", a server error was shown twice,
// the lobby never said what 5+3 means, and a wrong puzzle try gave the
// answer away.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, accountAs } from "./helpers.mjs";

test("the home page's rule-set card never prints null, in three languages, for every opponent", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    for (const lang of ["en", "pl", "fr"]) {
      await page.goto(server.url + "/?lang=" + lang);
      await page.locator('input[name="game"][value="ringo"]').check();
      await page.locator("#fairness [data-lean]").waitFor();
      for (const opponent of ["engine", "friend", "local"]) {
        await page.locator(`input[name="opponent"][value="${opponent}"]`).check();
        const card = await page.locator('section[aria-labelledby="settings-title"]').innerText();
        assert.doesNotMatch(card, /\bnull\b|\bundefined\b/, `${lang}, ${opponent}: ${card}`);
      }
      // The steered friend game says why, once.
      assert.equal(await page.locator("#fair-steer").count(), 0, "not against the local screen");
      await page.locator('input[name="opponent"][value="friend"]').check();
      await page.locator("#fair-steer").waitFor();
    }
  });
});

test("a refused sign-up says why once, not its sentence twice", async () => {
  await withApp(async (server, browser) => {
    const first = await browser.newContext();
    const ala = await first.newPage();
    await ala.goto(server.url + "/account?lang=en");
    assert.equal(await accountAs(ala, "signup", "ala"), 201);
    const second = await browser.newContext();
    const other = await second.newPage();
    await other.goto(server.url + "/account?lang=en");
    await other.locator("#signup-name").fill("Ala");
    await other.locator("#signup-password").fill("correct horse battery");
    await other.locator("#signup-submit").click();
    const error = other.locator("#signup-error");
    await error.filter({ hasText: /taken/ }).waitFor();
    const text = await error.innerText();
    assert.equal(text.match(/taken/gi).length, 1, `said once: ${text}`);
    assert.doesNotMatch(text, /\(/, text);
    // A refusal whose server sentence names the bad part keeps it beside
    // the translation, once each.
    await other.locator("#signup-name").fill("admin");
    await other.locator("#signup-submit").click();
    await error.filter({ hasText: /reserved/ }).waitFor();
    assert.equal(await error.innerText(),
      "A name has 2 to 20 letters, digits, - and _, and is not a reserved word. ('admin' is reserved)");
    await first.close();
    await second.close();
  });
});

test("the lobby says what a clock such as 5+3 means, in three languages", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    const words = { en: /minutes each side starts with, plus the seconds added after each/, pl: /minuty.*plus sekundy/,
      fr: /minutes de départ.*plus les secondes/ };
    for (const lang of ["en", "pl", "fr"]) {
      await page.goto(server.url + "/lobby?lang=" + lang);
      const clock = page.locator("#seek-clock");
      await clock.waitFor();
      assert.equal(await clock.inputValue(), "300+3");
      const help = await clock.getAttribute("aria-describedby");
      const said = await page.locator("#" + help).innerText();
      assert.match(said, /5\+3/);
      assert.match(said, words[lang]);
      // Beside the quick-pairing tiles too, whose labels are clocks.
      assert.match(await page.locator("#pool-clock-help").innerText(), words[lang]);
    }
  });
});
