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
