//! Helpers shared by the API tests: the router driven without a socket.
#![allow(dead_code)]

use agon_server::store::Store;
use agon_server::AppState;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{json, Value};
use std::time::Duration;
use tower::ServiceExt;

pub fn state_on(store: Store) -> AppState {
    AppState::new(store, 2, Duration::ZERO)
}

pub async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<&str>,
) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(t) = token {
        req = req.header("x-agon-token", t);
    }
    let req = req
        .body(Body::from(body.unwrap_or("").to_string()))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value)
}

pub async fn create(app: &axum::Router, body: Value) -> Value {
    let (status, v) = call(app, "POST", "/api/games", None, Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v
}

pub async fn action(
    app: &axum::Router,
    id: &str,
    token: Option<&str>,
    body: Value,
) -> (StatusCode, Value) {
    call(
        app,
        "POST",
        &format!("/api/games/{id}/action"),
        token,
        Some(&body.to_string()),
    )
    .await
}

/// The next action of an Urgammon match played on one screen: the next game
/// between games, the roll, a legal move (the last listed with `last`, else
/// the first), or the verdict die when no move is listed.
pub fn urgammon_step(s: &Value, last: bool) -> Value {
    let moves = s["moves"].as_array();
    let pick = moves.and_then(|m| if last { m.last() } else { m.first() });
    if s["between_games"] == true {
        json!({"type": "next"})
    } else if s["phase"] == "roll" {
        json!({"type": "roll"})
    } else if let Some(m) = pick {
        json!({"type": "move", "move": m})
    } else {
        json!({"type": "verdict"})
    }
}

pub fn mv(m: &str) -> Value {
    json!({"type": "move", "move": m})
}

/// Imports a record as a new game.
pub async fn import(app: &axum::Router, game: &str, record: &str) -> (StatusCode, Value) {
    let body = json!({ "game": game, "record": record }).to_string();
    call(app, "POST", "/api/import", None, Some(&body)).await
}

/// Creates a game; returns the answer, the id and the creator's token.
pub async fn start(app: &axum::Router, body: Value) -> (Value, String, String) {
    let g = create(app, body).await;
    let id = g["id"].as_str().unwrap().to_string();
    let token = g["token"].as_str().unwrap().to_string();
    (g, id, token)
}

/// A PostgreSQL store on a fresh database of its own, or `None` (with a line
/// saying why the test is skipped) when `AGON_TEST_DATABASE_URL` is not set.
/// `./test.sh` starts a throwaway server and sets it.
pub async fn pg_store(test: &str) -> Option<Store> {
    let Some(admin) = pg_admin_url() else {
        eprintln!(
            "skipped {test} on PostgreSQL: AGON_TEST_DATABASE_URL is not set \
             (./test.sh starts a throwaway server; or scripts/test-postgres.sh start DIR)"
        );
        return None;
    };
    let url = pg_database(&admin, test).await;
    Some(
        Store::connect(&url)
            .await
            .expect("connect to the test database"),
    )
}

/// The admin URL of the test server, if there is one.
/// Under `./test.sh` (`AGON_REQUIRE_ALL`) a missing server fails the test
/// instead of skipping it.
pub fn pg_admin_url() -> Option<String> {
    let url = std::env::var("AGON_TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty());
    assert!(
        url.is_some() || std::env::var_os("AGON_REQUIRE_ALL").is_none(),
        "AGON_TEST_DATABASE_URL is not set, and ./test.sh (AGON_REQUIRE_ALL) runs every test"
    );
    url
}

/// Creates a fresh database for a test on the server at `admin`, and returns
/// its URL.
pub async fn pg_database(admin: &str, test: &str) -> String {
    let (client, connection) = tokio_postgres::connect(admin, tokio_postgres::NoTls)
        .await
        .expect("the test PostgreSQL server is reachable");
    tokio::spawn(connection);
    let mut bytes = [0u8; 6];
    getrandom::fill(&mut bytes).unwrap();
    let suffix: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let name = format!(
        "agon_{}_{suffix}",
        test.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    );
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .expect("create the test database");
    let base = admin.rsplit_once('/').map_or(admin, |(b, _)| b);
    format!("{base}/{name}")
}

/// A new account's session cookie.
pub async fn signup(app: &axum::Router, name: &str) -> String {
    let body = json!({"name": name, "password": "correct horse battery"}).to_string();
    let req = axum::http::Request::builder()
        .method("POST")
        .uri("/api/account/signup")
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body))
        .unwrap();
    use tower::ServiceExt;
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), 201);
    let cookie = res.headers()["set-cookie"].to_str().unwrap();
    cookie.split(';').next().unwrap().to_string()
}

/// A request with a session cookie.
pub async fn as_account(
    app: &axum::Router,
    cookie: &str,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (u16, Value) {
    use tower::ServiceExt;
    let req = axum::http::Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .header("cookie", cookie)
        .body(axum::body::Body::from(
            body.map(|b| b.to_string()).unwrap_or_default(),
        ))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status().as_u16();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}
