//! Tournaments through the HTTP API (issue 76): creation with hostile
//! input (absurd durations and round counts, no clock, a start out of
//! range, not signed in), joining twice, after the end, without meeting
//! the conditions, with a wrong password; withdrawing and joining again;
//! a two-round Swiss event in Urgammon (matches) and in Ringo (a pair of
//! games a round) played to the end, its standings equal to a recount
//! from the stored bouts, no pairing repeated, one bye at most, a block
//! keeping two players apart, a withdrawn player no longer paired. The
//! same on PostgreSQL with `AGON_TEST_STORE=postgres`.

mod common;

use agon_server::{app, AppState, Options};
use common::{as_account, call, signup};
use serde_json::{json, Value};
use std::time::Duration;

async fn tournament_app(test: &str) -> (AppState, axum::Router) {
    let state = AppState::with_options(
        common::test_store(test).await,
        Options {
            engine_delay: Duration::ZERO,
            ..Options::default()
        },
    );
    (state.clone(), app(state))
}

/// Enters a player in event `id` (no password).
async fn join(app: &axum::Router, cookie: &str, id: &str) -> (u16, Value) {
    as_account(
        app,
        cookie,
        "POST",
        &format!("/api/tournaments/{id}/join"),
        None,
    )
    .await
}

fn arena() -> Value {
    json!({"kind": "arena", "game": "ringo", "clock": {"base_secs": 60, "increment_secs": 1},
           "minutes": 30, "starts_in_secs": 600})
}

#[tokio::test]
async fn hostile_creation_is_refused_in_words() {
    let (_, app) = tournament_app("tournaments_hostile").await;
    let ala = signup(&app, "ala").await;
    let (s, _) = call(
        &app,
        "POST",
        "/api/tournaments",
        None,
        Some(&arena().to_string()),
    )
    .await;
    assert_eq!(s, 401, "signed in only");
    let cases = [
        json!({"minutes": 0}),
        json!({"minutes": 100000}),
        json!({"minutes": -5}),
        json!({"kind": "swiss", "minutes": null, "rounds": 0}),
        json!({"kind": "swiss", "minutes": null, "rounds": 99}),
        json!({"kind": "swiss", "minutes": 30, "rounds": 3}),
        json!({"kind": "league"}),
        json!({"clock": null}),
        json!({"clock": null, "days": 1}),
        json!({"starts_in_secs": -10}),
        json!({"starts_in_secs": 999999999}),
        json!({"starts_in_secs": null, "starts_at": 1}),
        json!({"name": "x".repeat(41)}),
        json!({"min_rating": 1900, "max_rating": 1200}),
        json!({"min_rating": -3}),
        json!({"rules": "classic,rings=99"}),
        json!({"password": ""}),
    ];
    for change in cases {
        let mut body = arena();
        for (k, v) in change.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (s, v) = as_account(&app, &ala, "POST", "/api/tournaments", Some(body.clone())).await;
        assert_eq!(s, 400, "{body} → {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    }
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        "/api/tournaments",
        Some(json!({"kind": "arena", "game": "chess"})),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        "/api/tournaments",
        Some(json!({"kind": "arena", "game": "ringo", "colour": 1})),
    )
    .await;
    assert_eq!(s, 400, "unknown fields: {v}");
    // Three made and not finished at most.
    for _ in 0..3 {
        let (s, v) = as_account(&app, &ala, "POST", "/api/tournaments", Some(arena())).await;
        assert_eq!(s, 201, "{v}");
    }
    let (s, v) = as_account(&app, &ala, "POST", "/api/tournaments", Some(arena())).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (429, Some("too-many-tournaments")),
        "{v}"
    );
    // Unknown and malformed ids.
    for id in ["nope", "../etc", "x".repeat(300).as_str()] {
        let (s, _) = call(&app, "GET", &format!("/api/tournaments/{id}"), None, None).await;
        assert_eq!(s, 404, "{id}");
    }
}

