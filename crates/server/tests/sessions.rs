//! Games two people can trust: typed actions, revisions, the dice ledger,
//! fair Undo, engine jobs tied to revisions, visible game ends, invites,
//! resign and rematch. Driven through the HTTP API, without a socket.

mod common;

use agon_server::store::Store;
use agon_server::{app, AppState};
use axum::http::StatusCode;
use common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// A small deterministic generator for the random games (SplitMix64).
struct Rng(rand_xoshiro::SplitMix64);
impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(rand_core::SeedableRng::seed_from_u64(seed))
    }
    fn below(&mut self, n: usize) -> usize {
        (rand_core::RngCore::next_u64(&mut self.0) % n as u64) as usize
    }
}

/// The store these tests run on: SQLite in memory, or with
/// `AGON_TEST_STORE=postgres` a fresh PostgreSQL database (`./test.sh` runs
/// this file both ways, so sessions behave the same on both stores).
async fn store() -> Store {
    if std::env::var("AGON_TEST_STORE").as_deref() == Ok("postgres") {
        return common::pg_store("sessions")
            .await
            .expect("AGON_TEST_STORE=postgres needs AGON_TEST_DATABASE_URL");
    }
    Store::in_memory().unwrap()
}

async fn fresh() -> axum::Router {
    app(state_on(store().await))
}

