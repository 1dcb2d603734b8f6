//! What an attacker and a newcomer found (issue 57), each checked through
//! the router: foreign hosts, answers that carry secrets, strict creation,
//! analysis floods beside a game against the computer, old seat links, a
//! friend game before the friend comes, imports played on.

mod common;

use agon_server::store::Store;
use agon_server::{app, AppState, Options};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderMap, Request, StatusCode};
use common::*;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tower::ServiceExt;

fn fresh_with(options: Options) -> axum::Router {
    app(AppState::with_options(Store::in_memory().unwrap(), options))
}

fn fresh() -> axum::Router {
    app(state_on(Store::in_memory().unwrap()))
}

/// Sends a request; returns the status, the headers and the body as JSON
/// (or as a JSON string when it is not JSON).
async fn send(app: &axum::Router, req: Request<Body>) -> (StatusCode, HeaderMap, Value) {
    let res = app.clone().oneshot(req).await.unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 22)
        .await
        .unwrap();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, headers, v)
}

fn get_with_host(uri: &str, host: &str) -> Request<Body> {
    Request::builder()
        .uri(uri)
        .header(header::HOST, host)
        .body(Body::empty())
        .unwrap()
}

fn post_json(uri: &str, body: &Value) -> axum::http::request::Builder {
    let _ = body;
    Request::builder()
        .method("POST")
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
}

#[tokio::test]
async fn a_foreign_host_is_refused_and_the_served_ones_are_not() {
    let app = fresh();
    // DNS rebinding: the attacker's name, pointed at this machine, with a
    // matching Origin.
    let req = Request::builder()
        .method("POST")
        .uri("/api/games")
        .header(header::HOST, "evil.example")
        .header(header::ORIGIN, "http://evil.example")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(r#"{"game":"ringo","opponent":"local"}"#))
        .unwrap();
    let (status, _, v) = send(&app, req).await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "{v}");
    assert_eq!(v["code"], "foreign-host", "{v}");
    for uri in ["/", "/api/games", "/api/meta", "/static/app.js"] {
        let (status, _, v) = send(&app, get_with_host(uri, "evil.example:8080")).await;
        assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "{uri}: {v}");
    }
    // IP addresses and localhost are always served, with or without a port.
    for host in [
        "127.0.0.1:8080",
        "localhost:8080",
        "LOCALHOST",
        "[::1]:8080",
        "192.168.1.5",
        "agon.localhost",
    ] {
        let (status, _, v) = send(&app, get_with_host("/api/meta", host)).await;
        assert_eq!(status, StatusCode::OK, "{host}: {v}");
    }
    // A name is served once the server is told it is its own.
    let app = fresh_with(Options {
        allowed_hosts: vec!["agon.example.org".into()],
        ..Options::default()
    });
    let (status, _, _) = send(&app, get_with_host("/", "Agon.Example.org:443")).await;
    assert_eq!(status, StatusCode::OK);
    let (status, _, _) = send(&app, get_with_host("/", "evil.example")).await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    assert_eq!(
        agon_server::host_of_url("https://Agon.Example.org:8443/play?x=1").as_deref(),
        Some("agon.example.org")
    );
}

