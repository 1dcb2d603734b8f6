//! Safety between strangers: blocks (`POST` and `DELETE
//! /api/users/{name}/block`, `GET /api/account/blocks`), reports (`POST
//! /api/reports`), and the moderators' routes under `/api/mod/` (403 for
//! anyone who is not a moderator): the open reports, the log, an action.

use super::parse_json;
use super::seeks::who;
use crate::http::error::ApiError;
use crate::http::signed::Viewer;
use crate::safety::{ActionView, ModAction, ModAsk, ReportView};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};

/// The answer to blocking or unblocking.
#[derive(Serialize)]
pub struct BlockAnswer {
    /// The player's name.
    pub name: String,
    /// Whether the asker blocks her now.
    pub blocked: bool,
}

/// `POST /api/users/{name}/block` → `{"name", "blocked": true}`.
pub async fn block(
    State(app): State<AppState>,
    Path(name): Path<String>,
    viewer: Viewer,
) -> Result<Json<BlockAnswer>, ApiError> {
    let (a, _) = viewer.require()?;
    let them = app.safety().block(a.id, &name).await?;
    Ok(Json(BlockAnswer {
        name: them.name.unwrap_or(name),
        blocked: true,
    }))
}

/// `DELETE /api/users/{name}/block` → `{"name", "blocked": false}`.
pub async fn unblock(
    State(app): State<AppState>,
    Path(name): Path<String>,
    viewer: Viewer,
) -> Result<Json<BlockAnswer>, ApiError> {
    let (a, _) = viewer.require()?;
    let them = app.safety().unblock(a.id, &name).await?;
    Ok(Json(BlockAnswer {
        name: them.name.unwrap_or(name),
        blocked: false,
    }))
}

/// One blocked player.
#[derive(Serialize)]
pub struct Blocked {
    /// Her name.
    pub name: String,
}

/// `GET /api/account/blocks`.
#[derive(Serialize)]
pub struct BlocksAnswer {
    /// The players blocked, by name.
    pub blocks: Vec<Blocked>,
}

/// `GET /api/account/blocks` → `{"blocks": [{"name"}]}`.
pub async fn blocks(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Result<Json<BlocksAnswer>, ApiError> {
    let (a, _) = viewer.require()?;
    let blocks = app
        .safety()
        .blocks(a.id)
        .await?
        .into_iter()
        .filter_map(|b| b.name.map(|name| Blocked { name }))
        .collect();
    Ok(Json(BlocksAnswer { blocks }))
}

/// `POST /api/reports`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    target: String,
    reason: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    game: Option<String>,
}

/// A report filed.
#[derive(Serialize)]
pub struct Filed {
    /// Its number.
    pub id: i64,
    /// `open`.
    pub status: &'static str,
}

/// `POST /api/reports {"target", "reason": "chat"|"cheat"|"boost"|"name"|
/// "other", "text", "game"?}` → `201 {"id", "status": "open"}`.
pub async fn report(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<(StatusCode, Json<Filed>), ApiError> {
    viewer.require()?;
    let me = who(&viewer).ok_or_else(|| ApiError::Internal("signed in, no account".into()))?;
    let req: ReportRequest = parse_json(&body)?;
    let id = app
        .safety()
        .report(
            &me,
            &req.target,
            &req.reason,
            &req.text,
            req.game.as_deref(),
        )
        .await?;
    Ok((StatusCode::CREATED, Json(Filed { id, status: "open" })))
}

/// The signed-in moderator, or 403 `not-moderator` for anyone else (one
/// not signed in too: the moderation routes say nothing more to anyone).
async fn moderator(app: &AppState, viewer: &Viewer) -> Result<crate::store::SeatAccount, ApiError> {
    let me = who(viewer).ok_or(crate::safety::SafetyError::NotModerator)?;
    if !app.safety().is_moderator(me.id).await? {
        return Err(crate::safety::SafetyError::NotModerator.into());
    }
    Ok(me)
}

/// `GET /api/mod/reports`.
#[derive(Serialize)]
pub struct ReportsAnswer {
    /// The open reports, the most reported players first.
    pub reports: Vec<ReportView>,
}

/// `GET /api/mod/reports` → `{"reports": [{"id", "target", "reason",
/// "text", "game", "evidence", …}]}` (moderators only).
pub async fn reports(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Result<Json<ReportsAnswer>, ApiError> {
    let me = moderator(&app, &viewer).await?;
    Ok(Json(ReportsAnswer {
        reports: app.safety().reports(me.id).await?,
    }))
}

/// `GET /api/mod/log?user=`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogQuery {
    #[serde(default)]
    user: Option<String>,
}

/// The log.
#[derive(Serialize)]
pub struct LogAnswer {
    /// What moderators did, newest first.
    pub actions: Vec<ActionView>,
}

/// `GET /api/mod/log[?user=NAME]` → `{"actions": [...]}` (moderators only).
pub async fn log(
    State(app): State<AppState>,
    viewer: Viewer,
    query: Result<Query<LogQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<LogAnswer>, ApiError> {
    // A moderator's question is checked after her role: a non-moderator
    // learns nothing but 403.
    let me = moderator(&app, &viewer).await?;
    let Query(q) = query.map_err(|e| {
        ApiError::BadRequest(crate::http::error::ErrorCode::BadQuery, e.body_text())
    })?;
    Ok(Json(LogAnswer {
        actions: app.safety().log(me.id, q.user.as_deref()).await?,
    }))
}

/// `POST /api/mod/actions`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    target: String,
    action: String,
    reason: String,
    #[serde(default)]
    minutes: Option<i64>,
    #[serde(default)]
    report: Option<i64>,
    /// A rename's new name.
    #[serde(default)]
    name: Option<String>,
}

/// `POST /api/mod/actions {"target", "action": "warn"|"mute"|"unmute"|
/// "rated-ban"|"lift-rated-ban"|"rename"|"close"|"close-report"|"grant",
/// "reason", "minutes"?, "report"?, "name"?}` → `201` the logged action
/// (moderators only).
pub async fn act(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<(StatusCode, Json<ActionView>), ApiError> {
    let me = moderator(&app, &viewer).await?;
    let req: ActionRequest = parse_json(&body)?;
    // Parsed here, at the edge: everything after matches a type.
    let action: ModAction = req.action.parse()?;
    let done = crate::flows::moderate(
        &app,
        &me,
        &ModAsk {
            target: req.target,
            action,
            reason: req.reason,
            minutes: req.minutes,
            report: req.report,
            name: req.name,
        },
    )
    .await?;
    Ok((StatusCode::CREATED, Json(done)))
}

/// `GET /api/mod/users/{name}` → her record (`{"name", "same_devices",
/// "reports", "actions", "muted_until", "rated_banned_until",
/// "moderator"}`; her games and ratings are her profile's), moderators only.
pub async fn record(
    State(app): State<AppState>,
    Path(name): Path<String>,
    viewer: Viewer,
) -> Result<Json<crate::safety::Record>, ApiError> {
    let me = moderator(&app, &viewer).await?;
    Ok(Json(app.safety().record(me.id, &name).await?))
}
