// Learning and fairness on the home page, as a newcomer meets them: two
// people starting a Ringo game are steered to an even setting, and a
// handicap for players of unequal strength is chosen (by mouse and by
// keyboard) and lands in the game's rules.
import test from "node:test";
import assert from "node:assert/strict";
import { withApp, waitState, state, clickRingoCell, clickUrgammonMove, accountAs } from "./helpers.mjs";

test("two people are steered to an even set, and a chosen handicap is in the game's rules", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    await page.goto(server.url + "/new?lang=en");
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
    await page.goto(server.url + "/new?lang=pl");
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

test("words explained in place: Ishtar by keyboard, the neutral zone by a tap; the glossary and history in Polish and French", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    const ur = await (await fetch(server.url + "/api/games", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: "urgammon", opponent: "local" }) })).json();
    await page.goto(server.url + "/?lang=en");
    await page.evaluate(([id, t]) => localStorage.setItem("agon-token-" + id, t), [ur.id, ur.token]);
    await page.goto(server.url + "/g/" + ur.id);
    await waitState(page, () => !!window.agonState);
    // Ishtar, by keyboard: focus the word, Enter opens its explanation in
    // place, Escape closes it.
    const ishtar = page.locator('button[data-term="ishtar"]');
    await ishtar.focus();
    await page.keyboard.press("Enter");
    const tip = page.locator("#" + await ishtar.getAttribute("aria-controls"));
    await tip.waitFor();
    assert.match(await tip.innerText(), /A 4 on the chance die: the Polish rules call it Isztar/);
    assert.equal(await ishtar.getAttribute("aria-expanded"), "true");
    await page.keyboard.press("Escape");
    await tip.waitFor({ state: "hidden" });
    assert.equal(await ishtar.getAttribute("aria-expanded"), "false");
    // The explanation's link leads to the glossary, at the word.
    await page.keyboard.press("Space");
    await tip.locator("a").click();
    await page.waitForURL(/\/glossary#ishtar$/);
    await page.locator("dt#ishtar").waitFor();

    // On a phone, a tap opens the neutral zone's explanation on a Ringo game.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const ringo = await (await fetch(server.url + "/api/games", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: "ringo", opponent: "local" }) })).json();
    await phone.goto(server.url + "/");
    await phone.evaluate(([id, t]) => localStorage.setItem("agon-token-" + id, t), [ringo.id, ringo.token]);
    await phone.goto(server.url + "/g/" + ringo.id);
    await waitState(phone, () => !!window.agonState);
    const nz = phone.locator('button[data-term="neutral-zone"]');
    await nz.tap();
    await phone.locator("#" + await nz.getAttribute("aria-controls"), { hasText: "never captured" }).waitFor();

    // The glossary and the history, in Polish and in French.
    await page.goto(server.url + "/glossary?lang=pl");
    assert.equal(await page.locator("h1").innerText(), "Słowniczek");
    assert.equal(await page.locator("dt#ishtar").innerText(), "Isztar (4)");
    assert.match(await page.locator("dt#babylon + dd").innerText(), /nie wyprowadził do pałacu ani jednej bierki/);
    await page.locator("#history-link").click();
    await page.locator("h1", { hasText: "Skąd pochodzą gry" }).waitFor();
    assert.match(await page.locator("#history-ringo").locator("..").innerText(), /Discovering Old Board Games \(1973, jak podaje polski artykuł/);
    assert.match(await page.locator("main").innerText(), /Itti-Marduk-Balātu/);
    assert.equal(await page.locator('blockquote[lang="fr"]').count(), 1);
    await page.goto(server.url + "/history?lang=fr");
    await page.locator("h1", { hasText: "D'où viennent les jeux" }).waitFor();
    assert.match(await page.locator("main").innerText(), /Le Globe Joueur, fiche de règles du Ringo/);
    await page.locator("#glossary-link").click();
    await page.locator("h1", { hasText: "Glossaire" }).waitFor();
    assert.match(await page.locator("dt#babylon").innerText(), /Babylone \(4 points\)/);
  });
});

