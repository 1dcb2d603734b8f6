//! Players meeting through the HTTP API (issue 74): challenges by name
//! (sent, seen, declined with the sender told, sent again, accepted into
//! one game both players hold; cancelled; refused by the challenged
//! player's setting), who is online (the site socket counts a player,
//! never names one not signed in), following, and the games in play with
//! their spectators; with hostile input on every new route (oneself, a
//! missing or deleted player, twice, after acceptance, by someone else,
//! not signed in, follow floods). The same on PostgreSQL with
//! `AGON_TEST_STORE=postgres`, and across two instances.

mod common;

use agon_server::{app, AppState, Options};
use common::{as_account, call, next_message, serve, signup};
use serde_json::{json, Value};
use std::time::Duration;

async fn people_app(test: &str) -> (AppState, axum::Router) {
    let state = AppState::with_options(
        common::test_store(test).await,
        Options {
            engine_delay: Duration::ZERO,
            ..Options::default()
        },
    );
    (state.clone(), app(state))
}

fn challenge(user: &str) -> Value {
    json!({"user": user, "game": "ringo", "clock": {"base_secs": 300, "increment_secs": 3},
        "rated": false, "side": "attackers"})
}

#[tokio::test]
async fn a_challenge_is_seen_declined_sent_again_and_accepted_into_one_game() {
    let (_, app) = people_app("people_challenge").await;
    let (ala, ola) = (signup(&app, "ala").await, signup(&app, "ola").await);
    let (s, c) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("Ola")),
    )
    .await;
    assert_eq!(s, 201, "{c}");
    assert_eq!(c["status"], "open");
    assert_eq!(
        (c["from"].as_str(), c["user"].as_str()),
        (Some("ala"), Some("ola"))
    );
    let id = c["id"].as_str().unwrap().to_string();
    // The same again, while it is open: refused.
    let (s, again) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("ola")),
    )
    .await;
    assert_eq!(
        (s, again["code"].as_str()),
        (409, Some("challenge-open")),
        "{again}"
    );
    let (_, mine) = as_account(&app, &ola, "GET", "/api/challenges", None).await;
    assert_eq!(mine["incoming"][0]["id"], id.as_str(), "{mine}");
    // The challenger's rating in the game, for the bar (no rated game yet:
    // 1500, provisional).
    assert_eq!(
        mine["incoming"][0]["from_rating"],
        json!({"rating": 1500, "provisional": true}),
        "{mine}"
    );
    assert_eq!(mine["outgoing"].as_array().unwrap().len(), 0);
    // The sender cannot accept her own; the target cannot cancel it.
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (403, Some("not-your-challenge")),
        "{v}"
    );
    let (s, _) = as_account(
        &app,
        &ola,
        "POST",
        &format!("/api/challenges/{id}/cancel"),
        None,
    )
    .await;
    assert_eq!(s, 403);
    // Declined: the sender reads so.
    let (s, v) = as_account(
        &app,
        &ola,
        "POST",
        &format!("/api/challenges/{id}/decline"),
        None,
    )
    .await;
    assert_eq!((s, v["status"].as_str()), (200, Some("declined")), "{v}");
    let (_, sent) = as_account(&app, &ala, "GET", "/api/challenges", None).await;
    assert_eq!(sent["outgoing"][0]["status"], "declined", "{sent}");
    // Answered once: neither accept nor decline again.
    let (s, v) = as_account(
        &app,
        &ola,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (409, Some("challenge-answered")),
        "{v}"
    );
    // Sent again, accepted: one game, the sender attackers by her account.
    let (s, c) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("ola")),
    )
    .await;
    assert_eq!(s, 201, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let (s, p) = as_account(
        &app,
        &ola,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(s, 201, "{p}");
    let game = p["game"].as_str().unwrap().to_string();
    assert!(p["token"].as_str().is_some_and(|t| !t.is_empty()));
    let (s, v) = as_account(
        &app,
        &ola,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        None,
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (409, Some("challenge-answered")));
    let (_, sent) = as_account(&app, &ala, "GET", "/api/challenges", None).await;
    assert_eq!(sent["outgoing"][0]["status"], "accepted");
    assert_eq!(sent["outgoing"][0]["game_id"], game.as_str());
    // Both hold their seats by their accounts alone.
    let (_, g) = as_account(&app, &ala, "GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(g["you"], json!([0]), "{g}");
    let (_, g) = as_account(&app, &ola, "GET", &format!("/api/games/{game}"), None).await;
    assert_eq!(g["you"], json!([1]), "{g}");
    assert!(g["state"]["clock"].is_object(), "a live clock: {g}");
}

#[tokio::test]
async fn hostile_challenges_are_refused() {
    let (_, app) = people_app("people_hostile").await;
    let (ala, ola) = (signup(&app, "ala").await, signup(&app, "ola").await);
    let gone = signup(&app, "gone").await;
    let (s, _) = as_account(
        &app,
        &gone,
        "DELETE",
        "/api/account",
        Some(json!({"password": "correct horse battery"})),
    )
    .await;
    assert!(s == 200 || s == 204, "deleted: {s}");
    // Not signed in.
    let (s, v) = call(
        &app,
        "POST",
        "/api/challenges",
        None,
        Some(&challenge("ola").to_string()),
    )
    .await;
    assert_eq!(s, 401, "{v}");
    let (s, _) = call(&app, "GET", "/api/challenges", None, None).await;
    assert_eq!(s, 401);
    // Herself, a missing player, a deleted one, a name that cannot be one.
    for (user, status, code) in [
        ("ala", 400, "challenge-yourself"),
        ("nobody", 404, "user-not-found"),
        ("gone", 404, "user-not-found"),
        ("<script>", 404, "user-not-found"),
    ] {
        let (s, v) = as_account(&app, &ala, "POST", "/api/challenges", Some(challenge(user))).await;
        assert_eq!((s, v["code"].as_str()), (status, Some(code)), "{user}: {v}");
    }
    let long = "x".repeat(10_000);
    let (s, _) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge(&long)),
    )
    .await;
    assert_eq!(s, 404);
    // Bad settings.
    for (body, code) in [
        (json!({"user": "ola", "game": "chess"}), "unknown-game"),
        (
            json!({"user": "ola", "game": "ringo", "side": "white"}),
            "unknown-side",
        ),
        (
            json!({"user": "ola", "game": "ringo", "clock": {"base_secs": 0}}),
            "bad-clock",
        ),
        (
            json!({"user": "ola", "game": "ringo", "days": 5}),
            "bad-days",
        ),
        (
            json!({"user": "ola", "game": "urgammon", "to": 1000}),
            "bad-match-target",
        ),
        (
            json!({"user": "ola", "game": "ringo", "rules": "nonsense=1"}),
            "bad-rules",
        ),
        (
            json!({"user": "ola", "game": "ringo", "extra": 1}),
            "bad-json",
        ),
    ] {
        let (s, v) = as_account(&app, &ala, "POST", "/api/challenges", Some(body.clone())).await;
        assert_eq!((s, v["code"].as_str()), (400, Some(code)), "{body}: {v}");
    }
    // Answering a challenge that is not there, or someone else's.
    let (s, _) = as_account(&app, &ola, "POST", "/api/challenges/nothere/accept", None).await;
    assert_eq!(s, 404);
    let eve = signup(&app, "eve").await;
    let (_, c) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("ola")),
    )
    .await;
    let id = c["id"].as_str().unwrap();
    for verb in ["accept", "decline", "cancel"] {
        let (s, v) = as_account(
            &app,
            &eve,
            "POST",
            &format!("/api/challenges/{id}/{verb}"),
            None,
        )
        .await;
        assert_eq!(
            (s, v["code"].as_str()),
            (404, Some("no-such-challenge")),
            "{verb}: {v}"
        );
    }
    // Cancelled by its sender: the target can no longer accept it.
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        &format!("/api/challenges/{id}/cancel"),
        None,
    )
    .await;
    assert_eq!((s, v["status"].as_str()), (200, Some("cancelled")));
    let (s, _) = as_account(
        &app,
        &ola,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(s, 409);
    // A flood of challenges to many players stops at the cap.
    let mut refused = false;
    for i in 0..12 {
        let name = format!("p{i}");
        let _ = signup_or_skip(&app, &name).await;
        let (s, v) = as_account(
            &app,
            &eve,
            "POST",
            "/api/challenges",
            Some(challenge(&name)),
        )
        .await;
        if s == 429 {
            assert_eq!(v["code"], "too-many-challenges");
            refused = true;
            break;
        }
    }
    assert!(refused, "the eleventh open challenge is refused");
}

