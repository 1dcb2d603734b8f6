//! The HTTP API and the WebSocket as a contract: a session of requests,
//! replayed through the app, every answer compared with the one recorded in
//! `tests/data/recorded-session.jsonl` (ids, secrets and times masked). A
//! rebuild of the server's inside must leave every answer as it was.
//!
//! To record the answers again after a deliberate change of the API:
//! `AGON_RECORD=1 cargo test -p agon-server --test recorded`, then read the
//! diff.

mod common;

use agon_server::store::Store;
use agon_server::{app, AppState};
use axum::body::Body;
use axum::http::{header, Request};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

const RECORD: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/recorded-session.jsonl"
);

/// Keys whose string values are ids or secrets: each distinct value gets a
/// stable name (`<id:1>`), replaced wherever it appears afterwards.
const SECRET_KEYS: &[&str] = &["id", "token", "invite", "invite_token", "code", "rematch"];
/// Keys whose values change from run to run (times, speeds, counters of
/// the machine): masked whole.
const VOLATILE_KEYS: &[&str] = &[
    "created_at",
    "updated_at",
    "next",
    "ms",
    "nps",
    "elapsed_ms",
    "games_in_memory",
    "sockets",
    "store",
    // The build's commit and whether its tree was modified: new each commit.
    "build",
];

#[derive(Default)]
struct Masker {
    names: BTreeMap<String, String>,
}

impl Masker {
    fn learn(&mut self, v: &Value) {
        match v {
            Value::Object(m) => {
                for (k, x) in m {
                    if let (true, Value::String(s)) = (SECRET_KEYS.contains(&k.as_str()), x) {
                        if s.len() >= 6 && !self.names.contains_key(s) {
                            let name = format!("<{k}:{}>", self.names.len() + 1);
                            self.names.insert(s.clone(), name);
                        }
                    }
                    self.learn(x);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| self.learn(x)),
            _ => {}
        }
    }

    fn mask(&self, v: &Value) -> Value {
        match v {
            Value::Object(m) => Value::Object(
                m.iter()
                    .map(|(k, x)| {
                        let masked = if VOLATILE_KEYS.contains(&k.as_str()) && !x.is_null() {
                            Value::String("<volatile>".into())
                        } else {
                            self.mask(x)
                        };
                        (k.clone(), masked)
                    })
                    .collect(),
            ),
            Value::Array(a) => Value::Array(a.iter().map(|x| self.mask(x)).collect()),
            Value::String(s) => {
                let mut s = s.clone();
                // Longest first, so a code inside a URL is named whole.
                let mut known: Vec<_> = self.names.iter().collect();
                known.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
                for (secret, name) in known {
                    s = s.replace(secret.as_str(), name);
                }
                Value::String(s)
            }
            other => other.clone(),
        }
    }

    fn text(&self, s: &str) -> String {
        match self.mask(&Value::String(s.to_string())) {
            Value::String(s) => s,
            _ => unreachable!(),
        }
    }
}

struct Session {
    router: axum::Router,
    masker: Masker,
    lines: Vec<String>,
}

impl Session {
    /// One request; its answer is recorded (masked) and returned (unmasked).
    async fn call(
        &mut self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> Value {
        self.raw(method, uri, token, body.map(|b| b.to_string()), &[])
            .await
    }

    /// One action on game `g` by the holder of `token`.
    async fn act(&mut self, g: &str, token: Option<&str>, action: Value) -> Value {
        self.call(
            "POST",
            &format!("/api/games/{g}/action"),
            token,
            Some(action),
        )
        .await
    }

    /// A socket message, recorded masked.
    fn heard(&mut self, v: &Value) {
        let line = json!({"socket": self.masker.mask(v)});
        self.lines.push(line.to_string());
    }

    async fn raw(
        &mut self,
        method: &str,
        uri: &str,
        token: Option<&str>,
        body: Option<String>,
        headers: &[(&str, &str)],
    ) -> Value {
        let mut req = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::CONTENT_TYPE, "application/json");
        if let Some(t) = token {
            req = req.header("x-agon-token", t);
        }
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        let req = req
            .body(Body::from(body.clone().unwrap_or_default()))
            .unwrap();
        let res = self.router.clone().oneshot(req).await.unwrap();
        let status = res.status().as_u16();
        let cache = res
            .headers()
            .get(header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let retry = res.headers().get(header::RETRY_AFTER).is_some();
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 24)
            .await
            .unwrap();
        let value: Value = serde_json::from_slice(&bytes).unwrap_or_else(|_| {
            // Not JSON (a record, a page): its digest.
            Value::String(format!("sha256:{:x}", Sha256::digest(&bytes)))
        });
        self.masker.learn(&value);
        let mut answer = self.masker.mask(&value);
        // A list's order among games changed in the same second depends on
        // their random ids: compare it as a set.
        if let Some(games) = answer.get_mut("games").and_then(Value::as_array_mut) {
            games.sort_by_key(|g| g["id"].to_string());
        }
        let line = json!({
            "request": format!("{method} {}", self.masker.text(uri)),
            "token": token.map(|t| self.masker.text(t)),
            "body": body.map(|b| self.masker.text(&b)),
            "status": status,
            "cache_control": cache,
            "retry_after": retry,
            "answer": answer,
        });
        self.lines.push(line.to_string());
        value
    }

