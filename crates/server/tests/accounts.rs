//! Accounts through the HTTP API, with hostile input on every route: names
//! and passwords, cookies (wrong, expired, forged, a seat token, another
//! site's), throttling, recovery codes, deletion, the seats a browser
//! claims, and what the database keeps (no secret in clear, on SQLite and,
//! under `./test.sh`, PostgreSQL).

mod common;

use agon_server::store::Store;
use agon_server::{app, AppState, Options};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderMap, Request, StatusCode};
use common::{create, mv};
use serde_json::{json, Value};
use std::net::SocketAddr;
use tower::ServiceExt;

/// One request with an optional session cookie, seat token and extra
/// headers; the status, the headers and the JSON body.
struct Call<'a> {
    method: &'a str,
    uri: &'a str,
    cookie: Option<&'a str>,
    token: Option<&'a str>,
    body: Option<Value>,
    headers: Vec<(&'a str, &'a str)>,
}

impl<'a> Call<'a> {
    fn new(method: &'a str, uri: &'a str) -> Call<'a> {
        Call {
            method,
            uri,
            cookie: None,
            token: None,
            body: None,
            headers: vec![],
        }
    }
    fn cookie(mut self, c: &'a str) -> Self {
        self.cookie = Some(c);
        self
    }
    fn token(mut self, t: &'a str) -> Self {
        self.token = Some(t);
        self
    }
    fn body(mut self, b: Value) -> Self {
        self.body = Some(b);
        self
    }
    fn header(mut self, k: &'a str, v: &'a str) -> Self {
        self.headers.push((k, v));
        self
    }
    async fn send(self, app: &axum::Router) -> (StatusCode, HeaderMap, Value) {
        let mut req = Request::builder()
            .method(self.method)
            .uri(self.uri)
            .header("content-type", "application/json")
            .header(
                "user-agent",
                "Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0",
            );
        if let Some(c) = self.cookie {
            req = req.header("cookie", format!("agon_session={c}"));
        }
        if let Some(t) = self.token {
            req = req.header("x-agon-token", t);
        }
        for (k, v) in self.headers {
            req = req.header(k, v);
        }
        let body = self.body.map(|b| b.to_string()).unwrap_or_default();
        let mut req = req.body(Body::from(body)).unwrap();
        req.extensions_mut()
            .insert(ConnectInfo("127.0.0.1:9".parse::<SocketAddr>().unwrap()));
        let res = app.clone().oneshot(req).await.unwrap();
        let (status, headers) = (res.status(), res.headers().clone());
        let bytes = axum::body::to_bytes(res.into_body(), 1 << 22)
            .await
            .unwrap();
        let v = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
        (status, headers, v)
    }
}

/// The session id a `Set-Cookie` answer gives.
fn session_of(h: &HeaderMap) -> String {
    let c = h["set-cookie"].to_str().unwrap();
    c.strip_prefix("agon_session=")
        .and_then(|r| r.split(';').next())
        .unwrap()
        .to_string()
}

const PASSWORD: &str = "correct horse battery";

/// `GET /api/account`'s status with this session cookie: 200 while it is
/// live, 401 once it has ended.
async fn account_status(app: &axum::Router, cookie: &str) -> StatusCode {
    Call::new("GET", "/api/account")
        .cookie(cookie)
        .send(app)
        .await
        .0
}