/// Signs a player up unless the sign-up limiter says to wait (the flood
/// test only needs some of them).
async fn signup_or_skip(app: &axum::Router, name: &str) -> Option<String> {
    let body = json!({"name": name, "password": "correct horse battery"}).to_string();
    let (s, _) = call(app, "POST", "/api/account/signup", None, Some(&body)).await;
    (s == 201).then(String::new)
}

#[tokio::test]
async fn a_player_refuses_challenges_as_her_setting_says() {
    let (_, app) = people_app("people_policy").await;
    let (ala, ola) = (signup(&app, "ala").await, signup(&app, "ola").await);
    let set = |policy: &str| json!({"challenges": policy});
    let (s, _) = as_account(
        &app,
        &ola,
        "PUT",
        "/api/account/settings",
        Some(set("nobody")),
    )
    .await;
    assert_eq!(s, 200);
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("ola")),
    )
    .await;
    assert_eq!(
        (s, v["code"].as_str()),
        (403, Some("challenge-refused")),
        "{v}"
    );
    as_account(
        &app,
        &ola,
        "PUT",
        "/api/account/settings",
        Some(set("rated")),
    )
    .await;
    let (s, _) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("ola")),
    )
    .await;
    assert_eq!(s, 403, "a casual one is refused");
    let mut rated = challenge("ola");
    rated["rated"] = json!(true);
    let (s, v) = as_account(&app, &ala, "POST", "/api/challenges", Some(rated)).await;
    assert_eq!(s, 201, "a rated one is taken: {v}");
    let id = v["id"].as_str().unwrap();
    as_account(
        &app,
        &ala,
        "POST",
        &format!("/api/challenges/{id}/cancel"),
        None,
    )
    .await;
    as_account(
        &app,
        &ola,
        "PUT",
        "/api/account/settings",
        Some(set("followed")),
    )
    .await;
    let (s, _) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("ola")),
    )
    .await;
    assert_eq!(s, 403, "a stranger is refused");
    let (s, _) = as_account(&app, &ola, "POST", "/api/users/ala/follow", None).await;
    assert_eq!(s, 200);
    let (s, _) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("ola")),
    )
    .await;
    assert_eq!(s, 201, "a followed player is taken");
    let (s, v) = as_account(
        &app,
        &ola,
        "PUT",
        "/api/account/settings",
        Some(set("strangers")),
    )
    .await;
    assert_eq!(s, 400, "an unknown policy: {v}");
}

