//! `GET /api/games/{id}/review`: a finished game's review, computed once on
//! the server behind the engine pool (so reviews never starve the computer's
//! moves of more threads than it has), its progress pushed over the game's
//! WebSocket, and stored. The JSON is the CLI's (`agon ringo review`,
//! `agon urgammon review`).

use crate::http::error::{ApiError, ErrorCode};
use crate::hub::Slot;
use crate::protocol::GameOut;
use crate::session::Rules;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use std::sync::Arc;

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
    let slot = app.games().slot(&id).await?;
    let (rules, revision) = {
        let session = slot.session.lock().await;
        if !session.is_over() {
            return Err(ApiError::Conflict(
                ErrorCode::GameNotOver,
                "a review is for a finished game: finish or resign it first".into(),
            ));
        }
        (session.rules.clone(), session.revision())
    };
    if let Some((_, body)) = app.store().review(&id).await? {
        return Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response());
    }
    let total = rules.review_steps();
    if app.games().remote_engine() {
        // An engine worker computes it: the queue holds one review job per
        // game and revision, so asking again only reports its progress.
        return Ok(match app.store().review_job(&id).await? {
            Some((_, state)) => pending(state.done, state.total.max(total)),
            None => {
                app.store()
                    .enqueue(crate::store::NewJob {
                        kind: crate::store::JobKind::Review,
                        game: Some(&id),
                        revision,
                        payload: String::new(),
                        delay: std::time::Duration::ZERO,
                    })
                    .await?;
                pending(0, total)
            }
        });
    }
    let started = {
        let mut running = app
            .games()
            .reviews()
            .lock()
            .map_err(|_| ApiError::Internal("reviews lock poisoned".into()))?;
        match running.get(&id) {
            Some(&(done, total)) => {
                return Ok(pending(done, total));
            }
            None => {
                running.insert(id.clone(), (0, total));
                true
            }
        }
    };
    if started {
        app.spawn(run(app.clone(), slot, id, revision, rules));
    }
    Ok(pending(0, total))
}

fn pending(done: usize, total: usize) -> Response {
    (
        StatusCode::ACCEPTED,
        Json(Pending {
            status: "running",
            done,
            total,
        }),
    )
        .into_response()
}

/// Computes, stores and announces one review.
async fn run(app: AppState, slot: Arc<Slot>, id: String, revision: i64, rules: Rules) {
    let result = compute(&app, &slot, &id, rules).await;
    let total = app
        .games()
        .reviews()
        .lock()
        .ok()
        .and_then(|mut r| r.remove(&id))
        .map_or(0, |(_, t)| t);
    match result {
        Ok(body) => match app.store().save_review(&id, revision, body).await {
            Ok(()) => slot.broadcast(&GameOut::Review {
                done: total,
                total,
                ready: true,
            }),
            Err(e) => tracing::error!(game = %id, error = %e, "the review could not be stored"),
        },
        Err(e) => tracing::error!(game = %id, error = %e, "the review failed"),
    }
}

async fn compute(
    app: &AppState,
    slot: &Arc<Slot>,
    id: &str,
    rules: Rules,
) -> Result<String, ApiError> {
    let (state, slot, id) = (app.clone(), slot.clone(), id.to_string());
    Ok(crate::games::on_pool(app.games(), move || {
        let progress = |done: usize, total: usize| {
            if let Ok(mut r) = state.games().reviews().lock() {
                r.insert(id.clone(), (done, total));
            }
            slot.broadcast(&GameOut::Review {
                done,
                total,
                ready: false,
            });
        };
        crate::kinds::review_json(&rules, &progress)
    })
    .await??)
}
