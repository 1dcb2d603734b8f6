//! Players talking through the HTTP API: takeback and rematch offers
//! (offered, accepted, declined, lapsing when the position moves on), the
//! win claimed from an opponent who left, the chat's two rooms, games by
//! correspondence, the **Your turn** list and Web Push subscriptions; with
//! hostile input on every new route and action (offers out of turn, by
//! spectators, twice, after the end; chat floods, 141 characters, control
//! characters, a token of another game). The same on PostgreSQL with
//! `AGON_TEST_STORE=postgres`.

mod common;

use agon_server::store::Store;
use agon_server::{app, AppState, Options};
use common::{action, as_account, call, create, mv, next_message, serve, signup};
use serde_json::{json, Value};
use std::time::Duration;

/// An app whose opponents may be claimed against after `claim_after`.
async fn talk_app(test: &str, claim_after: Duration) -> axum::Router {
    app(AppState::with_options(
        common::test_store(test).await,
        Options {
            engine_delay: Duration::ZERO,
            claim_after,
            ..Options::default()
        },
    ))
}

/// A friend game (with `extra` fields), joined.
async fn friend(app: &axum::Router, game: &str, extra: Value) -> (String, [String; 2]) {
    common::friend_game(app, game, extra).await
}

async fn state(app: &axum::Router, id: &str) -> Value {
    common::game_state(app, id).await
}

/// Plays the side to act's first legal Ringo move.
async fn play(app: &axum::Router, id: &str, tokens: &[String; 2]) -> Value {
    common::play_first(app, id, tokens).await
}

async fn act(app: &axum::Router, id: &str, token: Option<&str>, kind: &str) -> (u16, Value) {
    let (s, v) = action(app, id, token, json!({"type": kind})).await;
    (s.as_u16(), v)
}

const P256DH: &str = common::BROWSER_P256DH;
const AUTH: &str = common::BROWSER_AUTH;

/// Subscribes `endpoint` to a seat of a game (the seat its token holds).
async fn subscribe(app: &axum::Router, endpoint: &str, id: &str, token: &str) {
    let (s, v) = common::push_subscribe(app, endpoint, id, token).await;
    assert_eq!(s, 201, "{v}");
}

#[tokio::test]
async fn a_takeback_is_offered_then_declined_or_accepted_and_lapses_when_play_goes_on() {
    let app = talk_app("talk_takeback", Duration::from_secs(60)).await;
    let (id, t) = friend(&app, "ringo", json!({})).await;
    let (other, t2) = friend(&app, "ringo", json!({})).await;
    // Nothing of hers to take back yet.
    let (s, v) = act(&app, &id, Some(&t[0]), "takeback-offer").await;
    assert_eq!((s, v["code"].as_str()), (409, Some("cannot-undo")), "{v}");
    play(&app, &id, &t).await;
    // A spectator, no token, a token of another game: not a player.
    for token in [None, Some(t2[0].as_str())] {
        let (s, v) = act(&app, &id, token, "takeback-offer").await;
        assert_eq!((s, v["code"].as_str()), (403, Some("watch-only")), "{v}");
    }
    let (s, v) = act(&app, &id, Some(&t[0]), "takeback-offer").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v["state"]["offer"],
        json!({"kind": "takeback", "seat": 0, "by": "attackers"})
    );
    // Twice: refused. Her own offer is not hers to answer.
    let (s, v) = act(&app, &id, Some(&t[0]), "takeback-offer").await;
    assert_eq!((s, v["code"].as_str()), (409, Some("offer-pending")), "{v}");
    let (s, v) = act(&app, &id, Some(&t[0]), "takeback-accept").await;
    assert_eq!((s, v["code"].as_str()), (409, Some("no-offer")), "{v}");
    let (s, v) = act(&app, &id, None, "takeback-accept").await;
    assert_eq!(s, 403, "{v}");
    // Declined: the move stands.
    let (s, v) = act(&app, &id, Some(&t[1]), "takeback-decline").await;
    assert_eq!(s, 200, "{v}");
    assert!(v["state"]["offer"].is_null());
    assert_eq!(v["state"]["version"], 1);
    let (s, _) = act(&app, &id, Some(&t[1]), "takeback-decline").await;
    assert_eq!(s, 409);
    // Offered again and accepted: the move is gone, her turn again.
    act(&app, &id, Some(&t[0]), "takeback-offer").await;
    let (s, v) = act(&app, &id, Some(&t[1]), "takeback-accept").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["state"]["version"], 0);
    assert_eq!(v["state"]["seat_to_act"], 0);
    assert!(v["state"]["offer"].is_null());
    // An offer lapses when the position moves on.
    play(&app, &id, &t).await;
    act(&app, &id, Some(&t[0]), "takeback-offer").await;
    let s = play(&app, &id, &t).await;
    assert!(s["offer"].is_null(), "{s}");
    // Both offer: the second offer accepts the first.
    act(&app, &id, Some(&t[1]), "takeback-offer").await;
    let (s, v) = act(&app, &id, Some(&t[0]), "takeback-offer").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["state"]["version"], 1);
    // After the end: nothing to take back.
    act(&app, &id, Some(&t[0]), "resign").await;
    for kind in ["takeback-offer", "claim"] {
        let (s, v) = act(&app, &id, Some(&t[0]), kind).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (409, Some("game-over")),
            "{kind}: {v}"
        );
    }
    // Against the computer a takeback needs nobody's agreement: undo.
    let g = create(
        &app,
        json!({"game": "ringo", "opponent": "engine", "side": "attackers", "level": 1}),
    )
    .await;
    let eid = g["id"].as_str().unwrap();
    let token = g["token"].as_str().unwrap();
    let m = g["state"]["moves"][0].as_str().unwrap().to_string();
    action(&app, eid, Some(token), mv(&m)).await;
    let (s, v) = act(&app, eid, Some(token), "takeback-offer").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["state"]["version"], 0);
    let _ = other;
}