#[tokio::test]
async fn follows_are_checked_and_capped() {
    let (_, app) = people_app("people_follow").await;
    let (ala, _ola) = (signup(&app, "ala").await, signup(&app, "ola").await);
    let (s, _) = call(&app, "POST", "/api/users/ola/follow", None, None).await;
    assert_eq!(s, 401, "not signed in");
    let (s, v) = as_account(&app, &ala, "POST", "/api/users/ala/follow", None).await;
    assert_eq!((s, v["code"].as_str()), (400, Some("follow-yourself")));
    let (s, _) = as_account(&app, &ala, "POST", "/api/users/nobody/follow", None).await;
    assert_eq!(s, 404);
    // Following twice is one follow.
    for _ in 0..3 {
        let (s, v) = as_account(&app, &ala, "POST", "/api/users/Ola/follow", None).await;
        assert_eq!((s, v["following"].as_bool()), (200, Some(true)), "{v}");
    }
    let (_, f) = as_account(&app, &ala, "GET", "/api/account/following", None).await;
    assert_eq!(f["players"].as_array().unwrap().len(), 1, "{f}");
    assert_eq!(f["players"][0]["name"], "ola");
    assert_eq!(f["players"][0]["online"], false);
    let (_, p) = as_account(&app, &ala, "GET", "/api/users/ola", None).await;
    assert_eq!(p["following"], true, "{p}");
    assert_eq!(p["followers"], 1, "{p}");
    let (s, v) = as_account(&app, &ala, "DELETE", "/api/users/ola/follow", None).await;
    assert_eq!((s, v["following"].as_bool()), (200, Some(false)));
    let (_, f) = as_account(&app, &ala, "GET", "/api/account/following", None).await;
    assert_eq!(f["players"].as_array().unwrap().len(), 0);
    let (s, _) = call(&app, "GET", "/api/account/following", None, None).await;
    assert_eq!(s, 401);
}

