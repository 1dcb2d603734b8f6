// WCAG 2.2 AA in the browser: axe-core over every kind of page, with no
// violation of any impact; every page usable on a phone (390×844) without
// horizontal scrolling, no control off the screen, touch targets of 44 px,
// and every control of every page at least 24 × 24 by itself (2.5.8);
// the header and every button state at 4.5:1; the moderation page as a
// moderator sees it, likewise; and every page's picture at 390 and 1280 px.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { withApp, waitState, apiCall, accountAs, inParallel, SHOTS } from "./helpers.mjs";
import { mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** Where every page's picture goes, at a phone's width and a desktop's
 *  (`docs/screenshots/pages/{390,1280}/NAME.jpg`), kept with the docs. */
const PAGE_SHOTS = join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "screenshots", "pages");

/** How many tabs check pages at once. One in the suite: with several, a
 *  clean run once saw a page whose board never came (not reproduced since,
 *  cause not found), and a check that fails one run in a few is worse than
 *  a slow one. `AGON_A11Y_TABS=4` checks the pages four at a time. */
const TABS = Number(process.env.AGON_A11Y_TABS || 1);

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
  // A player with a profile to look at.
  await apiCall(url, "POST", "/api/account/signup", { name: "ala", password: "correct horse battery" });
  // A tournament coming up, with a player in it.
  const json = { "content-type": "application/json", origin: url };
  const signed = await fetch(url + "/api/account/signup", { method: "POST", headers: json,
    body: JSON.stringify({ name: "tove", password: "correct horse battery" }) });
  const cookie = signed.headers.get("set-cookie").split(";")[0];
  const tour = await (await fetch(url + "/api/tournaments", { method: "POST", headers: { ...json, cookie },
    body: JSON.stringify({ kind: "swiss", game: "ringo", days: 1, rounds: 3, starts_in_secs: 3600, name: "Weekly Swiss" }) })).json();
  assert.ok(tour.id, JSON.stringify(tour));
  await fetch(url + `/api/tournaments/${tour.id}/join`, { method: "POST", headers: { ...json, cookie } });
  return { ringo, ur, mine, tour };
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
    ["new game urgammon", "/new", "#start"],
    ["profile", "/@/ala", "#profile-name"],
    ["games in play", "/watch", "#watch-list > *"],
    ["players online", "/players", "#players-list > *"],
    ["tournaments", "/tournaments", "#tournaments-upcoming li"],
    ["tournament", `/t/${g.tour.id}`, "#tour-standings tr[data-player=tove]"],
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
  if (name === "new game urgammon") await page.locator("input[name=game][value=urgammon]").check();
  await page.locator(ready).first().waitFor({ timeout: 120000 });
  // The lab's table of every cell is folded; unfolded, it is checked too.
  if (name === "rules lab") {
    await page.locator("#lab-every > summary").click();
    await page.locator("#lab-table").waitFor();
  }
  if (path.startsWith("/g/")) await waitState(page, () => !!window.agonState);
}

/** What axe-core (WCAG 2.2 AA and best practice) finds on the page as it
 *  stands, one line each. The page's policy allows no inline script; axe is
 *  injected around it (the context bypasses CSP). */
