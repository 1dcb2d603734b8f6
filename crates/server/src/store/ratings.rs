//! What the store keeps about ratings: each account's Glicko-2 rating per
//! game, its history, and the leaderboard. One interface for both backends.

use super::error::Stored;
use crate::model::Kind;

/// A Glicko-2 rating as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRow {
    /// The rating (1500 to start).
    pub rating: f64,
    /// Its deviation (350 to start): how unsure it still is.
    pub deviation: f64,
    /// Its volatility (0.06 to start).
    pub volatility: f64,
    /// Rated games (a Ringo pair counts once, an Urgammon match once).
    pub games: u32,
}

impl RatingRow {
    /// A player never rated.
    pub const NEW: RatingRow = RatingRow {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
        games: 0,
    };
}

/// The new ratings of the two accounts from their ratings before.
pub type Rater = Box<dyn FnOnce([RatingRow; 2]) -> [RatingRow; 2] + Send>;

/// One point of a rating's history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    /// When, seconds since the epoch.
    pub at: i64,
    /// The rating after.
    pub rating: f64,
    /// Its deviation after.
    pub deviation: f64,
    /// The game whose result changed it.
    pub game: String,
}

/// A rated game as the store orders them: the order in which games were
/// rated, which a replay of the ratings follows.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// The game whose result rated the players (a Ringo pair's second).
    pub id: String,
    /// Its place in the order of rating.
    pub seq: i64,
    /// When it was rated, seconds since the epoch.
    pub at: i64,
}

/// One rating period of a replay: a rated game's result, or nothing when a
/// player in it is marked for cheating (the game no longer counts).
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayedGame {
    /// The game.
    pub id: String,
    /// When it was rated.
    pub at: i64,
    /// Its two seats' accounts.
    pub accounts: [i64; 2],
    /// Each seat's rating after it; `None`: void.
    pub after: Option<[RatingRow; 2]>,
    /// Each seat's change (0 when void).
    pub change: [f64; 2],
}

/// Every rating of one kind replayed from the rated games in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Replayed {
    /// Each account's rating at the end (accounts with no game that counts
    /// are left out: they have no rating).
    pub ratings: Vec<(i64, RatingRow)>,
    /// Each rated game, in order.
    pub games: Vec<ReplayedGame>,
}

/// What every store keeps about ratings.
#[async_trait::async_trait]
pub trait RatingBackend: Send + Sync {
    /// Rates a finished rated game once: reads both accounts' ratings in
    /// `kind`, computes the new ones with `rater`, stores them with their
    /// history, and each seat's change (and, for a Ringo pair, `pair_score`,
    /// each seat's points over the pair) on game `game`, whose revision
    /// rises. Answers the changes and the game's new revision; `None` when
    /// the game was rated already (by this or another instance).
    async fn rate(
        &self,
        game: &str,
        kind: Kind,
        accounts: [i64; 2],
        rater: Rater,
        pair_score: Option<[f64; 2]>,
        now: i64,
    ) -> Stored<Option<([f64; 2], i64)>>;

    /// Every rated game of `kind`, in the order they were rated.
    async fn rated_games(&self, kind: Kind) -> Stored<Vec<RatedGame>>;

    /// An account's last `limit` rated games of `kind`, newest first (a
    /// Ringo pair by its second game).
    async fn rated_games_of(
        &self,
        account: i64,
        kind: Kind,
        limit: usize,
    ) -> Stored<Vec<RatedGame>>;

    /// Replaces every rating of `kind`, its history and the rated games'
    /// changes by a replay (each changed game's revision rises), in one
    /// transaction, if the rated games are still `expected` (how many, and
    /// the last one's place): answers the changed games and their new
    /// revisions, or `None` when a game was rated meanwhile (replay again).
    async fn replace_ratings(
        &self,
        kind: Kind,
        expected: (usize, Option<i64>),
        replayed: Replayed,
        now: i64,
    ) -> Stored<Option<Vec<(String, i64)>>>;

    /// An account's ratings, per game it has played rated.
    async fn ratings_of(&self, account: i64) -> Stored<Vec<(Kind, RatingRow)>>;

    /// An account's rating history in one game, oldest first.
    async fn rating_history(&self, account: i64, kind: Kind) -> Stored<Vec<HistoryPoint>>;

    /// The best-rated live accounts in one game whose deviation is at most
    /// `max_deviation`: names and ratings, best first.
    async fn leaderboard(
        &self,
        kind: Kind,
        max_deviation: f64,
        limit: usize,
    ) -> Stored<Vec<(String, RatingRow)>>;
}
