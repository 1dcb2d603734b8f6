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

/// Serves a router on a real socket (for WebSockets); its `host:port`.
pub async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .await
    });
    format!("127.0.0.1:{port}")
}

/// The next text message of a socket, parsed (with `kind`: the next whose
/// `type` it is), within 5 s.
pub async fn next_message<S>(ws: &mut S, kind: Option<&str>) -> Value
where
    S: futures_util::Stream<
            Item = Result<
                tokio_tungstenite::tungstenite::Message,
                tokio_tungstenite::tungstenite::Error,
            >,
        > + Unpin,
{
    use futures_util::StreamExt;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("a message within 5 s")
            .expect("the socket is open")
            .expect("no error");
        if let tokio_tungstenite::tungstenite::Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if kind.is_none_or(|k| v["type"] == k) {
                return v;
            }
        }
    }
}

/// A friend game (the first seat's side chosen, with `extra` fields such
/// as a clock or days), joined through its invite: its id and the two
/// seats' tokens (seat 0's first).
pub async fn friend_game(app: &axum::Router, game: &str, extra: Value) -> (String, [String; 2]) {
    let mut body = json!({"game": game, "opponent": "friend",
        "side": if game == "ringo" {"attackers"} else {"light"}});
    for (k, v) in extra.as_object().into_iter().flatten() {
        body[k] = v.clone();
    }
    let (s, g) = call(app, "POST", "/api/games", None, Some(&body.to_string())).await;
    assert_eq!(s, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let invite = json!({"invite": g["invite"]}).to_string();
    let (s, j) = call(
        app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&invite),
    )
    .await;
    assert_eq!(s, 200, "{j}");
    let tokens = [
        g["token"].as_str().unwrap().to_string(),
        j["token"].as_str().unwrap().to_string(),
    ];
    (id, tokens)
}

/// The store a test runs on: SQLite in memory, or PostgreSQL (a database
/// of the test's own) with `AGON_TEST_STORE=postgres`.
pub async fn test_store(test: &str) -> Store {
    if std::env::var("AGON_TEST_STORE").as_deref() == Ok("postgres") {
        return pg_store(test)
            .await
            .expect("AGON_TEST_STORE=postgres needs AGON_TEST_DATABASE_URL");
    }
    Store::in_memory().unwrap()
}

/// A game's state, as `GET /api/games/{id}` gives it.
pub async fn game_state(app: &axum::Router, id: &str) -> Value {
    let (s, v) = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, 200, "{v}");
    v["state"].clone()
}

/// Plays the side to act's first legal Ringo move; the state after it.
pub async fn play_first(app: &axum::Router, id: &str, tokens: &[String; 2]) -> Value {
    let s = game_state(app, id).await;
    let seat = s["seat_to_act"].as_u64().unwrap() as usize;
    let m = s["moves"][0].as_str().unwrap().to_string();
    let (st, v) = action(app, id, Some(&tokens[seat]), mv(&m)).await;
    assert_eq!(st, 200, "{v}");
    v["state"].clone()
}

/// Two instances on one PostgreSQL database made for `test` (each its own
/// store handle, announcements and clock keeper), with these options, and
/// the database's URL; `None` without a test server.
pub async fn two_instances(
    test: &str,
    options: agon_server::Options,
) -> Option<(AppState, AppState, String)> {
    let admin = pg_admin_url()?;
    let url = pg_database(&admin, test).await;
    let a = AppState::with_options(Store::connect(&url).await.unwrap(), options.clone());
    let b = AppState::with_options(Store::connect(&url).await.unwrap(), options);
    Some((a, b, url))
}

/// [`two_instances`] with the computer answering at once; without a
/// PostgreSQL test server, `None` and a note that the test is skipped.
pub async fn two_quick_instances(test: &str) -> Option<(AppState, AppState, String)> {
    let two = two_instances(
        test,
        agon_server::Options {
            engine_delay: Duration::ZERO,
            ..agon_server::Options::default()
        },
    )
    .await;
    if two.is_none() {
        eprintln!("skipped: no PostgreSQL test server (AGON_TEST_DATABASE_URL)");
    }
    two
}

