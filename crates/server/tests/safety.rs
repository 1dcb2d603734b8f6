//! Safety between strangers through the HTTP API (issue 75): every path a
//! blocked player might use to reach the player who blocked her is refused
//! (a challenge, one sent before the block, a seek accepted, a pool's
//! pairing, following, her chat lines); reports with hostile input
//! (oneself, twice, a missing player, 10,000 characters, an unknown reason,
//! a game that is not the player's); the moderation routes refused (403)
//! to anyone who is not a moderator; the first moderator made as `agon mod
//! grant` makes her; each action logged once; a mute stops the muted
//! player's chat, on every instance, and tells her until when. The same on
//! PostgreSQL with `AGON_TEST_STORE=postgres`.

mod common;

use agon_server::{app, AppState, Options};
use common::{as_account, call, signup};
use serde_json::{json, Value};
use std::time::Duration;

async fn safety_app(test: &str) -> (AppState, axum::Router) {
    let state = AppState::with_options(
        common::test_store(test).await,
        Options {
            engine_delay: Duration::ZERO,
            ..Options::default()
        },
    );
    (state.clone(), app(state))
}

fn challenge(user: &str) -> Value {
    json!({"user": user, "game": "ringo", "clock": {"base_secs": 300, "increment_secs": 3}})
}

/// A rated friend game between two accounts (Ala attackers), joined:
/// its id and the two seat tokens.
async fn game_between(app: &axum::Router, ala: &str, ola: &str) -> (String, String, String) {
    let (s, g) = as_account(
        app,
        ala,
        "POST",
        "/api/games",
        Some(json!({"game": "ringo", "opponent": "friend", "side": "attackers", "days": 1})),
    )
    .await;
    assert_eq!(s, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let (s, j) = as_account(
        app,
        ola,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"invite": g["invite"]})),
    )
    .await;
    assert_eq!(s, 200, "{j}");
    (
        id,
        g["token"].as_str().unwrap().to_string(),
        j["token"].as_str().unwrap().to_string(),
    )
}

#[tokio::test]
async fn every_path_a_blocked_player_might_take_is_refused() {
    let (_, app) = safety_app("safety_block").await;
    let (ala, eve) = (signup(&app, "ala").await, signup(&app, "eve").await);
    // Eve follows Ala and sends her a challenge before the block.
    as_account(&app, &eve, "POST", "/api/users/ala/follow", None).await;
    let (s, early) = as_account(
        &app,
        &eve,
        "POST",
        "/api/challenges",
        Some(challenge("ala")),
    )
    .await;
    assert_eq!(s, 201, "{early}");
    // They have a game with a chat; Eve writes in it.
    let (game, _, eve_token) = game_between(&app, &ala, &eve).await;
    let (s, _) = call(
        &app,
        "POST",
        &format!("/api/games/{game}/chat"),
        Some(&eve_token),
        Some(&json!({"text": "hello", "room": "players"}).to_string()),
    )
    .await;
    assert_eq!(s, 201);
    // Ala blocks Eve (twice is one block).
    for _ in 0..2 {
        let (s, v) = as_account(&app, &ala, "POST", "/api/users/Eve/block", None).await;
        assert_eq!((s, v["blocked"].as_bool()), (200, Some(true)), "{v}");
    }
    let (_, b) = as_account(&app, &ala, "GET", "/api/account/blocks", None).await;
    assert_eq!(b, json!({"blocks": [{"name": "eve"}]}));
    // The follow is gone, and cannot be made again.
    let (_, p) = call(&app, "GET", "/api/users/ala", None, None).await;
    assert_eq!(p["followers"], 0);
    let (s, v) = as_account(&app, &eve, "POST", "/api/users/ala/follow", None).await;
    assert_eq!((s, v["code"].as_str()), (403, Some("blocked")), "{v}");
    // A challenge: refused, both ways; the one sent before cannot be accepted.
    let (s, v) = as_account(
        &app,
        &eve,
        "POST",
        "/api/challenges",
        Some(challenge("ala")),
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (403, Some("blocked")), "{v}");
    let (s, _) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("eve")),
    )
    .await;
    assert_eq!(s, 403);
    let id = early["id"].as_str().unwrap();
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        None,
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (403, Some("blocked")), "{v}");
    // A seek of Ala's: Eve cannot take it.
    let (s, seek) = as_account(
        &app,
        &ala,
        "POST",
        "/api/seeks",
        Some(json!({"game": "ringo", "rules": "classic"})),
    )
    .await;
    assert_eq!(s, 201);
    let sid = seek["id"].as_str().unwrap();
    let (s, v) = as_account(
        &app,
        &eve,
        "POST",
        &format!("/api/seeks/{sid}/accept"),
        None,
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (403, Some("blocked")), "{v}");
    // Quick pairing: both wait in one pool, and are never paired.
    let (s, a) = as_account(
        &app,
        &ala,
        "POST",
        "/api/pools/ringo-classic-5+3",
        Some(json!({})),
    )
    .await;
    assert_eq!(s, 201, "{a}");
    assert!(a["game"].is_null(), "Ala waits: {a}");
    let (s, e) = as_account(
        &app,
        &eve,
        "POST",
        "/api/pools/ringo-classic-5+3",
        Some(json!({})),
    )
    .await;
    assert_eq!(s, 201, "{e}");
    assert!(e["game"].is_null(), "Eve is not paired with Ala: {e}");
    // A third player is paired with whoever waited first.
    let ola = signup(&app, "ola").await;
    let (_, o) = as_account(
        &app,
        &ola,
        "POST",
        "/api/pools/ringo-classic-5+3",
        Some(json!({})),
    )
    .await;
    assert!(o["game"].is_string(), "Ola is paired: {o}");
    // Ala no longer reads Eve's lines; Eve reads her own.
    let (_, lines) = as_account(
        &app,
        &ala,
        "GET",
        &format!("/api/games/{game}/chat?room=players"),
        None,
    )
    .await;
    assert_eq!(lines["lines"].as_array().unwrap().len(), 0, "{lines}");
    let (_, lines) = as_account(
        &app,
        &eve,
        "GET",
        &format!("/api/games/{game}/chat?room=players"),
        None,
    )
    .await;
    assert_eq!(lines["lines"].as_array().unwrap().len(), 1, "{lines}");
    // Unblocked: a challenge goes through again.
    let (s, v) = as_account(&app, &ala, "DELETE", "/api/users/eve/block", None).await;
    assert_eq!((s, v["blocked"].as_bool()), (200, Some(false)));
    let (s, _) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("eve")),
    )
    .await;
    assert_eq!(s, 201);
    // Hostile: herself, nobody, not signed in.
    let (s, v) = as_account(&app, &ala, "POST", "/api/users/ala/block", None).await;
    assert_eq!((s, v["code"].as_str()), (400, Some("yourself")));
    let (s, _) = as_account(&app, &ala, "POST", "/api/users/nobody/block", None).await;
    assert_eq!(s, 404);
    let (s, _) = call(&app, "POST", "/api/users/eve/block", None, None).await;
    assert_eq!(s, 401);
    let (s, _) = call(&app, "GET", "/api/account/blocks", None, None).await;
    assert_eq!(s, 401);
}

