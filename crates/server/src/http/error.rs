//! The API's error type: every failure becomes a status code and a JSON body
//! `{"error": "...", "code": "..."}`: what was wrong in English, and a stable
//! code ([`ErrorCode`]) that a page translates. The game logic and the store
//! have their own error types; they become an [`ApiError`] in one place,
//! `refused.rs`; the codes are `codes.rs`.

pub use super::codes::ErrorCode;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// An error answered to a client.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Malformed or invalid input: bad JSON, unknown game, bad settings.
    #[error("{1}")]
    BadRequest(ErrorCode, String),
    /// The game id is unknown.
    #[error("no game with id '{1}'")]
    NotFound(ErrorCode, String),
    /// The token is missing, wrong, or not for the seat to act.
    #[error("{1}")]
    Forbidden(ErrorCode, String),
    /// Not allowed until a time (a chat mute): 403 with `until_ms`.
    #[error("{1}")]
    ForbiddenUntil(ErrorCode, String, i64, Option<String>),
    /// Well-formed but not allowed now: an illegal move, not your turn, a
    /// stale revision, an invite already used.
    #[error("{1}")]
    Conflict(ErrorCode, String),
    /// The server cannot do it right now (the secure generator failed).
    #[error("{1}")]
    Unavailable(ErrorCode, String),
    /// Something other than a game is not there (404), in the message's
    /// words.
    #[error("{1}")]
    Missing(ErrorCode, String),
    /// Not signed in (401).
    #[error("{1}")]
    Unauthorized(ErrorCode, String),
    /// Too much at once from this client (429); try again after the
    /// seconds given (`Retry-After`).
    #[error("{1}")]
    TooMany(ErrorCode, String, u64),
    /// The server is too busy for this now (503); try again after the
    /// seconds given (`Retry-After`).
    #[error("{1}")]
    Busy(ErrorCode, String, u64),
    /// A record that cannot be read (400 `bad-record`), with where.
    #[error("{0}")]
    BadRecordAt(String, RecordAt),
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
    /// What was wrong, for a person (English).
    pub error: String,
    /// What was wrong, as a stable code.
    pub code: ErrorCode,
    /// A record that could not be read: where (only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<RecordAt>,
    /// Refused until this time, milliseconds since the epoch (a chat
    /// mute: only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<i64>,
    /// Why it is refused until then, in a moderator's words (a chat mute:
    /// only then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Where a record could not be read: the token (or move) by its index from
/// 0, and its text, so a page can say where in its own language.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct RecordAt {
    /// The token's index in the record's moves (Ringo) or tokens (Urgammon).
    pub index: usize,
    /// The token as written.
    pub token: String,
}

impl ApiError {
    /// The stable code.
    pub fn code(&self) -> ErrorCode {
        match self {
            ApiError::BadRequest(c, _)
            | ApiError::NotFound(c, _)
            | ApiError::Forbidden(c, _)
            | ApiError::ForbiddenUntil(c, _, _, _)
            | ApiError::Conflict(c, _)
            | ApiError::Unavailable(c, _)
            | ApiError::Unauthorized(c, _)
            | ApiError::Missing(c, _)
            | ApiError::TooMany(c, _, _)
            | ApiError::Busy(c, _, _) => *c,
            ApiError::BadRecordAt(..) => ErrorCode::BadRecord,
            ApiError::Storage(_) => ErrorCode::Storage,
            ApiError::Internal(_) => ErrorCode::Internal,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if matches!(self, ApiError::Storage(_) | ApiError::Internal(_)) {
            tracing::error!(error = %self, "request failed");
        }
        let status = match self {
            ApiError::BadRequest(..) | ApiError::BadRecordAt(..) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(..) | ApiError::Missing(..) => StatusCode::NOT_FOUND,
            ApiError::Forbidden(..) | ApiError::ForbiddenUntil(..) => StatusCode::FORBIDDEN,
            ApiError::Unauthorized(..) => StatusCode::UNAUTHORIZED,
            ApiError::Conflict(..) => StatusCode::CONFLICT,
            ApiError::Unavailable(..) | ApiError::Busy(..) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::TooMany(..) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Storage(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        let retry_after = match self {
            ApiError::TooMany(_, _, s) | ApiError::Busy(_, _, s) => Some(s),
            _ => None,
        };
        let at = match &self {
            ApiError::BadRecordAt(_, at) => Some(at.clone()),
            _ => None,
        };
        let (until_ms, reason) = match &self {
            ApiError::ForbiddenUntil(_, _, until, reason) => (Some(*until), reason.clone()),
            _ => (None, None),
        };
        let mut res = (
            status,
            Json(ErrorBody {
                code: self.code(),
                error: self.to_string(),
                at,
                until_ms,
                reason,
            }),
        )
            .into_response();
        if let Some(secs) = retry_after {
            res.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.max(1).into());
        }
        res
    }
}