/// The legal moves the analysis board gives for a position (a lesson's or a
/// puzzle's: Ringo `rules` and `position`, Urgammon `setup` and `record`,
/// read from `spec`), and whether the verdict die may be rolled.
pub async fn analysed_legal(app: &axum::Router, game: &str, spec: &Value) -> (Vec<String>, bool) {
    let body = if game == "ringo" {
        json!({"game": game, "rules": spec["rules"], "position": spec["position"], "moves": spec["moves"], "depth": 1})
    } else {
        json!({"game": game, "setup": spec["setup"], "record": spec["record"], "level": 1})
    };
    let (s, a) = call(app, "POST", "/api/analyze", None, Some(&body.to_string())).await;
    assert_eq!(s, 200, "{body}: {a}");
    let legal = if game == "ringo" {
        a["state"]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect()
    } else {
        a["state"]["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["notation"].as_str().unwrap().to_string())
            .collect()
    };
    (legal, a["state"]["verdict_allowed"] == true)
}

/// Push options for a test's own push service on this machine: plain
/// `http`, any port, and the loopback network allowed (nothing else).
pub fn loopback_push() -> agon_server::push::PushOptions {
    agon_server::push::PushOptions {
        insecure_endpoints: true,
        allow_networks: vec!["127.0.0.0/8".parse().unwrap(), "::1/128".parse().unwrap()],
        allow_ports: agon_server::push::Ports::Any,
        ..agon_server::push::PushOptions::default()
    }
}

/// RFC 8291's example browser keys: its public key (a P-256 point), its
/// secret key and its authentication secret (any browser's would do; these
/// let a test open what was pushed).
pub const BROWSER_P256DH: &str =
    "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4";
/// Its secret key.
pub const BROWSER_SECRET: &str = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94";
/// Its authentication secret.
pub const BROWSER_AUTH: &str = "BTBZMqHH6r4Tts7J_aSIgg";

/// Subscribes `endpoint`, with those keys, to the seat `token` holds in
/// game `id`: the answer's status and body.
pub async fn push_subscribe(
    app: &axum::Router,
    endpoint: &str,
    id: &str,
    token: &str,
) -> (u16, Value) {
    let sub = json!({"subscription": {"endpoint": endpoint, "keys": {"p256dh": BROWSER_P256DH, "auth": BROWSER_AUTH}},
        "games": [{"id": id, "token": token}]});
    let (s, v) = call(
        app,
        "POST",
        "/api/push/subscriptions",
        None,
        Some(&sub.to_string()),
    )
    .await;
    (s.as_u16(), v)
}

/// An account stored directly, with a cheap Argon2id hash of the test
/// password (a sign-up's full hash costs a second each), then signed in:
/// its session cookie.
pub async fn stored_player(state: &AppState, app: &axum::Router, name: &str) -> String {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let params = argon2::Params::new(8, 1, 1, None).unwrap();
    let hash = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params)
        .hash_password(
            b"correct horse battery",
            &SaltString::encode_b64(name.as_bytes().repeat(8).as_slice()).unwrap(),
        )
        .unwrap()
        .to_string();
    state
        .store()
        .create_account(agon_server::store::accounts::NewAccount {
            key: name.to_lowercase(),
            name: name.to_string(),
            password_hash: hash,
            recovery: vec![],
            created_at: 0,
        })
        .await
        .unwrap();
    let body = json!({"name": name, "password": "correct horse battery"}).to_string();
    let req = axum::http::Request::builder()
        .method("POST")
        .uri("/api/account/login")
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body))
        .unwrap();
    let res = app.clone().oneshot(req).await.unwrap();
    assert_eq!(res.status(), 200, "signed in as {name}");
    let cookie = res.headers()["set-cookie"].to_str().unwrap();
    cookie.split(';').next().unwrap().to_string()
}

/// A push service of the test's own on this machine, answering 201 to a
/// `POST` at `path`: its `host:port`, and each body it receives.
pub async fn push_service(path: &str) -> (String, tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Vec<u8>>();
    let service = axum::Router::new().route(
        path,
        axum::routing::post(move |body: axum::body::Bytes| {
            let tx = tx.clone();
            async move {
                let _ = tx.send(body.to_vec());
                StatusCode::CREATED
            }
        }),
    );
    (serve(service).await, rx)
}

/// The next message a [`push_service`] received, within 10 s, opened with
/// the test browser's keys ([`BROWSER_SECRET`], [`BROWSER_AUTH`]).
pub async fn next_push(rx: &mut tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>) -> Value {
    use base64::Engine as _;
    let body = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("a push within 10 s")
        .unwrap();
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let secret = p256::SecretKey::from_slice(&b64.decode(BROWSER_SECRET).unwrap()).unwrap();
    let auth: [u8; 16] = b64.decode(BROWSER_AUTH).unwrap().try_into().unwrap();
    let plain = agon_server::push::open(&body, &secret, &auth).expect("the message opens");
    serde_json::from_slice(&plain).unwrap()
}
