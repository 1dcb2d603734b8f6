//! Live play through the HTTP API: clocks (charged, incremented, a flag
//! that falls on its own and one a late move finds), abort (by a player,
//! and by the server when the first move does not come), the lobby's seeks
//! (made, listed, accepted once however many accept at once, cancelled),
//! quick pairing, and hostile input on every new route. The same on
//! PostgreSQL with `AGON_TEST_STORE=postgres`.

mod common;

use agon_server::{app, AppState, Options};
use common::{action, as_account, call, mv, signup};
use serde_json::{json, Value};
use std::time::Duration;

/// An app whose live games wait `first_move` for a first move.
async fn live_app(test: &str, first_move: Duration) -> axum::Router {
    let state = AppState::with_options(
        common::test_store(test).await,
        Options {
            engine_delay: Duration::ZERO,
            first_move,
            ..Options::default()
        },
    );
    app(state)
}

/// A clocked friend game, joined: its id and the two seats' tokens (seat 0's
/// first).
async fn clocked(app: &axum::Router, game: &str, clock: Value) -> (String, [String; 2]) {
    common::friend_game(app, game, json!({ "clock": clock })).await
}

async fn state(app: &axum::Router, id: &str) -> Value {
    common::game_state(app, id).await
}

/// The first legal Ringo move.
fn first_move(s: &Value) -> String {
    s["moves"][0].as_str().unwrap().to_string()
}

/// Plays the side to act's first legal Ringo move.
async fn play(app: &axum::Router, id: &str, tokens: &[String; 2]) -> Value {
    common::play_first(app, id, tokens).await
}

#[tokio::test]
async fn a_clock_runs_for_the_side_to_act_and_earns_its_increment() {
    let app = live_app("live_clock", Duration::from_secs(30)).await;
    let (id, tokens) = clocked(&app, "ringo", json!({"base_secs": 60, "increment_secs": 2})).await;
    let s = state(&app, &id).await;
    // Before both first moves the clock does not run; the first move is
    // awaited until a deadline.
    assert_eq!(s["clock"]["remaining_ms"], json!([60_000, 60_000]));
    assert_eq!(s["clock"]["running"], Value::Null);
    assert_eq!(s["clock"]["increment_ms"], 2000);
    assert!(s["clock"]["first_move_deadline_ms"].is_i64());
    assert_eq!(s["abortable"], true);
    play(&app, &id, &tokens).await;
    let s = play(&app, &id, &tokens).await;
    // Both have moved: the attackers' clock runs, and abort is gone.
    assert_eq!(s["clock"]["running"], 0);
    assert_eq!(s["abortable"], false);
    assert_eq!(s["clock"]["first_move_deadline_ms"], Value::Null);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let s = state(&app, &id).await;
    let left = s["clock"]["remaining_ms"][0].as_i64().unwrap();
    assert!((59_500..=59_750).contains(&left), "{left}");
    let s = play(&app, &id, &tokens).await;
    // Charged about 300 ms, then 2 s more.
    let left = s["clock"]["remaining_ms"][0].as_i64().unwrap();
    assert!((61_500..=61_750).contains(&left), "{left}");
    assert_eq!(s["clock"]["running"], 1);
    // The lag a client reports is credited, up to the bound.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let seat1 = state(&app, &id).await;
    let body = json!({"type": "move", "move": first_move(&seat1), "lag_ms": 100_000});
    let (st, v) = action(&app, &id, Some(&tokens[1]), body).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(v["state"]["clock"]["remaining_ms"][1], 62_000);
    // Hostile lags are refused as JSON.
    let (st, _) = action(
        &app,
        &id,
        Some(&tokens[0]),
        json!({"type": "move", "move": "x", "lag_ms": -5}),
    )
    .await;
    assert_eq!(st, 400);
}

#[tokio::test]
async fn a_flag_falls_on_its_own_and_the_game_is_lost_on_time() {
    let app = live_app("live_flag", Duration::from_secs(30)).await;
    let (id, tokens) = clocked(&app, "ringo", json!({"base_secs": 1})).await;
    play(&app, &id, &tokens).await;
    play(&app, &id, &tokens).await;
    // The attackers think for ever: their second flag falls within a tick.
    tokio::time::sleep(Duration::from_millis(1_300)).await;
    let s = state(&app, &id).await;
    assert_eq!(s["over"], true, "{s}");
    assert_eq!(s["reason"], "time");
    assert_eq!(s["winner"], "defenders");
    assert_eq!(s["clock"]["remaining_ms"][0], 0);
    assert_eq!(s["clock"]["running"], Value::Null);
    // A move after the end is refused.
    let (st, v) = action(&app, &id, Some(&tokens[0]), mv("a1")).await;
    assert_eq!(st, 409, "{v}");
    // The list says so too.
    let (_, list) = call(&app, "GET", "/api/games", None, None).await;
    let entry = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .cloned()
        .unwrap();
    assert_eq!(entry["reason"], "time");
    assert_eq!(entry["status"], "defenders-win");
}

