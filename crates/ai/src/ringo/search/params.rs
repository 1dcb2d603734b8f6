//! Every tunable search constant, in one place.

/// The score of a won game, less the plies to it.
pub const MATE: i32 = 30_000;
/// Scores at least this far from zero are proven results.
pub const MATE_BAND: i32 = MATE - 1_000;
/// A repetition in the search, for the side that wins by it.
pub const REPETITION_WIN: i32 = 5_000;
/// Larger than any score.
pub const INF: i32 = 32_000;
/// The deepest line searched.
pub const MAX_PLY: usize = 96;
/// Transposition table entries (a power of two), 16 bytes each.
pub const TT_ENTRIES: usize = 1 << 20;
/// Late-move reductions start at this depth …
pub const LMR_DEPTH: i32 = 3;
/// … for moves after this many.
pub const LMR_AFTER: usize = 3;
/// How often (in nodes) the clock and the stop flag are read.
pub const CHECK_EVERY: u64 = 1024;
