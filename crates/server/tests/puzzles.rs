//! The puzzle API: what a puzzle shows (never its answer), tries judged and
//! rated, ratings kept on the account (a first try only, once however many
//! tries race), and hostile input refused with clear errors.

mod common;

use common::{as_account, call, signup, state_on, test_store};
use serde_json::{json, Value};

async fn app(test: &str) -> axum::Router {
    agon_server::app(state_on(test_store(test).await))
}

async fn get(app: &axum::Router, uri: &str) -> (u16, Value) {
    let (s, v) = call(app, "GET", uri, None, None).await;
    (s.as_u16(), v)
}

async fn attempt(app: &axum::Router, id: &str, body: Value) -> (u16, Value) {
    let (s, v) = call(
        app,
        "POST",
        &format!("/api/puzzles/{id}/attempt"),
        None,
        Some(&body.to_string()),
    )
    .await;
    (s.as_u16(), v)
}

fn solution(id: &str) -> String {
    agon_server::puzzles::by_id(id).unwrap().solution[0].clone()
}

/// A legal choice of the puzzle other than its solution.
async fn wrong_choice(app: &axum::Router, p: &Value) -> String {
    let right = solution(p["id"].as_str().unwrap());
    let (mut legal, verdict) = common::analysed_legal(app, p["game"].as_str().unwrap(), p).await;
    if verdict {
        legal.push("verdict".into());
    }
    assert!(
        legal.contains(&right),
        "the solution {right} is legal: {legal:?}"
    );
    legal.into_iter().find(|m| *m != right).unwrap()
}

#[tokio::test]
async fn a_puzzle_shows_its_position_not_its_answer_and_tries_are_judged() {
    let app = app("puzzles_judged").await;
    let (s, sets) = get(&app, "/api/puzzles").await;
    assert_eq!(s, 200, "{sets}");
    assert!(sets["games"][0]["count"].as_u64().unwrap() >= 1000);
    assert!(sets["games"][1]["count"].as_u64().unwrap() >= 500);
    assert!(sets["player"].is_null(), "not signed in");
    for (game, theme) in [("ringo", "capture"), ("urgammon", "verdict-die")] {
        let (s, p) = get(
            &app,
            &format!("/api/puzzles/next?game={game}&theme={theme}"),
        )
        .await;
        assert_eq!(s, 200, "{p}");
        for key in ["id", "game", "rules", "to_act", "theme", "rating", "goal"] {
            assert!(!p[key].is_null(), "{key}: {p}");
        }
        assert!(
            p["themes"].as_array().unwrap().iter().any(|t| t == theme),
            "{p}"
        );
        assert!(
            p.get("solution").is_none() && p.get("options").is_none(),
            "no answer: {p}"
        );
        if game == "ringo" {
            assert!(p["position"].is_string() && p["plies"].is_u64(), "{p}");
        } else {
            assert!(p["record"].is_string() && p["setup"].is_string(), "{p}");
        }
        let id = p["id"].as_str().unwrap();
        let (s, one) = get(&app, &format!("/api/puzzles/{id}")).await;
        assert_eq!((s, &one["id"]), (200, &p["id"]));
        // A wrong but legal try: not correct, with the solution.
        let wrong = wrong_choice(&app, &p).await;
        let (s, a) = attempt(&app, id, json!({"moves": [wrong]})).await;
        assert_eq!(s, 200, "{a}");
        assert_eq!(a["correct"], false);
        assert_eq!(a["solution"], json!([solution(id)]));
        assert_eq!(a["rated"], false, "no account, no rating sent");
        if game == "urgammon" {
            let opts = a["options"].as_array().unwrap();
            assert_eq!(opts[0]["choice"], json!(solution(id)));
            assert!(
                opts[0]["equity"].as_f64().unwrap() - opts[1]["equity"].as_f64().unwrap() >= 0.1
            );
        }
        // The right one, with the browser's rating: rated up.
        let (s, a) = attempt(
            &app,
            id,
            json!({"moves": [solution(id)], "player": {"rating": 1500.0, "deviation": 350.0, "volatility": 0.06}}),
        )
        .await;
        assert_eq!(s, 200, "{a}");
        assert_eq!(
            (a["correct"].clone(), a["rated"].clone()),
            (json!(true), json!(true))
        );
        assert!(a["change"].as_f64().unwrap() > 0.0, "{a}");
        assert_eq!(a["player"]["attempts"], 1);
    }
}

