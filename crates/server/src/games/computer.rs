//! The computer's seat. One task per game thinks when it is the engine's turn:
//! it waits the delay, takes a permit of the engine pool, computes in
//! `spawn_blocking`, and submits its action through the same path as a player.
//! Every job is tied to the revision it was computed for: a reply to an older
//! revision (the game moved on, or an Undo took it back) is dropped and the
//! engine is asked again, so it never plays a stale reply and never stalls.

use super::round::{Cause, Change};
use super::GameError;
use crate::dice::OsDice;
use crate::games::AppState;
use crate::hub::Slot;
use crate::kinds::engine_action;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

impl AppState {
    /// Starts the engine task for a game if it is not running. The task acts
    /// while it is the engine's turn; before it ends it looks once more, so a
    /// change that arrived as it was finishing is never missed.
    pub(crate) fn kick_engine(&self, slot: Arc<Slot>) {
        if self.remote_engine() {
            self.queue_engine(slot);
            return;
        }
        if slot.engine_running.swap(true, Ordering::SeqCst) {
            return;
        }
        let app = self.clone();
        self.spawn(async move {
            loop {
                loop {
                    // A stopping state makes no more moves: the game is
                    // picked up where it stands when it is next loaded.
                    if app.stopping_now() {
                        break;
                    }
                    match app.engine_step(&slot).await {
                        Ok(true) => {}
                        Ok(false) => break,
                        Err(e) => {
                            tracing::error!(error = %e, "engine move failed");
                            break;
                        }
                    }
                }
                slot.engine_running.store(false, Ordering::SeqCst);
                let again = slot.session.lock().await.engine_to_act();
                if !again || app.stopping_now() || slot.engine_running.swap(true, Ordering::SeqCst)
                {
                    break;
                }
            }
        });
    }

    /// With `--engine-threads 0`: queues the engine's move for a worker when
    /// it is the engine's turn (once per game and revision: the queue
    /// ignores the same job twice).
    fn queue_engine(&self, slot: Arc<Slot>) {
        let app = self.clone();
        self.spawn(async move {
            let (id, revision) = {
                let session = slot.session.lock().await;
                if !session.engine_to_act() {
                    return;
                }
                (session.row.id.clone(), session.revision())
            };
            let queued = app
                .store()
                .enqueue(crate::store::NewJob {
                    kind: crate::store::JobKind::Move,
                    game: Some(&id),
                    revision,
                    payload: String::new(),
                    delay: app.inner.engine_delay,
                })
                .await;
            if let Err(e) = queued {
                tracing::error!(game = %id, error = %e, "could not queue the engine's move");
            }
        });
    }

    /// One engine action, if it is the engine's turn. Returns true when the
    /// task should look again (it acted, or its reply was stale).
    async fn engine_step(&self, slot: &Arc<Slot>) -> Result<bool, GameError> {
        let (snapshot, revision) = {
            let session = slot.session.lock().await;
            if !session.engine_to_act() {
                return Ok(false);
            }
            (session.clone(), session.revision())
        };
        // The pause that lets people follow the game counts from now and
        // includes the thinking: the action comes once both are over, not
        // one after the other. An Urgammon roll, which decides nothing,
        // comes after half the pause; the move after it waits the whole
        // pause, so the dice are seen before the piece moves (a turn of
        // several rolls and moves at level 3 took up to 3.3 s).
        let rolls = snapshot.rules.rolls_next();
        let pause = if rolls {
            self.inner.engine_delay / 2
        } else {
            self.inner.engine_delay
        };
        let paced = tokio::time::Instant::now() + pause;
        let permit = self
            .inner
            .engine
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| GameError::Internal("engine pool closed".into()))?;
        if slot.session.lock().await.revision() != revision {
            return Ok(true); // the game moved on while we waited
        }
        let stop = Arc::new(AtomicBool::new(false));
        if let Ok(mut s) = slot.engine_stop.lock() {
            *s = Some(stop.clone());
        }
        let (game, level) = (snapshot.row.id.clone(), snapshot.row.level);
        let started = std::time::Instant::now();
        let action = tokio::task::spawn_blocking(move || engine_action(&snapshot, stop))
            .await
            .map_err(|e| GameError::Internal(format!("engine task: {e}")))?;
        crate::metrics::engine_job(started.elapsed());
        tracing::debug!(
            %game,
            revision,
            level,
            ms = started.elapsed().as_millis() as u64,
            action = ?action,
            "engine decided"
        );
        drop(permit);
        if let Ok(mut s) = slot.engine_stop.lock() {
            *s = None;
        }
        let Some(action) = action else {
            return Ok(false);
        };
        tokio::time::sleep_until(paced).await;
        // A reply computed for an older revision (an Undo came in, or
        // another instance changed the game) is dropped, and the task
        // looks again.
        self.change(slot, Cause::Computer, |session| {
            if session.revision() != revision {
                tracing::debug!(%game, revision, now = session.revision(), "stale engine reply dropped");
                return Ok(None);
            }
            let Some(seat) = session.row.engine_seat else {
                return Ok(None);
            };
            let (next, commit) = session.act(&[seat], &action, &mut OsDice)?;
            Ok(Some(Change::Play(Box::new(next), commit)))
        })
        .await?;
        Ok(true)
    }
}
