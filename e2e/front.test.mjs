// What a newcomer tripped on at the front door, each as she meets it: the
// home page's rule-set card printed "null", a server error was shown twice,
// the lobby never said what 5+3 means, a finished game said "● live", a
// clock read "Defenders10:00", and the leaderboard never said when a
// provisional "?" goes. (A wrong puzzle try that gave the answer away is in
// puzzles.test.mjs, the flag's words in live.test.mjs.)
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, accountAs, apiCall, openAsPlayer, waitState } from "./helpers.mjs";

test("the home page's rule-set card never prints null, in three languages, for every opponent", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    for (const lang of ["en", "pl", "fr"]) {
      await page.goto(server.url + "/new?lang=" + lang);
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

test("a one-minute game is on the watch page once both are seated, and still after its first moves", async () => {
  await withApp(async (server, browser) => {
    const g = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers", clock: { base_secs: 60, increment_secs: 0 } });
    const j = await apiCall(server.url, "POST", `/api/games/${g.id}/join`, { invite: g.invite });
    const tokens = [g.token, j.token];
    const page = await browser.newPage();
    await page.goto(server.url + "/watch?lang=en");
    await page.locator(`#watch-list li[data-live="${g.id}"]`).waitFor();
    for (let ply = 0; ply < 2; ply++) {
      const s = (await apiCall(server.url, "GET", `/api/games/${g.id}`)).state;
      await apiCall(server.url, "POST", `/api/games/${g.id}/action`, { type: "move", move: s.moves[0] }, tokens[s.seat_to_act]);
      await page.reload();
      await page.locator(`#watch-list li[data-live="${g.id}"]`).waitFor();
    }
  });
});

test("no two quick-pairing tiles have one title: the title says what differs, and so does the wait", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    const want = { en: ["Ringo 5+3 · classic", "Ringo 5+3 · most even"], fr: ["Ringo 5+3 · classic", "Ringo 5+3 · le plus équilibré"] };
    for (const lang of ["en", "fr"]) {
      await page.goto(server.url + "/?lang=" + lang);
      await page.locator("button.pool").first().waitFor();
      const titles = await page.locator("button.pool b").allInnerTexts();
      assert.equal(new Set(titles).size, titles.length, `${lang}: ${titles.join(" | ")}`);
      assert.equal(await page.locator("#pool-ringo-classic-5\\+3 b").innerText(), want[lang][0]);
      assert.equal(await page.locator("#pool-ringo-even-5\\+3 b").innerText(), want[lang][1]);
    }
    // Waiting in one, the page says which.
    await page.goto(server.url + "/?lang=en");
    await page.locator("#pool-ringo-even-5\\+3").click();
    await page.locator("#pool-waiting", { hasText: "Ringo 5+3 · most even" }).waitFor();
    await page.locator("#pool-cancel").click();
  });
});

test("a finished game's page says it is up to date, not live; a clock's side and time read apart", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    // A clocked friend game at 10+5, the invite taken: both clocks shown.
    const g = await apiCall(server.url, "POST", "/api/games",
      { game: "ringo", opponent: "friend", side: "attackers", clock: { base_secs: 600, increment_secs: 5 } });
    await apiCall(server.url, "POST", `/api/games/${g.id}/join`, { invite: g.invite });
    await page.goto(server.url + "/new?lang=en");
    await openAsPlayer(page, server.url, g);
    await page.locator("#conn:not(.off)").waitFor();
    assert.equal(await page.locator("#conn").innerText(), "● up to date");
    // Its text (what is copied, and read where the box's label is not):
    // the side, a space, the time; and a gap between them on the screen.
    assert.equal(await page.locator("#clock-1").textContent(), "Defenders 10:00");
    const gap = await page.locator("#clock-1").evaluate((e) => {
      const [side, time] = [e.querySelector(".clock-side"), e.querySelector(".clock-time")].map((x) => x.getBoundingClientRect());
      return time.left - side.right;
    });
    assert.ok(gap >= 6, `${gap} px between the side and the time`);
    // Resigned: the page still follows the game (chat, review), and says
    // nothing of a live game.
    await apiCall(server.url, "POST", `/api/games/${g.id}/action`, { type: "resign" }, g.token);
    await page.waitForFunction(() => window.agonState.over);
    assert.doesNotMatch(await page.locator("main").innerText(), /● live/);
    for (const [lang, words] of [["pl", "● aktualne"], ["fr", "● à jour"]]) {
      await page.goto(`${server.url}/g/${g.id}?lang=${lang}`);
      await page.locator("#conn:not(.off)").waitFor();
      assert.equal(await page.locator("#conn").innerText(), words);
    }
  });
});