#[tokio::test]
async fn hostile_reports_are_refused_and_one_is_open_at_a_time() {
    let (_, app) = safety_app("safety_reports").await;
    let (ala, _eve) = (signup(&app, "ala").await, signup(&app, "eve").await);
    let report = |target: &str, reason: &str, text: &str| json!({"target": target, "reason": reason, "text": text});
    let (s, _) = call(
        &app,
        "POST",
        "/api/reports",
        None,
        Some(&report("eve", "chat", "x").to_string()),
    )
    .await;
    assert_eq!(s, 401, "not signed in");
    for (body, status, code) in [
        (report("ala", "chat", "me"), 400, "yourself"),
        (report("nobody", "chat", "x"), 404, "user-not-found"),
        (report("eve", "spam", "x"), 400, "bad-report"),
        (
            report("eve", "chat", &"x".repeat(10_000)),
            400,
            "bad-report",
        ),
        (
            json!({"target": "eve", "reason": "cheat", "text": "x", "game": "nosuchgame"}),
            400,
            "bad-report",
        ),
        (
            json!({"target": "eve", "reason": "cheat", "text": "x", "game": "../../etc"}),
            400,
            "bad-report",
        ),
        (json!({"target": "eve"}), 400, "bad-json"),
    ] {
        let (s, v) = as_account(&app, &ala, "POST", "/api/reports", Some(body.clone())).await;
        assert_eq!((s, v["code"].as_str()), (status, Some(code)), "{body}: {v}");
    }
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        "/api/reports",
        Some(report("eve", "name", "her name")),
    )
    .await;
    assert_eq!((s, v["status"].as_str()), (201, Some("open")), "{v}");
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        "/api/reports",
        Some(report("eve", "chat", "again")),
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (409, Some("report-open")), "{v}");
}

