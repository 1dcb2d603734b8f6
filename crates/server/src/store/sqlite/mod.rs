//! The SQLite store, the default (embedded, nothing to install). A game is a row of settings plus its record tokens, one
//! row per token, its dice ledger and its invite codes.
//!
//! - **Durable before acknowledged.** Every accepted change is committed to
//!   the write-ahead log and the log fsynced before anyone is told about it,
//!   so an acknowledged move survives a crash, a kill or a power cut.
//! - **Group commit.** One writer thread owns the write connection. Changes
//!   queue to it; it takes every change waiting, runs each in its own
//!   savepoint (a refused change leaves the others), and commits them
//!   together: one fsync for all the moves made meanwhile.
//! - **Nothing else on an acknowledgement's path** ([`durable`]): the fsync
//!   runs on sync threads while the writer goes on with the next batch, and
//!   checkpoints run on a connection of their own. Each step is timed.
//! - **Reads never wait for a writer.** A file store has reader connections
//!   of its own (WAL lets them read while the writer writes), used off the
//!   async workers.
//! - A change names the revision it was made from, and is refused when the
//!   stored game has moved on, so two writers can never both append to one
//!   game.

mod accounts;
mod backend;
pub mod backup;
mod durable;
mod live;
mod people;
mod puzzles;
mod ratings;
mod safety;
mod sql;
mod talk;
mod tournaments;

use super::error::StoreError;
use super::list::ListQuery;
use super::rows::{Commit, GameRow, Loaded};
use crate::dice::Drawn;
use durable::{Durable, Reply, Step, Timings};
use rusqlite::Connection;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

/// How many changes one commit takes at most.
const MAX_BATCH: usize = 1024;

/// How many reader connections a file store keeps.
const READERS: usize = 4;

/// What the writer runs for a change (in a savepoint): it says whether it
/// succeeded, and how to reply once the batch is durable.
type Run = Box<dyn FnOnce(&Connection) -> (bool, Reply) + Send>;

/// A change for the writer, and when it was queued.
struct Job {
    queued: Instant,
    run: Run,
}

/// The SQLite store: a writer thread with group commit, and reader
/// connections. Cloning it gives another handle to the same store.
#[derive(Clone)]
pub struct SqliteStore {
    jobs: mpsc::Sender<Job>,
    readers: Arc<Vec<Mutex<Connection>>>,
    next_reader: Arc<AtomicUsize>,
    /// Changes committed, and commits made (for the group-commit figures).
    stats: Arc<[AtomicUsize; 2]>,
    /// Where a change's time goes.
    timings: Arc<Timings>,
    /// The sync stage (a file store), asked whether the disk has failed.
    durable: Option<Arc<Durable>>,
}

