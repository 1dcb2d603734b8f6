//! The store: games, their record tokens, dice ledgers, invites and reviews,
//! and (with PostgreSQL) the engine queue. One interface, [`Store`], over two
//! implementations:
//!
//! - [`SqliteStore`], the default: one embedded file, group commit, nothing
//!   to install; one `agon serve` owns it.
//! - [`PgStore`]: a PostgreSQL database shared by any number of `agon serve`
//!   instances and `agon worker`s. Every accepted change is announced with
//!   `NOTIFY`, so each instance pushes it to its own WebSockets; engine work
//!   waits in a queue that workers take with `FOR UPDATE SKIP LOCKED`.
//!
//! Both keep the same promises: a change is durable before it is
//! acknowledged, and a change names the revision it was made from and is
//! refused when the stored game has moved on, so two writers can never both
//! append to one game. Schemas are refinery migrations, one folder per
//! backend (`crates/server/migrations/`).

pub mod accounts;
mod list;
pub mod live;
mod postgres;
pub mod puzzles;
pub mod ratings;
pub mod schema;
mod sqlite;
pub mod talk;

pub use accounts::{AccountBackend, SeatAccount};
pub use list::{is_game_id, ListCursor, ListQuery};
pub use live::{LiveBackend, LobbyNotice, SeekRow};
pub use postgres::PgStore;
pub use puzzles::PuzzleBackend;
pub use ratings::{RatingBackend, RatingRow};
pub use sqlite::backup::{backup as backup_sqlite, Copied};
pub use sqlite::SqliteStore;
pub use talk::{ChatLine, PushTarget, Room, TalkBackend};

use crate::dice::Drawn;
use crate::model::{InviteSeats, Seat};
use crate::model::{Kind, Mode, Status};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// What is stored about a game besides its tokens.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// The game's public id.
    pub id: String,
    /// Ringo or Urgammon.
    pub kind: Kind,
    /// The rules string (Ringo) or the match header (Urgammon).
    pub settings: String,
    /// Who plays the other seat.
    pub mode: Mode,
    /// The engine's level, in engine games.
    pub level: Option<u8>,
    /// The engine's seat (0 or 1), in engine games.
    pub engine_seat: Option<Seat>,
    /// The SHA-256 of seat 0's token (attackers / light); `None` for the
    /// engine's seat or a seat waiting for its invite.
    pub token0: Option<String>,
    /// The SHA-256 of seat 1's token (defenders / dark).
    pub token1: Option<String>,
    /// A Ringo start position, when not the standard one.
    pub start_position: Option<String>,
    /// A short status for lists: ongoing or the result.
    pub status: Status,
    /// Creation time, seconds since the epoch.
    pub created_at: i64,
    /// Last change, seconds since the epoch.
    pub updated_at: i64,
    /// Rises with every change of the game, Undo included.
    pub revision: i64,
    /// Why a finished game ended, when the record alone does not say it
    /// (`resignation`).
    pub reason: Option<String>,
    /// The id of the rematch, once one was created.
    pub rematch: Option<String>,
    /// Urgammon: the match score, light's then dark's, for lists (a
    /// match in play said only "in play"); `None` for Ringo, and for a
    /// match stored before the score was (until its next change).
    pub score: Option<[u32; 2]>,
    /// The account holding each seat, once one signed in and claimed it.
    pub accounts: [Option<SeatAccount>; 2],
    /// Rated (chosen at creation, between two accounts).
    pub rated: bool,
    /// A rated Ringo pair's first game (on both games of the pair).
    pub pair_first: Option<String>,
    /// Each seat's rating change, once the game (Urgammon) or the pair
    /// (Ringo: on its second game) was rated.
    pub rating_change: Option<[f64; 2]>,
    /// A rated Ringo pair's score, on its second game once both are played:
    /// each seat's account's points over the pair.
    pub pair_score: Option<[f64; 2]>,
    /// A live game's clock.
    pub clock: Option<crate::clock::Clock>,
    /// The instance keeping the clock (it notes that it is alive; another
    /// resumes the clock if it stops).
    pub clock_owner: Option<String>,
    /// Which seats have made their first decision (bit 0: seat 0); a game
    /// may be aborted until both have.
    pub moved: u8,
    /// The offer waiting for an answer, if any.
    pub offer: Option<crate::model::Offer>,
}