/// Opens a site socket (with a session cookie, if any) on a served app;
/// answers it after its hello.
async fn site_socket(
    addr: &str,
    cookie: Option<&str>,
) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/site/ws")
        .into_client_request()
        .unwrap();
    if let Some(c) = cookie {
        req.headers_mut().insert("cookie", c.parse().unwrap());
    }
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    let hello = next_message(&mut ws, Some("hello")).await;
    assert_eq!(hello["signed_in"], cookie.is_some());
    ws
}

/// Waits until `GET /api/online` answers what `ok` wants (within 5 s).
async fn online_until(app: &axum::Router, ok: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let (s, v) = call(app, "GET", "/api/online", None, None).await;
        assert_eq!(s, 200);
        if ok(&v) {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "online never became right: {v}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn the_site_socket_counts_players_online_and_tells_of_challenges() {
    let (_, app) = people_app("people_online").await;
    let addr = serve(app.clone()).await;
    let (ala, ola) = (signup(&app, "ala").await, signup(&app, "ola").await);
    let mut ala_ws = site_socket(&addr, Some(&ala)).await;
    let mut ola_ws = site_socket(&addr, Some(&ola)).await;
    let anon = site_socket(&addr, None).await;
    let v = online_until(&app, |v| {
        v["names"] == json!(["ala", "ola"]) && v["players"] == 3
    })
    .await;
    assert_eq!(v["games"], 0);
    // The anonymous page is counted, never named.
    assert!(v["names"].as_array().unwrap().iter().all(|n| n.is_string()));
    drop(anon);
    online_until(&app, |v| v["players"] == 2).await;
    let (_, p) = as_account(&app, &ala, "GET", "/api/users/ola", None).await;
    assert_eq!(p["online"], true, "{p}");
    // A challenge: both pages are told; so is a decline.
    let (s, c) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("ola")),
    )
    .await;
    assert_eq!(s, 201);
    assert_eq!(
        next_message(&mut ola_ws, Some("challenges")).await["type"],
        "challenges"
    );
    assert_eq!(
        next_message(&mut ala_ws, Some("challenges")).await["type"],
        "challenges"
    );
    let id = c["id"].as_str().unwrap();
    as_account(
        &app,
        &ola,
        "POST",
        &format!("/api/challenges/{id}/decline"),
        None,
    )
    .await;
    next_message(&mut ala_ws, Some("challenges")).await;
    // Ola leaves: she is no longer online.
    drop(ola_ws);
    online_until(&app, |v| v["names"] == json!(["ala"])).await;
    drop(ala_ws);
}