#[tokio::test]
async fn moderators_read_reports_with_their_evidence_act_once_each_and_a_mute_stops_the_chat() {
    let (state, app) = safety_app("safety_moderation").await;
    let (ala, eve, mo) = (
        signup(&app, "ala").await,
        signup(&app, "eve").await,
        signup(&app, "mo").await,
    );
    let (game, _, eve_token) = game_between(&app, &ala, &eve).await;
    call(
        &app,
        "POST",
        &format!("/api/games/{game}/chat"),
        Some(&eve_token),
        Some(&json!({"text": "you are awful", "room": "players"}).to_string()),
    )
    .await;
    let (s, r) = as_account(
        &app,
        &ala,
        "POST",
        "/api/reports",
        Some(json!({"target": "eve", "reason": "chat", "text": "insults", "game": game})),
    )
    .await;
    assert_eq!(s, 201, "{r}");
    // Nobody but a moderator reaches the moderation routes: not signed in,
    // a player, the reported player.
    let act = json!({"target": "eve", "action": "warn", "reason": "be kind"});
    for who in [None, Some(&ala), Some(&eve), Some(&mo)] {
        for (m, path, body) in [
            ("GET", "/api/mod/reports", None),
            ("GET", "/api/mod/log", None),
            ("POST", "/api/mod/actions", Some(act.clone())),
        ] {
            let (s, v) = match who {
                Some(c) => as_account(&app, c, m, path, body.clone()).await,
                None => {
                    let (s, v) = call(
                        &app,
                        m,
                        path,
                        None,
                        body.as_ref().map(|b| b.to_string()).as_deref(),
                    )
                    .await;
                    (s.as_u16(), v)
                }
            };
            assert_eq!(
                (s, v["code"].as_str()),
                (403, Some("not-moderator")),
                "{m} {path}: {v}"
            );
        }
    }
    // The first moderator, made from the command line (as `agon mod grant`).
    assert!(state.safety().grant_from_command_line("mo").await.unwrap());
    let (s, reports) = as_account(&app, &mo, "GET", "/api/mod/reports", None).await;
    assert_eq!(s, 200, "{reports}");
    let first = &reports["reports"][0];
    assert_eq!(
        (first["target"].as_str(), first["reason"].as_str()),
        (Some("eve"), Some("chat")),
        "{reports}"
    );
    assert_eq!(
        first["evidence"]["lines"][0]["text"], "you are awful",
        "the line is attached"
    );
    assert_eq!(first["evidence"]["game"], game.as_str());
    // Hostile actions.
    for (body, code) in [
        (
            json!({"target": "eve", "action": "ban-forever", "reason": "x"}),
            "bad-action",
        ),
        (
            json!({"target": "eve", "action": "warn", "reason": "  "}),
            "bad-action",
        ),
        (
            json!({"target": "eve", "action": "mute", "reason": "x", "minutes": 0}),
            "bad-action",
        ),
        (
            json!({"target": "eve", "action": "mute", "reason": "x", "minutes": 1_000_000}),
            "bad-action",
        ),
        (
            json!({"target": "eve", "action": "close-report", "reason": "x"}),
            "bad-action",
        ),
    ] {
        let (s, v) = as_account(&app, &mo, "POST", "/api/mod/actions", Some(body.clone())).await;
        assert_eq!((s, v["code"].as_str()), (400, Some(code)), "{body}: {v}");
    }
    let (s, _) = as_account(
        &app,
        &mo,
        "POST",
        "/api/mod/actions",
        Some(json!({"target": "eve", "action": "warn", "reason": "x", "report": 999_999})),
    )
    .await;
    assert_eq!(s, 404);
    // A mute for an hour, answering the report: the report closes, the
    // action is logged once, Eve's chat is refused and she is told.
    let rid = first["id"].as_i64().unwrap();
    let (s, done) = as_account(&app, &mo, "POST", "/api/mod/actions",
        Some(json!({"target": "eve", "action": "mute", "reason": "insults in chat", "minutes": 60, "report": rid}))).await;
    assert_eq!(s, 201, "{done}");
    let (_, reports) = as_account(&app, &mo, "GET", "/api/mod/reports", None).await;
    assert_eq!(reports["reports"].as_array().unwrap().len(), 0);
    let (_, log) = as_account(&app, &mo, "GET", "/api/mod/log?user=eve", None).await;
    let mutes: Vec<&Value> = log["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["action"] == "mute")
        .collect();
    assert_eq!(mutes.len(), 1, "logged once: {log}");
    assert_eq!(
        (mutes[0]["moderator"].as_str(), mutes[0]["reason"].as_str()),
        (Some("mo"), Some("insults in chat"))
    );
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{game}/chat"),
        Some(&eve_token),
        Some(&json!({"text": "hi", "room": "players"}).to_string()),
    )
    .await;
    assert_eq!(
        (s.as_u16(), v["code"].as_str()),
        (403, Some("muted")),
        "{v}"
    );
    let (_, me) = as_account(&app, &eve, "GET", "/api/account", None).await;
    assert!(
        me["muted_until"].as_i64().unwrap() > agon_server::clock::now_ms() + 59 * 60_000,
        "{me}"
    );
    assert_eq!(
        v["until_ms"], me["muted_until"],
        "the refusal says until when"
    );
    assert_eq!(v["reason"], "insults in chat", "and why: {v}");
    assert_eq!(me["muted_reason"], "insults in chat", "{me}");
    assert_eq!(me["notices"][0]["action"], "mute");
    assert_eq!(me["notices"][0]["reason"], "insults in chat");
    let (_, me) = as_account(&app, &eve, "GET", "/api/account", None).await;
    assert_eq!(me["notices"], json!([]), "told once");
    // Lifted: she writes again.
    as_account(
        &app,
        &mo,
        "POST",
        "/api/mod/actions",
        Some(json!({"target": "eve", "action": "unmute", "reason": "served"})),
    )
    .await;
    let (s, _) = call(
        &app,
        "POST",
        &format!("/api/games/{game}/chat"),
        Some(&eve_token),
        Some(&json!({"text": "sorry", "room": "players"}).to_string()),
    )
    .await;
    assert_eq!(s, 201);
    // A moderator makes another.
    let (s, _) = as_account(
        &app,
        &mo,
        "POST",
        "/api/mod/actions",
        Some(json!({"target": "ala", "action": "grant", "reason": "trusted"})),
    )
    .await;
    assert_eq!(s, 201);
    let (s, _) = as_account(&app, &ala, "GET", "/api/mod/reports", None).await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn a_mute_and_a_block_hold_on_every_instance_at_once() {
    let Some((a, b, _)) = common::two_instances(
        "safety_two_instances",
        Options {
            engine_delay: Duration::ZERO,
            ..Options::default()
        },
    )
    .await
    else {
        eprintln!("skipped: no PostgreSQL test server (AGON_TEST_DATABASE_URL)");
        return;
    };
    let (state_a, app_a, app_b) = (a.clone(), app(a), app(b));
    let (ala, eve, mo) = (
        signup(&app_a, "ala").await,
        signup(&app_a, "eve").await,
        signup(&app_a, "mo").await,
    );
    state_a
        .safety()
        .grant_from_command_line("mo")
        .await
        .unwrap();
    let (game, _, eve_token) = game_between(&app_a, &ala, &eve).await;
    let (s, _) = as_account(
        &app_a,
        &mo,
        "POST",
        "/api/mod/actions",
        Some(json!({"target": "eve", "action": "mute", "reason": "x", "minutes": 5})),
    )
    .await;
    assert_eq!(s, 201);
    let (s, v) = call(
        &app_b,
        "POST",
        &format!("/api/games/{game}/chat"),
        Some(&eve_token),
        Some(&json!({"text": "hi", "room": "players"}).to_string()),
    )
    .await;
    assert_eq!(
        (s.as_u16(), v["code"].as_str()),
        (403, Some("muted")),
        "{v}"
    );
    as_account(&app_a, &ala, "POST", "/api/users/eve/block", None).await;
    let (s, _) = as_account(
        &app_b,
        &eve,
        "POST",
        "/api/challenges",
        Some(challenge("ala")),
    )
    .await;
    assert_eq!(s, 403);
    // A rename on one instance shows at once in the game the other holds in
    // memory (it heard of it from the store).
    let names = |v: &Value| v["state"]["players"][1]["name"].clone();
    let (_, held) = call(&app_b, "GET", &format!("/api/games/{game}"), None, None).await;
    assert_eq!(names(&held), "eve", "{held}");
    let (s, v) = as_account(
        &app_a,
        &mo,
        "POST",
        "/api/mod/actions",
        Some(json!({"target": "eve", "action": "rename", "reason": "x", "name": "player9"})),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    let mut shown = Value::Null;
    for _ in 0..50 {
        let (_, v) = call(&app_b, "GET", &format!("/api/games/{game}"), None, None).await;
        shown = names(&v);
        if shown == "player9" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(shown, "player9");
}

/// Waits until `game` is over (within 10 s); its state.
async fn until_over(app: &axum::Router, game: &str) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let s = common::game_state(app, game).await;
        if s["over"] == true {
            return s;
        }
        assert!(tokio::time::Instant::now() < deadline, "{s}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_player_who_abandons_three_live_games_in_a_row_is_paused_and_told_why() {
    let state = AppState::with_options(
        common::test_store("safety_pause").await,
        Options {
            engine_delay: Duration::ZERO,
            first_move: Duration::from_millis(300),
            ..Options::default()
        },
    );
    let app = app(state);
    let (ala, bob) = (signup(&app, "ala").await, signup(&app, "bob").await);
    let seek = json!({"game": "ringo", "rules": "classic", "side": "attackers",
        "clock": {"base_secs": 300, "increment_secs": 3}});
    // Three games where Ala, the attackers, never makes her first move:
    // each aborts, and is hers to answer for, not Bob's.
    for i in 0..3 {
        let (s, made) = as_account(&app, &ala, "POST", "/api/seeks", Some(seek.clone())).await;
        assert_eq!(s, 201, "seek {i}: {made}");
        let id = made["id"].as_str().unwrap();
        let (s, p) = as_account(&app, &bob, "POST", &format!("/api/seeks/{id}/accept"), None).await;
        assert_eq!(s, 201, "{p}");
        let over = until_over(&app, p["game"].as_str().unwrap()).await;
        assert_eq!(over["status"], "aborted", "{over}");
    }
    let (s, v) = as_account(&app, &ala, "POST", "/api/seeks", Some(seek.clone())).await;
    assert_eq!((s, v["code"].as_str()), (429, Some("paused")), "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("abandoned your last 3 live games"),
        "{v}"
    );
    for (path, body) in [
        ("/api/pools/ringo-classic-5+3", json!({})),
        ("/api/challenges", json!({"user": "bob", "game": "ringo"})),
    ] {
        let (s, v) = as_account(&app, &ala, "POST", path, Some(body)).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (429, Some("paused")),
            "{path}: {v}"
        );
    }
    let (_, me) = as_account(&app, &ala, "GET", "/api/account", None).await;
    assert_eq!(me["paused"]["abandoned"], 3, "{me}");
    let left = me["paused"]["until_ms"].as_i64().unwrap() - agon_server::clock::now_ms();
    assert!(
        (4 * 60_000..=5 * 60_000).contains(&left),
        "five minutes: {left}"
    );
    // Bob, who waited each time, is not paused.
    let (s, _) = as_account(&app, &bob, "POST", "/api/seeks", Some(seek)).await;
    assert_eq!(s, 201);
    let (_, me) = as_account(&app, &bob, "GET", "/api/account", None).await;
    assert!(me["paused"].is_null(), "{me}");
}

/// Signs `name` up from a browser whose device cookie is `device`; her
/// session cookie.
async fn signup_on(app: &axum::Router, name: &str, device: &str) -> String {
    use tower::ServiceExt;
    let req = axum::http::Request::builder()
        .method("POST")
        .uri("/api/account/signup")
        .header("content-type", "application/json")
        .header("cookie", format!("agon_device={device}"))
        .body(axum::body::Body::from(
            json!({"name": name, "password": "correct horse battery"}).to_string(),
        ))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), 201);
    let cookie = res.headers()["set-cookie"].to_str().unwrap();
    cookie.split(';').next().unwrap().to_string()
}

