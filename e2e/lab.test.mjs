// The Rules lab: the balance lab's table and chart, the balanced rule sets
// marked, and a game under any listed rule set in one click.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, apiCall, waitState, SHOTS } from "./helpers.mjs";

/** The attackers' score over `cells` (a win 1, a draw a half) and whether
 *  it is even: 40-60% with Wilson's 95% interval holding 50%. Worked out here
 *  from the API's rows, independently of the page and the server. */
function scoreOf(cells) {
  const n = cells.reduce((a, r) => a + r.games, 0), k = cells.reduce((a, r) => a + r.attackers_wins + r.draws / 2, 0);
  const p = k / n, z = 1.96, d = 1 + (z * z) / n, c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { score: p, balanced: Math.abs(p - 0.5) <= 0.1 && c - h <= 0.5 && c + h >= 0.5 };
}

/** The balanced rule sets: the three strongest strengths pooled. */
function balancedByHand(rows) {
  const players = [...new Set(rows.map((r) => r.player))].slice(-3);
  const sets = [...new Set(rows.map((r) => r.rules))];
  return sets.filter((rules) => scoreOf(rows.filter((r) => r.rules === rules && players.includes(r.player))).balanced);
}

test("the Rules lab shows every measured cell and starts a game under a listed rule set", async () => {
  await withApp(async (server, browser) => {
    const data = await apiCall(server.url, "GET", "/api/balance");
    assert.ok(data.rows.length > 0);
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url + "/");
    await page.getByRole("button", { name: "Tools", exact: true }).click();
    await page.getByRole("link", { name: "Rules lab", exact: true }).click();
    // The table of every cell comes folded, its row count on the fold; a
    // click on the fold shows it.
    const fold = page.locator("#lab-every > summary");
    await fold.waitFor();
    assert.equal(await page.locator("#lab-table").isVisible(), false);
    assert.equal((await fold.innerText()).trim(), `Every measured cell (${data.rows.length})`);
    await fold.click();
    await page.locator("#lab-table").waitFor();
    assert.equal(await page.locator("#lab-table tbody tr").count(), data.rows.length);
    const ruleSets = new Set(data.rows.map((r) => r.rules));
    assert.equal(await page.locator("#lab-chart polyline").count(), ruleSets.size, "one line per rule set");
    // Balanced sets are marked exactly when the three strongest strengths,
    // pooled, give the attackers a score (a draw counts half) of 40-60%
    // with a 95% interval holding 50%.
    const balanced = balancedByHand(data.rows);
    assert.ok(balanced.length > 0, "the committed results have balanced sets");
    assert.equal(await page.locator("#lab-table tr.balanced").count(), data.rows.filter((r) => balanced.includes(r.rules)).length);
    assert.deepEqual(await page.locator("#lab-summary tr.balanced").evaluateAll((rs) => rs.map((r) => r.dataset.rules)), balanced);
    await page.screenshot({ path: `${SHOTS}/lab.png`, fullPage: true });
    const last = data.rows[data.rows.length - 1];
    await page.locator(`.play-rules[data-rules="${last.rules}"]`).first().click();
    await page.waitForURL(/\/g\//);
    await waitState(page, () => !!window.agonState);
    assert.equal(await page.evaluate(() => window.agonState.rules), last.rules);
  });
});

