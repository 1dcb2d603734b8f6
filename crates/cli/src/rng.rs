//! A small seedable random number generator (SplitMix64) for the CLI's dice and
//! random players. It is reproducible from `--seed`, which is what terminal play,
//! self-play and benchmarks need; it is not for anything secret.

/// SplitMix64: fast, 64 bits of state, and good enough statistically for dice.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// A generator seeded from the clock, for when no `--seed` is given.
    pub fn from_time() -> SplitMix {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        SplitMix(nanos ^ u64::from(std::process::id()).rotate_left(32))
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n > 0`), by multiply-shift (no modulo bias worth
    /// mentioning for the small `n` used here).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}
