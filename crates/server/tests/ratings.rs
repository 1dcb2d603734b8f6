//! Rated games through the HTTP API: who may create and join them, a Ringo
//! pair (its second game opened with the seats swapped, the pair rated
//! once), an Urgammon match, profiles, the leaderboard, and hostile input.

mod common;

use agon_server::store::Store;
use agon_server::{app, AppState};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use tower::ServiceExt;

const PASSWORD: &str = "correct horse battery";

/// The store: SQLite in memory, or PostgreSQL with `AGON_TEST_STORE=postgres`.
async fn store() -> Store {
    if std::env::var("AGON_TEST_STORE").as_deref() == Ok("postgres") {
        return common::pg_store("ratings")
            .await
            .expect("AGON_TEST_STORE=postgres needs AGON_TEST_DATABASE_URL");
    }
    Store::in_memory().unwrap()
}

async fn send(
    app: &axum::Router,
    method: &str,
    uri: &str,
    cookie: Option<&str>,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value, Option<String>) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(c) = cookie {
        req = req.header("cookie", format!("agon_session={c}"));
    }
    if let Some(t) = token {
        req = req.header("x-agon-token", t);
    }
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let res = app
        .clone()
        .oneshot(req.body(Body::from(body)).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let cookie = res
        .headers()
        .get("set-cookie")
        .and_then(|c| c.to_str().ok())
        .and_then(|c| c.strip_prefix("agon_session="))
        .and_then(|c| c.split(';').next())
        .map(str::to_string);
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 22)
        .await
        .unwrap();
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, v, cookie)
}