impl SqliteStore {
    /// Opens (creating if needed) the database file `agon.db` in `dir`, which
    /// is made readable by its owner only.
    ///
    /// # Errors
    /// The directory or file cannot be created or opened.
    pub fn open(dir: &Path) -> Result<SqliteStore, rusqlite::Error> {
        let cannot = |what: String| {
            rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
                Some(what),
            )
        };
        std::fs::create_dir_all(dir).map_err(|e| {
            cannot(format!(
                "cannot create data directory {}: {e}",
                dir.display()
            ))
        })?;
        let file = dir.join("agon.db");
        sql::create_private(dir, &file)
            .map_err(|e| cannot(format!("cannot make {} private: {e}", dir.display())))?;
        let mut writer = Connection::open(&file)?;
        sql::init(&mut writer)?;
        // The writer commits to the WAL and the sync threads fsync it
        // ([`durable`]); checkpoints run from their own connection.
        writer.pragma_update(None, "synchronous", "NORMAL")?;
        writer.pragma_update(None, "wal_autocheckpoint", 0)?;
        // A burst grows the write-ahead log; once a checkpoint has copied
        // it all, the writer starts it over and cuts the file back to this
        // size (without it, the file kept its peak: 193 MB beside an 8.9 MB
        // database).
        writer.pragma_update(None, "journal_size_limit", durable::WAL_KEPT_BYTES)?;
        // The journal files exist now; keep them private too, and make
        // their names durable.
        let _ = sql::keep_private(&file);
        durable::sync_dir(dir)
            .map_err(|e| cannot(format!("cannot sync {}: {e}", dir.display())))?;
        let readers = (0..READERS)
            .map(|_| {
                let conn = Connection::open(&file)?;
                conn.busy_timeout(std::time::Duration::from_secs(5))?;
                Ok(Mutex::new(conn))
            })
            .collect::<Result<Vec<_>, rusqlite::Error>>()?;
        let timings = Arc::new(Timings::default());
        let durable = Arc::new(Durable::new(&file));
        durable.start(&timings);
        let (stop_checkpoints, stopped) = mpsc::channel();
        durable::start_checkpointer(&file, stopped, timings.clone())?;
        Ok(SqliteStore::start(
            writer,
            readers,
            Some((durable, stop_checkpoints)),
            timings,
        ))
    }

    /// An in-memory store, for tests. It has no reader connections: reads go
    /// through the writer.
    ///
    /// # Errors
    /// SQLite cannot start.
    pub fn in_memory() -> Result<SqliteStore, rusqlite::Error> {
        let mut conn = Connection::open_in_memory()?;
        sql::init(&mut conn)?;
        Ok(SqliteStore::start(
            conn,
            vec![],
            None,
            Arc::new(Timings::default()),
        ))
    }

    /// Starts the writer. A file store has its sync stage, and the sender
    /// whose drop stops the checkpointer when the writer ends; an in-memory
    /// one answers at `COMMIT` (there is no disk).
    fn start(
        writer: Connection,
        readers: Vec<Mutex<Connection>>,
        durable: Option<(Arc<Durable>, mpsc::Sender<()>)>,
        timings: Arc<Timings>,
    ) -> SqliteStore {
        let (jobs, queue) = mpsc::channel::<Job>();
        let stats: Arc<[AtomicUsize; 2]> = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
        let (counts, times) = (stats.clone(), timings.clone());
        let sync_stage = durable.as_ref().map(|(d, _)| d.clone());
        std::thread::Builder::new()
            .name("agon-store-writer".into())
            .spawn(move || {
                let sync = durable.as_ref().map(|(d, _)| &**d);
                write_loop(&writer, &queue, &counts, sync, &times);
                if let Some((durable, stop_checkpoints)) = durable {
                    durable.close();
                    drop(stop_checkpoints);
                }
            })
            .expect("the store's writer thread starts");
        SqliteStore {
            jobs,
            readers: Arc::new(readers),
            next_reader: Arc::new(AtomicUsize::new(0)),
            stats,
            timings,
            durable: sync_stage,
        }
    }

    /// Where a change's time went since the store opened.
    pub(super) fn timings(&self) -> crate::store::rows::StoreTimings {
        self.timings.read()
    }

    /// Runs a change on the writer and waits until it is committed.
    async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        if let Some(why) = self.durable.as_ref().and_then(|d| d.failed()) {
            return Err(StoreError::Commit(why));
        }
        let (tx, rx) = tokio::sync::oneshot::channel();
        let queued = Instant::now();
        let job = Job {
            queued,
            run: Box::new(move |conn| {
                let result = f(conn);
                let ok = result.is_ok();
                let reply: Reply = Box::new(move |commit_error| {
                    let out = match (result, commit_error) {
                        (Ok(_), Some(e)) => Err(StoreError::Commit(e.to_string())),
                        (result, _) => result,
                    };
                    let _ = tx.send(out);
                });
                (ok, reply)
            }),
        };
        self.jobs.send(job).map_err(|_| StoreError::Closed)?;
        let answer = rx.await.map_err(|_| StoreError::Closed)?;
        self.timings.record(Step::Ack, queued.elapsed());
        answer
    }

    /// Runs a read on a reader connection off the async workers (or on the
    /// writer, for an in-memory store).
    async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, rusqlite::Error> + Send + 'static,
    ) -> Result<T, StoreError> {
        if self.readers.is_empty() {
            return self.write(move |c| f(c).map_err(StoreError::from)).await;
        }
        let readers = self.readers.clone();
        let first = self.next_reader.fetch_add(1, Ordering::Relaxed);
        tokio::task::spawn_blocking(move || {
            // Take a free reader if there is one, else wait for ours.
            let n = readers.len();
            let conn = (0..n)
                .find_map(|i| readers[(first + i) % n].try_lock().ok())
                .map_or_else(|| readers[first % n].lock(), Ok)
                .map_err(|_| StoreError::Closed)?;
            f(&conn).map_err(StoreError::from)
        })
        .await
        .map_err(|_| StoreError::Closed)?
    }
}

