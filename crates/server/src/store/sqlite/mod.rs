//! The SQLite store, the default (embedded, nothing to install). A game is a row of settings plus its record tokens, one
//! row per token, its dice ledger and its invite codes.
//!
//! - **Durable before acknowledged.** Every accepted change is written and
//!   committed (WAL, `synchronous=FULL`) before anyone is told about it, so an
//!   acknowledged move survives a crash or a kill.
//! - **Group commit.** One writer thread owns the write connection. Changes
//!   queue to it; it takes every change waiting, runs each in its own
//!   savepoint (a refused change leaves the others), and commits them
//!   together: one fsync for all the moves made meanwhile.
//! - **Reads never wait for a writer.** A file store has reader connections
//!   of its own (WAL lets them read while the writer writes), used off the
//!   async workers.
//! - A change names the revision it was made from, and is refused when the
//!   stored game has moved on, so two writers can never both append to one
//!   game.

mod accounts;
mod backend;
pub mod backup;
mod live;
mod puzzles;
mod ratings;
mod sql;
mod talk;

use super::{Commit, GameRow, ListQuery, Loaded, StoreError};
use crate::dice::Drawn;
use rusqlite::Connection;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

/// How many changes one commit takes at most.
const MAX_BATCH: usize = 1024;

/// How many reader connections a file store keeps.
const READERS: usize = 4;

/// What the writer does with a change once the batch is committed: hand the
/// result (or the commit's failure) back to the waiting request.
type Reply = Box<dyn FnOnce(Option<&rusqlite::Error>) + Send>;
/// A change for the writer: run it (in a savepoint), say whether it
/// succeeded, and how to reply.
type Job = Box<dyn FnOnce(&Connection) -> (bool, Reply) + Send>;

/// The SQLite store: a writer thread with group commit, and reader
/// connections. Cloning it gives another handle to the same store.
#[derive(Clone)]
pub struct SqliteStore {
    jobs: mpsc::Sender<Job>,
    readers: Arc<Vec<Mutex<Connection>>>,
    next_reader: Arc<AtomicUsize>,
    /// Changes committed, and commits made (for the group-commit figures).
    stats: Arc<[AtomicUsize; 2]>,
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
        sql::private(dir, &file)
            .map_err(|e| cannot(format!("cannot make {} private: {e}", dir.display())))?;
        let mut writer = Connection::open(&file)?;
        sql::init(&mut writer)?;
        // The journal files exist now; keep them private too.
        let _ = sql::private(dir, &file);
        let readers = (0..READERS)
            .map(|_| {
                let conn = Connection::open(&file)?;
                conn.busy_timeout(std::time::Duration::from_secs(5))?;
                Ok(Mutex::new(conn))
            })
            .collect::<Result<Vec<_>, rusqlite::Error>>()?;
        Ok(SqliteStore::start(writer, readers))
    }

    /// An in-memory store, for tests. It has no reader connections: reads go
    /// through the writer.
    ///
    /// # Errors
    /// SQLite cannot start.
    pub fn in_memory() -> Result<SqliteStore, rusqlite::Error> {
        let mut conn = Connection::open_in_memory()?;
        sql::init(&mut conn)?;
        Ok(SqliteStore::start(conn, vec![]))
    }

    fn start(writer: Connection, readers: Vec<Mutex<Connection>>) -> SqliteStore {
        let (jobs, queue) = mpsc::channel::<Job>();
        let stats: Arc<[AtomicUsize; 2]> = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
        let counts = stats.clone();
        std::thread::Builder::new()
            .name("agon-store-writer".into())
            .spawn(move || write_loop(&writer, &queue, &counts))
            .expect("the store's writer thread starts");
        SqliteStore {
            jobs,
            readers: Arc::new(readers),
            next_reader: Arc::new(AtomicUsize::new(0)),
            stats,
        }
    }

    /// Runs a change on the writer and waits until it is committed.
    async fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |conn| {
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
        });
        self.jobs.send(job).map_err(|_| StoreError::Closed)?;
        rx.await.map_err(|_| StoreError::Closed)?
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
/// replies to each. Ends when every handle is dropped.
fn write_loop(conn: &Connection, queue: &mpsc::Receiver<Job>, stats: &[AtomicUsize; 2]) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        // Normally the whole batch is one transaction. Should BEGIN fail, each
        // change still runs alone: a savepoint outside a transaction is one,
        // and its RELEASE commits it.
        let grouped = conn.execute_batch("BEGIN IMMEDIATE").is_ok();
        let mut replies = Vec::with_capacity(batch.len());
        for job in batch {
            let _ = conn.execute_batch("SAVEPOINT job");
            let (ok, reply) = job(conn);
            if !ok {
                let _ = conn.execute_batch("ROLLBACK TO job");
            }
            let released = conn.execute_batch("RELEASE job");
            if grouped {
                replies.push(reply);
            } else {
                reply(released.as_ref().err());
            }
        }
        if !grouped {
            continue;
        }
        let committed = conn.execute_batch("COMMIT");
        if committed.is_err() {
            let _ = conn.execute_batch("ROLLBACK");
        } else {
            stats[0].fetch_add(replies.len(), Ordering::Relaxed);
            stats[1].fetch_add(1, Ordering::Relaxed);
        }
        for reply in replies {
            reply(committed.as_ref().err());
        }
    }
}