/// One accepted change of a game, written in one transaction.
#[derive(Clone, Debug)]
pub struct Commit {
    /// The revision the change was made from; the write is refused if the
    /// stored game is at another one.
    pub from_revision: i64,
    /// How many of the stored tokens stay (all of them, except after an Undo).
    pub keep: usize,
    /// The tokens added after those.
    pub append: Vec<String>,
    /// Dice drawn for the first time.
    pub dice: Vec<Drawn>,
    /// The new status for lists.
    pub status: Status,
    /// The new end reason, if any.
    pub reason: Option<String>,
    /// The new match score (Urgammon).
    pub score: Option<[u32; 2]>,
    /// The clock after the change.
    pub clock: Option<crate::clock::Clock>,
    /// The instance keeping the clock after the change.
    pub clock_owner: Option<String>,
    /// Which seats have made their first decision after the change.
    pub moved: u8,
    /// The offer waiting after the change.
    pub offer: Option<crate::model::Offer>,
}

/// A store failure, or a change made from an old revision.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite failed; nothing was changed.
    #[error("storage error: {0}")]
    Sql(#[from] rusqlite::Error),
    /// The game changed since the revision the change was made from.
    #[error("the game has changed meanwhile (now at revision {0}); reload and try again")]
    Stale(i64),
    /// The batch holding the change could not be committed; nothing of it
    /// was stored.
    #[error("storage error: the commit failed: {0}")]
    Commit(String),
    /// The store's writer has stopped.
    #[error("storage error: the store is closed")]
    Closed,
    /// PostgreSQL failed (or could not be reached); nothing was changed.
    #[error("storage error: {0}")]
    Postgres(String),
    /// The engine queue is only kept in PostgreSQL.
    #[error("the engine queue needs the PostgreSQL store (agon serve --database postgres://…)")]
    NoQueue,
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        // The server's own message says what went wrong; the bare error
        // often only says "db error".
        match e.as_db_error() {
            Some(db) => StoreError::Postgres(format!("{}: {}", db.code().code(), db.message())),
            None => StoreError::Postgres(e.to_string()),
        }
    }
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(e: deadpool_postgres::PoolError) -> StoreError {
        StoreError::Postgres(format!("no connection to PostgreSQL: {e}"))
    }
}

/// A game as stored: its row, its record tokens and its dice ledger.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The row.
    pub row: GameRow,
    /// The record tokens, in order.
    pub tokens: Vec<String>,
    /// Every die drawn for the game.
    pub dice: Vec<Drawn>,
}

/// Something another process did to the shared store, announced with
/// PostgreSQL `NOTIFY`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A game changed: it is now at `revision`. `seats` says its seat tokens
    /// changed (an invite was used) without a new revision.
    Game {
        /// The game's id.
        id: String,
        /// Its revision after the change.
        revision: i64,
        /// Its seat tokens changed.
        seats: bool,
    },
    /// A job was queued.
    Queued,
    /// A job made progress (reviews).
    Progress {
        /// The job's id.
        job: i64,
        /// The job's game, if it has one.
        game: Option<String>,
        /// Steps done.
        done: usize,
        /// Steps in all.
        total: usize,
    },
    /// A job finished (with its result or its error).
    Done {
        /// The job's id.
        job: i64,
        /// The job's game, if it has one.
        game: Option<String>,
    },
    /// The lobby changed.
    Lobby(LobbyNotice),
    /// A player's sockets on a game changed on some instance.
    Presence {
        /// The game.
        game: String,
    },
    /// A line of chat was written in a game.
    Chat {
        /// The game.
        game: String,
        /// The line's id.
        id: i64,
    },
    /// The connection that listens was lost and made again: notices may have
    /// been missed, so whatever is held in memory should be reloaded.
    Resync,
}

/// What an engine job computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// The computer's action in a game at a revision.
    Move,
    /// A finished game's review.
    Review,
    /// An analysis (`POST /api/analyze`): the payload is the request.
    Analyze,
    /// A rollout (`POST /api/rollout`): the payload is the request.
    Rollout,
}

