// The Rules lab: the balance lab's table and chart, the balanced rule sets
// marked, and a game under any listed rule set in one click.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, apiCall, waitState, SHOTS } from "./helpers.mjs";

test("the Rules lab shows every measured cell and starts a game under a listed rule set", async () => {
  await withApp(async (server, browser) => {
    const data = await apiCall(server.url, "GET", "/api/balance");
    assert.ok(data.rows.length > 0);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url + "/");
    await page.getByRole("link", { name: "Rules lab" }).click();
    await page.locator("#lab-table").waitFor();
    assert.equal(await page.locator("#lab-table tbody tr").count(), data.rows.length);
    const ruleSets = new Set(data.rows.map((r) => r.rules));
    assert.equal(await page.locator("#lab-chart polyline").count(), ruleSets.size, "one line per rule set");
    // Balanced sets are marked exactly when the strongest player's cell is near 50%.
    const players = [...new Set(data.rows.map((r) => r.player))];
    const strongest = players[players.length - 1];
    const balanced = data.rows.filter((r) => r.player === strongest && Math.abs(r.attackers_win_rate - 0.5) <= 0.1 && r.ci95[0] <= 0.5 && r.ci95[1] >= 0.5);
    assert.equal(await page.locator("#lab-table tr.balanced").count(), data.rows.filter((r) => balanced.some((b) => b.rules === r.rules)).length);
    await page.screenshot({ path: `${SHOTS}/lab.png`, fullPage: true });
    const last = data.rows[data.rows.length - 1];
    await page.locator(`.play-rules[data-rules="${last.rules}"]`).first().click();
    await page.waitForURL(/\/g\//);
    await waitState(page, () => !!window.agonState);
    assert.equal(await page.evaluate(() => window.agonState.rules), last.rules);
  });
});
