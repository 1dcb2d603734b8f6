//! Tournaments' routes (issue 76): `POST`/`GET /api/tournaments`, `GET
//! /api/tournaments/{id}` (standings, bouts, and the signed-in player's
//! place and game as `you`), `POST /api/tournaments/{id}/join` and
//! `/withdraw`, and `GET /api/account/tournaments` (the events where the
//! player has a game now or that start within five minutes: what every
//! page shows her).

use super::parse_json;
use super::seeks::{match_target, who};
use crate::clock::{now_ms, ClockSettings};
use crate::http::error::{ApiError, ErrorCode};
use crate::http::signed::Viewer;
use crate::model::{EventKind, EventStatus, Kind};
use crate::state::AppState;
use crate::tournaments::{Ask, Listed, TournamentView, MAX_AHEAD_MS};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /api/tournaments`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    kind: String,
    game: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    to: Option<Value>,
    #[serde(default)]
    clock: Option<ClockSettings>,
    #[serde(default)]
    days: Option<u32>,
    #[serde(default)]
    minutes: Option<i64>,
    #[serde(default)]
    rounds: Option<i64>,
    #[serde(default)]
    rated: Option<bool>,
    #[serde(default)]
    starts_in_secs: Option<i64>,
    /// Milliseconds since the epoch.
    #[serde(default)]
    starts_at: Option<i64>,
    #[serde(default)]
    min_rating: Option<f64>,
    #[serde(default)]
    max_rating: Option<f64>,
    #[serde(default)]
    min_rated_games: Option<u32>,
    #[serde(default)]
    password: Option<String>,
}

/// `POST /api/tournaments/{id}/join`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    #[serde(default)]
    password: Option<String>,
}

/// `GET /api/tournaments`.
#[derive(Serialize)]
pub struct ListAnswer {
    /// Not started yet, soonest first.
    pub upcoming: Vec<Listed>,
    /// Under way.
    pub running: Vec<Listed>,
    /// The latest finished, newest first.
    pub finished: Vec<Listed>,
}

/// `GET /api/account/tournaments`.
#[derive(Serialize)]
pub struct MineAnswer {
    /// The events where she has a game now or that start within five
    /// minutes.
    pub tournaments: Vec<TournamentView>,
}

fn bad(m: impl Into<String>) -> ApiError {
    ApiError::BadRequest(ErrorCode::BadTournament, m.into())
}

/// A count asked for as a whole number within `range`.
fn whole(
    v: Option<i64>,
    what: &str,
    range: std::ops::RangeInclusive<i64>,
) -> Result<Option<u32>, ApiError> {
    match v {
        None => Ok(None),
        Some(n) if range.contains(&n) => Ok(Some(n as u32)),
        Some(n) => Err(bad(format!(
            "{what}: {n} is out of range ({} to {})",
            range.start(),
            range.end()
        ))),
    }
}

/// `POST /api/tournaments` → 201 the event.
pub async fn create(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<(StatusCode, Json<TournamentView>), ApiError> {
    viewer.require()?;
    let by = who(&viewer).ok_or_else(|| ApiError::Internal("signed in, no account".into()))?;
    let req: CreateRequest = parse_json(&body)?;
    let game: Kind = req.game.parse()?;
    let now = now_ms();
    let starts_ms = match (req.starts_in_secs, req.starts_at) {
        (Some(_), Some(_)) => return Err(bad("starts_in_secs or starts_at, not both")),
        (Some(s), None) if (0..=MAX_AHEAD_MS / 1000).contains(&s) => now + s * 1000,
        (Some(s), None) => {
            return Err(bad(format!(
                "starts_in_secs: {s} is out of range (0 to 30 days)"
            )))
        }
        (None, Some(at)) => at,
        (None, None) => now,
    };
    // The kind is read here, once; refused after the fields below (as the
    // service refused it when it was a word).
    let kind = req.kind.parse::<EventKind>();
    let to = match_target(req.to.as_ref())?;
    let clock = super::games::time_control(req.clock, req.days)?;
    let minutes = whole(
        req.minutes,
        "minutes",
        1..=i64::from(crate::tournaments::MAX_MINUTES),
    )?;
    let rounds = whole(
        req.rounds,
        "rounds",
        1..=i64::from(crate::tournaments::MAX_ROUNDS),
    )?;
    let mut ask = Ask::new(kind?, game);
    ask.name = req.name;
    ask.rules = req.rules;
    ask.to = to;
    ask.clock = clock;
    ask.minutes = minutes;
    ask.rounds = rounds;
    ask.rated = req.rated.unwrap_or(false);
    ask.starts_ms = starts_ms;
    ask.min_rating = req.min_rating;
    ask.max_rating = req.max_rating;
    ask.min_rated_games = req.min_rated_games;
    ask.password = req.password;
    let made = app
        .tournaments()
        .create(ask, Some(by))
        .await?
        .ok_or_else(|| ApiError::Internal("a player's tournament has no schedule key".into()))?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// `GET /api/tournaments`.
pub async fn list(State(app): State<AppState>) -> Result<Json<ListAnswer>, ApiError> {
    let all = app.tournaments().list().await?;
    let of = |status| all.iter().filter(|t| t.status == status).cloned().collect();
    Ok(Json(ListAnswer {
        upcoming: of(EventStatus::Upcoming),
        running: of(EventStatus::Running),
        finished: of(EventStatus::Finished),
    }))
}

/// `GET /api/tournaments/{id}`.
pub async fn one(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(app.tournaments().get(&id, viewer.account_id()).await?))
}

/// The answer of `GET /api/games/{id}/tournament`.
#[derive(Serialize)]
pub struct GameTournamentAnswer {
    /// The event the game was played in; null for any other game.
    pub tournament: Option<crate::tournaments::GameTournament>,
}

/// `GET /api/games/{id}/tournament` → `{"tournament": {"id", "name",
/// "kind", "status"} | null}`: a finished tournament game's page offers
/// the way back to its event instead of a rematch.
pub async fn of_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<GameTournamentAnswer>, ApiError> {
    if !crate::store::is_game_id(&id) {
        return Err(ApiError::NotFound(
            ErrorCode::GameNotFound,
            id.chars().take(64).collect(),
        ));
    }
    Ok(Json(GameTournamentAnswer {
        tournament: app.tournaments().of_game(&id).await?,
    }))
}

/// `POST /api/tournaments/{id}/join` → the event.
pub async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Json<TournamentView>, ApiError> {
    viewer.require()?;
    let me = who(&viewer).ok_or_else(|| ApiError::Internal("signed in, no account".into()))?;
    let req: JoinRequest = if body.is_empty() {
        JoinRequest::default()
    } else {
        parse_json(&body)?
    };
    Ok(Json(
        app.tournaments()
            .join(&id, &me, req.password.as_deref())
            .await?,
    ))
}

/// `POST /api/tournaments/{id}/withdraw` → the event.
pub async fn withdraw(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> Result<Json<TournamentView>, ApiError> {
    viewer.require()?;
    let me = who(&viewer).ok_or_else(|| ApiError::Internal("signed in, no account".into()))?;
    Ok(Json(app.tournaments().withdraw(&id, &me).await?))
}

/// `GET /api/account/tournaments`.
pub async fn mine(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Result<Json<MineAnswer>, ApiError> {
    let (a, _) = viewer.require()?;
    Ok(Json(MineAnswer {
        tournaments: app.tournaments().mine_now(a.id).await?,
    }))
}

/// `POST /api/tournaments/{id}/berserk` → the event: the player's clock
/// halved in her arena game before her first move, for a point more.
pub async fn berserk(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> Result<Json<TournamentView>, ApiError> {
    viewer.require()?;
    let me = who(&viewer).ok_or_else(|| ApiError::Internal("signed in, no account".into()))?;
    Ok(Json(app.tournaments().berserk(&id, &me).await?))
}
