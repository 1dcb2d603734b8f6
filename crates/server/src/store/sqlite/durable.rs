//! What keeps an acknowledgement as fast as the disk allows: the fsync of
//! the write-ahead log on threads of its own, checkpoints on a connection of
//! their own, and the time of each step measured.
//!
//! SQLite's `synchronous=FULL` fsyncs the WAL inside `COMMIT`, on the writer
//! thread: while one fsync stalls (this machine's disk shows 50–160 ms a few
//! times a minute), no other change can even be written, so a move that
//! arrives during a stall waits for it, then for its own fsync. And the
//! writer ran the automatic checkpoints too, copying the WAL into the
//! database and fsyncing that, inside some unlucky move's commit.
//!
//! Here the writer commits with `synchronous=NORMAL` (the WAL is written,
//! not yet fsynced), hands the batch's replies to [`Durable`], and goes on
//! with the next batch. Two sync threads fsync the WAL file; when an fsync
//! that began after a batch was committed returns, the batch is on disk, and
//! only then are its requests answered. A second fsync can start while a
//! slow one is stuck, and it returns when the disk does, so a move made
//! during a stall waits for that stall only, not for a queue behind it.
//! Durability is what it was: nobody is told of a change (answer, broadcast)
//! before the WAL holding it is fsynced. Should an fsync fail, the changes
//! waiting are answered with the error and the store refuses every write
//! after it. The one difference: a *read* of the
//! store may see a change a few milliseconds before it is durable (a power
//! cut then loses a change that nobody was told of).
//!
//! Checkpoints (WAL → database) run every second from their own connection
//! in `PASSIVE` mode, which never blocks the writer; the writer's automatic
//! checkpoints are off.

use rusqlite::Connection;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How many fsyncs of the WAL may be in flight at once.
const SYNC_THREADS: usize = 2;

/// How often the checkpointer copies the WAL into the database.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(1);

/// The store's timings: counts and the slowest of each step since the store
/// opened (what `agon bench serve` sets beside its acknowledgements; the
/// histograms are in `/metrics`).
#[derive(Default)]
pub(super) struct Timings {
    fsyncs: AtomicUsize,
    fsync_max_us: AtomicU64,
    checkpoints: AtomicUsize,
    checkpoint_max_us: AtomicU64,
    wait_max_us: AtomicU64,
    write_max_us: AtomicU64,
    ack_max_us: AtomicU64,
}

/// Which step of a change's way to disk a time is for.
#[derive(Clone, Copy)]
pub(super) enum Step {
    /// Waiting in the writer's queue for the batch it joins to start.
    Wait,
    /// The batch's statements and its `COMMIT` (no fsync).
    Write,
    /// One fsync of the WAL.
    Fsync,
    /// One checkpoint.
    Checkpoint,
    /// From the change's arrival at the store to its answer.
    Ack,
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

impl Timings {
    /// Records one step's time, in the slowest-so-far and in the metrics.
    pub(super) fn record(&self, step: Step, took: Duration) {
        let us = micros(took);
        let max = match step {
            Step::Wait => &self.wait_max_us,
            Step::Write => &self.write_max_us,
            Step::Fsync => {
                self.fsyncs.fetch_add(1, Ordering::Relaxed);
                &self.fsync_max_us
            }
            Step::Checkpoint => {
                self.checkpoints.fetch_add(1, Ordering::Relaxed);
                &self.checkpoint_max_us
            }
            Step::Ack => &self.ack_max_us,
        };
        max.fetch_max(us, Ordering::Relaxed);
        crate::metrics::store_step(
            match step {
                Step::Wait => "wait",
                Step::Write => "write",
                Step::Fsync => "fsync",
                Step::Checkpoint => "checkpoint",
                Step::Ack => "ack",
            },
            took,
        );
    }

