//! What the store keeps of tournaments: the events, who entered, and their
//! bouts (a Ringo pair of games or an Urgammon match, or a bye), each
//! with its result once over. Standings are counted from the bouts, never
//! kept beside them, so a recount always agrees. Which instance pairs an
//! event is a lease in its row: the store arbitrates.

use super::accounts::SeatAccount;
use super::error::Stored;
use crate::model::{EventKind, EventStatus, Kind};

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Its id.
    pub id: String,
    /// An arena or a Swiss event.
    pub kind: EventKind,
    /// The game.
    pub game: Kind,
    /// Its name.
    pub name: String,
    /// What it is played with, as JSON (the service's `Spec`).
    pub spec: String,
    /// Upcoming, running or finished.
    pub status: EventStatus,
    /// When it starts, milliseconds since the epoch.
    pub starts_ms: i64,
    /// When an arena ends (a Swiss event: when it ended).
    pub ends_ms: Option<i64>,
    /// A Swiss event's round under way (0 before the first).
    pub round: i64,
    /// Who made it (none: the operator's schedule).
    pub created_by: Option<SeatAccount>,
    /// When it was made.
    pub created_ms: i64,
    /// The operator's schedule entry that made it (one event per entry and
    /// start).
    pub schedule: Option<String>,
}

/// A player entered in a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct EntrantRow {
    /// Her account.
    pub account: SeatAccount,
    /// When she joined.
    pub joined_ms: i64,
    /// She withdrew (she may join again).
    pub withdrawn: bool,
    /// Her rating in the game when she joined (orders the first round).
    pub rating: f64,
    /// When she was told the event was about to start.
    pub told_ms: Option<i64>,
}

/// A bout of a tournament: its game (a Ringo pair's first game) or a bye.
#[derive(Clone, Debug, PartialEq)]
pub struct BoutRow {
    /// The tournament.
    pub tournament: String,
    /// The game's id (a bye: `bye-ROUND-ACCOUNT`).
    pub game: String,
    /// The round (an arena's bouts are all round 0).
    pub round: i64,
    /// The first seat's account (of a pair, its first game's).
    pub account0: i64,
    /// The second's; `None`: a bye.
    pub account1: Option<i64>,
    /// Each seat went berserk.
    pub berserk: [bool; 2],
    /// The first seat's account's score once over (1, ½, 0).
    pub score0: Option<f64>,
    /// When it was paired.
    pub created_ms: i64,
    /// When it ended.
    pub ended_ms: Option<i64>,
    /// The turns its games took, both sides together (a Ringo move, an
    /// Urgammon roll), once over; `None` for a bye, a bout in play, or one
    /// ended before the store kept them.
    pub turns: Option<i64>,
}

/// What every store keeps of tournaments.
#[async_trait::async_trait]
pub trait TournamentBackend: Send + Sync {
    /// Stores a new tournament: [`Capped::Already`] when its schedule
    /// entry already made one (another instance did first),
    /// [`Capped::Full`] when its maker has `cap` events not finished
    /// already, decided in one transaction.
    ///
    /// [`Capped::Already`]: super::Capped::Already
    /// [`Capped::Full`]: super::Capped::Full
    async fn add_tournament(&self, row: TournamentRow, cap: usize) -> Stored<super::Capped>;

    /// A tournament.
    async fn tournament(&self, id: &str) -> Stored<Option<TournamentRow>>;

    /// The tournaments upcoming and running, and the latest `finished`
    /// finished ones.
    async fn tournaments(&self, finished: usize) -> Stored<Vec<TournamentRow>>;

    /// Moves a tournament on (its status, round and end) if it is still at
    /// `from` (status and round): false when another instance did first.
    async fn advance_tournament(
        &self,
        id: &str,
        from: (EventStatus, i64),
        to: (EventStatus, i64),
        ends_ms: Option<i64>,
    ) -> Stored<bool>;

    /// Takes (or keeps) the right to pair tournament `id` until `until_ms`
    /// for `instance`, if nobody else holds it at `now_ms`.
    async fn lease_tournament(
        &self,
        id: &str,
        instance: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Stored<bool>;

    /// Enters a player (again, after a withdrawal): false when she is in.
    async fn enter(&self, id: &str, account: i64, rating: f64, now_ms: i64) -> Stored<bool>;

    /// Withdraws a player: false when she was not in.
    async fn withdraw(&self, id: &str, account: i64) -> Stored<bool>;

    /// The players entered (withdrawn ones too), in the order they joined.
    async fn entrants(&self, id: &str) -> Stored<Vec<EntrantRow>>;

    /// Notes a player told that the event is about to start: false when
    /// she was told already.
    async fn mark_told(&self, id: &str, account: i64, now_ms: i64) -> Stored<bool>;

    /// Adds a bout: false when its game is a bout already.
    async fn add_bout(&self, bout: BoutRow) -> Stored<bool>;

    /// Notes a bout over, with the turns its games took: false when it
    /// was already.
    async fn end_bout(&self, game: &str, score0: f64, turns: i64, now_ms: i64) -> Stored<bool>;

    /// Notes a seat of a bout berserk (before its game began).
    async fn berserk(&self, game: &str, seat: usize) -> Stored<()>;

    /// A tournament's bouts, in the order paired.
    async fn bouts(&self, id: &str) -> Stored<Vec<BoutRow>>;

    /// The bout a game belongs to (a Ringo pair's either game).
    async fn bout_of(&self, game: &str) -> Stored<Option<BoutRow>>;

    /// The tournaments a player entered, newest first (at most `limit`).
    async fn tournaments_of(&self, account: i64, limit: usize) -> Stored<Vec<TournamentRow>>;
}
