// WCAG 2.1 AA in the browser: axe-core over every kind of page, with no
// serious or critical violation; and every page usable on a phone
// (390×844) without horizontal scrolling, with touch targets of 44 px.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { withApp, waitState, apiCall, SHOTS } from "./helpers.mjs";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Two finished-enough games to show: a Ringo game and an Urgammon match,
 *  each long enough that its move lists scroll (a short list hid that a
 *  scrolling list could not be reached by the keyboard). */
async function someGames(url) {
  const ringo = await apiCall(url, "POST", "/api/games", { game: "ringo", opponent: "local" });
  let r = ringo.state;
  for (let i = 0; i < 40 && !r.over; i++) {
    const move = r.moves[(i * 7) % r.moves.length];
    r = (await apiCall(url, "POST", `/api/games/${ringo.id}/action`, { type: "move", move }, ringo.token)).state;
  }
  const ur = await apiCall(url, "POST", "/api/games", { game: "urgammon", opponent: "local", to: 3, stake: "5" });
  let s = ur.state;
  for (let i = 0; i < 80 && !s.over; i++) {
    const action = s.between_games ? { type: "next" } : s.phase === "roll" ? { type: "roll" }
      : s.moves.length ? { type: "move", move: s.moves[0] } : { type: "verdict" };
    s = (await apiCall(url, "POST", `/api/games/${ur.id}/action`, action, ur.token)).state;
  }
  // Both finished, so both can be reviewed.
  if (!r.over) await apiCall(url, "POST", `/api/games/${ringo.id}/action`, { type: "resign" }, ringo.token);
  if (!s.over) await apiCall(url, "POST", `/api/games/${ur.id}/action`, { type: "resign" }, ur.token);
  // An unfinished game of the browser's own: the home page offers it, and
  // the games list shows it under "Your games".
  const mine = await apiCall(url, "POST", "/api/games", { game: "ringo", opponent: "engine", level: 3, side: "defenders" });
  return { ringo, ur, mine };
}

/** Gives `page`'s browser the seat token of `g.mine`, as after starting it there. */
async function adopt(page, url, g) {
  await page.goto(url + "/no/such/page");
  await page.evaluate(([id, token]) => localStorage.setItem("agon-token-" + id, token), [g.mine.id, g.mine.token]);
}

function pages(g) {
  return [
    ["home", "/", "#resume a"],
    ["new game", "/new", "#start"],
    ["home-urgammon", "/new", "#start"],
    ["games in play", "/watch", "#watch-list > *"],
    ["players online", "/players", "#players-list > *"],
    ["leaderboard", "/leaderboard", "#leaders-urgammon"],
    ["account", "/account", "h1"],
    ["ringo game", `/g/${g.ringo.id}`, "svg.board"],
    ["urgammon game", `/g/${g.ur.id}`, "svg.board"],
    ["games list", "/games", "#own-games"],
    ["rules", "/rules", "#rules-ringo"],
    ["ringo replay", `/replay/${g.ringo.id}`, "#replay-ply"],
    ["urgammon replay", `/replay/${g.ur.id}`, "#replay-ply"],
    ["not found", "/no/such/page", "#not-found"],
    ["ringo review", `/review/${g.ringo.id}`, "#review-summary"],
    ["rules lab", "/lab", "#lab-every"],
    ["ringo analysis", "/analysis?game=ringo&moves=b6-b5&depth=3", "#best"],
    ["urgammon analysis", "/analysis?game=urgammon&record=start:2-3&level=4", "#position-eval"],
    ["urgammon review", `/review/${g.ur.id}`, "#review-summary"],
    ["lobby", "/lobby", "#seek-create"],
    ["live game", "/g/LIVE", "#clock-0"],
    ["glossary", "/glossary", "dt#ishtar"],
    ["history", "/history", "#history-urgammon"],
    ["lessons", "/learn", "#learn-urgammon"],
    ["ringo lesson", "/learn/ringo/capture", "svg.board"],
    ["urgammon lesson", "/learn/urgammon/rosette", "svg.board"],
    ["strategy", "/strategy", "#ending-one-home figure svg"],
    ["ringo puzzle", "/puzzles/r-encyclopedia-0001", "svg.board"],
    ["urgammon puzzle", "/puzzles/u-0001", "svg.board"],
  ];
}

async function open(page, url, name, path, ready) {
  // Someone waiting in the lobby, and a live game in play, made just before
  // they are looked at (a seek lapses, a first move is awaited 30 s).
  if (name === "lobby") await apiCall(url, "POST", "/api/seeks", { game: "ringo", clock: { base_secs: 300, increment_secs: 3 } });
  if (name === "live game") {
    const live = await apiCall(url, "POST", "/api/games", { game: "ringo", opponent: "friend", side: "attackers", clock: { base_secs: 300, increment_secs: 3 } });
    await apiCall(url, "POST", `/api/games/${live.id}/join`, { invite: live.invite });
    await page.goto(url + "/");
    await page.evaluate(([id, t]) => localStorage.setItem("agon-token-" + id, t), [live.id, live.token]);
    path = "/g/" + live.id;
  }
  await page.goto(url + path);
  if (name === "home-urgammon") await page.locator("input[name=game][value=urgammon]").check();
  await page.locator(ready).first().waitFor({ timeout: 120000 });
  // The lab's table of every cell is folded; unfolded, it is checked too.
  if (name === "rules lab") {
    await page.locator("#lab-every > summary").click();
    await page.locator("#lab-table").waitFor();
  }
  if (path.startsWith("/g/")) await waitState(page, () => !!window.agonState);
}