async function axeViolations(page) {
  await page.evaluate(axeSource);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"], runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] } }));
  return result.violations.map((v) => `${v.id} (${v.impact}) ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}

test("axe-core (WCAG 2.2 AA) finds no violation of any impact on any page at 1280 px, in every language", async () => {
  await withApp(async (server, browser) => {
    const g = await someGames(server.url);
    // The page's policy allows no inline script; axe is injected around it.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const tabs = await Promise.all(Array.from({ length: TABS }, () => context.newPage()));
    await adopt(tabs[0], server.url, g);
    const every = ["en", "pl", "fr"].flatMap((lang) => pages(g).map((p) => [lang, ...p]));
    const found = (await inParallel(every, tabs.length, async ([lang, name, path, ready], worker) => {
      const page = tabs[worker];
      await open(page, server.url, name, path + (path.includes("?") ? "&" : "?") + "lang=" + lang, ready);
      // Every violation, whatever its impact: a minor one is a player's
      // trouble too (the newcomer's audit named an empty table header).
      return (await axeViolations(page)).map((v) => `${lang} ${name}: ${v}`);
    })).flat();
    assert.deepEqual(found, [], found.join("\n"));
  });
});

test("every page fits a phone: no horizontal scroll, no control off the screen, touch targets of 44 px", async () => {
  await withApp(async (server, browser) => {
    const g = await someGames(server.url);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const tabs = await Promise.all(Array.from({ length: TABS }, () => context.newPage()));
    const page = tabs[0];
    await adopt(page, server.url, g);
    await inParallel(pages(g), tabs.length, async ([name, path, ready], worker) => {
      const page = tabs[worker];
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
      // No control starts or ends off the screen's sides.
      const outside = await page.evaluate(() => [...document.querySelectorAll("button, a, select, input, textarea, summary")]
        .filter((e) => e.offsetParent !== null && !e.closest(".sr-only"))
        .map((e) => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0 && (r.left < -1 || r.right > 391))
        .map(([n, r]) => `${n} ${Math.round(r.left)}…${Math.round(r.right)}`));
      assert.deepEqual(outside, [], `${name}: controls outside the screen`);
      // The header is two rows, the name and the language, then the menu
      // (stacked one per row it took 167 px, a fifth of the screen).
      const head = await page.evaluate(() => ({ h: document.querySelector("header.top").getBoundingClientRect().height,
        brand: document.querySelector("header .brand").getBoundingClientRect().top, lang: document.querySelector("#lang").getBoundingClientRect() }));
      assert.ok(head.h <= 110, `${name}: the header is ${head.h} px tall`);
      assert.ok(Math.abs(head.lang.top - head.brand) < 20 && head.lang.right <= 390, `${name}: the language menu beside the name`);
      if (name === "games list" || name === "rules" || name === "ringo game") {
        await page.screenshot({ path: `${SHOTS}/phone-${name.replace(/ /g, "-")}.png`, fullPage: true });
      }
    });
    // On a phone as narrow as 360 px, in every language, the header is one
    // row (name, Menu, account, language); Menu opens every group's links
    // in one column, each a full-size target on the screen, and Escape
    // closes it, the focus back on Menu.
    await page.setViewportSize({ width: 360, height: 740 });
    for (const lang of ["en", "fr", "pl"]) {
      await page.goto(`${server.url}/rules?lang=${lang}`);
      await page.locator("#lang").waitFor();
      const h = await page.locator("header.top").evaluate((e) => e.getBoundingClientRect().height);
      const parts = await page.evaluate(() => [...document.querySelectorAll("header.top > *")].filter((e) => e.offsetParent)
        .map((e) => `${e.id || e.className} ${Math.round(e.getBoundingClientRect().left)}+${Math.round(e.getBoundingClientRect().width)}@${Math.round(e.getBoundingClientRect().top)}`));
      assert.ok(h <= 64, `${lang}: the closed header is ${h} px tall: ${parts.join(", ")}`);
      assert.equal(await page.locator("header nav a").filter({ visible: true }).count(), 0, `${lang}: the menu is closed`);
      await page.locator("#menu-button").click();
      const links = await page.locator("header nav a").evaluateAll((list) => list.filter((a) => !a.closest("[hidden]")).map((a) => {
        const r = a.getBoundingClientRect();
        return { href: a.getAttribute("href"), w: r.width, h: r.height, right: r.right, shown: a.offsetParent !== null };
      }));
      assert.equal(links.length, 16, `${lang}: every page of the menu`);
      for (const l of links) {
        assert.ok(l.shown && l.h >= 44 && l.w >= 44 && l.right <= 360, `${lang}: ${JSON.stringify(l)}`);
      }
      await page.keyboard.press("Escape");
      assert.equal(await page.locator("header nav a").filter({ visible: true }).count(), 0, `${lang}: Escape closes the menu`);
      assert.equal(await page.evaluate(() => document.activeElement.id), "menu-button");
    }
  });
});

/** Every control a player can tap on the page, visible, with its size:
 *  links, buttons, inputs, menus, summaries and anything focusable or with
 *  a button's role (the boards' cells). A link inside a sentence is
 *  excepted, as WCAG 2.2's 2.5.8 excepts it (its line sets its size), and
 *  so is what a pointer cannot hit. A checkbox counts by itself, not by its
 *  label. Runs in the page. */
function controlSizes() {
  const visible = (e) => e.getClientRects().length > 0 && !e.closest(".sr-only, [hidden], [inert]")
    && getComputedStyle(e).visibility !== "hidden";
  const inSentence = (a) => {
    if (a.tagName !== "A" || getComputedStyle(a).display !== "inline") return false;
    const block = a.parentElement.closest("p, li, dd, td, th, figcaption, div, section, label");
    if (!block) return false;
    const own = a.textContent.trim();
    return block.textContent.replace(own, "").trim().replace(/[\s.,;:()·–—-]/g, "").length > 0;
  };
  const out = [];
  const seen = new Set();
  for (const e of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=tab], [role=checkbox], [role=radio], [tabindex]:not([tabindex="-1"])')) {
    // Not a pointer's target (the review graph's dots: a tap on the graph
    // picks the nearest point), or a link in a sentence.
    if (!visible(e) || inSentence(e) || getComputedStyle(e).pointerEvents === "none") continue;
    if (seen.has(e)) continue;
    seen.add(e);
    const r = e.getBoundingClientRect();
    const name = (e.id ? "#" + e.id : e.tagName.toLowerCase() + (e.className && typeof e.className === "string" ? "." + e.className.split(" ")[0] : ""))
      + " " + (e.getAttribute("aria-label") || e.textContent || e.value || "").trim().slice(0, 24);
    out.push({ name, w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10 });
  }
  return out;
}

test("at 390 px, on every page, in every language, signed out and signed in: axe-core (WCAG 2.2 AA) finds nothing, and every control is at least 24 × 24 px by itself (2.5.8)", async () => {
  await withApp(async (server, browser) => {
    const g = await someGames(server.url);
    // The page's policy allows no inline script; axe is injected around it.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const tabs = await Promise.all(Array.from({ length: TABS }, () => context.newPage()));
    await adopt(tabs[0], server.url, g);
    const small = [];
    const found = [];
    const extra = [["puzzles", "/puzzles", "#puzzle-theme"]];
    // Signed out first, then signed in: the pages show a signed-in player
    // more (the Rated boxes, the challenge form on a profile, the account
    // page's settings, making a tournament). Both tabs share the context's
    // cookie, so both are signed in together.
    for (const who of ["signed out", "signed in"]) {
      if (who === "signed in") {
        assert.equal(await accountAs(tabs[0], "signup", "zed"), 201);
        await tabs[0].reload();
      }
      const every = ["en", "pl", "fr"].flatMap((lang) => [...pages(g), ...extra].map((p) => [lang, ...p]));
      await inParallel(every, tabs.length, async ([lang, name, path, ready], worker) => {
        const page = tabs[worker];
        await open(page, server.url, name, path + (path.includes("?") ? "&" : "?") + "lang=" + lang, ready);
        for (const c of await page.evaluate(controlSizes)) {
          if (c.w < 24 || c.h < 24) small.push(`${who} ${lang} ${name}: ${c.name} ${c.w}×${c.h}`);
        }
        for (const v of await axeViolations(page)) found.push(`${who} ${lang} ${name}: ${v}`);
      });
    }
    small.sort();
    found.sort();
    assert.deepEqual(small, [], small.join("\n"));
    assert.deepEqual(found, [], found.join("\n"));
  });
});

/** The contrast ratio of an element's text against what is behind it (its
 *  own background, or the nearest ancestor's that is not transparent), as
 *  WCAG 2 computes it. Runs in the page. */
function contrastOf(sel) {
  const e = typeof sel === "string" ? document.querySelector(sel) : sel;
  const rgb = (c) => (c.match(/[\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const ch = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
  };
  let bg = null;
  for (let n = e; n; n = n.parentElement) {
    const c = rgb(getComputedStyle(n).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0)) { bg = c.slice(0, 3); break; }
  }
  bg = bg || [255, 255, 255];
  const fg = rgb(getComputedStyle(e).color).slice(0, 3);
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

test("the header and every button state read at 4.5:1 or better, on a desktop and on a phone", async () => {
  await withApp(async (server, browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url + "/lobby?lang=en");
    await page.locator("#seek-create").waitFor();
    const ratio = (sel) => page.evaluate(contrastOf, sel);
    const check = async (what, sel) => {
      const r = await ratio(sel);
      assert.ok(r >= 4.5, `${what}: ${r.toFixed(2)}:1`);
    };
    // The header: the name, a group's button closed, open and hovered, a
    // link of an open group, the account link and the language menu.
    await check("the name", "header .brand");
    await check("a group's button", "button[aria-controls=nav-play]");
    await page.hover("button[aria-controls=nav-learn]");
    await check("a group's button, hovered", "button[aria-controls=nav-learn]");
    await page.click("button[aria-controls=nav-learn]");
    await check("a group's button, open", "button[aria-controls=nav-learn]");
    await check("a link of the open group", '#nav-learn a[href="/learn"]');
    await page.hover('#nav-learn a[href="/puzzles"]');
    await check("a link of the open group, hovered", '#nav-learn a[href="/puzzles"]');
    await check("the current page's link", '#nav-play a[href="/lobby"]');
    await page.keyboard.press("Escape");
    await check("the account link", "#account-link");
    await check("the language menu", "#lang");
    // Buttons: plain, primary, hovered, pressed, disabled.
    await check("a plain button", "#pool-ringo-even-5\\+3");
    await check("a primary button", "#seek-create");
    await page.hover("#seek-create");
    await check("a primary button, hovered", "#seek-create");
    await page.hover("#pool-ringo-even-5\\+3");
    await check("a plain button, hovered", "#pool-ringo-even-5\\+3");
    await page.evaluate(() => {
      const main = document.querySelector("main .page");
      const b = (attrs) => { const x = document.createElement("button"); Object.assign(x, attrs); main.append(x); return x; };
      b({ id: "t-disabled", textContent: "Disabled", disabled: true });
      b({ id: "t-pressed", textContent: "Pressed" }).setAttribute("aria-pressed", "true");
      const p = b({ id: "t-primary-disabled", textContent: "Primary, disabled", disabled: true });
      p.className = "primary";
    });
    await check("a disabled button", "#t-disabled");
    await check("a disabled primary button", "#t-primary-disabled");
    await check("a pressed button", "#t-pressed");
    // On a phone: the Menu button, closed and open, and the open menu's links.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(server.url + "/?lang=fr");
    await page.locator("#menu-button").waitFor();
    await check("the Menu button", "#menu-button");
    await page.click("#menu-button");
    await check("the Menu button, open", "#menu-button");
    for (const href of ["/", "/watch", "/learn", "/analysis", "/players"]) await check(`the menu's ${href}`, `#site-nav a[href="${href}"]`);
  });
});