impl JobKind {
    /// Every kind.
    pub const ALL: [JobKind; 4] = [
        JobKind::Move,
        JobKind::Review,
        JobKind::Analyze,
        JobKind::Rollout,
    ];

    /// The name stored in the queue.
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Move => "move",
            JobKind::Review => "review",
            JobKind::Analyze => "analyze",
            JobKind::Rollout => "rollout",
        }
    }

    /// The kind of a stored name.
    pub fn from_name(name: &str) -> Option<JobKind> {
        JobKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// A job taken from the queue by a worker, which holds its lease.
#[derive(Clone, Debug)]
pub struct Job {
    /// The job's id.
    pub id: i64,
    /// What to compute.
    pub kind: JobKind,
    /// The game, for moves and reviews.
    pub game: Option<String>,
    /// The game's revision the job is for: a move computed for another
    /// revision is dropped.
    pub revision: i64,
    /// The request, for analyses and rollouts.
    pub payload: String,
    /// How many times the job was taken, this time included.
    pub attempts: i32,
}

/// Where a queued job stands.
#[derive(Clone, Debug, Default)]
pub struct JobState {
    /// Steps done.
    pub done: usize,
    /// Steps in all.
    pub total: usize,
    /// Whether it finished.
    pub finished: bool,
    /// Its result (JSON), once finished.
    pub result: Option<String>,
    /// Why it failed, if it did.
    pub error: Option<String>,
}

/// How much work waits in the queue.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct QueueDepth {
    /// Jobs due and waiting for a worker.
    pub waiting: usize,
    /// Jobs a worker holds now.
    pub running: usize,
}

/// The columns of `games` that make a [`GameRow`], in the order both
/// backends read them.
const COLUMNS: &str = "id, kind, settings, mode, level, engine_seat, token0, token1,
    start_position, status, created_at, updated_at, revision, reason, rematch,
    score_light, score_dark, account0, account1,
    (SELECT name FROM accounts a WHERE a.id = account0),
    (SELECT name FROM accounts a WHERE a.id = account1),
    rated, pair_first, rating_change0, rating_change1, pair_points0, pair_points1,
    clock, clock_owner, moved, offer";

/// How many columns [`COLUMNS`] names: what a query selects after them
/// starts at this index.
const N_COLUMNS: usize = 31;

/// The current time as stored (seconds since the epoch).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// A store call's answer.
pub type Stored<T> = Result<T, StoreError>;

/// A new game as it is first stored: its row, its first tokens and dice,
/// and the hash of an invite code with the seat it gives.
pub struct NewRecord {
    /// The game's row.
    pub row: GameRow,
    /// Its first tokens (an import's whole record).
    pub tokens: Vec<String>,
    /// The dice drawn for them.
    pub dice: Vec<Drawn>,
    /// An invite code's hash and its seat.
    pub invite: Option<(String, InviteSeats)>,
}

/// A job to queue for an `agon worker`.
pub struct NewJob<'a> {
    /// What to do.
    pub kind: JobKind,
    /// The game it is for (moves and reviews).
    pub game: Option<&'a str>,
    /// The game's revision it is for (the same move or review job is queued
    /// once per game and revision).
    pub revision: i64,
    /// What the worker needs (an analysis's body).
    pub payload: String,
    /// How long from now it is due.
    pub delay: Duration,
}

/// Where the store's time went since it opened: counts, and the slowest
/// of each step of a change's way to disk, in milliseconds.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct StoreTimings {
    /// fsyncs of the write-ahead log.
    pub fsyncs: usize,
    /// The slowest of them.
    pub fsync_max_ms: f64,
    /// Checkpoints (the log copied into the database) that found work.
    pub checkpoints: usize,
    /// The slowest of them.
    pub checkpoint_max_ms: f64,
    /// The longest a change waited for the writer.
    pub wait_max_ms: f64,
    /// The slowest batch's statements and commit, fsync aside.
    pub write_max_ms: f64,
    /// The slowest acknowledgement: from a change's arrival at the store to
    /// its answer, fsync included.
    pub ack_max_ms: f64,
}

