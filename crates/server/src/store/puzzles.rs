//! What the store keeps about puzzles: each account's puzzle rating per
//! game, and the puzzles it has tried. One interface for both backends.

use super::error::Stored;
use super::ratings::RatingRow;

/// A puzzle rating's new value from the old (its `games` counts rated tries).
pub type PuzzleRater = Box<dyn FnOnce(RatingRow) -> RatingRow + Send>;

/// What every store keeps about puzzles.
#[async_trait::async_trait]
pub trait PuzzleBackend: Send + Sync {
    /// An account's puzzle rating in `game` (`RatingRow::NEW` before its
    /// first try).
    async fn puzzle_rating(&self, account: i64, game: &str) -> Stored<RatingRow>;

    /// Records an account's try at a puzzle. The first try is rated: the
    /// rating is read, `rater` computes the new one, both are stored at once
    /// and answered (before, after). A puzzle tried before answers `None` and
    /// changes nothing, however many instances see the try.
    async fn try_puzzle(
        &self,
        account: i64,
        game: &str,
        puzzle: &str,
        correct: bool,
        rater: PuzzleRater,
        now: i64,
    ) -> Stored<Option<(RatingRow, RatingRow)>>;

    /// The ids of the puzzles of `game` an account has tried.
    async fn puzzles_tried(&self, account: i64, game: &str) -> Stored<Vec<String>>;

    /// Notes that `seer` (a hashed address) was shown a puzzle's solution
    /// at `now`, and forgets notes older than `forget_before`.
    async fn see_puzzle(
        &self,
        puzzle: &str,
        seer: &str,
        now: i64,
        forget_before: i64,
    ) -> Stored<()>;

    /// Whether `seer` was shown the puzzle's solution at `since` or later.
    async fn puzzle_seen(&self, puzzle: &str, seer: &str, since: i64) -> Stored<bool>;
}
