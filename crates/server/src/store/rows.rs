//! What the store keeps and answers, whichever backend: a game's row, a
//! change to commit, a loaded game, the announcements of changes, engine
//! jobs, and the columns both backends read a game from.

use super::accounts::SeatAccount;
use super::live::LobbyNotice;
use crate::dice::Drawn;
use crate::model::{InviteSeats, Seat};
use crate::model::{Kind, Mode, Status};
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
    /// A player's challenges (sent or received) changed on some instance:
    /// the instance holding her sockets tells her pages.
    Person {
        /// Her account.
        account: i64,
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
pub(super) const COLUMNS: &str = "id, kind, settings, mode, level, engine_seat, token0, token1,
    start_position, status, created_at, updated_at, revision, reason, rematch,
    score_light, score_dark, account0, account1,
    (SELECT name FROM accounts a WHERE a.id = account0),
    (SELECT name FROM accounts a WHERE a.id = account1),
    rated, pair_first, rating_change0, rating_change1, pair_points0, pair_points1,
    clock, clock_owner, moved, offer";

/// How many columns [`COLUMNS`] names: what a query selects after them
/// starts at this index.
pub(super) const N_COLUMNS: usize = 31;

/// The current time as stored (seconds since the epoch).
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

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
