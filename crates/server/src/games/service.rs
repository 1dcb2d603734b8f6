//! The games service's handle: the games in memory (each in its slot,
//! loaded from the store when asked for), the service's parts and limits.
//! What the service does lives beside it, a file per concern; `mod.rs`
//! wires it and starts its loops.

use super::chat::ChatLimiter;
use super::error::GameError;
use super::options::Options;
use super::pools::{AnalysisLoad, AnalysisTicket};
use crate::hub::Slot;
use crate::session::Session;
use crate::store::Store;
use crate::tasks::{Stopping, Tasks};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// An instance not heard of for this long is taken for dead: its clocks are
/// resumed elsewhere (`clocks.rs`), and the players it counted leave who
/// is here.
pub(crate) const DEAD_AFTER_MS: i64 = 3_000;

/// Whether an instance last heard of at `seen_ms` (none: never) is alive
/// at `now`.
pub(crate) fn alive(seen_ms: Option<i64>, now: i64) -> bool {
    seen_ms.is_some_and(|t| now - t < DEAD_AFTER_MS)
}

/// The games service: a handle on the games in memory and the door every
/// change of a game goes through. Clones share one service.
#[derive(Clone)]
pub struct Games {
    pub(super) inner: Arc<Inner>,
}

/// A weak handle on the games service, for a loop that must not keep it
/// alive.
#[derive(Clone)]
pub(crate) struct WeakGames(pub(super) std::sync::Weak<Inner>);

impl WeakGames {
    /// The service, while it lives.
    pub(crate) fn upgrade(&self) -> Option<Games> {
        self.0.upgrade().map(|inner| Games { inner })
    }
}

/// What the games service is built from: the services it calls and its
/// limits. [`crate::state::AppState`] builds each once and hands them in.
pub(crate) struct Parts {
    /// The store every game is kept in.
    pub store: Store,
    /// Web Push: a player away is told of her turn.
    pub push: crate::push::Pusher,
    /// The app's one handle on its background work.
    pub tasks: Tasks,
    /// The limits and settings.
    pub options: Options,
}

pub(super) struct Inner {
    pub(super) store: Store,
    pub(super) games: Mutex<HashMap<String, Arc<Slot>>>,
    /// The computer's moves in games: a pool of their own, so that no
    /// analysis, rollout or review is ever ahead of a game in the queue.
    pub(super) engine: Arc<Semaphore>,
    /// Analyses, rollouts and reviews.
    pub(super) analysis: Arc<Semaphore>,
    /// Analysis work queued or running, per client address, and in all.
    pub(super) analysis_load: Arc<Mutex<AnalysisLoad>>,
    pub(super) engine_delay: Duration,
    pub(super) options: Options,
    /// When the service started: slots note their last use as seconds
    /// since.
    pub(super) started: std::time::Instant,
    /// Reviews being computed: game id → (steps done, steps in all).
    pub(super) reviews: Mutex<HashMap<String, (usize, usize)>>,
    /// Requests waiting for a queued job's result, by job id.
    pub(super) waiting_jobs: Mutex<HashMap<i64, tokio::sync::oneshot::Sender<()>>>,
    /// This instance's name among those sharing the store: it keeps the
    /// clocks of the games it changed last.
    pub(super) instance: String,
    /// The clocks this instance keeps: game id → when its deadline passes
    /// (milliseconds since the epoch).
    pub(super) deadlines: Mutex<HashMap<String, i64>>,
    /// Each chat writer's recent lines, for the rate limit.
    pub(super) chat_limiter: ChatLimiter,
    /// Web Push: this server's keys and its client.
    pub(super) push: crate::push::Pusher,
    /// The app's one handle on its loops and background tasks.
    pub(super) tasks: Tasks,
    /// The games in play as last read, and when (`watch.rs`).
    pub(super) in_play:
        tokio::sync::Mutex<Option<(std::time::Instant, Vec<super::in_play::InPlay>)>>,
    /// Each game that ends, here or (caught up) from another instance:
    /// its id, for the services that follow games (tournaments).
    pub(super) ended: tokio::sync::broadcast::Sender<String>,
    /// Does the work handed up ([`Wake`]): `mod.rs`'s `serve_wake`, given
    /// when the service is built.
    pub(super) wake: fn(&Games, Wake),
}