#[tokio::test]
async fn a_game_in_play_is_listed_with_its_spectators() {
    let (_, app) = people_app("people_live").await;
    let addr = serve(app.clone()).await;
    let (id, _) = common::friend_game(
        &app,
        "ringo",
        json!({"clock": {"base_secs": 300, "increment_secs": 0}}),
    )
    .await;
    // A correspondence game is not "in play now".
    common::friend_game(&app, "urgammon", json!({"days": 2})).await;
    let (s, v) = call(&app, "GET", "/api/games/live", None, None).await;
    assert_eq!(s, 200, "{v}");
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{v}");
    assert_eq!(games[0]["id"], id.as_str());
    assert_eq!(games[0]["spectators"], 0);
    let (_, v) = call(&app, "GET", "/api/games/live?game=urgammon", None, None).await;
    assert_eq!(v["games"].as_array().unwrap().len(), 0);
    let (s, v) = call(&app, "GET", "/api/games/live?game=chess", None, None).await;
    assert_eq!(s, 400, "{v}");
    // Someone watches: counted (within the answer's second of caching).
    let (_watcher, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
        .await
        .unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let (_, v) = call(&app, "GET", "/api/games/live", None, None).await;
        if v["games"][0]["spectators"] == 1 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{v}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let (_, o) = call(&app, "GET", "/api/online", None, None).await;
    assert_eq!(o["games"], 1, "{o}");
}

#[tokio::test]
async fn two_instances_share_challenges_and_who_is_online() {
    let Some((a, b, _)) = common::two_instances(
        "people_two_instances",
        Options {
            engine_delay: Duration::ZERO,
            ..Options::default()
        },
    )
    .await
    else {
        eprintln!("skipped: no PostgreSQL test server (AGON_TEST_DATABASE_URL)");
        return;
    };
    let (app_a, app_b) = (app(a), app(b));
    let (addr_a, addr_b) = (serve(app_a.clone()).await, serve(app_b.clone()).await);
    let (ala, ola) = (signup(&app_a, "ala").await, signup(&app_b, "ola").await);
    let _ala_ws = site_socket(&addr_a, Some(&ala)).await;
    let mut ola_ws = site_socket(&addr_b, Some(&ola)).await;
    // Each instance counts both, within 5 s.
    for app in [&app_a, &app_b] {
        online_until(app, |v| v["names"] == json!(["ala", "ola"])).await;
    }
    // A challenge made on one is heard and accepted on the other.
    let (s, c) = as_account(
        &app_a,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("ola")),
    )
    .await;
    assert_eq!(s, 201, "{c}");
    next_message(&mut ola_ws, Some("challenges")).await;
    let id = c["id"].as_str().unwrap();
    let (s, p) = as_account(
        &app_b,
        &ola,
        "POST",
        &format!("/api/challenges/{id}/accept"),
        None,
    )
    .await;
    assert_eq!(s, 201, "{p}");
    let (_, g) = as_account(
        &app_a,
        &ala,
        "GET",
        &format!("/api/games/{}", p["game"].as_str().unwrap()),
        None,
    )
    .await;
    assert_eq!(g["you"], json!([0]), "{g}");
}

#[tokio::test]
async fn a_challenge_reaches_the_challenged_players_browsers_by_web_push() {
    let (at, mut rx) = common::push_service("/push/ola").await;
    let app = app(AppState::with_options(
        common::test_store("people_push").await,
        Options {
            engine_delay: Duration::ZERO,
            push: common::loopback_push(),
            ..Options::default()
        },
    ));
    let (ala, ola) = (signup(&app, "ala").await, signup(&app, "ola").await);
    // Ola's browser subscribed signed in (no game yet): it hears of her
    // account, in Polish.
    let sub = json!({"subscription": {"endpoint": format!("http://{at}/push/ola"),
        "keys": {"p256dh": common::BROWSER_P256DH, "auth": common::BROWSER_AUTH}}, "games": [], "lang": "pl"});
    let (s, v) = as_account(&app, &ola, "POST", "/api/push/subscriptions", Some(sub)).await;
    assert_eq!(s, 201, "{v}");
    let (s, _) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("ola")),
    )
    .await;
    assert_eq!(s, 201);
    let message = common::next_push(&mut rx).await;
    assert_eq!(message["title"], "ala wyzywa cię na partię", "{message}");
    assert_eq!(message["body"], "Ringo · 5+3");
    assert_eq!(message["url"], "/");
}