#[tokio::test]
async fn joining_twice_without_the_conditions_or_the_password_is_refused_and_a_withdrawal_can_be_undone(
) {
    let (_, app) = tournament_app("tournaments_join").await;
    let (ala, bo) = (signup(&app, "ala").await, signup(&app, "bo").await);
    let (s, t) = as_account(&app, &ala, "POST", "/api/tournaments", Some(arena())).await;
    assert_eq!(s, 201, "{t}");
    assert_eq!(t["status"], "upcoming");
    let id = t["id"].as_str().unwrap().to_string();
    let join = |who: String, body: Option<Value>| {
        let (app, id) = (app.clone(), id.clone());
        async move {
            as_account(
                &app,
                &who,
                "POST",
                &format!("/api/tournaments/{id}/join"),
                body,
            )
            .await
        }
    };
    let (s, v) = join(bo.clone(), None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (
            &v["you"]["joined"],
            &v["you"]["withdrawn"],
            &v["you"]["game"]
        ),
        (&json!(true), &json!(false), &Value::Null)
    );
    assert_eq!(v["you"]["standing"]["name"], "bo", "her own line: {v}");
    assert_eq!(v["players"], 1);
    let (s, v) = join(bo.clone(), None).await;
    assert_eq!((s, v["code"].as_str()), (409, Some("already-joined")));
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/tournaments/{id}/join"),
        None,
        None,
    )
    .await;
    assert_eq!(s, 401, "{v}");
    // Withdrawn, then in again.
    let (s, v) = as_account(
        &app,
        &bo,
        "POST",
        &format!("/api/tournaments/{id}/withdraw"),
        None,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["you"]["withdrawn"], true);
    let (s, v) = as_account(
        &app,
        &bo,
        "POST",
        &format!("/api/tournaments/{id}/withdraw"),
        None,
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (409, Some("not-joined")));
    let (s, v) = join(bo.clone(), None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["you"]["joined"], true);
    // Conditions: rated games, a rating range.
    let mut body = arena();
    body["min_rated_games"] = json!(5);
    let (_, t2) = as_account(&app, &ala, "POST", "/api/tournaments", Some(body)).await;
    let (s, v) = as_account(
        &app,
        &bo,
        "POST",
        &format!("/api/tournaments/{}/join", t2["id"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (403, Some("conditions-not-met")),
        "{v}"
    );
    assert!(v["error"].as_str().unwrap().contains("5 rated games"));
    // A private event: the password.
    let mut body = arena();
    body["password"] = json!("secret words");
    let (_, t3) = as_account(&app, &ala, "POST", "/api/tournaments", Some(body)).await;
    assert_eq!(t3["private"], true);
    assert!(!t3.to_string().contains("secret words"), "never shown");
    let path = format!("/api/tournaments/{}/join", t3["id"].as_str().unwrap());
    for wrong in [
        None,
        Some(json!({"password": "guess"})),
        Some(json!({"password": 7})),
    ] {
        let (s, v) = as_account(&app, &bo, "POST", &path, wrong.clone()).await;
        assert!(s == 403 || s == 400, "{wrong:?} → {s} {v}");
    }
    let (s, v) = as_account(
        &app,
        &bo,
        "POST",
        &path,
        Some(json!({"password": "secret words"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    // Listed.
    let (_, l) = call(&app, "GET", "/api/tournaments", None, None).await;
    assert_eq!(l["upcoming"].as_array().unwrap().len(), 3);
}

/// Waits until `f` holds of the event (within 15 s); the event.
async fn until(app: &axum::Router, cookie: &str, id: &str, f: impl Fn(&Value) -> bool) -> Value {
    let mut last = Value::Null;
    for _ in 0..150 {
        let (_, t) = as_account(app, cookie, "GET", &format!("/api/tournaments/{id}"), None).await;
        if f(&t) {
            return t;
        }
        last = t;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("not reached: {last}");
}

/// Resigns the game a player has in a tournament (the second of a Ringo
/// pair too, once it is opened).
async fn resign_in(app: &axum::Router, cookie: &str, game: &str) {
    let (s, v) = as_account(
        app,
        cookie,
        "POST",
        &format!("/api/games/{game}/action"),
        Some(json!({"type": "resign"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
}

/// Plays a game of a tournament on from the API, the side to act taking
/// the first legal step each time (a Ringo move; an Urgammon roll, move,
/// verdict or next game), until each side has made a decision and at least
/// `turns` turns (Ringo moves, Urgammon rolls) were played: a bout whose
/// first game ended before each side moved is void (issue 86), so a test
/// that wants a result plays a little first.
async fn play(app: &axum::Router, cookies: [&str; 2], game: &str, turns: usize) {
    let (mut acted, mut played) = ([false; 2], 0);
    for _ in 0..400 {
        if acted == [true; 2] && played >= turns {
            return;
        }
        let s = common::game_state(app, game).await;
        assert_ne!(s["over"], true, "the game ended early: {s}");
        let ringo = s.get("rings").is_some();
        let step = if ringo {
            common::mv(s["moves"][0].as_str().expect("a legal move"))
        } else {
            common::urgammon_step(&s, false)
        };
        let mut done = false;
        for (i, cookie) in cookies.iter().enumerate() {
            let (code, _) = as_account(
                app,
                cookie,
                "POST",
                &format!("/api/games/{game}/action"),
                Some(step.clone()),
            )
            .await;
            if code == 200 {
                acted[i] = true;
                if ringo || step["type"] == "roll" {
                    played += 1;
                }
                done = true;
                break;
            }
        }
        if !done {
            // A pair's second game waits its pause before the first move.
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    panic!("{game}: not played on ({played} turns)");
}

async fn swiss_played(game: &str, test: &str) {
    let (_, app) = tournament_app(test).await;
    let names = ["ala", "bo", "cy"];
    let mut who = std::collections::HashMap::new();
    for n in names {
        who.insert(n, signup(&app, n).await);
    }
    let body = if game == "ringo" {
        json!({"kind": "swiss", "game": "ringo", "days": 1, "rounds": 2, "starts_in_secs": 1})
    } else {
        json!({"kind": "swiss", "game": "urgammon", "to": 1, "days": 1, "rounds": 2, "starts_in_secs": 1})
    };
    let (s, t) = as_account(&app, &who["ala"], "POST", "/api/tournaments", Some(body)).await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    for n in names {
        let (s, v) = join(&app, &who[n], &id).await;
        assert_eq!(s, 200, "{v}");
    }
    let mut seen_pairs = std::collections::HashSet::new();
    let mut byes = std::collections::HashSet::new();
    for round in 1..=2 {
        let t = until(&app, &who["ala"], &id, |t| {
            t["round"] == round
                && t["status"] == "running"
                && t["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|g| g["round"] == round)
                    .count()
                    == 2
        })
        .await;
        for g in t["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["round"] == round)
        {
            if g["second"].is_null() {
                assert!(byes.insert(g["first"].clone()), "one bye at most each: {t}");
                continue;
            }
            let mut pair = [g["first"].to_string(), g["second"].to_string()];
            pair.sort();
            assert!(seen_pairs.insert(pair), "no repeat pairing: {t}");
        }
        // Each paired player finds her game as `you.game`; the first seat
        // resigns (of a Ringo pair, both games).
        for n in names {
            let (_, mine) = as_account(
                &app,
                &who[n],
                "GET",
                &format!("/api/tournaments/{id}"),
                None,
            )
            .await;
            let Some(g) = mine["you"]["game"].as_str() else {
                continue;
            };
            // A bout is listed by its first game; a player already in a
            // pair's second game (its first player resigned it) has
            // nothing to resign here.
            let Some(bout) = mine["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|b| b["id"] == g && b["round"] == round)
                .cloned()
            else {
                continue;
            };
            if bout["first"] != n {
                continue;
            }
            let other = bout["second"].as_str().unwrap();
            play(&app, [&who[n], &who[other]], g, 2).await;
            resign_in(&app, &who[n], g).await;
            if game == "ringo" {
                // The pair's second game, seats swapped, opens by itself.
                let mut second = None;
                for _ in 0..100 {
                    let (_, s) = call(&app, "GET", &format!("/api/games/{g}"), None, None).await;
                    if let Some(r) = s["state"]["rematch"].as_str() {
                        second = Some(r.to_string());
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                let second = second.expect("the pair's second game");
                // During the second game, the event names it as both
                // players' game (it named the finished first one).
                for p in [n, other] {
                    let t =
                        until(&app, &who[p], &id, |t| t["you"]["game"] == second.as_str()).await;
                    let line = t["standings"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|s| s["name"] == p)
                        .unwrap()
                        .clone();
                    assert_eq!(line["playing"], second.as_str(), "{p}: {t}");
                }
                // The second's first player wins it back: 1–1, a draw.
                play(&app, [&who[n], &who[other]], &second, 2).await;
                resign_in(&app, &who[other], &second).await;
            }
        }
    }
    let t = until(&app, &who["ala"], &id, |t| t["status"] == "finished").await;
    // The standings agree with a recount of the bouts.
    let mut recount: std::collections::HashMap<String, f64> = std::collections::HashMap::new();
    for g in t["games"].as_array().unwrap() {
        let first = g["first"].as_str().unwrap().to_string();
        match g["second"].as_str() {
            None => *recount.entry(first).or_default() += 1.0,
            Some(second) => {
                let s = g["score"].as_f64().expect("every bout over");
                *recount.entry(first).or_default() += s;
                *recount.entry(second.to_string()).or_default() += 1.0 - s;
            }
        }
    }
    let standings = t["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    for s in standings {
        let name = s["name"].as_str().unwrap();
        assert_eq!(
            s["score"].as_f64().unwrap(),
            recount.get(name).copied().unwrap_or(0.0),
            "{t}"
        );
        assert!(s["buchholz"].is_number() && s["sonneborn_berger"].is_number());
    }
    assert_eq!(t["podium"].as_array().unwrap().len(), 3);
    let scores: Vec<f64> = standings
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .collect();
    assert!(
        scores.windows(2).all(|w| w[0] >= w[1]),
        "best first: {scores:?}"
    );
    assert_eq!(
        scores.iter().sum::<f64>(),
        4.0,
        "two rounds, one bout and one bye each: {t}"
    );
    // Each round paired is counted for the operator, by whether its
    // search proved its pairing the rules' best (a field of three is).
    let text = agon_server::metrics::render(&agon_server::metrics::Levels::default());
    let best: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("agon_swiss_rounds_total{outcome=\"best\"} "))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    assert!(best >= 2.0, "two rounds counted: {text}");
    // After the end, nobody joins.
    let late = signup(&app, "dee").await;
    let (s, v) = join(&app, &late, &id).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (409, Some("tournament-over")),
        "{v}"
    );
}

#[tokio::test]
async fn a_two_round_urgammon_swiss_is_played_to_the_end_and_its_standings_are_a_recount() {
    swiss_played("urgammon", "tournaments_swiss_urgammon").await;
}

#[tokio::test]
async fn a_two_round_ringo_swiss_plays_a_pair_a_round() {
    swiss_played("ringo", "tournaments_swiss_ringo").await;
}

#[tokio::test]
async fn a_blocked_pair_and_a_withdrawn_player_are_never_paired() {
    let (_, app) = tournament_app("tournaments_blocks").await;
    let mut who = std::collections::HashMap::new();
    for n in ["ala", "bo", "cy", "dee"] {
        who.insert(n, signup(&app, n).await);
    }
    // Ala blocks Bo; Dee withdraws before the start.
    let (s, _) = as_account(&app, &who["ala"], "POST", "/api/users/bo/block", None).await;
    assert_eq!(s, 200);
    let (_, t) = as_account(&app, &who["cy"], "POST", "/api/tournaments",
        Some(json!({"kind": "swiss", "game": "urgammon", "to": 1, "days": 1, "rounds": 1, "starts_in_secs": 1}))).await;
    let id = t["id"].as_str().unwrap().to_string();
    for n in ["ala", "bo", "cy", "dee"] {
        join(&app, &who[n], &id).await;
    }
    as_account(
        &app,
        &who["dee"],
        "POST",
        &format!("/api/tournaments/{id}/withdraw"),
        None,
    )
    .await;
    let t = until(&app, &who["cy"], &id, |t| {
        t["round"] == 1 && t["games"].as_array().unwrap().len() == 2
    })
    .await;
    for g in t["games"].as_array().unwrap() {
        let pair = [g["first"].as_str(), g["second"].as_str()];
        assert!(
            !(pair.contains(&Some("ala")) && pair.contains(&Some("bo"))),
            "{t}"
        );
        assert!(!pair.contains(&Some("dee")), "withdrawn: {t}");
    }
}

#[tokio::test]
async fn the_operators_schedule_makes_each_event_once_ahead_of_its_start() {
    let options = Options {
        engine_delay: Duration::ZERO,
        tournament_schedule: "# every ten minutes\nquick arena ringo every=10 minutes=5 clock=60+1 name=Ten_minute_arena\n".into(),
        ..Options::default()
    };
    let apps: Vec<axum::Router> =
        match common::two_instances("tournaments_schedule", options.clone()).await {
            // Two instances on one database read the same schedule.
            Some((a, b, _)) => vec![app(a), app(b)],
            None => vec![app(AppState::with_options(
                common::test_store("tournaments_schedule").await,
                options,
            ))],
        };
    let mut listed = Value::Null;
    for _ in 0..50 {
        let (_, l) = call(&apps[0], "GET", "/api/tournaments", None, None).await;
        if !l["upcoming"].as_array().unwrap().is_empty()
            || !l["running"].as_array().unwrap().is_empty()
        {
            listed = l;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (_, l) = call(apps.last().unwrap(), "GET", "/api/tournaments", None, None).await;
    let all: Vec<&Value> = l["upcoming"]
        .as_array()
        .unwrap()
        .iter()
        .chain(l["running"].as_array().unwrap())
        .collect();
    assert_eq!(all.len(), 1, "once: {l} (first seen {listed})");
    assert_eq!(all[0]["name"], "Ten minute arena");
    assert_eq!(all[0]["minutes"], 5);
    let start = all[0]["starts_ms"].as_i64().unwrap();
    assert_eq!(start % 600_000, 0, "on the ten minutes");
}

/// Two instances on PostgreSQL: the one pairing a Swiss event stops (its
/// loops end, as when it is killed: its lease is never given back); the
/// other takes the event over within a few seconds, pairs the next round
/// and ends it, no bout lost, the standings a recount of the stored bouts.
#[tokio::test]
async fn when_the_instance_pairing_an_event_stops_another_goes_on_with_it() {
    let Some((a, b, _)) = common::two_quick_instances("tournaments_takeover").await else {
        return;
    };
    let (app_a, app_b) = (app(a.clone()), app(b.clone()));
    let names = ["ala", "bo", "cy", "dee"];
    let mut who = std::collections::HashMap::new();
    for n in names {
        who.insert(n, signup(&app_a, n).await);
    }
    let (s, t) = as_account(&app_a, &who["ala"], "POST", "/api/tournaments",
        Some(json!({"kind": "swiss", "game": "urgammon", "to": 1, "days": 1, "rounds": 2, "starts_in_secs": 1}))).await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    for n in names {
        join(&app_a, &who[n], &id).await;
    }
    let t = until(&app_b, &who["ala"], &id, |t| {
        t["round"] == 1 && t["games"].as_array().unwrap().len() == 2
    })
    .await;
    // One instance stops for good; which one held the lease does not
    // matter: the other must go on.
    a.stop().await;
    let resign_round = |t: Value| {
        let (app_b, who) = (app_b.clone(), who.clone());
        async move {
            for g in t["games"].as_array().unwrap() {
                if g["over"] == true {
                    continue;
                }
                let (first, second) = (g["first"].as_str().unwrap(), g["second"].as_str().unwrap());
                let game = g["id"].as_str().unwrap();
                play(&app_b, [&who[first], &who[second]], game, 2).await;
                resign_in(&app_b, &who[first], game).await;
            }
        }
    };
    resign_round(t).await;
    let t = until(&app_b, &who["ala"], &id, |t| {
        t["round"] == 2 && t["games"].as_array().unwrap().len() == 4
    })
    .await;
    resign_round(t).await;
    let t = until(&app_b, &who["ala"], &id, |t| t["status"] == "finished").await;
    let total: f64 = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 4.0, "four bouts, each a point: {t}");
    assert!(t["games"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["over"] == true));
    b.stop().await;
}

/// A site socket (signed in): its player counts as online, as a page of
/// Agon open would make her.
async fn online(
    addr: &str,
    cookie: &str,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/site/ws")
        .into_client_request()
        .unwrap();
    req.headers_mut().insert("cookie", cookie.parse().unwrap());
    tokio_tungstenite::connect_async(req).await.unwrap().0
}

/// An arena between two players online: paired at once; one goes berserk
/// (her clock halved, once, before her first move) and wins: two points
/// and one for berserk; the pair is paired again (nobody else waits).
#[tokio::test]
async fn an_arena_pairs_players_online_and_a_berserk_win_scores_a_point_more() {
    let (_, router) = tournament_app("tournaments_arena").await;
    let addr = common::serve(router.clone()).await;
    let (ala, bo) = (signup(&router, "ala").await, signup(&router, "bo").await);
    let _sockets = (online(&addr, &ala).await, online(&addr, &bo).await);
    let (s, t) = as_account(&router, &ala, "POST", "/api/tournaments",
        Some(json!({"kind": "arena", "game": "urgammon", "to": 1, "clock": {"base_secs": 60, "increment_secs": 1}, "minutes": 10}))).await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    // Berserk before any game: refused in words.
    let (s, v) = as_account(
        &router,
        &ala,
        "POST",
        &format!("/api/tournaments/{id}/berserk"),
        None,
    )
    .await;
    assert_eq!(s, 400, "{v}");
    for c in [&ala, &bo] {
        let (s, v) = join(&router, c, &id).await;
        assert_eq!(s, 200, "{v}");
    }
    let t = until(&router, &ala, &id, |t| t["you"]["game"].is_string()).await;
    let game = t["you"]["game"].as_str().unwrap().to_string();
    // Its game names the event (its page offers the way back); another
    // game names none; hostile ids are refused.
    let (s, v) = call(
        &router,
        "GET",
        &format!("/api/games/{game}/tournament"),
        None,
        None,
    )
    .await;
    assert_eq!(s.as_u16(), 200, "{v}");
    assert_eq!(v["tournament"]["id"], id.as_str(), "{v}");
    assert_eq!(v["tournament"]["kind"], "arena", "{v}");
    let (other_game, _) = common::friend_game(&router, "urgammon", json!({})).await;
    let (s, v) = call(
        &router,
        "GET",
        &format!("/api/games/{other_game}/tournament"),
        None,
        None,
    )
    .await;
    assert_eq!((s.as_u16(), &v["tournament"]), (200, &Value::Null), "{v}");
    for bad in ["nosuchgame", "a%20b", "..%2F..", &"x".repeat(65)] {
        let (s, v) = call(
            &router,
            "GET",
            &format!("/api/games/{bad}/tournament"),
            None,
            None,
        )
        .await;
        let s = s.as_u16();
        assert!(
            s == 404 || (s == 200 && v["tournament"].is_null()),
            "{bad}: {s} {v}"
        );
    }
    let bout = t["games"][0].clone();
    let (me, other) = if bout["first"] == "ala" {
        (0, &bo)
    } else {
        (1, &bo)
    };
    let (s, v) = as_account(
        &router,
        &ala,
        "POST",
        &format!("/api/tournaments/{id}/berserk"),
        None,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["games"][0]["berserk"][me], true);
    let (_, g) = call(&router, "GET", &format!("/api/games/{game}"), None, None).await;
    let left = g["state"]["clock"]["remaining_ms"][me].as_i64().unwrap();
    assert!(left <= 30_000 && left > 25_000, "her clock halved: {left}");
    let (s, v) = as_account(
        &router,
        &ala,
        "POST",
        &format!("/api/tournaments/{id}/berserk"),
        None,
    )
    .await;
    // The game's own refusal, with its own code (issue 85: it was
    // 400 bad-tournament, as every game error was).
    assert_eq!(
        (s, v["code"].as_str()),
        (409, Some("wrong-moment")),
        "once: {v}"
    );
    // Seven moves each (lichess's line for berserk's point), then Bo
    // resigns.
    play(&router, [&ala, other], &game, 14).await;
    resign_in(&router, other, &game).await;
    let t = until(&router, &ala, &id, |t| t["standings"][0]["score"] == 3.0).await;
    assert_eq!(t["standings"][0]["name"], "ala");
    assert_eq!(t["standings"][0]["sheet"], json!(["3"]));
    // (The newest bout is listed first: it may be their next one already.)
    let ended = t["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == game.as_str())
        .unwrap();
    assert!(ended["turns"].as_i64().unwrap() >= 14, "{t}");
    // Alone together, they meet again. A berserk win in a few turns scores
    // as a plain one: 2.
    let t = until(&router, &ala, &id, |t| {
        t["games"].as_array().unwrap().len() == 2 && t["you"]["game"].is_string()
    })
    .await;
    let game = t["you"]["game"].as_str().unwrap().to_string();
    let (s, v) = as_account(
        &router,
        &ala,
        "POST",
        &format!("/api/tournaments/{id}/berserk"),
        None,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    play(&router, [&ala, other], &game, 2).await;
    resign_in(&router, other, &game).await;
    let t = until(&router, &ala, &id, |t| t["standings"][0]["score"] == 5.0).await;
    assert_eq!(t["standings"][0]["sheet"], json!(["3", "2"]), "{t}");
}

/// Points that cannot be traded (issue 86). In a Ringo arena: a pair drawn
/// 1–1 in a few turns is a quick draw and scores nothing; a first game
/// resigned before each side moved makes the bout void (no second game,
/// no points, no game counted) and charges the resigner an abandonment:
/// after three in a row she is paused and paired no more.
#[tokio::test]
async fn instant_resignations_trade_no_points_and_a_quick_draw_scores_nothing() {
    let (_, router) = tournament_app("tournaments_traded").await;
    let addr = common::serve(router.clone()).await;
    let (ala, bo) = (signup(&router, "ala").await, signup(&router, "bo").await);
    let _sockets = (online(&addr, &ala).await, online(&addr, &bo).await);
    let (s, t) = as_account(&router, &ala, "POST", "/api/tournaments",
        Some(json!({"kind": "arena", "game": "ringo", "clock": {"base_secs": 60, "increment_secs": 1}, "minutes": 10}))).await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    for c in [&ala, &bo] {
        assert_eq!(join(&router, c, &id).await.0, 200);
    }
    let line = |t: &Value, name: &str| {
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .cloned()
            .unwrap()
    };
    // A quick draw: each side moves once in each game of the pair, and
    // each game's first player resigns it.
    let t = until(&router, &ala, &id, |t| t["you"]["game"].is_string()).await;
    let first = t["you"]["game"].as_str().unwrap().to_string();
    let seat0 = if t["games"][0]["first"] == "ala" {
        &ala
    } else {
        &bo
    };
    let seat1 = if std::ptr::eq(seat0, &ala) { &bo } else { &ala };
    play(&router, [seat0, seat1], &first, 2).await;
    resign_in(&router, seat0, &first).await;
    let t = until(&router, &ala, &id, |t| {
        t["you"]["game"].as_str().is_some_and(|g| g != first)
    })
    .await;
    let second = t["you"]["game"].as_str().unwrap().to_string();
    play(&router, [seat0, seat1], &second, 2).await;
    resign_in(&router, seat1, &second).await;
    let bout = |t: &Value, game: &str| {
        t["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["id"] == game)
            .cloned()
            .unwrap_or_default()
    };
    let t = until(&router, &ala, &id, |t| bout(t, &first)["over"] == true).await;
    let b = bout(&t, &first);
    assert_eq!(b["score"], 0.5, "{t}");
    assert!(b["turns"].as_i64().unwrap() < 20, "{t}");
    for name in ["ala", "bo"] {
        let l = line(&t, name);
        assert_eq!(
            (l["score"].as_f64(), &l["sheet"], l["games"].as_u64()),
            (Some(0.0), &json!(["0"]), Some(1)),
            "{name}: {t}"
        );
    }
    // Three bouts Bo resigns before anyone moved: each void, for both.
    for n in 2..=4 {
        let t = until(&router, &bo, &id, |t| {
            t["games"].as_array().unwrap().len() == n && t["you"]["game"].is_string()
        })
        .await;
        let game = t["you"]["game"].as_str().unwrap().to_string();
        resign_in(&router, &bo, &game).await;
        let t = until(&router, &ala, &id, |t| bout(t, &game)["over"] == true).await;
        assert_eq!(bout(&t, &game)["void"], true, "{t}");
        assert_eq!(bout(&t, &game)["score"], Value::Null, "{t}");
        // No second game is opened for a void pair.
        let (_, g) = call(&router, "GET", &format!("/api/games/{game}"), None, None).await;
        assert_eq!(g["state"]["rematch"], Value::Null, "{g}");
        for name in ["ala", "bo"] {
            let l = line(&t, name);
            assert_eq!(
                (l["score"].as_f64(), l["games"].as_u64()),
                (Some(0.0), Some(1)),
                "{name}: {t}"
            );
        }
    }
    // Bo abandoned three in a row: paused, and not paired again; Ala is not.
    let (_, me) = as_account(&router, &bo, "GET", "/api/account", None).await;
    assert_eq!(me["paused"]["abandoned"], 3, "{me}");
    let (_, me) = as_account(&router, &ala, "GET", "/api/account", None).await;
    assert!(me["paused"].is_null(), "{me}");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (_, t) = as_account(
        &router,
        &ala,
        "GET",
        &format!("/api/tournaments/{id}"),
        None,
    )
    .await;
    assert_eq!(t["games"].as_array().unwrap().len(), 4, "{t}");
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// An event's socket, as its page opens it (signed in with `cookie`).
async fn event_socket(addr: &str, id: &str, cookie: Option<&str>) -> Result<Socket, u16> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/tournaments/{id}/ws")
        .into_client_request()
        .unwrap();
    if let Some(c) = cookie {
        req.headers_mut().insert("cookie", c.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
        Err(e) => panic!("{e}"),
    }
}

/// The next message on a socket that `f` accepts, within `secs`: pushed,
/// never asked for (the test sends nothing meanwhile).
async fn pushed(ws: &mut Socket, secs: u64, f: impl Fn(&Value) -> bool) -> Value {
    use futures_util::StreamExt;
    tokio::time::timeout(Duration::from_secs(secs), async {
        loop {
            let m = ws.next().await.expect("open").expect("a message");
            if let Ok(text) = m.to_text() {
                let v: Value = serde_json::from_str(text).unwrap();
                if f(&v) {
                    return v;
                }
            }
        }
    })
    .await
    .expect("pushed in time")
}

/// The event's socket: its view at once, then pushed as it changes (a
/// player joins: a view; her own place: a `you` of her own, never
/// another's); only `ping` is taken; an event that is not there (or an id
/// that cannot be one) is refused before the upgrade.
#[tokio::test]
async fn an_events_socket_pushes_its_standings_and_the_players_own_place_as_they_change() {
    use futures_util::SinkExt;
    let (_, router) = tournament_app("tournaments_socket").await;
    let addr = common::serve(router.clone()).await;
    let (ala, bo) = (signup(&router, "ala").await, signup(&router, "bo").await);
    let (s, t) = as_account(&router, &ala, "POST", "/api/tournaments", Some(arena())).await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    for bad in ["nosuchevent1", "..%2F..%2Fetc", &"x".repeat(300)] {
        assert_eq!(
            event_socket(&addr, bad, None).await.err(),
            Some(404),
            "{bad}"
        );
    }
    let mut ala_ws = event_socket(&addr, &id, Some(&ala)).await.unwrap();
    let mut anon_ws = event_socket(&addr, &id, None).await.unwrap();
    let v = pushed(&mut ala_ws, 5, |v| v["type"] == "view").await;
    assert_eq!(
        (v["view"]["id"].as_str(), v["view"]["players"].as_u64()),
        (Some(id.as_str()), Some(0))
    );
    assert!(
        v["view"].get("you").is_none(),
        "the view is everyone's: {v}"
    );
    let y = pushed(&mut ala_ws, 5, |v| v["type"] == "you").await;
    assert_eq!(
        y["you"],
        json!({"joined": false, "withdrawn": false, "game": null})
    );
    pushed(&mut anon_ws, 5, |v| v["type"] == "view").await;
    // Bo joins: both sockets are told, within a second or two.
    let (s, _) = join(&router, &bo, &id).await;
    assert_eq!(s, 200);
    for ws in [&mut ala_ws, &mut anon_ws] {
        let v = pushed(ws, 3, |v| v["type"] == "view").await;
        assert_eq!(v["view"]["players"], 1);
        assert_eq!(v["view"]["standings"][0]["name"], "bo");
    }
    // Ala joins: her view, and her place (only on her socket).
    let (s, _) = join(&router, &ala, &id).await;
    assert_eq!(s, 200);
    pushed(&mut ala_ws, 3, |v| {
        v["type"] == "view" && v["view"]["players"] == 2
    })
    .await;
    let y = pushed(&mut ala_ws, 3, |v| v["type"] == "you").await;
    assert_eq!(y["you"]["joined"], true);
    let v = pushed(&mut anon_ws, 3, |v| {
        v["type"] != "view" || v["view"]["players"] == 2
    })
    .await;
    assert_eq!(v["type"], "view", "no place told to a stranger: {v}");
    // Only ping is taken.
    anon_ws.send("ping".into()).await.unwrap();
    assert_eq!(pushed(&mut anon_ws, 3, |_| true).await["type"], "pong");
    anon_ws.send("{\"type\":\"join\"}".into()).await.unwrap();
    assert_eq!(pushed(&mut anon_ws, 3, |_| true).await["type"], "error");
}

/// Two instances on PostgreSQL: a page open on one is pushed a change
/// made on the other (the feed counts the event again each second).
#[tokio::test]
async fn a_change_made_on_another_instance_is_pushed_within_seconds() {
    let Some((a, b, _)) = common::two_quick_instances("tournaments_socket_two").await else {
        return;
    };
    let (app_a, app_b) = (app(a.clone()), app(b.clone()));
    let addr_a = common::serve(app_a.clone()).await;
    let ala = signup(&app_a, "ala").await;
    let (s, t) = as_account(&app_a, &ala, "POST", "/api/tournaments", Some(arena())).await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    let mut ws = event_socket(&addr_a, &id, None).await.unwrap();
    pushed(&mut ws, 5, |v| {
        v["type"] == "view" && v["view"]["players"] == 0
    })
    .await;
    let (s, _) = join(&app_b, &ala, &id).await;
    assert_eq!(s, 200);
    let v = pushed(&mut ws, 5, |v| {
        v["type"] == "view" && v["view"]["players"] == 1
    })
    .await;
    assert_eq!(v["view"]["standings"][0]["name"], "ala");
    a.stop().await;
    b.stop().await;
}

/// A large event's socket pushes the leaders only ([`PUSHED_LINES`]) and
/// says how many lines it left out; a player below them is sent her own
/// line; `GET` still answers every line.
#[tokio::test]
async fn a_large_events_socket_pushes_the_leaders_and_each_player_her_own_line() {
    use agon_server::tournaments::PUSHED_LINES;
    let (_, router) = tournament_app("tournaments_socket_large").await;
    let addr = common::serve(router.clone()).await;
    let n = PUSHED_LINES + 5;
    let mut cookies = vec![];
    for i in 0..n {
        cookies.push(signup(&router, &format!("p{i:02}")).await);
    }
    let (s, t) = as_account(
        &router,
        &cookies[0],
        "POST",
        "/api/tournaments",
        Some(arena()),
    )
    .await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    for c in &cookies {
        let (s, _) = join(&router, c, &id).await;
        assert_eq!(s, 200);
    }
    let (_, all) = as_account(
        &router,
        &cookies[0],
        "GET",
        &format!("/api/tournaments/{id}"),
        None,
    )
    .await;
    let lines = all["standings"].as_array().unwrap();
    assert_eq!(lines.len(), n);
    assert!(
        all.get("standings_left").is_none(),
        "GET answers every line"
    );
    // The last line's player, on her socket.
    let last = lines[n - 1]["name"].as_str().unwrap().to_string();
    let i: usize = last[1..].parse().unwrap();
    let mut ws = event_socket(&addr, &id, Some(&cookies[i])).await.unwrap();
    let v = pushed(&mut ws, 5, |v| v["type"] == "view").await;
    assert_eq!(
        v["view"]["standings"].as_array().unwrap().len(),
        PUSHED_LINES
    );
    assert_eq!(v["view"]["standings_left"], 5);
    assert_eq!(v["view"]["players"], n);
    let y = pushed(&mut ws, 5, |v| v["type"] == "you").await;
    assert_eq!(y["you"]["standing"]["name"], last.as_str());
    assert_eq!(y["you"]["standing"]["rank"], n);
}

/// Nobody is paired while away: a player entered in an arena who never
/// opens a page is never paired; one whose page closed a moment ago (a
/// reload) still is, within the grace.
#[tokio::test]
async fn an_arena_never_pairs_a_player_away_but_forgives_a_reload() {
    let (_, router) = tournament_app("tournaments_away").await;
    let addr = common::serve(router.clone()).await;
    let (ala, bo, cy) = (
        signup(&router, "ala").await,
        signup(&router, "bo").await,
        signup(&router, "cy").await,
    );
    let ala_ws = online(&addr, &ala).await;
    let bo_ws = online(&addr, &bo).await;
    let (s, t) = as_account(&router, &ala, "POST", "/api/tournaments",
        Some(json!({"kind": "arena", "game": "urgammon", "to": 1, "clock": {"base_secs": 60, "increment_secs": 1}, "minutes": 10}))).await;
    assert_eq!(s, 201, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    for c in [&ala, &bo, &cy] {
        assert_eq!(join(&router, c, &id).await.0, 200);
    }
    let t = until(&router, &ala, &id, |t| t["you"]["game"].is_string()).await;
    let first = t["you"]["game"].as_str().unwrap().to_string();
    let (_, c) = as_account(&router, &cy, "GET", &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(c["you"]["game"], Value::Null, "cy is away: {c}");
    // Bo's page closes (a reload) and the site no longer counts her
    // online; the bout ends then.
    drop(bo_ws);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let (_, o) = call(&router, "GET", "/api/online", None, None).await;
        if !o["names"].as_array().unwrap().iter().any(|n| n == "bo") {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "bo still online: {o}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (s, v) = as_account(
        &router,
        &ala,
        "POST",
        &format!("/api/games/{first}/action"),
        Some(json!({"type": "resign"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let t = until(&router, &ala, &id, |t| {
        t["you"]["game"].as_str().is_some_and(|g| g != first)
    })
    .await;
    let again = t["games"][0].clone();
    let mut two = [
        again["first"].as_str().unwrap(),
        again["second"].as_str().unwrap(),
    ];
    two.sort_unstable();
    assert_eq!(
        two,
        ["ala", "bo"],
        "bo is forgiven her reload; cy, away, is never paired"
    );
    let (_, c) = as_account(&router, &cy, "GET", &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(c["you"]["game"], Value::Null);
    drop(ala_ws);
}

#[tokio::test]
async fn a_swiss_whose_only_two_players_block_each_other_ends_and_never_stalls() {
    let (_, app) = tournament_app("tournaments_block_stall").await;
    let (ala, bo) = (signup(&app, "ala").await, signup(&app, "bo").await);
    let (s, _) = as_account(&app, &ala, "POST", "/api/users/bo/block", None).await;
    assert_eq!(s, 200);
    let (_, t) = as_account(&app, &ala, "POST", "/api/tournaments",
        Some(json!({"kind": "swiss", "game": "urgammon", "to": 1, "days": 1, "rounds": 3, "starts_in_secs": 1}))).await;
    let id = t["id"].as_str().unwrap().to_string();
    for who in [&ala, &bo] {
        let (s, v) = join(&app, who, &id).await;
        assert_eq!(s, 200, "{v}");
    }
    // Round 1 can pair nobody (and no bye with two players): the event
    // ends, with no game and no point for anyone.
    let t = until(&app, &ala, &id, |t| t["status"] == "finished").await;
    assert_eq!(t["games"].as_array().unwrap().len(), 0, "{t}");
    assert!(
        t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["score"] == 0.0),
        "{t}"
    );
}

#[tokio::test]
async fn a_closed_account_leaves_every_event_she_entered_at_once() {
    let (state, app) = tournament_app("tournaments_closed").await;
    let (ala, bo, mo) = (
        signup(&app, "ala").await,
        signup(&app, "bo").await,
        signup(&app, "mo").await,
    );
    state.safety().grant_from_command_line("mo").await.unwrap();
    let mut events = vec![];
    for _ in 0..2 {
        let (s, t) = as_account(&app, &mo, "POST", "/api/tournaments", Some(arena())).await;
        assert_eq!(s, 201, "{t}");
        let id = t["id"].as_str().unwrap().to_string();
        for who in [&ala, &bo] {
            let (s, v) = join(&app, who, &id).await;
            assert_eq!(s, 200, "{v}");
        }
        events.push(id);
    }
    // Ala closes her own account; a moderator closes Bo's.
    let (s, v) = as_account(
        &app,
        &ala,
        "DELETE",
        "/api/account",
        Some(json!({"password": "correct horse battery"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = as_account(
        &app,
        &mo,
        "POST",
        "/api/mod/actions",
        Some(json!({"target": "bo", "action": "close", "reason": "spam"})),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    for id in &events {
        let (_, t) = as_account(&app, &mo, "GET", &format!("/api/tournaments/{id}"), None).await;
        assert_eq!(t["players"], 0, "both withdrawn at once: {t}");
    }
}

#[tokio::test]
async fn hostile_names_and_a_start_in_the_past_are_refused() {
    let (_, app) = tournament_app("tournaments_text_policy").await;
    let ala = signup(&app, "ala").await;
    for bad in [
        "\u{200b}\u{200b}",
        "\u{00ad}",
        "\u{feff}",
        "a\u{2028}b",
        "a\nb",
        "\u{3164}",
    ] {
        let mut body = arena();
        body["name"] = json!(bad);
        let (s, v) = as_account(&app, &ala, "POST", "/api/tournaments", Some(body)).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (400, Some("bad-tournament")),
            "{bad:?}: {v}"
        );
    }
    // A direction override is taken out: the name shows as written.
    let mut body = arena();
    body["name"] = json!("\u{202e}gnp.exe");
    let (s, t) = as_account(&app, &ala, "POST", "/api/tournaments", Some(body)).await;
    assert_eq!((s, t["name"].as_str()), (201, Some("gnp.exe")), "{t}");
    // NFC: the same name, however it was typed.
    let mut body = arena();
    body["name"] = json!("Cafe\u{301}");
    let (s, t) = as_account(&app, &ala, "POST", "/api/tournaments", Some(body)).await;
    assert_eq!((s, t["name"].as_str()), (201, Some("Caf\u{e9}")), "{t}");
    // A start 59 s (or 2 s) in the past is refused, as the docs say.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    for ago in [59_000, 2_000] {
        let mut body = arena();
        body["starts_in_secs"] = Value::Null;
        body["starts_at"] = json!(now - ago);
        let (s, v) = as_account(&app, &ala, "POST", "/api/tournaments", Some(body)).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (400, Some("bad-tournament")),
            "{ago}: {v}"
        );
    }
}

#[tokio::test]
async fn berserk_keeps_the_games_own_refusal() {
    let (_, app) = tournament_app("tournaments_berserk_codes").await;
    let ala = signup(&app, "ala").await;
    // No such event: its own code; an event not under way: bad-tournament.
    let (s, v) = as_account(&app, &ala, "POST", "/api/tournaments/nope/berserk", None).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (404, Some("no-such-tournament")),
        "{v}"
    );
    let (_, t) = as_account(&app, &ala, "POST", "/api/tournaments", Some(arena())).await;
    let id = t["id"].as_str().unwrap();
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        &format!("/api/tournaments/{id}/berserk"),
        None,
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (400, Some("bad-tournament")),
        "{v}"
    );
}