#[tokio::test]
async fn moderators_ban_from_rated_play_rename_close_and_read_a_players_record() {
    let (state, app) = safety_app("safety_sanctions").await;
    let device = "ab".repeat(32);
    let eve = signup_on(&app, "eve", &device).await;
    let _alt = signup_on(&app, "evealt", &device).await;
    let (mo, ola) = (signup(&app, "mo").await, signup(&app, "ola").await);
    state.safety().grant_from_command_line("mo").await.unwrap();
    let act = |body: Value| {
        let (app, mo) = (app.clone(), mo.clone());
        async move { as_account(&app, &mo, "POST", "/api/mod/actions", Some(body)).await }
    };
    // A ban from rated play for a day: rated seeks, pools, challenges,
    // games and seats refused; casual ones go on.
    let (s, v) =
        act(json!({"target": "eve", "action": "rated-ban", "reason": "boosting", "minutes": 1440}))
            .await;
    assert_eq!(s, 201, "{v}");
    let rated = json!({"game": "ringo", "rules": "classic", "rated": true});
    for (path, body) in [
        ("/api/seeks", rated.clone()),
        ("/api/pools/ringo-classic-5+3", json!({"rated": true})),
        (
            "/api/challenges",
            json!({"user": "ola", "game": "ringo", "rated": true}),
        ),
        (
            "/api/games",
            json!({"game": "ringo", "opponent": "friend", "rated": true}),
        ),
    ] {
        let (s, v) = as_account(&app, &eve, "POST", path, Some(body)).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (403, Some("rated-banned")),
            "{path}: {v}"
        );
    }
    let (s, g) = as_account(
        &app,
        &ola,
        "POST",
        "/api/games",
        Some(json!({"game": "ringo", "opponent": "friend", "rated": true})),
    )
    .await;
    assert_eq!(s, 201);
    let (s, v) = as_account(
        &app,
        &eve,
        "POST",
        &format!("/api/games/{}/join", g["id"].as_str().unwrap()),
        Some(json!({"invite": g["invite"]})),
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (403, Some("rated-banned")), "{v}");
    let (s, _) = as_account(
        &app,
        &eve,
        "POST",
        "/api/seeks",
        Some(json!({"game": "ringo", "rules": "classic"})),
    )
    .await;
    assert_eq!(s, 201, "a casual seek goes on");
    // Her record: the other account on her device, the ban, the log.
    let (s, r) = as_account(&app, &mo, "GET", "/api/mod/users/eve", None).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["same_devices"], json!(["evealt"]));
    assert!(r["rated_banned_until"].as_i64().is_some());
    assert_eq!(r["actions"][0]["action"], "rated-ban");
    let (s, _) = as_account(&app, &ola, "GET", "/api/mod/users/eve", None).await;
    assert_eq!(s, 403);
    // Renamed: the new name is hers, the old one gone; a taken one refused.
    let (s, v) =
        act(json!({"target": "eve", "action": "rename", "reason": "offensive", "name": "ola"}))
            .await;
    assert_eq!((s, v["code"].as_str()), (400, Some("bad-action")), "{v}");
    let (s, v) =
        act(json!({"target": "eve", "action": "rename", "reason": "offensive", "name": "<b>"}))
            .await;
    assert_eq!(s, 400, "{v}");
    let (s, v) =
        act(json!({"target": "eve", "action": "rename", "reason": "offensive", "name": "player7"}))
            .await;
    assert_eq!(s, 201, "{v}");
    assert!(
        v["reason"].as_str().unwrap().contains("eve → player7"),
        "{v}"
    );
    let (s, _) = call(&app, "GET", "/api/users/eve", None, None).await;
    assert_eq!(s, 404);
    let (_, me) = as_account(&app, &eve, "GET", "/api/account", None).await;
    assert_eq!(me["name"], "player7");
    // Closed: her sessions end, her profile is gone, her open challenge is
    // cancelled (the challenged player reads so).
    let (s, c) = as_account(
        &app,
        &eve,
        "POST",
        "/api/challenges",
        Some(json!({"user": "ola", "game": "ringo"})),
    )
    .await;
    assert_eq!(s, 201, "a casual challenge goes on: {c}");
    let (s, _) =
        act(json!({"target": "player7", "action": "close", "reason": "repeated abuse"})).await;
    assert_eq!(s, 201);
    let (_, mine) = as_account(&app, &ola, "GET", "/api/challenges", None).await;
    assert_eq!(mine["incoming"][0]["status"], "cancelled", "{mine}");
    let (s, _) = as_account(&app, &eve, "GET", "/api/account", None).await;
    assert_eq!(s, 401);
    let (s, _) = call(&app, "GET", "/api/users/player7", None, None).await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn a_line_with_a_listed_word_is_its_writers_alone_and_counted_on_her_record() {
    let (state, app) = safety_app("safety_words").await;
    let (ala, eve, mo) = (
        signup(&app, "ala").await,
        signup(&app, "eve").await,
        signup(&app, "mo").await,
    );
    state.safety().grant_from_command_line("mo").await.unwrap();
    let (game, ala_token, eve_token) = game_between(&app, &ala, &eve).await;
    let write = |token: &str, text: &str| {
        let (app, token, game, text) = (
            app.clone(),
            token.to_string(),
            game.clone(),
            text.to_string(),
        );
        async move {
            call(
                &app,
                "POST",
                &format!("/api/games/{game}/chat"),
                Some(&token),
                Some(&json!({"text": text, "room": "players"}).to_string()),
            )
            .await
        }
    };
    let (s, v) = write(&eve_token, "you IDIOT").await;
    assert_eq!(s, 201, "the writer is answered as ever: {v}");
    assert_eq!(v["line"]["text"], "you IDIOT");
    let (s, _) = write(&eve_token, "good game").await;
    assert_eq!(s, 201);
    let (_, hers) = call(
        &app,
        "GET",
        &format!("/api/games/{game}/chat?room=players"),
        Some(&eve_token),
        None,
    )
    .await;
    assert_eq!(
        hers["lines"].as_array().unwrap().len(),
        2,
        "she reads both: {hers}"
    );
    let (_, his) = call(
        &app,
        "GET",
        &format!("/api/games/{game}/chat?room=players"),
        Some(&ala_token),
        None,
    )
    .await;
    let texts: Vec<&str> = his["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        ["good game"],
        "the opponent never reads the hidden one"
    );
    let (_, r) = as_account(&app, &mo, "GET", "/api/mod/users/eve", None).await;
    assert_eq!(r["hidden_lines"], 1, "{r}");
}

