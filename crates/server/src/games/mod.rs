//! The games service: games loaded into their slots, and every change of
//! a game through its one door (`round.rs`: decide, commit with the
//! revision check, and every after-effect). A player's action, the clock,
//! the computer, a join, a seat claimed, a rematch, a pair's second game,
//! an account deleted and a catch-up with another instance's change are
//! all callers of that door.

mod clocks;
mod computer;
mod finish;
mod loops;
mod opening;
mod options;
pub(crate) mod players;
mod pools;
mod rematch;
mod round;
pub(crate) mod shared;
pub mod talk;

pub use crate::session::PAIR_PAUSE_MS;
pub(crate) use finish::begin_pair;
pub(crate) use loops::Stopping;

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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// A piece of housekeeping run at each sweep.
pub(crate) type Chore = Box<dyn Fn() + Send + Sync>;

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

/// Housekeeping now and then, for as long as the state lives: idle games
/// leave memory, the limiters forget old clients.
async fn sweeper(app: WeakState, mut stopping: loops::Stopping) {
    let every = match app.upgrade() {
        // Often enough that a game leaves memory soon after its idle time.
        Some(app) => {
            (app.options().evict_after / 2).clamp(Duration::from_secs(1), Duration::from_secs(30))
        }
        None => return,
    };
    let mut tick = tokio::time::interval(every);
    tick.tick().await;
    loop {
        tokio::select! {
            () = stopping.wait() => return,
            _ = tick.tick() => {}
        }
        let Some(app) = app.upgrade() else { return };
        app.sweep();
    }
}

/// The shared state of the app.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

/// A weak handle on the state, for a loop that must not keep it alive.
#[derive(Clone)]
pub(crate) struct WeakState(std::sync::Weak<Inner>);

impl WeakState {
    /// The state, while it lives.
    pub(crate) fn upgrade(&self) -> Option<AppState> {
        self.0.upgrade().map(|inner| AppState { inner })
    }
}

struct Inner {
    store: Store,
    /// Accounts and their sessions.
    accounts: crate::accounts::Accounts,
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
    /// WebSockets open now, in all.
    sockets: AtomicUsize,
    /// WebSockets open now per client address.
    socket_addresses: Arc<crate::hub::PerAddress>,
    /// Housekeeping the layers above hand in (the HTTP rate limiters
    /// forgetting old clients), run by each sweep.
    chores: Mutex<Vec<Chore>>,
    /// When the app started: slots note their last use as seconds since.
    started: std::time::Instant,
    /// Reviews being computed: game id → (steps done, steps in all).
    reviews: Mutex<HashMap<String, (usize, usize)>>,
    /// Raised when the server stops: sockets close with a reconnect hint and
    /// the health check says `stopping`.
    closing: tokio::sync::watch::Sender<bool>,
    /// Raised when a stop begins with a drain: the health check says
    /// `stopping` while everything is still served.
    draining: std::sync::atomic::AtomicBool,
    /// Requests waiting for a queued job's result, by job id.
    waiting_jobs: Mutex<HashMap<i64, tokio::sync::oneshot::Sender<()>>>,
    /// This instance's name among those sharing the store: it keeps the
    /// clocks of the games it changed last.
    instance: String,
    /// The clocks this instance keeps: game id → when its deadline passes
    /// (milliseconds since the epoch).
    deadlines: Mutex<HashMap<String, i64>>,
    /// The lobby's sockets and the seeks they hold.
    lobby: crate::hub::LobbyHub,
    /// Each chat writer's recent lines, for the rate limit.
    chat_limiter: talk::ChatLimiter,
    /// Web Push: this server's keys and its client.
    push: crate::push::Pusher,
    /// Every loop and background task of the state, and the one handle
    /// that stops them.
    loops: loops::Loops,
}

impl AppState {
    /// A state over a store, with default limits.
    pub fn new(store: Store, engine_threads: usize, engine_delay: Duration) -> AppState {
        AppState::with_options(
            store,
            Options {
                engine_threads,
                engine_delay,
                ..Options::default()
            },
        )
    }

