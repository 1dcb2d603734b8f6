//! # Computer players
//!
//! The baselines every stronger engine is measured against, and the opponents
//! the web app uses until the search engines land:
//!
//! - **random**: a uniformly random legal choice;
//! - **greedy**: one ply of obvious preferences. Ringo: win at once, capture,
//!   advance an attacker, keep pieces safe. Urgammon: capture, then land on a
//!   rosette, then advance the furthest piece; never roll the verdict die unless
//!   forced.
//!
//! A [`Level`] maps the levels 1–10 shown to players onto these players. The
//! choice of player is deterministic for a given seed, so games replay.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod ringo_eval;
pub mod ringo_player;
pub mod ringo_search;
pub mod tournament;
pub mod tune;
pub mod urgammon_player;

/// A small seedable generator (SplitMix64) so players stay reproducible.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// A playing strength, 1 (beginner) to 10.
///
/// Until the search engines land, levels 1–3 play at random and levels 4–10 play
/// the greedy baseline.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Level(u8);

impl Level {
    /// A level, clamped to 1..=10.
    pub fn new(level: u8) -> Level {
        Level(level.clamp(1, 10))
    }

    /// The level number.
    pub fn get(self) -> u8 {
        self.0
    }

    /// True when this level plays the greedy baseline rather than at random.
    pub fn is_greedy(self) -> bool {
        self.0 >= 4
    }
}
