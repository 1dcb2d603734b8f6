//! The one parallel work helper: numbered jobs shared out to threads, each
//! result handed to one callback in the order the jobs finish. Tournaments,
//! rollouts and calibration all use it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Runs `work(0)`, `work(1)`, … `work(n - 1)` on `threads` threads (at least
/// one) and gives each result to `done`, one call at a time. When `done`
/// returns false, no further job starts (jobs already running finish, and
/// their results are dropped).
pub fn run<T, W, D>(n: usize, threads: usize, work: W, done: D)
where
    T: Send,
    W: Fn(usize) -> T + Sync,
    D: FnMut(T) -> bool + Send,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let done = Mutex::new(done);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    return;
                }
                let result = work(i);
                let Ok(mut done) = done.lock() else { return };
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                if !done(result) {
                    stop.store(true, Ordering::Relaxed);
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_job_runs_once_and_stopping_stops() {
        let mut seen = vec![];
        super::run(
            100,
            3,
            |i| i,
            |i| {
                seen.push(i);
                true
            },
        );
        seen.sort_unstable();
        assert_eq!(seen, (0..100).collect::<Vec<_>>());
        let mut count = 0;
        super::run(
            1000,
            2,
            |i| i,
            |_| {
                count += 1;
                count < 10
            },
        );
        assert_eq!(count, 10, "no result after the one that said stop");
    }
}