#[tokio::test]
async fn a_rematch_is_offered_after_the_end_then_declined_or_accepted() {
    let app = talk_app("talk_rematch", Duration::from_secs(60)).await;
    let (id, t) = friend(&app, "ringo", json!({})).await;
    play(&app, &id, &t).await;
    let (s, v) = act(&app, &id, Some(&t[1]), "rematch-offer").await;
    assert_eq!(
        (s, v["code"].as_str()),
        (409, Some("rematch-before-end")),
        "{v}"
    );
    act(&app, &id, Some(&t[0]), "resign").await;
    let (s, v) = act(&app, &id, None, "rematch-offer").await;
    assert_eq!(s, 403, "{v}");
    let (s, v) = act(&app, &id, Some(&t[1]), "rematch-offer").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["state"]["offer"]["kind"], "rematch");
    assert!(v["state"]["rematch"].is_null(), "an offer moves nobody");
    let (s, v) = act(&app, &id, Some(&t[1]), "rematch-offer").await;
    assert_eq!((s, v["code"].as_str()), (409, Some("offer-pending")));
    let (s, v) = act(&app, &id, Some(&t[1]), "rematch-accept").await;
    assert_eq!((s, v["code"].as_str()), (409, Some("no-offer")), "{v}");
    let (s, v) = act(&app, &id, None, "rematch-accept").await;
    assert_eq!(s, 403, "{v}");
    let (s, v) = act(&app, &id, Some(&t[0]), "rematch-decline").await;
    assert_eq!(s, 200, "{v}");
    assert!(v["state"]["offer"].is_null());
    act(&app, &id, Some(&t[1]), "rematch-offer").await;
    let (s, v) = act(&app, &id, Some(&t[0]), "rematch-accept").await;
    assert_eq!(s, 200, "{v}");
    let new = v["rematch"].as_str().unwrap().to_string();
    let after = state(&app, &id).await;
    assert_eq!(after["rematch"], new.as_str());
    assert!(after["offer"].is_null());
    // The seats swap: the old defenders attack.
    let s = state(&app, &new).await;
    let m = s["moves"][0].as_str().unwrap().to_string();
    let (st, v) = action(&app, &new, Some(&t[1]), mv(&m)).await;
    assert_eq!(st, 200, "{v}");
    // Made already: no second offer.
    let (s, v) = act(&app, &id, Some(&t[1]), "rematch-offer").await;
    assert_eq!((s, v["code"].as_str()), (409, Some("no-offers")), "{v}");
    // The computer accepts at once, as before.
    let g = create(
        &app,
        json!({"game": "ringo", "opponent": "engine", "side": "attackers", "level": 1}),
    )
    .await;
    let eid = g["id"].as_str().unwrap();
    let token = g["token"].as_str().unwrap();
    act(&app, eid, Some(token), "resign").await;
    let (s, v) = act(&app, eid, Some(token), "rematch-offer").await;
    assert_eq!(s, 200, "{v}");
    assert!(v["rematch"].is_string(), "{v}");
}

#[tokio::test]
async fn the_win_is_claimed_only_once_the_opponent_has_been_gone_long_enough() {
    let app = talk_app("talk_claim", Duration::from_secs(2)).await;
    let (id, t) = friend(&app, "ringo", json!({})).await;
    // Not begun: abort, not claim.
    let (s, v) = act(&app, &id, Some(&t[0]), "claim").await;
    assert_eq!((s, v["code"].as_str()), (409, Some("cannot-claim")), "{v}");
    play(&app, &id, &t).await;
    play(&app, &id, &t).await;
    let (s, v) = act(&app, &id, Some(&t[0]), "claim").await;
    assert_eq!((s, v["code"].as_str()), (409, Some("cannot-claim")), "{v}");
    let (s, _) = act(&app, &id, None, "claim").await;
    assert_eq!(s, 403);
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let (s, v) = act(&app, &id, Some(&t[0]), "claim").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["state"]["over"], true);
    assert_eq!(v["state"]["winner"], "attackers");
    assert_eq!(v["state"]["reason"], "claim");
    let (_, list) = call(&app, "GET", &format!("/api/games?ids={id}"), None, None).await;
    assert_eq!(list["games"][0]["status"], "attackers-win", "{list}");
    // Reloaded from the store, it still says so.
    let s = state(&app, &id).await;
    assert_eq!(s["reason"], "claim");
    // A correspondence game is not claimed: its days decide.
    let (cid, ct) = friend(&app, "ringo", json!({"days": 1})).await;
    play(&app, &cid, &ct).await;
    play(&app, &cid, &ct).await;
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let (s, v) = act(&app, &cid, Some(&ct[0]), "claim").await;
    assert_eq!((s, v["code"].as_str()), (409, Some("cannot-claim")), "{v}");
}