/// What every store does: the one interface, its documentation written
/// once here. SQLite implements the games' part; PostgreSQL also the engine
/// queue and the announcements that let several instances share it (a
/// store without a queue answers [`StoreError::NoQueue`]).
// The queue's default bodies (a store without a queue) take their
// arguments unused.
#[allow(unused_variables)]
#[async_trait::async_trait]
pub trait Backend:
    AccountBackend + RatingBackend + PuzzleBackend + LiveBackend + TalkBackend + Send + Sync
{
    /// True for a store other processes share (PostgreSQL): what this
    /// process holds in memory may be behind it.
    fn is_shared(&self) -> bool {
        false
    }

    /// The backend's name, for the health check and the log.
    fn backend(&self) -> &'static str;

    /// Other processes' changes, as they are announced (PostgreSQL only).
    fn notices(&self) -> Option<tokio::sync::broadcast::Receiver<Notice>> {
        None
    }

    /// Creates a game with its first tokens, its dice and an invite code's
    /// hash for a seat.
    ///
    /// # Errors
    /// The write failed; nothing was stored.
    async fn create(&self, new: NewRecord) -> Stored<()>;

    /// Writes one accepted change: drops the tokens after `keep` (Undo), adds
    /// the new ones and any new dice, sets the status and the next revision.
    /// Returns the new revision.
    ///
    /// # Errors
    /// [`StoreError::Stale`] when the game is no longer at `from_revision`;
    /// otherwise the write failed. Either way nothing was changed.
    async fn commit(&self, id: &str, c: Commit) -> Result<i64, StoreError>;

    /// Adds dice found in a game's record but missing from its ledger (a game
    /// stored before the ledger existed).
    ///
    /// # Errors
    /// The write failed; nothing was stored.
    async fn add_dice(&self, id: &str, dice: Vec<Drawn>) -> Result<(), StoreError>;

    /// Adds a one-time code (by its hash) that hands `seat` (2: both seats)
    /// to whoever presents it.
    ///
    /// # Errors
    /// The write failed.
    async fn add_invite(
        &self,
        id: &str,
        code_hash: String,
        seat: InviteSeats,
    ) -> Result<(), StoreError>;

    /// Uses a one-time code (by its hash): marks it used and gives its seat (or
    /// both) the new token (by its hash), so an older token of that seat stops
    /// working; the game's revision rises, as with every change. Returns the
    /// seat code (0, 1, or 2 for both) and the new revision, or `None` when
    /// the code is unknown or used.
    ///
    /// # Errors
    /// The write failed; nothing was changed.
    async fn claim_invite(
        &self,
        id: &str,
        code: String,
        token: String,
    ) -> Stored<Option<(InviteSeats, i64)>>;

    /// Links a finished game to its rematch, as one more change of the game.
    ///
    /// # Errors
    /// [`StoreError::Stale`] when the game is no longer at `from_revision`.
    async fn set_rematch(&self, id: &str, from_revision: i64, rematch: String) -> Stored<i64>;

    /// Loads a game's row, tokens and dice ledger.
    ///
    /// # Errors
    /// The read failed.
    async fn load(&self, id: &str) -> Result<Option<Loaded>, StoreError>;

    /// The games `query` asks for, most recently changed first, with their
    /// token counts.
    ///
    /// # Errors
    /// The read failed.
    async fn list(&self, query: &ListQuery) -> Result<Vec<(GameRow, usize)>, StoreError>;

    /// A game's stored review: the revision it was made at, and its JSON.
    ///
    /// # Errors
    /// The read failed.
    async fn review(&self, id: &str) -> Result<Option<(i64, String)>, StoreError>;

    /// Stores a game's review, computed once.
    ///
    /// # Errors
    /// The write failed.
    async fn save_review(&self, id: &str, revision: i64, body: String) -> Result<(), StoreError>;

    /// Changes committed and commits made so far by this process: their ratio
    /// is how many moves share one fsync.
    fn commit_stats(&self) -> (usize, usize);

    /// Where a change's time went, for a store that measures it (SQLite:
    /// its writer and its fsyncs; PostgreSQL's are the server's own).
    fn timings(&self) -> Option<StoreTimings> {
        None
    }

    /// Queues an engine job, due after `delay`. Returns its id, or `None`
    /// when the same move or review job is already queued.
    ///
    /// # Errors
    /// The write failed, or this store has no queue.
    async fn enqueue(&self, job: NewJob<'_>) -> Stored<Option<i64>> {
        Err(StoreError::NoQueue)
    }

    /// Takes the oldest due job for `worker`, with a lease of `lease`: until
    /// it runs out no other worker takes the job.
    ///
    /// # Errors
    /// The read failed, or this store has no queue.
    async fn take(&self, worker: &str, lease: Duration) -> Result<Option<Job>, StoreError> {
        Err(StoreError::NoQueue)
    }

    /// Extends `worker`'s lease of a job; false when the job is no longer
    /// its own (the lease ran out and another worker took it).
    ///
    /// # Errors
    /// The write failed, or this store has no queue.
    async fn renew(&self, job: i64, worker: &str, lease: Duration) -> Result<bool, StoreError> {
        Err(StoreError::NoQueue)
    }

    /// Records a job's progress and announces it.
    ///
    /// # Errors
    /// The write failed, or this store has no queue.
    async fn progress(&self, job: &Job, done: usize, total: usize) -> Result<(), StoreError> {
        Err(StoreError::NoQueue)
    }

    /// Finishes a job with its result or its error, and announces it.
    ///
    /// # Errors
    /// The write failed, or this store has no queue.
    async fn finish(&self, job: &Job, result: Result<String, String>) -> Result<(), StoreError> {
        Err(StoreError::NoQueue)
    }

    /// Queues a job again, from its first attempt, with a new payload, due
    /// after `delay`: a move job that keeps failing is retried this way at
    /// a cheaper level instead of being given up, so its game never stalls.
    ///
    /// # Errors
    /// The write failed, or this store has no queue.
    async fn retry(&self, job: &Job, payload: String, delay: Duration) -> Result<(), StoreError> {
        Err(StoreError::NoQueue)
    }

    /// Where a job stands; `None` once it is gone.
    ///
    /// # Errors
    /// The read failed, or this store has no queue.
    async fn job(&self, id: i64) -> Result<Option<JobState>, StoreError> {
        Err(StoreError::NoQueue)
    }

    /// The move job of a game at a revision, if one was queued: its id.
    ///
    /// # Errors
    /// The read failed, or this store has no queue.
    async fn move_job(&self, game: &str, revision: i64) -> Result<Option<i64>, StoreError> {
        Err(StoreError::NoQueue)
    }

    /// The unfinished review job of a game, if any: its id and state.
    ///
    /// # Errors
    /// The read failed, or this store has no queue.
    async fn review_job(&self, game: &str) -> Result<Option<(i64, JobState)>, StoreError> {
        Err(StoreError::NoQueue)
    }

    /// How much work waits in the queue (nothing, for SQLite).
    ///
    /// # Errors
    /// The read failed.
    async fn queue_depth(&self) -> Result<QueueDepth, StoreError> {
        Ok(QueueDepth::default())
    }
}