test("the leaderboard says when a provisional rating settles, in three languages", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    const words = { en: /about 5 rated Ringo pairs or 4 Urgammon matches to 7/, pl: /około 5 rankingowych par Ringo albo 4 mecze Urgammon do 7/,
      fr: /environ 5 paires classées de Ringo ou 4 matchs d.Urgammon en 7/ };
    for (const lang of ["en", "pl", "fr"]) {
      await page.goto(`${server.url}/leaderboard?lang=${lang}`);
      await page.locator("main h1").waitFor();
      assert.match(await page.locator("main").innerText(), words[lang]);
    }
  });
});

test("the menu's Your-turn count reads clearly on the header, on a desktop and on a phone", async () => {
  await withApp(async (server, browser) => {
    // A friend game whose first move is hers.
    const g = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers" });
    await apiCall(server.url, "POST", `/api/games/${g.id}/join`, { invite: g.invite });
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const page = await (await browser.newContext({ viewport })).newPage();
      await page.goto(server.url + "/?lang=en");
      await page.evaluate(([id, t]) => localStorage.setItem("agon-token-" + id, t), [g.id, g.token]);
      await page.goto(server.url + "/?lang=en");
      await page.locator("#turns-link:not([hidden])").waitFor();
      assert.equal(await page.locator("#turns-count").innerText(), "1");
      const ratio = await page.locator("#turns-count").evaluate((e) => {
        const rgb = (c) => c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
        const lum = (c) => {
          const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        // The colour behind the figures: the first ancestor that paints one.
        let bg = e;
        while (bg && /rgba\(0, 0, 0, 0\)|transparent/.test(getComputedStyle(bg).backgroundColor)) bg = bg.parentElement;
        const [x, y] = [lum(getComputedStyle(e).color), lum(getComputedStyle(bg).backgroundColor)];
        return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
      });
      assert.ok(ratio >= 4.5, `${viewport.width} px: contrast ${ratio.toFixed(2)}:1`);
      const box = await page.locator("#turns-count").boundingBox();
      assert.ok(box.width >= 16 && box.height >= 16, `a count one can see: ${JSON.stringify(box)}`);
      await page.context().close();
    }
  });
});

test("a seek one cannot take says why instead of offering Play: rated to a guest, a rating range to a player outside it", async () => {
  await withApp(async (server, browser) => {
    const ann = await (await browser.newContext()).newPage();
    await ann.goto(server.url + "/?lang=en");
    assert.equal(await accountAs(ann, "signup", "ann"), 201);
    const post = (body) => ann.evaluate((b) => fetch("/api/seeks", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify(b) }).then((r) => r.status), body);
    assert.equal(await post({ game: "ringo", rules: "classic", clock: { base_secs: 300, increment_secs: 3 }, rated: true }), 201);
    assert.equal(await post({ game: "urgammon", to: 3, clock: { base_secs: 300, increment_secs: 3 }, rating_min: 1600, rating_max: 1800 }), 201);
    // A guest: neither seek offers Play; each says what to do.
    const guest = await (await browser.newContext()).newPage();
    await guest.goto(server.url + "/lobby?lang=en");
    await guest.locator("#seeks tbody tr").nth(1).waitFor();
    assert.equal(await guest.locator("#seeks .seek-accept").count(), 0);
    const said = await guest.locator("#seeks .seek-barred").allInnerTexts();
    assert.deepEqual(said.sort(), ["Sign in to play it rated", "Sign in: it asks for a rating range"]);
    // A signed-in player rated 1500: the rated seek is hers to take; the
    // ranged one says her rating is outside.
    const bob = await (await browser.newContext()).newPage();
    await bob.goto(server.url + "/?lang=en");
    assert.equal(await accountAs(bob, "signup", "bob"), 201);
    await bob.goto(server.url + "/lobby?lang=en");
    await bob.locator("#seeks tbody tr").nth(1).waitFor();
    assert.equal(await bob.locator("#seeks .seek-accept").count(), 1);
    assert.equal(await bob.locator("#seeks .seek-barred").innerText(), "Your rating (1500) is outside its range");
    // The one she may take, she takes.
    await bob.locator("#seeks .seek-accept").click();
    await bob.waitForURL(/\/g\/[a-z0-9]+$/);
  });
});

