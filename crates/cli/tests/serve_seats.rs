//! A seat moved to another device, over real sockets: the device it left is
//! told at once on its WebSocket, so it stops looking live.

mod common;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_device_a_seat_left_is_told_at_once() {
    let data = std::env::temp_dir().join(format!("agon-seats-{}", std::process::id()));
    let (mut child, port) = common::start_serve(&data, &["--engine-delay-ms", "0"]);
    let http = |method: &'static str, path: String, token: Option<String>, body: Value| {
        tokio::task::spawn_blocking(move || {
            let (status, text) =
                common::http(port, method, &path, token.as_deref(), &body.to_string()).unwrap();
            (
                status,
                serde_json::from_str::<Value>(&text).unwrap_or(Value::Null),
            )
        })
    };
    let (status, created) = http(
        "POST",
        "/api/games".into(),
        None,
        json!({"game": "ringo", "opponent": "engine", "level": 1, "side": "attackers"}),
    )
    .await
    .unwrap();
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    // The first device says who it is on its socket.
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}/api/games/{id}/ws"))
            .await
            .unwrap();
    socket
        .send(Message::Text(
            json!({"type": "hello", "token": token}).to_string().into(),
        ))
        .await
        .unwrap();
    let next_of = async |socket: &mut tokio_tungstenite::WebSocketStream<_>, kind: &str| loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .unwrap_or_else(|_| panic!("no '{kind}' message in time"))
            .unwrap()
            .unwrap();
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["type"] == kind {
                return v;
            }
        }
    };
    let hello = next_of(&mut socket, "hello").await;
    assert_eq!(hello["you"], json!([0]));
    // Move my seat to another device: the second device opens the link.
    let (status, link) = http(
        "POST",
        format!("/api/games/{id}/seat-link"),
        Some(token.clone()),
        json!({}),
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{link}");
    let (status, joined) = http(
        "POST",
        format!("/api/games/{id}/join"),
        None,
        json!({"invite": link["code"]}),
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{joined}");
    // The first device hears at once that it only watches now.
    let moved = next_of(&mut socket, "moved").await;
    assert_eq!(moved["you"], json!([]), "{moved}");
    // And its seat is shown empty of a player until the new device connects.
    let (mut second, _) =
        tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}/api/games/{id}/ws"))
            .await
            .unwrap();
    second
        .send(Message::Text(
            json!({"type": "hello", "token": joined["token"]})
                .to_string()
                .into(),
        ))
        .await
        .unwrap();
    let hello = next_of(&mut second, "hello").await;
    assert_eq!(hello["you"], json!([0]));
    drop((socket, second));
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&data);
}