async fn signup(app: &axum::Router, name: &str) -> String {
    let (s, v, c) = send(
        app,
        "POST",
        "/api/account/signup",
        None,
        None,
        Some(json!({"name": name, "password": PASSWORD})),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    c.unwrap()
}

/// A rated friend game made by `a` and joined by `b`: its id and both
/// players' tokens.
async fn rated_game(app: &axum::Router, a: &str, b: &str, body: Value) -> (String, String, String) {
    let (s, g, _) = send(app, "POST", "/api/games", Some(a), None, Some(body)).await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["state"]["rated"], true);
    let id = g["id"].as_str().unwrap().to_string();
    let invite = g["invite"].clone();
    let (s, j, _) = send(
        app,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(b),
        None,
        Some(json!({ "invite": invite })),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{j}");
    (
        id,
        g["token"].as_str().unwrap().to_string(),
        j["token"].as_str().unwrap().to_string(),
    )
}

async fn resign(app: &axum::Router, id: &str, cookie: &str) -> Value {
    let (s, v, _) = send(
        app,
        "POST",
        &format!("/api/games/{id}/action"),
        Some(cookie),
        None,
        Some(json!({"type": "resign"})),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["state"].clone()
}

async fn profile(app: &axum::Router, name: &str) -> Value {
    let (s, v, _) = send(app, "GET", &format!("/api/users/{name}"), None, None, None).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

#[tokio::test]
async fn only_two_accounts_play_rated() {
    let app = app(AppState::new(store().await, 1, std::time::Duration::ZERO));
    let ala = signup(&app, "ala").await;
    // Anonymous, against the computer, on one screen: refused.
    let (s, v, _) = send(
        &app,
        "POST",
        "/api/games",
        None,
        None,
        Some(json!({"game": "ringo", "opponent": "friend", "rated": true})),
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("not-signed-in"))
    );
    for opponent in ["engine", "local"] {
        let (s, v, _) = send(
            &app,
            "POST",
            "/api/games",
            Some(&ala),
            None,
            Some(json!({"game": "ringo", "opponent": opponent, "rated": true})),
        )
        .await;
        assert_eq!(
            (s, v["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("rated-needs-friend")),
            "{opponent}"
        );
    }
    let (s, v, _) = send(
        &app,
        "POST",
        "/api/games",
        Some(&ala),
        None,
        Some(json!({"game": "ringo", "opponent": "friend", "rated": "yes"})),
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad-json"))
    );
    // Casual by default.
    let (_, g, _) = send(
        &app,
        "POST",
        "/api/games",
        Some(&ala),
        None,
        Some(json!({"game": "ringo", "opponent": "friend"})),
    )
    .await;
    assert_eq!(g["state"]["rated"], false);
    // The friend must sign in, and be someone else.
    let (_, g, _) = send(
        &app,
        "POST",
        "/api/games",
        Some(&ala),
        None,
        Some(json!({"game": "ringo", "opponent": "friend", "rated": true})),
    )
    .await;
    let uri = format!("/api/games/{}/join", g["id"].as_str().unwrap());
    let (s, v, _) = send(
        &app,
        "POST",
        &uri,
        None,
        None,
        Some(json!({"invite": g["invite"]})),
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("not-signed-in"))
    );
    let (s, v, _) = send(
        &app,
        "POST",
        &uri,
        Some(&ala),
        None,
        Some(json!({"invite": g["invite"]})),
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::CONFLICT, Some("same-account"))
    );
    let olek = signup(&app, "olek").await;
    let (s, _, _) = send(
        &app,
        "POST",
        &uri,
        Some(&olek),
        None,
        Some(json!({"invite": g["invite"]})),
    )
    .await;
    assert_eq!(
        s,
        StatusCode::OK,
        "the invite was not spent by the refusals"
    );
}

#[tokio::test]
async fn a_ringo_pair_swaps_seats_and_is_rated_once() {
    let app = app(AppState::new(store().await, 1, std::time::Duration::ZERO));
    let ala = signup(&app, "ala").await;
    let olek = signup(&app, "olek").await;
    let (one, _, _) = rated_game(
        &app,
        &ala,
        &olek,
        json!({"game": "ringo", "opponent": "friend", "side": "attackers", "rated": true}),
    )
    .await;
    // Ala resigns the first game: the second opens, seats swapped.
    let s1 = resign(&app, &one, &ala).await;
    assert_eq!(s1["pair"]["game"], 1);
    assert_eq!(
        s1["rating_change"],
        Value::Null,
        "a pair is rated after its second game"
    );
    let two = s1["rematch"]
        .as_str()
        .expect("the second game of the pair")
        .to_string();
    assert_eq!(s1["pair"]["second"], two.as_str());
    let (_, g2, _) = send(
        &app,
        "GET",
        &format!("/api/games/{two}"),
        Some(&ala),
        None,
        None,
    )
    .await;
    assert_eq!(g2["you"], json!([1]), "ala defends in the second game");
    assert_eq!(g2["state"]["players"][0]["name"], "olek");
    assert_eq!(
        g2["state"]["pair"],
        json!({"first": one, "second": two, "game": 2, "score": null, "pause_ms": 5000})
    );
    assert_eq!(g2["state"]["rated"], true);
    // Olek resigns it: one game each, the ratings stay near 1500.
    let s2 = resign(&app, &two, &olek).await;
    // The pair's score, per seat of the second game: olek (seat 0) won the
    // first, ala (seat 1) the second.
    assert_eq!(s2["pair"]["score"], json!([1.0, 1.0]));
    let change = s2["rating_change"].as_array().expect("rated");
    assert!(
        change.iter().all(|c| c.as_f64().unwrap().abs() < 1.0),
        "{change:?}"
    );
    let p = profile(&app, "ala").await;
    assert_eq!(p["ratings"]["ringo"]["games"], 1, "the pair counts once");
    assert_eq!(p["ratings"]["ringo"]["provisional"], true);
    assert_eq!(p["history"]["ringo"].as_array().unwrap().len(), 1);
    assert_eq!(p["ratings"]["urgammon"]["games"], 0);

    // A second pair that ala wins both games of.
    let (three, _, _) = rated_game(
        &app,
        &ala,
        &olek,
        json!({"game": "ringo", "opponent": "friend", "side": "attackers", "rated": true}),
    )
    .await;
    let s3 = resign(&app, &three, &olek).await;
    let four = s3["rematch"].as_str().unwrap().to_string();
    let s4 = resign(&app, &four, &olek).await;
    assert_eq!(
        s4["pair"]["score"],
        json!([0.0, 2.0]),
        "ala, in seat 1, won both"
    );
    let change = s4["rating_change"].as_array().unwrap();
    // In the second game ala sits in seat 1.
    assert!(change[1].as_f64().unwrap() > 50.0, "{change:?}");
    assert!(change[0].as_f64().unwrap() < -50.0, "{change:?}");
    let a = profile(&app, "ala").await;
    let o = profile(&app, "OLEK").await;
    assert!(a["ratings"]["ringo"]["rating"].as_i64().unwrap() > 1550);
    assert!(o["ratings"]["ringo"]["rating"].as_i64().unwrap() < 1450);
    assert_eq!(a["history"]["ringo"].as_array().unwrap().len(), 2);
    // Her results per rule set and seat: 2 wins and 1 loss as attackers
    // and defenders over the four games.
    let results = a["results"].as_array().unwrap();
    let won: i64 = results.iter().map(|r| r["won"].as_i64().unwrap()).sum();
    let lost: i64 = results.iter().map(|r| r["lost"].as_i64().unwrap()).sum();
    assert_eq!((won, lost), (3, 1));
    assert!(a["playing"].as_array().unwrap().is_empty());
    // Still provisional both: nobody on the leaderboard yet.
    let (s, board, _) = send(&app, "GET", "/api/leaderboard/ringo", None, None, None).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(board["players"], json!([]));
}

#[tokio::test]
async fn a_rated_urgammon_match_is_rated_by_its_length() {
    let app = app(AppState::new(store().await, 1, std::time::Duration::ZERO));
    let ala = signup(&app, "ala").await;
    let olek = signup(&app, "olek").await;
    let (id, _, _) = rated_game(
        &app,
        &ala,
        &olek,
        json!({"game": "urgammon", "opponent": "friend", "side": "light", "to": 1, "rated": true}),
    )
    .await;
    let s = resign(&app, &id, &olek).await;
    let change = s["rating_change"].as_array().expect("the match is rated");
    assert!(
        change[0].as_f64().unwrap() > 100.0 && change[1].as_f64().unwrap() < -100.0,
        "{change:?}"
    );
    assert!(s.get("pair").is_none());
    let one = profile(&app, "ala").await["ratings"]["urgammon"]["rating"]
        .as_i64()
        .unwrap();
    // A match to 7 moves new ratings further than a match to 1.
    let ewa = signup(&app, "ewa").await;
    let jan = signup(&app, "jan").await;
    let (id, _, _) = rated_game(
        &app,
        &ewa,
        &jan,
        json!({"game": "urgammon", "opponent": "friend", "side": "light", "to": 7, "rated": true}),
    )
    .await;
    resign(&app, &id, &jan).await;
    let seven = profile(&app, "ewa").await["ratings"]["urgammon"]["rating"]
        .as_i64()
        .unwrap();
    assert!(seven > one, "{seven} > {one}");
    // The games list says which games are rated, and their changes.
    let (_, list, _) = send(&app, "GET", "/api/games?mine=1", Some(&ewa), None, None).await;
    assert_eq!(list["games"][0]["rated"], true);
    assert!(list["games"][0]["rating_change"][0].as_f64().unwrap() > 0.0);
}

#[tokio::test]
async fn profiles_and_leaderboards_refuse_hostile_names() {
    let app = app(AppState::new(store().await, 1, std::time::Duration::ZERO));
    signup(&app, "ala").await;
    for name in [
        "nobody",
        "x".repeat(300).as_str(),
        "%27%20OR%201%3D1",
        "%D0%B0la",
        "..",
        "%00",
    ] {
        let (s, v, _) = send(&app, "GET", &format!("/api/users/{name}"), None, None, None).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (StatusCode::NOT_FOUND, Some("user-not-found")),
            "{name}"
        );
    }
    let p = profile(&app, "ALA").await;
    assert_eq!(p["name"], "ala");
    assert_eq!(
        p["ratings"]["ringo"],
        json!({"rating": 1500, "deviation": 350, "provisional": true, "games": 0})
    );
    for game in ["chess", "", "RINGO%20", "%27"] {
        let (s, _, _) = send(
            &app,
            "GET",
            &format!("/api/leaderboard/{game}"),
            None,
            None,
            None,
        )
        .await;
        assert!(
            s == StatusCode::BAD_REQUEST || s == StatusCode::NOT_FOUND,
            "{game}: {s}"
        );
    }
}

#[tokio::test]
async fn a_rated_game_that_ended_unrated_is_rated_when_next_loaded() {
    let dir = std::env::temp_dir().join(format!("agon-ratings-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let id = {
        let state = AppState::new(Store::open(&dir).unwrap(), 1, std::time::Duration::ZERO);
        let app = app(state.clone());
        let ala = signup(&app, "ala").await;
        let olek = signup(&app, "olek").await;
        let (id, _, _) = rated_game(&app, &ala, &olek, json!({"game": "urgammon", "opponent": "friend", "side": "light", "to": 1, "rated": true})).await;
        resign(&app, &id, &olek).await;
        state.stop().await;
        id
    };
    // As if the server had died between the end and the rating.
    let db = rusqlite::Connection::open(dir.join("agon.db")).unwrap();
    db.execute_batch(
        "UPDATE games SET rating_change0 = NULL, rating_change1 = NULL;
         DELETE FROM rating_history; DELETE FROM ratings;",
    )
    .unwrap();
    drop(db);
    let app = app(AppState::new(
        Store::open(&dir).unwrap(),
        1,
        std::time::Duration::ZERO,
    ));
    assert_eq!(
        profile(&app, "ala").await["ratings"]["urgammon"]["games"],
        0
    );
    let (s, g, _) = send(&app, "GET", &format!("/api/games/{id}"), None, None, None).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let mut rated = false;
    for _ in 0..100 {
        if profile(&app, "ala").await["ratings"]["urgammon"]["games"] == 1 {
            rated = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(rated, "loading the game rated it");
    let (_, g, _) = send(&app, "GET", &format!("/api/games/{id}"), None, None, None).await;
    assert!(g["state"]["rating_change"][0].as_f64().unwrap() > 0.0);
    let _ = std::fs::remove_dir_all(&dir);
}