/// What the handle and the door hand up rather than call: they sit below
/// the computer (`computer.rs`, which acts through the door) and the late
/// finisher (`round.rs`, above the handle), so they name the work and
/// `mod.rs`, above every file of the folder, gives the function that does
/// it when it builds the service (as lila's round tells its fishnet player
/// through the bus rather than calling it; here without a queue between,
/// so the computer starts thinking as soon as the change is told).
pub(crate) enum Wake {
    /// A game in which the computer may be to act: its task starts,
    /// unless it runs already.
    Computer(Arc<Slot>),
    /// A rated game found over and unrated when it was loaded (a crash in
    /// between): finished now, through the door.
    FinishLate(Arc<Slot>),
}

impl Games {
    /// The games that end from now on (their ids), wherever they ended.
    pub(crate) fn endings(&self) -> tokio::sync::broadcast::Receiver<String> {
        self.inner.ended.subscribe()
    }

    /// Runs `task` in the background, counted by the app's stop.
    pub(crate) fn spawn(&self, task: impl std::future::Future<Output = ()> + Send + 'static) {
        self.inner.tasks.spawn(task);
    }

    /// What a loop selects on to end when the app stops.
    pub(crate) fn stopping(&self) -> Stopping {
        self.inner.tasks.stopping()
    }

    /// True once the app is stopping.
    pub(crate) fn stopping_now(&self) -> bool {
        self.inner.tasks.stopping_now()
    }

    /// True when engine work goes to the queue for `agon worker`s instead of
    /// running here (`--engine-threads 0` on the PostgreSQL store).
    pub(crate) fn remote_engine(&self) -> bool {
        self.inner.options.engine_threads == 0 && self.store().is_shared()
    }

    /// The slot of a game if it is in memory.
    pub(crate) fn slot_in_memory(&self, id: &str) -> Option<Arc<Slot>> {
        self.games_lock().ok()?.get(id).cloned()
    }

    /// Every game in memory.
    pub(crate) fn slots_in_memory(&self) -> Vec<Arc<Slot>> {
        self.games_lock()
            .map(|g| g.values().cloned().collect())
            .unwrap_or_default()
    }

    /// A weak handle on the service, for a loop that must not keep it alive.
    pub(crate) fn downgrade(&self) -> WeakGames {
        WeakGames(Arc::downgrade(&self.inner))
    }

    /// Reviews being computed here: game id → (steps done, steps in all).
    pub(crate) fn reviews(&self) -> &Mutex<HashMap<String, (usize, usize)>> {
        &self.inner.reviews
    }

    /// Web Push: this server's keys and its client.
    pub(crate) fn pusher(&self) -> &crate::push::Pusher {
        &self.inner.push
    }

    /// The store.
    pub(crate) fn store(&self) -> &Store {
        &self.inner.store
    }

    /// How long a live game waits for each side's first decision, in
    /// milliseconds.
    pub(crate) fn first_move_ms(&self) -> i64 {
        self.inner.options.first_move.as_millis() as i64
    }

    /// This instance's name among those sharing the store.
    pub fn instance(&self) -> &str {
        &self.inner.instance
    }

    /// Notes a game's deadline if this instance keeps its clock (and forgets
    /// it otherwise): called after every change and reload.
    pub(crate) fn watch_clock(&self, session: &Session) {
        let mine = session.row.clock_owner.as_deref() == Some(self.instance());
        let deadline = session.deadline().filter(|_| mine);
        if let Ok(mut d) = self.inner.deadlines.lock() {
            match deadline {
                Some(t) => d.insert(session.row.id.clone(), t.at()),
                None => d.remove(&session.row.id),
            };
        }
    }

    /// The slot of a game, loading it from the store when needed. A game loaded
    /// after a restart whose turn is the engine's starts the engine again.
    pub(crate) async fn slot(&self, id: &str) -> Result<Arc<Slot>, GameError> {
        let slot = self.loaded_slot(id).await?;
        slot.last_used
            .store(self.inner.started.elapsed().as_secs(), Ordering::Relaxed);
        Ok(slot)
    }

