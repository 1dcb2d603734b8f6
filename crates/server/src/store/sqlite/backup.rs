//! `agon backup`: a consistent copy of a serving instance's SQLite file.
//!
//! Copying `agon.db` while the server runs loses data: the newest changes
//! are in the write-ahead log beside it (a copy restored 0 of 20 recent
//! games). SQLite's online backup copies the database as one read
//! transaction sees it, the log's committed changes included, while the
//! server goes on writing (in WAL mode a reader never blocks the writer).
//! It is copied in one step: a copy made page by page would start again at
//! every write of the server's, and under load never finish.

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};
use std::path::Path;
use std::time::{Duration, Instant};

/// What a backup copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    /// Database pages copied.
    pub pages: u64,
    /// The copy's size in bytes.
    pub bytes: u64,
    /// How long it took.
    pub took: Duration,
}

/// Copies the SQLite database `db` to `to`, a new file: consistent while a
/// server writes to `db`, checked (`PRAGMA quick_check`) and made one
/// self-contained file (rollback journal, no log beside it) before it is
/// given its name, so a copy with the name is always whole.
///
/// # Errors
/// `db` is not a database, `to` exists already, or writing the copy failed.
pub fn backup(db: &Path, to: &Path) -> Result<Copied, String> {
    let started = Instant::now();
    if !db.is_file() {
        return Err(format!("no database at {}", db.display()));
    }
    if to.exists() {
        return Err(format!(
            "{} exists already: give the backup a new name",
            to.display()
        ));
    }
    let source = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| format!("cannot open {}: {e}", db.display()))?;
    source
        .busy_timeout(Duration::from_secs(10))
        .map_err(|e| e.to_string())?;
    let mut partial = to.as_os_str().to_owned();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    let _ = std::fs::remove_file(&partial);
    let result = copy(&source, &partial);
    if result.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    let pages = result?;
    std::fs::rename(&partial, to).map_err(|e| format!("cannot name the copy: {e}"))?;
    let bytes = std::fs::metadata(to).map(|m| m.len()).unwrap_or(0);
    Ok(Copied {
        pages,
        bytes,
        took: started.elapsed(),
    })
}

/// Copies `source` into a new file at `path`; the pages copied. The file
/// is made readable by its owner alone (0600) before a byte is written: it
/// holds the password hashes, as the database does.
fn copy(source: &Connection, path: &Path) -> Result<u64, String> {
    private_file(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut copy =
        Connection::open(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    {
        let backup = Backup::new(source, &mut copy).map_err(|e| e.to_string())?;
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            match backup.step(-1).map_err(|e| e.to_string())? {
                StepResult::Done => break,
                // The writer holds a lock for a moment: try again.
                StepResult::Busy | StepResult::Locked if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                StepResult::More => {}
                _ => return Err("the database stayed locked for a minute".into()),
            }
        }
    }
    let pages: u64 = copy
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    let check: String = copy
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(|e| e.to_string())?;
    if check != "ok" {
        return Err(format!("the copy does not check out: {check}"));
    }
    // One file: the server turns its log on again when it opens the copy.
    copy.query_row("PRAGMA journal_mode = DELETE", [], |_| Ok(()))
        .map_err(|e| e.to_string())?;
    copy.close().map_err(|(_, e)| e.to_string())?;
    Ok(pages)
}

/// Makes an empty file only its owner may read and write (0600 on Unix,
/// whatever the umask).
fn private_file(path: &Path) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path).map(drop)
}