test("lessons: two of each game completed by mouse and keyboard, a wrong try explained, progress kept here and on the account", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url + "/?lang=en");
    // Signed in, so the progress follows the account.
    const signed = await accountAs(page, "signup", "uczen");
    assert.equal(signed, 201);
    await page.goto(server.url + "/new?lang=en");
    await page.locator("#account-link", { hasText: "uczen" }).waitFor();
    await page.locator("#learn-link").click();
    await page.locator("#learn-count-ringo", { hasText: "0 of 18 done" }).waitFor();
    await page.locator('[data-lesson="move-inward"] a').click();
    await waitState(page, () => window.agonState && window.agonState.moves?.length > 0);
    assert.match(await page.locator("#lesson-task").innerText(), /one ring closer to the fortress/);
    // The hint, by click.
    await page.locator("#lesson-hint-button").click();
    assert.match(await page.locator("#lesson-hint").innerText(), /the cell just inside/);
    const feedback = page.locator("#lesson-feedback");
    // The move, by keyboard: Tab into the board, pick b6, down, drop.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => !!document.activeElement.dataset.key)) break;
    }
    assert.equal(await page.evaluate(() => document.activeElement.dataset.key), "b6");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.dataset?.key === "b6");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    assert.match(await feedback.innerText(), /^Right! Attackers step inward/);
    assert.doesNotMatch(await feedback.innerText(), /Right: /);
    await waitState(page, () => window.agonState.history.length === 1);
    // The next lesson, by mouse: sideways along the ring.
    await page.locator("#lesson-next").click();
    await page.locator("#lesson-task", { hasText: "sideways" }).waitFor();
    await waitState(page, () => window.agonState && window.agonState.moves?.includes("c4-d4"));
    // A wrong try (inward, not sideways), by mouse: explained, and the
    // position is back.
    await clickRingoCell(page, "c4");
    await clickRingoCell(page, "c3");
    await page.locator('#lesson-feedback[data-result="wrong"]').waitFor();
    assert.match(await feedback.innerText(), /Not this time \(c4-c3\)\. That is not a sideways step/);
    assert.deepEqual((await state(page)).s.history, []);
    await clickRingoCell(page, "c4");
    await clickRingoCell(page, "d4");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    // Urgammon: entering a pawn, then the chance die.
    await page.goto(server.url + "/learn/urgammon/enter-pawn");
    await waitState(page, () => window.agonState && window.agonState.legal?.length > 0);
    await clickUrgammonMove(page, "P-2a", "l");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    await page.locator("#lesson-next").click();
    await page.locator("#lesson-task", { hasText: "shows 3" }).waitFor();
    await waitState(page, () => window.agonState && window.agonState.legal?.some((m) => m.notation === "2a-5"));
    await clickUrgammonMove(page, "2a-5", "l");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    // The list ticks them; another device signed in to the account too.
    await page.goto(server.url + "/learn");
    await page.locator("#learn-count-ringo", { hasText: "2 of 18 done" }).waitFor();
    // The games' sections are drawn one after the other: wait for Urgammon's
    // own count before counting its ticks.
    await page.locator("#learn-count-urgammon", { hasText: /^2 of \d+ done/ }).waitFor();
    assert.equal(await page.locator('#learn-urgammon [data-done="yes"]').count(), 2);
    const other = await (await browser.newContext()).newPage();
    await other.goto(server.url + "/?lang=pl");
    const login = await accountAs(other, "login", "uczen");
    assert.equal(login, 200);
    await other.goto(server.url + "/learn");
    await other.locator("h1", { hasText: "Naucz się gier" }).waitFor();
    await other.locator("#learn-count-ringo", { hasText: "ukończono 2 z 18" }).waitFor();
    assert.match(await other.locator('[data-lesson="move-inward"]').innerText(), /Atakujący idą do środka/);
  });
});