test("on a phone the lobby's seeks fit the screen with Play on it, and recovery codes never break", async () => {
  await withApp(async (server, browser) => {
    const ann = await (await browser.newContext()).newPage();
    await ann.goto(server.url + "/?lang=en");
    await ann.evaluate(() => fetch("/api/seeks", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: "ringo", rules: "classic", clock: { base_secs: 300, increment_secs: 3 }, side: "defenders" }) }));
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    for (const lang of ["en", "pl", "fr"]) {
      await phone.goto(`${server.url}/lobby?lang=${lang}`);
      const play = phone.locator("#seeks .seek-accept");
      await play.waitFor();
      await play.scrollIntoViewIfNeeded();
      const box = await play.boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.height >= 44, `${lang}: Play on the screen: ${JSON.stringify(box)}`);
      assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${lang}: no sideways scroll`);
      // Each cell says what it is, the table's headers being off screen.
      const labels = await phone.locator("#seeks tbody tr").first().locator("td").evaluateAll((tds) =>
        tds.map((td) => getComputedStyle(td, "::before").content));
      if (lang === "en") assert.equal(labels[3], '"Clock: "');
      assert.ok(labels.slice(0, 6).every((l) => l.length > 4), `${lang}: ${labels}`);
    }
    // Recovery codes, just signed up on the phone: one line each.
    await phone.goto(server.url + "/account?lang=en");
    await phone.locator("#signup-name").fill("ola");
    await phone.locator("#signup-password").fill("correct horse battery");
    await phone.locator("#signup-submit").click();
    await phone.locator("#recovery-codes li").nth(9).waitFor();
    const heights = await phone.locator("#recovery-codes code").evaluateAll((cs) =>
      cs.map((c) => [c.getClientRects().length, c.textContent]));
    for (const [lines, code] of heights) assert.equal(lines, 1, `${code} on one line`);
  });
});

test("Tab from the header goes straight to a board's cell, on both boards: the board itself is no Tab stop", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    for (const game of ["ringo", "urgammon"]) {
      const g = await apiCall(server.url, "POST", "/api/games", { game, opponent: "local" });
      await openAsPlayer(page, server.url, g);
      await page.locator("svg.board [data-key]").first().waitFor();
      await page.locator("#lang").focus();
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => ({
        tag: document.activeElement.tagName,
        key: document.activeElement.getAttribute("data-key"),
      }));
      assert.notEqual(focused.tag, "svg", `${game}: the board svg took a Tab stop`);
      assert.ok(focused.key, `${game}: Tab lands on a cell, not ${focused.tag}`);
      // And the cell it lands on plays: Enter picks it up or says why not.
      await page.keyboard.press("ArrowRight");
      const moved = await page.evaluate(() => document.activeElement.getAttribute("data-key"));
      assert.ok(moved, `${game}: arrow keys move between cells`);
    }
  });
});

test("the games list names the opponent of a game between people as it is: a friend still to come, then another player", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    const waiting = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers" });
    const met = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers" });
    await apiCall(server.url, "POST", `/api/games/${met.id}/join`, { invite: met.invite });
    await page.goto(server.url + "/new");
    await page.evaluate((gs) => gs.forEach((g) => localStorage.setItem("agon-token-" + g.id, g.token)), [waiting, met]);
    const opponent = (g) => page.locator(`#own-games tr[data-game="${g.id}"] td[data-label]`).nth(2);
    for (const [lang, friend, person] of [["en", "A friend (invite link)", "Another player"], ["pl", "Znajomy (link z zaproszeniem)", "Inny gracz"]]) {
      await page.goto(server.url + "/games?lang=" + lang);
      await page.locator(`#own-games tr[data-game="${met.id}"]`).waitFor();
      assert.equal(await opponent(waiting).innerText(), friend, `${lang}: the seat still free`);
      assert.equal(await opponent(met).innerText(), person, `${lang}: both seats taken`);
    }
  });
});

test("signed out, the header counts none of the account's turns and the browser plays none of its games; signed in again, they are back", async () => {
  await withApp(async (server, browser) => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(server.url + "/?lang=en");
    assert.equal(await accountAs(page, "signup", "ala"), 201);
    // A friend game made signed in, her seat's token kept by this browser
    // as the home page keeps it; Ola joins: Ala's turn.
    const g = await page.evaluate(async () => {
      const r = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ game: "ringo", opponent: "friend", side: "attackers" }) });
      const g = await r.json();
      localStorage.setItem("agon-token-" + g.id, g.token);
      return g;
    });
    await apiCall(server.url, "POST", `/api/games/${g.id}/join`, { invite: g.invite });
    await page.goto(server.url + "/account?lang=en");
    await page.locator("#turns-link:not([hidden]) #turns-count", { hasText: "1" }).waitFor();
    await page.locator("#signout").click();
    await page.locator("#signin").waitFor();
    await page.locator("#turns-link[hidden]").waitFor({ state: "attached" });
    assert.equal(await page.evaluate((id) => localStorage.getItem("agon-token-" + id), g.id), null, "the seat's token is gone");
    // Her game, opened here signed out, is watched, not played.
    await page.goto(`${server.url}/g/${g.id}?lang=en`);
    await waitState(page, () => !!window.agonState);
    assert.deepEqual(await page.evaluate(() => window.agonYou), []);
    // Signed in again: the account holds the seat, and the count is back.
    assert.equal(await accountAs(page, "login", "ala"), 200);
    await page.goto(server.url + "/?lang=en");
    await page.locator("#turns-link:not([hidden]) #turns-count", { hasText: "1" }).waitFor();
  });
});

