//! Several instances on one PostgreSQL store: each instance follows the
//! store's announcements and brings the games it holds in memory up to date,
//! pushing every change to its own WebSockets; and engine work can go to the
//! queue, for `agon worker`s, instead of this process's threads.

use super::error::GameError;
use super::players;
use super::round;
use super::service::Games;
use super::talk;
use crate::engine::EngineError;
use crate::protocol::GameOut;
use crate::store::{JobKind, JobState, Notice};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;

/// How long a request waits for a queued analysis before giving up.
const JOB_TIMEOUT: Duration = Duration::from_secs(120);

/// Follows the store's announcements for as long as the app lives.
pub(crate) async fn follow(
    app: super::service::WeakGames,
    mut notices: broadcast::Receiver<Notice>,
    mut stopping: crate::tasks::Stopping,
) {
    loop {
        let heard = tokio::select! {
            () = stopping.wait() => return,
            heard = notices.recv() => heard,
        };
        let notice = match heard {
            Ok(n) => n,
            // Fell behind: some announcements are lost, so look at everything.
            Err(broadcast::error::RecvError::Lagged(_)) => Notice::Resync,
            Err(broadcast::error::RecvError::Closed) => return,
        };
        let Some(app) = app.upgrade() else { return };
        match notice {
            Notice::Game {
                id,
                revision,
                seats,
            } => {
                if let Some(slot) = app.slot_in_memory(&id) {
                    let behind = slot.session.lock().await.revision() < revision;
                    if behind || seats {
                        refresh(&app, &slot).await;
                    }
                }
            }
            Notice::Resync => {
                for slot in app.slots_in_memory() {
                    refresh(&app, &slot).await;
                }
            }
            Notice::Progress {
                game: Some(game),
                done,
                total,
                ..
            } => {
                if let Some(slot) = app.slot_in_memory(&game) {
                    slot.broadcast(&GameOut::Review {
                        done,
                        total,
                        ready: false,
                    });
                }
            }
            Notice::Done { job, game } => {
                wake(&app, job);
                if let Some(slot) = game.and_then(|g| app.slot_in_memory(&g)) {
                    let id = slot.session.lock().await.row.id.clone();
                    if let Ok(Some(_)) = app.store().review(&id).await {
                        slot.broadcast(&GameOut::Review {
                            done: 1,
                            total: 1,
                            ready: true,
                        });
                    }
                }
            }
            // A player changed (her name, among others): the games in
            // memory that show her show her as she is now.
            Notice::Person { account } => players::refresh_account(&app, account).await,
            // The lobby follows its own.
            Notice::Lobby(_) => {}
            Notice::Chat { game, id } => talk::chat_written(&app, &game, id).await,
            Notice::Presence { game } => talk::presence_changed(&app, &game).await,
            Notice::Progress { game: None, .. } | Notice::Queued => {}
        }
    }
}

/// Brings one game up to the stored one, through the door (its sockets are
/// told, and the computer looks again).
async fn refresh(app: &Games, slot: &Arc<crate::hub::Slot>) {
    if let Err(e) = round::catch_up(app, slot).await {
        tracing::warn!(error = %e, "could not reload a game another instance changed");
    }
}

/// A finished job's result, or the worker's failure as an error.
pub(super) fn worker_result(state: JobState) -> Result<String, GameError> {
    match (state.result, state.error) {
        (Some(r), _) => Ok(r),
        (None, e) => Err(GameError::Internal(format!(
            "the engine worker failed: {}",
            e.unwrap_or_default()
        ))),
    }
}

/// Wakes the request waiting for a job, if it is here.
fn wake(app: &Games, job: i64) {
    if let Some(tx) = app
        .inner
        .waiting_jobs
        .lock()
        .ok()
        .and_then(|mut w| w.remove(&job))
    {
        let _ = tx.send(());
    }
}

/// Runs engine work that answers a request (an analysis, a rollout): on
/// this process's engine pool, or, with `--engine-threads 0`, through the
/// queue, waiting for a worker's result. `payload` is what the worker
/// needs to compute the same thing; `local` computes it here.
pub(crate) async fn engine_work(
    games: &Games,
    kind: JobKind,
    payload: String,
    local: impl FnOnce() -> Result<String, EngineError> + Send + 'static,
) -> Result<String, GameError> {
    if !games.remote_engine() {
        return Ok(super::service::on_pool(games, local).await??);
    }
    let id = games
        .store()
        .enqueue(crate::store::NewJob {
            kind,
            game: None,
            revision: 0,
            payload,
            delay: Duration::ZERO,
        })
        .await?
        .ok_or_else(|| GameError::Internal("the job was not queued".into()))?;
    worker_result(wait_job(games, id).await?)
}

/// Waits until a queued job finishes (woken by its announcement, and
/// looking now and then in case one was missed).
pub(super) async fn wait_job(games: &Games, id: i64) -> Result<JobState, GameError> {
    let deadline = tokio::time::Instant::now() + JOB_TIMEOUT;
    loop {
        let (tx, rx) = tokio::sync::oneshot::channel();
        if let Ok(mut w) = games.inner.waiting_jobs.lock() {
            w.insert(id, tx);
        }
        match games.store().job(id).await? {
            Some(state) if state.finished => {
                if let Ok(mut w) = games.inner.waiting_jobs.lock() {
                    w.remove(&id);
                }
                return Ok(state);
            }
            Some(_) => {}
            None => {
                return Err(GameError::Internal("the engine job disappeared".into()));
            }
        }
        if tokio::time::Instant::now() >= deadline {
            if let Ok(mut w) = games.inner.waiting_jobs.lock() {
                w.remove(&id);
            }
            return Err(GameError::NoWorker);
        }
        let mut stopping = games.stopping();
        tokio::select! {
            () = stopping.wait() => return Err(GameError::NoWorker),
            _ = tokio::time::timeout(Duration::from_secs(2), rx) => {}
        }
    }
}
