//! The SQLite store. A game is a row of settings plus its record tokens, one row
//! per token. Every accepted action is written in one transaction before anyone
//! is told about it; the database runs in WAL mode with `synchronous=FULL`, so an
//! acknowledged token survives a crash or a kill.

use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;

/// What is stored about a game besides its tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// The game's public id.
    pub id: String,
    /// `ringo` or `urgammon`.
    pub kind: String,
    /// The rules string (Ringo) or the match header (Urgammon).
    pub settings: String,
    /// `engine`, `friend` or `local`.
    pub mode: String,
    /// The engine's level, in engine games.
    pub level: Option<u8>,
    /// The engine's seat (0 or 1), in engine games.
    pub engine_seat: Option<u8>,
    /// The secret of seat 0 (attackers / light); `None` for the engine's seat.
    pub token0: Option<String>,
    /// The secret of seat 1 (defenders / dark).
    pub token1: Option<String>,
    /// A Ringo start position, when not the standard one.
    pub start_position: Option<String>,
    /// A short status for lists: `ongoing` or the result.
    pub status: String,
    /// Creation time, seconds since the epoch.
    pub created_at: i64,
    /// Last change, seconds since the epoch.
    pub updated_at: i64,
}

/// The store: one connection, used under the server's lock.
pub struct Store {
    conn: Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    mode TEXT NOT NULL,
    level INTEGER,
    engine_seat INTEGER,
    token0 TEXT,
    token1 TEXT,
    start_position TEXT,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated_at);
";

/// The columns `row_from_sql` reads, in its order.
const COLUMNS: &str = "id, kind, settings, mode, level, engine_seat, token0, token1,
    start_position, status, created_at, updated_at";

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Store {
    /// Opens (creating if needed) the database file `agon.db` in `dir`.
    ///
    /// # Errors
    /// The directory or file cannot be created or opened.
    pub fn open(dir: &Path) -> Result<Store, rusqlite::Error> {
        std::fs::create_dir_all(dir).map_err(|e| {
            rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
                Some(format!(
                    "cannot create data directory {}: {e}",
                    dir.display()
                )),
            )
        })?;
        let conn = Connection::open(dir.join("agon.db"))?;
        Store::init(conn)
    }

    /// An in-memory store, for tests.
    ///
    /// # Errors
    /// SQLite cannot start.
    pub fn in_memory() -> Result<Store, rusqlite::Error> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Store, rusqlite::Error> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(Store { conn })
    }

    /// Creates a game with its first tokens, in one transaction.
    ///
    /// # Errors
    /// The write failed; nothing was stored.
    pub fn create(&mut self, row: &GameRow, tokens: &[String]) -> Result<(), rusqlite::Error> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO games (id, kind, settings, mode, level, engine_seat, token0, token1,
                start_position, status, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                row.id,
                row.kind,
                row.settings,
                row.mode,
                row.level,
                row.engine_seat,
                row.token0,
                row.token1,
                row.start_position,
                row.status,
                row.created_at,
                row.updated_at
            ],
        )?;
        for (seq, t) in tokens.iter().enumerate() {
            tx.execute(
                "INSERT INTO tokens (game_id, seq, token) VALUES (?1, ?2, ?3)",
                params![row.id, seq as i64, t],
            )?;
        }
        tx.commit()
    }

    /// Appends tokens from sequence number `from` and sets the status, in one
    /// transaction.
    ///
    /// # Errors
    /// The write failed; nothing was stored.
    pub fn append(
        &mut self,
        id: &str,
        from: usize,
        tokens: &[String],
        status: &str,
    ) -> Result<(), rusqlite::Error> {
        let tx = self.conn.transaction()?;
        for (i, t) in tokens.iter().enumerate() {
            tx.execute(
                "INSERT INTO tokens (game_id, seq, token) VALUES (?1, ?2, ?3)",
                params![id, (from + i) as i64, t],
            )?;
        }
        set_status(&tx, id, status)?;
        tx.commit()
    }

    /// Drops every token from sequence number `keep` on (undo), in one transaction.
    ///
    /// # Errors
    /// The write failed; nothing was changed.
    pub fn truncate(&mut self, id: &str, keep: usize, status: &str) -> Result<(), rusqlite::Error> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "DELETE FROM tokens WHERE game_id = ?1 AND seq >= ?2",
            params![id, keep as i64],
        )?;
        set_status(&tx, id, status)?;
        tx.commit()
    }

    /// Loads a game's row and tokens.
    ///
    /// # Errors
    /// The read failed.
    pub fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<String>)>, rusqlite::Error> {
        let row = self
            .conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM games WHERE id = ?1"),
                params![id],
                row_from_sql,
            )
            .optional()?;
        let Some(row) = row else { return Ok(None) };
        let mut stmt = self
            .conn
            .prepare("SELECT token FROM tokens WHERE game_id = ?1 ORDER BY seq")?;
        let tokens = stmt
            .query_map(params![id], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some((row, tokens)))
    }

    /// The most recently changed games, newest first, with their token counts.
    ///
    /// # Errors
    /// The read failed.
    pub fn list(&self, limit: usize) -> Result<Vec<(GameRow, usize)>, rusqlite::Error> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT {COLUMNS}, (SELECT COUNT(*) FROM tokens t WHERE t.game_id = g.id)
             FROM games g ORDER BY updated_at DESC, created_at DESC LIMIT ?1"
        ))?;
        let rows = stmt
            .query_map(params![limit as i64], |r| {
                Ok((row_from_sql(r)?, r.get::<_, i64>(12)? as usize))
            })?
            .collect();
        rows
    }

    /// The current time as stored (seconds since the epoch).
    pub fn now() -> i64 {
        now()
    }
}

/// Sets a game's status and its last-change time, inside the caller's transaction.
fn set_status(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    status: &str,
) -> Result<(), rusqlite::Error> {
    tx.execute(
        "UPDATE games SET status = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, status, now()],
    )?;
    Ok(())
}

fn row_from_sql(r: &rusqlite::Row<'_>) -> Result<GameRow, rusqlite::Error> {
    Ok(GameRow {
        id: r.get(0)?,
        kind: r.get(1)?,
        settings: r.get(2)?,
        mode: r.get(3)?,
        level: r.get(4)?,
        engine_seat: r.get(5)?,
        token0: r.get(6)?,
        token1: r.get(7)?,
        start_position: r.get(8)?,
        status: r.get(9)?,
        created_at: r.get(10)?,
        updated_at: r.get(11)?,
    })
}
