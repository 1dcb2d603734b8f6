//! Sign-in throttling: after 10 failures in 15 minutes for one name, or
//! from one address, further tries are refused until the oldest failure is
//! 15 minutes old. Kept in memory by each instance.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failures allowed within [`WINDOW`].
pub const FAILURES: usize = 10;
/// How long a failure counts.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);
/// The most names and addresses remembered: past it, the oldest are
/// forgotten first (a flood of names cannot fill the memory).
const MAX_KEYS: usize = 100_000;

/// What a throttle counts failures by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Name(String),
    Address(IpAddr),
}

/// Failures per name and per address.
#[derive(Default)]
pub struct Throttle {
    failures: Mutex<HashMap<Key, VecDeque<Instant>>>,
}

impl Throttle {
    /// The seconds to wait before another try with this name from this
    /// address, if either has failed too often.
    pub fn wait(&self, name_key: &str, address: Option<IpAddr>) -> Option<u64> {
        self.wait_for_name(name_key)
            .max(self.wait_for_address(address))
    }

    /// The seconds to wait before another try with this name, if it has
    /// failed too often.
    pub fn wait_for_name(&self, name_key: &str) -> Option<u64> {
        self.wait_key(&Key::Name(name_key.to_string()))
    }

    /// The seconds to wait before another try from this address, if it has
    /// failed too often.
    pub fn wait_for_address(&self, address: Option<IpAddr>) -> Option<u64> {
        address.and_then(|a| self.wait_key(&Key::Address(a)))
    }

    fn wait_key(&self, k: &Key) -> Option<u64> {
        let now = Instant::now();
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let times = map.get_mut(k)?;
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= WINDOW)
        {
            times.pop_front();
        }
        (times.len() >= FAILURES).then(|| (WINDOW - now.duration_since(times[0])).as_secs().max(1))
    }

    /// Counts a failed sign-in against the name and the address.
    pub fn fail(&self, name_key: &str, address: Option<IpAddr>) {
        self.count([
            Some(Key::Name(name_key.to_string())),
            address.map(Key::Address),
        ]);
    }

    /// Counts a failure against the address alone (a wrong recovery code:
    /// 60 random bits are not guessed, and counting it against the name
    /// would let anyone shut the name's owner out).
    pub fn fail_address(&self, address: Option<IpAddr>) {
        self.count([None, address.map(Key::Address)]);
    }

    fn count(&self, keys: [Option<Key>; 2]) {
        let now = Instant::now();
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= MAX_KEYS {
            map.retain(|_, t| t.back().is_some_and(|t| now.duration_since(*t) < WINDOW));
        }
        for k in keys.into_iter().flatten() {
            let times = map.entry(k).or_default();
            times.push_back(now);
            if times.len() > FAILURES {
                times.pop_front();
            }
        }
    }

    /// Drops what no longer counts (run by the app's sweep).
    pub fn sweep(&self) {
        let now = Instant::now();
        let mut map = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, t| t.back().is_some_and(|t| now.duration_since(*t) < WINDOW));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_failures_close_the_name_and_the_address() {
        let t = Throttle::default();
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..9 {
            t.fail("ala", Some(ip));
        }
        assert_eq!(t.wait("ala", Some(ip)), None);
        t.fail("ala", Some(ip));
        assert!(t.wait("ala", None).is_some_and(|s| s > 800));
        assert!(t.wait("ola", Some(ip)).is_some(), "the address too");
        assert_eq!(t.wait("ola", None), None);
    }
}
