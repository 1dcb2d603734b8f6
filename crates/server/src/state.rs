//! The composition root: every service of the app built once, in one
//! place, which also starts their loops (as lila's `Env` wires its
//! modules). A handler holds an [`AppState`] and calls one service through
//! it: [`AppState::games`] (every change of a game, through its door),
//! [`AppState::lobby`] (seeks and pools), [`AppState::accounts`], the
//! store. Nothing here decides anything about a game; what the root owns
//! itself is what belongs to no service: the sockets open on this
//! instance, the stop, and the housekeeping's schedule.

use crate::accounts::Accounts;
use crate::games::{Games, Options, Parts};
use crate::lobby::Lobby;
use crate::people::People;
use crate::safety::Safety;
use crate::store::Store;
use crate::tasks::{Stopping, Tasks};
use crate::tournaments::Tournaments;
use crate::ws::Sockets;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A piece of housekeeping run at each sweep (the HTTP layer's rate
/// limiters forgetting old clients).
pub(crate) type Chore = Box<dyn Fn() + Send + Sync>;

/// The app: its services, wired once. Clones share them.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Root>,
}

struct Root {
    store: Store,
    accounts: Accounts,
    games: Games,
    lobby: Lobby,
    people: People,
    safety: Safety,
    tournaments: Tournaments,
    /// The one handle on every loop and background task of every service.
    tasks: Tasks,
    /// The WebSockets open on this instance, and the signal that closes
    /// them when the server stops.
    sockets: Arc<Sockets>,
    /// Raised when a stop begins with a drain: the health check says
    /// `stopping` while everything is still served.
    draining: AtomicBool,
    /// Housekeeping the HTTP layer hands in, run by each sweep.
    chores: Mutex<Vec<Chore>>,
}

impl AppState {
    /// An app over a store, with default limits.
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

    /// An app over a store, with these limits: every service built, and
    /// every loop started (the clock keeper, the notice followers, the
    /// lobby's loops, the sweeper); [`AppState::stop`] stops them all.
    pub fn with_options(store: Store, options: Options) -> AppState {
        let tasks = Tasks::new();
        let accounts = Accounts::new(store.clone(), options.password_hashes());
        let sockets = Sockets::new(options.max_sockets_per_address);
        let games = Games::start(Parts {
            store: store.clone(),
            push: crate::push::Pusher::new(options.push.clone()),
            tasks: tasks.clone(),
            options,
        });
        let people = People::start(games.clone());
        let safety = Safety::new(store.clone());
        let lobby = Lobby::start(games.clone(), people.clone());
        let tournaments = Tournaments::start(lobby.clone(), people.clone());
        let app = AppState {
            inner: Arc::new(Root {
                store,
                accounts,
                games,
                lobby,
                people,
                safety,
                tournaments,
                tasks,
                sockets,
                draining: AtomicBool::new(false),
                chores: Mutex::new(vec![]),
            }),
        };
        app.inner.tasks.spawn(sweeper(
            Arc::downgrade(&app.inner),
            app.inner.tasks.stopping(),
        ));
        app
    }

    /// The games service: every change of a game goes through it.
    pub fn games(&self) -> &Games {
        &self.inner.games
    }

    /// Tournaments: arenas and Swiss events.
    pub fn tournaments(&self) -> &Tournaments {
        &self.inner.tournaments
    }

    /// The lobby: seeks and quick pairing.
    pub fn lobby(&self) -> &Lobby {
        &self.inner.lobby
    }

    /// Who is here: players online, follows.
    pub fn people(&self) -> &People {
        &self.inner.people
    }

    /// Safety between strangers: blocks, reports, moderators.
    pub fn safety(&self) -> &Safety {
        &self.inner.safety
    }

    /// The account service.
    pub fn accounts(&self) -> &Accounts {
        &self.inner.accounts
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Web Push: this server's keys and its client.
    pub(crate) fn pusher(&self) -> &crate::push::Pusher {
        self.inner.games.pusher()
    }

    /// The options the app runs with.
    pub fn options(&self) -> &Options {
        self.inner.games.options()
    }

    /// The WebSockets open on this instance.
    pub(crate) fn sockets_open(&self) -> &Arc<Sockets> {
        &self.inner.sockets
    }

    /// Runs `task` in the background, counted by the stop.
    pub(crate) fn spawn(&self, task: impl std::future::Future<Output = ()> + Send + 'static) {
        self.inner.tasks.spawn(task);
    }

    /// What a loop selects on to end when the app stops.
    pub(crate) fn stopping(&self) -> Stopping {
        self.inner.tasks.stopping()
    }

    /// Stops every loop of every service and waits until every task they
    /// started has finished (a change being written is written first).
    /// Requests still served go on; nothing runs by itself any more.
    pub async fn stop(&self) {
        self.inner.tasks.stop().await;
    }

    /// Hands the app housekeeping to run at each sweep (replacing any given
    /// before): the HTTP layer's limiters forget clients not seen lately.
    pub(crate) fn set_chores(&self, chores: Vec<Chore>) {
        if let Ok(mut c) = self.inner.chores.lock() {
            *c = chores;
        }
    }

    /// Housekeeping, run now and then by the sweeper: the rate limiters and
    /// the sign-in throttle forget clients not seen lately, idle games
    /// leave memory. Returns how many games left memory.
    pub fn sweep(&self) -> usize {
        if let Ok(c) = self.inner.chores.lock() {
            for chore in c.iter() {
                chore();
            }
        }
        self.inner.accounts.sweep();
        self.inner.games.sweep()
    }

    /// Starts stopping: sockets close with a reconnect hint, the health
    /// check answers 503 so a proxy sends new requests elsewhere.
    pub fn close(&self) {
        self.inner.sockets.close();
    }

    /// Waits until every WebSocket has closed, polling, so a stopping server
    /// does not exit before its sockets have sent the reconnect hint (the
    /// upgraded sockets outlive the HTTP connections `listen` waits for).
    pub async fn sockets_closed(&self) {
        while self.sockets() > 0 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Begins the drain before a stop: the health check says `stopping`.
    pub fn drain(&self) {
        self.inner.draining.store(true, Ordering::SeqCst);
    }

    /// True once the server is stopping (or draining before it stops).
    pub fn closing(&self) -> bool {
        self.inner.draining.load(Ordering::SeqCst) || self.inner.sockets.closing()
    }

    /// How many WebSockets are open now.
    pub fn sockets(&self) -> usize {
        self.inner.sockets.open()
    }
}

/// Housekeeping now and then, for as long as the app lives: idle games
/// leave memory, the limiters forget old clients.
async fn sweeper(app: std::sync::Weak<Root>, mut stopping: Stopping) {
    let every = match app.upgrade() {
        // Often enough that a game leaves memory soon after its idle time.
        Some(root) => (root.games.options().evict_after / 2)
            .clamp(Duration::from_secs(1), Duration::from_secs(30)),
        None => return,
    };
    let mut tick = tokio::time::interval(every);
    tick.tick().await;
    loop {
        tokio::select! {
            () = stopping.wait() => return,
            _ = tick.tick() => {}
        }
        let Some(inner) = app.upgrade() else { return };
        AppState { inner }.sweep();
    }
}