#[tokio::test]
async fn hostile_puzzle_requests_are_refused_with_reasons() {
    let app = app("puzzles_hostile").await;
    for (uri, status, code) in [
        ("/api/puzzles/next", 400, "bad-query"),
        ("/api/puzzles/next?game=chess", 400, "bad-query"),
        (
            "/api/puzzles/next?game=ringo&theme=%3Cscript%3E",
            404,
            "no-puzzle",
        ),
        (
            "/api/puzzles/next?game=ringo&theme=verdict-die",
            404,
            "no-puzzle",
        ),
        ("/api/puzzles/next?game=ringo&rating=abc", 400, "bad-query"),
        (
            "/api/puzzles/next?game=ringo&rating=99999",
            400,
            "bad-query",
        ),
        ("/api/puzzles/next?game=ringo&rating=NaN", 400, "bad-query"),
        ("/api/puzzles/next?game=ringo&colour=red", 400, "bad-query"),
        ("/api/puzzles/nope", 404, "no-such-puzzle"),
        ("/api/puzzles/..%2F..%2Fetc%2Fpasswd", 404, "no-such-puzzle"),
    ] {
        let (s, v) = get(&app, uri).await;
        assert_eq!((s, v["code"].as_str()), (status, Some(code)), "{uri}: {v}");
    }
    let many: Vec<String> = (0..201).map(|i| format!("r-x-{i}")).collect();
    let (s, v) = get(
        &app,
        &format!("/api/puzzles/next?game=ringo&exclude={}", many.join(",")),
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (400, Some("bad-query")), "{v}");

    let id = "r-classic-0001";
    let right = solution(id);
    for (body, status, code) in [
        ("{}".to_string(), 400, "bad-json"),
        ("not json".to_string(), 400, "bad-json"),
        (json!({"moves": []}).to_string(), 400, "bad-try"),
        (json!({"moves": [right, right]}).to_string(), 400, "bad-try"),
        (json!({"moves": ["z9-z1"]}).to_string(), 400, "illegal-move"),
        (json!({"moves": ["a6-a5".repeat(10)]}).to_string(), 400, "bad-try"),
        (json!({"moves": [right], "cheat": true}).to_string(), 400, "bad-json"),
        (json!({"moves": [7]}).to_string(), 400, "bad-json"),
        (json!({"moves": [right], "player": {"rating": 9000.0, "deviation": 50.0, "volatility": 0.06}}).to_string(), 400, "bad-json"),
        (json!({"moves": [right], "player": {"rating": 1500.0, "deviation": 1.0, "volatility": 0.06}}).to_string(), 400, "bad-json"),
    ] {
        let (s, v) = call(&app, "POST", &format!("/api/puzzles/{id}/attempt"), None, Some(&body)).await;
        assert_eq!((s.as_u16(), v["code"].as_str()), (status, Some(code)), "{body}: {v}");
    }
    let (s, v) = attempt(&app, "u-0001", json!({"moves": ["P-9z"]})).await;
    assert_eq!((s, v["code"].as_str()), (400, Some("illegal-move")), "{v}");
    let (s, v) = attempt(&app, "no-such", json!({"moves": ["a6-a5"]})).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (404, Some("no-such-puzzle")),
        "{v}"
    );
}

#[tokio::test]
async fn an_account_is_rated_on_its_first_try_only_and_once_under_a_race() {
    let app = app("puzzles_account").await;
    let cookie = signup(&app, "solver").await;
    let (s, p) = as_account(&app, &cookie, "GET", "/api/puzzles/next?game=ringo", None).await;
    assert_eq!(s, 200, "{p}");
    assert_eq!(p["player"]["rating"], 1500.0);
    let id = p["id"].as_str().unwrap().to_string();
    let uri = format!("/api/puzzles/{id}/attempt");
    let right = json!({"moves": [solution(&id)]});
    // Ten tries at once: exactly one is rated.
    let tries = (0..10).map(|_| as_account(&app, &cookie, "POST", &uri, Some(right.clone())));
    let answers = futures_util::future::join_all(tries).await;
    let rated: Vec<&Value> = answers
        .iter()
        .map(|(_, a)| a)
        .filter(|a| a["rated"] == true)
        .collect();
    assert!(answers.iter().all(|(s, _)| *s == 200), "{answers:?}");
    assert_eq!(rated.len(), 1, "{answers:?}");
    let after = rated[0]["player"]["rating"].as_f64().unwrap();
    assert!(after > 1500.0);
    // The account's rating is kept and shown; a later try leaves it.
    let (_, sets) = as_account(&app, &cookie, "GET", "/api/puzzles", None).await;
    assert_eq!(sets["player"]["ringo"]["rating"].as_f64(), Some(after));
    assert_eq!(sets["player"]["ringo"]["attempts"], 1);
    assert_eq!(sets["player"]["urgammon"]["attempts"], 0);
    let (_, again) = as_account(&app, &cookie, "POST", &uri, Some(json!({"moves": [solution(&id)], "player": {"rating": 3000.0, "deviation": 50.0, "volatility": 0.06}}))).await;
    assert_eq!(again["rated"], false, "{again}");
    assert_eq!(
        again["player"]["rating"].as_f64(),
        Some(after),
        "the account's, not one sent"
    );
    // A failed first try at another puzzle lowers it.
    let (_, q) = as_account(
        &app,
        &cookie,
        "GET",
        &format!("/api/puzzles/next?game=ringo&after={id}"),
        None,
    )
    .await;
    assert_ne!(q["id"], json!(id), "the one tried is not given again");
    let qid = q["id"].as_str().unwrap().to_string();
    let wrong = wrong_choice(&app, &q).await;
    let (_, a) = as_account(
        &app,
        &cookie,
        "POST",
        &format!("/api/puzzles/{qid}/attempt"),
        Some(json!({"moves": [wrong]})),
    )
    .await;
    assert_eq!(
        (a["correct"].clone(), a["rated"].clone()),
        (json!(false), json!(true)),
        "{a}"
    );
    assert!(a["change"].as_f64().unwrap() < 0.0);
    // Another account starts afresh.
    let other = signup(&app, "other").await;
    let (_, sets) = as_account(&app, &other, "GET", "/api/puzzles", None).await;
    assert_eq!(sets["player"]["ringo"]["attempts"], 0);
}

