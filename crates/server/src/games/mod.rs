//! The games service: games loaded into their slots, and every change of
//! a game through its one door (`round.rs`: decide, commit with the
//! revision check, and every after-effect). A player's action, the clock,
//! the computer, a join, a seat claimed, a rematch, a pair's second game,
//! an account deleted and a catch-up with another instance's change are
//! all callers of that door.

mod acting;
mod clocks;
pub use acting::{Acted, Ask};
mod computer;
pub use computer::EngineReply;
mod finish;
mod opening;
mod options;
pub(crate) mod players;
mod pools;
mod rematch;
mod reviews;
pub use reviews::Review;
mod round;
pub(crate) mod shared;
pub mod talk;

use crate::model::Seat;
pub use crate::session::PAIR_PAUSE_MS;
pub(crate) use crate::tasks::Stopping;
use crate::tasks::Tasks;
pub(crate) use finish::begin_pair;

pub(crate) use opening::{new_row, open_game, NewGame};
pub use options::{Config, Options};
pub(crate) use pools::{on_pool, AnalysisLoad, AnalysisTicket};

use crate::dice::OsDice;
use crate::engine::EngineError;
use crate::hub::Slot;
use crate::session::SessionError;
use crate::session::{Action, Moment, Session};
use crate::store::Store;
use crate::store::StoreError;
use round::{Cause, Change};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Why the games service could not do what was asked. The HTTP layer turns
/// each into a status and a code; the service knows nothing of HTTP.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// No game with this id.
    #[error("no game with id '{0}'")]
    NotFound(String),
    /// The request named a revision the game has passed.
    #[error(
        "the game has changed: you sent revision {sent}, it is at {now}; reload and try again"
    )]
    Stale {
        /// The revision the request named.
        sent: i64,
        /// The game's revision now.
        now: i64,
    },
    /// The rules refused the action.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The store failed or refused.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Engine work failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// A chat line refused.
    #[error(transparent)]
    Chat(#[from] talk::ChatRefusal),
    /// This client has its share of analyses queued or running already.
    #[error("you have {held} analyses or rollouts running already (at most {cap} at once): wait for them, then try again")]
    AnalysisLimit {
        /// How many it has.
        held: usize,
        /// How many it may have.
        cap: usize,
    },
    /// The analysis queue is full.
    #[error("the engine has too many analyses queued: try again in a few seconds")]
    EngineBusy,
    /// No engine worker answered a queued job in time.
    #[error(
        "no engine worker answered in time: the site is busy or has no worker running; try again"
    )]
    NoWorker,
    /// A new game's record does not replay.
    #[error("{0}")]
    BadRecord(String),
    /// A takeback offered in a rated game where a player turned them off.
    #[error(
        "takebacks in this rated game are off: both players must allow them in their settings"
    )]
    TakebacksOff,
    /// A review asked of a game not over.
    #[error("a review is for a finished game: finish or resign it first")]
    NotOver,
    /// An invite code already used, or not for this game.
    #[error("this invite has already been used (or is not for this game): you can watch the game")]
    InviteUsed,
    /// A rated game's seat taken signed out.
    #[error("this game is rated: sign in (or make an account) to take your seat")]
    RatedNeedsAccount,
    /// A rated game's second seat taken by the account holding the first.
    #[error("this rated game is yours already: send the invite to your opponent")]
    OwnRatedGame,
    /// The request holds no seat of the game.
    #[error("{0}")]
    NotAPlayer(String),
    /// A new game's record is longer than the server keeps.
    #[error("{0}")]
    RecordTooLong(String),
    /// Something that should not happen.
    #[error("{0}")]
    Internal(String),
}

impl From<crate::secrets::NoSecret> for GameError {
    fn from(e: crate::secrets::NoSecret) -> GameError {
        GameError::Internal(e.to_string())
    }
}

/// The largest request body accepted, in bytes (imports excepted).
pub const MAX_BODY: usize = 64 * 1024;

pub use crate::session::MAX_TOKENS;

/// The largest import body: the longest record the server can export
/// ([`MAX_TOKENS`] tokens of at most 9 bytes, each with its separator, plus a
/// match header and a resignation line), with room for JSON escaping of every
/// separator. A test imports a body of the longest export's size.
pub const MAX_IMPORT: usize = 2 * (MAX_TOKENS * 10 + 256) + 1024;

/// The games service: a handle on the games in memory and the door every
/// change of a game goes through. Clones share one service.
#[derive(Clone)]
pub struct Games {
    inner: Arc<Inner>,
}

/// A weak handle on the games service, for a loop that must not keep it
/// alive.
#[derive(Clone)]
pub(crate) struct WeakGames(std::sync::Weak<Inner>);

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