/// The store the app runs on: SQLite or PostgreSQL behind [`Backend`].
/// Cloning it gives another handle to the same store.
#[derive(Clone)]
pub struct Store(Arc<dyn Backend>);

impl std::ops::Deref for Store {
    type Target = dyn Backend;
    fn deref(&self) -> &(dyn Backend + 'static) {
        &*self.0
    }
}

impl Store {
    /// Opens (creating if needed) the SQLite file `agon.db` in `dir`, which is
    /// made readable by its owner only.
    ///
    /// # Errors
    /// The directory or file cannot be created or opened, or migrated.
    pub fn open(dir: &Path) -> Result<Store, rusqlite::Error> {
        Ok(Store(Arc::new(SqliteStore::open(dir)?)))
    }

    /// An in-memory SQLite store, for tests.
    ///
    /// # Errors
    /// SQLite cannot start.
    pub fn in_memory() -> Result<Store, rusqlite::Error> {
        Ok(Store(Arc::new(SqliteStore::in_memory()?)))
    }

    /// Connects to PostgreSQL at `url` (`postgres://user@host:port/db`),
    /// brings its schema up to date, and starts listening for other
    /// processes' changes.
    ///
    /// # Errors
    /// The server cannot be reached, or the migration failed.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Ok(Store(Arc::new(PgStore::connect(url).await?)))
    }

    /// The current time as stored (seconds since the epoch).
    pub fn now() -> i64 {
        now()
    }
}