#[tokio::test]
async fn a_player_aborts_before_both_have_moved_and_not_after() {
    let app = live_app("live_abort", Duration::from_secs(30)).await;
    let (id, tokens) = clocked(&app, "ringo", json!({"base_secs": 60})).await;
    play(&app, &id, &tokens).await;
    // The side that has moved may still abort: the other has not.
    let (st, v) = action(&app, &id, Some(&tokens[0]), json!({"type": "abort"})).await;
    assert_eq!(st, 200, "{v}");
    let s = &v["state"];
    assert_eq!(s["over"], true);
    assert_eq!(s["reason"], "abort");
    assert_eq!(s["status"], "aborted");
    assert_eq!(s["winner"], Value::Null);
    let (st, v) = action(&app, &id, Some(&tokens[1]), json!({"type": "abort"})).await;
    assert_eq!(st, 409, "{v}");

    let (id, tokens) = clocked(&app, "ringo", json!({"base_secs": 60})).await;
    play(&app, &id, &tokens).await;
    play(&app, &id, &tokens).await;
    let (st, v) = action(&app, &id, Some(&tokens[1]), json!({"type": "abort"})).await;
    assert_eq!(st, 409, "{v}");
    assert_eq!(v["code"], "cannot-abort");
    // Not by a spectator, nor in a game against the computer.
    let (st, _) = action(&app, &id, None, json!({"type": "abort"})).await;
    assert_eq!(st, 403);
    let g = common::create(&app, json!({"game": "ringo"})).await;
    let (st, v) = action(
        &app,
        g["id"].as_str().unwrap(),
        g["token"].as_str(),
        json!({"type": "abort"}),
    )
    .await;
    assert_eq!(st, 409, "{v}");
    // Nor an imported game between two people, past its first moves.
    let body =
        json!({"game": "ringo", "record": "classic b6-b5 b1-a1", "opponent": "friend"}).to_string();
    let (st, g) = call(&app, "POST", "/api/import", None, Some(&body)).await;
    assert_eq!(st, 201, "{g}");
    assert_eq!(g["state"]["abortable"], false);
}

#[tokio::test]
async fn the_server_aborts_a_live_game_whose_first_move_does_not_come() {
    let app = live_app("live_first_move", Duration::from_millis(400)).await;
    let (id, tokens) = clocked(&app, "urgammon", json!({"base_secs": 60})).await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    let s = state(&app, &id).await;
    assert_eq!(s["over"], true, "{s}");
    assert_eq!(s["reason"], "abort");
    assert_eq!(s["match"]["winner"], Value::Null);
    let (st, _) = action(&app, &id, Some(&tokens[0]), json!({"type": "roll"})).await;
    assert_eq!(st, 409);
}

#[tokio::test]
async fn an_urgammon_clock_runs_on_decisions_and_not_on_forced_rolls() {
    let app = live_app("live_urgammon", Duration::from_secs(30)).await;
    let (id, tokens) = clocked(
        &app,
        "urgammon",
        json!({"base_secs": 600, "increment_secs": 1}),
    )
    .await;
    // Play 40 decisions: a forced verdict roll never waits for a player.
    for _ in 0..40 {
        let s = state(&app, &id).await;
        if s["over"] == true {
            break;
        }
        assert_ne!(s["phase"], "verdict", "a forced verdict waits: {s}");
        assert_eq!(s["between_games"], false);
        let seat = s["seat_to_act"].as_u64().unwrap() as usize;
        let (st, v) = action(
            &app,
            &id,
            Some(&tokens[seat]),
            common::urgammon_step(&s, false),
        )
        .await;
        assert_eq!(st, 200, "{v}");
    }
    let s = state(&app, &id).await;
    assert!(s["clock"]["running"].is_u64(), "{s}");
}

#[tokio::test]
async fn clocks_refuse_hostile_settings() {
    let app = live_app("live_hostile_clock", Duration::from_secs(30)).await;
    for clock in [
        json!({"base_secs": 0}),
        json!({"base_secs": 99_999}),
        json!({"base_secs": 60, "increment_secs": 999}),
        json!({"base_secs": -1}),
        json!({"base_secs": "60"}),
        json!({"base_secs": 60, "evil": 1}),
        json!("5+3"),
    ] {
        let body = json!({"game": "ringo", "opponent": "friend", "clock": clock});
        let (st, v) = call(&app, "POST", "/api/games", None, Some(&body.to_string())).await;
        assert_eq!(st, 400, "{clock}: {v}");
    }
    for opponent in ["engine", "local"] {
        let body = json!({"game": "ringo", "opponent": opponent, "clock": {"base_secs": 60}});
        let (st, v) = call(&app, "POST", "/api/games", None, Some(&body.to_string())).await;
        assert_eq!(st, 400, "{v}");
        assert_eq!(v["code"], "bad-clock");
    }
}

async fn seek(app: &axum::Router, body: Value) -> (String, String) {
    let (st, v) = call(app, "POST", "/api/seeks", None, Some(&body.to_string())).await;
    assert_eq!(st, 201, "{v}");
    (
        v["id"].as_str().unwrap().to_string(),
        v["token"].as_str().unwrap().to_string(),
    )
}