struct Inner {
    store: Store,
    games: Mutex<HashMap<String, Arc<Slot>>>,
    /// The computer's moves in games: a pool of their own, so that no
    /// analysis, rollout or review is ever ahead of a game in the queue.
    engine: Arc<Semaphore>,
    /// Analyses, rollouts and reviews.
    analysis: Arc<Semaphore>,
    /// Analysis work queued or running, per client address, and in all.
    analysis_load: Mutex<crate::games::AnalysisLoad>,
    engine_delay: Duration,
    options: Options,
    /// When the service started: slots note their last use as seconds
    /// since.
    started: std::time::Instant,
    /// Reviews being computed: game id → (steps done, steps in all).
    reviews: Mutex<HashMap<String, (usize, usize)>>,
    /// Requests waiting for a queued job's result, by job id.
    waiting_jobs: Mutex<HashMap<i64, tokio::sync::oneshot::Sender<()>>>,
    /// This instance's name among those sharing the store: it keeps the
    /// clocks of the games it changed last.
    instance: String,
    /// The clocks this instance keeps: game id → when its deadline passes
    /// (milliseconds since the epoch).
    deadlines: Mutex<HashMap<String, i64>>,
    /// Each chat writer's recent lines, for the rate limit.
    chat_limiter: talk::ChatLimiter,
    /// Web Push: this server's keys and its client.
    push: crate::push::Pusher,
    /// The app's one handle on its loops and background tasks.
    tasks: Tasks,
}

impl Games {
    /// The games service over its parts; its loops (the clock keeper, the
    /// follower of other instances' changes, the Web Push key's first
    /// making) start here and stop with the app's [`Tasks`].
    pub(crate) fn start(parts: Parts) -> Games {
        let Parts {
            store,
            push,
            tasks,
            options,
        } = parts;
        let notices = store.notices();
        let app = Games {
            inner: Arc::new(Inner {
                store,
                games: Mutex::new(HashMap::new()),
                engine: Arc::new(Semaphore::new(options.engine_threads.max(1))),
                analysis: Arc::new(Semaphore::new(options.engine_threads.max(1))),
                analysis_load: Mutex::new(crate::games::AnalysisLoad::default()),
                engine_delay: options.engine_delay,
                options,
                started: std::time::Instant::now(),
                reviews: Mutex::new(HashMap::new()),
                waiting_jobs: Mutex::new(HashMap::new()),
                instance: crate::secrets::instance_name(),
                deadlines: Mutex::new(HashMap::new()),
                chat_limiter: talk::ChatLimiter::default(),
                push,
                tasks,
            }),
        };
        if let Some(notices) = notices {
            app.spawn(shared::follow(app.downgrade(), notices, app.stopping()));
        }
        app.spawn(clocks::keep(app.downgrade(), app.stopping()));
        // The Web Push key is made at first start (and kept in the store,
        // where every instance finds it).
        let weak = app.downgrade();
        app.spawn(async move {
            let Some(app) = weak.upgrade() else { return };
            if let Err(e) = app.pusher().keys(app.store()).await {
                tracing::warn!(error = %e, "no Web Push key yet: made when first needed");
            }
        });
        app
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
        self.kick_engine(slot.clone());
        if unrated {
            let (app, slot) = (self.clone(), slot.clone());
            self.spawn(async move { app.finish_late(&slot).await });
        }
        Ok(slot)
    }

    /// A game's slot and the seats the request's token and account hold in
    /// it.
    pub(crate) async fn slot_and_seats(
        &self,
        id: &str,
        token: Option<&str>,
        account: Option<i64>,
    ) -> Result<(Arc<Slot>, Vec<Seat>), GameError> {
        let slot = self.slot(id).await?;
        let mut seats = slot.session.lock().await.seats_held(token, account);
        // Another instance may have handed a seat to this token a moment
        // ago (its announcement is on its way): look at the stored game.
        if seats.is_empty() && token.is_some_and(|t| !t.is_empty()) && self.store().is_shared() {
            self.catch_up(&slot).await?;
            seats = slot.session.lock().await.seats_held(token, account);
        }
        Ok((slot, seats))
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
        self.kick_engine(slot);
        Ok(())
    }

    fn games_lock(
        &self,
    ) -> Result<std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>>, GameError> {
        self.inner
            .games
            .lock()
            .map_err(|_| GameError::Internal("games lock poisoned".into()))
    }

    /// Applies a player's action to a game for the seats her request
    /// holds, if the game is still at `expect_revision` (when given),
    /// through the door. Returns the state after it and the seats. A
    /// client that reports `lag_ms` of network lag is credited that much
    /// on its clock for a decision, up to the bound.
    pub(crate) async fn apply(
        &self,
        slot: &Arc<Slot>,
        seats: &[Seat],
        action: &Action,
        expect_revision: Option<i64>,
        lag_ms: i64,
    ) -> Result<(crate::session::SessionView, Vec<Seat>), GameError> {
        let lag_ms = if action.is_decision() { lag_ms } else { 0 };
        let outcome = self
            .change(slot, Cause::Player, |session| {
                if let Some(r) = expect_revision.filter(|r| *r != session.revision()) {
                    return Err(GameError::Stale {
                        sent: r,
                        now: session.revision(),
                    });
                }
                let at = Moment::now(&self.inner.instance, lag_ms);
                let (next, commit) = session.act_at(seats, action, &mut OsDice, &at)?;
                Ok(Some(Change::Play(Box::new(next), commit)))
            })
            .await?;
        Ok((outcome.view, seats.to_vec()))
    }
}
