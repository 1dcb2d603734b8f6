//! The clocks this instance keeps. Each instance notes every second that
//! it is alive; it keeps the clock of every game it changed last, and fires
//! what falls due (a flag, or an abort for want of a first move) through the
//! same revision-checked commit as a move, so a move and a flag at the same
//! moment have one outcome, whichever instance sees them. A game whose
//! keeper stopped (a restart, a killed instance) is taken over by another
//! instance, its clock resumed from the keeper's last sign of life: the time
//! nobody kept is nobody's.

use super::change::{Cause, Change};
use super::error::GameError;
use super::round;
use super::service::{alive, Games};
use crate::clock::now_ms;
use crate::hub::Slot;
use crate::session::Moment;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// How often the keeper looks at its deadlines.
const TICK: Duration = Duration::from_millis(25);

/// How often an instance notes that it is alive, and looks for clocks
/// nobody keeps.
const BEAT_MS: i64 = 500;

/// An instance not heard of for this long (two beats missed) has the
/// clocks it keeps shown paused by the others, where it was last seen
/// alive, until it is heard again or is taken for dead and its clocks are
/// taken over: no page counts down time that nobody keeps.
pub(crate) const SILENT_AFTER_MS: i64 = 2 * BEAT_MS;

/// Keeps this instance's clocks for as long as the app lives.
pub(crate) async fn keep(app: super::service::WeakGames, mut stopping: crate::tasks::Stopping) {
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut last_beat = 0;
    loop {
        tokio::select! {
            () = stopping.wait() => return,
            _ = tick.tick() => {}
        }
        let Some(app) = app.upgrade() else { return };
        let now = now_ms();
        if now - last_beat >= BEAT_MS {
            last_beat = now;
            let (store, instance) = (app.store().clone(), app.inner.instance.clone());
            if let Err(e) = store.heartbeat(&instance, now).await {
                tracing::warn!(error = %e, "could not note this instance alive");
            }
            if let Err(e) = adopt_clocks(&app, now).await {
                tracing::warn!(error = %e, "could not look for clocks nobody keeps");
            }
        }
        for id in due(&app, now) {
            if let Err(e) = fire(&app, &id).await {
                tracing::warn!(game = %id, error = %e, "a clock's deadline could not be kept");
            }
        }
    }
}

/// The games whose deadline has passed.
fn due(games: &Games, now: i64) -> Vec<String> {
    games.inner.deadlines.lock().map_or_else(
        |_| vec![],
        |d| {
            d.iter()
                .filter(|(_, at)| **at <= now)
                .map(|(id, _)| id.clone())
                .collect()
        },
    )
}

/// Ends a game whose deadline passed (a flag, or an abort), if it still
/// has: decided on the game as stored, through the door.
async fn fire(games: &Games, id: &str) -> Result<(), GameError> {
    let slot = games.slot(id).await?;
    let fired = round::change(games, &slot, Cause::Clock, |session| {
        if session.row.clock_owner.as_deref() != Some(games.instance()) {
            return Ok(None);
        }
        let at = Moment::now(games.instance(), 0);
        Ok(session
            .time_out(&at)
            .map(|(next, commit)| Change::Play(Box::new(next), commit)))
    })
    .await;
    if fired.is_err() {
        // Looked at again at the next tick, not at once.
        if let Ok(mut d) = games.inner.deadlines.lock() {
            d.insert(id.to_string(), now_ms() + 1_000);
        }
    }
    fired.map(|_| ())
}

/// Looks at every clocked game in play: those this instance keeps are
/// in memory with their deadlines; those whose keeper is dead (or, on
/// a store no one shares, is not this instance) are taken over.
async fn adopt_clocks(games: &Games, now: i64) -> Result<(), GameError> {
    let shared = games.store().is_shared();
    let clocked = games.store().clocked_games().await?;
    if clocked.is_empty() {
        return Ok(());
    }
    let seen: HashMap<String, i64> = games.store().instances().await?.into_iter().collect();
    if shared {
        note_silent_keepers(games, &seen, now).await;
    }
    for (id, owner) in clocked {
        let keeper_seen = owner.as_ref().and_then(|o| seen.get(o)).copied();
        let mine = owner.as_deref() == Some(games.instance());
        if mine {
            let watched = games
                .inner
                .deadlines
                .lock()
                .is_ok_and(|d| d.contains_key(&id));
            if !watched && games.slot_in_memory(&id).is_none() {
                let slot = games.slot(&id).await?;
                games.watch_clock(&*slot.session.lock().await);
            }
            continue;
        }
        let alive = shared && alive(keeper_seen, now);
        if alive {
            continue;
        }
        let slot = games.slot(&id).await?;
        if let Err(e) = take_over(games, &slot, keeper_seen).await {
            tracing::warn!(game = %id, error = %e, "could not take over a clock");
        }
    }
    Ok(())
}

/// Looks at the live clocks in memory that other instances keep: a
/// keeper silent for [`SILENT_AFTER_MS`] has its games shown paused
/// here, and shown running again once it is heard.
async fn note_silent_keepers(games: &Games, seen: &HashMap<String, i64>, now: i64) {
    for slot in games.slots_in_memory() {
        let silent_since = {
            let session = slot.session.lock().await;
            let owner = session.row.clock_owner.as_deref();
            let live = session.clocked() && !session.correspondence() && !session.is_over();
            if !live || owner == Some(games.instance()) {
                None
            } else {
                let last = owner.and_then(|o| seen.get(o)).copied();
                let since = session.row.clock.map_or(now, |c| c.since_ms);
                match last {
                    Some(t) if now - t < SILENT_AFTER_MS => None,
                    Some(t) => Some(t.max(1)),
                    None => Some(since.max(1)),
                }
            }
        };
        let was = slot.keeper_lost_since.swap(
            silent_since.unwrap_or(0),
            std::sync::atomic::Ordering::SeqCst,
        );
        if (was > 0) != silent_since.is_some() {
            round::republish(games, &slot).await;
        }
    }
}

/// Takes over a game's clock from a keeper last seen at `keeper_seen`
/// (never: it is charged nothing since its turn began), through the
/// door; if another instance took it first (or a player moved), theirs
/// stands.
async fn take_over(
    games: &Games,
    slot: &Arc<Slot>,
    keeper_seen: Option<i64>,
) -> Result<(), GameError> {
    let keeper = slot.session.lock().await.row.clock_owner.clone();
    let outcome = round::change(games, slot, Cause::Clock, |session| {
        if session.row.clock_owner != keeper
            || keeper.as_deref() == Some(games.instance())
            || session.is_over()
        {
            return Ok(None);
        }
        let since = session.row.clock.map_or(0, |c| c.since_ms);
        let at = Moment::now(games.instance(), 0);
        Ok(session
            .resume(keeper_seen.unwrap_or(since), &at)
            .map(|(next, commit)| Change::Play(Box::new(next), commit)))
    })
    .await?;
    if outcome.written.is_some() {
        tracing::info!(game = %outcome.view.id, from = ?keeper, "took over a clock");
    }
    Ok(())
}

/// Starts a clocked game's first turn now (the invited friend just
/// joined: the wait for the first move begins), through the door.
pub(crate) async fn restart_clock(games: &Games, slot: &Arc<Slot>) -> Result<(), GameError> {
    round::change(games, slot, Cause::Clock, |session| {
        if !session.clocked() {
            return Ok(None);
        }
        let at = Moment::now(games.instance(), 0);
        Ok(session
            .resume(at.now_ms, &at)
            .map(|(next, commit)| Change::Play(Box::new(next), commit)))
    })
    .await?;
    Ok(())
}
