// The account page (/account). Signed out: sign in, create an account, or
// reset a forgotten password with a recovery code. Just signed up: the ten
// recovery codes, shown once. Signed in: the devices signed in (each can be
// signed out), sign out here or everywhere, a new password, new recovery
// codes, the data download and deleting the account.
import { el, toast } from "../dom.js";
import { t } from "../../i18n.js";
import { api, errorText, ApiError } from "../api.js";
import { account, setAccount, forgetAccount, heldSeats, applySettings, saveSetting, dropAccountSeats, forgetBlocks } from "../account.js";
import { pollTurns } from "../notify.js";
import { prefs } from "../prefs.js";
import { chatOn, setChat } from "../panels/chat.js";
import { navigate, route } from "../router.js";
import { addPasskey, signInWithPasskey, passkeysWork } from "../passkeys.js";

/** A labelled input: `<label>Name <input></label>`. */
function field(id, label, type, autocomplete) {
  const input = el("input", { id, name: id, type, autocomplete, required: true });
  return [el("label", { for: id }, label), input];
}

/** A form with a heading, its fields, a submit button and an error line;
 *  `submit(values)` runs on submit, its error shown in the line. */
function form(id, title, fields, button, submit) {
  const error = el("p", { class: "error", id: id + "-error", role: "alert" });
  const go = el("button", { type: "submit", class: "primary", id: id + "-submit" }, button);
  const f = el("form", { id, class: "account-form", "aria-labelledby": id + "-title" },
    el("h2", { id: id + "-title" }, title), fields.flat(), el("div", { class: "row" }, go), error);
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.textContent = "";
    go.disabled = true;
    const values = Object.fromEntries(new FormData(f).entries());
    try {
      await submit(values);
    } catch (err) {
      error.textContent = errorText(err);
    } finally {
      go.disabled = false;
    }
  });
  return f;
}

/** The recovery codes, once: a list, a download, and a button to go on. */
function codesBlock(codes, onDone) {
  const text = codes.join("\n") + "\n";
  const file = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  return el("section", { id: "codes", "aria-labelledby": "codes-title" },
    el("h2", { id: "codes-title" }, t("account.codes_title")),
    el("p", {}, t("account.codes_help")),
    el("ol", { id: "recovery-codes", class: "codes" }, codes.map((c) => el("li", {}, el("code", {}, c)))),
    el("div", { class: "row" },
      el("a", { class: "button", href: file, download: "agon-recovery-codes.txt", id: "codes-download" }, t("account.codes_download")),
      onDone ? el("button", { class: "primary", id: "codes-done", onclick: onDone }, t("account.codes_done")) : null));
}

/** Signs in (or up) with the seats this browser holds, then shows what
 *  came of it. */
async function started(answer) {
  forgetAccount();
  const a = await account();
  setAccount(a);
  // The account's language applies from the next page drawn.
  applySettings(a);
  const n = (answer.claimed || []).length;
  if (n) toast(t("account.claimed", { n }));
  return a;
}

function signedOut(main) {
  main.append(el("h1", {}, t("account.title")),
    el("p", { class: "muted" }, t("account.why")));
  const grid = el("div", { class: "account-grid" });
  grid.append(
    form("signin", t("account.signin"), [
      field("signin-name", t("account.name"), "text", "username"),
      field("signin-password", t("account.password"), "password", "current-password"),
    ], t("account.signin_button"), async (v) => {
      const r = await api("POST", "/api/account/login",
        { name: v["signin-name"], password: v["signin-password"], seats: heldSeats() });
      await started(r);
      navigate("/account");
    }),
    form("signup", t("account.signup"), [
      field("signup-name", t("account.name"), "text", "username"),
      el("p", { class: "muted small" }, t("account.name_rules")),
      field("signup-password", t("account.password"), "password", "new-password"),
      el("p", { class: "muted small" }, t("account.password_rules")),
    ], t("account.signup_button"), async (v) => {
      const r = await api("POST", "/api/account/signup",
        { name: v["signup-name"], password: v["signup-password"], seats: heldSeats() });
      await started(r);
      main.replaceChildren(el("h1", {}, t("account.welcome", { name: r.name })),
        codesBlock(r.recovery_codes, () => navigate("/account")));
      document.getElementById("codes-done").focus();
    }));
  main.append(grid);
  // A passkey instead of name and password, on a browser that holds one.
  if (passkeysWork()) {
    const error = el("p", { class: "error", id: "passkey-error", role: "alert" });
    main.append(el("div", { class: "row" }, el("button", { id: "passkey-signin", onclick: async () => {
      error.textContent = "";
      try {
        const r = await signInWithPasskey();
        await started(r);
        await api("POST", "/api/account/claim", { seats: heldSeats() }).then((c) => {
          if (c.claimed.length) toast(t("account.claimed", { n: c.claimed.length }));
        }).catch(() => {});
        navigate("/account");
      } catch (e) {
        error.textContent = e.name === "NotAllowedError" ? t("account.passkey_cancelled") : errorText(e);
      }
    } }, t("account.passkey_signin"))), error);
  }
  const recover = form("recover", t("account.recover"), [
    el("p", { class: "muted" }, t("account.recover_help")),
    field("recover-name", t("account.name"), "text", "username"),
    field("recover-code", t("account.code"), "text", "one-time-code"),
    field("recover-password", t("account.new_password"), "password", "new-password"),
  ], t("account.recover_button"), async (v) => {
    try {
      await api("POST", "/api/account/recover",
        { name: v["recover-name"], code: v["recover-code"], password: v["recover-password"] });
    } catch (e) {
      // The server's one answer for a wrong name or code (so that nobody
      // learns which names exist), said as this form asks: a code, not a
      // password, and one that works once.
      if (e.code === "bad-credentials") throw new ApiError(e.status, "bad-recovery", null);
      throw e;
    }
    await started({});
    toast(t("account.recovered"));
    navigate("/account");
  });
  main.append(el("details", { id: "forgot" }, el("summary", {}, t("account.forgot")), recover));
}

