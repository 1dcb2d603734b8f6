//! Web Push cannot be pointed inside the network (issue 72's blind SSRF).
//! A subscription is refused by its spelling (a loopback name with or
//! without a trailing dot, an address literal, a port other than 443), or,
//! when its name looks public but resolves to this machine, never
//! connected to: listeners on the loopback addresses count every
//! connection. The test resolver (`PushOptions::resolve`, `agon serve
//! --push-resolve`) stands for a DNS answer, so no traffic leaves this
//! machine. A public-looking name the operator allowed still receives a
//! message, and it opens with the browser's keys.

mod common;

use agon_server::push::{Pinned, Ports, PushOptions};
use agon_server::store::Store;
use agon_server::{app, AppState, Options};
use common::{friend_game, play_first};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

fn pin(text: &str) -> Pinned {
    text.parse().unwrap()
}

fn app_with(push: PushOptions) -> axum::Router {
    app(AppState::with_options(
        Store::in_memory().unwrap(),
        Options {
            engine_delay: Duration::ZERO,
            push,
            ..Options::default()
        },
    ))
}

/// Subscribes `endpoint` for a seat of a correspondence game.
async fn subscribe(app: &axum::Router, endpoint: &str, id: &str, token: &str) -> (u16, Value) {
    common::push_subscribe(app, endpoint, id, token).await
}

/// A TCP listener on `address` (port chosen by the system) that counts the
/// connections made to it; its port and the count.
async fn counting(address: &str) -> Option<(u16, Arc<AtomicUsize>)> {
    let listener = tokio::net::TcpListener::bind((address, 0)).await.ok()?;
    let port = listener.local_addr().ok()?.port();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = count.clone();
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            seen.fetch_add(1, Ordering::SeqCst);
            drop(socket);
        }
    });
    Some((port, count))
}

#[tokio::test]
async fn endpoints_inside_this_machine_are_refused_or_never_connected_to() {
    let (p4, hits4) = counting("127.0.0.1").await.unwrap();
    // IPv6 may be off on a test machine: then its cases are skipped.
    let v6 = counting("::1").await;
    let app = app_with(PushOptions {
        // Any port, so that each refusal below has one reason only.
        allow_ports: Ports::Any,
        resolve: vec![
            pin("loop.example.test=127.0.0.1"),
            pin("also.example.test=127.0.0.2"),
            pin("loop6.example.test=::1"),
        ],
        ..PushOptions::default()
    });
    let (id, t) = friend_game(&app, "ringo", json!({"days": 1})).await;
    // Refused by their spelling: 400 at once.
    let mut refused = vec![
        format!("https://localhost:{p4}/x"),
        format!("https://localhost.:{p4}/x"),
        format!("https://loop.example.test.:{p4}/x"),
        format!("https://127.0.0.1:{p4}/x"),
        format!("http://loop.example.test:{p4}/x"),
        format!("https://0x7f000001:{p4}/x"),
    ];
    if let Some((p6, _)) = &v6 {
        refused.push(format!("https://[::1]:{p6}/x"));
        refused.push(format!("https://[::ffff:127.0.0.1]:{p4}/x"));
    }
    for endpoint in &refused {
        let (s, v) = subscribe(&app, endpoint, &id, &t[1]).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (400, Some("bad-subscription")),
            "{endpoint}: {v}"
        );
    }
    // Spelt like public names, resolved to loopback: taken, but never
    // connected to when a move is pushed.
    let mut resolved = vec![
        format!("https://loop.example.test:{p4}/x"),
        format!("https://also.example.test:{p4}/x"),
    ];
    if let Some((p6, _)) = &v6 {
        resolved.push(format!("https://loop6.example.test:{p6}/x"));
    }
    for endpoint in &resolved {
        let (s, v) = subscribe(&app, endpoint, &id, &t[1]).await;
        assert_eq!(s, 201, "{endpoint}: {v}");
    }
    play_first(&app, &id, &t).await;
    play_first(&app, &id, &t).await;
    play_first(&app, &id, &t).await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(hits4.load(Ordering::SeqCst), 0, "nothing reached 127.0.0.1");
    if let Some((_, hits6)) = v6 {
        assert_eq!(hits6.load(Ordering::SeqCst), 0, "nothing reached ::1");
    }
}

#[tokio::test]
async fn a_port_other_than_443_needs_the_operators_allowance() {
    let app = app_with(PushOptions {
        allow_networks: vec!["127.0.0.0/8".parse().unwrap()],
        resolve: vec![pin("push.example.test=127.0.0.1")],
        ..PushOptions::default()
    });
    let (id, t) = friend_game(&app, "ringo", json!({"days": 1})).await;
    for port in [18899, 8443, 80] {
        let endpoint = format!("https://push.example.test:{port}/x");
        let (s, v) = subscribe(&app, &endpoint, &id, &t[1]).await;
        assert_eq!(s, 400, "{endpoint}: {v}");
    }
    let (s, v) = subscribe(&app, "https://push.example.test/x", &id, &t[1]).await;
    assert_eq!(s, 201, "{v}");
}

#[tokio::test]
async fn a_push_service_the_operator_allowed_receives_a_message_that_opens() {
    let (at, mut rx) = common::push_service("/push/ben").await;
    let port = at.rsplit(':').next().unwrap();
    // Its name looks public; the test resolver answers 127.0.0.1, which the
    // operator allowed (only that address).
    let app = app_with(PushOptions {
        insecure_endpoints: true,
        allow_networks: vec!["127.0.0.1/32".parse().unwrap()],
        allow_ports: Ports::Any,
        resolve: vec![pin("push.example.test=127.0.0.1")],
        ..PushOptions::default()
    });
    let (id, t) = friend_game(&app, "ringo", json!({"days": 1})).await;
    let endpoint = format!("http://push.example.test:{port}/push/ben");
    let (s, v) = subscribe(&app, &endpoint, &id, &t[1]).await;
    assert_eq!(s, 201, "{v}");
    play_first(&app, &id, &t).await;
    let message = common::next_push(&mut rx).await;
    assert_eq!(message["title"], "Your turn", "{message}");
    assert_eq!(message["url"], format!("/g/{id}"));
}