#[tokio::test]
async fn a_report_the_server_files_itself_is_one_open_per_player_and_reads_as_the_servers() {
    let (state, app) = safety_app("safety_server_report").await;
    let (eve, mo) = (signup(&app, "eve").await, signup(&app, "mo").await);
    let _ = eve;
    state.safety().grant_from_command_line("mo").await.unwrap();
    let target = agon_server::store::SeatAccount {
        id: agon_server::safety::named(state.store(), "eve")
            .await
            .unwrap()
            .unwrap()
            .id,
        name: Some("eve".into()),
    };
    let row = |text: &str| agon_server::store::ReportRow {
        id: 0,
        reporter: None,
        target: target.clone(),
        reason: "boost".into(),
        text: text.into(),
        game: None,
        evidence: "{}".into(),
        status: "open".into(),
        created_ms: 1,
    };
    assert!(state
        .store()
        .add_report(row("first"))
        .await
        .unwrap()
        .is_some());
    assert!(
        state
            .store()
            .add_report(row("again"))
            .await
            .unwrap()
            .is_none(),
        "one open at a time"
    );
    let (_, r) = as_account(&app, &mo, "GET", "/api/mod/reports", None).await;
    assert_eq!(r["reports"].as_array().unwrap().len(), 1, "{r}");
    assert!(r["reports"][0]["reporter"].is_null());
    assert_eq!(r["reports"][0]["text"], "first");
}

