//! Players talking and hearing of their games: a game's chat
//! (`POST`/`GET /api/games/{id}/chat`), the player's games waiting for her
//! (`POST /api/turns`: the **Your turn** list and what a page notifies of),
//! and Web Push subscriptions (`GET /api/push/key`, `POST`/`DELETE
//! /api/push/subscriptions`).

use super::{parse_json, token_from};
use crate::games::players;
use crate::games::talk;
use crate::http::error::{ApiError, ErrorCode};
use crate::http::limits::Client;
use crate::http::signed::Viewer;
use crate::model::Seat;
use crate::session::OfferView;
use crate::state::AppState;
use crate::store::{ChatLine, ListQuery, PushTarget, Room};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::{Deserialize, Serialize};

/// `POST /api/games/{id}/chat`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatRequest {
    text: String,
    room: Room,
}

/// A line written.
#[derive(Serialize)]
pub struct Written {
    /// The line as stored.
    pub line: ChatLine,
}

/// `POST /api/games/{id}/chat {"text", "room": "players"|"spectators"}`:
/// a player writes in the players' room, anyone else in the spectators'.
pub async fn write(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
    Client(client): Client,
    body: Bytes,
) -> Result<(StatusCode, Json<Written>), ApiError> {
    let req: ChatRequest = parse_json(&body)?;
    let (slot, seats) = players::slot_and_seats(
        app.games(),
        &id,
        token_from(&headers).as_deref(),
        viewer.account_id(),
    )
    .await?;
    let writer = super::seeks::who(&viewer);
    let line = talk::write_chat(
        app.games(),
        &slot,
        &seats,
        writer.as_ref(),
        req.room,
        &req.text,
        &client.to_string(),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(Written { line })))
}

/// `GET /api/games/{id}/chat?room=`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatQuery {
    room: Room,
}

/// A room's lines.
#[derive(Serialize)]
pub struct Lines {
    /// The room's last lines, oldest first.
    pub lines: Vec<ChatLine>,
}

/// `GET /api/games/{id}/chat?room=players|spectators`: the players' room is
/// theirs until the game ends, then everyone's (the replay shows it).
pub async fn read(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
    query: Result<Query<ChatQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Lines>, ApiError> {
    let Query(q) = query.map_err(|e| {
        ApiError::BadRequest(
            ErrorCode::BadJson,
            format!("room is players or spectators: {e}"),
        )
    })?;
    let (slot, seats) = players::slot_and_seats(
        app.games(),
        &id,
        token_from(&headers).as_deref(),
        viewer.account_id(),
    )
    .await?;
    let lines = talk::read_chat(
        app.games(),
        &slot,
        &seats,
        q.room,
        super::seeks::who(&viewer).as_ref(),
    )
    .await?;
    Ok(Json(Lines { lines }))
}

/// A game the asker holds a seat in, named with its token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Held {
    id: String,
    token: String,
}

/// `POST /api/turns`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnsRequest {
    #[serde(default)]
    games: Vec<Held>,
}

/// The most games one request names.
pub const MAX_TURN_GAMES: usize = 200;

/// One of the asker's games in play.
#[derive(Serialize)]
pub struct Turn {
    /// The game's id.
    pub id: String,
    /// Which game.
    pub game: crate::model::Kind,
    /// Its rules or match header.
    pub settings: String,
    /// The asker's seats.
    pub you: Vec<Seat>,
    /// It is the asker's turn.
    pub your_turn: bool,
    /// Its revision (a page notifies when it rises).
    pub revision: i64,
    /// Correspondence: days per move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
    /// Correspondence: when the side to act runs out of days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
    /// An offer waiting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offer: Option<OfferView>,
    /// The opponent's account name, when she has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opponent: Option<String>,
    /// The id of the players' last chat line (a page notifies when it
    /// rises and the line is the opponent's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat: Option<ChatLine>,
    /// A live game's clock: its time control and the asker's time left.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<TurnClock>,
}