async fn signup(app: &axum::Router, name: &str) -> (String, Vec<String>) {
    let (s, h, v) = Call::new("POST", "/api/account/signup")
        .body(json!({"name": name, "password": PASSWORD}))
        .send(app)
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let codes = v["recovery_codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    (session_of(&h), codes)
}

async fn login(app: &axum::Router, name: &str, password: &str) -> (StatusCode, HeaderMap, Value) {
    Call::new("POST", "/api/account/login")
        .body(json!({"name": name, "password": password}))
        .send(app)
        .await
}

fn fresh_state(store: Store) -> AppState {
    AppState::with_options(
        store,
        Options {
            trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
            engine_delay: std::time::Duration::ZERO,
            ..Options::default()
        },
    )
}

async fn fresh() -> axum::Router {
    app(fresh_state(Store::in_memory().unwrap()))
}

#[tokio::test]
async fn sign_up_gives_codes_and_an_http_only_cookie() {
    let app = fresh().await;
    let (s, h, v) = Call::new("POST", "/api/account/signup")
        .body(json!({"name": "Ala_ma-Kota", "password": PASSWORD}))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["name"], "Ala_ma-Kota");
    let codes = v["recovery_codes"].as_array().unwrap();
    assert_eq!(codes.len(), 10);
    let set = h["set-cookie"].to_str().unwrap();
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(set.contains(flag), "{set}");
    }
    assert!(!set.contains("Secure"), "plain HTTP: no Secure flag: {set}");
    let cookie = session_of(&h);
    assert_eq!(cookie.len(), 64, "256 bits in hex");
    assert!(
        !v.to_string().contains(&cookie),
        "the id is only in the cookie"
    );

    let (s, _, me) = Call::new("GET", "/api/account")
        .cookie(&cookie)
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK, "{me}");
    assert_eq!(me["name"], "Ala_ma-Kota");
    assert_eq!(me["recovery_codes_left"], 10);
    assert_eq!(me["sessions"].as_array().unwrap().len(), 1);
    assert_eq!(me["sessions"][0]["current"], true);
    assert_eq!(me["sessions"][0]["device"], "Firefox on Linux");
    // Her ratings, as her profile shows them: never rated, the start.
    for game in ["ringo", "urgammon"] {
        assert_eq!(
            (
                &me["ratings"][game]["rating"],
                &me["ratings"][game]["provisional"],
                &me["ratings"][game]["games"]
            ),
            (
                &serde_json::json!(1500),
                &serde_json::json!(true),
                &serde_json::json!(0)
            ),
            "{me}"
        );
    }

    let (s, _, v) = Call::new("GET", "/api/account").send(&app).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert_eq!(v["code"], "not-signed-in");

    // Over HTTPS through the trusted proxy, the cookie is Secure.
    let (_, h, _) = Call::new("POST", "/api/account/signup")
        .body(json!({"name": "ola", "password": PASSWORD}))
        .header("x-forwarded-proto", "https")
        .send(&app)
        .await;
    assert!(h["set-cookie"].to_str().unwrap().ends_with("; Secure"));
}

#[tokio::test]
async fn hostile_names_and_passwords_are_refused() {
    let app = fresh().await;
    signup(&app, "Ala").await;
    let long = "x".repeat(10_000);
    let cases: Vec<(Value, StatusCode, &str)> = vec![
        (
            json!({"name": "ALA", "password": PASSWORD}),
            StatusCode::CONFLICT,
            "name-taken",
        ),
        (
            json!({"name": "a", "password": PASSWORD}),
            StatusCode::BAD_REQUEST,
            "bad-name",
        ),
        (
            json!({"name": "x".repeat(21), "password": PASSWORD}),
            StatusCode::BAD_REQUEST,
            "bad-name",
        ),
        (
            json!({"name": long, "password": PASSWORD}),
            StatusCode::BAD_REQUEST,
            "bad-json",
        ),
        // A Cyrillic "а": a confusable of "Ala" is not a name at all.
        (
            json!({"name": "\u{430}la", "password": PASSWORD}),
            StatusCode::BAD_REQUEST,
            "bad-name",
        ),
        (
            json!({"name": "Żółw", "password": PASSWORD}),
            StatusCode::BAD_REQUEST,
            "bad-name",
        ),
        (
            json!({"name": "x';DROP TABLE accounts;--", "password": PASSWORD}),
            StatusCode::BAD_REQUEST,
            "bad-name",
        ),
        (
            json!({"name": "a\u{0}b", "password": PASSWORD}),
            StatusCode::BAD_REQUEST,
            "bad-name",
        ),
        (
            json!({"name": "Admin", "password": PASSWORD}),
            StatusCode::BAD_REQUEST,
            "bad-name",
        ),
        (
            json!({"name": "ola", "password": "short"}),
            StatusCode::BAD_REQUEST,
            "weak-password",
        ),
        (
            json!({"name": "ola", "password": "password123"}),
            StatusCode::BAD_REQUEST,
            "weak-password",
        ),
        (
            json!({"name": "ola", "password": "Iloveyou1"}),
            StatusCode::BAD_REQUEST,
            "weak-password",
        ),
        (
            json!({"name": "olaolaola", "password": "OLAOLAOLA"}),
            StatusCode::BAD_REQUEST,
            "weak-password",
        ),
        (
            json!({"name": "ola", "password": "x".repeat(300)}),
            StatusCode::BAD_REQUEST,
            "weak-password",
        ),
        (
            json!({"name": "ola", "password": PASSWORD, "admin": true}),
            StatusCode::BAD_REQUEST,
            "bad-json",
        ),
        (
            json!({"name": 5, "password": PASSWORD}),
            StatusCode::BAD_REQUEST,
            "bad-json",
        ),
        (
            json!({"password": PASSWORD}),
            StatusCode::BAD_REQUEST,
            "bad-json",
        ),
    ];
    for (body, status, code) in cases {
        let (s, h, v) = Call::new("POST", "/api/account/signup")
            .body(body.clone())
            .send(&app)
            .await;
        assert_eq!(
            (s, v["code"].as_str().unwrap_or("")),
            (status, code),
            "{body}: {v}"
        );
        assert!(h.get("set-cookie").is_none());
    }
    // The table survived the metacharacters, and the first Ala still signs in.
    assert_eq!(login(&app, "ala", PASSWORD).await.0, StatusCode::OK);
}

