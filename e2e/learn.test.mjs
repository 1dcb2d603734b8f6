// Learning and fairness on the home page, as a newcomer meets them: two
// people starting a Ringo game are steered to an even setting, and a
// handicap for players of unequal strength is chosen (by mouse and by
// keyboard) and lands in the game's rules.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, waitState } from "./helpers.mjs";

test("two people are steered to an even set, and a chosen handicap is in the game's rules", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    await page.goto(server.url + "/?lang=en");
    await page.locator('input[name="game"][value="ringo"]').check();
    await page.locator("#fairness [data-lean]").waitFor();
    assert.equal(await page.locator("#preset").inputValue(), "classic");
    // A friend game: the page sets the lab's most even set, and says why.
    await page.locator('input[name="opponent"][value="friend"]').check();
    await page.locator("#fair-steer").waitFor();
    assert.match(await page.locator("#fair-steer").innerText(), /most even set/);
    assert.equal(await page.locator("#fairness [data-lean]").getAttribute("data-lean"), "even");
    const steered = await page.locator("#preset").inputValue();
    // A handicap, chosen by keyboard: the arrow keys on the focused menu.
    await page.locator("#handicap").focus();
    await page.keyboard.press("ArrowDown");
    await page.locator("#handicap").waitFor();
    assert.equal(await page.locator("#handicap").inputValue(), "no-fortress-capture");
    assert.equal(await page.evaluate(() => document.activeElement.id), "handicap", "the focus stays on the menu");
    assert.equal(await page.locator("#opt-fortress-capture").inputValue(), "off");
    await page.locator('input[name="side"][value="attackers"]').check();
    await page.locator("#start").click();
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    await waitState(page, () => !!window.agonState);
    const rules = await page.evaluate(() => window.agonState.rules);
    assert.match(rules, /fortress-capture=off/);
    assert.ok(rules.startsWith(steered), `${rules} is the steered set with the handicap`);
    assert.match(await page.locator("#settings, .side").first().innerText(), /capture/i);
  });
});

test("a handicap against the computer, in Polish, by mouse; choosing none takes it back", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    await page.goto(server.url + "/?lang=pl");
    await page.locator('input[name="game"][value="ringo"]').check();
    assert.equal(await page.locator('label[for="handicap"]').innerText(), "Fora");
    await page.locator("#handicap").selectOption("defender-pass");
    assert.equal(await page.locator("#opt-defender-pass").inputValue(), "on");
    await page.locator("#handicap").selectOption("");
    assert.equal(await page.locator("#opt-defender-pass").inputValue(), "off");
    await page.locator("#handicap").selectOption("attackers-5");
    assert.match(await page.locator("#handicap option:checked").innerText(), /Pięciu atakujących/);
    await page.locator("#start").click();
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    await waitState(page, () => !!window.agonState);
    assert.match(await page.evaluate(() => window.agonState.rules), /attackers=5/);
    assert.equal((await page.evaluate(() => window.agonState.board.filter((p) => p.side === "attackers").length)), 5);
  });
});