/// A live game's clock, as the **Your turn** list says it.
#[derive(Serialize)]
pub struct TurnClock {
    /// Each side's time at the start, in milliseconds.
    pub base_ms: i64,
    /// Added after each turn, in milliseconds.
    pub increment_ms: i64,
    /// The asker's time left now, in milliseconds.
    pub left_ms: i64,
    /// Whether the asker's clock runs now.
    pub running: bool,
}

/// The asker's games in play.
#[derive(Serialize)]
pub struct Turns {
    /// Those waiting for her first (by deadline), then the others.
    pub games: Vec<Turn>,
    /// How many wait for her.
    pub your_turn: usize,
}

/// `POST /api/turns {"games": [{"id", "token"}]}`: the asker's games in
/// play between people (those named with their tokens, and her account's),
/// whose turn each is, its deadline, any offer and the last chat line. The
/// **Your turn** list, the menu's count and the page's notifications read
/// it.
pub async fn turns(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Json<Turns>, ApiError> {
    let req: TurnsRequest = parse_json(&body)?;
    if req.games.len() > MAX_TURN_GAMES {
        return Err(ApiError::BadRequest(
            ErrorCode::BadJson,
            format!("at most {MAX_TURN_GAMES} games a request"),
        ));
    }
    let held: std::collections::HashMap<String, String> = req
        .games
        .into_iter()
        .filter(|h| crate::store::is_game_id(&h.id) && h.token.len() <= 128)
        .map(|h| (h.id, h.token))
        .collect();
    let account = viewer.account_id();
    if held.is_empty() && account.is_none() {
        return Ok(Json(Turns {
            games: vec![],
            your_turn: 0,
        }));
    }
    let rows = app
        .store()
        .list(&ListQuery {
            limit: MAX_TURN_GAMES,
            ids: Some(held.keys().cloned().collect()),
            after: None,
            account,
        })
        .await?;
    // Each reader's blocks, read once for the whole list.
    let me = super::seeks::who(&viewer);
    let mut blocks = crate::games::BlocksRead::default();
    let mut games = vec![];
    for (row, _) in rows {
        if row.status != crate::model::Status::Ongoing || row.mode != crate::model::Mode::Friend {
            continue;
        }
        let slot = app.games().slot(&row.id).await?;
        let turn = {
            let s = slot.session.lock().await;
            let you = s.seats_held(held.get(&row.id).map(String::as_str), account);
            let Some(&seat) = you.first() else { continue };
            // What the list needs, not the whole state (every open tab
            // asks every few seconds).
            Turn {
                id: row.id.clone(),
                game: row.kind,
                settings: row.settings.clone(),
                your_turn: s.seat_to_act().is_some_and(|t| you.contains(&t)),
                revision: s.revision(),
                days: s.days(),
                deadline: s.days_deadline(),
                offer: s.offer_view(),
                opponent: s.player(seat.other()).name,
                clock: s
                    .clock_view(crate::clock::now_ms())
                    .filter(|_| !s.correspondence())
                    .map(|c| TurnClock {
                        base_ms: c.base_ms,
                        increment_ms: c.increment_ms,
                        left_ms: c.remaining_ms[seat.index()],
                        running: c.running == Some(seat),
                    }),
                you,
                chat: None,
            }
        };
        let chat =
            talk::last_line_for(app.games(), &slot, &turn.you, me.clone(), &mut blocks).await?;
        games.push(Turn { chat, ..turn });
    }
    games.sort_by_key(|t| (!t.your_turn, t.deadline.unwrap_or(i64::MAX)));
    let your_turn = games.iter().filter(|t| t.your_turn).count();
    Ok(Json(Turns { games, your_turn }))
}

/// `GET /api/push/key`'s answer.
#[derive(Serialize)]
pub struct PushKey {
    /// The server's VAPID public key (the browser's
    /// `applicationServerKey`), base64url.
    pub public_key: String,
}

/// `GET /api/push/key`: the key a browser subscribes with.
pub async fn key(State(app): State<AppState>) -> Result<Json<PushKey>, ApiError> {
    let keys = app
        .pusher()
        .keys(app.store())
        .await
        .map_err(ApiError::Internal)?;
    Ok(Json(PushKey {
        public_key: keys.public.clone(),
    }))
}

/// A subscription's keys, as the browser's `PushSubscription.toJSON()`
/// gives them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubscriptionKeys {
    p256dh: String,
    auth: String,
}

