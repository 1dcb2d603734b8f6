//! The API's error type: every failure becomes a status code and a JSON body
//! `{"error": "..."}` that says what was wrong. The game logic and the store
//! have their own error types; they become an [`ApiError`] here, in one place.

use crate::session::SessionError;
use crate::store::StoreError;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

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
    /// Well-formed but not allowed now: an illegal move, not your turn, a
    /// stale revision, an invite already used.
    #[error("{0}")]
    Conflict(String),
    /// The server cannot do it right now (the secure generator failed).
    #[error("{0}")]
    Unavailable(String),
    /// The store failed; nothing was changed.
    #[error("storage error: {0}")]
    Storage(#[from] rusqlite::Error),
    /// Something that should not happen.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The body of every error answer.
#[derive(Serialize)]
pub struct ErrorBody {
    /// What was wrong, for a person.
    pub error: String,
}

impl From<SessionError> for ApiError {
    fn from(e: SessionError) -> ApiError {
        match e {
            SessionError::BadRequest(m) => ApiError::BadRequest(m),
            SessionError::Conflict(m) => ApiError::Conflict(m),
            SessionError::Forbidden(m) => ApiError::Forbidden(m),
            SessionError::Corrupt(m) => ApiError::Internal(m),
            SessionError::Dice(e) => {
                tracing::error!(error = %e, "no die could be drawn");
                ApiError::Unavailable(format!("{e}; try again"))
            }
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Sql(e) => ApiError::Storage(e),
            e @ StoreError::Stale(_) => ApiError::Conflict(e.to_string()),
            e @ (StoreError::Commit(_) | StoreError::Closed) => ApiError::Internal(e.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if matches!(self, ApiError::Storage(_) | ApiError::Internal(_)) {
            tracing::error!(error = %self, "request failed");
        }
        let status = match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Storage(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        (
            status,
            Json(ErrorBody {
                error: self.to_string(),
            }),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceUnavailable;

    #[test]
    fn a_failing_generator_is_a_503_with_a_json_error() {
        let res = ApiError::from(SessionError::Dice(DiceUnavailable)).into_response();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        let stale = ApiError::from(StoreError::Stale(3)).into_response();
        assert_eq!(stale.status(), StatusCode::CONFLICT);
    }
}