/// A try at puzzle `id` with `moves`, from `peer`, signed in with `cookie`
/// or not.
async fn try_from(
    app: &axum::Router,
    peer: &str,
    cookie: Option<&str>,
    id: &str,
    moves: Value,
) -> Value {
    use tower::ServiceExt;
    let mut b = axum::http::Request::builder()
        .method("POST")
        .uri(format!("/api/puzzles/{id}/attempt"))
        .header("content-type", "application/json");
    if let Some(c) = cookie {
        b = b.header("cookie", c);
    }
    let mut req = b
        .body(axum::body::Body::from(
            json!({ "moves": moves }).to_string(),
        ))
        .unwrap();
    req.extensions_mut()
        .insert(axum::extract::ConnectInfo::<std::net::SocketAddr>(
            peer.parse().unwrap(),
        ));
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(status, 200, "{v}");
    v
}

/// The farm: look the solution up signed out, then play it signed in for
/// rating (1513 → 2038 in twelve puzzles). A solution shown to a browser
/// not signed in marks the puzzle seen at that address (its /64 for IPv6)
/// for 30 days: an account's first try there is recorded, not rated.
#[tokio::test]
async fn a_solution_looked_up_signed_out_cannot_be_played_for_rating() {
    let app = app("puzzles_farm").await;
    let cookie = signup(&app, "ola").await;
    let (_, list) = get(&app, "/api/puzzles/next?game=ringo").await;
    let first = list["id"].as_str().unwrap().to_string();
    let (_, p2) = get(
        &app,
        &format!("/api/puzzles/next?game=ringo&exclude={first}"),
    )
    .await;
    let second = p2["id"].as_str().unwrap().to_string();
    let (_, p3) = get(
        &app,
        &format!("/api/puzzles/next?game=ringo&exclude={first},{second}"),
    )
    .await;
    let third = p3["id"].as_str().unwrap().to_string();
    let rating = async || {
        let (_, a) = as_account(&app, &cookie, "GET", "/api/puzzles", None).await;
        a["player"]["ringo"]["rating"].as_f64().unwrap()
    };
    let start = rating().await;
    // Signed out, a wrong answer shows the solution.
    let wrong = wrong_choice(&app, &list).await;
    let shown = try_from(&app, "10.0.0.7:5000", None, &first, json!([wrong])).await;
    assert_eq!(shown["correct"], false);
    let answer = json!([shown["solution"][0]]);
    // Signed in, from the same address: right, but not rated.
    let v = try_from(&app, "10.0.0.7:5001", Some(&cookie), &first, answer.clone()).await;
    assert_eq!(
        (v["correct"].clone(), v["rated"].clone(), v["seen"].clone()),
        (json!(true), json!(false), json!(true)),
        "{v}"
    );
    assert_eq!(rating().await, start);
    // It counts as tried: never rated later either.
    let v = try_from(&app, "10.0.0.9:5001", Some(&cookie), &first, answer).await;
    assert_eq!(
        (v["rated"].clone(), v["seen"].clone()),
        (json!(false), Value::Null),
        "{v}"
    );
    // The same for an IPv6 neighbour of the same /64.
    let wrong = wrong_choice(&app, &p2).await;
    let shown = try_from(
        &app,
        "[2a00:1450:4001:82b::1]:5000",
        None,
        &second,
        json!([wrong]),
    )
    .await;
    let v = try_from(
        &app,
        "[2a00:1450:4001:82b:abcd::2]:5000",
        Some(&cookie),
        &second,
        json!([shown["solution"][0]]),
    )
    .await;
    assert_eq!(v["rated"], false, "{v}");
    // A puzzle not looked up is rated as before.
    let v = try_from(
        &app,
        "10.0.0.7:5002",
        Some(&cookie),
        &third,
        json!([solution(&third)]),
    )
    .await;
    assert_eq!(
        (v["correct"].clone(), v["rated"].clone()),
        (json!(true), json!(true)),
        "{v}"
    );
    assert!(rating().await > start);
}