#[tokio::test]
async fn a_follow_flood_is_one_follow_and_stops_at_the_cap() {
    let (state, app) = people_app("people_follow_flood").await;
    let ala = signup(&app, "ala").await;
    signup(&app, "ola").await;
    // Following and unfollowing a hundred times over leaves one follow at
    // most, and the count never goes wrong.
    for i in 0..100 {
        let method = if i % 2 == 0 { "POST" } else { "DELETE" };
        let (s, _) = as_account(&app, &ala, method, "/api/users/ola/follow", None).await;
        assert_eq!(s, 200);
    }
    let (s, _) = as_account(&app, &ala, "POST", "/api/users/ola/follow", None).await;
    assert_eq!(s, 200);
    let (_, p) = call(&app, "GET", "/api/users/ola", None, None).await;
    assert_eq!(p["followers"], 1, "{p}");
    // Two hundred players more (stored directly: a sign-up's password hash
    // costs a second each), followed up to the cap; the next is refused.
    for i in 0..agon_server::people::MAX_FOLLOWS {
        let name = format!("f{i}");
        state
            .store()
            .create_account(agon_server::store::accounts::NewAccount {
                key: name.clone(),
                name,
                password_hash: "$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2g".into(),
                recovery: vec![],
                created_at: 0,
            })
            .await
            .unwrap();
    }
    let mut refused = None;
    for i in 0..agon_server::people::MAX_FOLLOWS {
        let (s, v) = as_account(&app, &ala, "POST", &format!("/api/users/f{i}/follow"), None).await;
        if s != 200 {
            refused = Some((i, s, v));
            break;
        }
    }
    let (i, s, v) = refused.expect("the cap is reached");
    assert_eq!(
        (s, v["code"].as_str()),
        (429, Some("too-many-follows")),
        "{v}"
    );
    assert_eq!(
        i,
        agon_server::people::MAX_FOLLOWS - 1,
        "ola and 199 others: 200 followed"
    );
    let (_, f) = as_account(&app, &ala, "GET", "/api/account/following", None).await;
    assert_eq!(
        f["players"].as_array().unwrap().len(),
        agon_server::people::MAX_FOLLOWS
    );
}

#[tokio::test]
async fn a_challenge_whose_game_could_not_be_opened_is_open_again() {
    use agon_server::store::ChallengeStatus;
    let (state, app) = people_app("people_unsettle").await;
    let ala = signup(&app, "ala").await;
    signup(&app, "ola").await;
    let (s, c) = as_account(
        &app,
        &ala,
        "POST",
        "/api/challenges",
        Some(challenge("ola")),
    )
    .await;
    assert_eq!(s, 201);
    let id = c["id"].as_str().unwrap();
    let store = state.store();
    assert!(store
        .settle_challenge(id, ChallengeStatus::Accepted, Some("g1"), 1)
        .await
        .unwrap());
    // Another game's id gives nothing back; its own does.
    store.unsettle_challenge(id, "g2").await.unwrap();
    assert_eq!(
        store.challenge(id).await.unwrap().unwrap().status,
        ChallengeStatus::Accepted
    );
    store.unsettle_challenge(id, "g1").await.unwrap();
    let back = store.challenge(id).await.unwrap().unwrap();
    assert_eq!((back.status, back.game), (ChallengeStatus::Open, None));
}