    async fn loaded_slot(&self, id: &str) -> Result<Arc<Slot>, GameError> {
        if let Some(slot) = self.games_lock()?.get(id) {
            return Ok(slot.clone());
        }
        let loaded = self
            .store()
            .load(id)
            .await?
            .ok_or_else(|| GameError::NotFound(id.to_string()))?;
        let mut session = Session::from_stored(loaded)?;
        // A game stored before dice had a ledger: its record's dice become the
        // ledger, so Undo reads them back as for any other game.
        let missing = session
            .ledger
            .extend_from_tokens(session.tokens.iter().map(String::as_str));
        if !missing.is_empty() {
            self.store().add_dice(id, missing).await?;
        }
        // A rated game that ended while no instance rated it (a crash in
        // between): rated now, once (the store says whether it was).
        let unrated = session.row.rated && session.is_over() && session.row.rating_change.is_none();
        let slot = {
            let mut games = self.games_lock()?;
            games
                .entry(id.to_string())
                .or_insert_with(|| {
                    self.watch_clock(&session);
                    Slot::new(session)
                })
                .clone()
        };
        self.wake(Wake::Computer(slot.clone()));
        if unrated {
            self.wake(Wake::FinishLate(slot.clone()));
        }
        Ok(slot)
    }

    /// Drops from memory every game unused for `idle` that nothing holds: no
    /// request or engine task, no socket. It is reloaded from the store when
    /// next asked for. Returns how many games left memory.
    pub fn evict_idle(&self, idle: Duration) -> usize {
        let now = self.inner.started.elapsed().as_secs();
        let Ok(mut games) = self.games_lock() else {
            return 0;
        };
        let before = games.len();
        games.retain(|_, slot| {
            let unused =
                now.saturating_sub(slot.last_used.load(Ordering::Relaxed)) >= idle.as_secs();
            // A clock this instance keeps stays in memory until its game ends.
            // (A correspondence game's deadline is days away: it is kept
            // in the deadlines alone, and the game loaded when it falls.)
            let clocked = slot
                .session
                .try_lock()
                .map_or(true, |s| s.clocked() && !s.correspondence() && !s.is_over());
            let held = Arc::strong_count(slot) > 1
                || slot.tx.receiver_count() > 0
                || slot.engine_running.load(Ordering::SeqCst)
                || clocked;
            held || !unused
        });
        before - games.len()
    }

    /// The service's share of the app's housekeeping: the chat limiter
    /// forgets old writers, and idle games leave memory. Returns how many
    /// games left memory.
    pub fn sweep(&self) -> usize {
        self.inner.chat_limiter.sweep();
        self.evict_idle(self.inner.options.evict_after)
    }

    /// How many games are in memory now.
    pub fn games_in_memory(&self) -> usize {
        self.games_lock().map_or(0, |g| g.len())
    }

    /// The options the app runs with.
    pub fn options(&self) -> &Options {
        &self.inner.options
    }

    /// Puts a newly created game in memory and starts the engine if it moves first.
    pub(crate) fn insert(&self, session: Session) -> Result<(), GameError> {
        let id = session.row.id.clone();
        self.watch_clock(&session);
        let slot = Slot::new(session);
        self.games_lock()?.insert(id, slot.clone());
        self.wake(Wake::Computer(slot));
        Ok(())
    }

    /// Hands work up to the files above (`mod.rs` says which does it), at
    /// once and without waiting for it.
    pub(crate) fn wake(&self, wake: Wake) {
        (self.inner.wake)(self, wake);
    }

    fn games_lock(
        &self,
    ) -> Result<std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>>, GameError> {
        self.inner
            .games
            .lock()
            .map_err(|_| GameError::Internal("games lock poisoned".into()))
    }
}

impl Games {
    /// Counts one more piece of analysis work for `client`, or refuses it
    /// (429 when the client has its share, 503 when the queue is full).
    pub(crate) fn analysis_ticket(
        &self,
        client: std::net::IpAddr,
    ) -> Result<AnalysisTicket, GameError> {
        AnalysisTicket::take(&self.inner.analysis_load, &self.inner.options, client)
    }
}

/// Runs analysis work (an analysis, a rollout, a review) on a blocking
/// thread once a permit of the analysis pool is free. The computer's moves
/// in games have a pool of their own, so they never wait behind this.
pub(crate) async fn on_pool<T: Send + 'static>(
    app: &Games,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, GameError> {
    super::pools::run_on(&app.inner.analysis, work).await
}
