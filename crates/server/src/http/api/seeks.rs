//! The lobby's routes: the open seeks (`GET`, `POST /api/seeks`), cancel
//! (`DELETE /api/seeks/{id}`, with the seek's token or its creator's
//! account), accept (`POST /api/seeks/{id}/accept` → 201 `{game, token}`,
//! 409 once taken), and quick pairing (`GET /api/pools`, `POST
//! /api/pools/{pool}`).

use super::{parse_json, token_from};
use crate::clock::ClockSettings;
use crate::http::error::{ApiError, ErrorCode};
use crate::http::signed::Viewer;
use crate::lobby::service::Lobby;
use crate::lobby::{Made, Paired, PoolView, SeekSpec, SeekView};
use crate::model::Kind;
use crate::state::AppState;
use crate::store::SeatAccount;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /api/seeks`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    game: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    to: Option<Value>,
    #[serde(default)]
    clock: Option<ClockSettings>,
    /// Correspondence: days per move, instead of a clock.
    #[serde(default)]
    days: Option<u32>,
    #[serde(default)]
    rated: Option<bool>,
    #[serde(default)]
    side: Option<String>,
    #[serde(default)]
    rating_min: Option<f64>,
    #[serde(default)]
    rating_max: Option<f64>,
}

/// `GET /api/seeks`.
#[derive(Serialize)]
pub struct SeeksAnswer {
    /// The open seeks, oldest first.
    pub seeks: Vec<SeekView>,
    /// The quick-pairing pools.
    pub pools: Vec<PoolView>,
}

/// `POST /api/pools/{pool}`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PoolRequest {
    #[serde(default)]
    rated: Option<bool>,
}

/// The answer to joining a pool: paired at once (`game`, `token`), or
/// waiting (`id`, `token`: hold the seek on the lobby's socket).
#[derive(Serialize)]
pub struct Joined {
    /// The pool seek's id, while waiting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The game, when paired at once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// The seat token (for the game to come, or this one).
    pub token: String,
}

/// An Urgammon match's length as a request gives it (`to`; 7 unless
/// given).
pub(crate) fn match_target(to: Option<&Value>) -> Result<u32, ApiError> {
    match to {
        None | Some(Value::Null) => Ok(7),
        Some(v) => super::games::whole(v, "target", 1..=99).map_err(|_| {
            ApiError::BadRequest(
                ErrorCode::BadMatchTarget,
                format!(
                    "invalid target {v}: the match target is a whole number of points; use 1 to 99"
                ),
            )
        }),
    }
}

/// The side a request names for its maker (none, or `random`: drawn).
pub(crate) fn side(kind: Kind, side: Option<&str>) -> Result<Option<crate::model::Seat>, ApiError> {
    match side {
        None | Some("random") => Ok(None),
        Some(s) => Ok(Some(kind.seat_of(s).ok_or_else(|| {
            let [a, b] = kind.seat_names();
            ApiError::BadRequest(
                ErrorCode::UnknownSide,
                format!("unknown side '{s}'; use {a}, {b} or random"),
            )
        })?)),
    }
}

pub(crate) fn who(viewer: &Viewer) -> Option<SeatAccount> {
    viewer.signed_in.as_ref().map(|(a, _)| SeatAccount {
        id: a.id,
        name: a.name.clone(),
    })
}

/// `GET /api/seeks`.
pub async fn list(State(app): State<AppState>) -> Result<Json<SeeksAnswer>, ApiError> {
    Ok(Json(SeeksAnswer {
        seeks: app.lobby().seeks().await?,
        pools: app.lobby().pools().await?,
    }))
}

/// `POST /api/seeks` → 201 `{id, token}`.
pub async fn create(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<(StatusCode, Json<Made>), ApiError> {
    let req: SeekRequest = parse_json(&body)?;
    let kind: Kind = req.game.parse()?;
    let to = match_target(req.to.as_ref())?;
    let seat = side(kind, req.side.as_deref())?;
    let spec = SeekSpec {
        kind,
        rules: req.rules,
        to,
        clock: super::games::time_control(req.clock, req.days)?,
        rated: req.rated.unwrap_or(false),
        seat,
        rating_min: req.rating_min,
        rating_max: req.rating_max,
    };
    let made = app.lobby().make_seek(spec, who(&viewer), None).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// `DELETE /api/seeks/{id}` → 204.
pub async fn cancel(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
) -> Result<StatusCode, ApiError> {
    app.lobby()
        .cancel_seek(&id, token_from(&headers).as_deref(), viewer.account_id())
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/seeks/{id}/accept` → 201 `{game, token}`.
pub async fn accept(
    State(app): State<AppState>,
    id: Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
) -> Result<(StatusCode, Json<Paired>), ApiError> {
    let lobby: &Lobby = app.lobby();
    let paired = lobby
        .accept_seek(&id, who(&viewer), token_from(&headers).as_deref())
        .await?;
    Ok((StatusCode::CREATED, Json(paired)))
}

/// `GET /api/pools`.
pub async fn pools(State(app): State<AppState>) -> Result<Json<Vec<PoolView>>, ApiError> {
    Ok(Json(app.lobby().pools().await?))
}

/// `POST /api/pools/{pool}` → 201 `{game, token}` (paired) or `{id,
/// token}` (waiting).
pub async fn join(
    State(app): State<AppState>,
    Path(pool): Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: PoolRequest = if body.is_empty() {
        PoolRequest::default()
    } else {
        parse_json(&body)?
    };
    let joined = match app
        .lobby()
        .join_pool(
            &pool,
            req.rated.unwrap_or(false),
            who(&viewer),
            token_from(&headers).as_deref(),
        )
        .await?
    {
        Ok(made) => Joined {
            id: Some(made.id),
            game: None,
            token: made.token,
        },
        Err(paired) => Joined {
            id: None,
            game: Some(paired.game),
            token: paired.token,
        },
    };
    Ok((StatusCode::CREATED, Json(joined)).into_response())
}