async fn login_from(
    app: &axum::Router,
    name: &str,
    password: &str,
    address: &str,
) -> (StatusCode, HeaderMap, Value) {
    Call::new("POST", "/api/account/login")
        .body(json!({"name": name, "password": password}))
        .header("x-forwarded-for", address)
        .send(app)
        .await
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_name_look_the_same_and_are_throttled() {
    let app = fresh().await;
    signup(&app, "ala").await;
    signup(&app, "ola").await;
    let (s1, _, wrong) = login_from(&app, "ala", "wrong password!", "10.0.0.1").await;
    let (s2, _, unknown) = login_from(&app, "nobody-here", "wrong password!", "10.0.0.2").await;
    let (s3, _, bad) = login_from(&app, "bad name ☃", "wrong password!", "10.0.0.3").await;
    assert_eq!(s1, StatusCode::UNAUTHORIZED);
    assert_eq!((s1, &wrong), (s2, &unknown));
    assert_eq!((s1, &wrong), (s3, &bad));
    assert_eq!(wrong["code"], "bad-credentials");
    // Ten failures for one name, from ten addresses: the name is closed,
    // even to the right password, with a Retry-After.
    for i in 2..=10 {
        let (s, _, _) = login_from(&app, "ala", "wrong password!", &format!("10.0.1.{i}")).await;
        assert_eq!(
            s,
            StatusCode::UNAUTHORIZED,
            "failure {i} is counted, not refused"
        );
    }
    let (s, h, v) = login_from(&app, "ALA", PASSWORD, "10.0.2.1").await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert_eq!(v["code"], "sign-in-throttled");
    let wait: u64 = h["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((800..=900).contains(&wait), "{wait}");
    // Ten failures from one address, over ten names: that address is
    // closed, to ola's right password too; other addresses are not.
    for i in 0..10 {
        let (s, _, _) = login_from(&app, &format!("guess{i}"), "wrong password!", "10.9.9.9").await;
        assert_eq!(s, StatusCode::UNAUTHORIZED);
    }
    let (s, h, _) = login_from(&app, "ola", PASSWORD, "10.9.9.9").await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    assert!(h.get("retry-after").is_some());
    assert_eq!(
        login_from(&app, "ola", PASSWORD, "10.8.8.8").await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn wrong_forged_expired_and_foreign_cookies_sign_nobody_in() {
    let dir = std::env::temp_dir().join(format!("agon-accounts-cookies-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let app = app(fresh_state(Store::open(&dir).unwrap()));
    let (cookie, _) = signup(&app, "ala").await;
    let g = create(&app, json!({"game": "ringo", "opponent": "local"})).await;
    let seat_token = g["token"].as_str().unwrap();
    let forged = "f".repeat(64);
    let hostile = [
        "",
        "nonsense",
        forged.as_str(),
        seat_token,
        &cookie[..63],
        "' OR 1=1 --",
        "😀😀😀😀",
    ];
    for c in hostile {
        let (s, _, v) = Call::new("GET", "/api/account").cookie(c).send(&app).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "{c:?}: {v}");
    }
    // Another site's page cannot act with the cookie.
    let (s, _, _) = Call::new("POST", "/api/account/logout-all")
        .cookie(&cookie)
        .header("origin", "https://evil.example")
        .header("host", "localhost")
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    let (s, _, _) = Call::new("GET", "/api/account")
        .cookie(&cookie)
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK, "the session lives on");
    // A session idle for more than 30 days has ended.
    let db = rusqlite::Connection::open(dir.join("agon.db")).unwrap();
    db.execute(
        "UPDATE account_sessions SET last_seen = last_seen - 31 * 86400",
        [],
    )
    .unwrap();
    let (s, _, _) = Call::new("GET", "/api/account")
        .cookie(&cookie)
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let left: i64 = db
        .query_row("SELECT COUNT(*) FROM account_sessions", [], |r| r.get(0))
        .unwrap();
    assert_eq!(left, 0, "the expired session is gone");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn signing_out_here_everywhere_and_by_password_change() {
    let app = fresh().await;
    let (a, _) = signup(&app, "ala").await;
    let (_, h, _) = login(&app, "ala", PASSWORD).await;
    let b = session_of(&h);
    let (_, h, _) = login(&app, "ala", PASSWORD).await;
    let c = session_of(&h);
    assert_ne!(a, b, "a fresh id at every sign-in");
    let (_, _, me) = Call::new("GET", "/api/account").cookie(&a).send(&app).await;
    assert_eq!(me["sessions"].as_array().unwrap().len(), 3);

    // Sign out here: that cookie is dead, the others live.
    let (s, h, _) = Call::new("POST", "/api/account/logout")
        .cookie(&a)
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(h["set-cookie"].to_str().unwrap().contains("Max-Age=0"));
    assert_eq!(account_status(&app, &a).await, StatusCode::UNAUTHORIZED);
    assert_eq!(account_status(&app, &b).await, StatusCode::OK);

    // End one other session from the list.
    let (_, _, me) = Call::new("GET", "/api/account").cookie(&b).send(&app).await;
    let other = me["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["current"] == false)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let uri = format!("/api/account/sessions/{other}");
    assert_eq!(
        Call::new("DELETE", &uri).cookie(&b).send(&app).await.0,
        StatusCode::OK
    );
    assert_eq!(
        Call::new("DELETE", &uri).cookie(&b).send(&app).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        Call::new("DELETE", "/api/account/sessions/..%2F..")
            .cookie(&b)
            .send(&app)
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(account_status(&app, &c).await, StatusCode::UNAUTHORIZED);

    // A password change keeps this session and ends the others.
    let (_, h, _) = login(&app, "ala", PASSWORD).await;
    let d = session_of(&h);
    let (s, _, v) = Call::new("POST", "/api/account/password")
        .cookie(&b)
        .body(json!({"current": "not it at all", "password": "a new long secret"}))
        .send(&app)
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad-credentials"))
    );
    let (s, _, v) = Call::new("POST", "/api/account/password")
        .cookie(&b)
        .body(json!({"current": PASSWORD, "password": "password1"}))
        .send(&app)
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("weak-password"))
    );
    let (s, _, v) = Call::new("POST", "/api/account/password")
        .cookie(&b)
        .body(json!({"current": PASSWORD, "password": "a new long secret"}))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(account_status(&app, &b).await, StatusCode::OK);
    assert_eq!(account_status(&app, &d).await, StatusCode::UNAUTHORIZED);
    assert_eq!(
        login(&app, "ala", PASSWORD).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        login(&app, "ala", "a new long secret").await.0,
        StatusCode::OK
    );

    // Sign out everywhere.
    let (s, _, v) = Call::new("POST", "/api/account/logout-all")
        .cookie(&b)
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["ended"], 2);
    assert_eq!(account_status(&app, &b).await, StatusCode::UNAUTHORIZED);
    // Every route that needs a session says so.
    for (m, uri) in [
        ("POST", "/api/account/logout-all"),
        ("POST", "/api/account/password"),
        ("POST", "/api/account/recovery-codes"),
        ("DELETE", "/api/account"),
        ("GET", "/api/account/export"),
        ("PUT", "/api/account/settings"),
        ("POST", "/api/account/claim"),
    ] {
        let (s, _, v) = Call::new(m, uri)
            .cookie(&b)
            .body(json!({}))
            .send(&app)
            .await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "{m} {uri}: {v}");
    }
}

#[tokio::test]
async fn a_recovery_code_resets_the_password_once() {
    let app = fresh().await;
    let (old, codes) = signup(&app, "ala").await;
    let recover = |code: &str, name: &str| {
        Call::new("POST", "/api/account/recover")
            .body(json!({"name": name, "code": code, "password": "brand new secret"}))
    };
    let (s, _, v) = recover("aaaa-bbbb-cccc", "ala").send(&app).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad-credentials"))
    );
    let (s, _, v) = recover(&codes[3], "nobody").send(&app).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad-credentials"))
    );
    // Written loosely (upper case, spaces for dashes), the code still works.
    let loose = codes[3].to_uppercase().replace('-', " ");
    let (s, h, v) = recover(&loose, "ALA").send(&app).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let new = session_of(&h);
    assert_eq!(account_status(&app, &new).await, StatusCode::OK);
    assert_eq!(account_status(&app, &old).await, StatusCode::UNAUTHORIZED);
    let (s, _, v) = recover(&codes[3], "ala").send(&app).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "a code works once");
    // The same answer as for a name that does not exist (nobody learns
    // which do), in words about a code, not a password.
    assert_eq!(v["code"], "bad-credentials");
    assert_eq!(
        v["error"],
        "wrong name or recovery code (each code works once)"
    );
    assert_eq!(
        login(&app, "ala", "brand new secret").await.0,
        StatusCode::OK
    );
    let (_, _, me) = Call::new("GET", "/api/account")
        .cookie(&new)
        .send(&app)
        .await;
    assert_eq!(me["recovery_codes_left"], 9);
    // A new set replaces the old.
    let (s, _, v) = Call::new("POST", "/api/account/recovery-codes")
        .cookie(&new)
        .body(json!({"password": "brand new secret"}))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["recovery_codes"].as_array().unwrap().len(), 10);
    let (s, _, _) = recover(&codes[4], "ala").send(&app).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED, "the old set is void");
    let fresh_code = v["recovery_codes"][0].as_str().unwrap();
    assert_eq!(
        recover(fresh_code, "ala").send(&app).await.0,
        StatusCode::OK
    );
}

