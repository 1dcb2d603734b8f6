//! Games: create (from typed, validated settings), import, read, the
//! record, and the state at any ply for replays.

use super::{parse_json, token_from};
use crate::games::round;
use crate::games::talk;
pub(crate) use crate::games::{new_row, open_game, NewGame};
use crate::http::error::ApiError;
use crate::http::error::ErrorCode;
use crate::http::signed::Viewer;
use crate::kinds::SettingsFields;
use crate::model::{InviteSeats, Seat};
use crate::secrets;
use crate::session::{Kind, Mode, Session, SessionView};
use crate::state::AppState;
use crate::store::SeatAccount;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /api/games`: what a new game is to be. Numbers may come as JSON
/// numbers or as strings of digits (form fields); anything else is refused
/// with a message that names the field.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    game: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    opponent: Option<String>,
    #[serde(default)]
    level: Option<Value>,
    #[serde(default)]
    side: Option<String>,
    #[serde(default)]
    to: Option<Value>,
    #[serde(default)]
    draw: Option<String>,
    #[serde(default)]
    stake: Option<Value>,
    /// Rated: between two accounts (a friend game whose friend joins signed
    /// in). Casual by default.
    #[serde(default)]
    rated: Option<bool>,
    /// A live game's clock: `{"base_secs": 300, "increment_secs": 3}`
    /// (friend games).
    #[serde(default)]
    clock: Option<crate::clock::ClockSettings>,
    /// A correspondence game: days per move (1, 2, 3 or 7), instead of a
    /// clock (friend games).
    #[serde(default)]
    days: Option<u32>,
}

/// The answer to creating (or importing) a game.
#[derive(Serialize)]
pub struct Created {
    /// The game's id.
    pub id: String,
    /// The creator's seat token: send it as `x-agon-token` to act.
    pub token: String,
    /// Friend games: the one-time invite code for the other seat (the same
    /// value as `invite`; kept for older clients).
    pub invite_token: Option<String>,
    /// Friend games: the one-time invite code, for `POST /api/games/{id}/join`.
    pub invite: Option<String>,
    /// Friend games: the invite link's path, `/g/{id}?invite=CODE`.
    pub invite_url: Option<String>,
    /// The creator's seats.
    pub you: Vec<Seat>,
    /// The game's state.
    pub state: SessionView,
}

/// `GET /api/games/{id}`.
#[derive(Serialize)]
pub struct GameAnswer {
    /// The game's state.
    pub state: SessionView,
    /// The seats the request's token holds (none for a spectator).
    pub you: Vec<Seat>,
    /// Which seats have a player connected over the WebSocket.
    pub presence: [bool; 2],
    /// How long (milliseconds) the opponent of a live game between people
    /// must be gone before the win may be claimed (the server's setting).
    pub claim_after_ms: i64,
    /// How long each seat's player has been gone, as a claim measures it
    /// (null: connected, or no claim is possible in this game now); the
    /// socket's `presence` messages carry the same.
    pub away_ms: [Option<i64>; 2],
}

/// A whole number from JSON: a number, or a string of digits as a form
/// field sends it: no padding, no sign, no leading zero (`" 3"`, `"+3"` and
/// `"03"` are refused, so one value has one spelling).
pub(super) fn whole(
    v: &Value,
    what: &str,
    range: std::ops::RangeInclusive<u32>,
) -> Result<u32, ApiError> {
    let n = match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s)
            if !s.is_empty()
                && s.bytes().all(|b| b.is_ascii_digit())
                && (s == "0" || !s.starts_with('0')) =>
        {
            s.parse().ok()
        }
        _ => None,
    };
    n.and_then(|n| u32::try_from(n).ok())
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            ApiError::BadRequest(
                ErrorCode::BadNumber,
                format!(
                    "invalid {what} {v}: {what} is a whole number; use {} to {}",
                    range.start(),
                    range.end()
                ),
            )
        })
}

/// The match target of a request: a whole number from 1 to 99, 7 by default.
fn match_target(req: &CreateRequest) -> Result<u32, ApiError> {
    match &req.to {
        None | Some(Value::Null) => Ok(7),
        Some(v) => whole(v, "target", 1..=99).map_err(|_| {
            ApiError::BadRequest(
                ErrorCode::BadMatchTarget,
                format!(
                    "invalid target {v}: the match target is a whole number of points; use 1 to 99"
                ),
            )
        }),
    }
}

/// The stake of a request as written: a string, or a JSON number's text.
fn stake_text(req: &CreateRequest) -> Result<Option<String>, ApiError> {
    match &req.stake {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(Value::Number(n)) => Ok(Some(n.to_string())),
        Some(v) => Err(ApiError::BadRequest(
            ErrorCode::BadStake,
            format!("invalid stake {v}: use a number such as 10 or 2.50"),
        )),
    }
}

/// A request's time control: a live clock or days per move (not both),
/// as one clock setting.
///
/// # Errors
/// Both, or days other than 1, 2, 3 or 7.
pub(crate) fn time_control(
    clock: Option<crate::clock::ClockSettings>,
    days: Option<u32>,
) -> Result<Option<crate::clock::ClockSettings>, ApiError> {
    match (clock, days) {
        (Some(_), Some(_)) => Err(ApiError::BadRequest(
            ErrorCode::BadDays,
            "a game has a clock or days per move, not both".into(),
        )),
        (None, Some(d)) if !crate::clock::DAYS.contains(&d) => Err(ApiError::BadRequest(
            ErrorCode::BadDays,
            format!("invalid days: a correspondence game has 1, 2, 3 or 7 days per move, not {d}"),
        )),
        (None, Some(d)) => Ok(Some(crate::clock::ClockSettings::days(d))),
        (c, None) => Ok(c),
    }
}

/// A clock's settings, checked; only a game between two people has one.
pub(crate) fn checked_clock(
    clock: Option<crate::clock::ClockSettings>,
    mode: Mode,
) -> Result<Option<crate::clock::ClockSettings>, ApiError> {
    let Some(c) = clock else { return Ok(None) };
    let c = c
        .check()
        .map_err(|e| ApiError::BadRequest(ErrorCode::BadClock, e))?;
    if mode != Mode::Friend {
        return Err(ApiError::BadRequest(
            ErrorCode::BadClock,
            "a clock is for a game between two people: play a friend (invite link) or use the lobby"
                .into(),
        ));
    }
    Ok(Some(c))
}

impl NewGame {
    fn from_request(req: &CreateRequest, first_move_ms: i64) -> Result<NewGame, ApiError> {
        let kind: Kind = req.game.parse()?;
        let stake = stake_text(req)?;
        let fields = SettingsFields {
            rules: req.rules.as_deref(),
            to: match_target(req)?,
            draw: req.draw.as_deref(),
            stake: stake.as_deref(),
        };
        let settings = crate::kinds::of(kind).settings(&fields)?;
        let (mode, my_seat, level) = seating(
            kind,
            req.opponent.as_deref().unwrap_or("engine"),
            req.side.as_deref(),
            req.level.as_ref(),
        )?;
        Ok(NewGame {
            kind,
            settings,
            start: None,
            mode,
            level,
            my_seat,
            tokens: vec![],
            rated: req.rated.unwrap_or(false),
            clock: checked_clock(time_control(req.clock, req.days)?, mode)?,
            first_move_ms,
        })
        .and_then(|g| {
            if g.rated && g.mode != Mode::Friend {
                return Err(ApiError::BadRequest(
                    ErrorCode::RatedNeedsFriend,
                    "a rated game is between two people: play a friend (invite link)".into(),
                ));
            }
            Ok(g)
        })
    }
}

/// Who plays a new (or imported) game: the opponent, the creator's seat
/// (`side`, random by default) and the computer's level, checked.
pub(super) fn seating(
    kind: Kind,
    opponent: &str,
    side: Option<&str>,
    level: Option<&Value>,
) -> Result<(Mode, Seat, Option<u8>), ApiError> {
    let mode: Mode = opponent.parse()?;
    let names = kind.seat_names();
    let my_seat = match side.unwrap_or("random") {
        "random" => secrets::coin()?,
        s => kind.seat_of(s).ok_or_else(|| {
            ApiError::BadRequest(
                ErrorCode::UnknownSide,
                format!(
                    "unknown side '{s}'; use {}, {} or random",
                    names[0], names[1]
                ),
            )
        })?,
    };
    let level = match level {
        None | Some(Value::Null) => None,
        Some(v) => Some(whole(v, "level", 1..=10).map_err(|_| {
            ApiError::BadRequest(
                ErrorCode::BadLevel,
                format!("invalid level {v}: the engine level is 1 to 10"),
            )
        })? as u8),
    };
    Ok((mode, my_seat, level))
}

/// Creates a game and returns the creator's secrets.
pub(super) async fn create_game(
    app: &AppState,
    g: NewGame,
    viewer: &Viewer,
) -> Result<Created, ApiError> {
    let mine = secrets::secret()?;
    let other = g.my_seat.other();
    // The row keeps only the hash of each secret.
    let mine_hash = secrets::hash(&mine);
    let mut seats = [None, None];
    seats[g.my_seat.index()] = Some(mine_hash.clone());
    let (engine_seat, invite) = match g.mode {
        Mode::Engine => (Some(other), None),
        Mode::Friend => (None, Some(secrets::secret()?)),
        Mode::Local => {
            seats = [Some(mine_hash.clone()), Some(mine_hash)];
            (None, None)
        }
    };
    let [token0, token1] = seats;
    let mut row = new_row(&g, token0, token1, engine_seat)?;
    if g.rated && viewer.signed_in.is_none() {
        return Err(ApiError::Unauthorized(
            ErrorCode::NotSignedIn,
            "a rated game is between two accounts: sign in first".into(),
        ));
    }
    if let Some(a) = viewer.account_id().filter(|_| g.rated) {
        if crate::safety::rated_banned(app.store(), a).await?.is_some() {
            return Err(crate::games::GameError::RatedBanned.into());
        }
    }
    crate::games::begin_pair(&mut row);
    // A signed-in creator's seats are her account's from the start (both,
    // on one screen).
    if let Some((account, _)) = &viewer.signed_in {
        let mine = SeatAccount {
            id: account.id,
            name: account.name.clone(),
        };
        for s in Seat::BOTH {
            let hers = if g.mode == Mode::Local {
                true
            } else {
                s == g.my_seat
            };
            if hers {
                row.accounts[s.index()] = Some(mine.clone());
            }
        }
    }
    let id = row.id.clone();
    let invite_hash = invite.as_deref().map(secrets::hash);
    let session = open_game(
        app.games(),
        row,
        g.tokens,
        invite_hash.as_deref().map(|c| (c, InviteSeats::One(other))),
    )
    .await?;
    let you = if g.mode == Mode::Local {
        Seat::BOTH.to_vec()
    } else {
        vec![g.my_seat]
    };
    Ok(Created {
        invite_url: invite.as_ref().map(|c| format!("/g/{id}?invite={c}")),
        invite_token: invite.clone(),
        invite,
        id,
        token: mine,
        you,
        state: session.view(),
    })
}

/// `POST /api/games`.
pub async fn create(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let req: CreateRequest = parse_json(&body)?;
    let g = NewGame::from_request(&req, app.games().first_move_ms())?;
    Ok((
        StatusCode::CREATED,
        Json(create_game(&app, g, &viewer).await?),
    ))
}

/// `GET /api/games/{id}`.
pub async fn get(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
) -> Result<Json<GameAnswer>, ApiError> {
    let slot = app.games().slot(&id).await?;
    let (state, you) = {
        let session = slot.session.lock().await;
        let you = session.seats_held(token_from(&headers).as_deref(), viewer.account_id());
        (round::shown(app.games(), &slot, &session), you)
    };
    Ok(Json(GameAnswer {
        state,
        you,
        presence: slot.presence(),
        claim_after_ms: app.options().claim_after.as_millis() as i64,
        away_ms: talk::away(app.games(), &slot).await,
    }))
}

/// `GET /api/games/{id}/record`: the record as a text download.
pub async fn record(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let slot = app.games().slot(&id).await?;
    let session = slot.session.lock().await;
    let name = format!(
        "attachment; filename=\"agon-{}-{}.txt\"",
        session.kind().name(),
        session.row.id
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, name),
        ],
        session.record() + "\n",
    )
        .into_response())
}

/// `GET /api/games/{id}/at/{ply}`: the game as it was after its first `ply`
/// tokens, for the replay viewer, with `total` and `tokens_all`.
pub async fn at_ply(
    State(app): State<AppState>,
    Path((id, ply)): Path<(String, usize)>,
) -> Result<Json<SessionView>, ApiError> {
    let slot = app.games().slot(&id).await?;
    let session = slot.session.lock().await;
    let n = ply.min(session.tokens.len());
    // Before its end, a game that ended on time or by an abort was still
    // in play.
    let mut row = session.row.clone();
    if n < session.tokens.len() {
        row.reason = None;
    }
    let past = Session::build(row, session.tokens[..n].to_vec(), session.ledger.clone())
        .map_err(ApiError::Internal)?;
    let mut view = past.view();
    view.total = Some(session.tokens.len());
    view.turn_plies = crate::kinds::of(session.kind()).turn_plies(&session.tokens);
    view.tokens_all = Some(session.tokens.clone());
    Ok(Json(view))
}