test("axe-core finds no serious or critical violation, nor an empty table header, on any page, in every language", async () => {
  await withApp(async (server, browser) => {
    const g = await someGames(server.url);
    // The page's policy allows no inline script; axe is injected around it.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await adopt(page, server.url, g);
    const found = [];
    for (const lang of ["en", "pl", "fr"]) {
      for (const [name, path, ready] of pages(g)) {
        await open(page, server.url, name, path + (path.includes("?") ? "&" : "?") + "lang=" + lang, ready);
        await page.evaluate(axeSource);
        const result = await page.evaluate(() => window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } }));
        for (const v of result.violations) {
          // Serious and worse, and the minor ones a newcomer's audit named
          // (a table header with nothing to say to a screen reader).
          if (v.impact === "serious" || v.impact === "critical" || v.id === "empty-table-header") {
            found.push(`${lang} ${name}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
          }
        }
      }
    }
    assert.deepEqual(found, [], found.join("\n"));
  });
});

test("every page fits a phone: no horizontal scroll, touch targets of 44 px", async () => {
  await withApp(async (server, browser) => {
    const g = await someGames(server.url);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await adopt(page, server.url, g);
    for (const [name, path, ready] of pages(g)) {
      await open(page, server.url, name, path, ready);
      const { scroll, small } = await page.evaluate(() => ({
        scroll: document.scrollingElement.scrollWidth,
        small: [...document.querySelectorAll("main button, main .button, main select, main summary, main td.links a, header a, header select")]
          .filter((e) => e.offsetParent !== null)
          .map((e) => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
          .filter(([, r]) => r.height < 44 || r.width < 44)
          .map(([n, r]) => `${n} ${Math.round(r.width)}×${Math.round(r.height)}`),
      }));
      assert.ok(scroll <= 390, `${name}: the page is ${scroll} px wide on a 390 px screen`);
      assert.deepEqual(small, [], `${name}: touch targets under 44 px`);
      // The header is two rows, the name and the language, then the menu
      // (stacked one per row it took 167 px, a fifth of the screen).
      const head = await page.evaluate(() => ({ h: document.querySelector("header.top").getBoundingClientRect().height,
        brand: document.querySelector("header .brand").getBoundingClientRect().top, lang: document.querySelector("#lang").getBoundingClientRect() }));
      assert.ok(head.h <= 110, `${name}: the header is ${head.h} px tall`);
      assert.ok(Math.abs(head.lang.top - head.brand) < 20 && head.lang.right <= 390, `${name}: the language menu beside the name`);
      if (name === "games list" || name === "rules" || name === "ringo game") {
        await page.screenshot({ path: `${SHOTS}/phone-${name.replace(/ /g, "-")}.png`, fullPage: true });
      }
    }
    // On a phone as narrow as 360 px, in every language, the header is one
    // row (name, Menu, account, language); Menu opens every group's links
    // in one column, each a full-size target on the screen, and Escape
    // closes it, the focus back on Menu.
    await page.setViewportSize({ width: 360, height: 740 });
    for (const lang of ["en", "fr", "pl"]) {
      await page.goto(`${server.url}/rules?lang=${lang}`);
      await page.locator("#lang").waitFor();
      const h = await page.locator("header.top").evaluate((e) => e.getBoundingClientRect().height);
      assert.ok(h <= 64, `${lang}: the closed header is ${h} px tall`);
      assert.equal(await page.locator("header nav a").filter({ visible: true }).count(), 0, `${lang}: the menu is closed`);
      await page.locator("#menu-button").click();
      const links = await page.locator("header nav a").evaluateAll((list) => list.map((a) => {
        const r = a.getBoundingClientRect();
        return { href: a.getAttribute("href"), w: r.width, h: r.height, right: r.right, shown: a.offsetParent !== null };
      }));
      assert.equal(links.length, 15, `${lang}: every page of the menu`);
      for (const l of links) {
        assert.ok(l.shown && l.h >= 44 && l.w >= 44 && l.right <= 360, `${lang}: ${JSON.stringify(l)}`);
      }
      await page.keyboard.press("Escape");
      assert.equal(await page.locator("header nav a").filter({ visible: true }).count(), 0, `${lang}: Escape closes the menu`);
      assert.equal(await page.evaluate(() => document.activeElement.id), "menu-button");
    }
  });
});
