//! `POST /api/games/{id}/action`: a player's typed action. Moves are only
//! moves of the game; the server alone draws dice.

use super::{parse_json, token_from};
use crate::games::acting;
use crate::games::Ask;
use crate::http::error::ApiError;
use crate::http::error::ErrorCode;
use crate::http::signed::Viewer;
use crate::model::Seat;
use crate::session::SessionView;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::{Deserialize, Serialize};

/// The request body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    #[serde(rename = "type")]
    kind: Ask,
    #[serde(default)]
    r#move: Option<String>,
    /// Refuse the action (409) unless the game is at this revision.
    #[serde(default)]
    expect_revision: Option<i64>,
    /// The network lag the client measures (half its round trip), in
    /// milliseconds: credited to its clock, up to the bound.
    #[serde(default)]
    lag_ms: Option<u32>,
}

/// The answer.
#[derive(Serialize)]
pub struct ActionAnswer {
    /// The game's state after the action.
    pub state: SessionView,
    /// The seats the token holds.
    pub you: Vec<Seat>,
    /// For `rematch`: the new game's id (your token works there too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// For `rematch` of a friend game whose other seat was never taken: that
    /// seat's invite code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// `POST /api/games/{id}/action`.
pub async fn act(
    State(app): State<AppState>,
    id: Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
    body: Bytes,
) -> Result<Json<ActionAnswer>, ApiError> {
    let req: ActionRequest = parse_json(&body)?;
    let notation = match req.kind {
        Ask::Move => Some(
            req.r#move
                .filter(|m| !m.is_empty() && m.len() <= 32)
                .ok_or_else(|| {
                    ApiError::BadRequest(
                        ErrorCode::MoveMissing,
                        "a move action needs a \"move\" in notation".into(),
                    )
                })?,
        ),
        _ => None,
    };
    let token = token_from(&headers);
    let acted = acting::act(
        app.games(),
        &id,
        (token.as_deref(), viewer.account_id()),
        req.kind,
        notation,
        req.expect_revision,
        i64::from(req.lag_ms.unwrap_or(0)),
    )
    .await?;
    Ok(Json(ActionAnswer {
        state: acted.state,
        you: acted.you,
        rematch: acted.rematch,
        invite: acted.invite,
    }))
}