test("a live game in the Your-turn list says it is live, its clock and the time left on hers, in English and French", async () => {
  await withApp(async (server, browser) => {
    const g = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers", clock: { base_secs: 300, increment_secs: 3 } });
    await apiCall(server.url, "POST", `/api/games/${g.id}/join`, { invite: g.invite });
    const page = await browser.newPage();
    await page.goto(server.url + "/");
    await page.evaluate(([id, t]) => localStorage.setItem("agon-token-" + id, t), [g.id, g.token]);
    for (const [lang, live, left] of [["en", "live 5+3", "5:00 on your clock"], ["fr", "en direct 5+3", /5:00\sà votre pendule/]]) {
      await page.goto(server.url + "/?lang=" + lang);
      const item = page.locator(`#your-turn-list [data-turn="${g.id}"]`);
      await item.waitFor();
      const text = await item.innerText();
      assert.ok(text.includes(live), `${lang}: ${text}`);
      assert.match(text, typeof left === "string" ? new RegExp(left) : left, `${lang}: ${text}`);
    }
  });
});

test("the rule set's menu says when its options changed; a handicap is named in full and no suggestion undoes it", async () => {
  await withApp(async (server, browser) => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(server.url + "/new?lang=en");
    await page.locator('input[name="game"][value="ringo"]').check();
    await page.locator("#fairness [data-lean]").waitFor();
    const shown = () => page.locator("#preset").evaluate((s) => s.options[s.selectedIndex].text);
    assert.match(await shown(), /^classic — the Polish rules/);
    // A friend game is steered to the most even set: the menu no longer
    // says plain "classic", and the rules are spelt out under it.
    await page.locator('input[name="opponent"][value="friend"]').check();
    await page.locator("#fair-steer").waitFor();
    const preset = await page.locator("#preset").inputValue();
    assert.equal(await shown(), `${preset} — changed (see below)`);
    assert.match(await page.locator("#preset-help").innerText(), new RegExp(`^These rules: ${preset} · `));
    // A handicap, by mouse: no "use these rules" to undo it, its whole name
    // under the menu, and the menu wide enough for it on a desktop.
    await page.locator("#handicap").selectOption("no-fortress-capture");
    await page.locator("#fair-handicap", { hasText: "uneven on purpose" }).waitFor();
    assert.equal(await page.locator("#use-even").count(), 0);
    assert.equal(await page.locator("#handicap-help").innerText(),
      "Chosen: No capture in the fortress (helps the attackers). One rule changed in favour of the weaker side.");
    const fits = await page.locator("#handicap").evaluate((s) => {
      const c = document.createElement("canvas").getContext("2d");
      c.font = getComputedStyle(s).font;
      const longest = Math.max(...[...s.options].map((o) => c.measureText(o.text).width));
      return { longest, room: s.clientWidth - 30 };
    });
    assert.ok(fits.longest <= fits.room, `the longest handicap (${fits.longest} px) fits the menu (${fits.room} px)`);
    // Back to no handicap: the suggestion may come back.
    await page.locator("#handicap").selectOption("");
    assert.equal(await page.locator("#fair-handicap").count(), 0);
  });
});

test("a seek offers the most even rule set first, as quick pairing plays it; the other player sees it and the game plays it", async () => {
  await withApp(async (server, browser) => {
    const { ringo } = await apiCall(server.url, "GET", "/api/meta");
    const ann = await (await browser.newContext()).newPage();
    const ben = await (await browser.newContext()).newPage();
    await ann.goto(server.url + "/lobby?lang=en");
    await ann.locator("#seek-game").selectOption("ringo");
    // The first choice, and the one chosen: the even pools' set, in words.
    assert.equal(await ann.locator("#seek-rules").inputValue(), ringo.even_rules);
    const label = await ann.locator("#seek-rules option").first().innerText();
    assert.match(label, /^the most even set — classic · /);
    await ann.locator("#seek-create").click();
    await ann.locator("#seeks tr.mine").waitFor();
    await ben.goto(server.url + "/lobby?lang=en");
    const row = ben.locator("#seeks tbody tr").first();
    await row.waitFor();
    assert.match(await row.innerText(), /Rings: 5/);
    await row.locator(".seek-accept").click();
    await ben.waitForURL(/\/g\/[a-z0-9]+$/);
    await waitState(ben, () => window.agonState && window.agonYou.length === 1);
    assert.equal(await ben.evaluate(() => window.agonState.rules), ringo.even_rules);
  });
});