#[tokio::test]
async fn a_cheat_mark_is_on_her_profile_keeps_her_from_rated_play_and_is_told_once() {
    let (state, app) = safety_app("safety_mark").await;
    let (eve, mo) = (signup(&app, "eve").await, signup(&app, "mo").await);
    state.safety().grant_from_command_line("mo").await.unwrap();
    let (s, v) = as_account(
        &app,
        &mo,
        "POST",
        "/api/mod/actions",
        Some(json!({"target": "eve", "action": "mark", "reason": "engine moves"})),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    let (_, p) = call(&app, "GET", "/api/users/eve", None, None).await;
    assert_eq!(p["marked"], true);
    let (s, v) = as_account(
        &app,
        &eve,
        "POST",
        "/api/seeks",
        Some(json!({"game": "ringo", "rated": true})),
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (403, Some("rated-banned")), "{v}");
    let (_, me) = as_account(&app, &eve, "GET", "/api/account", None).await;
    assert_eq!(me["notices"][0]["action"], "mark", "{me}");
    // The leaderboards' query leaves marked players out (and still answers).
    for game in ["ringo", "urgammon"] {
        let (s, l) = call(&app, "GET", &format!("/api/leaderboard/{game}"), None, None).await;
        assert_eq!(s, 200, "{l}");
    }
    let (s, _) = as_account(
        &app,
        &mo,
        "POST",
        "/api/mod/actions",
        Some(json!({"target": "eve", "action": "unmark", "reason": "appeal upheld"})),
    )
    .await;
    assert_eq!(s, 201);
    let (_, p) = call(&app, "GET", "/api/users/eve", None, None).await;
    assert_eq!(p["marked"], false);
    let (s, _) = as_account(
        &app,
        &eve,
        "POST",
        "/api/seeks",
        Some(json!({"game": "ringo", "rated": true})),
    )
    .await;
    assert_eq!(s, 201, "rated play again");
}

/// A rated Urgammon match to 1 between `winner` (light, the first seat)
/// and `loser`, who resigns: its id.
async fn match_won(app: &axum::Router, winner: &str, loser: &str) -> String {
    let id = match_begun(app, winner, loser).await;
    resigned(app, &id, loser).await;
    id
}

/// A rated Urgammon match to 1 made by `light` and joined by `dark`: its id.
async fn match_begun(app: &axum::Router, winner: &str, loser: &str) -> String {
    let (s, g) = as_account(
        app,
        winner,
        "POST",
        "/api/games",
        Some(json!({"game": "urgammon", "opponent": "friend", "side": "light", "to": 1, "rated": true})),
    )
    .await;
    assert_eq!(s, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let (s, j) = as_account(
        app,
        loser,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"invite": g["invite"]})),
    )
    .await;
    assert_eq!(s, 200, "{j}");
    id
}