    /// A state over a store, with these limits.
    pub fn with_options(store: Store, options: Options) -> AppState {
        let notices = store.notices();
        let per_address_sockets = options.max_sockets_per_address;
        let options_push = options.push.clone();
        let app = AppState {
            inner: Arc::new(Inner {
                accounts: crate::accounts::Accounts::new(store.clone(), options.password_hashes()),
                store,
                games: Mutex::new(HashMap::new()),
                engine: Arc::new(Semaphore::new(options.engine_threads.max(1))),
                analysis: Arc::new(Semaphore::new(options.engine_threads.max(1))),
                analysis_load: Mutex::new(crate::games::AnalysisLoad::default()),
                engine_delay: options.engine_delay,
                options,
                sockets: AtomicUsize::new(0),
                socket_addresses: crate::hub::PerAddress::new(per_address_sockets, vec![]),
                chores: Mutex::new(vec![]),
                started: std::time::Instant::now(),
                reviews: Mutex::new(HashMap::new()),
                waiting_jobs: Mutex::new(HashMap::new()),
                closing: tokio::sync::watch::channel(false).0,
                draining: std::sync::atomic::AtomicBool::new(false),
                instance: crate::secrets::instance_name(),
                deadlines: Mutex::new(HashMap::new()),
                lobby: crate::hub::LobbyHub::new(),
                chat_limiter: talk::ChatLimiter::default(),
                push: crate::push::Pusher::new(options_push.clone()),
                loops: loops::Loops::new(),
            }),
        };
        // The state's loops start with it, and stop with `stop`.
        if let Some(notices) = notices {
            app.spawn(shared::follow(app.downgrade(), notices, app.stopping()));
        }
        app.spawn(clocks::keep(app.downgrade(), app.stopping()));
        app.spawn(sweeper(app.downgrade(), app.stopping()));
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

    /// The body limit of a path.
    pub(crate) fn body_limit(&self, path: &str) -> usize {
        if path == "/api/import" {
            MAX_IMPORT
        } else {
            MAX_BODY
        }
    }

    /// A weak handle on the state, for a loop that must not keep it alive.
    pub(crate) fn downgrade(&self) -> WeakState {
        WeakState(Arc::downgrade(&self.inner))
    }

    /// The lobby's sockets and the seeks they hold.
    pub(crate) fn lobby_hub(&self) -> &crate::hub::LobbyHub {
        &self.inner.lobby
    }

    /// Raised when the server stops (sockets close with a reconnect hint).
    pub(crate) fn closing_watch(&self) -> tokio::sync::watch::Receiver<bool> {
        self.inner.closing.subscribe()
    }

    /// Reviews being computed here: game id → (steps done, steps in all).
    pub(crate) fn reviews(&self) -> &Mutex<HashMap<String, (usize, usize)>> {
        &self.inner.reviews
    }

    /// Web Push: this server's keys and its client.
    pub(crate) fn pusher(&self) -> &crate::push::Pusher {
        &self.inner.push
    }

    /// The WebSockets open now, in all, and per client address.
    pub(crate) fn socket_counts(&self) -> (&AtomicUsize, &Arc<crate::hub::PerAddress>) {
        (&self.inner.sockets, &self.inner.socket_addresses)
    }

    /// The store.
    pub(crate) fn store(&self) -> &Store {
        &self.inner.store
    }

    /// The account service.
    pub fn accounts(&self) -> &crate::accounts::Accounts {
        &self.inner.accounts
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
    ) -> Result<(Arc<Slot>, Vec<u8>), GameError> {
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

    /// Hands the service housekeeping to run at each sweep (replacing any
    /// given before): the HTTP layer's limiters forget clients not seen
    /// lately.
    pub(crate) fn set_chores(&self, chores: Vec<Chore>) {
        if let Ok(mut c) = self.inner.chores.lock() {
            *c = chores;
        }
    }

    /// Housekeeping, run now and then by the server's sweeper: idle games leave
    /// memory, and the rate limiters forget clients not seen lately.
    pub fn sweep(&self) -> usize {
        if let Ok(c) = self.inner.chores.lock() {
            for chore in c.iter() {
                chore();
            }
        }
        self.inner.accounts.sweep();
        self.inner.chat_limiter.sweep();
        self.evict_idle(self.inner.options.evict_after)
    }

    /// Starts stopping: sockets close with a reconnect hint, the health
    /// check answers 503 so a proxy sends new requests elsewhere.
    pub fn close(&self) {
        self.inner.closing.send_replace(true);
    }

    /// Waits until every WebSocket has closed, polling, so a stopping server
    /// does not exit before its sockets have sent the reconnect hint (the
    /// upgraded sockets outlive the HTTP connections `listen` waits for).
    pub async fn sockets_closed(&self) {
        while self.sockets() > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
    }

    /// Begins the drain before a stop: the health check says `stopping`.
    pub fn drain(&self) {
        self.inner.draining.store(true, Ordering::SeqCst);
    }

    /// True once the server is stopping (or draining before it stops).
    pub fn closing(&self) -> bool {
        self.inner.draining.load(Ordering::SeqCst) || *self.inner.closing.borrow()
    }

    /// How many WebSockets are open now.
    pub fn sockets(&self) -> usize {
        self.inner.sockets.load(Ordering::Relaxed)
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
        seats: &[u8],
        action: &Action,
        expect_revision: Option<i64>,
        lag_ms: i64,
    ) -> Result<(crate::session::SessionView, Vec<u8>), GameError> {
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
