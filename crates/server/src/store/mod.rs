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
mod backend;
mod error;
mod list;
pub mod live;
pub mod people;
mod postgres;
pub mod puzzles;
pub mod ratings;
mod rows;
pub mod safety;
pub mod schema;
mod sqlite;
pub mod talk;
pub mod tournaments;

pub use accounts::{AccountBackend, SeatAccount};
pub use backend::Backend;
pub use error::{StoreError, Stored};
pub use list::{is_game_id, ListCursor, ListQuery};
pub use live::{LiveBackend, LobbyNotice, SeekRow};
pub use people::{
    Capped, ChallengeRow, ChallengeStatus, OnlineNow, PeopleBackend, Relation, LIVE_CHALLENGE_MS,
};
pub use postgres::PgStore;
pub use puzzles::PuzzleBackend;
pub use ratings::{RatedGame, RatingBackend, RatingRow, Replayed, ReplayedGame};
pub use rows::{
    now, Commit, GameRow, Job, JobKind, JobState, Loaded, NewJob, NewRecord, Notice, QueueDepth,
    StoreTimings,
};
pub use safety::{ModActionRow, ReportRow, SafetyBackend, Sanction};
pub use sqlite::backup::{backup as backup_sqlite, Copied};
pub use sqlite::SqliteStore;
pub use talk::{ChatLine, PushTarget, Room, TalkBackend};
pub use tournaments::{BoutRow, EntrantRow, TournamentBackend, TournamentRow};

use std::path::Path;
use std::sync::Arc;

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