/// The writer: waits for a change, takes every change waiting (up to
/// [`MAX_BATCH`]), runs each in a savepoint, commits them together, then
/// hands the replies to the sync stage (or, in memory, replies at once).
/// Ends when every handle is dropped.
fn write_loop(
    conn: &Connection,
    queue: &mpsc::Receiver<Job>,
    stats: &[AtomicUsize; 2],
    durable: Option<&Durable>,
    timings: &Timings,
) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let start = Instant::now();
        // Normally the whole batch is one transaction. Should BEGIN fail, each
        // change still runs alone: a savepoint outside a transaction is one,
        // and its RELEASE commits it (durable at the next fsync, which the
        // next batch brings; in memory there is none to wait for).
        let grouped = conn.execute_batch("BEGIN IMMEDIATE").is_ok();
        let mut replies = Vec::with_capacity(batch.len());
        for job in batch {
            timings.record(Step::Wait, start.saturating_duration_since(job.queued));
            let _ = conn.execute_batch("SAVEPOINT job");
            let (ok, reply) = (job.run)(conn);
            if !ok {
                let _ = conn.execute_batch("ROLLBACK TO job");
            }
            let released = conn.execute_batch("RELEASE job");
            match (grouped, released) {
                (true, _) => replies.push(reply),
                (false, Ok(())) => match durable {
                    Some(d) => d.committed(vec![reply]),
                    None => reply(None),
                },
                (false, Err(e)) => reply(Some(&e)),
            }
        }
        if !grouped {
            continue;
        }
        let committed = conn.execute_batch("COMMIT");
        timings.record(Step::Write, start.elapsed());
        match (committed, durable) {
            (Ok(()), durable) => {
                stats[0].fetch_add(replies.len(), Ordering::Relaxed);
                stats[1].fetch_add(1, Ordering::Relaxed);
                match durable {
                    Some(d) => d.committed(replies),
                    None => replies.into_iter().for_each(|reply| reply(None)),
                }
            }
            (Err(e), _) => {
                let _ = conn.execute_batch("ROLLBACK");
                for reply in replies {
                    reply(Some(&e));
                }
            }
        }
    }
}

/// A seat in an SQLite column: the integer 0 or 1.
impl rusqlite::ToSql for crate::model::Seat {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::from(i64::from(*self)))
    }
}

/// A seat from an SQLite column; any number but 0 or 1 is out of range.
impl rusqlite::types::FromSql for crate::model::Seat {
    fn column_result(v: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let n = i64::column_result(v)?;
        crate::model::Seat::from_number(n).ok_or(rusqlite::types::FromSqlError::OutOfRange(n))
    }
}

/// The seats of an invite in an SQLite column: 0, 1 or 2.
impl rusqlite::ToSql for crate::model::InviteSeats {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(rusqlite::types::ToSqlOutput::from(i64::from(self.number())))
    }
}

/// The seats of an invite from an SQLite column.
impl rusqlite::types::FromSql for crate::model::InviteSeats {
    fn column_result(v: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let n = i64::column_result(v)?;
        crate::model::InviteSeats::from_number(n)
            .ok_or(rusqlite::types::FromSqlError::OutOfRange(n))
    }
}
