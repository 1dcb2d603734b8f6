// Every string the front end shows exists in English, Polish and French:
// the key sets are the same, every key the code uses exists, and the
// Polish and French pages show no English sentence.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, withApp, waitState, apiCall } from "./helpers.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const staticDir = join(root, "crates", "server", "static");
const langs = {};
for (const l of ["en", "pl", "fr"]) langs[l] = (await import(join(staticDir, "lang", l + ".js"))).default;

function files(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

/** The keys built from data at run time: prefix + every value it can take. */
function dynamicKeys(meta) {
  const keys = [];
  for (const o of meta.ringo.options) {
    keys.push("opt." + o.key, "optname." + o.key, "source." + o.key);
    for (const v of o.values) if (!/^\d+$/.test(v)) keys.push(v === "on" || v === "off" ? "optval." + v : `optval.${o.key}.${v}`);
  }
  for (const p of meta.ringo.presets) keys.push("preset." + p.name);
  for (const g of ["ringo", "urgammon"]) keys.push("home." + g, "home." + g + "_desc");
  for (const o of ["engine", "friend", "local"]) keys.push("opp." + o);
  for (const s of ["attackers", "defenders", "light", "dark"]) keys.push("side." + s, "Side." + s);
  keys.push("side.random");
  for (const r of ["fortress", "attrition", "double-pass", "repetition", "resignation"]) keys.push("reason." + r);
  for (const p of ["opening", "roll", "decide", "verdict", "move"]) keys.push("ur.phase." + p);
  for (const k of ["plain", "streets", "waiting", "babylon", "draw"]) keys.push("ur.kind." + k);
  for (const d of ["replay", "end"]) keys.push("draw." + d);
  for (const c of ["game", "settings", "mode", "status", "updated", "links"]) keys.push("games.col." + c);
  for (const p of ["P", "C", "H"]) keys.push("ur." + p);
  // Every error code the server can send.
  const src = readFileSync(join(root, "crates", "server", "src", "http", "codes.rs"), "utf8");
  assert.ok(src.includes("pub enum ErrorCode"), "ErrorCode is in http/codes.rs");
  const body = src.slice(src.indexOf("pub enum ErrorCode"), src.indexOf("}", src.indexOf("pub enum ErrorCode")));
  const codes = [...body.matchAll(/^\s{4}([A-Z][A-Za-z]+),$/gm)].map(([, name]) => name);
  // A move of the enum must not leave this check with nothing to check.
  assert.ok(codes.length > 50, `the error codes read: ${codes.length}`);
  for (const name of codes) {
    keys.push("err." + name.replace(/[A-Z]/g, (c, i) => (i ? "-" : "") + c.toLowerCase()));
  }
  return keys;
}

test("the three languages have the same keys, and every key the page uses exists", async () => {
  const server = await startServer();
  let meta;
  try {
    meta = await apiCall(server.url, "GET", "/api/meta");
  } finally {
    server.stop();
  }
  const en = Object.keys(langs.en).sort();
  for (const l of ["pl", "fr"]) assert.deepEqual(Object.keys(langs[l]).sort(), en, `${l} has the same keys as en`);
  const prefixes = new Set(en.map((k) => k.split(".")[0]));
  const used = new Set(dynamicKeys(meta));
  for (const f of files(staticDir).filter((f) => /\.(js|html)$/.test(f) && !f.includes("/lang/"))) {
    const text = readFileSync(f, "utf8");
    for (const [, key] of text.matchAll(/["'`]([A-Za-z]+\.[A-Za-z0-9_.-]*[A-Za-z0-9_])["'`]/g)) {
      if (prefixes.has(key.split(".")[0]) && !/\.(js|css|svg|html|md)$/.test(key)) used.add(key);
    }
    for (const [, key] of text.matchAll(/data-i18n(?:-label)?="([^"]+)"/g)) used.add(key);
  }
  const missing = [];
  for (const key of used) for (const l of ["en", "pl", "fr"]) if (!(key in langs[l])) missing.push(`${l}: ${key}`);
  assert.deepEqual(missing, [], "keys the page uses without a translation");
  assert.ok(used.size > 250, `the scan found the keys (${used.size})`);
});

test("Polish and French strings are translated, not copied from English", () => {
  // Names and words that are the same in the three languages.
  const same = new Set(["home.ringo", "home.urgammon", "ur.match", "home.options", "rules.options", "rules.col.option",
    "rules.col.source", "ur.v4", "game.export", "ur.kind.babylon", "settings.changed", "log.steps", "optname.attackers",
    "rules.title", "nav.rules", "games.col.status", "home.preset", "game.rules", "optval.capture.both", "ur.score",
    "ur.dice", "err.internal", "cell.piece", "grade.excellent", "rating.expert", "review.point", "review.die_face",
    "review.moves_from", "time.minutes", "handicap.label", "term.ishtar", "term.rosette", "ur.rosette", "theme.rosette", "term.match", "term.astragalus", "term.figure", "history.sources", "nav.menu", "mod.col.moderator", "mod.col.action",
    "tour.minutes", "tour.hours", "tour.podium", "tour.buchholz", "tour.sb", "tour.score", "tour.arena_minutes", "tour.kind_arena", "tour.berserk"]);
  for (const l of ["pl", "fr"]) {
    const copied = Object.keys(langs.en).filter((k) => langs[l][k] === langs.en[k] && /[a-z]{3}/.test(langs.en[k]) && !same.has(k));
    assert.deepEqual(copied, [], `${l}: strings left in English`);
  }
});

test("the Polish and French pages show no English sentence", async () => {
  await withApp(async (server, browser) => {
    const ringo = await apiCall(server.url, "POST", "/api/games", { game: "ringo", opponent: "local", rules: "classic,attackers=6" });
    await apiCall(server.url, "POST", `/api/games/${ringo.id}/action`, { type: "move", move: "b6-b5" }, ringo.token);
    const ur = await apiCall(server.url, "POST", "/api/games", { game: "urgammon", opponent: "local", stake: "5" });
    // Its first move, then the other side's roll, so the log, the dice and
    // the turn's words show (a match opens with the opening roll made: the
    // starter moves first). Each step must succeed.
    assert.equal(ur.state.phase, "move");
    await apiCall(server.url, "POST", `/api/games/${ur.id}/action`, { type: "move", move: ur.state.moves[0] }, ur.token);
    await apiCall(server.url, "POST", `/api/games/${ur.id}/action`, { type: "roll" }, ur.token);
    // English sentences: long values with a space, different in the language checked.
    for (const l of ["pl", "fr"]) {
      const english = Object.entries(langs.en)
        .filter(([k, v]) => langs[l][k] !== v && !v.includes("<"))
        .flatMap(([, v]) => v.split(/\{[a-z_A-Z]+\}/))
        .map((part) => part.trim())
        .filter((part) => part.length >= 12 && part.includes(" "));
      const page = await browser.newPage();
      // The browser holds the Ringo game's seat: the home page offers it
      // and the games page lists it under the player's own, in words too.
      await page.goto(`${server.url}/nowhere`);
      await page.evaluate(([id, token]) => localStorage.setItem("agon-token-" + id, token), [ringo.id, ringo.token]);
      for (const path of ["/", "/new", "/watch", "/players", "/lobby", "/leaderboard", "/rules", "/games", `/g/${ringo.id}`, `/g/${ur.id}`, `/replay/${ringo.id}`, `/replay/${ur.id}`, "/nowhere", "/lab",
        "/analysis?game=ringo&moves=b6-b5&depth=3", "/analysis?game=urgammon&record=start:2-3&level=4"]) {
        await page.goto(`${server.url}${path}${path.includes("?") ? "&" : "?"}lang=${l}`);
        await page.waitForLoadState("networkidle");
        if (path.startsWith("/g/")) await waitState(page, () => !!window.agonState);
        if (path === "/") await page.locator("#resume a").waitFor();
        if (path === "/new") await page.locator("#start").waitFor();
        if (path === "/games") await page.locator("#own-games").waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.lang), l, `${path}: <html lang>`);
        // Folded text (the home page's options, the lab's every cell) is read too.
        await page.evaluate(() => document.querySelectorAll("details").forEach((d) => { d.open = true; }));
        const text = await page.evaluate(() => document.body.innerText);
        const found = english.filter((e) => text.includes(e));
        assert.deepEqual(found, [], `${l} ${path}: English on the page`);
        if (path === "/new") {
          // The Urgammon settings too.
          await page.locator("input[name=game][value=urgammon]").check();
          const more = await page.evaluate(() => document.body.innerText);
          assert.deepEqual(english.filter((e) => more.includes(e)), [], `${l} home (urgammon): English on the page`);
          await page.locator("input[name=game][value=ringo]").check();
        }
      }
      // The choice is remembered: without ?lang the next page keeps it.
      await page.goto(`${server.url}/rules`);
      await page.locator("#rules-ringo").waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), l);
      assert.equal(await page.title(), langs[l]["app.title"]);
      await page.close();
    }
  });
});

