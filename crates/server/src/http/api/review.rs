//! `GET /api/games/{id}/review`: a finished game's review, as the games
//! service has it (`games/reviews.rs`: computed once, its progress pushed
//! over the game's WebSocket, stored).

use crate::games::reviews;
use crate::games::Review;
use crate::http::error::ApiError;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// The answer while a review is being computed (status 202).
#[derive(Serialize)]
pub struct Pending {
    /// Always `running`.
    pub status: &'static str,
    /// Steps done (plies, or tokens).
    pub done: usize,
    /// Steps in all.
    pub total: usize,
}

/// `GET /api/games/{id}/review`: 200 with the review once it is stored; 202
/// with the progress while it runs (the first request starts it); 409 for a
/// game that is not over.
pub async fn get(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    Ok(match reviews::review(app.games(), &id).await? {
        Review::Ready(body) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Review::Running { done, total } => (
            StatusCode::ACCEPTED,
            Json(Pending {
                status: "running",
                done,
                total,
            }),
        )
            .into_response(),
    })
}