test("lessons say only what the rules do: a wrong capture and a wrong step answered apart, the neutral zone the only shelter, the last piece leaves dark a turn and scores a Babylon", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url + "/learn/ringo/fortress?lang=en");
    await waitState(page, () => window.agonState && window.agonState.moves?.includes("c1-F"));
    const feedback = page.locator("#lesson-feedback");
    // A capture that is not the task: called a capture.
    await clickRingoCell(page, "c1");
    await clickRingoCell(page, "e1");
    await page.locator('#lesson-feedback[data-result="wrong"]').waitFor();
    assert.match(await feedback.innerText(), /Not this time \(c1xe1\)\. That capture is legal, but the fortress is the attackers' goal/);
    // A step that captures nothing: never called a capture.
    await clickRingoCell(page, "g6");
    await clickRingoCell(page, "g5");
    await page.locator("#lesson-feedback", { hasText: "(g6-g5)" }).waitFor();
    const step = await feedback.innerText();
    assert.match(step, /leaves the fortress empty/);
    assert.doesNotMatch(step, /capture is legal/);
    await clickRingoCell(page, "c1");
    await clickRingoCell(page, "F");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    const done = await feedback.innerText();
    assert.match(done, /^Right! In: the fortress is the attackers' goal/);
    assert.match(done, /not safe yet/);
    assert.doesNotMatch(done, /never|stays there/);
    // The neutral zone: c3 is no shelter here (the defender on c2 jumps it).
    await page.goto(server.url + "/learn/ringo/neutral-zone?lang=en");
    await waitState(page, () => window.agonState && window.agonState.moves?.includes("b3-c3"));
    await clickRingoCell(page, "b3");
    await clickRingoCell(page, "c3");
    await page.locator('#lesson-feedback[data-result="wrong"]').waitFor();
    assert.match(await feedback.innerText(), /a defender can still jump one of your attackers/);
    await clickRingoCell(page, "b3");
    await clickRingoCell(page, "a3");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    // Repetition: the lesson's moves are played before it; the third
    // occurrence ends the game.
    await page.goto(server.url + "/learn/ringo/repetition?lang=en");
    await waitState(page, () => window.agonState && window.agonState.history?.length === 7);
    await clickRingoCell(page, "a1");
    await clickRingoCell(page, "b1");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    assert.match(await feedback.innerText(), /The same position a third time: the defenders win/);
    await waitState(page, () => window.agonState.status === "defenders-win");
    // Winning by blocking: the attackers had to pass; a pass by the
    // defenders ends the siege.
    await page.goto(server.url + "/learn/ringo/double-pass?lang=en");
    await waitState(page, () => window.agonState && window.agonState.moves?.includes("pass"));
    await page.locator("#lesson-pass").click();
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    assert.match(await feedback.innerText(), /Two passes in a row/);
    await waitState(page, () => window.agonState.status === "defenders-win");
    // Urgammon: the last piece home is not yet a win; the text says what
    // follows, and the page shows dark to play its compensation turn.
    await page.goto(server.url + "/learn/urgammon/last-piece?lang=en");
    await waitState(page, () => window.agonState && window.agonState.legal?.some((m) => m.notation === "12b-off"));
    // The roll the task names is on the die beside the board.
    assert.equal(await page.locator("#lesson-extra #chance-die").innerText(), "3");
    await clickUrgammonMove(page, "12b-off", "l");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    const last = await feedback.innerText();
    assert.match(last, /compensation turn/);
    assert.match(last, /Babylon: 4 points/);
    assert.doesNotMatch(last, /Won\./);
    await waitState(page, () => window.agonState.to_act === "dark" && window.agonState.last_turn === true && !window.agonState.result);
    // In Polish and French too.
    await page.goto(server.url + "/learn/urgammon/last-piece?lang=pl");
    await waitState(page, () => window.agonState && window.agonState.legal?.some((m) => m.notation === "12b-off"));
    await clickUrgammonMove(page, "12b-off", "l");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    assert.match(await feedback.innerText(), /turę wyrównawczą.*Babilon: 4 punkty/s);
    await page.goto(server.url + "/learn/urgammon/last-piece?lang=fr");
    await waitState(page, () => window.agonState && window.agonState.legal?.some((m) => m.notation === "12b-off"));
    await clickUrgammonMove(page, "12b-off", "l");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    assert.match(await feedback.innerText(), /tour de compensation.*Babylone : 4 points/s);
    // The forced verdict roll: no move for the 2, one for a promoted 6.
    await page.goto(server.url + "/learn/urgammon/forced-verdict?lang=en");
    await waitState(page, () => window.agonState && window.agonState.phase === "verdict");
    await page.locator("#lesson-verdict").click();
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    assert.match(await feedback.innerText(), /YES: the 2 became 6/);
    await waitState(page, () => window.agonState.phase === "move" && window.agonState.legal.some((m) => m.notation === "6-12a"));
    assert.equal(await page.locator("#lesson-verdict").isHidden(), true);
    // Who starts: the opening roll's lower side plays its value at once.
    await page.goto(server.url + "/learn/urgammon/opening-roll?lang=en");
    await waitState(page, () => window.agonState && window.agonState.legal?.some((m) => m.notation === "P-2b"));
    assert.equal(await page.locator("#lesson-extra #chance-die").innerText(), "2");
    await clickUrgammonMove(page, "P-2b", "d");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    await waitState(page, () => window.agonState.starter === "dark" && window.agonState.to_act === "light");
    // The next lesson, by its button: dark plays its compensation turn and
    // draws; then each score, played to its end with its points.
    await page.goto(server.url + "/learn/urgammon/last-piece?lang=en");
    await waitState(page, () => window.agonState && window.agonState.legal?.some((m) => m.notation === "12b-off"));
    await clickUrgammonMove(page, "12b-off", "l");
    await page.locator("#lesson-next").click();
    await page.locator("#lesson-task", { hasText: "compensation turn" }).waitFor();
    await waitState(page, () => window.agonState && window.agonState.legal?.some((m) => m.notation === "12a-off"));
    assert.equal(await page.locator("#lesson-extra #chance-die").innerText(), "1");
    await clickUrgammonMove(page, "12a-off", "d");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    assert.match(await feedback.innerText(), /the game is a draw and scores nothing/);
    await waitState(page, () => window.agonState.result?.kind === "draw");
    for (const [id, text] of [["score-plain", /a plain win, 1 point/], ["score-streets", /dogs in the streets, 2 points/], ["score-waiting", /dogs in the waiting area, 3 points/]]) {
      await page.locator("#lesson-next").click();
      await page.waitForURL(new RegExp(id + "$"));
      await waitState(page, () => window.agonState && window.agonState.legal?.some((m) => m.notation === "13b-off"));
      await clickUrgammonMove(page, "13b-off", "l");
      await page.locator('#lesson-feedback[data-result="right"]').waitFor();
      assert.match(await feedback.innerText(), text);
      await waitState(page, () => window.agonState.result?.winner === "light");
    }
    // The end of a match: the score before, the game won, the score after
    // and what the loser pays.
    await page.locator("#lesson-next").click();
    await page.waitForURL(/match-end$/);
    assert.match(await page.locator("#lesson-match").innerText(), /Match to 7 points, 10 a point\. Light 5, dark 4\./);
    await waitState(page, () => window.agonState && window.agonState.legal?.some((m) => m.notation === "13b-off"));
    await clickUrgammonMove(page, "13b-off", "l");
    await page.locator('#lesson-feedback[data-result="right"]').waitFor();
    assert.match(await feedback.innerText(), /\(7 − 4\) × 10 = 30 shekels/);
    assert.match(await page.locator("#lesson-match").innerText(), /Match over: light 7, dark 4\. Light wins the match; the loser pays 30\./);
    await waitState(page, () => window.agonState.result?.points === 2);
  });
});