    /// The figures as they stand.
    pub(super) fn read(&self) -> crate::store::rows::StoreTimings {
        let ms = |a: &AtomicU64| (a.load(Ordering::Relaxed) as f64 / 10.0).round() / 100.0;
        crate::store::rows::StoreTimings {
            fsyncs: self.fsyncs.load(Ordering::Relaxed),
            fsync_max_ms: ms(&self.fsync_max_us),
            checkpoints: self.checkpoints.load(Ordering::Relaxed),
            checkpoint_max_ms: ms(&self.checkpoint_max_us),
            wait_max_ms: ms(&self.wait_max_us),
            write_max_ms: ms(&self.write_max_us),
            ack_max_ms: ms(&self.ack_max_us),
        }
    }
}

/// A reply to a change, given once its batch is on disk (or with the
/// commit's error).
pub(super) type Reply = Box<dyn FnOnce(Option<&rusqlite::Error>) + Send>;

/// Batches committed to the WAL and waiting for an fsync.
struct Pending {
    /// Batches committed so far, numbered from 1.
    committed: u64,
    /// The highest batch an fsync in flight (or done) covers.
    covered: u64,
    /// The highest batch known to be on disk.
    synced: u64,
    /// Each batch's replies, oldest first.
    waiting: VecDeque<(u64, Vec<Reply>)>,
    /// False once the writer has stopped: the sync threads finish and end.
    open: bool,
    /// Why an fsync failed, once one has: the store is then refused.
    failed: Option<String>,
}

/// The sync stage between the writer's `COMMIT` and the answers.
pub(super) struct Durable {
    wal: PathBuf,
    /// Set once an fsync has failed: every write asks, so it is read
    /// without the lock (the reason stays in `Pending`).
    broken: std::sync::atomic::AtomicBool,
    /// The log file's identity (device, inode) when first synced: SQLite
    /// keeps writing to the file it opened, so a file of another identity
    /// at that name (the log deleted and made again) holds none of it.
    identity: Mutex<Option<(u64, u64)>>,
    pending: Mutex<Pending>,
    more: Condvar,
}

impl Durable {
    /// The stage for the database `file` (its WAL is `file-wal`).
    pub(super) fn new(file: &Path) -> Durable {
        let mut wal = file.as_os_str().to_owned();
        wal.push("-wal");
        Durable {
            wal: PathBuf::from(wal),
            broken: std::sync::atomic::AtomicBool::new(false),
            identity: Mutex::new(None),
            pending: Mutex::new(Pending {
                committed: 0,
                covered: 0,
                synced: 0,
                waiting: VecDeque::new(),
                open: true,
                failed: None,
            }),
            more: Condvar::new(),
        }
    }

    /// Starts the sync threads.
    pub(super) fn start(self: &std::sync::Arc<Self>, timings: &std::sync::Arc<Timings>) {
        for i in 0..SYNC_THREADS {
            let (me, timings) = (self.clone(), timings.clone());
            std::thread::Builder::new()
                .name(format!("agon-store-sync-{i}"))
                .spawn(move || me.sync_loop(&timings))
                .expect("the store's sync thread starts");
        }
    }

    /// Why the store's disk failed, if it has: every later change is
    /// refused with it.
    pub(super) fn failed(&self) -> Option<String> {
        if !self.broken.load(Ordering::Acquire) {
            return None;
        }
        self.pending.lock().ok().and_then(|p| p.failed.clone())
    }

    /// A batch was committed to the WAL: its replies wait for an fsync.
    pub(super) fn committed(&self, replies: Vec<Reply>) {
        let Ok(mut p) = self.pending.lock() else {
            return;
        };
        if let Some(why) = p.failed.clone() {
            drop(p);
            let e = disk_error(&why);
            for reply in replies {
                reply(Some(&e));
            }
            return;
        }
        p.committed += 1;
        let n = p.committed;
        p.waiting.push_back((n, replies));
        drop(p);
        self.more.notify_one();
    }

    /// The writer stopped: sync what is left, then end.
    pub(super) fn close(&self) {
        if let Ok(mut p) = self.pending.lock() {
            p.open = false;
        }
        self.more.notify_all();
    }

