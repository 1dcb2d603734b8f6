//! Every request is answered: a handler that has not answered within the
//! server's deadline (`--request-timeout-secs`) gets 503 `timeout` sent to
//! its client, whatever holds it (a store waiting on a lock, a queue for
//! the engine with no worker, a bug), while the handler itself runs on to
//! its end in a task of its own. Cancelling it instead could stop a change
//! between the store and its after-effects (a broadcast, a clock, a
//! rating): one door per game owes those whole. A client told `timeout`
//! is told that what it asked may still be done, so it looks before it
//! asks again (a move carries `expect_revision`, which makes that safe).

use crate::http::error::{ApiError, ErrorCode};
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tracing::Instrument;

/// Seconds a client told `timeout` is asked to wait before it looks again.
const RETRY_AFTER_SECS: u64 = 5;

/// Engine work for anyone: bounded by its own rules instead (a client's
/// share of the queue, the queue's length, 120 s for a worker's answer),
/// and a rollout of 5,000 games may rightly take longer than a move.
const ENGINE_ROUTES: [&str; 2] = ["/api/analyze", "/api/rollout"];

/// The deadline layer (see the module's text). WebSocket upgrades pass
/// straight through (their answer is immediate and the socket is theirs),
/// and so does engine work (`ENGINE_ROUTES`).
pub(crate) async fn answer_within(
    State(app): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    let deadline = app.options().request_timeout;
    if deadline.is_zero()
        || req.headers().contains_key(header::UPGRADE)
        || ENGINE_ROUTES.contains(&req.uri().path())
    {
        return next.run(req).await;
    }
    let handler = tokio::spawn(next.run(req).in_current_span());
    match tokio::time::timeout(deadline, handler).await {
        Ok(Ok(res)) => res,
        // A handler that panicked: an answer all the same.
        Ok(Err(e)) => {
            ApiError::Internal(format!("the request's handler failed: {e}")).into_response()
        }
        Err(_) => {
            tracing::warn!(
                seconds = deadline.as_secs_f64(),
                "a request outran the server's deadline; its client was told timeout"
            );
            ApiError::Busy(
                ErrorCode::Timeout,
                format!(
                    "no answer within {} s: what you asked may still be done, \
                     so look before you ask again",
                    deadline.as_secs()
                ),
                RETRY_AFTER_SECS,
            )
            .into_response()
        }
    }
}
