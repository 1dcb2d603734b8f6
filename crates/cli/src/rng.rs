//! Seeds for the CLI's dice and random players. The generator itself is
//! [`agon_ai::Rng`] (SplitMix64): reproducible from `--seed`, which is what
//! terminal play, self-play and benchmarks need; it is not for anything secret.

/// A seed from the clock and the process id, for when no `--seed` is given.
pub fn time_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}