#[tokio::test]
async fn signing_in_claims_this_browsers_seats_which_then_follow_the_account() {
    let app = fresh().await;
    let g = create(
        &app,
        json!({"game": "ringo", "opponent": "friend", "side": "attackers"}),
    )
    .await;
    let (id, token) = (g["id"].as_str().unwrap(), g["token"].as_str().unwrap());
    let other = create(
        &app,
        json!({"game": "ringo", "opponent": "engine", "level": 1}),
    )
    .await;
    let (s, h, v) = Call::new("POST", "/api/account/signup")
        .body(json!({"name": "ala", "password": PASSWORD, "seats": [
            {"game": id, "token": token},
            {"game": other["id"], "token": "not-its-token"},
            {"game": "no-such-game", "token": token},
            {"game": "../../etc", "token": token},
        ]}))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["claimed"], json!([{"game": id, "seats": [0]}]));
    let cookie = session_of(&h);
    // On another device (no token, only the cookie): her seat and her name.
    let (_, _, game) = Call::new("GET", &format!("/api/games/{id}"))
        .cookie(&cookie)
        .send(&app)
        .await;
    assert_eq!(game["you"], json!([0]));
    assert_eq!(
        game["state"]["players"][0],
        json!({"kind": "account", "name": "ala"})
    );
    assert_eq!(game["state"]["players"][1], json!({"kind": "open"}));
    let (_, _, list) = Call::new("GET", "/api/games?mine=1")
        .cookie(&cookie)
        .send(&app)
        .await;
    let ids: Vec<&str> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [id]);
    assert_eq!(list["games"][0]["you"], json!([0]));
    let (s, _, v) = Call::new("GET", "/api/games?mine=yes").send(&app).await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad-query"))
    );
    let (_, _, anon) = Call::new("GET", "/api/games?mine=1").send(&app).await;
    assert_eq!(anon["games"], json!([]));

    // Her friend joins signed in: his seat is his account's.
    let (_, h, _) = Call::new("POST", "/api/account/signup")
        .body(json!({"name": "olek", "password": PASSWORD}))
        .send(&app)
        .await;
    let olek = session_of(&h);
    let (s, _, joined) = Call::new("POST", &format!("/api/games/{id}/join"))
        .cookie(&olek)
        .body(json!({"invite": g["invite"]}))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK, "{joined}");
    // She moves with the cookie alone; he cannot move her pieces with his.
    let (s, _, v) = Call::new("POST", &format!("/api/games/{id}/action"))
        .cookie(&olek)
        .body(mv("a1-b1"))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::CONFLICT, "not his turn: {v}");
    let (_, _, st) = Call::new("GET", &format!("/api/games/{id}"))
        .send(&app)
        .await;
    let first = st["state"]["moves"][0].as_str().unwrap().to_string();
    let (s, _, v) = Call::new("POST", &format!("/api/games/{id}/action"))
        .cookie(&cookie)
        .body(mv(&first))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["you"], json!([0]));
    assert_eq!(
        v["state"]["players"][1],
        json!({"kind": "account", "name": "olek"})
    );
    // A claim with someone else's cookie takes nothing already held.
    let (_, _, v) = Call::new("POST", "/api/account/claim")
        .cookie(&olek)
        .body(json!({"seats": [{"game": id, "token": token}]}))
        .send(&app)
        .await;
    assert_eq!(v["claimed"], json!([]), "{v}");
    // A seat token keeps working beside a cookie (API clients, old tabs).
    let (_, _, both) = Call::new("GET", &format!("/api/games/{id}"))
        .cookie(&olek)
        .token(token)
        .send(&app)
        .await;
    assert_eq!(both["you"], json!([0, 1]));
    let too_many: Vec<Value> = (0..501)
        .map(|_| json!({"game": id, "token": token}))
        .collect();
    let (s, _, _) = Call::new("POST", "/api/account/claim")
        .cookie(&olek)
        .body(json!({ "seats": too_many }))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_deleted_account_leaves_its_games_under_deleted_player() {
    let app = fresh().await;
    let (cookie, _) = signup(&app, "ala").await;
    let (_, _, g) = Call::new("POST", "/api/games")
        .cookie(&cookie)
        .body(json!({"game": "ringo", "opponent": "engine", "level": 1, "side": "attackers"}))
        .send(&app)
        .await;
    let id = g["id"].as_str().unwrap();
    assert_eq!(
        g["state"]["players"][0],
        json!({"kind": "account", "name": "ala"})
    );
    assert_eq!(
        g["state"]["players"][1],
        json!({"kind": "computer", "level": 1})
    );
    let (s, h, data) = Call::new("GET", "/api/account/export")
        .cookie(&cookie)
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(h["content-disposition"]
        .to_str()
        .unwrap()
        .contains("agon-ala.json"));
    assert_eq!(data["account"]["name"], "ala");
    assert_eq!(data["games"][0]["id"], id);
    assert_eq!(data["games"][0]["seats"], json!([0]));
    assert!(
        !data.to_string().contains("argon2"),
        "no hash in the download"
    );

    let (s, _, v) = Call::new("DELETE", "/api/account")
        .cookie(&cookie)
        .body(json!({"password": "not the password"}))
        .send(&app)
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad-credentials"))
    );
    let (s, _, _) = Call::new("DELETE", "/api/account")
        .cookie(&cookie)
        .body(json!({"password": PASSWORD}))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        account_status(&app, &cookie).await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        login(&app, "ala", PASSWORD).await.0,
        StatusCode::UNAUTHORIZED
    );
    let (_, _, game) = Call::new("GET", &format!("/api/games/{id}"))
        .send(&app)
        .await;
    assert_eq!(game["state"]["players"][0], json!({"kind": "deleted"}));
    // The name is free again.
    signup(&app, "Ala").await;
}