/// HTTP/2 names the host in the request's authority and sends no `Host`
/// header: the page's own requests over HTTP/2 (`curl --http2-prior-knowledge`,
/// a client that speaks h2c) are its own site's, and a foreign `Origin` is
/// still refused.
#[tokio::test]
async fn over_http2_the_authority_names_the_site_an_origin_must_match() {
    let app = fresh();
    let h2 = |origin: &str| {
        Request::builder()
            .method("POST")
            .uri("http://127.0.0.1:8080/api/games")
            .version(axum::http::Version::HTTP_2)
            .header(header::ORIGIN, origin)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(r#"{"game":"ringo","opponent":"local"}"#))
            .unwrap()
    };
    let (status, _, v) = send(&app, h2("http://127.0.0.1:8080")).await;
    assert_eq!(status, StatusCode::CREATED, "its own page over HTTP/2: {v}");
    for foreign in [
        "http://evil.example",
        "http://127.0.0.1:8081",
        "https://127.0.0.1:8080.evil.example",
        "null",
        "",
    ] {
        let (status, _, v) = send(&app, h2(foreign)).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{foreign:?}: {v}");
        assert_eq!(v["code"], "foreign-origin", "{v}");
    }
}

#[tokio::test]
async fn answers_with_secrets_are_never_cached_and_https_gets_hsts() {
    let app = fresh_with(Options {
        trusted_proxies: vec!["10.0.0.1".parse().unwrap()],
        ..Options::default()
    });
    let body = json!({"game": "ringo", "opponent": "friend", "side": "attackers"});
    let (status, h, created) = send(
        &app,
        post_json("/api/games", &body)
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(h[header::CACHE_CONTROL], "no-store", "creation: a token");
    let id = created["id"].as_str().unwrap();
    let join = json!({"invite": created["invite"]});
    let (status, h, _) = send(
        &app,
        post_json(&format!("/api/games/{id}/join"), &join)
            .body(Body::from(join.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h[header::CACHE_CONTROL], "no-store", "join: a token");
    let (status, h, _) = send(
        &app,
        post_json(&format!("/api/games/{id}/seat-link"), &json!({}))
            .header("x-agon-token", created["token"].as_str().unwrap())
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(h[header::CACHE_CONTROL], "no-store", "seat link: a code");
    let record = json!({"game": "ringo", "record": "classic\n"});
    let (status, h, v) = send(
        &app,
        post_json("/api/import", &record)
            .body(Body::from(record.to_string()))
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(h[header::CACHE_CONTROL], "no-store", "import: a token");
    assert!(h.get(header::STRICT_TRANSPORT_SECURITY).is_none());
    // Over HTTPS, through the trusted proxy: HSTS. From anyone else, the
    // header is just a header.
    let over = |peer: &str| {
        let mut req = get_with_host("/api/meta", "localhost");
        req.headers_mut()
            .insert("x-forwarded-proto", "https".parse().unwrap());
        req.extensions_mut()
            .insert(ConnectInfo::<SocketAddr>(peer.parse().unwrap()));
        req
    };
    let (_, h, _) = send(&app, over("10.0.0.1:4000")).await;
    assert_eq!(h[header::STRICT_TRANSPORT_SECURITY], "max-age=31536000");
    let (_, h, _) = send(&app, over("10.9.9.9:4000")).await;
    assert!(h.get(header::STRICT_TRANSPORT_SECURITY).is_none());
}

#[tokio::test]
async fn creation_refuses_padded_numbers_repeated_options_and_huge_rules() {
    let app = fresh();
    let long = format!("classic{}", ",slide=on".repeat(7_000));
    let cases = [
        (json!({"game": "ringo", "level": " 3"}), "level"),
        (json!({"game": "ringo", "level": "3 "}), "level"),
        (json!({"game": "ringo", "level": "03"}), "level"),
        (json!({"game": "ringo", "level": "+3"}), "level"),
        (
            json!({"game": "urgammon", "opponent": "local", "to": " 5"}),
            "target",
        ),
        (
            json!({"game": "urgammon", "opponent": "local", "stake": "5."}),
            "stake",
        ),
        (
            json!({"game": "urgammon", "opponent": "local", "stake": " 5"}),
            "stake",
        ),
        (
            json!({"game": "ringo", "rules": "classic,slide=on,slide=on"}),
            "given twice",
        ),
        (json!({"game": "ringo", "rules": long}), "at most 512"),
    ];
    for (body, says) in cases {
        let (status, v) = call(&app, "POST", "/api/games", None, Some(&body.to_string())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        let msg = v["error"].as_str().unwrap_or_default();
        assert!(msg.contains(says), "{body}: {v}");
    }
    // What a form sends as written still works.
    for body in [
        json!({"game": "ringo", "level": "3", "opponent": "engine"}),
        json!({"game": "urgammon", "opponent": "local", "to": "5", "stake": "2.50"}),
        json!({"game": "ringo", "rules": "classic,slide=on", "opponent": "local"}),
    ] {
        let (status, v) = call(&app, "POST", "/api/games", None, Some(&body.to_string())).await;
        assert_eq!(status, StatusCode::CREATED, "{body}: {v}");
    }
}

/// A rollout request from `peer`.
fn rollout_from(peer: &str, games: u32) -> Request<Body> {
    let body = json!({"game": "urgammon", "games": games}).to_string();
    let mut req = post_json("/api/rollout", &Value::Null)
        .body(Body::from(body))
        .unwrap();
    req.extensions_mut()
        .insert(ConnectInfo::<SocketAddr>(peer.parse().unwrap()));
    req
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rollout_flood_never_delays_the_computer() {
    let app = fresh();
    // 45 rollouts of 5,000 games at once from one client.
    let flood: Vec<_> = (0..45)
        .map(|_| {
            let app = app.clone();
            tokio::spawn(async move { send(&app, rollout_from("10.0.0.7:1", 5_000)).await })
        })
        .collect();
    // Meanwhile a game against the level-1 computer, which moves first.
    let t = Instant::now();
    let (_, id, _) = start(
        &app,
        json!({"game": "ringo", "opponent": "engine", "level": 1, "side": "defenders"}),
    )
    .await;
    let replied = loop {
        let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        if v["state"]["revision"].as_i64() >= Some(1) {
            break t.elapsed();
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the computer has not replied after {:?}",
            t.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    // Another client's analysis is not refused for the flood.
    let (status, _, v) = send(&app, rollout_from("10.0.0.8:1", 50)).await;
    assert_eq!(status, StatusCode::OK, "another client: {v}");
    let mut accepted = 0;
    let mut refused = 0;
    for f in flood {
        let (status, h, v) = f.await.unwrap();
        match status {
            StatusCode::OK => accepted += 1,
            StatusCode::TOO_MANY_REQUESTS => {
                refused += 1;
                assert_eq!(v["code"], "analysis-limit", "{v}");
                let after: u64 = h[header::RETRY_AFTER].to_str().unwrap().parse().unwrap();
                assert!(after >= 1, "Retry-After {after}");
            }
            other => panic!("{other}: {v}"),
        }
    }
    assert!((1..=2).contains(&accepted), "accepted {accepted}");
    assert_eq!(accepted + refused, 45);
    eprintln!(
        "a level-1 reply under a flood of 45 rollouts: {replied:?}; {accepted} accepted, {refused} refused"
    );
    assert!(replied < Duration::from_secs(5), "{replied:?}");
}

#[tokio::test]
async fn an_older_seat_link_never_takes_the_seat_back() {
    let app = fresh();
    let (_, id, alice) = start(
        &app,
        json!({"game": "ringo", "opponent": "engine", "level": 1, "side": "attackers"}),
    )
    .await;
    let link = async |token: &str| {
        let (status, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/seat-link"),
            Some(token),
            Some("{}"),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        v["code"].as_str().unwrap().to_string()
    };
    let join = async |code: &str| {
        call(
            &app,
            "POST",
            &format!("/api/games/{id}/join"),
            None,
            Some(&json!({ "invite": code }).to_string()),
        )
        .await
    };
    // Two links: the newer one revokes the older one at once.
    let first = link(&alice).await;
    let second = link(&alice).await;
    let (status, v) = join(&first).await;
    assert_eq!(status, StatusCode::CONFLICT, "the older link: {v}");
    // The hand-over, with the newer link.
    let (status, v) = join(&second).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let bob = v["token"].as_str().unwrap().to_string();
    // A link Alice made before the hand-over (a third, never used) is dead
    // too: she cannot make one now, and the old ones do not work.
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/seat-link"),
        Some(&alice),
        Some("{}"),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "the old token holds nothing");
    // Bob makes a link, then one more; joins after the hand-over by an
    // older one fail.
    let b1 = link(&bob).await;
    let b2 = link(&bob).await;
    let (status, v) = join(&b2).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = join(&b1).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "made before the hand-over: {v}"
    );
    let carol = v["token"].as_str().unwrap_or_default().to_string();
    assert!(carol.is_empty());
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(v["you"], json!([]));
}

#[tokio::test]
async fn a_friend_game_waits_for_the_friend() {
    let app = fresh();
    let (created, id, alice) = start(
        &app,
        json!({"game": "ringo", "opponent": "friend", "side": "attackers"}),
    )
    .await;
    assert_eq!(created["state"]["waiting_for_friend"], true);
    let (status, v) = action(&app, &id, Some(&alice), mv("b6-b5")).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "waiting-for-friend", "{v}");
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(v["state"]["revision"], 0, "nothing was played: {v}");
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({ "invite": created["invite"] }).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(v["state"]["waiting_for_friend"], false);
    let (status, v) = action(&app, &id, Some(&alice), mv("b6-b5")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Urgammon likewise.
    let (created, id, alice) = start(
        &app,
        json!({"game": "urgammon", "opponent": "friend", "side": "light"}),
    )
    .await;
    assert_eq!(created["state"]["waiting_for_friend"], true);
    let (status, v) = action(&app, &id, Some(&alice), json!({"type": "roll"})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(v["code"], "waiting-for-friend");
    // Resigning stays possible: the creator may give up waiting.
    let (status, v) = action(&app, &id, Some(&alice), json!({"type": "resign"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn an_imported_game_goes_on_against_the_computer_or_a_friend() {
    let app = fresh();
    let moves = "b6-b5 d1-d2";
    let body = json!({
        "game": "ringo",
        "record": format!("classic\n{moves}"),
        "opponent": "engine",
        "level": 1,
        "side": "defenders",
    });
    let (status, v) = call(&app, "POST", "/api/import", None, Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["state"]["mode"], "engine");
    assert_eq!(v["you"], json!([1]));
    let id = v["id"].as_str().unwrap();
    // After b6-b5 d1-d2 the attackers are to move: the computer's turn.
    let t = Instant::now();
    loop {
        let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, None).await;
        if v["state"]["revision"].as_i64() >= Some(1) {
            assert_eq!(v["state"]["history"].as_array().unwrap().len(), 3);
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "no reply: {v}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Without a side, the importer takes the side to act.
    let body =
        json!({"game": "ringo", "record": format!("classic\n{moves}"), "opponent": "friend"});
    let (status, v) = call(&app, "POST", "/api/import", None, Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["you"], json!([0]));
    assert!(v["invite_url"].as_str().unwrap().contains("?invite="));
    // Hostile settings are refused as at creation.
    for (extra, code) in [
        (json!({"opponent": "robot"}), "unknown-opponent"),
        (json!({"opponent": "engine", "level": 11}), "bad-level"),
        (json!({"opponent": "engine", "level": " 1"}), "bad-level"),
        (json!({"side": "light"}), "unknown-side"),
    ] {
        let mut body = json!({"game": "ringo", "record": "classic\n"});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (status, v) = call(&app, "POST", "/api/import", None, Some(&body.to_string())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["code"], code, "{body}: {v}");
    }
}
