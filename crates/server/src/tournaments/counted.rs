//! An event counted once and shared: its entrants, bouts and standings
//! ([`Counted`]), kept for a moment by [`CountCache`] (never a count begun
//! before a change made here), and the view its feed publishes
//! ([`Published`]).

use super::views::{Standing, You};
use crate::store::{BoutRow, EntrantRow};
use std::collections::HashMap;
use std::sync::Arc;

/// One event's view as last counted (by its feed, `live`): its text,
/// made once for every socket, and the count each socket reads its
/// player's place from.
pub(super) struct Published {
    pub(super) text: axum::extract::ws::Utf8Bytes,
    /// Counts the views that differed: a socket that skipped some still
    /// knows whether the view it last sent is the newest.
    pub(super) seq: u64,
    pub(super) counted: Arc<Counted>,
}

/// An event's feed: the view each of its sockets reads.
pub(super) type Latest = tokio::sync::watch::Sender<Option<Arc<Published>>>;

/// How long an event's count is served before the store is read again.
const COUNTED_FOR: std::time::Duration = std::time::Duration::from_secs(1);

/// How long the cache remembers that an event changed here; a count begun
/// longer ago than this is never kept (so forgetting a change can never
/// let a count from before it be kept).
const FORGOTTEN_AFTER: std::time::Duration = std::time::Duration::from_secs(60);

/// When a count began: the cache's change number then, and the time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Begun {
    seq: u64,
    at: std::time::Instant,
}

/// Each event's last count, served for [`COUNTED_FOR`], and when each
/// event last changed here: a count begun before a change is answered to
/// its reader but never kept, so nobody is served a view older than a
/// change this instance made (a count read from the store just before a
/// pairing was written used to be kept for a second after it). Both maps
/// forget what is old, so a server that runs for months holds only the
/// events of the last minute.
pub(super) struct CountCache<T> {
    counts: HashMap<String, (std::time::Instant, T)>,
    /// Each event's latest change: its number and when.
    changes: HashMap<String, (u64, std::time::Instant)>,
    /// Changes made so far, all events together.
    seq: u64,
}

impl<T> Default for CountCache<T> {
    fn default() -> Self {
        CountCache {
            counts: HashMap::new(),
            changes: HashMap::new(),
            seq: 0,
        }
    }
}

impl<T: Clone> CountCache<T> {
    /// The event's count when fresh; otherwise when a count begun now
    /// begins, to hand back to [`CountCache::put`] with it.
    pub(super) fn fresh(&self, id: &str) -> Result<T, Begun> {
        match self.counts.get(id) {
            Some((at, c)) if at.elapsed() < COUNTED_FOR => Ok(c.clone()),
            _ => Err(Begun {
                seq: self.seq,
                at: std::time::Instant::now(),
            }),
        }
    }

    /// Keeps a count `begun` then, unless the event changed since.
    pub(super) fn put(&mut self, id: &str, begun: Begun, count: T) {
        if begun.at.elapsed() >= FORGOTTEN_AFTER
            || self
                .changes
                .get(id)
                .is_some_and(|(seq, _)| *seq > begun.seq)
        {
            return;
        }
        // Finished events leave the cache as they are read no more.
        self.counts
            .retain(|_, (at, _)| at.elapsed() < COUNTED_FOR * 10);
        self.counts
            .insert(id.to_string(), (std::time::Instant::now(), count));
    }

    /// The event changed here: its count is read again.
    pub(super) fn changed(&mut self, id: &str) {
        self.counts.remove(id);
        self.seq += 1;
        self.changes
            .retain(|_, (_, at)| at.elapsed() < FORGOTTEN_AFTER);
        self.changes
            .insert(id.to_string(), (self.seq, std::time::Instant::now()));
    }
}

/// An event's entrants, bouts and standings, counted once.
pub(super) struct Counted {
    /// Who entered (withdrawn or not).
    pub(super) entrants: Vec<EntrantRow>,
    /// Every bout.
    pub(super) bouts: Vec<BoutRow>,
    /// The standings, best first.
    pub(super) standings: Vec<Standing>,
}

impl Counted {
    /// A player's place in the event as counted.
    pub(super) fn you(&self, me: i64) -> You {
        let entry = self.entrants.iter().find(|e| e.account.id == me);
        let standing = self.standings.iter().find(|s| s.account == me).cloned();
        You {
            joined: entry.is_some_and(|e| !e.withdrawn),
            withdrawn: entry.is_some_and(|e| e.withdrawn),
            // Her line says her game now (a Ringo pair's second game once
            // the first is over).
            game: standing.as_ref().and_then(|s| s.playing.clone()),
            standing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CountCache;

    #[test]
    fn a_count_begun_before_a_change_is_never_kept() {
        let mut cache = CountCache::default();
        // A count begins; the event changes (a pairing written) before it
        // ends: its answer is not kept, so the next reader counts again.
        let Err(begun) = cache.fresh("t") else {
            panic!("nothing counted yet")
        };
        cache.changed("t");
        cache.put("t", begun, "before the pairing");
        let Err(after) = cache.fresh("t") else {
            panic!("the count from before the change was kept")
        };
        // A count begun after the change is kept and served.
        cache.put("t", after, "after the pairing");
        assert_eq!(cache.fresh("t"), Ok("after the pairing"));
        // Another change forgets it at once.
        cache.changed("t");
        assert!(cache.fresh("t").is_err());
        // Other events are not touched by this one's changes.
        let Err(u) = cache.fresh("u") else { panic!() };
        cache.changed("t");
        cache.put("u", u, "u");
        assert_eq!(cache.fresh("u"), Ok("u"));
    }

    /// Changes are forgotten after a minute, so the map stays small; a
    /// count begun longer ago than that is never kept, so forgetting can
    /// never let a count from before a change be kept.
    #[test]
    fn old_changes_are_forgotten_without_letting_a_stale_count_in() {
        let mut cache = CountCache::default();
        // (A machine up for less than a minute has no such past.)
        let Some(long_ago) = std::time::Instant::now().checked_sub(super::FORGOTTEN_AFTER) else {
            return;
        };
        for n in 0..1000 {
            cache.changes.insert(format!("old{n}"), (0, long_ago));
        }
        cache.changed("t");
        assert_eq!(cache.changes.len(), 1, "the old events' changes forgotten");
        let stale = super::Begun {
            seq: cache.seq,
            at: long_ago,
        };
        cache.put("v", stale, "a count begun a minute ago");
        assert!(cache.fresh("v").is_err());
    }
}
