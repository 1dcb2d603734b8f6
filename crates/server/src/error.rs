//! The API's error type: every failure becomes a status code and a JSON body
//! `{"error": "..."}` that says what was wrong.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An error answered to a client.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Malformed or invalid input: bad JSON, unknown game, bad settings.
    #[error("{0}")]
    BadRequest(String),
    /// The game id is unknown.
    #[error("no game with id '{0}'")]
    NotFound(String),
    /// The token is missing, wrong, or not for the seat to act.
    #[error("{0}")]
    Forbidden(String),
    /// Well-formed but not allowed now: an illegal move, not your turn.
    #[error("{0}")]
    Conflict(String),
    /// The store failed; nothing was changed.
    #[error("storage error: {0}")]
    Storage(#[from] rusqlite::Error),
    /// Something that should not happen.
    #[error("internal error: {0}")]
    Internal(String),
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Storage(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (
            status,
            Json(serde_json::json!({ "error": self.to_string() })),
        )
            .into_response()
    }
}