/// Whether `GET /api/games/live` lists game `id`, asked after the list's
/// second of caching has passed.
async fn is_live(app: &axum::Router, id: &str) -> bool {
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (_, v) = call(app, "GET", "/api/games/live", None, None).await;
    v["games"]
        .as_array()
        .is_some_and(|games| games.iter().any(|g| g["id"] == id))
}

/// A one-minute game (60+0) is listed from the moment both seats are
/// taken, and still once its first moves are played (issue 90: one was
/// missing after its first move).
#[tokio::test]
async fn a_one_minute_game_is_listed_before_and_after_its_first_moves() {
    let (_, app) = people_app("people_live_bullet").await;
    let (id, tokens) = common::friend_game(
        &app,
        "ringo",
        json!({"clock": {"base_secs": 60, "increment_secs": 0}}),
    )
    .await;
    assert!(is_live(&app, &id).await, "joined");
    for _ in 0..3 {
        common::play_first(&app, &id, &tokens).await;
        assert!(is_live(&app, &id).await, "after a move");
        assert_eq!(common::game_state(&app, &id).await["over"], false);
    }
}

/// The same for a one-minute game made by a challenge between accounts,
/// its moves played by the accounts themselves.
#[tokio::test]
async fn a_one_minute_challenge_game_is_listed_after_its_first_moves() {
    let (_, app) = people_app("people_live_bullet_challenge").await;
    let ala = signup(&app, "ala").await;
    let ola = signup(&app, "ola").await;
    let mut body = challenge("ola");
    body["clock"] = json!({"base_secs": 60, "increment_secs": 0});
    let (s, c) = as_account(&app, &ala, "POST", "/api/challenges", Some(body)).await;
    assert_eq!(s, 201, "{c}");
    let cid = c["id"].as_str().unwrap();
    let (s, p) = as_account(
        &app,
        &ola,
        "POST",
        &format!("/api/challenges/{cid}/accept"),
        None,
    )
    .await;
    assert_eq!(s, 201, "{p}");
    let id = p["game"].as_str().unwrap().to_string();
    assert!(is_live(&app, &id).await, "accepted");
    for ply in 0..3 {
        let state = common::game_state(&app, &id).await;
        let mover = if state["seat_to_act"] == 0 {
            &ala
        } else {
            &ola
        };
        let m = state["moves"][0].as_str().unwrap();
        let (s, v) = as_account(
            &app,
            mover,
            "POST",
            &format!("/api/games/{id}/action"),
            Some(json!({"type": "move", "move": m})),
        )
        .await;
        assert_eq!(s, 200, "ply {ply}: {v}");
        assert!(is_live(&app, &id).await, "after ply {ply}");
    }
}

/// And for a one-minute game paired from a seek (anonymous players): a
/// live game is listed from the moment both seats are taken until it
/// ends, whatever made it.
#[tokio::test]
async fn a_one_minute_seek_game_is_listed_after_its_first_moves() {
    let (_, app) = people_app("people_live_bullet_seek").await;
    let (s, seek) = call(
        &app,
        "POST",
        "/api/seeks",
        None,
        Some(&json!({"game": "ringo", "clock": {"base_secs": 60, "increment_secs": 0}, "side": "attackers"}).to_string()),
    )
    .await;
    assert_eq!(s, 201, "{seek}");
    let sid = seek["id"].as_str().unwrap();
    let (s, p) = call(
        &app,
        "POST",
        &format!("/api/seeks/{sid}/accept"),
        None,
        None,
    )
    .await;
    assert_eq!(s, 201, "{p}");
    let id = p["game"].as_str().unwrap().to_string();
    let tokens = [
        seek["token"].as_str().unwrap().to_string(),
        p["token"].as_str().unwrap().to_string(),
    ];
    assert!(is_live(&app, &id).await, "paired");
    for _ in 0..3 {
        common::play_first(&app, &id, &tokens).await;
        assert!(is_live(&app, &id).await, "after a move");
    }
}