/// The page counts the opponent's absence on from the server's measure
/// (`away_ms`, heard with who is connected) and offers the claim when its
/// count reaches the wait: that count must never run ahead of the server's
/// own, or the claim the page offers is refused. The store hears of a
/// closed socket in the background, so the first word after a close may be
/// measured before that write lands (a slow fsync is enough; here another
/// connection holds SQLite's write lock): it used to count from the
/// instance's last heartbeat, up to half a second before the socket closed.
#[tokio::test]
async fn the_absence_a_page_is_told_never_runs_ahead_of_the_claims() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    if std::env::var("AGON_TEST_STORE").as_deref() == Ok("postgres") {
        return; // The write lock held below is SQLite's.
    }
    let dir = std::env::temp_dir().join(format!("agon-talk-absence-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let wait = Duration::from_secs(2);
    let app = app(AppState::with_options(
        Store::open(&dir).unwrap(),
        Options {
            engine_delay: Duration::ZERO,
            claim_after: wait,
            ..Options::default()
        },
    ));
    let (id, t) = friend(&app, "ringo", json!({})).await;
    play(&app, &id, &t).await;
    play(&app, &id, &t).await;
    let addr = serve(app.clone()).await;
    let url = format!("ws://{addr}/api/games/{id}/ws");
    let hello =
        |token: &str| Message::Text(json!({"type": "hello", "token": token}).to_string().into());
    let (mut ann, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    ann.send(hello(&t[0])).await.unwrap();
    next_message(&mut ann, Some("hello")).await;
    let (mut ben, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    ben.send(hello(&t[1])).await.unwrap();
    next_message(&mut ben, Some("hello")).await;
    while next_message(&mut ann, Some("presence")).await["seats"][1] != true {}
    // Connected for a while, so that heartbeats fall between.
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    // Another connection holds the write lock while Ben's socket closes:
    // the store hears of it late, as after a slow fsync.
    let blocker = rusqlite::Connection::open(dir.join("agon.db")).unwrap();
    blocker.execute_batch("BEGIN IMMEDIATE").unwrap();
    let closed = std::time::Instant::now();
    drop(ben);
    let told = loop {
        let p = next_message(&mut ann, Some("presence")).await;
        if p["seats"][1] == false {
            break p["away_ms"][1].as_i64().expect("an absence measured");
        }
    };
    let heard = std::time::Instant::now();
    tokio::time::sleep(Duration::from_millis(300)).await;
    blocker.execute_batch("COMMIT").unwrap();
    drop(blocker);
    let since = (heard - closed).as_millis() as i64;
    assert!(
        told <= since,
        "told {told} ms gone, {since} ms after the socket closed"
    );
    // The page offers the claim when its count reaches the wait: the
    // server grants it then.
    let offered = wait.saturating_sub(Duration::from_millis(told as u64));
    tokio::time::sleep_until((heard + offered).into()).await;
    let (s, v) = act(&app, &id, Some(&t[0]), "claim").await;
    assert_eq!(s, 200, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

async fn say(
    app: &axum::Router,
    id: &str,
    token: Option<&str>,
    room: &str,
    text: &str,
) -> (u16, Value) {
    let (s, v) = call(
        app,
        "POST",
        &format!("/api/games/{id}/chat"),
        token,
        Some(&json!({"text": text, "room": room}).to_string()),
    )
    .await;
    (s.as_u16(), v)
}

#[tokio::test]
async fn chat_lines_lose_bidirectional_overrides() {
    let app = talk_app("talk_bidi", Duration::from_secs(60)).await;
    let (id, t) = friend(&app, "ringo", json!({})).await;
    // A right-to-left override would show `gnp.exe` as `exe.png`: it goes,
    // and so do the other embeddings and isolates.
    let (s, v) = say(&app, &id, Some(&t[0]), "players", "see \u{202E}gnp.exe").await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["line"]["text"], "see gnp.exe");
    let (s, v) = say(
        &app,
        &id,
        Some(&t[0]),
        "players",
        "\u{2067}a\u{2069}\u{202B}b\u{202C}",
    )
    .await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["line"]["text"], "ab");
}

#[tokio::test]
async fn chat_has_two_rooms_plain_short_lines_and_a_rate_limit() {
    let app = talk_app("talk_chat", Duration::from_secs(60)).await;
    let (id, t) = friend(&app, "ringo", json!({})).await;
    let (_, t2) = friend(&app, "ringo", json!({})).await;
    let (s, v) = say(
        &app,
        &id,
        Some(&t[0]),
        "players",
        "<script>alert(1)</script>",
    )
    .await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["line"]["text"], "<script>alert(1)</script>");
    assert_eq!(v["line"]["seat"], 0);
    assert_eq!(v["line"]["room"], "players");
    let (s, v) = say(&app, &id, None, "spectators", "  hello  ").await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["line"]["text"], "hello");
    assert!(v["line"]["seat"].is_null());
    // Each writes in her own room only; a token of another game is a
    // spectator's.
    for (token, room) in [
        (Some(t[1].as_str()), "spectators"),
        (None, "players"),
        (Some(t2[0].as_str()), "players"),
    ] {
        let (s, v) = say(&app, &id, token, room, "hi").await;
        assert_eq!(
            (s, v["code"].as_str()),
            (403, Some("wrong-room")),
            "{room}: {v}"
        );
    }
    // 140 characters (not bytes) pass, 141 do not; control characters,
    // empty lines, unknown rooms and fields are refused.
    let (s, v) = say(&app, &id, Some(&t[1]), "players", &"ż".repeat(140)).await;
    assert_eq!(s, 201, "{v}");
    for bad in [
        "ż".repeat(141),
        "a\nb".into(),
        "bell\u{7}".into(),
        "   ".into(),
        "\u{1b}[31m".into(),
        // Nothing a reader would see.
        "\u{200B}\u{200B}".into(),
        "\u{FEFF}".into(),
        "\u{00AD}\u{00AD}\u{00AD}".into(),
        "\u{2060} \u{200D}\u{3000}".into(),
        "\u{202E}".into(),
    ] {
        let (s, v) = say(&app, &id, Some(&t[1]), "players", &bad).await;
        assert_eq!(
            (s, v["code"].as_str()),
            (400, Some("bad-chat")),
            "{bad:?}: {v}"
        );
    }
    for body in [
        json!({"text": "x", "room": "lobby"}).to_string(),
        json!({"text": "x", "room": "players", "html": true}).to_string(),
        json!({"room": "players"}).to_string(),
        "{".into(),
    ] {
        let (s, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/chat"),
            Some(&t[0]),
            Some(&body),
        )
        .await;
        assert_eq!(s, 400, "{body}: {v}");
    }
    let (s, _) = say(&app, "nosuchgame", Some(&t[0]), "players", "x").await;
    assert_eq!(s, 404);
    // The players' room is theirs until the end.
    let url = format!("/api/games/{id}/chat?room=players");
    let (s, v) = call(&app, "GET", &url, None, None).await;
    assert_eq!(
        (s.as_u16(), v["code"].as_str()),
        (403, Some("wrong-room")),
        "{v}"
    );
    let (s, v) = call(&app, "GET", &url, Some(&t[1]), None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["lines"].as_array().unwrap().len(), 2);
    let (s, _) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/chat?room=kitchen"),
        None,
        None,
    )
    .await;
    assert_eq!(s, 400);
    let (s, v) = call(
        &app,
        "GET",
        &format!("/api/games/{id}/chat?room=spectators"),
        None,
        None,
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(v["lines"][0]["text"], "hello");
    // A flood: at most 5 lines in 10 s per writer.
    let mut refused = 0;
    for i in 0..8 {
        let (s, v) = say(&app, &id, Some(&t[0]), "players", &format!("line {i}")).await;
        match s {
            201 => {}
            429 => {
                assert_eq!(v["code"], "chat-flood");
                refused += 1;
            }
            other => panic!("{other}: {v}"),
        }
    }
    assert_eq!(refused, 4, "seat 0 wrote one line before the flood");
    // Kept with the game: after the end everyone reads the players' room.
    act(&app, &id, Some(&t[0]), "resign").await;
    let (s, v) = call(&app, "GET", &url, None, None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["lines"][0]["text"], "<script>alert(1)</script>");
}

#[tokio::test]
async fn a_correspondence_game_has_days_per_move_and_a_deadline() {
    let app = talk_app("talk_days", Duration::from_secs(60)).await;
    let (id, t) = friend(&app, "ringo", json!({"days": 3})).await;
    let s = state(&app, &id).await;
    assert_eq!(s["days"], 3);
    assert!(s["clock"].is_null(), "{s}");
    let now = agon_server::clock::now_ms();
    let day = 86_400_000;
    let deadline = s["deadline"].as_i64().unwrap();
    assert!(
        (now + 3 * day - 60_000..=now + 3 * day).contains(&deadline),
        "{deadline}"
    );
    play(&app, &id, &t).await;
    let s = play(&app, &id, &t).await;
    assert_eq!(s["seat_to_act"], 0);
    assert!(s["deadline"].as_i64().unwrap() >= now + 3 * day - 60_000);
    assert_eq!(s["abortable"], false);
    // Urgammon too, and hostile days.
    friend(&app, "urgammon", json!({"days": 7, "to": 3})).await;
    for (extra, code) in [
        (json!({"days": 4}), "bad-days"),
        (json!({"days": 0}), "bad-days"),
        (json!({"days": -1}), "bad-json"),
        (json!({"days": "3"}), "bad-json"),
        (json!({"days": 3, "clock": {"base_secs": 60}}), "bad-days"),
        (json!({"clock": {"base_secs": 60, "days": 5}}), "bad-clock"),
    ] {
        let mut body = json!({"game": "ringo", "opponent": "friend"});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (s, v) = call(&app, "POST", "/api/games", None, Some(&body.to_string())).await;
        assert_eq!(
            (s.as_u16(), v["code"].as_str()),
            (400, Some(code)),
            "{body}: {v}"
        );
    }
    let (s, v) = call(
        &app,
        "POST",
        "/api/games",
        None,
        Some(&json!({"game": "ringo", "opponent": "engine", "days": 3}).to_string()),
    )
    .await;
    assert_eq!(
        (s.as_u16(), v["code"].as_str()),
        (400, Some("bad-clock")),
        "{v}"
    );
    // Seeks and quick pairing by correspondence.
    let (s, v) = call(
        &app,
        "POST",
        "/api/seeks",
        None,
        Some(&json!({"game": "ringo", "days": 2}).to_string()),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    let (_, list) = call(&app, "GET", "/api/seeks", None, None).await;
    assert_eq!(list["seeks"][0]["clock_label"], "2d", "{list}");
    let (s, v) = call(
        &app,
        "POST",
        "/api/seeks",
        None,
        Some(&json!({"game": "ringo", "days": 5}).to_string()),
    )
    .await;
    assert_eq!(
        (s.as_u16(), v["code"].as_str()),
        (400, Some("bad-days")),
        "{v}"
    );
    let (s, a) = call(&app, "POST", "/api/pools/ringo-even-3d", None, None).await;
    assert_eq!(s, 201, "{a}");
    let (s, b) = call(&app, "POST", "/api/pools/ringo-even-3d", None, None).await;
    assert_eq!(s, 201, "{b}");
    let game = b["game"].as_str().or(a["game"].as_str()).expect("paired");
    assert_eq!(state(&app, game).await["days"], 3);
}

#[tokio::test]
async fn the_your_turn_list_names_the_games_waiting_for_the_player() {
    let app = talk_app("talk_turns", Duration::from_secs(60)).await;
    let (a, ta) = friend(&app, "ringo", json!({"days": 1})).await;
    let (b, tb) = friend(&app, "ringo", json!({})).await;
    play(&app, &b, &tb).await;
    let body = json!({"games": [{"id": a, "token": ta[0]}, {"id": b, "token": tb[0]}]}).to_string();
    let (s, v) = call(&app, "POST", "/api/turns", None, Some(&body)).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["your_turn"], 1);
    assert_eq!(v["games"][0]["id"], a.as_str());
    assert_eq!(v["games"][0]["your_turn"], true);
    assert_eq!(v["games"][0]["days"], 1);
    assert!(v["games"][0]["deadline"].is_i64());
    assert!(v["games"][0]["clock"].is_null(), "days per move: no clock");
    assert_eq!(v["games"][1]["your_turn"], false);
    // A live game: its time control and the asker's time left.
    let (c, tc) = friend(
        &app,
        "ringo",
        json!({"clock": {"base_secs": 300, "increment_secs": 3}}),
    )
    .await;
    let live = json!({"games": [{"id": c, "token": tc[0]}]}).to_string();
    let (s, v) = call(&app, "POST", "/api/turns", None, Some(&live)).await;
    assert_eq!(s, 200, "{v}");
    let clock = &v["games"][0]["clock"];
    assert_eq!(
        (&clock["base_ms"], &clock["increment_ms"], &clock["left_ms"]),
        (&json!(300_000), &json!(3_000), &json!(300_000)),
        "{v}"
    );
    assert_eq!(clock["running"], false, "not before both first decisions");
    say(&app, &b, Some(&tb[1]), "players", "good luck").await;
    act(&app, &b, Some(&tb[0]), "takeback-offer").await;
    let (_, v) = call(&app, "POST", "/api/turns", None, Some(&body)).await;
    let g = v["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == b.as_str())
        .unwrap()
        .clone();
    assert_eq!(g["chat"]["text"], "good luck");
    assert_eq!(g["offer"]["kind"], "takeback");
    // A wrong token, a bad id, an ended game: not listed.
    act(&app, &b, Some(&tb[0]), "resign").await;
    let body = json!({"games": [{"id": a, "token": tb[1]}, {"id": "../x", "token": "t"}, {"id": b, "token": tb[0]}]}).to_string();
    let (s, v) = call(&app, "POST", "/api/turns", None, Some(&body)).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["games"], json!([]));
    let many: Vec<Value> = (0..201)
        .map(|i| json!({"id": format!("g{i}"), "token": "t"}))
        .collect();
    for bad in [
        json!({"games": many}).to_string(),
        json!({"games": [], "all": true}).to_string(),
        "5".into(),
        "{\"games\": [{\"id\": 1}]}".into(),
    ] {
        let (s, _) = call(&app, "POST", "/api/turns", None, Some(&bad)).await;
        assert_eq!(s, 400);
    }
}

#[tokio::test]
async fn push_subscriptions_are_checked() {
    let app = talk_app("talk_push", Duration::from_secs(60)).await;
    let (s, v) = call(&app, "GET", "/api/push/key", None, None).await;
    assert_eq!(s, 200);
    let key = v["public_key"].as_str().unwrap().to_string();
    assert_eq!(key.len(), 87, "65 bytes in base64url");
    let (_, again) = call(&app, "GET", "/api/push/key", None, None).await;
    assert_eq!(again["public_key"], key.as_str(), "one key, kept");
    let (id, t) = friend(&app, "ringo", json!({"days": 2})).await;
    let (p256dh, auth) = (P256DH, AUTH);
    let sub = |endpoint: &str, p: &str, a: &str| {
        json!({"subscription": {"endpoint": endpoint, "keys": {"p256dh": p, "auth": a}},
               "games": [{"id": id, "token": t[1]}], "lang": "pl"})
        .to_string()
    };
    let (s, v) = call(
        &app,
        "POST",
        "/api/push/subscriptions",
        None,
        Some(&sub("https://push.example.com/send/abc", p256dh, auth)),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["games"], json!([id]));
    for (body, why) in [
        (sub("http://push.example.com/x", p256dh, auth), "plain http"),
        (sub("https://localhost/x", p256dh, auth), "this machine"),
        (sub("https://127.0.0.1/x", p256dh, auth), "an address"),
        (
            sub("https://10.0.0.7:8443/x", p256dh, auth),
            "a private address",
        ),
        (sub("https://[::1]/x", p256dh, auth), "IPv6 loopback"),
        (
            sub("https://metadata.internal/x", p256dh, auth),
            "an internal name",
        ),
        (sub("file:///etc/passwd", p256dh, auth), "a file"),
        (sub("not a url", p256dh, auth), "not a URL"),
        (
            sub(
                &format!("https://push.example.com/{}", "a".repeat(1100)),
                p256dh,
                auth,
            ),
            "too long",
        ),
        (sub("https://push.example.com/x", "BAAA", auth), "not a key"),
        (
            sub("https://push.example.com/x", &"A".repeat(87), auth),
            "not a point",
        ),
        (
            sub("https://push.example.com/x", p256dh, "short"),
            "short auth",
        ),
    ] {
        let (s, v) = call(&app, "POST", "/api/push/subscriptions", None, Some(&body)).await;
        assert_eq!(
            (s.as_u16(), v["code"].as_str()),
            (400, Some("bad-subscription")),
            "{why}: {v}"
        );
    }
    let lang = json!({"subscription": {"endpoint": "https://push.example.com/y", "keys": {"p256dh": P256DH, "auth": AUTH}}, "lang": "de"}).to_string();
    let (s, _) = call(&app, "POST", "/api/push/subscriptions", None, Some(&lang)).await;
    assert_eq!(s, 400);
    let (s, _) = call(
        &app,
        "POST",
        "/api/push/subscriptions",
        None,
        Some("{\"subscription\": 1}"),
    )
    .await;
    assert_eq!(s, 400);
    let del = json!({"endpoint": "https://push.example.com/send/abc"}).to_string();
    let (s, v) = call(&app, "DELETE", "/api/push/subscriptions", None, Some(&del)).await;
    assert_eq!(s, 200, "{v}");
    let (s, _) = call(
        &app,
        "DELETE",
        "/api/push/subscriptions",
        None,
        Some("{\"endpoint\": 5}"),
    )
    .await;
    assert_eq!(s, 400);
}

/// Two instances on one PostgreSQL database, or `None` without a test
/// server; opponents may be claimed against after a second, and push
/// endpoints on this machine are taken (the test's own push service).
async fn two_instances(test: &str) -> Option<(AppState, AppState)> {
    let options = Options {
        engine_delay: Duration::ZERO,
        claim_after: Duration::from_secs(1),
        push: common::loopback_push(),
        ..Options::default()
    };
    let (a, b, _) = common::two_instances(test, options).await?;
    Some((a, b))
}

/// Waits until `f` holds of the game's state on `app` (another instance's
/// change comes by announcement).
async fn until(app: &axum::Router, id: &str, f: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..100 {
        let s = state(app, id).await;
        if f(&s) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the state never came: {}", state(app, id).await);
}

#[tokio::test]
async fn offers_chat_claims_and_pushes_cross_two_instances() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let Some((a, b)) = two_instances("talk_two").await else {
        return;
    };
    let (app_a, app_b) = (app(a), app(b));
    let (id, t) = friend(&app_a, "ringo", json!({})).await;
    play(&app_a, &id, &t).await;
    // A takeback offered through A is accepted through B.
    let (s, v) = act(&app_a, &id, Some(&t[0]), "takeback-offer").await;
    assert_eq!(s, 200, "{v}");
    until(&app_b, &id, |s| s["offer"]["kind"] == "takeback").await;
    let (s, v) = act(&app_b, &id, Some(&t[1]), "takeback-accept").await;
    assert_eq!(s, 200, "{v}");
    until(&app_a, &id, |s| s["version"] == 0 && s["offer"].is_null()).await;
    // Chat written through A reaches a player's socket on B (and not a
    // spectator's there).
    let addr_b = serve(app_b.clone()).await;
    let ws_url = format!("ws://{addr_b}/api/games/{id}/ws");
    let (mut ben, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    ben.send(Message::Text(
        json!({"type": "hello", "token": t[1]}).to_string().into(),
    ))
    .await
    .unwrap();
    next_message(&mut ben, Some("hello")).await;
    // A's players see Ben connected, though his socket is on B.
    let presence = |want: bool| {
        let (app_a, id) = (app_a.clone(), id.clone());
        async move {
            for _ in 0..100 {
                let (_, g) = call(&app_a, "GET", &format!("/api/games/{id}"), None, None).await;
                if g["presence"][1] == want {
                    return true;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            false
        }
    };
    assert!(presence(true).await, "A sees Ben's socket on B");
    let (mut watcher, _) = tokio_tungstenite::connect_async(&ws_url).await.unwrap();
    next_message(&mut watcher, Some("state")).await;
    let (s, v) = say(&app_a, &id, Some(&t[0]), "players", "from A").await;
    assert_eq!(s, 201, "{v}");
    let (s, _) = say(&app_a, &id, None, "spectators", "a spectator on A").await;
    assert_eq!(s, 201);
    let line = next_message(&mut ben, Some("chat")).await;
    assert_eq!(line["line"]["text"], "from A");
    let seen = next_message(&mut watcher, Some("chat")).await;
    assert_eq!(
        seen["line"]["text"], "a spectator on A",
        "spectators never get the players' lines"
    );
    // Ben is on B: A will not let Ann claim the win; once his socket
    // closes and a second passes, it will.
    play(&app_a, &id, &t).await;
    play(&app_a, &id, &t).await;
    tokio::time::sleep(Duration::from_millis(1_300)).await;
    let (s, v) = act(&app_a, &id, Some(&t[0]), "claim").await;
    assert_eq!((s, v["code"].as_str()), (409, Some("cannot-claim")), "{v}");
    // A push subscription made through A hears of a move made through B.
    let (push_addr, mut rx) = common::push_service("/push").await;
    let (cid, ct) = friend(&app_a, "ringo", json!({"days": 2})).await;
    subscribe(&app_a, &format!("http://{push_addr}/push"), &cid, &ct[1]).await;
    play(&app_b, &cid, &ct).await;
    let body = tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("a push within 10 s")
        .unwrap();
    assert!(body.len() > 16 + 4 + 1 + 65 + 16, "an encrypted message");
    drop(ben);
    assert!(presence(false).await, "A sees Ben gone from B");
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let (s, v) = act(&app_a, &id, Some(&t[0]), "claim").await;
    assert_eq!(s, 200, "{v}");
    until(&app_b, &id, |s| s["reason"] == "claim").await;
}

#[tokio::test]
async fn a_rated_games_takebacks_need_both_players_leave() {
    let app = talk_app("talk_rated_takeback", Duration::from_secs(60)).await;
    let (ala, ola) = (signup(&app, "ala").await, signup(&app, "ola").await);
    let (s, g) = as_account(
        &app,
        &ala,
        "POST",
        "/api/games",
        Some(json!({"game": "ringo", "opponent": "friend", "side": "attackers", "rated": true})),
    )
    .await;
    assert_eq!(s, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let (s, j) = as_account(
        &app,
        &ola,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"invite": g["invite"]})),
    )
    .await;
    assert_eq!(s, 200, "{j}");
    let first = g["state"]["moves"][0].as_str().unwrap().to_string();
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        &format!("/api/games/{id}/action"),
        Some(mv(&first)),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    // Ola turns takebacks off: Ala may not ask.
    let (s, _) = as_account(
        &app,
        &ola,
        "PUT",
        "/api/account/settings",
        Some(json!({"takebacks": false})),
    )
    .await;
    assert_eq!(s, 200);
    let offer = Some(json!({"type": "takeback-offer"}));
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        &format!("/api/games/{id}/action"),
        offer.clone(),
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (409, Some("takebacks-off")), "{v}");
    let (s, _) = as_account(
        &app,
        &ola,
        "PUT",
        "/api/account/settings",
        Some(json!({"takebacks": "no"})),
    )
    .await;
    assert_eq!(s, 400, "a setting is a boolean");
    // Both allow them (the default): she may.
    as_account(
        &app,
        &ola,
        "PUT",
        "/api/account/settings",
        Some(json!({"takebacks": true})),
    )
    .await;
    let (s, v) = as_account(
        &app,
        &ala,
        "POST",
        &format!("/api/games/{id}/action"),
        offer,
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = as_account(
        &app,
        &ola,
        "POST",
        &format!("/api/games/{id}/action"),
        Some(json!({"type": "takeback-accept"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["state"]["version"], 0);
}

#[tokio::test]
async fn a_side_that_runs_out_of_days_loses() {
    let dir = std::env::temp_dir().join(format!("agon-days-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let options = || Options {
        engine_delay: Duration::ZERO,
        ..Options::default()
    };
    let first_state = AppState::with_options(Store::open(&dir).unwrap(), options());
    let first = app(first_state.clone());
    let (id, t) = friend(&first, "urgammon", json!({"days": 1, "to": 3})).await;
    // Both sides make their first decisions; then the side to act thinks.
    for _ in 0..8 {
        let s = state(&first, &id).await;
        if s["abortable"] == false {
            break;
        }
        let seat = s["seat_to_act"].as_u64().unwrap() as usize;
        let next = common::urgammon_step(&s, false);
        let (st, v) = action(&first, &id, Some(&t[seat]), next).await;
        assert_eq!(st, 200, "{v}");
    }
    let s = state(&first, &id).await;
    assert_eq!(s["abortable"], false, "{s}");
    let loser = s["seat_to_act"].as_u64().unwrap();
    // The first instance stops: none of its tasks writes the game after
    // the test edits it below.
    first_state.stop().await;
    drop(first);
    drop(first_state);
    // Two days pass while the side to act thinks (its turn began two days
    // ago, as the store now says), and the server starts again: the day
    // has run out, and the match is lost on time.
    let db = rusqlite::Connection::open(dir.join("agon.db")).unwrap();
    let clock: String = db
        .query_row("SELECT clock FROM games WHERE id = ?1", [&id], |r| r.get(0))
        .unwrap();
    let mut clock: Value = serde_json::from_str(&clock).unwrap();
    clock["since_ms"] = json!(clock["since_ms"].as_i64().unwrap() - 2 * 86_400_000);
    db.execute(
        "UPDATE games SET clock = ?1 WHERE id = ?2",
        (clock.to_string(), &id),
    )
    .unwrap();
    drop(db);
    let second = app(AppState::with_options(
        Store::open(&dir).unwrap(),
        options(),
    ));
    let mut s = state(&second, &id).await;
    for _ in 0..60 {
        if s["over"] == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        s = state(&second, &id).await;
    }
    assert_eq!(s["over"], true, "{s}");
    assert_eq!(s["reason"], "time");
    let names = ["light", "dark"];
    assert_eq!(s["match"]["winner"], names[1 - loser as usize], "{s}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn one_move_is_pushed_to_ten_subscriptions_at_most() {
    let app = app(AppState::with_options(
        Store::in_memory().unwrap(),
        Options {
            engine_delay: Duration::ZERO,
            push: common::loopback_push(),
            ..Options::default()
        },
    ));
    let hits = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = hits.clone();
    let push = axum::Router::new().route(
        "/push/{n}",
        axum::routing::post(move || {
            let hits = counted.clone();
            async move {
                hits.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                axum::http::StatusCode::CREATED
            }
        }),
    );
    let at = serve(push).await;
    let (id, t) = friend(&app, "ringo", json!({"days": 1})).await;
    // One client registers twelve browsers for the defenders' seat.
    for n in 0..12 {
        subscribe(&app, &format!("http://{at}/push/{n}"), &id, &t[1]).await;
    }
    play(&app, &id, &t).await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), 10);
}

#[tokio::test]
async fn the_lessons_done_are_kept_on_the_account_and_checked() {
    let app = talk_app("talk_learn", Duration::from_secs(60)).await;
    let ola = signup(&app, "ola").await;
    let good = json!({"learn": {"ringo": ["move-inward", "capture"], "urgammon": ["enter-pawn"]}});
    let (s, v) = as_account(&app, &ola, "PUT", "/api/account/settings", Some(good)).await;
    assert_eq!(s, 200, "{v}");
    let (_, a) = as_account(&app, &ola, "GET", "/api/account", None).await;
    assert_eq!(
        a["settings"]["learn"]["ringo"],
        json!(["move-inward", "capture"])
    );
    let many: Vec<String> = (0..101).map(|i| format!("l{i}")).collect();
    for bad in [
        json!({"learn": {"chess": ["x"]}}),
        json!({"learn": {"ringo": ["<script>"]}}),
        json!({"learn": {"ringo": ["x".repeat(41)]}}),
        json!({"learn": {"ringo": [""]}}),
        json!({"learn": {"ringo": many}}),
        json!({"learn": {"ringo": "move-inward"}}),
        json!({"learn": ["ringo"]}),
    ] {
        let (s, v) = as_account(
            &app,
            &ola,
            "PUT",
            "/api/account/settings",
            Some(bad.clone()),
        )
        .await;
        assert_eq!(s, 400, "{bad}: {v}");
    }
}