test("words explained in place on a lesson and on /rules by keyboard; a glossary rule opens its position on the analysis board", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    // A lesson: its words row, the neutral zone opened by Tab and Enter.
    await page.goto(server.url + "/learn/ringo/neutral-zone?lang=en");
    await waitState(page, () => window.agonState && window.agonState.moves?.length > 0);
    const nz = page.locator('#lesson-task ~ .terms button[data-term="neutral-zone"]');
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => document.activeElement?.dataset?.term === "neutral-zone")) break;
    }
    assert.equal(await page.evaluate(() => document.activeElement.dataset.term), "neutral-zone");
    await page.keyboard.press("Enter");
    const tip = page.locator("#" + await nz.getAttribute("aria-controls"));
    await tip.waitFor();
    assert.match(await tip.innerText(), /never captured/);
    await page.keyboard.press("Escape");
    await tip.waitFor({ state: "hidden" });
    // An Urgammon lesson names its own words.
    await page.goto(server.url + "/learn/urgammon/score-streets?lang=en");
    await page.locator('.terms button[data-term="streets"]').waitFor();
    assert.equal(await page.locator('.terms button[data-term="lower-city"]').count(), 1);
    // The rules page: every word of both games, by keyboard.
    await page.goto(server.url + "/rules?lang=en");
    const gate = page.locator('#rules-urgammon .terms button[data-term="gates"]');
    await gate.waitFor();
    for (let i = 0; i < 200; i++) {
      await page.keyboard.press("Tab");
      if (await page.evaluate(() => document.activeElement?.dataset?.term === "gates")) break;
    }
    await page.keyboard.press("Enter");
    const gateTip = page.locator("#" + await gate.getAttribute("aria-controls"));
    await gateTip.waitFor();
    assert.match(await gateTip.innerText(), /12b is light's gate, 12a dark's/);
    assert.equal(await page.locator('#rules-ringo .terms button[data-term="fortress"]').count(), 1);
    // The glossary: a rule shown on the board, where the engine plays it.
    await page.goto(server.url + "/glossary?lang=en");
    await page.locator('a[data-example="babylon"]').click();
    await page.waitForURL(/\/analysis\?/);
    await waitState(page, () => window.agonState?.result?.kind === "babylon" && window.agonState.result.points === 4);
    await page.goto(server.url + "/glossary?lang=fr");
    await page.locator('a[data-example="fortress"]', { hasText: "Voir sur le plateau" }).click();
    await waitState(page, () => window.agonState?.status === "attackers-win");
    // A name (no rule) has no position.
    await page.goto(server.url + "/glossary?lang=en");
    assert.equal(await page.locator("dt#astragalus").innerText(), "Astragalus");
    assert.equal(await page.locator('a[data-example="astragalus"]').count(), 0, "a name has no position");
    // A puzzle shows its game's words, opened in place.
    await page.goto(server.url + "/puzzles?lang=en");
    const word = page.locator("#puzzle-words .terms button").first();
    await word.waitFor();
    await word.click();
    await page.locator("#" + await word.getAttribute("aria-controls")).waitFor();
  });
});