/// The browser's subscription.
#[derive(Deserialize)]
pub struct Subscription {
    endpoint: String,
    keys: SubscriptionKeys,
}

/// `POST /api/push/subscriptions`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubscribeRequest {
    subscription: Subscription,
    /// The games (with their tokens) to hear of; signed in, the account's
    /// games are heard of besides.
    #[serde(default)]
    games: Vec<Held>,
    /// The language of the notifications: en, pl or fr.
    #[serde(default)]
    lang: Option<String>,
}

/// A subscription stored.
#[derive(Serialize)]
pub struct Subscribed {
    /// Its id.
    pub id: String,
    /// The games (of those named) it hears of.
    pub games: Vec<String>,
}

/// `POST /api/push/subscriptions {"subscription": {"endpoint", "keys":
/// {"p256dh", "auth"}}, "games": [{"id", "token"}], "lang"}` → 201: the
/// browser hears of its turn (correspondence), offers and chat in these
/// games (and, signed in, in all its account's). Posting again adds games.
pub async fn subscribe(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<(StatusCode, Json<Subscribed>), ApiError> {
    let req: SubscribeRequest = parse_json(&body)?;
    let bad =
        |e: crate::push::BadSubscription| ApiError::BadRequest(ErrorCode::BadSubscription, e.0);
    let endpoint =
        crate::push::endpoint(&req.subscription.endpoint, app.pusher().options()).map_err(bad)?;
    crate::push::browser_keys(&req.subscription.keys.p256dh, &req.subscription.keys.auth)
        .map_err(bad)?;
    if req.games.len() > MAX_TURN_GAMES {
        return Err(ApiError::BadRequest(
            ErrorCode::BadSubscription,
            format!("at most {MAX_TURN_GAMES} games a request"),
        ));
    }
    let lang = match req.lang.as_deref() {
        None => "en".to_string(),
        Some(l @ ("en" | "pl" | "fr")) => l.to_string(),
        Some(l) => {
            return Err(ApiError::BadRequest(
                ErrorCode::BadSubscription,
                format!("unknown language '{l}': en, pl or fr"),
            ))
        }
    };
    // Only the seats the tokens really hold.
    let mut seats = vec![];
    for held in &req.games {
        if !crate::store::is_game_id(&held.id) {
            continue;
        }
        let Ok(slot) = app.games().slot(&held.id).await else {
            continue;
        };
        let s = slot.session.lock().await;
        for seat in s.seats_for(Some(&held.token)) {
            seats.push((held.id.clone(), seat));
        }
    }
    let games = seats.iter().map(|(g, _)| g.clone()).collect();
    let id = app
        .store()
        .subscribe(
            PushTarget {
                id: crate::secrets::secret()?,
                endpoint: endpoint.to_string(),
                p256dh: req.subscription.keys.p256dh,
                auth: req.subscription.keys.auth,
                account: viewer.account_id(),
                lang,
            },
            seats,
        )
        .await?;
    Ok((StatusCode::CREATED, Json(Subscribed { id, games })))
}

/// `DELETE /api/push/subscriptions`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnsubscribeRequest {
    endpoint: String,
}

/// `DELETE /api/push/subscriptions {"endpoint"}`: the browser hears no
/// more (whoever knows the endpoint, a secret of the browser's, may ask).
pub async fn unsubscribe(
    State(app): State<AppState>,
    body: Bytes,
) -> Result<Json<crate::http::api::account_answers::Done>, ApiError> {
    let req: UnsubscribeRequest = parse_json(&body)?;
    if req.endpoint.len() > 1024 {
        return Err(ApiError::BadRequest(
            ErrorCode::BadSubscription,
            "the endpoint is longer than 1,024 characters".into(),
        ));
    }
    // Known or not, it is gone now.
    app.store().unsubscribe(&req.endpoint).await?;
    Ok(Json(crate::http::api::account_answers::Done { ok: true }))
}