test("counts read as the language says them: one point, two points; po 1 remisowym rzucie, po 5 remisowych rzutach", async () => {
  // No string falls back on "point(s)": a plural takes its form from the
  // language's rules.
  for (const l of ["en", "pl", "fr"]) {
    const bad = Object.entries(langs[l]).filter(([, v]) => /\w\(s\)/.test(v)).map(([k]) => k);
    assert.deepEqual(bad, [], `${l}: strings with (s)`);
  }
  await withApp(async (server, browser) => {
    const page = await browser.newPage();
    const say = async (lang, key, vars) => {
      await page.goto(`${server.url}/?lang=${lang}`);
      return page.evaluate(([k, v]) => import("/static/i18n.js").then((m) => m.t(k, v)), [key, vars]);
    };
    assert.equal(await say("en", "log.ties", { n: 1 }), "after 1 tied roll");
    assert.equal(await say("en", "log.ties", { n: 3 }), "after 3 tied rolls");
    assert.equal(await say("en", "ur.game_won", { side: "Light", n: 1, kind: "a plain win" }), "Light wins 1 point: a plain win.");
    assert.equal(await say("en", "cell.fortress", { n: 2 }), "Fortress: 2 attackers");
    assert.equal(await say("pl", "log.ties", { n: 1 }), "po 1 remisowym rzucie");
    assert.equal(await say("pl", "log.ties", { n: 3 }), "po 3 remisowych rzutach");
    assert.equal(await say("pl", "log.ties", { n: 5 }), "po 5 remisowych rzutach");
    assert.equal(await say("fr", "log.ties", { n: 1 }), "après 1 égalité");
    assert.equal(await say("fr", "log.ties", { n: 2 }), "après 2 égalités");
    assert.equal(await say("en", "puzzles.wrong_win", { move: "g2-g1", solution: "h5xf5", n: 1 }), "g2-g1 does not win. The only winning move was h5xf5 (a win in 1 ply).");
    assert.match(await say("pl", "puzzles.task_win", { side: "obrońcy", n: 3 }), /\(wygrana w 3 półruchach\)\.$/);
    assert.match(await say("fr", "puzzles.task_fastest", { side: "assaillants", n: 1 }), /\(victoire en 1 demi-coup\)\.$/);
    assert.equal(await say("fr", "game.captured_tally", { a: 0, at: 7, d: 2 }), "Pris\u00a0: 0 assaillant sur 7 · 2 défenseurs sur 4");
    // What a player sees: an Urgammon game whose opening roll tied, in the move list.
    const ur = await apiCall(server.url, "POST", "/api/import", { game: "urgammon", record: "start:3-3 start:2-3 P-2a" });
    await page.goto(`${server.url}/replay/${ur.id}?lang=en`);
    await page.locator("#move-list").waitFor();
    assert.match(await page.locator("#move-list").innerText(), /\(after 1 tied roll\)/);
  });
});