test("the strategy guide: reached from the lessons, each piece of advice with its board, and its positions open on the analysis board", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(server.url + "/learn?lang=en");
    await page.locator("#learn-strategy").click();
    await page.waitForURL(/\/strategy$/);
    await page.locator("h1", { hasText: "Strategy" }).waitFor();
    // Three phases for each game, each with its board drawn.
    for (const game of ["ringo", "urgammon"]) {
      const phases = await page.locator(`#strategy-${game} article`).evaluateAll((a) => a.map((x) => x.dataset.phase));
      assert.deepEqual([...new Set(phases)].sort(), ["endings", "middle", "opening"]);
    }
    await page.locator("#attack-neutral-zone figure svg").waitFor();
    assert.match(await page.locator("#attack-neutral-zone").innerText(), /Source: The Polish article/);
    // Ringo: the neutral zone advice, played from on the analysis board.
    await page.locator('a[data-strategy="attack-neutral-zone"]').click();
    await page.waitForURL(/\/analysis\?/);
    await waitState(page, () => window.agonState?.moves?.includes("b3-a3") && window.agonState.moves.includes("b3-c3"));
    await clickRingoCell(page, "b3");
    await clickRingoCell(page, "a3");
    await waitState(page, () => window.agonState.history?.length === 1);
    // Urgammon: the middle rosette, in Polish.
    await page.goto(server.url + "/strategy?lang=pl");
    await page.locator("h1", { hasText: "Strategia" }).waitFor();
    await page.locator('a[data-strategy="middle-rosette"]').click();
    await page.waitForURL(/\/analysis\?/);
    await waitState(page, () => window.agonState?.legal?.some((m) => m.notation === "6-8"));
    // Urgammon: losing the race; the board says its values are exact,
    // and the verdict die costs a whole point (issue 87).
    await page.goto(server.url + "/strategy?lang=en");
    await page.locator('a[data-strategy="ending-one-home"]').click();
    await page.waitForURL(/\/analysis\?/);
    await page.locator("#exact-note").waitFor();
    assert.match(await page.locator("#exact-note").innerText(), /^Exact values: every line is played out/);
    assert.match(await page.locator('#options tr[data-option="13b-off"] td').nth(1).innerText(), /^[−-]3$/);
    assert.match(await page.locator('#options tr[data-option="verdict"] td').nth(1).innerText(), /^[−-]4$/);
    // A lesson links to its game's part of the guide.
    await page.goto(server.url + "/learn/urgammon/rosette?lang=en");
    await page.locator("#lesson-strategy").click();
    await page.waitForURL(/\/strategy#strategy-urgammon$/);
  });
});