/** A time as the page's language writes it. */
const when = (secs) => new Date(secs * 1000).toLocaleString(document.documentElement.lang);

function signedIn(main, a) {
  main.append(el("h1", { id: "account-name" }, a.name),
    el("p", { class: "muted" }, t("account.since", { date: when(a.created_at) })),
    el("p", {}, el("a", { href: "/games", "data-nav": true, id: "my-games" }, t("account.my_games")), " · ",
      el("a", { href: "/@/" + encodeURIComponent(a.name), "data-nav": true, id: "my-profile" }, t("account.my_profile")), " · ",
      el("a", { href: "/leaderboard", "data-nav": true, id: "leaderboard-link" }, t("nav.leaderboard"))));

  const out = async (path) => {
    // The account's games leave this browser with it (kept by the account).
    await dropAccountSeats().catch(() => {});
    await api("POST", path);
    setAccount(null);
    // The header's count and the Your-turn list follow at once.
    pollTurns();
    toast(t("account.signed_out"));
    navigate("/account");
  };
  main.append(el("div", { class: "row" },
    el("button", { id: "signout", onclick: () => out("/api/account/logout").catch((e) => toast(errorText(e))) }, t("account.signout")),
    el("button", { id: "signout-all", onclick: () => out("/api/account/logout-all").catch((e) => toast(errorText(e))) }, t("account.signout_all"))));

  // The devices signed in.
  const deviceName = (s) => s.system ? t("account.device_on", { browser: s.browser, system: s.system }) : s.browser;
  const rows = a.sessions.map((s) => el("tr", { "data-session": s.id, "data-current": s.current ? "yes" : "no" },
    el("td", { "data-label": t("account.device") },
      deviceName(s), s.current ? el("strong", {}, " — " + t("account.this_device")) : null),
    el("td", { "data-label": t("account.last_seen") }, when(s.last_seen)),
    // Not "Sign out" (this page's own button says that): the device it
    // signs out is named, for the screen reader too.
    el("td", {}, s.current ? null : el("button", { class: "end-session", "aria-label": t("account.signout_device_named", { device: deviceName(s) }), onclick: async () => {
      try {
        await api("DELETE", "/api/account/sessions/" + s.id);
        forgetAccount();
        route();
      } catch (e) { toast(errorText(e)); }
    } }, t("account.signout_device")))));
  main.append(el("section", { "aria-labelledby": "sessions-title" },
    el("h2", { id: "sessions-title" }, t("account.sessions")),
    el("table", { class: "list stack", id: "sessions" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("account.device")), el("th", { scope: "col" }, t("account.last_seen")),
        el("th", { scope: "col" }, el("span", { class: "sr-only" }, t("account.session_action"))))),
      el("tbody", {}, rows))));

  main.append(form("password", t("account.change_password"), [
    field("password-current", t("account.current_password"), "password", "current-password"),
    field("password-new", t("account.new_password"), "password", "new-password"),
  ], t("account.change_button"), async (v) => {
    await api("POST", "/api/account/password", { current: v["password-current"], password: v["password-new"] });
    toast(t("account.password_changed"));
    forgetAccount();
    route();
  }));

  // Settings that follow the account to every device.
  const toggle = (id, key, label, get, set) => el("label", { class: "rated-choice", for: id },
    el("input", { type: "checkbox", id, checked: get(), onchange: (e) => { set(e.target.checked); saveSetting(key, e.target.checked); } }),
    " " + label);
  main.append(el("section", { "aria-labelledby": "prefs-title", id: "prefs" },
    el("h2", { id: "prefs-title" }, t("account.prefs")),
    el("p", { class: "muted" }, t("account.prefs_help")),
    el("div", { class: "account-form" },
      toggle("pref-sound", "sound", t("account.pref_sound"), () => prefs.sound, (v) => { prefs.sound = v; }),
      toggle("pref-animation", "animation", t("account.pref_animation"), () => prefs.animation, (v) => { prefs.animation = v; }),
      toggle("pref-flip", "flip", t("account.pref_flip"), () => prefs.flipDefault, (v) => { prefs.flipDefault = v; }),
      toggle("pref-chat", "chat", t("account.pref_chat"), chatOn, setChat),
      // Takebacks in rated games need both players' leave: kept on the
      // account, read by the server.
      toggle("pref-takebacks", "takebacks", t("account.pref_takebacks"), () => a.settings?.takebacks !== false, () => {}),
      // Whom challenges are taken from: kept on the account, read by the
      // server when someone challenges her.
      el("div", { class: "opt" }, el("label", { for: "pref-challenges" }, t("account.challenges")),
        el("select", { id: "pref-challenges", onchange: (e) => saveSetting("challenges", e.target.value) },
          ["everyone", "followed", "rated", "nobody"].map((v) => el("option", { value: v, selected: (a.settings?.challenges || "everyone") === v },
            t("account.challenges." + v))))))));

  // The players she blocks, each with Unblock.
  const blockList = el("ul", { class: "resume", id: "blocks" });
  const drawBlocks = async () => {
    const { blocks } = await api("GET", "/api/account/blocks").catch(() => ({ blocks: [] }));
    blockList.replaceChildren(...(blocks.length ? blocks.map((b) => el("li", { "data-blocked": b.name },
      el("a", { href: "/@/" + encodeURIComponent(b.name), "data-nav": true }, b.name), " ",
      el("button", { onclick: async () => {
        await api("DELETE", `/api/users/${encodeURIComponent(b.name)}/block`).catch(() => {});
        forgetBlocks();
        drawBlocks();
      } }, t("profile.unblock")))) : [el("li", { class: "muted", id: "blocks-none" }, t("account.blocks_none"))]));
  };
  drawBlocks();
  main.append(el("section", { "aria-labelledby": "blocks-title" },
    el("h2", { id: "blocks-title" }, t("account.blocks")),
    el("p", { class: "muted" }, t("account.blocks_help")), blockList));

  // Passkeys: a second way to sign in.
  const keyError = el("p", { class: "error", id: "passkey-add-error", role: "alert" });
  main.append(el("section", { "aria-labelledby": "passkeys-title" },
    el("h2", { id: "passkeys-title" }, t("account.passkeys")),
    el("p", { class: "muted" }, t("account.passkeys_help")),
    a.passkeys.length ? el("ul", { id: "passkeys" }, a.passkeys.map((k) => el("li", { "data-passkey": k.id },
      t("account.passkey_added", { date: when(k.created_at) }),
      k.last_used ? " · " + t("account.passkey_used", { date: when(k.last_used) }) : "", " ",
      el("button", { class: "remove-passkey", onclick: async () => {
        try { await api("DELETE", "/api/account/passkeys/" + k.id); forgetAccount(); route(); } catch (e) { toast(errorText(e)); }
      } }, t("account.passkey_remove")))))
      : el("p", { class: "muted", id: "no-passkeys" }, t("account.no_passkeys")),
    passkeysWork() ? el("button", { id: "passkey-add", onclick: async () => {
      keyError.textContent = "";
      try {
        await addPasskey();
        toast(t("account.passkey_made"));
        forgetAccount();
        route();
      } catch (e) {
        keyError.textContent = e.name === "NotAllowedError" ? t("account.passkey_cancelled") : errorText(e);
      }
    } }, t("account.passkey_add")) : null, keyError));

  const codesPlace = el("div", { id: "new-codes" });
  main.append(form("codes-form", t("account.new_codes"), [
    el("p", { class: "muted" }, t("account.codes_left", { n: a.recovery_codes_left })),
    field("codes-password", t("account.password"), "password", "current-password"),
  ], t("account.new_codes_button"), async (v) => {
    const r = await api("POST", "/api/account/recovery-codes", { password: v["codes-password"] });
    codesPlace.replaceChildren(codesBlock(r.recovery_codes, null));
  }), codesPlace);

  main.append(el("section", { "aria-labelledby": "data-title" },
    el("h2", { id: "data-title" }, t("account.data")),
    el("p", {}, el("a", { href: "/api/account/export", download: "", id: "download-data", class: "button" }, t("account.download")))));

  main.append(form("delete", t("account.delete"), [
    el("p", { class: "muted" }, t("account.delete_help")),
    field("delete-password", t("account.password"), "password", "current-password"),
  ], t("account.delete_button"), async (v) => {
    if (!confirm(t("account.delete_confirm"))) return;
    await api("DELETE", "/api/account", { password: v["delete-password"] });
    setAccount(null);
    toast(t("account.deleted"));
    navigate("/");
  }));
}

export async function accountPage(main) {
  forgetAccount();
  const a = await account();
  if (a) signedIn(main, a);
  else signedOut(main);
}