#[tokio::test]
async fn settings_follow_the_account_and_are_checked() {
    let app = fresh().await;
    let (cookie, _) = signup(&app, "ala").await;
    for bad in [
        json!({"lang": "de"}),
        json!({"lang": "<script>"}),
        json!({"theme": "dark"}),
        json!({"sound": "loud"}),
        json!([1, 2]),
    ] {
        let (s, _, v) = Call::new("PUT", "/api/account/settings")
            .cookie(&cookie)
            .body(bad.clone())
            .send(&app)
            .await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
    let (s, _, _) = Call::new("PUT", "/api/account/settings")
        .cookie(&cookie)
        .body(json!({"lang": "pl", "sound": false, "flip": true}))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK);
    let (_, _, me) = Call::new("GET", "/api/account")
        .cookie(&cookie)
        .send(&app)
        .await;
    assert_eq!(
        me["settings"],
        json!({"lang": "pl", "sound": false, "flip": true})
    );
}

/// Every secret an account has: what must never be found in the database.
async fn secrets_of_an_account(app: &axum::Router) -> Vec<String> {
    let (cookie, codes) = signup(app, "ala").await;
    let (_, h, _) = login(app, "ala", PASSWORD).await;
    let mut secrets = vec![PASSWORD.to_string(), cookie, session_of(&h)];
    secrets.extend(codes.iter().map(|c| c.replace('-', "")));
    secrets.extend(codes);
    secrets
}