/** Waits until the page stands still for its picture: its fonts loaded,
 *  every animation and transition that ends has ended, and a frame drawn
 *  after (waiting a fixed 300 ms instead cost 19 s a run). */
async function settled(page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(ending.map((a) => a.finished.catch(() => {})));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

test("a picture of every page's first screen, at 390 px and at 1280 px, into docs/screenshots/pages", async () => {
  await withApp(async (server, browser) => {
    const g = await someGames(server.url);
    // One width after the other, each in its own page (a phone's and a
    // desktop's); AGON_A11Y_TABS above 1 takes both at once.
    await inParallel([390, 1280], Math.min(TABS, 2), async (width) => {
      const dir = join(PAGE_SHOTS, String(width));
      mkdirSync(dir, { recursive: true });
      const page = await browser.newPage({ viewport: { width, height: width === 390 ? 844 : 800 }, isMobile: width === 390, hasTouch: width === 390 });
      await adopt(page, server.url, g);
      for (const [name, path, ready] of pages(g)) {
        await open(page, server.url, name, path + (path.includes("?") ? "&" : "?") + "lang=en", ready);
        await settled(page);
        await page.screenshot({ path: join(dir, name.replace(/ /g, "-") + ".jpg"), type: "jpeg", quality: 60 });
      }
      await page.close();
    });
  });
});

test("the moderation page, as a moderator sees it with a report and a record: axe in three languages, and on a phone", async () => {
  await withApp(async (server, browser) => {
    const { execFileSync } = await import("node:child_process");
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const other = await (await browser.newContext()).newPage();
    for (const [p, name] of [[page, "mo"], [other, "eve"]]) {
      await p.goto(server.url + "/rules");
      await p.evaluate((n) => fetch("/api/account/signup", { method: "POST", headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: n, password: "correct horse battery" }) }), name);
    }
    await other.evaluate(() => fetch("/api/reports", { method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ target: "mo", reason: "name", text: "a test report" }) }));
    execFileSync(server.bin, ["mod", "grant", "mo", "--data", server.data]);
    const found = [];
    for (const lang of ["en", "pl", "fr"]) {
      await page.goto(`${server.url}/mod?lang=${lang}&user=eve`);
      await page.locator("#mod-reports li[data-report]").waitFor();
      await page.locator("#mod-record h3").waitFor();
      for (const v of await axeViolations(page)) found.push(`${lang}: ${v}`);
    }
    assert.deepEqual(found, [], found.join("\n"));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/mod?lang=fr&user=eve`);
    await page.locator("#mod-record h3").waitFor();
    const { scroll, small } = await page.evaluate(() => ({
      scroll: document.scrollingElement.scrollWidth,
      small: [...document.querySelectorAll("main button, main .button, main select, main input, main summary")]
        .filter((e) => e.offsetParent !== null)
        .map((e) => [e.id || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
        .filter(([, r]) => r.height < 44 || r.width < 44)
        .map(([n, r]) => `${n} ${Math.round(r.width)}×${Math.round(r.height)}`),
    }));
    assert.ok(scroll <= 390, `the page is ${scroll} px wide`);
    assert.deepEqual(small, []);
    // At 390 px, in every language: every control at least 24 × 24 by
    // itself, and axe (WCAG 2.2 AA) finds nothing.
    const tiny = [];
    for (const lang of ["en", "pl", "fr"]) {
      await page.goto(`${server.url}/mod?lang=${lang}&user=eve`);
      await page.locator("#mod-record h3").waitFor();
      for (const c of await page.evaluate(controlSizes)) if (c.w < 24 || c.h < 24) tiny.push(`${lang}: ${c.name} ${c.w}×${c.h}`);
      for (const v of await axeViolations(page)) tiny.push(`${lang}: ${v}`);
    }
    assert.deepEqual(tiny, [], tiny.join("\n"));
  });
});