/// `loser` resigns rated game `id`, which is rated.
async fn resigned(app: &axum::Router, id: &str, loser: &str) {
    let (s, v) = as_account(
        app,
        loser,
        "POST",
        &format!("/api/games/{id}/action"),
        Some(json!({"type": "resign"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert!(v["state"]["rating_change"].is_array(), "rated: {v}");
}

/// The server's open reports of `reason` about `target`, as moderator
/// `mo` reads them.
async fn server_reports(app: &axum::Router, mo: &str, target: &str, reason: &str) -> Vec<Value> {
    let (s, r) = as_account(app, mo, "GET", "/api/mod/reports", None).await;
    assert_eq!(s, 200, "{r}");
    r["reports"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["target"] == target && r["reason"] == reason && r["reporter"].is_null())
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_run_of_rated_wins_at_the_engines_accuracy_files_a_report_by_itself() {
    let (state, app) = safety_app("safety_accuracy").await;
    let mut who = std::collections::HashMap::new();
    for name in ["bo", "cy", "eve", "mo"] {
        who.insert(name, signup(&app, name).await);
    }
    state.safety().grant_from_command_line("mo").await.unwrap();
    let store = state.store().clone();
    // Three wins in a row, each resigned at once: the run is reviewed (for
    // real, until a game is not the engine's), and a game of no decisions
    // proves nothing.
    let mut first = vec![];
    for _ in 0..3 {
        first.push(match_won(&app, &who["eve"], &who["bo"]).await);
    }
    let mut reviewed = false;
    for _ in 0..100 {
        for id in &first {
            reviewed |= store.review(id).await.unwrap().is_some();
        }
        if reviewed {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(reviewed, "a game of the run was reviewed");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(server_reports(&app, &who["mo"], "eve", "cheat")
        .await
        .is_empty());
    // Three more, each played (as its review says) at the engine's own
    // error rate over 12 decisions: the third makes a run, and a report.
    let engine_like = json!({
        "game": "urgammon",
        "decisions": (0..12).map(|_| json!({"side": "light", "trivial": false})).collect::<Vec<_>>(),
        "error_rate": {"light": 1.2, "dark": 30.0},
    })
    .to_string();
    let mut run = vec![];
    for n in 0..3 {
        let id = match_begun(&app, &who["eve"], &who["cy"]).await;
        store
            .save_review(&id, 0, engine_like.clone())
            .await
            .unwrap();
        resigned(&app, &id, &who["cy"]).await;
        run.push(id);
        if n < 2 {
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert!(
                server_reports(&app, &who["mo"], "eve", "cheat")
                    .await
                    .is_empty(),
                "not a run yet"
            );
        }
    }
    let mut reports = vec![];
    for _ in 0..50 {
        reports = server_reports(&app, &who["mo"], "eve", "cheat").await;
        if !reports.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(reports.len(), 1, "one report");
    let mut games: Vec<&str> = reports[0]["evidence"]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap())
        .collect();
    games.sort_unstable();
    let mut expected: Vec<&str> = run.iter().map(String::as_str).collect();
    expected.sort_unstable();
    assert_eq!(games, expected, "the run");
    assert!(reports[0]["text"]
        .as_str()
        .unwrap()
        .contains("error rate 1.2"));
    // The loser is not reported: she lost.
    assert!(server_reports(&app, &who["mo"], "cy", "cheat")
        .await
        .is_empty());
}

#[tokio::test]
async fn a_cheat_mark_restores_her_opponents_ratings_exactly_and_an_unmark_puts_them_back() {
    use agon_server::model::Kind;
    use agon_server::ratings::rate;
    use agon_server::store::RatingRow;
    let (state, app) = safety_app("safety_mark_ratings").await;
    let mut who = std::collections::HashMap::new();
    for name in ["ala", "bo", "cy", "eve", "mo"] {
        who.insert(name, signup(&app, name).await);
    }
    state.safety().grant_from_command_line("mo").await.unwrap();
    // Eve wins twice among fair games; her opponents lose rating to her.
    let g1 = match_won(&app, &who["ala"], &who["bo"]).await;
    let g2 = match_won(&app, &who["eve"], &who["bo"]).await;
    let g3 = match_won(&app, &who["eve"], &who["cy"]).await;
    let g4 = match_won(&app, &who["bo"], &who["cy"]).await;
    let g5 = match_won(&app, &who["cy"], &who["ala"]).await;
    let store = state.store().clone();
    let id = |name: &'static str| {
        let store = store.clone();
        async move { store.account_by_key(name).await.unwrap().unwrap().id }
    };
    let rating = |account: i64| {
        let store = store.clone();
        async move {
            store
                .ratings_of(account)
                .await
                .unwrap()
                .into_iter()
                .find(|(k, _)| *k == Kind::Urgammon)
                .map(|(_, r)| r)
        }
    };
    let (ala, bo, cy, eve) = (
        id("ala").await,
        id("bo").await,
        id("cy").await,
        id("eve").await,
    );
    let played = [
        rating(ala).await,
        rating(bo).await,
        rating(cy).await,
        rating(eve).await,
    ];
    let mark = |action: &'static str| {
        let (app, mo) = (app.clone(), who["mo"].clone());
        async move {
            let (s, v) = as_account(
                &app,
                &mo,
                "POST",
                "/api/mod/actions",
                Some(json!({"target": "eve", "action": action, "reason": "engine moves"})),
            )
            .await;
            assert_eq!(s, 201, "{v}");
        }
    };
    mark("mark").await;
    // The recount by hand: the games without Eve's, in the order played.
    let [a1, b1] = rate([RatingRow::NEW; 2], &[1.0]);
    let [b4, c4] = rate([b1, RatingRow::NEW], &[1.0]);
    let [c5, a5] = rate([c4, a1], &[1.0]);
    assert_eq!(rating(ala).await, Some(a5));
    assert_eq!(rating(bo).await, Some(b4));
    assert_eq!(rating(cy).await, Some(c5));
    assert_eq!(rating(eve).await, None, "her games no longer count");
    // Her games show no change; the later ones show their new changes.
    for (game, change) in [
        (&g2, [0.0, 0.0]),
        (&g3, [0.0, 0.0]),
        (
            &g4,
            [b4.rating - b1.rating, c4.rating - RatingRow::NEW.rating],
        ),
        (&g1, [a1.rating - 1500.0, b1.rating - 1500.0]),
    ] {
        let (_, g) = call(&app, "GET", &format!("/api/games/{game}"), None, None).await;
        let shown: Vec<f64> = g["state"]["rating_change"]
            .as_array()
            .unwrap_or_else(|| panic!("{g}"))
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        // (JSON's floats are read back to within 1e-9: serde_json's
        // parser is not exact in the last bit; the store's are compared
        // exactly above.)
        assert!(
            shown.iter().zip(change).all(|(a, b)| (a - b).abs() < 1e-9),
            "{game}: {shown:?} {change:?}"
        );
    }
    // Bo's history holds his two games that count.
    let history = store.rating_history(bo, Kind::Urgammon).await.unwrap();
    let games: Vec<&str> = history.iter().map(|h| h.game.as_str()).collect();
    assert_eq!(games, [g1.as_str(), g4.as_str()]);
    assert_eq!(history[1].rating, b4.rating);
    // The leaderboard and profiles read the replayed ratings.
    let (_, p) = call(&app, "GET", "/api/users/bo", None, None).await;
    assert_eq!(p["ratings"]["urgammon"]["rating"], b4.rating.round() as i64);
    // Unmarked: every rating exactly as played.
    mark("unmark").await;
    assert_eq!(
        [
            rating(ala).await,
            rating(bo).await,
            rating(cy).await,
            rating(eve).await
        ],
        played
    );
    let history = store.rating_history(bo, Kind::Urgammon).await.unwrap();
    assert_eq!(history.len(), 3);
    assert_eq!(history[1].game, g2);
    let _ = g5;
}

#[tokio::test]
async fn a_block_a_mute_and_a_hidden_line_keep_a_line_off_every_channel() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let state = AppState::with_options(
        common::test_store("safety_channels").await,
        Options {
            engine_delay: Duration::ZERO,
            push: common::loopback_push(),
            ..Options::default()
        },
    );
    let app = app(state.clone());
    let (ala, eve, mo) = (
        signup(&app, "ala").await,
        signup(&app, "eve").await,
        signup(&app, "mo").await,
    );
    state.safety().grant_from_command_line("mo").await.unwrap();
    let (game, ala_token, eve_token) = game_between(&app, &ala, &eve).await;
    let tokens = [ala_token.clone(), eve_token.clone()];
    // Ala's four ways of hearing a line: her browser's push subscription
    // (a push service of the test's own), the game's socket, /api/turns
    // and the chat's list.
    let (push_at, mut pushed) = common::push_service("/push").await;
    let (s, v) =
        common::push_subscribe(&app, &format!("http://{push_at}/push"), &game, &ala_token).await;
    assert_eq!(s, 201, "{v}");
    let at = common::serve(app.clone()).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{at}/api/games/{game}/ws"))
            .await
            .unwrap();
    socket
        .send(Message::Text(
            json!({"type": "hello", "token": ala_token})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
    common::next_message(&mut socket, Some("hello")).await;
    let eve_says = |text: &str| {
        let (app, game, token, text) = (
            app.clone(),
            game.clone(),
            eve_token.clone(),
            text.to_string(),
        );
        async move {
            call(
                &app,
                "POST",
                &format!("/api/games/{game}/chat"),
                Some(&token),
                Some(&json!({"text": text, "room": "players"}).to_string()),
            )
            .await
        }
    };
    let turns_line = || {
        let (app, ala, game, token) = (app.clone(), ala.clone(), game.clone(), ala_token.clone());
        async move {
            let (s, t) = as_account(
                &app,
                &ala,
                "POST",
                "/api/turns",
                Some(json!({"games": [{"id": game, "token": token}]})),
            )
            .await;
            assert_eq!(s, 200, "{t}");
            t["games"][0]["chat"]["text"].clone()
        }
    };
    let listed = || {
        let (app, game, token) = (app.clone(), game.clone(), ala_token.clone());
        async move {
            let (_, l) = call(
                &app,
                "GET",
                &format!("/api/games/{game}/chat?room=players"),
                Some(&token),
                None,
            )
            .await;
            l["lines"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l["text"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };

    // Before anything: Eve's line reaches Ala on all four.
    let (s, _) = eve_says("hello ala").await;
    assert_eq!(s, 201);
    let line = common::next_message(&mut socket, Some("chat")).await;
    assert_eq!(line["line"]["text"], "hello ala");
    let push = common::next_push(&mut pushed).await;
    assert!(
        push["body"].as_str().unwrap().contains("hello ala"),
        "{push}"
    );
    assert_eq!(turns_line().await, "hello ala");

    // A block: Eve's line reaches Ala nowhere.
    let (s, _) = as_account(&app, &ala, "POST", "/api/users/eve/block", None).await;
    assert_eq!(s, 200);
    let (s, _) = eve_says("after the block").await;
    assert_eq!(s, 201, "Eve is answered as ever");
    // None of hers, the earlier ones neither.
    assert_eq!(turns_line().await, Value::Null);
    assert!(listed().await.is_empty());

    // A hidden line (a listed word), the block lifted: Eve's alone.
    let (s, _) = as_account(&app, &ala, "DELETE", "/api/users/eve/block", None).await;
    assert_eq!(s, 200);
    let (s, v) = eve_says("you IDIOT").await;
    assert_eq!(s, 201, "{v}");
    // (A block is a reader's filter: lifted, her earlier lines show again.)
    assert_eq!(
        turns_line().await,
        "after the block",
        "a hidden line is never the one /api/turns shows"
    );
    assert_eq!(listed().await, ["hello ala", "after the block"]);

    // A mute: her line is refused, and nothing of it goes anywhere.
    let (s, v) = as_account(
        &app,
        &mo,
        "POST",
        "/api/mod/actions",
        Some(json!({"target": "eve", "action": "mute", "reason": "insults", "minutes": 60})),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    let (s, v) = eve_says("muted now").await;
    assert_eq!(
        (s.as_u16(), v["code"].as_str()),
        (403, Some("muted")),
        "{v}"
    );
    assert_eq!(turns_line().await, "after the block");
    assert_eq!(listed().await, ["hello ala", "after the block"]);

    // The socket's next line is Ala's own, written now: none of Eve's
    // three came before it (the one written under the block was never
    // sent, and is not sent when the block is lifted).
    let (s, _) = call(
        &app,
        "POST",
        &format!("/api/games/{game}/chat"),
        Some(&ala_token),
        Some(&json!({"text": "ala here", "room": "players"}).to_string()),
    )
    .await;
    assert_eq!(s, 201);
    let line = common::next_message(&mut socket, Some("chat")).await;
    assert_eq!(line["line"]["text"], "ala here");
    // The next push Ala's browser gets is Eve's move, not a line of hers.
    loop {
        let st = common::game_state(&app, &game).await;
        let by_eve = st["seat_to_act"] == 1;
        common::play_first(&app, &game, &tokens).await;
        if by_eve {
            break;
        }
    }
    let push = common::next_push(&mut pushed).await;
    assert_eq!(push["title"], "Your turn", "{push}");
}

#[tokio::test]
async fn a_moderator_never_acts_on_herself_and_every_public_text_keeps_the_one_policy() {
    let (state, app) = safety_app("safety_self_and_text").await;
    let (ala, eve, mo) = (
        signup(&app, "ala").await,
        signup(&app, "eve").await,
        signup(&app, "mo").await,
    );
    state.safety().grant_from_command_line("mo").await.unwrap();
    // Closing her own account through moderation, without her password:
    // refused, and she is still signed in.
    for action in ["close", "mute", "rename"] {
        let (s, v) = as_account(&app, &mo, "POST", "/api/mod/actions",
            Some(json!({"target": "mo", "action": action, "reason": "mine", "minutes": 10, "name": "mo2"}))).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (400, Some("yourself")),
            "{action}: {v}"
        );
    }
    let (s, me) = as_account(&app, &mo, "GET", "/api/account", None).await;
    assert_eq!(s, 200, "{me}");
    // Chat: a line has no line separators; invisible text is refused.
    let (game, _, eve_token) = game_between(&app, &ala, &eve).await;
    for bad in ["a\u{2028}b", "a\u{2029}b", "\u{200b}\u{feff}", "a\u{85}b"] {
        let (s, v) = call(
            &app,
            "POST",
            &format!("/api/games/{game}/chat"),
            Some(&eve_token),
            Some(&json!({"text": bad, "room": "players"}).to_string()),
        )
        .await;
        assert_eq!(
            (s.as_u16(), v["code"].as_str()),
            (400, Some("bad-chat")),
            "{bad:?}: {v}"
        );
    }
    // Reports: as moderators read them, the direction override gone.
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        "/api/reports",
        Some(json!({"target": "eve", "reason": "name", "text": "look: \u{202e}gnp.exe"})),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    let (_, reports) = as_account(&app, &mo, "GET", "/api/mod/reports", None).await;
    assert_eq!(reports["reports"][0]["text"], "look: gnp.exe", "{reports}");
    // A moderator's reason that shows nothing is no reason.
    let (s, v) = as_account(
        &app,
        &mo,
        "POST",
        "/api/mod/actions",
        Some(json!({"target": "eve", "action": "warn", "reason": "\u{200b}\u{00ad}"})),
    )
    .await;
    assert_eq!(s, 400, "{v}");
}