#[tokio::test]
async fn a_seek_becomes_one_game_with_both_players_seated() {
    let app = live_app("live_seek", Duration::from_secs(30)).await;
    let (id, token) = seek(
        &app,
        json!({"game": "ringo", "rules": "classic", "clock": {"base_secs": 180, "increment_secs": 2}, "side": "defenders"}),
    )
    .await;
    let (st, list) = call(&app, "GET", "/api/seeks", None, None).await;
    assert_eq!(st, 200);
    let s = &list["seeks"][0];
    assert_eq!(s["id"], id.as_str());
    assert_eq!(s["clock_label"], "3+2");
    assert_eq!(s["side"], "defenders");
    assert_eq!(s["rated"], false);
    assert!(s.get("token_hash").is_none(), "{s}");
    assert_eq!(list["pools"].as_array().unwrap().len(), 5);
    // The creator cannot accept her own seek.
    let (st, v) = call(
        &app,
        "POST",
        &format!("/api/seeks/{id}/accept"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(st, 409, "{v}");
    assert_eq!(v["code"], "own-seek");
    let (st, v) = call(&app, "POST", &format!("/api/seeks/{id}/accept"), None, None).await;
    assert_eq!(st, 201, "{v}");
    let game = v["game"].as_str().unwrap().to_string();
    let mine = v["token"].as_str().unwrap().to_string();
    // Taken: 409, and gone from the list.
    let (st, v) = call(&app, "POST", &format!("/api/seeks/{id}/accept"), None, None).await;
    assert_eq!(st, 409, "{v}");
    assert_eq!(v["code"], "seek-taken");
    let (_, list) = call(&app, "GET", "/api/seeks", None, None).await;
    assert_eq!(list["seeks"], json!([]));
    // Both tokens hold their seats: the creator the defenders.
    let (_, g) = call(
        &app,
        "GET",
        &format!("/api/games/{game}"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(g["you"], json!([1]));
    assert_eq!(g["state"]["clock"]["base_ms"], 180_000);
    assert_eq!(g["state"]["mode"], "friend");
    assert_eq!(g["state"]["waiting_for_friend"], false);
    let (_, g) = call(
        &app,
        "GET",
        &format!("/api/games/{game}"),
        Some(&mine),
        None,
    )
    .await;
    assert_eq!(g["you"], json!([0]));
}

#[tokio::test]
async fn a_hundred_clients_accepting_one_seek_make_one_game() {
    let app = live_app("live_race", Duration::from_secs(30)).await;
    let (id, _) = seek(
        &app,
        json!({"game": "urgammon", "to": 3, "clock": {"base_secs": 60}}),
    )
    .await;
    let tasks: Vec<_> = (0..100)
        .map(|_| {
            let (app, uri) = (app.clone(), format!("/api/seeks/{id}/accept"));
            tokio::spawn(async move { call(&app, "POST", &uri, None, None).await })
        })
        .collect();
    let mut won = vec![];
    for t in tasks {
        let (st, v) = t.await.unwrap();
        match st.as_u16() {
            201 => won.push(v["game"].as_str().unwrap().to_string()),
            409 => assert_eq!(v["code"], "seek-taken"),
            other => panic!("{other}: {v}"),
        }
    }
    assert_eq!(won.len(), 1, "{won:?}");
}

#[tokio::test]
async fn seeks_refuse_hostile_input() {
    let app = live_app("live_hostile_seek", Duration::from_secs(30)).await;
    for (body, status, code) in [
        (json!({"game": "chess"}), 400, "unknown-game"),
        (
            json!({"game": "ringo", "rules": "nonsense=1"}),
            400,
            "bad-rules",
        ),
        (
            json!({"game": "urgammon", "to": 0}),
            400,
            "bad-match-target",
        ),
        (
            json!({"game": "ringo", "clock": {"base_secs": 0}}),
            400,
            "bad-clock",
        ),
        (
            json!({"game": "ringo", "rated": true}),
            401,
            "not-signed-in",
        ),
        (
            json!({"game": "ringo", "rating_min": 1800, "rating_max": 1200}),
            400,
            "bad-range",
        ),
        (json!({"game": "ringo", "rating_min": -5}), 400, "bad-range"),
        (
            json!({"game": "ringo", "side": "middle"}),
            400,
            "unknown-side",
        ),
        (json!({"game": "ringo", "token_hash": "x"}), 400, "bad-json"),
    ] {
        let (st, v) = call(&app, "POST", "/api/seeks", None, Some(&body.to_string())).await;
        assert_eq!(st.as_u16(), status, "{body}: {v}");
        assert_eq!(v["code"], code, "{body}: {v}");
    }
    let (st, _) = call(&app, "POST", "/api/seeks", None, Some("{not json")).await;
    assert_eq!(st, 400);
    // Unknown, cancelled and someone else's seeks.
    let (st, v) = call(&app, "POST", "/api/seeks/nope/accept", None, None).await;
    assert_eq!(
        (st.as_u16(), v["code"].clone()),
        (404, json!("no-such-seek"))
    );
    let (id, token) = seek(&app, json!({"game": "ringo"})).await;
    let (st, v) = call(
        &app,
        "DELETE",
        &format!("/api/seeks/{id}"),
        Some("0123456789abcdef0123456789abcdef"),
        None,
    )
    .await;
    assert_eq!(
        (st.as_u16(), v["code"].clone()),
        (403, json!("not-your-seek"))
    );
    let (st, _) = call(&app, "DELETE", &format!("/api/seeks/{id}"), None, None).await;
    assert_eq!(st, 403);
    let (st, _) = call(
        &app,
        "DELETE",
        &format!("/api/seeks/{id}"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(st, 204);
    let (st, _) = call(&app, "POST", &format!("/api/seeks/{id}/accept"), None, None).await;
    assert_eq!(st, 404);
    let (st, _) = call(
        &app,
        "DELETE",
        &format!("/api/seeks/{id}"),
        Some(&token),
        None,
    )
    .await;
    assert_eq!(st, 404);
    // A seek with a rating range is for signed-in players.
    let (id, _) = seek(&app, json!({"game": "ringo", "rating_min": 1000})).await;
    let (st, v) = call(&app, "POST", &format!("/api/seeks/{id}/accept"), None, None).await;
    assert_eq!(
        (st.as_u16(), v["code"].clone()),
        (403, json!("out-of-range"))
    );
    // Pools.
    let (st, v) = call(&app, "POST", "/api/pools/chess-blitz", None, None).await;
    assert_eq!(
        (st.as_u16(), v["code"].clone()),
        (404, json!("unknown-pool"))
    );
    let (st, v) = call(
        &app,
        "POST",
        "/api/pools/ringo-classic-5+3",
        None,
        Some("{\"rated\": true}"),
    )
    .await;
    assert_eq!(
        (st.as_u16(), v["code"].clone()),
        (401, json!("not-signed-in"))
    );
    let (st, _) = call(
        &app,
        "POST",
        "/api/pools/ringo-classic-5+3",
        None,
        Some("{\"x\": 1}"),
    )
    .await;
    assert_eq!(st, 400);
}

#[tokio::test]
async fn an_account_waits_once_in_a_pool_whatever_page_it_joins_from() {
    let app = live_app("live_pool_once", Duration::from_secs(30)).await;
    let ola = signup(&app, "ola").await;
    let (st, first) = as_account(&app, &ola, "POST", "/api/pools/ringo-even-5+3", None).await;
    assert_eq!(st, 201, "{first}");
    // A second page (no seek token of the first) joins again, rated or
    // not: refused, and the pool still counts her once.
    for body in [None, Some(json!({"rated": true}))] {
        let (st, v) = as_account(&app, &ola, "POST", "/api/pools/ringo-even-5+3", body).await;
        assert_eq!(
            (st, v["code"].as_str()),
            (409, Some("already-waiting")),
            "{v}"
        );
    }
    let (_, pools) = call(&app, "GET", "/api/pools", None, None).await;
    let waiting = pools
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "ringo-even-5+3")
        .unwrap()["waiting"]
        .clone();
    assert_eq!(waiting, 1);
    // Another pool is another queue.
    let (st, v) = as_account(&app, &ola, "POST", "/api/pools/urgammon-3-5+5", None).await;
    assert_eq!(st, 201, "{v}");
}

#[tokio::test]
async fn quick_pairing_pairs_two_waiting_players() {
    let app = live_app("live_pool", Duration::from_secs(30)).await;
    let (st, a) = call(&app, "POST", "/api/pools/urgammon-3-5+5", None, None).await;
    assert_eq!(st, 201, "{a}");
    assert!(a["id"].is_string() && a["game"].is_null(), "{a}");
    // Waiting players are counted, and not shown as seeks.
    let (_, list) = call(&app, "GET", "/api/seeks", None, None).await;
    assert_eq!(list["seeks"], json!([]));
    let pool = list["pools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "urgammon-3-5+5")
        .unwrap()
        .clone();
    assert_eq!(pool["waiting"], 1);
    // Her own second join does not pair her with herself.
    let (st, again) = call(
        &app,
        "POST",
        "/api/pools/urgammon-3-5+5",
        a["token"].as_str(),
        None,
    )
    .await;
    assert_eq!(st, 201);
    assert!(again["game"].is_null(), "{again}");
    // She waits once: her second join gives back her waiting seek.
    assert_eq!(again["id"], a["id"], "{again}");
    assert_eq!(again["token"], a["token"]);
    let (st, b) = call(&app, "POST", "/api/pools/urgammon-3-5+5", None, None).await;
    assert_eq!(st, 201, "{b}");
    let game = b["game"].as_str().expect("paired at once").to_string();
    let (_, g) = call(
        &app,
        "GET",
        &format!("/api/games/{game}"),
        b["token"].as_str(),
        None,
    )
    .await;
    assert_eq!(g["you"].as_array().unwrap().len(), 1);
    assert_eq!(g["state"]["clock"]["increment_ms"], 5000);
    assert_eq!(g["state"]["match"]["to"], 3);
    // The first player's seek was taken: her token holds the other seat.
    let mut other = vec![];
    for t in [a["token"].as_str()] {
        let (_, g2) = call(&app, "GET", &format!("/api/games/{game}"), t, None).await;
        other.extend(g2["you"].as_array().unwrap().iter().cloned());
    }
    assert_eq!(other.len(), 1, "{other:?}");
    assert_ne!(g["you"][0], other[0]);
}

#[tokio::test]
async fn the_even_pool_plays_the_labs_most_even_set() {
    let app = live_app("live_even", Duration::from_secs(30)).await;
    let (_, lab) = call(&app, "GET", "/api/balance", None, None).await;
    let even = lab["checks"]["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["balanced"] == true)
        .min_by(|a, b| {
            let d = |v: &&Value| (v["attackers_score"].as_f64().unwrap() - 0.5).abs();
            d(a).total_cmp(&d(b))
        })
        .unwrap()["rules"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, pools) = call(&app, "GET", "/api/pools", None, None).await;
    let pool = pools
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "ringo-even-5+3")
        .unwrap()
        .clone();
    assert_eq!(
        pool["settings"],
        even.as_str(),
        "the lab's most even set is {even}"
    );
}

/// Two instances on one PostgreSQL database (each its own store handle,
/// its own announcements, its own clock keeper), or `None` without a test
/// server.
async fn two_instances(test: &str) -> Option<(AppState, AppState, String)> {
    let options = Options {
        engine_delay: Duration::ZERO,
        ..Options::default()
    };
    common::two_instances(test, options).await
}

#[tokio::test]
async fn a_move_and_the_flag_at_the_same_moment_have_one_outcome_on_both_instances() {
    let Some((a, b, _)) = two_instances("live_flag_race").await else {
        return;
    };
    let (app_a, app_b) = (app(a), app(b));
    let mut outcomes = std::collections::HashMap::new();
    for round in 0..6i64 {
        let (id, tokens) = clocked(&app_a, "ringo", json!({"base_secs": 1})).await;
        play(&app_a, &id, &tokens).await;
        play(&app_b, &id, &tokens).await;
        // Instance A keeps the clock (the last move went through B, so B
        // does: either way one of them fires the flag) while the attackers'
        // move reaches B just as the flag falls.
        let s = state(&app_b, &id).await;
        let mv_text = first_move(&s);
        let left = s["clock"]["remaining_ms"][0].as_u64().unwrap();
        let wait = (left as i64 - 60 + 20 * round).max(0) as u64;
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let (st, _) = action(&app_b, &id, Some(&tokens[0]), mv(&mv_text)).await;
        assert!(st == 200 || st == 409, "{st}");
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        let on_a = state(&app_a, &id).await;
        let on_b = state(&app_b, &id).await;
        for k in ["revision", "over", "reason", "winner", "version"] {
            assert_eq!(on_a[k], on_b[k], "{k}: {on_a} / {on_b}");
        }
        for k in ["remaining_ms", "running"] {
            assert_eq!(on_a["clock"][k], on_b["clock"][k], "{k}: {on_a} / {on_b}");
        }
        // The defenders winning on time: the attackers' flag fell first;
        // the attackers winning: their move came in time (and the
        // defenders' one second ran out after it).
        *outcomes
            .entry(format!("{} ({st})", on_a["winner"]))
            .or_insert(0) += 1;
    }
    eprintln!("outcomes of the races: {outcomes:?}");
}

#[tokio::test]
async fn a_killed_instances_clocks_go_on_from_another_without_charging_the_gap() {
    let Some((a, b, url)) = two_instances("live_takeover").await else {
        return;
    };
    let app_a = app(a.clone());
    let (id, tokens) = clocked(&app_a, "ringo", json!({"base_secs": 20})).await;
    play(&app_a, &id, &tokens).await;
    play(&app_a, &id, &tokens).await;
    let s = state(&app_a, &id).await;
    let before = s["clock"]["remaining_ms"][0].as_i64().unwrap();
    let revision = s["revision"].as_i64().unwrap();
    assert_eq!(state(&app_a, &id).await["clock"]["running"], 0);
    let keeper = a.games().instance().to_string();
    // A dies: its loops stop (its heartbeat with them), its router and
    // state go.
    a.stop().await;
    drop(app_a);
    drop(a);
    let app_b = app(b.clone());
    // B takes the clock over within a few seconds.
    let started = std::time::Instant::now();
    loop {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let s = state(&app_b, &id).await;
        if s["revision"].as_i64().unwrap() > revision {
            break;
        }
        if started.elapsed() > Duration::from_secs(8) {
            let (c, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(conn);
            let rows = c
                .query("SELECT id, seen_ms FROM instances", &[])
                .await
                .unwrap();
            let seen: Vec<(String, i64)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
            panic!(
                "not taken over: {seen:?} now {} {s}",
                agon_server::clock::now_ms()
            );
        }
    }
    eprintln!("taken over from {keeper} after {:?}", started.elapsed());
    let s = state(&app_b, &id).await;
    assert_eq!(s["over"], false);
    let after = s["clock"]["remaining_ms"][0].as_i64().unwrap();
    // At most the keeper's last second, never the seconds it was dead.
    assert!(before - after <= 1_500, "charged {} ms", before - after);
    // And it goes on: the attackers move through B.
    let (st, v) = action(&app_b, &id, Some(&tokens[0]), mv(&first_move(&s))).await;
    assert_eq!(st, 200, "{v}");
}

#[tokio::test]
async fn accepts_through_two_instances_make_one_game() {
    let Some((a, b, _)) = two_instances("live_accept_race").await else {
        return;
    };
    let (app_a, app_b) = (app(a), app(b));
    let (id, _) = seek(&app_a, json!({"game": "ringo", "clock": {"base_secs": 60}})).await;
    let tasks: Vec<_> = (0..100)
        .map(|i| {
            let app = if i % 2 == 0 {
                app_a.clone()
            } else {
                app_b.clone()
            };
            let uri = format!("/api/seeks/{id}/accept");
            tokio::spawn(async move { call(&app, "POST", &uri, None, None).await })
        })
        .collect();
    let mut won = 0;
    for t in tasks {
        let (st, v) = t.await.unwrap();
        match st.as_u16() {
            201 => won += 1,
            409 => assert_eq!(v["code"], "seek-taken"),
            other => panic!("{other}: {v}"),
        }
    }
    assert_eq!(won, 1);
}

/// The app served on a real socket: its lobby WebSocket's address.
async fn served(router: axum::Router) -> String {
    format!("ws://{}/api/lobby/ws", common::serve(router).await)
}

#[tokio::test]
async fn the_lobby_socket_pushes_changes_and_a_held_seek_goes_with_its_socket() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let app = live_app("live_lobby_ws", Duration::from_secs(30)).await;
    let url = served(app.clone()).await;
    let (mut watcher, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let first = common::next_message(&mut watcher, None).await;
    assert_eq!(first["type"], "seeks");
    assert_eq!(first["seeks"], json!([]));
    assert_eq!(first["pools"].as_array().unwrap().len(), 5);
    // A seek made over HTTP reaches the socket.
    let (id, token) = seek(&app, json!({"game": "ringo", "clock": {"base_secs": 60}})).await;
    // (A change of the pools' counts may come first, on its own.)
    let change = loop {
        let m = common::next_message(&mut watcher, Some("lobby")).await;
        if m["added"].as_array().is_some_and(|a| !a.is_empty()) {
            break m;
        }
    };
    assert_eq!(change["type"], "lobby");
    assert_eq!(change["added"][0]["id"], id.as_str());
    assert_eq!(change["added"][0]["clock_label"], "1+0");
    // Its creator holds it on a socket of her own; a wrong token holds
    // nothing; garbage is answered, not obeyed.
    let (mut creator, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    common::next_message(&mut creator, None).await;
    for (msg, want) in [
        (
            json!({"type": "hold", "seek": id, "token": "0".repeat(32)}).to_string(),
            json!({"type": "held", "seek": id, "ok": false}),
        ),
        (
            json!({"type": "hold", "seek": "nope", "token": token}).to_string(),
            json!({"type": "held", "seek": "nope", "ok": false}),
        ),
        (
            json!({"type": "hold", "seek": id, "token": token}).to_string(),
            json!({"type": "held", "seek": id, "ok": true}),
        ),
        ("ping".to_string(), json!({"type": "pong"})),
    ] {
        creator.send(Message::Text(msg.into())).await.unwrap();
        assert_eq!(common::next_message(&mut creator, None).await, want);
    }
    for junk in [
        "{\"type\": \"accept\"}",
        "<script>",
        "{\"type\": \"hold\", \"seek\": 1}",
    ] {
        creator.send(Message::Text(junk.into())).await.unwrap();
        assert_eq!(
            common::next_message(&mut creator, None).await["type"],
            "error"
        );
    }
    // Larger than a message may be: the socket closes.
    let (mut big, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    common::next_message(&mut big, None).await;
    let _ = big.send(Message::Text("x".repeat(10_000).into())).await;
    // The creator leaves: her seek goes, and the watcher is told.
    drop(creator);
    let change = common::next_message(&mut watcher, None).await;
    assert_eq!(
        change["gone"],
        json!([{"id": id, "game": null}]),
        "{change}"
    );
    let (st, _) = call(&app, "POST", &format!("/api/seeks/{id}/accept"), None, None).await;
    assert_eq!(st, 404);
    // Accepted: the change names the game.
    let (id, _) = seek(&app, json!({"game": "urgammon", "to": 1})).await;
    common::next_message(&mut watcher, None).await;
    let (_, v) = call(&app, "POST", &format!("/api/seeks/{id}/accept"), None, None).await;
    let change = common::next_message(&mut watcher, None).await;
    assert_eq!(
        change["gone"],
        json!([{"id": id, "game": v["game"]}]),
        "{change}"
    );
}

/// Lobby sockets that join while seeks are made, cancelled and accepted
/// as fast as the API takes them: each is told every change after the
/// whole lobby it was first sent, once and in order (no seek added twice,
/// none gone that it did not have), and each ends with the lobby as it is.
#[tokio::test]
async fn every_lobby_socket_is_told_each_change_once_and_in_order_whenever_it_joined() {
    use futures_util::StreamExt;
    use std::collections::BTreeSet;
    use tokio_tungstenite::tungstenite::Message;
    let app = live_app("live_lobby_order", Duration::from_secs(30)).await;
    let url = served(app.clone()).await;
    let mut watchers = vec![];
    for i in 0..8u64 {
        let url = url.clone();
        watchers.push(tokio::spawn(async move {
            // Joining at different moments of the changes below.
            tokio::time::sleep(Duration::from_millis(i * 40)).await;
            let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
            let mut open: BTreeSet<String> = BTreeSet::new();
            let ids = |v: &Value| -> Vec<String> {
                v.as_array()
                    .map(|a| {
                        a.iter()
                            .map(|s| s["id"].as_str().unwrap().to_string())
                            .collect()
                    })
                    .unwrap_or_default()
            };
            // Until the lobby has been quiet for a second.
            while let Ok(Some(Ok(msg))) =
                tokio::time::timeout(Duration::from_secs(1), ws.next()).await
            {
                let Message::Text(t) = msg else { continue };
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                match v["type"].as_str() {
                    Some("seeks") => open = ids(&v["seeks"]).into_iter().collect(),
                    Some("lobby") => {
                        for id in ids(&v["added"]) {
                            assert!(open.insert(id.clone()), "{id} added twice: {v}");
                        }
                        for id in ids(&v["gone"]) {
                            assert!(open.remove(&id), "{id} gone but never added: {v}");
                        }
                    }
                    _ => {}
                }
            }
            open
        }));
    }
    // Made, and one in three cancelled, one in three accepted.
    for i in 0..45 {
        let (id, token) = seek(&app, json!({"game": "ringo"})).await;
        let (st, _) = match i % 3 {
            0 => {
                call(
                    &app,
                    "DELETE",
                    &format!("/api/seeks/{id}"),
                    Some(&token),
                    None,
                )
                .await
            }
            1 => call(&app, "POST", &format!("/api/seeks/{id}/accept"), None, None).await,
            _ => continue,
        };
        assert!(st.is_success(), "{st}");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (_, list) = call(&app, "GET", "/api/seeks", None, None).await;
    let want: BTreeSet<String> = list["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(want.len(), 15);
    for w in watchers {
        assert_eq!(w.await.unwrap(), want);
    }
}

#[tokio::test]
async fn a_rated_seek_is_between_two_accounts_and_keeps_its_range() {
    let app = live_app("live_rated_seek", Duration::from_secs(30)).await;
    let (ala, ola, ela) = (
        signup(&app, "ala").await,
        signup(&app, "ola").await,
        signup(&app, "ela").await,
    );
    let (st, made) = as_account(&app, &ala, "POST", "/api/seeks", Some(json!({"game": "ringo", "rated": true, "rating_min": 1400, "rating_max": 1600, "clock": {"base_secs": 300, "increment_secs": 3}}))).await;
    assert_eq!(st, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let (_, list) = call(&app, "GET", "/api/seeks", None, None).await;
    let s = &list["seeks"][0];
    assert_eq!(
        (
            s["name"].clone(),
            s["rating"].clone(),
            s["provisional"].clone(),
            s["rated"].clone()
        ),
        (json!("ala"), json!(1500.0), json!(true), json!(true))
    );
    // Not by herself, not without an account.
    let (st, v) = as_account(&app, &ala, "POST", &format!("/api/seeks/{id}/accept"), None).await;
    assert_eq!((st, v["code"].clone()), (409, json!("own-seek")));
    let (st, _) = call(&app, "POST", &format!("/api/seeks/{id}/accept"), None, None).await;
    assert_eq!(st, 401);
    // Someone else may not cancel it.
    let (st, _) = as_account(&app, &ela, "DELETE", &format!("/api/seeks/{id}"), None).await;
    assert_eq!(st, 403);
    let (st, v) = as_account(&app, &ola, "POST", &format!("/api/seeks/{id}/accept"), None).await;
    assert_eq!(st, 201, "{v}");
    let (_, g) = as_account(
        &app,
        &ola,
        "GET",
        &format!("/api/games/{}", v["game"].as_str().unwrap()),
        None,
    )
    .await;
    let s = &g["state"];
    assert_eq!(s["rated"], true);
    assert_eq!(
        s["pair"]["game"], 1,
        "a rated Ringo game is the first of a pair"
    );
    let names: Vec<&str> = s["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"ala") && names.contains(&"ola"),
        "{names:?}"
    );
    assert_eq!(g["you"].as_array().unwrap().len(), 1);
    // A seek's range: ela (1500) is outside 1600 to 1800.
    let (_, made) = as_account(
        &app,
        &ala,
        "POST",
        "/api/seeks",
        Some(json!({"game": "urgammon", "rating_min": 1600, "rating_max": 1800})),
    )
    .await;
    let (st, v) = as_account(
        &app,
        &ela,
        "POST",
        &format!("/api/seeks/{}/accept", made["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!((st, v["code"].clone()), (403, json!("out-of-range")));
    // Three seeks open at most per account.
    for _ in 0..2 {
        let (st, _) = as_account(
            &app,
            &ala,
            "POST",
            "/api/seeks",
            Some(json!({"game": "ringo"})),
        )
        .await;
        assert_eq!(st, 201);
    }
    let (st, v) = as_account(
        &app,
        &ala,
        "POST",
        "/api/seeks",
        Some(json!({"game": "ringo"})),
    )
    .await;
    assert_eq!((st, v["code"].clone()), (429, json!("too-many-seeks")));
}

/// Sends `request` on a fresh connection to `addr` and reads until `done`
/// says the answer is whole, the server closes it, or five seconds pass:
/// everything it answered.
async fn raw_exchange(addr: &str, request: &[u8], done: fn(&[u8]) -> bool) -> Vec<u8> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    s.write_all(request).await.unwrap();
    let mut got = vec![];
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while let Ok(Ok(n)) = tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
        if done(&got) {
            break;
        }
    }
    got
}

/// An error answer has come whole (its JSON body closed).
fn answered(got: &[u8]) -> bool {
    got.ends_with(b"}")
}

/// An upgrade's answer and the first frame after it have come.
fn framed(got: &[u8]) -> bool {
    got.windows(4)
        .position(|w| w == b"\r\n\r\n")
        .is_some_and(|at| got.len() > at + 4)
}

/// The lobby's socket answers its own upgrade (it writes its batches to the
/// connection itself): what is not a WebSocket upgrade is refused with the
/// API's error shape, and the protocol's duties hold against a hostile
/// client: pings answered, binary and unmasked frames refused, an oversized
/// message ends the socket.
#[tokio::test]
async fn the_lobby_socket_keeps_the_websocket_protocol_against_hostile_clients() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let app = live_app("live_lobby_protocol", Duration::from_secs(30)).await;
    let addr = common::serve(app.clone()).await;
    let upgrade = |extra: &str| {
        format!("GET /api/lobby/ws HTTP/1.1\r\nHost: {addr}\r\n{extra}\r\n",).into_bytes()
    };
    let good = "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
                Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    // Not upgrades: 400 with a JSON error, no socket counted.
    for (headers, why) in [
        ("Connection: close\r\n", "Connection"),
        (
            "Connection: Upgrade\r\nUpgrade: h2c\r\nConnection: close\r\n",
            "Upgrade",
        ),
        (
            "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 8\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n",
            "Version",
        ),
        (
            "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n",
            "Key",
        ),
    ] {
        let answer =
            String::from_utf8_lossy(&raw_exchange(&addr, &upgrade(headers), answered).await)
                .to_string();
        assert!(answer.starts_with("HTTP/1.1 400"), "{why}: {answer}");
        assert!(
            answer.contains("\"code\":\"bad-request\""),
            "{why}: {answer}"
        );
        assert!(answer.contains(why), "{why}: {answer}");
    }
    // A good upgrade: 101 with the key's answer (RFC 6455's own example),
    // then the whole lobby as the first frame.
    let answer = raw_exchange(&addr, &upgrade(good), framed).await;
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 101"), "{text}");
    assert!(text.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), "{text}");
    let body = &answer[text.find("\r\n\r\n").unwrap() + 4..];
    assert_eq!(body[0], 0x81, "a whole text frame");
    // A client's frame that is not masked: the socket is closed, and the
    // ping in it not answered.
    let mut unmasked = upgrade(good);
    unmasked.extend_from_slice(&[0x81, 4, b'p', b'i', b'n', b'g']);
    let answer = raw_exchange(&addr, &unmasked, |_| false).await;
    assert!(
        !String::from_utf8_lossy(&answer).contains("pong"),
        "an unmasked frame is not obeyed"
    );
    let url = format!("ws://{addr}/api/lobby/ws");
    // A ping frame is answered with its payload; binary is refused in
    // words; the socket still works after both.
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    common::next_message(&mut ws, Some("seeks")).await;
    ws.send(Message::Ping(b"are you there".to_vec().into()))
        .await
        .unwrap();
    let pong = loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .unwrap()
        {
            Some(Ok(Message::Pong(p))) => break p,
            Some(Ok(_)) => {}
            other => panic!("a pong, not {other:?}"),
        }
    };
    assert_eq!(&pong[..], b"are you there");
    ws.send(Message::Binary(vec![0, 1, 2].into()))
        .await
        .unwrap();
    let refused = common::next_message(&mut ws, Some("error")).await;
    assert!(refused["error"].as_str().unwrap().contains("text"));
    ws.send(Message::Text("ping".into())).await.unwrap();
    assert_eq!(
        common::next_message(&mut ws, Some("pong")).await["type"],
        "pong"
    );
    // A message larger than the socket takes: it ends.
    let _ = ws.send(Message::Text("x".repeat(10_000).into())).await;
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match ws.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the socket ended");
    // Every socket of the test has gone from the count.
    let gone = tokio::time::timeout(Duration::from_secs(5), async {
        while call(&app, "GET", "/api/health", None, None).await.1["sockets"] != 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(gone.is_ok(), "no socket left counted");
}
