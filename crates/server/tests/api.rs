//! API tests: the router driven directly, without a socket.

mod common;

use agon_server::app;
use agon_server::store::Store;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::*;
use serde_json::{json, Value};
use std::time::Duration;
use tower::ServiceExt;

#[tokio::test]
async fn friend_game_seats_tokens_and_spectators() {
    let app = app(state_on(Store::in_memory().unwrap()));
    let g = create(
        &app,
        json!({"game": "ringo", "rules": "classic", "opponent": "friend", "side": "attackers"}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let alice = g["token"].as_str().unwrap();
    let invite = g["invite"].as_str().unwrap();
    assert_ne!(alice, invite);
    assert_eq!(g["you"], json!([0]));
    assert_eq!(g["invite_url"], format!("/g/{id}?invite={invite}"));
    // The invite code is not a seat token: it must be exchanged once.
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), Some(invite), None).await;
    assert_eq!(v["you"], json!([]));
    let (status, joined) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({ "invite": invite }).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    assert_eq!(joined["you"], json!([1]));
    let bob = joined["token"].as_str().unwrap();

    // The invitee's token gives the other seat; no token is a spectator.
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), Some(bob), None).await;
    assert_eq!(v["you"], json!([1]));
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(v["you"], json!([]));
    assert_eq!(v["state"]["to_move"], "attackers");

    // A legal move by the right seat.
    let (status, v) = action(&app, id, Some(alice), mv("b6-b5")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["state"]["history"], json!(["b6-b5"]));
    // Not your turn, an illegal move, a spectator, a wrong token: refused, nothing changes.
    let (status, v) = action(&app, id, Some(alice), mv("c6-c5")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "not-your-turn", "a stable code beside the words");
    let (status, v) = action(&app, id, Some(bob), mv("b1-b3")).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(v["code"], "illegal-move");
    assert!(
        v["error"].as_str().unwrap().contains("cannot go to b3"),
        "{v}"
    );
    let (status, _) = action(&app, id, None, mv("b1-b2")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = action(
        &app,
        id,
        Some("0123456789abcdef0123456789abcdef"),
        mv("b1-b2"),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(v["state"]["version"], 1);
    // Undo is only for games against the engine.
    let (status, _) = action(&app, id, Some(bob), json!({"type": "undo"})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = action(&app, id, Some(bob), mv("b1-b2")).await;
    assert_eq!(status, StatusCode::OK);
    // The record.
    let (status, v) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v, Value::String("classic b6-b5 b1-b2\n".into()));
}

#[tokio::test]
async fn bad_input_gets_clear_errors() {
    let app = app(state_on(Store::in_memory().unwrap()));
    let cases = [
        ("{not json", "invalid JSON"),
        (r#"{"game": "chess"}"#, "unknown game 'chess'"),
        (
            r#"{"game": "ringo", "rules": "classic,slide=maybe"}"#,
            "valid values: on, off",
        ),
        (
            r#"{"game": "ringo", "opponent": "robot"}"#,
            "unknown opponent",
        ),
        (r#"{"game": "ringo", "side": "light"}"#, "unknown side"),
        (r#"{"game": "ringo", "level": 11}"#, "level is 1 to 10"),
        (r#"{"game": "ringo", "rules": "classic,rings=9"}"#, "rings"),
        (r#"{"game": "urgammon", "to": 0}"#, "use 1 to 99"),
        (r#"{"game": "urgammon", "stake": "lots"}"#, "invalid stake"),
        (r#"{"game": "ringo", "colour": "red"}"#, "unknown field"),
    ];
    for (body, needle) in cases {
        let (status, v) = call(&app, "POST", "/api/games", None, Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{body}: {v}");
        let code = v["code"].as_str().unwrap_or_default();
        assert!(
            [
                "bad-json",
                "unknown-game",
                "unknown-opponent",
                "unknown-side",
                "bad-level",
                "bad-match-target",
                "bad-stake",
                "bad-rules",
                "bad-number"
            ]
            .contains(&code),
            "{body}: {v}"
        );
    }
    let (status, v) = call(&app, "GET", "/api/games/nosuchgame", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(v["code"], "game-not-found");
    let big = format!(r#"{{"game": "ringo", "rules": "{}"}}"#, "x".repeat(100_000));
    let (status, _) = call(&app, "POST", "/api/games", None, Some(&big)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let (_, v) = call(&app, "POST", "/api/games", None, Some(&big)).await;
    assert_eq!(v["code"], "body-too-large");
    let g = create(&app, json!({"game": "ringo", "opponent": "local"})).await;
    let id = g["id"].as_str().unwrap();
    let t = g["token"].as_str();
    for body in [
        r#"{"type": "dance"}"#,
        r#"{"type": "move"}"#,
        "[]",
        r#"{"type": "roll"}"#,
    ] {
        let (status, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/action"),
            t,
            Some(body),
        )
        .await;
        assert!(status.is_client_error(), "{body}: {status} {v}");
        assert!(v["error"].is_string());
    }
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(v["state"]["version"], 0, "bad input changed nothing");
}

#[tokio::test]
async fn urgammon_dice_are_rolled_by_the_server() {
    let app = app(state_on(Store::in_memory().unwrap()));
    let g = create(
        &app,
        json!({"game": "urgammon", "opponent": "local", "to": 1}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let t = g["token"].as_str();
    // The opening roll is made at once; the lower roll must move.
    let s = &g["state"];
    assert_eq!(s["phase"], "move");
    assert!(s["tokens"][0].as_str().unwrap().starts_with("start:"));
    // A client cannot choose its dice: roll tokens are not accepted as moves.
    let (status, _) = action(&app, id, t, mv("r4")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let first = s["moves"][0].as_str().unwrap().to_string();
    let (status, v) = action(&app, id, t, mv(&first)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["state"]["phase"], "roll");
    let (_, v) = action(&app, id, t, json!({"type": "verdict"})).await;
    assert!(
        v["error"].is_string(),
        "no verdict die before the chance roll"
    );
    let (status, v) = action(&app, id, t, json!({"type": "roll"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let last = v["state"]["tokens"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        ["r1", "r2", "r3", "r4"].contains(&last.as_str()) || v["state"]["phase"] == "roll",
        "{last}"
    );
}

#[tokio::test]
async fn the_meta_gives_the_dice_the_rules_roll() {
    let app = app(state_on(Store::in_memory().unwrap()));
    let (status, v) = call(&app, "GET", "/api/meta", None, None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // "A d6 with faces 1, 1, 2, 2, 3, 4"; the verdict die "YES on 4 faces
    // and NO on 2" (shared/rules/urgammon.md, section 3).
    assert_eq!(v["urgammon"]["chance_faces"], json!([1, 1, 2, 2, 3, 4]));
    assert_eq!(v["urgammon"]["verdict_yes_faces"], 4);
    assert_eq!(v["urgammon"]["draw"], json!(["replay", "end"]));
    // The most even set a seek offers first is the even pools' own.
    let even = agon_server::lobby::POOLS
        .iter()
        .find(|p| p.id == "ringo-even-5+3")
        .and_then(|p| p.rules)
        .unwrap();
    assert_eq!(v["ringo"]["even_rules"], even);
    // Other methods are refused; a query changes nothing.
    for method in ["POST", "PUT", "DELETE"] {
        let (status, _) = call(&app, method, "/api/meta", None, Some("{}")).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
    }
    let (_, again) = call(&app, "GET", "/api/meta?x=%00", None, None).await;
    assert_eq!(again, v);
}

#[tokio::test]
async fn each_log_line_names_the_record_length_that_shows_its_turn() {
    let app = app(state_on(Store::in_memory().unwrap()));
    let u = create(&app, json!({"game": "urgammon", "opponent": "local"})).await;
    let (id, t) = (u["id"].as_str().unwrap(), u["token"].as_str());
    // Into the match's second game, so the plies run on past the first.
    let mut s = u["state"].clone();
    for _ in 0..3000 {
        if s["match"]["games"] == 2 && s["log"].as_array().unwrap().len() > 3 {
            break;
        }
        s = action(&app, id, t, urgammon_step(&s, true)).await.1["state"].clone();
    }
    assert_eq!(s["match"]["games"], 2, "{s}");
    let log = s["log"].as_array().unwrap();
    assert_eq!(log.last().unwrap()["ply"], s["version"]);
    for line in log {
        let ply = line["ply"].as_u64().unwrap();
        let (status, at) = call(
            &app,
            "GET",
            &format!("/api/games/{id}/at/{ply}"),
            None,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        // The position after the line's turn: the line is that state's last.
        assert_eq!(at["log"].as_array().unwrap().last().unwrap(), line, "{ply}");
        assert_eq!(at["match"]["games"], 2);
    }
    // Plies rise line by line, from past the first game's tokens.
    let plies: Vec<u64> = log.iter().map(|l| l["ply"].as_u64().unwrap()).collect();
    assert!(plies.windows(2).all(|w| w[0] < w[1]), "{plies:?}");
    assert!(plies[0] > 20, "counted through the match: {plies:?}");
}

#[tokio::test]
async fn engine_games_play_and_undo() {
    let app = app(state_on(Store::in_memory().unwrap()));
    let g = create(
        &app,
        json!({"game": "ringo", "opponent": "engine", "level": 5, "side": "attackers"}),
    )
    .await;
    let id = g["id"].as_str().unwrap().to_string();
    let t = g["token"].as_str().unwrap().to_string();
    let (status, _) = action(&app, &id, Some(&t), mv("d6-d5")).await;
    assert_eq!(status, StatusCode::OK);
    // The engine answers off the request.
    let mut version = 0;
    for _ in 0..200 {
        let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        version = v["state"]["version"].as_u64().unwrap();
        if version == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(version, 2, "the engine replied");
    // Undo takes back the human move and the reply.
    let (status, v) = action(&app, &id, Some(&t), json!({"type": "undo"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["state"]["version"], 0);
    assert_eq!(v["state"]["to_move"], "attackers");
    // The engine's seat has no token: nobody can move for it.
    let (status, _) = action(&app, &id, Some(&t), mv("pass")).await;
    assert_eq!(status, StatusCode::CONFLICT);
}

#[tokio::test]
async fn import_and_replay() {
    let app = app(state_on(Store::in_memory().unwrap()));
    let (status, v) = import(&app, "ringo", "globe b6-b5 b1-c1").await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap();
    assert_eq!(v["state"]["history"], json!(["b6-b5", "b1-c1"]));
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}/at/1"), None, None).await;
    assert_eq!(v["history"], json!(["b6-b5"]));
    assert_eq!(v["total"], 2);
    let (status, v) = import(&app, "ringo", "classic b6-b4").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("move 0"), "{v}");
    let rec = "start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1 2a-3a";
    let (status, v) = import(&app, "urgammon", rec).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["state"]["to_act"], "dark");
    let (status, _) = import(&app, "urgammon", "start:2-3 P-4a").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, v) = call(&app, "GET", "/api/games", None, None).await;
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
}

/// A store whose write-ahead log cannot be fsynced (here: deleted under
/// it, as a data folder removed while the server runs) tells no request its
/// change is stored, refuses every write after, and takes no one else down:
/// the process goes on, and reads still answer.
#[tokio::test]
async fn a_store_whose_log_cannot_be_synced_refuses_writes_and_the_process_goes_on() {
    let dir = std::env::temp_dir().join(format!("agon-api-lost-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let app = app(state_on(Store::open(&dir).unwrap()));
    let g = create(&app, json!({"game": "ringo", "opponent": "local"})).await;
    let id = g["id"].as_str().unwrap().to_string();
    let token = g["token"].as_str().unwrap().to_string();
    let (status, _) = action(&app, &id, Some(&token), mv("b6-b5")).await;
    assert_eq!(status, StatusCode::OK);
    std::fs::remove_file(dir.join("agon.db-wal")).unwrap();
    let (status, v) = action(&app, &id, Some(&token), mv("b1-c1")).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{v}");
    assert!(v.to_string().contains("disk failed"), "{v}");
    let (status, _) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(&json!({"game": "ringo", "opponent": "local"}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    // The game as it was last stored and told.
    let (status, v) = call(&app, "GET", &format!("/api/games/{id}"), Some(&token), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["state"]["history"], json!(["b6-b5"]));
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn a_new_app_on_the_same_file_sees_the_same_games() {
    let dir = std::env::temp_dir().join(format!("agon-api-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (id, token) = {
        let state = state_on(Store::open(&dir).unwrap());
        let app = app(state.clone());
        let g = create(&app, json!({"game": "ringo", "opponent": "local"})).await;
        let id = g["id"].as_str().unwrap().to_string();
        let token = g["token"].as_str().unwrap().to_string();
        for m in ["b6-b5", "b1-c1", "c6-c5"] {
            let (status, _) = action(&app, &id, Some(&token), mv(m)).await;
            assert_eq!(status, StatusCode::OK);
        }
        // The first instance stops before the second starts.
        state.stop().await;
        (id, token)
    };
    let app = app(state_on(Store::open(&dir).unwrap()));
    let (status, v) = call(&app, "GET", &format!("/api/games/{id}"), Some(&token), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["state"]["history"], json!(["b6-b5", "b1-c1", "c6-c5"]));
    assert_eq!(v["you"], json!([0, 1]));
    let (status, _) = action(&app, &id, Some(&token), mv("d1-d2")).await;
    assert_eq!(status, StatusCode::OK);
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn pages_and_static_files_are_served() {
    let app = app(state_on(Store::in_memory().unwrap()));
    for path in [
        "/",
        "/games",
        "/rules",
        "/g/abc",
        "/static/app.js",
        "/static/style.css",
        "/static/i18n.js",
    ] {
        let req = Request::builder().uri(path).body(Body::empty()).unwrap();
        let res = app.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
    }
    let req = Request::builder()
        .uri("/static/secret.txt")
        .body(Body::empty())
        .unwrap();
    assert_eq!(
        app.clone().oneshot(req).await.unwrap().status(),
        StatusCode::NOT_FOUND
    );
}

/// Checks a balance answer's verdicts against its rows (docs/api.md): one
/// per rule set, pooling the strongest strengths the rows list, the
/// attackers' score (a draw counts half) and its verdict; returns how many
/// are balanced.
fn check_verdicts(v: &Value) -> usize {
    let rows = v["rows"].as_array().expect("rows");
    let mut rule_sets: Vec<&Value> = vec![];
    for r in rows {
        if !rule_sets.contains(&&r["rules"]) {
            rule_sets.push(&r["rules"]);
        }
    }
    let pooled = v["pooled"].as_u64().expect("pooled") as usize;
    let verdicts = v["verdicts"].as_array().expect("verdicts");
    assert_eq!(verdicts.len(), rule_sets.len());
    let mut players: Vec<&str> = vec![];
    for r in rows {
        let p = r["player"].as_str().unwrap();
        if !players.contains(&p) {
            players.push(p);
        }
    }
    let strongest = &players[players.len().saturating_sub(pooled)..];
    for verdict in verdicts {
        let cells: Vec<&Value> = rows
            .iter()
            .filter(|r| {
                r["rules"] == verdict["rules"] && strongest.contains(&r["player"].as_str().unwrap())
            })
            .collect();
        let games: u64 = cells.iter().map(|r| r["games"].as_u64().unwrap()).sum();
        let wins: u64 = cells
            .iter()
            .map(|r| r["attackers_wins"].as_u64().unwrap())
            .sum();
        let draws: u64 = cells.iter().map(|r| r["draws"].as_u64().unwrap()).sum();
        assert_eq!(verdict["games"], games, "{verdict}");
        assert_eq!(verdict["attackers_wins"], wins, "{verdict}");
        assert_eq!(verdict["draws"], draws, "{verdict}");
        // The attackers' score: a win 1, a draw a half.
        let rate = (wins as f64 + draws as f64 / 2.0) / games as f64;
        assert!(
            (verdict["attackers_score"].as_f64().unwrap() - rate).abs() < 1e-4,
            "{verdict}"
        );
        let (lo, hi) = (
            verdict["ci95"][0].as_f64().unwrap(),
            verdict["ci95"][1].as_f64().unwrap(),
        );
        assert_eq!(
            verdict["balanced"],
            (rate - 0.5).abs() <= 0.1 && lo <= 0.5 && hi >= 0.5,
            "{verdict}"
        );
    }
    verdicts.iter().filter(|v| v["balanced"] == true).count()
}

#[tokio::test]
async fn the_balance_results_are_served_as_documented_and_each_rule_set_starts_a_game() {
    let app = app(state_on(Store::in_memory().unwrap()));
    let (status, v) = call(&app, "GET", "/api/balance", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(v["command"]
        .as_str()
        .is_some_and(|c| c.starts_with("agon balance")));
    let rows = v["rows"].as_array().expect("rows");
    assert!(!rows.is_empty());
    let mut rule_sets = std::collections::BTreeSet::new();
    for r in rows {
        // docs/api.md: every field, with its type and range.
        let rate = r["attackers_win_rate"].as_f64().expect("rate");
        let (lo, hi) = (
            r["ci95"][0].as_f64().unwrap(),
            r["ci95"][1].as_f64().unwrap(),
        );
        assert!(
            (0.0..=1.0).contains(&lo) && lo <= rate && rate <= hi && hi <= 1.0,
            "{r}"
        );
        let games = r["games"].as_u64().unwrap();
        assert!(games > 0 && r["draws"].as_u64().unwrap() <= games, "{r}");
        assert!(r["timeouts"].as_u64().unwrap() <= games, "{r}");
        assert!(r["mean_plies"].as_f64().unwrap() > 0.0, "{r}");
        assert!((0.0..=1.0).contains(&r["balance"].as_f64().unwrap()), "{r}");
        assert!(r["player"].as_str().is_some_and(|p| !p.is_empty()));
        rule_sets.insert(r["rules"].as_str().unwrap().to_string());
    }
    // One verdict per rule set, and at least one even rule set among the
    // committed results; the same for the run that checked the near-even
    // sets again.
    assert!(check_verdicts(&v) > 0);
    assert!(check_verdicts(&v["checks"]) > 0);
    let more = v["more_checks"].as_array().expect("more_checks");
    assert!(!more.is_empty());
    for check in more {
        check_verdicts(check);
    }
    // A candidate played again is served pooled, with the commands of the
    // runs pooled (`agon balance --from A B`).
    let pooled: Vec<&serde_json::Value> = more
        .iter()
        .filter(|m| m["sources"].as_array().is_some_and(|s| s.len() > 1))
        .collect();
    assert!(!pooled.is_empty(), "a pooled check");
    for m in pooled {
        assert!(m["command"]
            .as_str()
            .is_some_and(|c| c.starts_with("agon balance --from")));
        for source in m["sources"].as_array().unwrap() {
            assert!(source
                .as_str()
                .is_some_and(|c| c.starts_with("agon balance --rules")));
        }
    }
    // The check tables have Play buttons too, some under rule sets the main
    // table does not list.
    for check in std::iter::once(&v["checks"]).chain(more) {
        for r in check["rows"].as_array().expect("check rows") {
            rule_sets.insert(r["rules"].as_str().expect("rules").to_string());
        }
    }
    assert!(v["checks"]["command"]
        .as_str()
        .is_some_and(|c| c.starts_with("agon balance")));
    // The Rules lab's "Play it": each listed rule string is one the game
    // creation takes, and the game plays under exactly it.
    for rules in &rule_sets {
        let g = create(
            &app,
            json!({"game": "ringo", "rules": rules, "opponent": "local"}),
        )
        .await;
        assert_eq!(g["state"]["rules"], json!(rules), "{g}");
    }
    // Hostile requests: other methods are refused, a query changes nothing.
    for method in ["POST", "PUT", "DELETE"] {
        let (status, _) = call(&app, method, "/api/balance", None, Some("{\"rows\": []}")).await;
        assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
    }
    let (status, again) = call(
        &app,
        "GET",
        "/api/balance?rules=%3Cscript%3E&x=1",
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, v);
}

/// Asks for a review until it is ready (the first request starts it).
async fn review(app: &axum::Router, id: &str) -> Value {
    for _ in 0..600 {
        let (status, v) = call(app, "GET", &format!("/api/games/{id}/review"), None, None).await;
        match status {
            StatusCode::OK => return v,
            StatusCode::ACCEPTED => {
                assert_eq!(v["status"], "running", "{v}");
                assert!(v["done"].as_u64() <= v["total"].as_u64(), "{v}");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            other => panic!("review: {other} {v}"),
        }
    }
    panic!("the review did not finish");
}

#[tokio::test]
async fn finished_games_are_reviewed_once_and_the_review_is_stored() {
    let dir = std::env::temp_dir().join(format!("agon-review-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let app = app(state_on(Store::open(&dir).unwrap()));
    let g = create(&app, json!({"game": "ringo", "opponent": "local"})).await;
    let (id, t) = (g["id"].as_str().unwrap(), g["token"].as_str());
    for m in ["b6-b5", "b1-b2", "c6-c5"] {
        action(&app, id, t, mv(m)).await;
    }
    // Not over yet: refused, with its code.
    let (status, v) = call(&app, "GET", &format!("/api/games/{id}/review"), None, None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(v["code"], "game-not-over");
    let (status, _) = call(&app, "GET", "/api/games/nosuchgame/review", None, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    action(&app, id, t, json!({"type": "resign"})).await;
    let r = review(&app, id).await;
    assert_eq!(r["game"], "ringo");
    let plies = r["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 3, "{r}");
    assert_eq!(plies[0]["played"], "b6-b5");
    assert_eq!(plies[1]["side"], "defenders");
    for p in plies {
        let loss = p["loss"].as_f64().unwrap();
        assert!(loss >= 0.0);
        if p["played"] == p["best"] {
            assert_eq!(loss, 0.0, "{p}");
        }
    }
    assert!(r["accuracy"]["attackers"].as_f64().is_some());
    // Stored: a new app on the same file answers at once with the same review.
    let again = agon_server::app(state_on(Store::open(&dir).unwrap()));
    let (status, stored) = call(
        &again,
        "GET",
        &format!("/api/games/{id}/review"),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stored, r);
    // An Urgammon match, resigned after a few turns, is reviewed the same way.
    let u = create(
        &app,
        json!({"game": "urgammon", "opponent": "local", "to": 3}),
    )
    .await;
    let (uid, ut) = (u["id"].as_str().unwrap(), u["token"].as_str());
    let mut s = u["state"].clone();
    for _ in 0..40 {
        s = action(&app, uid, ut, urgammon_step(&s, false)).await.1["state"].clone();
    }
    action(&app, uid, ut, json!({"type": "resign"})).await;
    let r = review(&app, uid).await;
    assert_eq!(r["game"], "urgammon");
    assert!(!r["decisions"].as_array().unwrap().is_empty(), "{r}");
    assert!(r["error_rate"]["light"].as_f64().is_some());
    assert!(r["rating"]["dark"].is_string());
    assert!(r["decisions"][0]["ply"].as_u64().is_some());
    // Each decision's `turn` is the line of the game's own log that holds
    // it, so the review and the game page number it alike.
    let decisions = r["decisions"].as_array().unwrap();
    assert!(decisions.len() > 5, "{r}");
    for d in decisions {
        let ply = d["ply"].as_u64().unwrap();
        let (_, at) = call(
            &app,
            "GET",
            &format!("/api/games/{uid}/at/{}", ply + 1),
            None,
            None,
        )
        .await;
        let log = at["log"].as_array().unwrap();
        let line = log
            .iter()
            .find(|l| l["turn"] == d["turn"])
            .unwrap_or_else(|| panic!("{d} {at}"));
        if d["kind"] == "move" {
            assert!(
                line["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|m| m["notation"] == d["played"]),
                "{d} {line}"
            );
        } else {
            assert!(line["verdict"].is_boolean(), "{d} {line}");
        }
        assert_eq!(line["side"], d["side"], "{d} {line}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn the_analysis_board_analyses_any_position_and_refuses_bad_ones() {
    let app = app(state_on(Store::in_memory().unwrap()));
    let post = |body: Value| {
        let app = app.clone();
        async move { call(&app, "POST", "/api/analyze", None, Some(&body.to_string())).await }
    };
    let (status, v) =
        post(json!({"game": "ringo", "rules": "classic", "moves": "b6-b5 b1-b2", "depth": 4}))
            .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["state"]["history"], json!(["b6-b5", "b1-b2"]));
    assert!(v["analysis"]["best"].is_string(), "{v}");
    assert_eq!(v["analysis"]["depth"], 4);
    // A set-up Ringo position.
    let (status, v) = post(json!({"game": "ringo", "position": ".A....../......../......../......../......../.D.D.... 0 a", "depth": 3})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Urgammon from a set-up position, then a roll: every option with its equity.
    let (status, v) = post(json!({"game": "urgammon", "setup": "light=2a:P dark=8:C roll=light", "record": "r1", "level": 4})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(
        v["analysis"]["options"].as_array().unwrap().len() >= 2,
        "{v}"
    );
    assert!(v["state"]["legal"].as_array().is_some());
    // In a match.
    let (status, v) = post(
        json!({"game": "urgammon", "record": "start:2-3", "to": 5, "score": [2, 3], "level": 4}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["analysis"]["objective"], "match");
    // Hostile input: refused with a code, never a panic.
    for (body, code) in [
        (json!({"game": "ringo", "moves": "b6-b9"}), "illegal-move"),
        (
            json!({"game": "ringo", "rules": "classic,rings=9"}),
            "bad-rules",
        ),
        (json!({"game": "ringo", "depth": 99}), "bad-number"),
        (
            json!({"game": "ringo", "position": "garbage"}),
            "bad-record",
        ),
        (
            json!({"game": "urgammon", "setup": "light=2a:X"}),
            "bad-record",
        ),
        (json!({"game": "urgammon", "record": "r9"}), "bad-record"),
        (json!({"game": "urgammon", "level": 11}), "bad-level"),
        (
            json!({"game": "urgammon", "to": 3, "score": [3, 0]}),
            "bad-match-target",
        ),
        (json!({"game": "chess"}), "bad-json"),
        (json!({"game": "ringo", "colour": "red"}), "bad-json"),
    ] {
        let (status, v) = post(body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["code"], code, "{body}: {v}");
    }
    // A rollout of an Urgammon position; Ringo has none.
    let (status, v) = call(
        &app,
        "POST",
        "/api/rollout",
        None,
        Some(&json!({"game": "urgammon", "record": "start:2-3", "games": 40}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["games"], 40);
    let (status, v) = call(
        &app,
        "POST",
        "/api/rollout",
        None,
        Some(&json!({"game": "ringo"}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, _) = call(
        &app,
        "POST",
        "/api/rollout",
        None,
        Some(&json!({"game": "urgammon", "games": 0}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn the_games_list_pages_and_lists_a_players_own_games() {
    let app = app(state_on(Store::in_memory().unwrap()));
    let mut ids = vec![];
    for _ in 0..3 {
        let g = create(&app, json!({"game": "ringo", "opponent": "local"})).await;
        ids.push(g["id"].as_str().unwrap().to_string());
    }
    let list_ids = |v: &Value| -> Vec<String> {
        v["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_string())
            .collect()
    };
    // One page of everything: no next page.
    let (status, v) = call(&app, "GET", "/api/games", None, None).await;
    assert_eq!(status, StatusCode::OK);
    let all = list_ids(&v);
    assert_eq!(all.len(), 3);
    assert_eq!(v["next"], Value::Null);
    // A Ringo game has no match score.
    assert_eq!(v["games"][0]["score"], Value::Null, "{v}");
    // Pages of two: the first says where the next starts; the second ends.
    let (_, first) = call(&app, "GET", "/api/games?limit=2", None, None).await;
    assert_eq!(list_ids(&first), all[..2]);
    let next = first["next"].as_str().expect("a next page").to_string();
    let (status, second) = call(
        &app,
        "GET",
        &format!("/api/games?limit=2&after={next}"),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{second}");
    assert_eq!(list_ids(&second), all[2..]);
    assert_eq!(second["next"], Value::Null);
    // A player's own games, newest first; an unknown id is left out.
    let (_, own) = call(
        &app,
        "GET",
        &format!("/api/games?ids={},{},nosuchgame", ids[0], ids[2]),
        None,
        None,
    )
    .await;
    let mut want = vec![ids[0].clone(), ids[2].clone()];
    want.sort_by_key(|id| all.iter().position(|a| a == id));
    assert_eq!(list_ids(&own), want);
    let (_, none) = call(&app, "GET", "/api/games?ids=", None, None).await;
    assert!(list_ids(&none).is_empty());
    // A new Urgammon match has 0 : 0 (light's, dark's).
    let u = create(&app, json!({"game": "urgammon", "opponent": "local"})).await;
    let (_, ur) = call(
        &app,
        "GET",
        &format!("/api/games?ids={}", u["id"].as_str().unwrap()),
        None,
        None,
    )
    .await;
    assert_eq!(ur["games"][0]["score"], json!([0, 0]), "{ur}");
    // Hostile queries: a clear 400 with its code, never a panic or a list.
    let many = vec!["abc"; 101].join(",");
    let long = "a".repeat(65);
    for q in [
        "limit=0",
        "limit=101",
        "limit=abc",
        "limit=-1",
        "limit=99999999999999999999999",
        "ids=a%27b",
        "ids=a%00b",
        &format!("ids={many}"),
        &format!("ids={long}"),
        "after=junk",
        "after=1.2.",
        "after=1.2.x%27--",
        "after=99999999999999999999.1.ab",
    ] {
        let (status, v) = call(&app, "GET", &format!("/api/games?{q}"), None, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{q}: {v}");
        assert_eq!(v["code"], "bad-query", "{q}: {v}");
    }
}
