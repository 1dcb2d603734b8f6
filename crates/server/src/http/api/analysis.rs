//! The analysis board's API: `POST /api/analyze` (a position and the
//! engine's view of it) and `POST /api/rollout` (an Urgammon position played
//! out). Both run on the analysis pool, with bounded effort, and take no
//! token: they touch no stored game. The work itself is `crate::engine::analysis`.

use super::parse_json;
use crate::engine::analysis::AnalyzeRequest;
use crate::games::shared;
use crate::http::error::ApiError;
use crate::http::limits::Client;
use crate::kinds::{analyze_json, checked_analyze, checked_rollout, rollout_json};
use crate::state::AppState;
use crate::store::JobKind;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};

/// `POST /api/analyze`: a position (Ringo: rules, start position, moves;
/// Urgammon: set-up and record, level, match score) and the engine's view of
/// it, with bounded effort. A bad request is refused at once, before any
/// engine work is queued.
pub async fn analyze(
    State(app): State<AppState>,
    Client(client): Client,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: AnalyzeRequest = parse_json(&body)?;
    checked_analyze(&req)?;
    let _ticket = app.games().analysis_ticket(client)?;
    let payload = String::from_utf8_lossy(&body).into_owned();
    let json = shared::engine_work(app.games(), JobKind::Analyze, payload.clone(), move || {
        analyze_json(payload.as_bytes())
    })
    .await?;
    Ok(json_response(json))
}

/// `POST /api/rollout`: an Urgammon position played out by level 8 on both sides.
pub async fn rollout(
    State(app): State<AppState>,
    Client(client): Client,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: AnalyzeRequest = parse_json(&body)?;
    checked_rollout(&req)?;
    let _ticket = app.games().analysis_ticket(client)?;
    let payload = String::from_utf8_lossy(&body).into_owned();
    let json = shared::engine_work(app.games(), JobKind::Rollout, payload.clone(), move || {
        rollout_json(payload.as_bytes())
    })
    .await?;
    Ok(json_response(json))
}

/// A JSON body already serialized.
fn json_response(json: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], json).into_response()
}
