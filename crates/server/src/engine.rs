//! The computer's seat. One task per game thinks when it is the engine's turn:
//! it waits the delay, takes a permit of the engine pool, computes in
//! `spawn_blocking`, and submits its action through the same path as a player.
//! Every job is tied to the revision it was computed for: a reply to an older
//! revision (the game moved on, or an Undo took it back) is dropped and the
//! engine is asked again, so it never plays a stale reply and never stalls.

use crate::app::{AppState, Slot};
use crate::dice::OsDice;
use crate::error::{ApiError, ErrorCode};
use crate::session::{Action, Rules, Session};
use crate::ws::WsMessage;
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
        tokio::spawn(async move {
            loop {
                loop {
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
                if !again || slot.engine_running.swap(true, Ordering::SeqCst) {
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
        tokio::spawn(async move {
            let (id, revision) = {
                let session = slot.session.lock().await;
                if !session.engine_to_act() {
                    return;
                }
                (session.row.id.clone(), session.revision())
            };
            let queued = app
                .store()
                .enqueue(
                    crate::store::JobKind::Move,
                    Some(&id),
                    revision,
                    String::new(),
                    app.inner.engine_delay,
                )
                .await;
            if let Err(e) = queued {
                tracing::error!(game = %id, error = %e, "could not queue the engine's move");
            }
        });
    }

    /// One engine action, if it is the engine's turn. Returns true when the
    /// task should look again (it acted, or its reply was stale).
    async fn engine_step(&self, slot: &Arc<Slot>) -> Result<bool, ApiError> {
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
        let rolls = matches!(&snapshot.rules, Rules::Urgammon(m)
            if m.current().state().phase() == urgammon::Phase::Roll);
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
            .map_err(|_| ApiError::Internal("engine pool closed".into()))?;
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
            .map_err(|e| ApiError::Internal(format!("engine task: {e}")))?;
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
        let mut session = slot.session.lock().await;
        if session.revision() != revision {
            // Computed for an older revision (an Undo came in): ask again.
            tracing::debug!(%game, revision, now = session.revision(), "stale engine reply dropped");
            return Ok(true);
        }
        let Some(seat) = session.row.engine_seat else {
            return Ok(false);
        };
        let (next, commit) = session.act(&[seat], &action, &mut OsDice)?;
        match self.commit(&mut session, next, commit).await {
            // Another instance changed the game: look again at the stored one.
            Err(ApiError::Conflict(crate::error::ErrorCode::StaleRevision, _))
                if self.store().is_shared() =>
            {
                self.reload(slot, &mut session).await?;
                return Ok(true);
            }
            other => other?,
        }
        let view = session.view();
        drop(session);
        slot.broadcast(&WsMessage::State {
            state: Box::new(view),
        });
        Ok(true)
    }
}

/// The seeded generator of the engine's decision after `tokens` record
/// tokens at `level`: the same game and level always give the same decision
/// (levels 1–9), so replies can be checked.
fn decision_rng(tokens: usize, level: agon_ai::Level) -> agon_ai::Rng {
    agon_ai::Rng::new(tokens as u64 ^ 0x5eed_a90e ^ (u64::from(level.get()) << 32))
}

/// The engine's Ringo reply at `level` in `game`, whose record has `tokens`
/// moves, in notation. A raised `stop` ends the search early.
pub fn ringo_reply(
    game: &ringo::Game,
    level: agon_ai::Level,
    tokens: usize,
    stop: Option<Arc<AtomicBool>>,
) -> Option<String> {
    // A 4 MB table per move keeps many concurrent games cheap.
    let mut searcher = agon_ai::ringo::search::Searcher::with_weights(
        *game.rules(),
        agon_ai::ringo::eval::WEIGHTS,
        1 << 18,
    );
    let seed = decision_rng(tokens, level).next_u64();
    let m = agon_ai::ringo::search::level_move(&mut searcher, game, level, seed, stop)?;
    Some(m.to_notation(&game.legal_moves()))
}

/// What the engine does now: roll when it must roll, else the level's
/// decision. A raised `stop` ends a Ringo search early.
pub(crate) fn engine_action(session: &Session, stop: Arc<AtomicBool>) -> Option<Action> {
    engine_action_at(session, None, stop)
}

/// [`engine_action`] at `level` instead of the game's own (a move retried
/// after failures is made at level 1).
pub(crate) fn engine_action_at(
    session: &Session,
    level: Option<u8>,
    stop: Arc<AtomicBool>,
) -> Option<Action> {
    let level = agon_ai::Level::new(level.or(session.row.level).unwrap_or(5));
    match &session.rules {
        Rules::Ringo(g) => {
            ringo_reply(g, level, session.tokens.len(), Some(stop)).map(Action::Move)
        }
        Rules::Urgammon(m) => {
            let state = m.current().state();
            if state.phase() == urgammon::Phase::Roll {
                return Some(Action::Roll);
            }
            let side = state.to_act()?;
            // Decisions maximise the chance to win the match at its score.
            let payoff = agon_ai::urgammon::MatchContext::of(m).payoff();
            let spec = agon_ai::urgammon::level_spec(level);
            let mut rng = decision_rng(session.tokens.len(), level);
            match agon_ai::urgammon::decide(state, spec, payoff, &mut rng)? {
                agon_ai::urgammon::player::Decision::Verdict => Some(Action::Verdict),
                agon_ai::urgammon::player::Decision::Move(mv) => {
                    Some(Action::Move(mv.notation(side)))
                }
            }
        }
    }
}

/// Analysis work (analyses, rollouts) queued or running, per client
/// address and in all: one client may hold only its share
/// (`--analysis-per-client`), and the queue as a whole is bounded, so that
/// nobody's flood makes everyone else wait for minutes.
#[derive(Default)]
pub(crate) struct AnalysisLoad {
    per_client: std::collections::HashMap<std::net::IpAddr, usize>,
    total: usize,
}

/// How many analyses may be queued or running in all, per engine thread.
const ANALYSIS_QUEUE_PER_THREAD: usize = 8;

/// One piece of analysis work counted against its client until dropped.
pub(crate) struct AnalysisTicket {
    app: AppState,
    client: std::net::IpAddr,
}

impl AnalysisTicket {
    /// Counts one more piece of work for `client`, or refuses it: 429 when
    /// the client has its share queued already, 503 when the queue is full.
    pub(crate) fn take(app: &AppState, client: std::net::IpAddr) -> Result<Self, ApiError> {
        let o = app.options();
        let cap = ANALYSIS_QUEUE_PER_THREAD * o.engine_threads.max(1);
        let mut load = app
            .inner
            .analysis_load
            .lock()
            .map_err(|_| ApiError::Internal("analysis count poisoned".into()))?;
        let mine = load.per_client.get(&client).copied().unwrap_or(0);
        if mine >= o.analysis_per_client.max(1) {
            return Err(ApiError::TooMany(
                ErrorCode::AnalysisLimit,
                format!(
                    "you have {mine} analyses or rollouts running already (at most {} at once): wait for them, then try again",
                    o.analysis_per_client.max(1)
                ),
                5,
            ));
        }
        if load.total >= cap {
            return Err(ApiError::Busy(
                ErrorCode::EngineBusy,
                "the engine has too many analyses queued: try again in a few seconds".into(),
                10,
            ));
        }
        load.total += 1;
        *load.per_client.entry(client).or_insert(0) += 1;
        Ok(AnalysisTicket {
            app: app.clone(),
            client,
        })
    }
}

impl Drop for AnalysisTicket {
    fn drop(&mut self) {
        if let Ok(mut load) = self.app.inner.analysis_load.lock() {
            load.total = load.total.saturating_sub(1);
            if let Some(n) = load.per_client.get_mut(&self.client) {
                *n -= 1;
                if *n == 0 {
                    load.per_client.remove(&self.client);
                }
            }
        }
    }
}

/// Runs analysis work (an analysis, a rollout, a review) on a blocking
/// thread once a permit of the analysis pool is free. The computer's moves
/// in games have a pool of their own, so they never wait behind this.
pub(crate) async fn on_pool<T: Send + 'static>(
    app: &AppState,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let _permit = app
        .inner
        .analysis
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::Internal("engine pool closed".into()))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::Internal(format!("engine task: {e}")))
}
