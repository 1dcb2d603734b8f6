//! # Computer players
//!
//! One module per game, each with the main names re-exported at its root:
//!
//! - **Ringo** ([`ringo`]): the search engine ([`ringo::search`]: iterative
//!   deepening PVS with a transposition table, quiescence and proven results)
//!   over a feature evaluation ([`ringo::eval`]) tuned by self-play
//!   ([`ringo::tune`]); levels 1–10; and engine-against-engine matches with Elo
//!   statistics ([`ringo::tournament`]).
//! - **Urgammon** ([`urgammon`]): expectimax over the chance and verdict dice
//!   ([`urgammon::search`]) with a neural-network evaluation of the nine game
//!   outcomes ([`urgammon::eval`]) trained by TD(λ) self-play
//!   ([`urgammon::train`]); a match equity table for match play; levels 1–10;
//!   and engine-against-engine games and matches ([`urgammon::tournament`]).
//! - **Baselines** for both games, the yardsticks every engine is measured
//!   against: **random** (a uniformly random legal choice) and **greedy** (one
//!   ply of obvious preferences; in Urgammon: capture, then a rosette, then the
//!   furthest piece, never the verdict die unless forced). Ringo also has
//!   **cautious**: greedy that also avoids moves after which the opponent can
//!   capture, a two-ply and harder yardstick.
//!
//! Every player is deterministic for a given seed.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod dice;
pub mod par;
pub mod ringo;
pub mod urgammon;

/// The seeded generator every player, tournament and benchmark draws from, so
/// that a `--seed` reproduces a result exactly.
///
/// It is `rand_xoshiro`'s SplitMix64 behind the `rand_core` traits (so the
/// field's samplers can use it), and the same generator the project wrote by
/// hand before: every seeded figure in the docs still comes out the same.
/// [`Rng::below`] keeps its multiply-shift mapping for the same reason.
#[derive(Clone, Debug)]
pub struct Rng(rand_xoshiro::SplitMix64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(rand_core::SeedableRng::seed_from_u64(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        rand_core::RngCore::next_u64(&mut self.0)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

impl rand_core::RngCore for Rng {
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.fill_bytes(dest)
    }
}

/// A playing strength, 1 (beginner) to 10: Ringo's levels are
/// [`ringo::search::level_spec`], Urgammon's [`urgammon::search::level_spec`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(10);

    /// A level, clamped to 1..=10.
    pub fn new(level: u8) -> Level {
        Level(level.clamp(Level::MIN.0, Level::MAX.0))
    }

    /// The level number.
    pub fn get(self) -> u8 {
        self.0
    }
}

/// A level number outside 1–10, or not a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError(pub String);

impl std::fmt::Display for LevelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invalid level '{}': the levels are 1 to 10", self.0)
    }
}

impl std::error::Error for LevelError {}

impl TryFrom<u8> for Level {
    type Error = LevelError;
    fn try_from(n: u8) -> Result<Level, LevelError> {
        if (Level::MIN.0..=Level::MAX.0).contains(&n) {
            Ok(Level(n))
        } else {
            Err(LevelError(n.to_string()))
        }
    }
}

impl std::str::FromStr for Level {
    type Err = LevelError;
    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.trim()
            .parse::<u8>()
            .map_err(|_| LevelError(s.to_string()))
            .and_then(Level::try_from)
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The 95% interval for a share `p` of successes over `n` trials: the usual
/// normal interval, or Wilson's when `p` is 0 or 1. There the normal interval
/// collapses onto the point (200 wins of 200 would read "100%, certainly");
/// Wilson's runs from n / (n + 1.96²) to 1.
pub fn share_95(p: f64, n: f64) -> (f64, f64) {
    const Z: f64 = 1.96;
    let n = n.max(1.0);
    if p > 0.0 && p < 1.0 {
        let half = Z * (p * (1.0 - p) / n).sqrt();
        return ((p - half).max(0.0), (p + half).min(1.0));
    }
    // Wilson's interval with p = 0 or 1 reduces to these closed forms.
    let edge = Z * Z / (n + Z * Z);
    if p >= 1.0 {
        (1.0 - edge, 1.0)
    } else {
        (0.0, edge)
    }
}

#[cfg(test)]
mod tests {
    use super::{share_95, Rng};

    /// The generator is the SplitMix64 the seeded figures were measured with:
    /// seed 0 gives the published first outputs of the reference code.
    #[test]
    fn the_seeded_generator_is_splitmix64() {
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(Rng::new(7).below(6), Rng::new(7).below(6));
    }

    #[test]
    fn shares_at_the_ends_get_wilson_intervals() {
        let (lo, hi) = share_95(0.5, 100.0);
        assert!((lo - 0.402).abs() < 1e-3 && (hi - 0.598).abs() < 1e-3);
        // 100 of 100: from 100 / (100 + 1.96²) up to 1.
        let (lo, hi) = share_95(1.0, 100.0);
        assert!((lo - 100.0 / (100.0 + 1.96 * 1.96)).abs() < 1e-9, "{lo}");
        assert_eq!(hi, 1.0);
        let (lo, hi) = share_95(0.0, 100.0);
        assert!(lo == 0.0 && (hi - 1.96 * 1.96 / (100.0 + 1.96 * 1.96)).abs() < 1e-9);
    }
}
