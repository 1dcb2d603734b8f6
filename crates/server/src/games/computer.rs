//! The computer's seat. One task per game thinks when it is the engine's turn:
//! it waits the delay, takes a permit of the engine pool, computes in
//! `spawn_blocking` (or, with `--engine-threads 0`, queues the move for an
//! `agon worker` and waits for its reply), and submits its action through
//! the game's door like a player's. Every job is tied to the revision it was
//! computed for: a reply to an older revision (the game moved on, or an
//! Undo took it back) is dropped and the engine is asked again, so it never
//! plays a stale reply and never stalls. A worker only decides; the
//! instance commits, so every after-effect (the clock, the rating, the
//! pair's next game, the push notice) is the door's, wherever the engine
//! ran.

use super::change::{Cause, Change};
use super::error::GameError;
use super::round;
use super::service::Games;
use super::shared;
use crate::dice::OsDice;
use crate::hub::Slot;
use crate::kinds::engine_action;
use crate::session::Action;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The computer's decision as a worker hands it back: a move job's result.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "action", rename_all = "lowercase", deny_unknown_fields)]
pub enum EngineReply {
    /// A move in notation.
    Move {
        /// The move.
        notation: String,
    },
    /// Roll the chance die.
    Roll,
    /// Roll the verdict die.
    Verdict,
    /// Start the match's next game.
    Next,
}

impl EngineReply {
    /// The reply for an action the engine chose (`None`: an action the
    /// engine never takes).
    pub fn of(action: &Action) -> Option<EngineReply> {
        match action {
            Action::Move(notation) => Some(EngineReply::Move {
                notation: notation.clone(),
            }),
            Action::Roll => Some(EngineReply::Roll),
            Action::Verdict => Some(EngineReply::Verdict),
            Action::Next => Some(EngineReply::Next),
            _ => None,
        }
    }

    /// The action to play.
    pub fn action(self) -> Action {
        match self {
            EngineReply::Move { notation } => Action::Move(notation),
            EngineReply::Roll => Action::Roll,
            EngineReply::Verdict => Action::Verdict,
            EngineReply::Next => Action::Next,
        }
    }
}

/// Starts the engine task for a game if it is not running. The task acts
/// while it is the engine's turn; before it ends it looks once more, so a
/// change that arrived as it was finishing is never missed.
pub(crate) fn kick_engine(games: &Games, slot: Arc<Slot>) {
    if slot.engine_running.swap(true, Ordering::SeqCst) {
        return;
    }
    let app = games.clone();
    games.spawn(async move {
        loop {
            loop {
                // A stopping state makes no more moves: the game is
                // picked up where it stands when it is next loaded.
                if app.stopping_now() {
                    break;
                }
                match engine_step(&app, &slot).await {
                    Ok(true) => {}
                    Ok(false) => break,
                    Err(e) => {
                        tracing::error!(error = %e, "engine move failed");
                        // Not at once again: a failure that lasts
                        // (no store) must not spin.
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        break;
                    }
                }
            }
            slot.engine_running.store(false, Ordering::SeqCst);
            let again = slot.session.lock().await.engine_to_act();
            if !again || app.stopping_now() || slot.engine_running.swap(true, Ordering::SeqCst) {
                break;
            }
        }
    });
}

/// One engine action, if it is the engine's turn. Returns true when the
/// task should look again (it acted, or its reply was stale).
async fn engine_step(games: &Games, slot: &Arc<Slot>) -> Result<bool, GameError> {
    let (snapshot, revision) = {
        let session = slot.session.lock().await;
        if !session.engine_to_act() {
            return Ok(false);
        }
        (session.clone(), session.revision())
    };
    if games.remote_engine() {
        return worker_step(games, slot, &snapshot.row.id, revision).await;
    }
    // The pause that lets people follow the game counts from now and
    // includes the thinking: the action comes once both are over, not
    // one after the other. An Urgammon roll, which decides nothing,
    // comes after half the pause; the move after it waits the whole
    // pause, so the dice are seen before the piece moves (a turn of
    // several rolls and moves at level 3 took up to 3.3 s).
    let rolls = snapshot.rules.rolls_next();
    let pause = if rolls {
        games.inner.engine_delay / 2
    } else {
        games.inner.engine_delay
    };
    let paced = tokio::time::Instant::now() + pause;
    let permit = games
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
    play_engine(games, slot, &game, revision, action).await
}

/// With `--engine-threads 0`: queues the engine's move for a worker
/// (once per game and revision: the queue takes the same job once),
/// waits for its reply, and plays it through the door. Another instance
/// waiting on the same job plays it too, and the revision check lets
/// one of them through. Returns true when the task should look again.
async fn worker_step(
    games: &Games,
    slot: &Arc<Slot>,
    game: &str,
    revision: i64,
) -> Result<bool, GameError> {
    games
        .store()
        .enqueue(crate::store::NewJob {
            kind: crate::store::JobKind::Move,
            game: Some(game),
            revision,
            payload: String::new(),
            delay: games.inner.engine_delay,
        })
        .await?;
    let job = games
        .store()
        .move_job(game, revision)
        .await?
        .ok_or_else(|| GameError::Internal("the engine's move was not queued".into()))?;
    let state = loop {
        match shared::wait_job(games, job).await {
            Ok(state) => break state,
            // No worker yet: wait on, while the game waits for this move.
            Err(GameError::NoWorker) => {
                if games.stopping_now() {
                    return Ok(false);
                }
                if slot.session.lock().await.revision() != revision {
                    return Ok(true);
                }
            }
            Err(e) => return Err(e),
        }
    };
    // Moved on meanwhile (an Undo, a flag): the reply is for nothing.
    if slot.session.lock().await.revision() != revision {
        return Ok(true);
    }
    let json = super::shared::worker_result(state)?;
    let reply = serde_json::from_str::<EngineReply>(&json)
        .map_err(|e| GameError::Internal(format!("a worker's reply: {e} ({json})")))?;
    play_engine(games, slot, game, revision, reply.action()).await
}

/// Plays the engine's action through the door if the game is still at
/// `revision`. A reply computed for an older revision (an Undo came in,
/// or another instance changed the game) is dropped, and the task looks
/// again.
async fn play_engine(
    games: &Games,
    slot: &Arc<Slot>,
    game: &str,
    revision: i64,
    action: Action,
) -> Result<bool, GameError> {
    round::change(games, slot, Cause::Computer, |session| {
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