async fn get(app: &axum::Router, id: &str, token: Option<&str>) -> Value {
    let (status, v) = call(app, "GET", &format!("/api/games/{id}"), token, None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

fn kind(t: &str) -> Option<usize> {
    if t.starts_with("start:") {
        Some(0)
    } else if t.len() == 2 && t.starts_with('r') {
        Some(1)
    } else if t == "v+" || t == "v-" {
        Some(2)
    } else {
        None
    }
}

/// Every die of a record, in order, by die (opening, chance, verdict).
fn dice_of(tokens: &[Value]) -> [Vec<String>; 3] {
    let mut out: [Vec<String>; 3] = Default::default();
    for t in tokens.iter().filter_map(Value::as_str) {
        if let Some(k) = kind(t) {
            out[k].push(t.to_string());
        }
    }
    out
}

#[tokio::test]
async fn dice_tokens_are_never_moves_in_any_phase() {
    let app = fresh().await;
    let (_, id, t) = start(
        &app,
        json!({"game": "urgammon", "opponent": "local", "to": 5}),
    )
    .await;
    let (id, t) = (id.as_str(), Some(t.as_str()));
    let mut rng = Rng::new(5);
    let mut phases = std::collections::HashSet::new();
    // Until every phase has been tried, "over" (between two games of the
    // match) included: a die is refused as a die there too.
    for _ in 0..4000 {
        let s = get(&app, id, t).await["state"].clone();
        let tried = ["roll", "decide", "move", "over"];
        if s["over"] == true || tried.iter().all(|p| phases.contains(*p)) {
            break;
        }
        phases.insert(s["phase"].as_str().unwrap().to_string());
        for die in ["r1", "r4", "v+", "v-", "start:1-2", "start:3-3"] {
            let (status, v) = action(&app, id, t, mv(die)).await;
            assert_eq!(
                status,
                StatusCode::BAD_REQUEST,
                "{die} in {}: {v}",
                s["phase"]
            );
            assert!(v["error"].as_str().unwrap().contains("die"), "{v}");
        }
        assert_eq!(
            get(&app, id, t).await["state"]["revision"],
            s["revision"],
            "refusals change nothing"
        );
        let a = match s["phase"].as_str().unwrap() {
            "roll" => json!({"type": "roll"}),
            "verdict" => json!({"type": "verdict"}),
            "over" => json!({"type": "next"}),
            _ => {
                let moves = s["moves"].as_array().unwrap();
                if moves.is_empty() || rng.below(4) == 0 && s["verdict_allowed"] == true {
                    json!({"type": "verdict"})
                } else {
                    mv(moves[rng.below(moves.len())].as_str().unwrap())
                }
            }
        };
        let (status, v) = action(&app, id, t, a).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    for p in ["roll", "decide", "move", "over"] {
        assert!(phases.contains(p), "phase {p} was tried: {phases:?}");
    }
}

/// Invariant: in each game, the n-th opening roll, the n-th chance roll and
/// the n-th verdict roll always have the same value, however often Undo takes
/// them back and whatever is played in between.
#[tokio::test]
async fn the_dice_ledger_holds_over_random_games_with_random_undos() {
    let app = fresh().await;
    let mut rng = Rng::new(2026);
    let (mut undos, mut rerolled) = (0, 0);
    // 30 games of up to 160 steps take about 5,000 steps and 900 undos (200
    // games took two minutes and proved no more: every game reaches the cap).
    for game in 0..30 {
        let mode = if game % 2 == 0 { "local" } else { "engine" };
        let mut body =
            json!({"game": "urgammon", "opponent": mode, "to": 1, "side": "light", "level": 1});
        if mode == "local" {
            body.as_object_mut().unwrap().remove("level");
        }
        let g = create(&app, body).await;
        let id = g["id"].as_str().unwrap().to_string();
        let t = g["token"].as_str().unwrap().to_string();
        let you: Vec<u64> = g["you"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let mut seen: [Vec<String>; 3] = Default::default();
        for _ in 0..160 {
            let (_, at) = call(
                &app,
                "GET",
                &format!("/api/games/{id}/at/100000"),
                None,
                None,
            )
            .await;
            let dice = dice_of(at["tokens_all"].as_array().unwrap());
            for k in 0..3 {
                for (n, d) in dice[k].iter().enumerate() {
                    match seen[k].get(n) {
                        Some(before) => {
                            assert_eq!(before, d, "game {game}: die {k} roll {n} changed");
                            rerolled += 1;
                        }
                        None => seen[k].push(d.clone()),
                    }
                }
            }
            let s = at;
            if s["over"] == true {
                break;
            }
            let mine = s["seat_to_act"].as_u64().is_some_and(|x| you.contains(&x));
            let can_undo = you.iter().any(|&x| s["undoable"][x as usize] == true);
            let a = if can_undo && rng.below(5) == 0 {
                undos += 1;
                json!({"type": "undo"})
            } else if s["between_games"] == true {
                json!({"type": "next"})
            } else if !mine {
                // The engine's turn: wait for it.
                tokio::time::sleep(Duration::from_millis(2)).await;
                continue;
            } else {
                match s["phase"].as_str().unwrap() {
                    "roll" => json!({"type": "roll"}),
                    "verdict" => json!({"type": "verdict"}),
                    _ => {
                        let moves = s["moves"].as_array().unwrap();
                        if rng.below(3) == 0 && s["verdict_allowed"] == true {
                            json!({"type": "verdict"})
                        } else {
                            mv(moves[rng.below(moves.len())].as_str().unwrap())
                        }
                    }
                }
            };
            let (status, v) = action(&app, &id, Some(&t), a.clone()).await;
            // The engine may act between our look and our action.
            assert!(
                status == StatusCode::OK || status == StatusCode::CONFLICT,
                "{a}: {v}"
            );
        }
    }
    assert!(undos > 300, "random undos were taken: {undos}");
    assert!(
        rerolled > 1000,
        "dice were read back after undos: {rerolled}"
    );
}

/// Waits until the engine has replied (the human is to act, or the game is
/// over) and returns the state and how long it took.
async fn engine_reply(
    app: &axum::Router,
    id: &str,
    human: u64,
    budget: Duration,
) -> (Value, Duration) {
    let start = Instant::now();
    loop {
        let s = get(app, id, None).await["state"].clone();
        if s["over"] == true || s["seat_to_act"] == human {
            return (s, start.elapsed());
        }
        assert!(
            start.elapsed() < budget,
            "the engine did not answer within {budget:?}: {s}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_undo_move_inside_the_engine_delay_never_gets_a_stale_reply_or_a_stall() {
    // The engine waits this long before it thinks: long enough that the
    // three actions of a round always land inside it (checked below, so a
    // machine too slow for that fails instead of skipping the race).
    let delay = Duration::from_millis(150);
    let app = app(AppState::new(store().await, 2, delay));
    // Ringo level 1 thinks for a few milliseconds; the budget is its time plus
    // the delay, with room for a loaded test machine.
    let budget = Duration::from_secs(3);
    let (_, id, t) = start(
        &app,
        json!({"game": "ringo", "opponent": "engine", "level": 1, "side": "attackers"}),
    )
    .await;
    let (id, t) = (id.as_str(), Some(t.as_str()));
    let mut rng = Rng::new(9);
    let mut slowest = Duration::ZERO;
    let (mut played, mut raced) = (0, 0);
    for round in 0..60 {
        let s = get(&app, id, t).await["state"].clone();
        if s["over"] == true {
            break;
        }
        let moves: Vec<String> = s["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        let first = &moves[rng.below(moves.len())];
        let second = &moves[rng.below(moves.len())];
        let before = s["history"].as_array().unwrap().len();
        // The three actions come 0–20 ms apart, inside the engine's delay,
        // so the engine has already seen the first move.
        let gap = Duration::from_millis(rng.below(11) as u64);
        let sent = std::time::Instant::now();
        let (status, v) = action(&app, id, t, mv(first)).await;
        assert_eq!(status, StatusCode::OK, "round {round}: {v}");
        tokio::time::sleep(gap).await;
        let (status, v) = action(&app, id, t, json!({"type": "undo"})).await;
        assert_eq!(status, StatusCode::OK, "round {round}: {v}");
        tokio::time::sleep(gap).await;
        let (status, v) = action(&app, id, t, mv(second)).await;
        assert_eq!(status, StatusCode::OK, "round {round}: {v}");
        // A round whose three actions outlast the delay (a stalled fsync,
        // a busy machine) did not run the race; its outcome must hold all
        // the same, and most rounds must race (checked at the end).
        played += 1;
        if sent.elapsed() < delay {
            raced += 1;
        }
        let (s, took) = engine_reply(&app, id, 0, budget).await;
        slowest = slowest.max(took);
        let history: Vec<&str> = s["history"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(
            history[before],
            second.as_str(),
            "round {round}: the human's last move stands"
        );
        if s["over"] != true || history.len() == before + 2 {
            assert_eq!(
                history.len(),
                before + 2,
                "round {round}: exactly one reply, to the last move: {s}"
            );
            // The reply is the one the engine gives to this very position
            // (level 1 is deterministic for a game), not one computed for the
            // move that was taken back.
            let game = ringo::Game::from_moves(
                "classic".parse().unwrap(),
                None,
                history[..=before].iter().copied(),
            )
            .unwrap();
            let expected =
                agon_server::kinds::ringo_reply(&game, agon_ai::Level::new(1), before + 1, None);
            assert_eq!(
                Some(history[before + 1].to_string()),
                expected,
                "round {round}: a stale reply was played"
            );
        }
    }
    assert!(slowest < budget, "slowest reply {slowest:?}");
    assert!(
        raced >= 10 && 2 * raced >= played,
        "only {raced} of {played} rounds ran their three actions inside the engine's delay: the race was hardly run"
    );
}

#[tokio::test]
async fn undo_is_refused_when_there_is_nothing_to_take_back_or_the_game_is_over() {
    let app = fresh().await;
    // Defenders against the engine: nothing to take back before the first move.
    let (g, id, t) = start(
        &app,
        json!({"game": "ringo", "opponent": "engine", "level": 1, "side": "defenders"}),
    )
    .await;
    let (id, t) = (id.as_str(), Some(t.as_str()));
    assert_eq!(g["state"]["undoable"], json!([false, false]));
    let (status, v) = action(&app, id, t, json!({"type": "undo"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("nothing")
            || v["error"].as_str().unwrap().contains("no move"),
        "{v}"
    );

    // A same-screen game played to its end: no Undo after it.
    let (g, id, t) = start(
        &app,
        json!({"game": "ringo", "opponent": "local", "rules": "classic"}),
    )
    .await;
    let (id, t) = (id.as_str(), Some(t.as_str()));
    let mut rng = Rng::new(1);
    let mut s = g["state"].clone();
    for _ in 0..3000 {
        if s["over"] == true {
            break;
        }
        let moves = s["moves"].as_array().unwrap();
        let m = moves[rng.below(moves.len())].as_str().unwrap();
        let (status, v) = action(&app, id, t, mv(m)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        s = v["state"].clone();
    }
    assert_eq!(s["over"], true, "the random game ended");
    assert_eq!(s["undoable"], json!([false, false]));
    let (status, v) = action(&app, id, t, json!({"type": "undo"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("over"), "{v}");

    // Resigned: no Undo, no move.
    let (_, id, t) = start(
        &app,
        json!({"game": "urgammon", "opponent": "engine", "level": 1, "side": "light"}),
    )
    .await;
    let (id, t) = (id.as_str(), Some(t.as_str()));
    let (status, v) = action(&app, id, t, json!({"type": "resign"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["state"]["over"], true);
    assert_eq!(v["state"]["match"]["winner"], "dark");
    for a in [
        json!({"type": "undo"}),
        json!({"type": "roll"}),
        json!({"type": "resign"}),
        json!({"type": "next"}),
    ] {
        let (status, v) = action(&app, id, t, a.clone()).await;
        assert_eq!(status, StatusCode::CONFLICT, "{a}: {v}");
    }
}

#[tokio::test]
async fn an_urgammon_game_end_stays_in_view_until_next() {
    let app = fresh().await;
    let (g, id, t) = start(
        &app,
        json!({"game": "urgammon", "opponent": "local", "to": 7}),
    )
    .await;
    let (id, t) = (id.as_str(), Some(t.as_str()));
    let mut rng = Rng::new(3);
    let mut s = g["state"].clone();
    for _ in 0..2000 {
        if s["phase"] == "over" {
            break;
        }
        let a = match s["phase"].as_str().unwrap() {
            "roll" => json!({"type": "roll"}),
            "verdict" => json!({"type": "verdict"}),
            _ => {
                let moves = s["moves"].as_array().unwrap();
                mv(moves[rng.below(moves.len())].as_str().unwrap())
            }
        };
        let (status, v) = action(&app, id, t, a).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        s = v["state"].clone();
    }
    assert_eq!(s["phase"], "over");
    assert_eq!(s["between_games"], true);
    assert!(s["result"]["kind"].is_string(), "{s}");
    assert_eq!(s["seat_to_act"], Value::Null);
    let score = &s["match"]["score"];
    assert_eq!(
        score["light"].as_u64().unwrap() + score["dark"].as_u64().unwrap(),
        s["result"]["points"].as_u64().unwrap_or(0),
        "the game's points are in the match score"
    );
    // The games list carries the match score, light's then dark's.
    let (_, list) = call(&app, "GET", &format!("/api/games?ids={id}"), None, None).await;
    assert_eq!(
        list["games"][0]["score"],
        json!([score["light"], score["dark"]]),
        "{list}"
    );
    // The final position stays: a reload shows the same, moves are refused.
    let again = get(&app, id, None).await["state"].clone();
    assert_eq!(again["phase"], "over");
    assert_eq!(again["light"], s["light"]);
    let (status, _) = action(&app, id, t, json!({"type": "roll"})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, _) = action(&app, id, None, json!({"type": "next"})).await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "spectators cannot start the next game"
    );
    // The replay shows the end too.
    let total = s["version"].as_u64().unwrap();
    let (_, at) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/at/{total}"),
        None,
        None,
    )
    .await;
    assert_eq!(at["phase"], "over");
    // Next starts the next game with its opening roll.
    let (status, v) = action(
        &app,
        id,
        t,
        json!({"type": "next", "expect_revision": s["revision"]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_ne!(v["state"]["phase"], "over");
    assert_eq!(v["state"]["match"]["games"], 2);
    assert!(v["state"]["tokens"][0]
        .as_str()
        .unwrap()
        .starts_with("start:"));
    let (status, _) = action(&app, id, t, json!({"type": "next"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "next only between games");
}

#[tokio::test]
async fn revisions_rise_with_every_change_and_stale_actions_are_refused() {
    let app = fresh().await;
    let (g, id, t) = start(
        &app,
        json!({"game": "ringo", "opponent": "engine", "level": 1, "side": "attackers"}),
    )
    .await;
    let (id, t) = (id.as_str(), Some(t.as_str()));
    let r0 = g["state"]["revision"].as_i64().unwrap();
    let (status, v) = action(
        &app,
        id,
        t,
        json!({"type": "move", "move": "b6-b5", "expect_revision": r0}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let r1 = v["state"]["revision"].as_i64().unwrap();
    assert!(r1 > r0);
    let (s, _) = engine_reply(&app, id, 0, Duration::from_secs(5)).await;
    let r2 = s["revision"].as_i64().unwrap();
    assert!(r2 > r1);
    let (status, v) = action(
        &app,
        id,
        t,
        json!({"type": "move", "move": "c6-c5", "expect_revision": r0}),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("revision"), "{v}");
    let (status, v) = action(&app, id, t, json!({"type": "undo", "expect_revision": r2})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(
        v["state"]["revision"].as_i64().unwrap() > r2,
        "undo raises the revision too"
    );
    assert_eq!(v["state"]["version"], 0, "fewer tokens, higher revision");
}

#[tokio::test]
async fn an_invite_seats_one_friend_once_and_seat_links_hand_a_seat_over() {
    let app = fresh().await;
    let g = create(
        &app,
        json!({"game": "ringo", "opponent": "friend", "side": "defenders"}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let alice = g["token"].as_str().unwrap().to_string();
    let invite = g["invite"].as_str().unwrap();
    assert_eq!(g["state"]["seated"], json!([false, true]));
    let join = |code: String| {
        let app = app.clone();
        let id = id.to_string();
        async move {
            call(
                &app,
                "POST",
                &format!("/api/games/{id}/join"),
                None,
                Some(&json!({ "invite": code }).to_string()),
            )
            .await
        }
    };
    let (status, bob) = join(invite.into()).await;
    assert_eq!(status, StatusCode::OK, "{bob}");
    assert_eq!(bob["you"], json!([0]));
    let bob = bob["token"].as_str().unwrap().to_string();
    for code in [invite.to_string(), "0".repeat(32), String::new()] {
        let (status, v) = join(code).await;
        assert_eq!(status, StatusCode::CONFLICT, "{v}");
    }
    for bad in [
        "{}",
        "{\"invite\": 5}",
        "[]",
        "{\"invite\": \"x\", \"seat\": 1}",
    ] {
        let (status, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/join"),
            None,
            Some(bad),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    let (status, _) = call(
        &app,
        "POST",
        "/api/games/nosuch/join",
        None,
        Some("{\"invite\": \"x\"}"),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Spectators see no secret.
    let (_, spectator) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    let text = spectator.to_string();
    for secret in [&alice, &bob, &invite.to_string()] {
        assert!(
            !text.contains(secret.as_str()),
            "a secret leaked to spectators"
        );
    }
    assert_eq!(spectator["state"]["seated"], json!([true, true]));
    // Bob moves his seat to another device: the old token stops working.
    let (status, link) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/seat-link"),
        Some(&bob),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{link}");
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/seat-link"),
        None,
        None,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, phone) = join(link["code"].as_str().unwrap().into()).await;
    assert_eq!(status, StatusCode::OK, "{phone}");
    let phone = phone["token"].as_str().unwrap().to_string();
    let (status, _) = action(&app, id, Some(&bob), mv("b6-b5")).await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "the handed-over token no longer acts"
    );
    let (status, v) = action(&app, id, Some(&phone), mv("b6-b5")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(get(&app, id, Some(&alice)).await["you"], json!([1]));
}

#[tokio::test]
async fn resign_ends_the_game_and_rematch_swaps_the_seats() {
    let app = fresh().await;
    let g = create(
        &app,
        json!({"game": "ringo", "rules": "globe", "opponent": "friend", "side": "attackers"}),
    )
    .await;
    let id = g["id"].as_str().unwrap();
    let alice = g["token"].as_str().unwrap().to_string();
    let (_, j) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({"invite": g["invite"]}).to_string()),
    )
    .await;
    let bob = j["token"].as_str().unwrap().to_string();
    let (status, _) = action(&app, id, Some(&alice), json!({"type": "rematch"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "no rematch before the end");
    action(&app, id, Some(&alice), mv("b6-b5")).await;
    // Bob resigns although it is his turn or not: either player may.
    let (status, v) = action(&app, id, Some(&bob), json!({"type": "resign"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let s = &v["state"];
    assert_eq!(s["status"], "attackers-win");
    assert_eq!(s["reason"], "resignation");
    assert_eq!(s["over"], true);
    let (_, rec) = call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(rec, Value::String("globe b6-b5 resign:defenders\n".into()));
    let (_, list) = call(&app, "GET", "/api/games", None, None).await;
    let entry = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .unwrap();
    assert_eq!(entry["status"], "attackers-win");
    assert_eq!(entry["reason"], "resignation");
    // The record imports back, resignation included.
    let (status, imported) = import(&app, "ringo", "globe b6-b5 resign:defenders").await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    assert_eq!(imported["state"]["reason"], "resignation");
    for bad in ["globe resign:defenders b6-b5", "globe b6-b5 resign:light"] {
        let (status, v) = import(&app, "ringo", bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    // Rematch: a spectator cannot; a player can, twice gives the same game.
    let (status, _) = action(&app, id, None, json!({"type": "rematch"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, v) = action(&app, id, Some(&bob), json!({"type": "rematch"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let new_id = v["rematch"].as_str().unwrap().to_string();
    assert_eq!(
        v["state"]["rematch"],
        new_id.as_str(),
        "the old game points to the new one"
    );
    let (_, again) = action(&app, id, Some(&alice), json!({"type": "rematch"})).await;
    assert_eq!(again["rematch"], new_id.as_str());
    let n = get(&app, &new_id, Some(&alice)).await;
    assert_eq!(n["you"], json!([1]), "alice now defends");
    assert_eq!(
        get(&app, &new_id, Some(&bob)).await["you"],
        json!([0]),
        "bob now attacks"
    );
    assert_eq!(n["state"]["rules"], "globe");
    assert_eq!(n["state"]["history"], json!([]));
    let (status, v) = action(&app, &new_id, Some(&bob), mv("b6-b5")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn creation_takes_typed_validated_fields() {
    let app = fresh().await;
    let cases = [
        (json!({"game": "urgammon", "to": 2.5}), "whole number"),
        (json!({"game": "urgammon", "to": ""}), "whole number"),
        (json!({"game": "urgammon", "to": "seven"}), "whole number"),
        (json!({"game": "urgammon", "to": 100}), "1 to 99"),
        (
            json!({"game": "urgammon", "stake": "5 to=99"}),
            "invalid stake",
        ),
        (json!({"game": "urgammon", "stake": "1e3"}), "invalid stake"),
        (json!({"game": "urgammon", "stake": true}), "invalid stake"),
        (
            json!({"game": "urgammon", "draw": "maybe"}),
            "replay or end",
        ),
        (json!({"game": "ringo", "level": 2.5}), "level is 1 to 10"),
        (json!({"game": "ringo", "level": "ten"}), "level is 1 to 10"),
    ];
    for (body, needle) in cases {
        let (status, v) = call(&app, "POST", "/api/games", None, Some(&body.to_string())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{body}: {v}");
    }
    let g = create(
        &app,
        json!({"game": "urgammon", "opponent": "local", "to": "5", "stake": 2.5, "draw": "end"}),
    )
    .await;
    assert_eq!(
        g["state"]["settings"],
        "urgammon match to=5 draw=end stake=2.50"
    );
    let g = create(
        &app,
        json!({"game": "urgammon", "opponent": "local", "stake": ""}),
    )
    .await;
    assert_eq!(g["state"]["match"]["stake"], Value::Null);
}
