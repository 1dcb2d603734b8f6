//! What a backend of the store does ([`Backend`]): the SQLite and the
//! PostgreSQL store each implement it; [`super::Store`] holds one.

use super::accounts::AccountBackend;
use super::error::{StoreError, Stored};
use super::list::ListQuery;
use super::live::LiveBackend;
use super::people::PeopleBackend;
use super::puzzles::PuzzleBackend;
use super::ratings::RatingBackend;
use super::rows::{
    Commit, GameRow, Job, JobState, Loaded, NewJob, NewRecord, Notice, QueueDepth, StoreTimings,
};
use super::safety::SafetyBackend;
use super::talk::TalkBackend;
use super::tournaments::TournamentBackend;
use crate::dice::Drawn;
use crate::model::InviteSeats;
use std::time::Duration;

/// What every store does: the one interface, its documentation written
/// once here. SQLite implements the games' part; PostgreSQL also the engine
/// queue and the announcements that let several instances share it (a
/// store without a queue answers [`StoreError::NoQueue`]).
// The queue's default bodies (a store without a queue) take their
// arguments unused.
#[allow(unused_variables)]
#[async_trait::async_trait]
pub trait Backend:
    AccountBackend
    + RatingBackend
    + PuzzleBackend
    + LiveBackend
    + TalkBackend
    + PeopleBackend
    + SafetyBackend
    + TournamentBackend
    + Send
    + Sync
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