test("the Rules lab picks one rule set out of the chart, by mouse and by keyboard, and sums each set up in one row", async () => {
  await withApp(async (server, browser) => {
    const data = await apiCall(server.url, "GET", "/api/balance");
    const players = [...new Set(data.rows.map((r) => r.player))];
    const ruleSets = [...new Set(data.rows.map((r) => r.rules))];
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url + "/lab");
    await page.locator("#lab-summary").waitFor();

    // At a glance: one row per rule set, one number per strength, as the API says.
    assert.equal(await page.locator("#lab-summary tbody tr").count(), ruleSets.length);
    const sample = data.rows.find((r) => r.rules === "classic,slide=on") || data.rows[0];
    const row = page.locator(`#lab-summary tr[data-rules="${sample.rules}"]`);
    const col = players.indexOf(sample.player);
    assert.equal((await row.locator("td").nth(col).innerText()).trim(), (100 * sample.attackers_win_rate).toFixed(0) + "%");
    assert.equal(await row.locator(".play-rules").count(), 1, "every summary row starts a game");
    // The strongest three together (the attackers' score), which the balance verdict reads.
    const top = data.rows.filter((r) => r.rules === sample.rules && players.slice(-3).includes(r.player));
    assert.ok((await row.locator("td.pooled").innerText()).startsWith((100 * scoreOf(top).score).toFixed(0) + "% ("));
    assert.equal(await page.locator("#lab-summary tr.balanced[data-rules]").count(), balancedByHand(data.rows).length);

    // One line per rule set, no two drawn alike (colour and dash pattern),
    // so each can be told apart by its legend entry.
    const looks = await page.locator("#lab-chart .series polyline").evaluateAll((ls) =>
      ls.map((l) => `${l.getAttribute("stroke")} ${l.getAttribute("stroke-dasharray") || "solid"}`));
    assert.equal(looks.length, ruleSets.length);
    assert.equal(new Set(looks).size, looks.length, `two lines drawn alike: ${looks}`);

    // Nothing picked: every line at full strength, no points drawn.
    const caption = page.locator("#lab-focus");
    const hint = await caption.innerText();
    assert.equal(await page.locator("#lab-chart .series.focus").count(), 0);
    assert.equal(await page.locator("#lab-chart .dot:visible").count(), 0);

    // Click a rule set's legend entry: its line comes to the front with its
    // points and intervals, the others fade, and its numbers are written out.
    // On a desktop the rule sets' buttons come unfolded.
    assert.equal(await page.locator("#lab-legend").evaluate((d) => d.open), true);
    const pickButton = page.locator(`button.series-pick[data-rules="${sample.rules}"]`);
    await pickButton.click();
    assert.equal(await pickButton.getAttribute("aria-pressed"), "true");
    assert.equal(await page.locator("#lab-chart .series.focus").getAttribute("data-rules"), sample.rules);
    assert.equal(await page.locator("#lab-chart .series").last().getAttribute("data-rules"), sample.rules, "drawn on top");
    assert.equal(await page.locator("#lab-chart .series.focus .dot:visible").count(), players.length);
    // An interval is a vertical line (no width, so not "visible" to a box test): its display says it is drawn.
    const intervals = await page.locator("#lab-chart .series.focus .ci").evaluateAll((ls) => ls.filter((l) => getComputedStyle(l).display !== "none").length);
    assert.equal(intervals, players.length);
    assert.equal(await page.locator("#lab-chart .series:not(.focus) .ci").evaluateAll((ls) => ls.filter((l) => getComputedStyle(l).display !== "none").length), 0);
    const faded = await page.locator("#lab-chart .series:not(.focus)").first().evaluate((g) => Number(getComputedStyle(g).opacity));
    assert.ok(faded < 0.5, `the other lines fade (opacity ${faded})`);
    const text = await caption.innerText();
    assert.ok(text.includes(sample.rules), text);
    for (const p of players) {
      const r = data.rows.find((x) => x.rules === sample.rules && x.player === p);
      assert.ok(text.includes(`${p} ${(100 * r.attackers_win_rate).toFixed(0)}%`), `${p} in ${text}`);
    }
    await page.screenshot({ path: `${SHOTS}/lab-picked.png` });

    // The same button again puts every line back.
    await pickButton.click();
    assert.equal(await pickButton.getAttribute("aria-pressed"), "false");
    assert.equal(await page.locator("#lab-chart .series.focus").count(), 0);
    assert.equal(await caption.innerText(), hint);

    // By keyboard: Tab reaches the legend, Enter picks, Space picks another.
    const other = ruleSets.find((r, k) => k >= 1 && r !== sample.rules);
    await page.locator(`button.series-pick[data-rules="${other}"]`).focus();
    await page.keyboard.press("Enter");
    assert.equal(await page.locator("#lab-chart .series.focus").getAttribute("data-rules"), other);
    assert.ok((await caption.innerText()).includes(other));
    await page.keyboard.press("Shift+Tab");
    const prev = await page.evaluate(() => document.activeElement.dataset.rules);
    await page.keyboard.press(" ");
    assert.equal(await page.locator("#lab-chart .series.focus").getAttribute("data-rules"), prev);
    assert.equal(await page.locator(`button.series-pick[data-rules="${other}"]`).getAttribute("aria-pressed"), "false");

    // A game from the table of every cell, not only from the summary: the
    // fold opens from the keyboard (Enter), and shuts again (Space).
    const fold = page.locator("#lab-every > summary");
    await fold.focus();
    await page.keyboard.press("Enter");
    await page.locator("#lab-table").waitFor();
    await page.keyboard.press(" ");
    await page.locator("#lab-table").waitFor({ state: "hidden" });
    await page.keyboard.press("Enter");
    const cellRow = data.rows[0];
    await page.locator(`#lab-table .play-rules[data-rules="${cellRow.rules}"]`).first().click();
    await page.waitForURL(/\/g\//);
    await waitState(page, () => !!window.agonState);
    assert.equal(await page.evaluate(() => window.agonState.rules), cellRow.rules);
  });
});

