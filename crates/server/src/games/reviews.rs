//! A finished game's review, computed once behind the analysis pool (so
//! reviews never starve the computer's moves), its progress pushed over the
//! game's sockets, and stored; with `--engine-threads 0`, a job for an
//! `agon worker`. The JSON is the CLI's (`agon ringo review`, `agon
//! urgammon review`).

use super::error::GameError;
use super::service::Games;
use crate::hub::Slot;
use crate::protocol::GameOut;
use crate::session::Rules;
use std::sync::Arc;

/// Where a game's review stands.
#[derive(Debug)]
pub enum Review {
    /// Stored: its JSON.
    Ready(String),
    /// Being computed: steps done of steps in all.
    Running {
        /// Steps done (plies, or tokens).
        done: usize,
        /// Steps in all.
        total: usize,
    },
}

/// A finished game's review: the stored one, or where its computing
/// stands (the first asking starts it; asking again reports progress).
///
/// # Errors
/// No such game; a game not over; the store's failure.
pub(crate) async fn review(games: &Games, id: &str) -> Result<Review, GameError> {
    let slot = games.slot(id).await?;
    let (rules, revision) = {
        let session = slot.session.lock().await;
        if !session.is_over() {
            return Err(GameError::NotOver);
        }
        (session.rules.clone(), session.revision())
    };
    if let Some((_, body)) = games.store().review(id).await? {
        return Ok(Review::Ready(body));
    }
    let total = rules.review_steps();
    if games.remote_engine() {
        // An engine worker computes it: the queue holds one review job
        // per game and revision, so asking again only reports progress.
        return Ok(match games.store().review_job(id).await? {
            Some((_, state)) => Review::Running {
                done: state.done,
                total: state.total.max(total),
            },
            None => {
                games
                    .store()
                    .enqueue(crate::store::NewJob {
                        kind: crate::store::JobKind::Review,
                        game: Some(id),
                        revision,
                        payload: String::new(),
                        delay: std::time::Duration::ZERO,
                    })
                    .await?;
                Review::Running { done: 0, total }
            }
        });
    }
    {
        let mut running = games
            .reviews()
            .lock()
            .map_err(|_| GameError::Internal("reviews lock poisoned".into()))?;
        if let Some(&(done, total)) = running.get(id) {
            return Ok(Review::Running { done, total });
        }
        running.insert(id.to_string(), (0, total));
    }
    let (app, id) = (games.clone(), id.to_string());
    games.spawn(async move { run_review(&app, slot, id, revision, rules).await });
    Ok(Review::Running { done: 0, total })
}

/// Computes, stores and announces one review.
async fn run_review(games: &Games, slot: Arc<Slot>, id: String, revision: i64, rules: Rules) {
    let result = compute_review(games, &slot, &id, rules).await;
    let total = games
        .reviews()
        .lock()
        .ok()
        .and_then(|mut r| r.remove(&id))
        .map_or(0, |(_, t)| t);
    match result {
        Ok(body) => match games.store().save_review(&id, revision, body).await {
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

async fn compute_review(
    games: &Games,
    slot: &Arc<Slot>,
    id: &str,
    rules: Rules,
) -> Result<String, GameError> {
    let (app, slot, id) = (games.clone(), slot.clone(), id.to_string());
    Ok(super::service::on_pool(games, move || {
        let progress = |done: usize, total: usize| {
            if let Ok(mut r) = app.reviews().lock() {
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
