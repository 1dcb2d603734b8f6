//! Time management: when a search must stop (depth, nodes, time, or a stop
//! flag raised from outside).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When to stop searching. Unset limits do not apply; with none set, the search
/// goes to [`super::params::MAX_PLY`] unless stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this long.
    pub movetime: Option<Duration>,
    /// Stop when this flag is set (from another thread).
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// Whether a search that has visited `nodes` nodes since `start` must stop.
    pub(super) fn reached(&self, nodes: u64, start: Instant) -> bool {
        self.nodes.is_some_and(|n| nodes >= n)
            || self.movetime.is_some_and(|t| start.elapsed() >= t)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}