    /// Waits (unrecorded) until game `id` reaches `revision`.
    async fn until_revision(&self, id: &str, revision: i64) {
        let t = Instant::now();
        loop {
            let (_, v) =
                common::call(&self.router, "GET", &format!("/api/games/{id}"), None, None).await;
            if v["state"]["revision"].as_i64() >= Some(revision) {
                return;
            }
            assert!(t.elapsed() < Duration::from_secs(30), "{id} stuck: {v}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// The next text message of a socket, as JSON.
async fn next_message<S>(ws: &mut tokio_tungstenite::WebSocketStream<S>) -> Value
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("a socket message")
            .unwrap()
            .unwrap();
        if let Message::Text(text) = msg {
            return serde_json::from_str(text.as_str()).unwrap();
        }
    }
}

fn s(v: &Value, k: &str) -> String {
    v[k].as_str()
        .unwrap_or_else(|| panic!("no {k} in {v}"))
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recorded_session_gets_the_same_answers() {
    let state = AppState::new(Store::in_memory().unwrap(), 2, Duration::ZERO);
    let router = app(state);
    let mut t = Session {
        router: router.clone(),
        masker: Masker::default(),
        lines: vec![],
    };
    // The WebSocket needs a real socket: the same app, served.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let served = axum::serve(
        listener,
        router.into_make_service_with_connect_info::<std::net::SocketAddr>(),
    );
    tokio::spawn(async move { served.await });

    t.call("GET", "/api/meta", None, None).await;

    // A Ringo game against the level-1 computer, watched on its socket.
    let g = t
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "ringo", "opponent": "engine", "level": 1, "side": "attackers"})),
        )
        .await;
    let (g1, tok1) = (s(&g, "id"), s(&g, "token"));
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}/api/games/{g1}/ws"))
            .await
            .unwrap();
    ws.send(Message::Text(
        json!({"type": "hello", "token": tok1}).to_string().into(),
    ))
    .await
    .unwrap();
    // The socket's first messages: the state, presence, the answer to hello
    // and the presence it changed.
    let mut got = vec![];
    while got.len() < 4 {
        got.push(next_message(&mut ws).await);
    }
    t.call("GET", &format!("/api/games/{g1}"), Some(&tok1), None)
        .await;
    t.act(&g1, Some(&tok1), json!({"type": "move", "move": "b6-b5"}))
        .await;
    t.until_revision(&g1, 2).await;
    // Then the move and the computer's reply.
    while got.len() < 6 {
        got.push(next_message(&mut ws).await);
    }
    for v in &got {
        t.heard(v);
    }
    t.call("GET", &format!("/api/games/{g1}"), Some(&tok1), None)
        .await;
    t.act(&g1, Some(&tok1), json!({"type": "undo"})).await;
    t.act(&g1, Some(&tok1), json!({"type": "move", "move": "zz"}))
        .await;
    t.act(
        &g1,
        Some(&tok1),
        json!({"type": "move", "move": "b6-b5", "expect_revision": 0}),
    )
    .await;
    t.act(&g1, None, json!({"type": "resign"})).await;
    let link = t
        .call(
            "POST",
            &format!("/api/games/{g1}/seat-link"),
            Some(&tok1),
            Some(json!({})),
        )
        .await;
    let joined = t
        .call(
            "POST",
            &format!("/api/games/{g1}/join"),
            None,
            Some(json!({"invite": s(&link, "code")})),
        )
        .await;
    let tok2 = s(&joined, "token");
    // The old device's socket hears of the undo, the hand-over, and that
    // its seat has moved.
    loop {
        let v = next_message(&mut ws).await;
        let done = v["type"] == "moved";
        t.heard(&v);
        if done {
            break;
        }
    }
    t.call("GET", &format!("/api/games/{g1}"), Some(&tok1), None)
        .await;
    t.act(&g1, Some(&tok2), json!({"type": "resign"})).await;
    t.call("GET", &format!("/api/games/{g1}/record"), None, None)
        .await;
    t.call("GET", &format!("/api/games/{g1}/at/1"), None, None)
        .await;
    t.act(&g1, Some(&tok2), json!({"type": "rematch"})).await;
    drop(ws);

    // A friend game: it waits, the friend joins once, then it begins.
    let f = t
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "ringo", "opponent": "friend", "side": "defenders", "rules": "globe"})),
        )
        .await;
    let (g3, tok3) = (s(&f, "id"), s(&f, "token"));
    t.act(&g3, Some(&tok3), json!({"type": "move", "move": "b1-c1"}))
        .await;
    let j = t
        .call(
            "POST",
            &format!("/api/games/{g3}/join"),
            None,
            Some(json!({"invite": s(&f, "invite")})),
        )
        .await;
    t.call(
        "POST",
        &format!("/api/games/{g3}/join"),
        None,
        Some(json!({"invite": s(&f, "invite")})),
    )
    .await;
    let tok4 = s(&j, "token");
    let moved = t
        .act(&g3, Some(&tok4), json!({"type": "move", "move": "b6-b5"}))
        .await;
    let reply = moved["state"]["moves"][0].as_str().unwrap().to_string();
    t.act(&g3, Some(&tok3), json!({"type": "move", "move": reply}))
        .await;

    // One screen, a smaller board.
    let l = t
        .call(
            "POST",
            "/api/games",
            None,
            Some(json!({"game": "ringo", "opponent": "local", "rules": "classic,rings=5"})),
        )
        .await;
    let (g5, tok5) = (s(&l, "id"), s(&l, "token"));
    let mut state = l["state"].clone();
    for _ in 0..4 {
        let mv = state["moves"][0].as_str().unwrap().to_string();
        state = t
            .act(&g5, Some(&tok5), json!({"type": "move", "move": mv}))
            .await["state"]
            .clone();
    }

    // Urgammon from a fixed record (its dice are in it), with its replay
    // and review.
    let u = t
        .call(
            "POST",
            "/api/import",
            None,
            Some(json!({"game": "urgammon", "record": "urgammon match to=3 draw=replay\nstart:2-3 P-2a r1 P-1b r1 P-1a r3 P-3b r2 2a-4a r2\nresign:light\n"})),
        )
        .await;
    let g6 = s(&u, "id");
    t.call("GET", &format!("/api/games/{g6}/at/3"), None, None)
        .await;
    t.call("GET", &format!("/api/games/{g6}/at/99"), None, None)
        .await;
    t.call("GET", &format!("/api/games/{g6}/record"), None, None)
        .await;
    let started = Instant::now();
    loop {
        let (status, _) = common::call(
            &t.router,
            "GET",
            &format!("/api/games/{g6}/review"),
            None,
            None,
        )
        .await;
        if status == 200 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "no review");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    t.call("GET", &format!("/api/games/{g6}/review"), None, None)
        .await;

    // Imports played on, and a bad one.
    t.call(
        "POST",
        "/api/import",
        None,
        Some(
            json!({"game": "ringo", "record": "classic\nb6-b5", "opponent": "engine", "level": 2}),
        ),
    )
    .await;
    t.call(
        "POST",
        "/api/import",
        None,
        Some(json!({"game": "ringo", "record": "classic\nb6-b5 zz"})),
    )
    .await;
    t.call(
        "POST",
        "/api/import",
        None,
        Some(json!({"game": "urgammon", "record": "start:3-1 zz"})),
    )
    .await;

    // Lists and the engine's views.
    t.call("GET", &format!("/api/games?ids={g1},{g5}"), None, None)
        .await;
    t.call("GET", "/api/games?limit=0", None, None).await;
    t.call(
        "POST",
        "/api/analyze",
        None,
        Some(json!({"game": "ringo", "rules": "classic", "moves": "b6-b5 b1-c1", "depth": 3})),
    )
    .await;
    t.call(
        "POST",
        "/api/analyze",
        None,
        Some(json!({"game": "urgammon", "record": "start:2-3 P-2a r1 P-1b r1", "level": 4})),
    )
    .await;
    t.call(
        "POST",
        "/api/analyze",
        None,
        Some(json!({"game": "ringo", "depth": 13})),
    )
    .await;
    t.call("POST", "/api/rollout", None, Some(json!({"game": "ringo"})))
        .await;

    // Refusals.
    for body in [
        json!({"game": "chess"}),
        json!({"game": "ringo", "level": " 3"}),
        json!({"game": "ringo", "rules": "classic,slide=on,slide=on"}),
        json!({"game": "ringo", "colour": "red"}),
        json!({"game": "urgammon", "to": 0}),
        json!({"game": "urgammon", "stake": "5."}),
        json!({"game": "ringo", "side": "light"}),
        json!({"game": "ringo", "opponent": "robot"}),
    ] {
        t.call("POST", "/api/games", None, Some(body)).await;
    }
    t.raw("POST", "/api/games", None, Some("{nope".into()), &[])
        .await;
    t.raw(
        "POST",
        "/api/games",
        None,
        Some("{}".into()),
        &[("content-type", "text/plain")],
    )
    .await;
    t.raw("GET", "/api/meta", None, None, &[("host", "evil.example")])
        .await;
    t.raw(
        "POST",
        "/api/games",
        None,
        Some(json!({"game": "ringo"}).to_string()),
        &[("origin", "http://evil.example"), ("host", "localhost")],
    )
    .await;
    t.call("GET", "/api/games/nope", None, None).await;
    t.call("GET", "/api/nope", None, None).await;
    t.call("DELETE", "/api/games", None, None).await;
    t.call("GET", &format!("/api/games/{g1}/at/x"), None, None)
        .await;
    t.call(
        "POST",
        &format!("/api/games/{g1}/join"),
        None,
        Some(json!({"code": 1})),
    )
    .await;
    t.call("GET", "/api/balance", None, None).await;

    let got = t.lines.join("\n") + "\n";
    if std::env::var_os("AGON_RECORD").is_some() {
        std::fs::write(RECORD, &got).unwrap();
        return;
    }
    let want =
        std::fs::read_to_string(RECORD).expect("the recorded session (AGON_RECORD=1 makes it)");
    for (i, (w, g)) in want.lines().zip(got.lines()).enumerate() {
        assert_eq!(g, w, "answer {} differs from the recorded one", i + 1);
    }
    assert_eq!(
        got.lines().count(),
        want.lines().count(),
        "as many answers as recorded"
    );
}
