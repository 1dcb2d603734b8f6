//! The server against hostile or careless clients: CSRF, one error shape,
//! headers, secrets at rest, the import limit.

mod common;

use agon_server::store::Store;
use agon_server::{app, AppState, Options, MAX_IMPORT, MAX_TOKENS};
use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::*;
use serde_json::{json, Value};
use tower::ServiceExt;

fn fresh() -> axum::Router {
    app(state_on(Store::in_memory().unwrap()))
}

/// Sends a request built by hand; returns the status, the headers and the body.
async fn raw(
    app: &axum::Router,
    req: Request<Body>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 22)
        .await
        .unwrap();
    (status, headers, String::from_utf8_lossy(&bytes).into())
}

fn post(uri: &str, content_type: Option<&str>, body: &str) -> axum::http::request::Builder {
    let mut b = Request::builder()
        .method("POST")
        .uri(uri)
        .header(header::HOST, "agon.localhost");
    if let Some(ct) = content_type {
        b = b.header(header::CONTENT_TYPE, ct);
    }
    let _ = body;
    b
}

#[tokio::test]
async fn the_api_takes_json_bodies_only() {
    let app = fresh();
    let body = r#"{"game": "ringo", "opponent": "local"}"#;
    for ct in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data; boundary=x"),
        None,
    ] {
        let req = post("/api/games", ct, body).body(Body::from(body)).unwrap();
        let (status, _, text) = raw(&app, req).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{ct:?}: {text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        assert!(
            v["error"].as_str().unwrap().contains("application/json"),
            "{v}"
        );
    }
    // Every route that reads a body: PUT and a DELETE with one too (the
    // settings answered 200 to text/plain and forms).
    let token = signup(&app, "ola").await;
    for (method, uri, body) in [
        ("PUT", "/api/account/settings", r#"{"lang": "fr"}"#),
        ("PATCH", "/api/account/settings", r#"{"lang": "fr"}"#),
        (
            "DELETE",
            "/api/push/subscriptions",
            r#"{"endpoint": "https://push.example.com/x"}"#,
        ),
        ("DELETE", "/api/account", r#"{"password": "x"}"#),
    ] {
        for ct in [
            Some("text/plain"),
            Some("application/x-www-form-urlencoded"),
            None,
        ] {
            let mut b = Request::builder()
                .method(method)
                .uri(uri)
                .header(header::HOST, "agon.localhost")
                .header(header::COOKIE, &token);
            if let Some(ct) = ct {
                b = b.header(header::CONTENT_TYPE, ct);
            }
            let (status, _, text) = raw(&app, b.body(Body::from(body)).unwrap()).await;
            assert_eq!(
                status,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "{method} {uri} {ct:?}: {text}"
            );
        }
    }
    let (_, account) = as_account(&app, &token, "GET", "/api/account", None).await;
    assert_ne!(account["settings"]["lang"], "fr", "{account}");
    // A DELETE with no body needs no type.
    let req = Request::builder()
        .method("DELETE")
        .uri("/api/seeks/nope")
        .header(header::HOST, "agon.localhost")
        .body(Body::empty())
        .unwrap();
    assert_ne!(raw(&app, req).await.0, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let req = post("/api/games", Some("application/json; charset=utf-8"), body)
        .body(Body::from(body))
        .unwrap();
    assert_eq!(raw(&app, req).await.0, StatusCode::CREATED);
    let (_, list) = call(&app, "GET", "/api/games", None, None).await;
    assert_eq!(
        list["games"].as_array().unwrap().len(),
        1,
        "only the JSON request created a game"
    );
}

#[tokio::test]
async fn other_sites_cannot_change_state_or_open_sockets() {
    let app = fresh();
    let body = r#"{"game": "ringo", "opponent": "local"}"#;
    let from = |origin: &str| {
        post("/api/games", Some("application/json"), body)
            .header(header::ORIGIN, origin)
            .body(Body::from(body))
            .unwrap()
    };
    let (status, _, text) = raw(&app, from("http://evil.example")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{text}");
    assert!(text.contains("another site"), "{text}");
    assert_eq!(
        raw(&app, from("http://agon.localhost")).await.0,
        StatusCode::CREATED,
        "same origin"
    );
    let (g, id, _) = start(&app, json!({"game": "ringo", "opponent": "local"})).await;
    let _ = g;
    let upgrade = |origin: &str| {
        Request::builder()
            .uri(format!("/api/games/{id}/ws"))
            .header(header::HOST, "agon.localhost")
            .header(header::ORIGIN, origin)
            .header(header::CONNECTION, "upgrade")
            .header(header::UPGRADE, "websocket")
            .header(header::SEC_WEBSOCKET_VERSION, "13")
            .header(header::SEC_WEBSOCKET_KEY, "dGhlIHNhbXBsZSBub25jZQ==")
            .body(Body::empty())
            .unwrap()
    };
    let (status, _, text) = raw(&app, upgrade("https://evil.example")).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{text}");
    // An origin allowed by a flag may.
    let allowed = app_with_origin("https://play.example");
    let req = post("/api/games", Some("application/json"), body)
        .header(header::ORIGIN, "https://play.example")
        .body(Body::from(body))
        .unwrap();
    assert_eq!(raw(&allowed, req).await.0, StatusCode::CREATED);
}

fn app_with_origin(origin: &str) -> axum::Router {
    app(AppState::with_options(
        Store::in_memory().unwrap(),
        Options {
            allowed_origins: vec![origin.to_string()],
            ..Options::default()
        },
    ))
}

#[tokio::test]
async fn pages_and_answers_carry_the_security_headers() {
    let app = fresh();
    for uri in [
        "/",
        "/g/abc",
        "/static/app.js",
        "/api/games",
        "/api/nothing",
        "/nothing",
    ] {
        let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let (_, h, _) = raw(&app, req).await;
        let csp = h[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(csp.contains("script-src 'self'"), "{uri}: {csp}");
        assert!(
            !csp.split(';')
                .find(|d| d.contains("script-src"))
                .unwrap()
                .contains("unsafe-inline"),
            "{uri}: no inline script"
        );
        assert!(csp.contains("frame-ancestors 'none'"), "{uri}: {csp}");
        assert_eq!(h[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{uri}");
        assert_eq!(h[header::X_FRAME_OPTIONS], "DENY", "{uri}");
        assert_eq!(h[header::REFERRER_POLICY], "no-referrer", "{uri}");
    }
    // The page has no inline script for the policy to block.
    let req = Request::builder().uri("/").body(Body::empty()).unwrap();
    let (_, _, html) = raw(&app, req).await;
    for tag in html.split("<script").skip(1) {
        assert!(
            tag.trim_start().starts_with("src=") || tag.contains(" src="),
            "inline script: {tag}"
        );
    }
}

#[tokio::test]
async fn every_api_error_is_json_and_unknown_pages_are_html() {
    let app = fresh();
    let (_, id, t) = start(&app, json!({"game": "ringo", "opponent": "local"})).await;
    let big = format!(r#"{{"game": "ringo", "rules": "{}"}}"#, "x".repeat(100_000));
    let cases: Vec<(Request<Body>, StatusCode)> = vec![
        (
            post("/api/games", Some("application/json"), "")
                .body(Body::from(big))
                .unwrap(),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            Request::builder()
                .method("DELETE")
                .uri("/api/games")
                .body(Body::empty())
                .unwrap(),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            Request::builder()
                .method("PUT")
                .uri(format!("/api/games/{id}"))
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from("{}"))
                .unwrap(),
            StatusCode::METHOD_NOT_ALLOWED,
        ),
        (
            Request::builder()
                .uri(format!("/api/games/{id}/at/notanumber"))
                .body(Body::empty())
                .unwrap(),
            StatusCode::BAD_REQUEST,
        ),
        (
            Request::builder()
                .uri(format!("/api/games/{id}/at/99999999999999999999999"))
                .body(Body::empty())
                .unwrap(),
            StatusCode::BAD_REQUEST,
        ),
        (
            Request::builder()
                .uri("/api/no/such/route")
                .body(Body::empty())
                .unwrap(),
            StatusCode::NOT_FOUND,
        ),
        (
            Request::builder()
                .uri(format!("/api/games/{id}/ws"))
                .body(Body::empty())
                .unwrap(),
            StatusCode::BAD_REQUEST,
        ),
        (
            Request::builder()
                .uri("/api/games/nosuchgame/ws")
                .body(Body::empty())
                .unwrap(),
            StatusCode::BAD_REQUEST,
        ),
        (
            post(
                &format!("/api/games/{id}/action"),
                Some("application/json"),
                "",
            )
            .header("x-agon-token", &t)
            .body(Body::from("{\"type\":"))
            .unwrap(),
            StatusCode::BAD_REQUEST,
        ),
        (
            post(&format!("/api/games/{id}/action"), Some("text/plain"), "")
                .body(Body::from("hello"))
                .unwrap(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            post("/api/import", Some("application/json"), "")
                .body(Body::from(vec![b'x'; MAX_IMPORT + 10]))
                .unwrap(),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
    ];
    for (req, want) in cases {
        let what = format!("{} {}", req.method(), req.uri());
        let (status, h, text) = raw(&app, req).await;
        assert!(
            status == want || (want == StatusCode::BAD_REQUEST && status.is_client_error()),
            "{what}: {status} {text}"
        );
        assert!(
            h[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("application/json"),
            "{what}: {h:?}"
        );
        let v: Value =
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("{what}: not JSON: {text}"));
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{what}: {v}"
        );
        assert!(
            v["code"].as_str().is_some_and(|c| !c.is_empty()),
            "{what}: every error has a code: {v}"
        );
    }
    for uri in ["/nothing", "/g/abc/def", "/static/secret.txt"] {
        let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let (status, h, text) = raw(&app, req).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert!(
            h[header::CONTENT_TYPE]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{uri}"
        );
        // The app's own page, which shows a translated "not found" (the
        // browser tests check what the reader sees).
        assert!(
            text.contains("/static/app.js") && text.contains("href=\"/\""),
            "{uri}: {text}"
        );
    }
}

#[tokio::test]
async fn seat_tokens_are_stored_hashed_in_private_files_and_never_read_from_urls() {
    let dir = std::env::temp_dir().join(format!("agon-secrets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (id, token, invite) = {
        let state = state_on(Store::open(&dir).unwrap());
        let app = app(state.clone());
        let (g, id, token) = start(
            &app,
            json!({"game": "ringo", "opponent": "friend", "side": "attackers"}),
        )
        .await;
        let (status, v) = call(
            &app,
            "GET",
            &format!("/api/games/{id}?token={token}"),
            None,
            None,
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(v["you"], json!([]), "a token in the URL is not a token");
        state.stop().await;
        (id, token, g["invite"].as_str().unwrap().to_string())
    };
    let db = std::fs::read(dir.join("agon.db")).unwrap();
    let wal = std::fs::read(dir.join("agon.db-wal")).unwrap_or_default();
    for secret in [&token, &invite] {
        let found = |bytes: &[u8]| bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
        assert!(!found(&db) && !found(&wal), "a secret is stored in clear");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700, "the data directory is private");
        for f in ["agon.db", "agon.db-wal", "agon.db-shm"] {
            let p = dir.join(f);
            if p.exists() {
                assert_eq!(mode(&p), 0o600, "{f} is private");
            }
        }
    }
    // A database from before hashing (tokens in clear) is migrated on open,
    // and its players' tokens keep working.
    {
        let conn = rusqlite::Connection::open(dir.join("agon.db")).unwrap();
        conn.execute(
            "UPDATE games SET token0 = ?1 WHERE id = ?2",
            rusqlite::params!["0123456789abcdef0123456789abcdef", id],
        )
        .unwrap();
    }
    let app = app(state_on(Store::open(&dir).unwrap()));
    let (_, v) = call(
        &app,
        "GET",
        &format!("/api/games/{id}"),
        Some("0123456789abcdef0123456789abcdef"),
        None,
    )
    .await;
    assert_eq!(
        v["you"],
        json!([0]),
        "an old clear token still works after migration"
    );
    let conn = rusqlite::Connection::open(dir.join("agon.db")).unwrap();
    let stored: String = conn
        .query_row("SELECT token0 FROM games WHERE id = ?1", [&id], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(stored.len(), 64, "now stored as a hash");
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn import_takes_the_longest_record_export_gives() {
    let app = fresh();
    // The longest record: MAX_TOKENS tokens. Opening ties (`start:4-4`, 9
    // bytes, the longest token) are legal one after another, then the tie is
    // broken; the game is then at the length limit.
    let mut tokens = vec!["start:4-4"; MAX_TOKENS - 1];
    tokens.push("start:1-2");
    let record = format!(
        "urgammon match to=99 draw=replay stake=999999999999.99\n{}",
        tokens.join(" ")
    );
    let (status, v) = import(&app, "urgammon", &record).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        v.to_string().chars().take(300).collect::<String>()
    );
    let id = v["id"].as_str().unwrap().to_string();
    let t = v["token"].as_str().unwrap().to_string();
    assert_eq!(v["state"]["version"], MAX_TOKENS);
    // It is at the limit: a move is refused, a resignation is not.
    let m = v["state"]["moves"][0].as_str().unwrap().to_string();
    let (status, e) = action(&app, &id, Some(&t), mv(&m)).await;
    assert_eq!(status, StatusCode::CONFLICT, "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("longest record"),
        "{e}"
    );
    let (status, _) = action(&app, &id, Some(&t), json!({"type": "resign"})).await;
    assert_eq!(status, StatusCode::OK);
    // Export, and import the export: the same record.
    let (status, exported) =
        call(&app, "GET", &format!("/api/games/{id}/record"), None, None).await;
    assert_eq!(status, StatusCode::OK);
    let exported = exported.as_str().unwrap().to_string();
    let body = json!({"game": "urgammon", "record": exported}).to_string();
    assert!(
        body.len() <= MAX_IMPORT,
        "the longest export fits the import limit"
    );
    let (status, again) = import(&app, "urgammon", &exported).await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        again.to_string().chars().take(300).collect::<String>()
    );
    let (_, rec) = call(
        &app,
        "GET",
        &format!("/api/games/{}/record", again["id"].as_str().unwrap()),
        None,
        None,
    )
    .await;
    assert_eq!(rec.as_str().unwrap(), exported);
    // One token more than the limit is refused with a reason.
    let longer = format!(
        "{}\nstart:4-4 {}",
        "urgammon match to=99 draw=replay",
        tokens.join(" ")
    );
    let (status, e) = import(&app, "urgammon", &longer).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "{}",
        e.to_string().chars().take(300).collect::<String>()
    );
}

fn limited_app(rate_limit: u32, create_limit: u32) -> (AppState, axum::Router) {
    let state = AppState::with_options(
        Store::in_memory().unwrap(),
        Options {
            rate_limit,
            create_limit,
            ..Options::default()
        },
    );
    (state.clone(), app(state))
}

#[tokio::test]
async fn clients_are_rate_limited_with_a_json_429() {
    let (_, app) = limited_app(2, 3);
    let mut statuses = vec![];
    for _ in 0..5 {
        let (status, v) = call(
            &app,
            "POST",
            "/api/games",
            None,
            Some(r#"{"game": "ringo", "opponent": "local"}"#),
        )
        .await;
        assert!(
            v["error"].is_string() || status == StatusCode::CREATED,
            "{v}"
        );
        statuses.push(status);
    }
    assert_eq!(
        &statuses[..3],
        [StatusCode::CREATED; 3],
        "a burst of three creations passes"
    );
    assert_eq!(
        statuses[4],
        StatusCode::TOO_MANY_REQUESTS,
        "then creation waits"
    );
    // Actions: two a second, bursts of four.
    let (_, app) = limited_app(2, 0);
    let (_, id, t) = start(&app, json!({"game": "ringo", "opponent": "local"})).await;
    let mut limited = 0;
    for m in [
        "b6-b5", "b1-c1", "c6-c5", "c1-b1", "d6-d5", "b1-c1", "e6-e5",
    ] {
        let req = Request::builder()
            .method("POST")
            .uri(format!("/api/games/{id}/action"))
            .header(header::HOST, "agon.localhost")
            .header(header::CONTENT_TYPE, "application/json")
            .header("x-agon-token", &t)
            .body(Body::from(mv(m).to_string()))
            .unwrap();
        let (status, h, text) = raw(&app, req).await;
        let v: Value = serde_json::from_str(&text).unwrap();
        if status == StatusCode::TOO_MANY_REQUESTS {
            limited += 1;
            // Every 429 says when to come back, in whole seconds.
            let after: u64 = h[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
            assert!((1..=5).contains(&after), "Retry-After {after}");
            // In the server's words, with the same wait (never the
            // limiter's "wait for 0s").
            assert_eq!(
                v["error"],
                format!("too many requests from your address: try again in {after} s"),
                "{v}"
            );
            assert_eq!(v["code"], "rate-limited", "{v}");
        }
    }
    assert!(
        limited >= 2,
        "actions past the burst are refused: {limited}"
    );
    // Reading is never limited.
    for _ in 0..20 {
        let (status, _) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        assert_eq!(status, StatusCode::OK);
    }
}

#[tokio::test]
async fn idle_games_leave_memory_and_come_back_from_the_store() {
    let state = state_on(Store::in_memory().unwrap());
    let app = app(state.clone());
    let (_, id, t) = start(&app, json!({"game": "urgammon", "opponent": "local"})).await;
    let first = action(&app, &id, Some(&t), mv("P-1a")).await;
    let before = call(&app, "GET", &format!("/api/games/{id}"), Some(&t), None)
        .await
        .1;
    assert_eq!(state.games().games_in_memory(), 1);
    assert_eq!(
        state
            .games()
            .evict_idle(std::time::Duration::from_secs(3600)),
        0,
        "recently used games stay"
    );
    // Let the engine check that each load starts finish (it holds the game).
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    assert_eq!(state.games().evict_idle(std::time::Duration::ZERO), 1);
    assert_eq!(state.games().games_in_memory(), 0);
    let after = call(&app, "GET", &format!("/api/games/{id}"), Some(&t), None)
        .await
        .1;
    assert_eq!(after, before, "reloaded as it was, with the player's seat");
    assert_eq!(state.games().games_in_memory(), 1);
    let _ = first;
    // And play goes on after the reload.
    let s = &after["state"];
    let a = if s["phase"] == "roll" {
        json!({"type": "roll"})
    } else {
        mv(s["moves"][0].as_str().unwrap())
    };
    let (status, v) = action(&app, &id, Some(&t), a).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

/// The front end and the lab's results are built into the binary, so each
/// answer carries an ETag: a browser that holds that version gets `304 Not
/// Modified` with no body (every page load used to fetch the whole front
/// end again), whatever else the header holds; and a client that accepts
/// gzip gets the same bytes packed.
#[tokio::test]
async fn built_in_files_carry_an_etag_and_come_packed() {
    use std::io::Read;
    let app = fresh();
    let get = |uri: &str, headers: &[(header::HeaderName, &[u8])]| {
        let mut b = Request::builder()
            .uri(uri)
            .header(header::HOST, "agon.localhost");
        for (k, v) in headers {
            b = b.header(k, header::HeaderValue::from_bytes(v).unwrap());
        }
        b.body(Body::empty()).unwrap()
    };
    for uri in [
        "/",
        "/g/abcdef",
        "/static/app.js",
        "/static/js/pages/home.js",
        "/static/style.css",
        "/favicon.ico",
        "/api/balance",
    ] {
        let (status, h, body) = raw(&app, get(uri, &[])).await;
        assert_eq!(status, StatusCode::OK, "{uri}");
        let tag = h[header::ETAG].to_str().unwrap().to_string();
        assert!(tag.starts_with('"') && tag.ends_with('"'), "{uri}: {tag}");
        assert_eq!(h[header::CACHE_CONTROL], "no-cache", "{uri}");
        assert!(!body.is_empty());
        // The same version: 304, no body, the tag again. Weak, listed
        // among others, or `*`: the same.
        let listed = format!("\"0000000000000000\", {tag}");
        let weak = format!("W/{tag}");
        for held in [tag.as_str(), listed.as_str(), weak.as_str(), "*"] {
            let (status, h2, body) =
                raw(&app, get(uri, &[(header::IF_NONE_MATCH, held.as_bytes())])).await;
            assert_eq!(status, StatusCode::NOT_MODIFIED, "{uri} {held}");
            assert_eq!(h2[header::ETAG], tag.as_str());
            assert!(body.is_empty(), "{uri}: {body}");
        }
        // Another version, a bad or hostile header: the whole answer.
        let long = format!("\"{}\"", "x".repeat(4000));
        for other in [
            b"\"0000000000000000\"".as_slice(),
            b"garbage",
            b"\xff\xfe\"x\"",
            b"W/",
            b",,,",
            long.as_bytes(),
        ] {
            let (status, _, again) = raw(&app, get(uri, &[(header::IF_NONE_MATCH, other)])).await;
            assert_eq!(status, StatusCode::OK, "{uri} {other:?}");
            assert_eq!(again, body, "{uri}");
        }
        // Packed for a client that takes gzip, and the same once unpacked.
        let res = app
            .clone()
            .oneshot(get(uri, &[(header::ACCEPT_ENCODING, b"gzip")]))
            .await
            .unwrap();
        assert_eq!(res.headers()[header::CONTENT_ENCODING], "gzip", "{uri}");
        let packed = axum::body::to_bytes(res.into_body(), 1 << 22)
            .await
            .unwrap();
        let mut unpacked = String::new();
        flate2::read::GzDecoder::new(&packed[..])
            .read_to_string(&mut unpacked)
            .unwrap();
        assert_eq!(unpacked, body, "{uri}");
        if body.len() > 10_000 {
            assert!(
                packed.len() < body.len() / 2,
                "{uri}: {} of {}",
                packed.len(),
                body.len()
            );
        }
    }
    // A file of a new build has a new tag: two files never share one.
    let (_, a, _) = raw(&app, get("/static/app.js", &[])).await;
    let (_, b, _) = raw(&app, get("/static/style.css", &[])).await;
    assert_ne!(a[header::ETAG], b[header::ETAG]);
}