/// A password hashed with the earlier setting (19 MiB, 2 passes) still
/// signs in, and is hashed again with today's (7 MiB, 5 passes) then; a
/// wrong password changes nothing.
#[tokio::test]
async fn a_hash_of_the_earlier_setting_signs_in_and_is_made_again() {
    use argon2::password_hash::{PasswordHasher, SaltString};
    let dir = std::env::temp_dir().join(format!("agon-accounts-rehash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let app = app(fresh_state(Store::open(&dir).unwrap()));
    signup(&app, "ala").await;
    let old = argon2::Argon2::new(
        argon2::Algorithm::Argon2id,
        argon2::Version::V0x13,
        argon2::Params::new(19 * 1024, 2, 1, None).unwrap(),
    )
    .hash_password(
        PASSWORD.as_bytes(),
        &SaltString::encode_b64(&[3; 16]).unwrap(),
    )
    .unwrap()
    .to_string();
    let db = rusqlite::Connection::open(dir.join("agon.db")).unwrap();
    db.execute("UPDATE accounts SET password_hash = ?1", [&old])
        .unwrap();
    let stored = || -> String {
        db.query_row("SELECT password_hash FROM accounts", [], |r| r.get(0))
            .unwrap()
    };
    let (s, _, _) = login(&app, "ala", "wrong horse battery").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert_eq!(stored(), old, "a wrong password changes nothing");
    let (s, _, v) = login(&app, "ala", PASSWORD).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let new = stored();
    assert!(new.starts_with("$argon2id$v=19$m=7168,t=5,p=1$"), "{new}");
    let (s, _, v) = login(&app, "ala", PASSWORD).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(stored(), new, "made again once");
    drop(db);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_sqlite_file_keeps_no_secret_in_clear() {
    let dir = std::env::temp_dir().join(format!("agon-accounts-secrets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let app = app(fresh_state(Store::open(&dir).unwrap()));
    let secrets = secrets_of_an_account(&app).await;
    let db = rusqlite::Connection::open(dir.join("agon.db")).unwrap();
    let hash: String = db
        .query_row("SELECT password_hash FROM accounts", [], |r| r.get(0))
        .unwrap();
    assert!(hash.starts_with("$argon2id$v=19$m=7168,t=5,p=1$"), "{hash}");
    let mut text = String::new();
    for table in ["accounts", "account_sessions", "recovery_codes"] {
        let mut stmt = db.prepare(&format!("SELECT * FROM {table}")).unwrap();
        let n = stmt.column_count();
        let rows = stmt
            .query_map([], |r| {
                Ok((0..n)
                    .map(|i| match r.get_ref(i).unwrap() {
                        rusqlite::types::ValueRef::Text(t) => {
                            String::from_utf8_lossy(t).into_owned()
                        }
                        v => format!("{v:?}"),
                    })
                    .collect::<Vec<_>>()
                    .join("|"))
            })
            .unwrap();
        for r in rows {
            text.push_str(&r.unwrap());
            text.push('\n');
        }
    }
    drop(db);
    let raw = String::from_utf8_lossy(&std::fs::read(dir.join("agon.db")).unwrap()).into_owned();
    for s in &secrets {
        assert!(!text.contains(s.as_str()), "a secret in clear in a table");
        assert!(!raw.contains(s.as_str()), "a secret in clear in the file");
    }
    assert_eq!(text.matches("ala").count(), 2, "the name and its key only");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_postgres_database_keeps_no_secret_in_clear() {
    let Some(admin) = common::pg_admin_url() else {
        eprintln!("skipped: AGON_TEST_DATABASE_URL is not set");
        return;
    };
    let url = common::pg_database(&admin, "accounts_secrets").await;
    let store = Store::connect(&url).await.unwrap();
    let app = app(fresh_state(store));
    let secrets = secrets_of_an_account(&app).await;
    let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    let mut text = String::new();
    for table in ["accounts", "account_sessions", "recovery_codes"] {
        for row in client
            .query(&format!("SELECT row_to_json(t)::text FROM {table} t"), &[])
            .await
            .unwrap()
        {
            text.push_str(row.get::<_, &str>(0));
            text.push('\n');
        }
    }
    assert!(text.contains("$argon2id$v=19$m=7168,t=5,p=1$"), "{text}");
    for s in &secrets {
        assert!(!text.contains(s.as_str()), "a secret in clear");
    }
    // A session made here is known to a second instance on the same
    // database, and signing out through one ends it for both.
    let other = app_on(&url).await;
    let (_, h, _) = login(&app, "ala", PASSWORD).await;
    let cookie = session_of(&h);
    assert_eq!(account_status(&other, &cookie).await, StatusCode::OK);
    Call::new("POST", "/api/account/logout")
        .cookie(&cookie)
        .send(&other)
        .await;
    assert_eq!(
        account_status(&app, &cookie).await,
        StatusCode::UNAUTHORIZED
    );
}

async fn app_on(url: &str) -> axum::Router {
    app(fresh_state(Store::connect(url).await.unwrap()))
}

#[tokio::test]
async fn passkey_routes_refuse_hostile_input() {
    let app = fresh().await;
    let (cookie, _) = signup(&app, "ala").await;
    // Adding one needs a session, and a site with a name.
    let (s, _, v) = Call::new("POST", "/api/account/passkeys/options")
        .header("host", "localhost:8080")
        .body(json!({}))
        .send(&app)
        .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("not-signed-in"))
    );
    for host in ["127.0.0.1:8080", "[::1]:8080", "10.1.2.3"] {
        let (s, _, v) = Call::new("POST", "/api/account/passkey-login/options")
            .header("host", host)
            .body(json!({}))
            .send(&app)
            .await;
        assert_eq!(
            (s, v["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("passkey-needs-name")),
            "{host}"
        );
    }
    let (s, _, v) = Call::new("POST", "/api/account/passkeys/options")
        .cookie(&cookie)
        .header("host", "localhost:8080")
        .body(json!({}))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["rp"]["id"], "localhost");
    assert_eq!(v["user"]["name"], "ala");
    assert_eq!(v["authenticatorSelection"]["userVerification"], "required");
    // Answers that are not WebAuthn's, or for no ceremony of ours.
    for body in [
        json!({}),
        json!("x"),
        json!({"id": "AA", "rawId": "AA", "type": "public-key", "response": {}}),
    ] {
        let (s, _, v) = Call::new("POST", "/api/account/passkeys")
            .cookie(&cookie)
            .header("host", "localhost:8080")
            .body(body.clone())
            .send(&app)
            .await;
        assert_eq!(
            (s, v["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("passkey-refused")),
            "{body}"
        );
        let (s, h, v) = Call::new("POST", "/api/account/passkey-login")
            .header("host", "localhost:8080")
            .body(body.clone())
            .send(&app)
            .await;
        assert_eq!(
            (s, v["code"].as_str()),
            (StatusCode::UNAUTHORIZED, Some("bad-credentials")),
            "{body}"
        );
        assert!(h.get("set-cookie").is_none());
    }
    for id in ["zz", "00", &"a".repeat(3000)] {
        let (s, _, v) = Call::new("DELETE", &format!("/api/account/passkeys/{id}"))
            .cookie(&cookie)
            .send(&app)
            .await;
        assert_eq!(
            (s, v["code"].as_str()),
            (StatusCode::NOT_FOUND, Some("passkey-not-found"))
        );
    }
    let (_, _, me) = Call::new("GET", "/api/account")
        .cookie(&cookie)
        .send(&app)
        .await;
    assert_eq!(me["passkeys"], json!([]));
}

/// The device cookie an answer sets, if it sets one.
fn device_of(h: &HeaderMap) -> Option<String> {
    h.get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|c| c.strip_prefix("agon_device="))
        .and_then(|r| r.split(';').next())
        .map(str::to_string)
}

#[tokio::test]
async fn nobody_shuts_an_owner_out_of_her_own_browser() {
    let app = fresh().await;
    let (s, h, _) = Call::new("POST", "/api/account/signup")
        .body(json!({"name": "ala", "password": PASSWORD}))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let device = device_of(&h).expect("a device cookie at sign-up");
    assert!(h
        .get_all("set-cookie")
        .iter()
        .all(|c| c.to_str().unwrap().contains("HttpOnly")));
    // Someone fails ten times on her name from ten addresses: the name is
    // closed to every other browser...
    for i in 0..10 {
        login_from(&app, "ala", "wrong password!", &format!("10.3.0.{i}")).await;
    }
    let (s, _, _) = login_from(&app, "ala", PASSWORD, "10.4.0.1").await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    // ...but not to the browser she signed up with.
    let (s, h, v) = Call::new("POST", "/api/account/login")
        .body(json!({"name": "ala", "password": PASSWORD}))
        .header("x-forwarded-for", "10.4.0.1")
        .header("cookie", &format!("agon_device={device}"))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        device_of(&h),
        None,
        "a known browser keeps its device cookie"
    );
    // A forged device cookie is no key.
    let (s, _, _) = Call::new("POST", "/api/account/login")
        .body(json!({"name": "ala", "password": PASSWORD}))
        .header("x-forwarded-for", "10.4.0.2")
        .header("cookie", &format!("agon_device={}", "e".repeat(64)))
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS);
    // Wrong recovery codes count against the address only: they never
    // close the name (60 random bits are not guessed).
    signup(&app, "ola").await;
    for i in 0..12 {
        Call::new("POST", "/api/account/recover")
            .body(json!({"name": "ola", "code": "aaaa-bbbb-cccc", "password": "brand new secret"}))
            .header("x-forwarded-for", "10.5.0.1")
            .send(&app)
            .await;
        let _ = i;
    }
    let (s, _, _) = Call::new("POST", "/api/account/recover")
        .body(json!({"name": "ola", "code": "aaaa-bbbb-cccc", "password": "brand new secret"}))
        .header("x-forwarded-for", "10.5.0.1")
        .send(&app)
        .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "that address is closed");
    assert_eq!(
        login_from(&app, "ola", PASSWORD, "10.6.0.1").await.0,
        StatusCode::OK,
        "the name is not"
    );
}