    fn sync_loop(&self, timings: &Timings) {
        loop {
            // Wait for a batch no fsync covers yet.
            let target = {
                let Ok(mut p) = self.pending.lock() else {
                    return;
                };
                while p.committed <= p.covered {
                    if !p.open {
                        return;
                    }
                    p = match self.more.wait(p) {
                        Ok(p) => p,
                        Err(_) => return,
                    };
                }
                p.covered = p.committed;
                p.committed
            };
            let start = Instant::now();
            if let Err(e) = self.sync() {
                // The log may not be on disk (a failing disk, or the data
                // folder removed under the server). Nothing waiting may be
                // told it is stored, and nothing later may be stored: every
                // waiting change is answered with the error and the store
                // refuses all writes from now on (as PostgreSQL stops on a
                // failed fsync). A change answered so may still be found
                // after a restart, which recovers the log as far as it
                // reached the disk: the outcome of a failed commit.
                let why = format!(
                    "the store's disk failed: fsync of {}: {e}",
                    self.wal.display()
                );
                tracing::error!(error = %e, wal = %self.wal.display(), "fsync of the store's log failed: the store refuses writes from now on");
                let waiting: Vec<Reply> = match self.pending.lock() {
                    Ok(mut p) => {
                        p.failed = Some(why.clone());
                        self.broken.store(true, Ordering::Release);
                        p.waiting.drain(..).flat_map(|(_, r)| r).collect()
                    }
                    Err(_) => return,
                };
                let err = disk_error(&why);
                for reply in waiting {
                    reply(Some(&err));
                }
                continue;
            }
            timings.record(Step::Fsync, start.elapsed());
            let done: Vec<Reply> = {
                let Ok(mut p) = self.pending.lock() else {
                    return;
                };
                p.synced = p.synced.max(target);
                let mut done = vec![];
                while p.waiting.front().is_some_and(|(n, _)| *n <= p.synced) {
                    if let Some((_, replies)) = p.waiting.pop_front() {
                        done.extend(replies);
                    }
                }
                done
            };
            for reply in done {
                reply(None);
            }
        }
    }
}

/// The error a change gets once the store's disk has failed.
pub(super) fn disk_error(why: &str) -> rusqlite::Error {
    rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_IOERR),
        Some(why.to_string()),
    )
}

impl Durable {
    /// fsyncs the log through a fresh handle (an fsync covers every write to
    /// the file, whichever handle made it), after checking that the file at
    /// the log's name is still the one SQLite writes to.
    fn sync(&self) -> std::io::Result<()> {
        let file = std::fs::File::open(&self.wal)?;
        let id = identity(&file)?;
        if let Ok(mut known) = self.identity.lock() {
            match *known {
                None => *known = Some(id),
                Some(k) if k != id => {
                    return Err(std::io::Error::other(
                        "the log was replaced under the store (another file at its name)",
                    ))
                }
                Some(_) => {}
            }
        }
        file.sync_data()
    }
}

/// A file's device and inode (nothing to compare elsewhere than Unix).
fn identity(file: &std::fs::File) -> std::io::Result<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let m = file.metadata()?;
        Ok((m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        Ok((0, 0))
    }
}

/// fsyncs a folder, so that a file created in it survives a power cut.
pub(super) fn sync_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// The most of the write-ahead log's file kept once a checkpoint has
/// copied it all (SQLite's `journal_size_limit`): 16 MiB.
pub(super) const WAL_KEPT_BYTES: i64 = 16 << 20;

/// Starts the checkpointer: its own connection to `file`, copying the WAL
/// into the database every second (`PASSIVE`: it never blocks the writer)
/// until `stop` is dropped or sent to.
///
/// # Errors
/// The connection cannot be opened.
pub(super) fn start_checkpointer(
    file: &Path,
    stop: std::sync::mpsc::Receiver<()>,
    timings: std::sync::Arc<Timings>,
) -> Result<(), rusqlite::Error> {
    let conn = Connection::open(file)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.pragma_update(None, "journal_size_limit", WAL_KEPT_BYTES)?;
    std::thread::Builder::new()
        .name("agon-store-checkpoint".into())
        .spawn(move || {
            // What the last checkpoint saw: the same again means it had
            // nothing to do, and is not counted.
            let mut last = (0, 0);
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                stop.recv_timeout(CHECKPOINT_EVERY)
            {
                let start = Instant::now();
                // (busy, frames in the WAL, frames copied)
                let done = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                });
                match done {
                    Ok((_, frames, copied)) if frames > 0 && (frames, copied) != last => {
                        timings.record(Step::Checkpoint, start.elapsed());
                        last = (frames, copied);
                    }
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "checkpoint failed; the next one retries"),
                }
            }
        })
        .expect("the store's checkpoint thread starts");
    Ok(())
}