test("the Rules lab shows the near-even sets measured again, with their verdicts, and plays one", async () => {
  await withApp(async (server, browser) => {
    const data = await apiCall(server.url, "GET", "/api/balance");
    const checks = data.checks;
    assert.ok(checks && checks.rows.length > 0, "the check run is served");
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url + "/lab");
    const table = page.locator("#lab-checks");
    await table.waitFor();
    assert.equal(await table.locator("tbody tr").count(), checks.rows.length, "one row per rule set played again");
    // What the reader sees: each set's score with its interval, as worked out
    // here from the rows (a draw counts half), and the badge where it is even.
    const even = [];
    for (const r of checks.rows) {
      const row = table.locator(`tr[data-rules="${r.rules}"]`);
      const { score, balanced } = scoreOf([r]);
      if (balanced) even.push(r.rules);
      assert.ok((await row.innerText()).includes(`${(100 * score).toFixed(0)}% (`), r.rules);
      assert.equal(await row.locator(".badge").count(), balanced ? 1 : 0, r.rules);
    }
    assert.ok(even.length > 0, "some set is even at the strongest strength");
    // The main table and this one were pooled from later runs too: each
    // lists every command that made its games, not only the pooling one.
    const text = await page.locator("#main").innerText();
    for (const run of [data, checks]) {
      assert.ok((run.sources || []).length > 1, "pooled from several runs: " + run.command);
      for (const cmd of [run.command, ...run.sources]) assert.ok(text.includes(cmd), cmd);
    }
    // The further checks: one table per player (level 10's runs together),
    // every run's rows in it with their numbers as the API gives them, and
    // every run's command under it.
    const players = [...new Set((data.more_checks || []).map((more) => more.rows[0].player))];
    for (const more of data.more_checks || []) {
      const t2 = page.locator(`#lab-checks-${players.indexOf(more.rows[0].player) + 2}`);
      assert.ok((await t2.locator("caption").innerText()).includes(more.rows[0].player));
      assert.ok((await page.locator("#main").innerText()).includes(more.command), more.command);
      // Rows pooled from several runs name those runs too.
      for (const source of more.sources || []) {
        assert.ok((await page.locator("#main").innerText()).includes(source), source);
      }
      for (const r of more.rows) {
        const { score, balanced } = scoreOf([r]);
        const row = t2.locator(`tr[data-rules="${r.rules}"]`);
        assert.equal(await row.count(), 1, r.rules);
        assert.ok((await row.innerText()).includes(`${(100 * score).toFixed(0)}% (`), r.rules);
        assert.equal(await row.locator(".badge").count(), balanced ? 1 : 0, r.rules);
      }
    }
    assert.equal(await page.locator(`#lab-checks-${players.length + 2}`).count(), 0, "no table per run beyond one per player");
    // A caption says "N games each" only when it is true: level 10's table
    // pools runs of different lengths, so it points to the games column.
    for (const [k, player] of players.entries()) {
      const games = new Set((data.more_checks || []).filter((m) => m.rows[0].player === player).flatMap((m) => m.rows.map((r) => r.games)));
      const caption = await page.locator(`#lab-checks-${k + 2} caption`).innerText();
      if (games.size > 1) assert.ok(caption.includes("the number of games given for each") && !/\d+ games each/.test(caption), caption);
      else assert.ok(caption.includes(`${[...games][0]} games each`), caption);
    }
    assert.ok(await page.locator("#lab-checks caption").innerText().then((c) => /\d+ more games each/.test(c)), "the depth-8 checks: 400 each");
    assert.ok((data.more_checks || []).some((more) => (more.sources || []).length > 1), "a candidate played again is shown pooled, with its runs");
    assert.ok((data.more_checks || []).length > 0, "the level-10 check is shown");
    // The level-10 table's Play button starts a game under its set, too.
    const strong = data.more_checks[0].rows[0].rules;
    await page.locator(`#lab-checks-2 .play-rules[data-rules="${strong}"]`).click();
    await page.waitForURL(/\/g\//);
    await waitState(page, () => !!window.agonState);
    assert.equal(await page.evaluate(() => window.agonState.rules), strong);
    await page.goto(server.url + "/lab");
    await table.waitFor();
    assert.ok((await table.locator("caption").innerText()).includes(checks.rows[0].player));
    // Its Play button starts a game under that set.
    await table.locator(`.play-rules[data-rules="${even[0]}"]`).click();
    await page.waitForURL(/\/g\//);
    await waitState(page, () => !!window.agonState);
    assert.equal(await page.evaluate(() => window.agonState.rules), even[0]);
  });
});

test("the home page says how even the chosen rules are, and one click (or key) takes the lab's most even set", async () => {
  await withApp(async (server, browser) => {
    const data = await apiCall(server.url, "GET", "/api/balance");
    const players = [...new Set(data.rows.map((r) => r.player))].slice(-3);
    const pooled = (rules) => scoreOf(data.rows.filter((r) => r.rules === rules && players.includes(r.player)));
    // The set to suggest, worked out here: among the sets played again, the
    // balanced one closest to even.
    const even = data.checks.rows.filter((r) => scoreOf([r]).balanced)
      .sort((a, b) => Math.abs(scoreOf([a]).score - 0.5) - Math.abs(scoreOf([b]).score - 0.5))[0].rules;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url + "/new?lang=en");
    await page.locator("input[name=game][value=ringo]").check();
    const fair = page.locator("#fairness");
    await fair.locator("[data-lean]").waitFor();
    // classic: the attackers' game, in the lab's numbers.
    const classic = pooled("classic");
    assert.ok(classic.score > 0.9, "classic is the attackers' game");
    assert.match(await fair.innerText(), new RegExp(`looking 6 to 8 moves ahead \\(300 games\\), the attackers score ${(100 * classic.score).toFixed(0)}% under these rules`));
    assert.match(await fair.innerText(), /The attackers' game\./);
    assert.equal(await fair.locator("[data-lean]").getAttribute("data-lean"), "attackers");
    // globe: the defenders'.
    await page.locator("#preset").selectOption("globe");
    assert.match(await fair.innerText(), /the attackers score 0% under these rules.*The defenders' game\./s);
    // The suggestion, by mouse: the rule set and its options are set.
    const use = page.locator("#use-even");
    assert.equal(await use.getAttribute("data-rules"), even);
    await use.click();
    const [preset, ...changes] = even.split(",");
    assert.equal(await page.locator("#preset").inputValue(), preset);
    for (const c of changes) {
      const [k, v] = c.split("=");
      assert.equal(await page.locator(`#opt-${k}`).inputValue(), v, k);
    }
    await page.locator("#fairness .badge").waitFor();
    assert.equal(await fair.locator("[data-lean]").getAttribute("data-lean"), "even");
    assert.equal(await use.count(), 0, "no suggestion while the even set is chosen");
    assert.ok((await fair.innerText()).includes(`the attackers score ${(100 * pooled(even).score).toFixed(0)}%`));
    // An option changed to a set the lab never played: said so, and the
    // suggestion comes back; taken by keyboard this time.
    await page.locator("#options-fold > summary").click();
    await page.locator("#opt-defender-pass").selectOption("on");
    assert.equal(await fair.locator("[data-lean]").getAttribute("data-lean"), "unknown");
    assert.match(await fair.innerText(), /The Rules lab has not measured these rules\./);
    await use.focus();
    await page.keyboard.press("Enter");
    await page.locator("#fairness .badge").waitFor();
    assert.equal(await page.locator("#opt-defender-pass").inputValue(), "off");
    // The game starts under the even set.
    await page.locator("#start").click();
    await page.waitForURL(/\/g\//);
    await waitState(page, () => !!window.agonState);
    assert.equal(await page.evaluate(() => window.agonState.rules), even);
    // The link under the verdict opens the Rules lab.
    await page.goto(server.url + "/new?lang=en");
    await page.locator("#fair-lab").click();
    await page.waitForURL(/\/lab$/);
    await page.locator("#lab-summary").waitFor();
    // In French, the numbers and the colons as French writes them.
    await page.goto(server.url + "/new?lang=fr");
    await fair.locator("[data-lean]").waitFor();
    assert.match(await fair.innerText(), /les assaillants marquent 100\u00a0% avec ces règles \(intervalle à 95\u00a0%\u00a0: /);
  });
});

test("on a phone the Rules lab's tables become cards whose captions read across the screen", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(server.url + "/lab?lang=pl");
    await page.locator("#lab-checks-2").waitFor();
    // Each table shown as cards keeps its caption a line of text as wide as
    // the cards, not a column one word wide.
    for (const id of ["lab-summary", "lab-checks", "lab-checks-2"]) {
      const table = page.locator(`#${id}`);
      const caption = await table.locator("caption").boundingBox();
      const card = await table.locator("tbody tr").first().boundingBox();
      assert.ok(caption.width >= 0.9 * card.width, `${id}: caption ${caption.width}px wide, cards ${card.width}px`);
    }
    await page.screenshot({ path: `${SHOTS}/lab-phone.png`, fullPage: false });
    // The chart's axis reads at 11 px or more: the chart keeps its width and
    // scrolls sideways in its frame, not the page.
    const sizes = await page.locator("#lab-chart text.axis").evaluateAll((list) => list.map((t) => {
      const svg = t.ownerSVGElement;
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      return parseFloat(getComputedStyle(t).fontSize) * scale;
    }));
    assert.ok(sizes.length > 5 && sizes.every((px) => px >= 11), `axis text at ${sizes.map((px) => px.toFixed(1)).join(", ")} px`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 390), "the page itself does not scroll sideways");
    const frame = page.locator("#lab-chart-frame");
    const widths = await frame.evaluate((f) => [f.scrollWidth, f.clientWidth]);
    assert.ok(widths[0] > widths[1], `the chart scrolls in its frame: ${widths}`);
    // The last strength is off the screen at first; a finger's swipe (the
    // frame's own scroll) or the keyboard brings it in.
    const lastLabel = page.locator("#lab-chart text.axis").last();
    const onScreen = async () => { const b = await lastLabel.boundingBox(); return b.x + b.width <= 390; };
    assert.equal(await onScreen(), false);
    await frame.focus();
    for (let i = 0; i < 20; i++) await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => { const f = document.querySelector("#lab-chart-frame"); return f.scrollLeft + f.clientWidth >= f.scrollWidth - 1; });
    assert.equal(await onScreen(), true, "the keyboard scrolled the chart to its last strength");
    // The percentages stay at the frame's left edge, over the scrolled
    // chart, and read at 11 px or more: the lines on the right keep a scale.
    const fbox = await frame.boundingBox();
    const kept = await page.locator("#lab-chart-frame .chart-axis text").evaluateAll((list) => list.map((t) => {
      const b = t.getBoundingClientRect();
      return { text: t.textContent, left: b.left, right: b.right, px: parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getBoundingClientRect().width / t.ownerSVGElement.viewBox.baseVal.width };
    }));
    assert.deepEqual(kept.map((k) => k.text), ["0%", "25%", "50%", "75%", "100%"]);
    assert.ok(kept.every((k) => k.left >= fbox.x && k.right <= fbox.x + 60 && k.px >= 11), JSON.stringify(kept));
    // A screen reader names the frame it lands in, in the page's language.
    assert.equal(await frame.getAttribute("aria-label"), "Odsetek wygranych atakujących wobec siły graczy, jedna linia na zestaw zasad");
    // The forty rule-set buttons come folded on a phone; the fold opens by
    // a tap or the keyboard, and a button in it picks its line.
    const fold = page.locator("#lab-legend");
    const sets = await page.locator("button.series-pick").count();
    assert.ok(sets > 10);
    assert.equal(await fold.evaluate((d) => d.open), false);
    assert.equal(await page.locator("button.series-pick").first().isVisible(), false);
    assert.equal(await fold.locator("summary").innerText(), `Zestawy zasad (${sets}): wybierz jeden, by wyróżnić jego linię`);
    await fold.locator("summary").click();
    const first = page.locator("button.series-pick").first();
    await first.click();
    assert.equal(await first.getAttribute("aria-pressed"), "true");
    assert.equal(await page.locator("#lab-chart .series.focus").count(), 1);
    await fold.locator("summary").focus();
    await page.keyboard.press("Enter");
    assert.equal(await fold.evaluate((d) => d.open), false);
    await page.keyboard.press("Enter");
    assert.equal(await first.isVisible(), true);
  });
});
