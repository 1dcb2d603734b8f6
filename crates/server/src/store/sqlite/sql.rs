//! The SQL of the store: the schema, its migrations, and one function per
//! read or write. Writes run inside the writer's transaction (each in a
//! savepoint), so none of them opens a transaction of its own.

use crate::dice::{Die, Drawn};
use crate::model::InviteSeats;
use crate::store::error::StoreError;
use crate::store::list::ListQuery;
use crate::store::rows::{Commit, GameRow, Loaded};
use crate::store::rows::{COLUMNS, N_COLUMNS};
use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;

// The schema lives in migrations/sqlite, applied by refinery.
refinery::embed_migrations!("migrations/sqlite");

/// Columns added after the first release, with their definitions: a database
/// made before them (and before migrations) gets them on open. Later
/// changes of the schema are migrations.
const ADDED_COLUMNS: [(&str, &str); 3] = [
    ("revision", "INTEGER NOT NULL DEFAULT 0"),
    ("reason", "TEXT"),
    ("rematch", "TEXT"),
];

use crate::store::rows::now;

/// The migrations the database has applied (none in a new one).
fn applied_migrations(conn: &Connection) -> Result<Vec<(i64, String)>, rusqlite::Error> {
    let has_history: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'refinery_schema_history')",
        [],
        |r| r.get(0),
    )?;
    if !has_history {
        return Ok(vec![]);
    }
    let mut stmt = conn.prepare("SELECT version, name FROM refinery_schema_history")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

/// Sets the connection up and brings the schema up to date.
pub(super) fn init(conn: &mut Connection) -> Result<(), rusqlite::Error> {
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let refuse = |why: String| {
        rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_ERROR),
            Some(why),
        )
    };
    let runner = migrations::runner().set_abort_missing(false);
    let known = crate::store::schema::known(&runner);
    crate::store::schema::check(&known, &applied_migrations(conn)?).map_err(refuse)?;
    runner
        .run(conn)
        .map_err(|e| refuse(format!("schema migration failed: {e}")))?;
    let existing: Vec<String> = conn
        .prepare("SELECT name FROM pragma_table_info('games')")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for (name, def) in ADDED_COLUMNS {
        if !existing.iter().any(|c| c == name) {
            conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {name} {def}"))?;
        }
    }
    hash_clear_tokens(conn)?;
    Ok(())
}

/// Creates a game with its first tokens, dice and invite.
///
/// # Errors
/// The write failed; nothing was stored.
pub(super) fn create(
    conn: &Connection,
    row: &GameRow,
    tokens: &[String],
    dice: &[Drawn],
    invite: Option<(&str, InviteSeats)>,
) -> Result<(), rusqlite::Error> {
    conn.execute(
        "INSERT INTO games (id, kind, settings, mode, level, engine_seat, token0, token1,
            start_position, status, created_at, updated_at, revision, reason, rematch,
            score_light, score_dark, account0, account1, rated, pair_first, clock, clock_owner,
            moved, offer)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
            ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)",
        params![
            row.id,
            row.kind.name(),
            row.settings,
            row.mode.name(),
            row.level,
            row.engine_seat,
            row.token0,
            row.token1,
            row.start_position,
            row.status.name(),
            row.created_at,
            row.updated_at,
            row.revision,
            row.reason,
            row.rematch,
            row.score.map(|s| s[0]),
            row.score.map(|s| s[1]),
            row.accounts[0].as_ref().map(|a| a.id),
            row.accounts[1].as_ref().map(|a| a.id),
            row.rated,
            row.pair_first,
            clock_text(row.clock.as_ref()),
            row.clock_owner,
            row.moved,
            row.offer.map(crate::model::Offer::text)
        ],
    )?;
    insert_tokens(conn, &row.id, 0, tokens)?;
    insert_dice(conn, &row.id, dice)?;
    if let Some((code, seat)) = invite {
        insert_invite(conn, &row.id, code, seat)?;
    }
    Ok(())
}

/// Writes one accepted change: drops the tokens after `keep` (Undo), adds
/// the new ones and any new dice, sets the status and the next revision.
///
/// # Errors
/// [`StoreError::Stale`] when the game is no longer at `from_revision`;
/// otherwise the write failed. Either way nothing was changed.
pub(super) fn commit(conn: &Connection, id: &str, c: &Commit) -> Result<i64, StoreError> {
    let next = c.from_revision + 1;
    let changed = conn.execute(
        "UPDATE games SET status = ?2, reason = ?3, revision = ?4, updated_at = ?5,
            score_light = ?7, score_dark = ?8, clock = ?9, clock_owner = ?10, moved = ?11,
            offer = ?12
         WHERE id = ?1 AND revision = ?6",
        params![
            id,
            c.status.name(),
            c.reason,
            next,
            now(),
            c.from_revision,
            c.score.map(|s| s[0]),
            c.score.map(|s| s[1]),
            clock_text(c.clock.as_ref()),
            c.clock_owner,
            c.moved,
            c.offer.map(crate::model::Offer::text)
        ],
    )?;
    if changed == 0 {
        let at: i64 = conn
            .query_row(
                "SELECT revision FROM games WHERE id = ?1",
                params![id],
                |r| r.get(0),
            )
            .optional()?
            .unwrap_or(-1);
        return Err(StoreError::Stale(at));
    }
    conn.execute(
        "DELETE FROM tokens WHERE game_id = ?1 AND seq >= ?2",
        params![id, c.keep as i64],
    )?;
    insert_tokens(conn, id, c.keep, &c.append)?;
    insert_dice(conn, id, &c.dice)?;
    Ok(next)
}

/// Adds dice found in a game's record but missing from its ledger (a game
/// stored before the ledger existed).
///
/// # Errors
/// The write failed; nothing was stored.
pub(super) fn add_dice(conn: &Connection, id: &str, dice: &[Drawn]) -> Result<(), rusqlite::Error> {
    insert_dice(conn, id, dice)?;
    Ok(())
}

/// Adds a one-time code that hands `seat` (2: both seats) to whoever
/// presents it.
///
/// # Errors
/// The write failed.
pub(super) fn add_invite(
    conn: &Connection,
    id: &str,
    code: &str,
    seat: InviteSeats,
) -> Result<(), rusqlite::Error> {
    // A new link for a seat is the only one that works: older unused links
    // of that seat are revoked.
    revoke_invites(conn, id, seat)?;
    insert_invite(conn, id, code, seat)?;
    Ok(())
}

/// Marks used every unused code of a game for the same seat code (0, 1,
/// or 2 for both), so that only the newest link of a seat can take it.
fn revoke_invites(conn: &Connection, id: &str, seat: InviteSeats) -> Result<(), rusqlite::Error> {
    conn.execute(
        "UPDATE invites SET used = 1
         WHERE game_id = ?1 AND used = 0 AND seat = ?2",
        params![id, seat],
    )?;
    Ok(())
}

/// Uses a one-time code: marks it used and gives its seat (or both) the new
/// `token`, so an older token of that seat stops working. Returns the seat
/// code (0, 1, or 2 for both), or `None` when the code is unknown or used.
///
/// # Errors
/// The write failed; nothing was changed.
pub(super) fn claim_invite(
    conn: &Connection,
    id: &str,
    code: &str,
    token: &str,
) -> Result<Option<(InviteSeats, i64)>, rusqlite::Error> {
    let seat: Option<InviteSeats> = conn
        .query_row(
            "SELECT seat FROM invites WHERE game_id = ?1 AND code = ?2 AND used = 0",
            params![id, code],
            |r| r.get(0),
        )
        .optional()?;
    let Some(seat) = seat else { return Ok(None) };
    conn.execute(
        "UPDATE invites SET used = 1 WHERE game_id = ?1 AND code = ?2",
        params![id, code],
    )?;
    // The seat has a new holder: a link made before this one, for the same
    // seat, no longer takes it back.
    revoke_invites(conn, id, seat)?;
    // A seat changing hands is a change of the game like any other: its
    // revision rises.
    let revision: i64 = conn.query_row(
        "UPDATE games SET
            token0 = CASE WHEN ?2 IN (0, 2) THEN ?3 ELSE token0 END,
            token1 = CASE WHEN ?2 IN (1, 2) THEN ?3 ELSE token1 END,
            revision = revision + 1
         WHERE id = ?1 RETURNING revision",
        params![id, seat, token],
        |r| r.get(0),
    )?;
    Ok(Some((seat, revision)))
}

/// Links a finished game to its rematch, as one more change of the game.
///
/// # Errors
/// [`StoreError::Stale`] when the game is no longer at `from_revision`.
pub(super) fn set_rematch(
    conn: &Connection,
    id: &str,
    from_revision: i64,
    rematch: &str,
) -> Result<i64, StoreError> {
    let next = from_revision + 1;
    let changed = conn.execute(
        "UPDATE games SET rematch = ?2, revision = ?3, offer = NULL WHERE id = ?1 AND revision = ?4",
        params![id, rematch, next, from_revision],
    )?;
    if changed == 0 {
        return Err(StoreError::Stale(from_revision));
    }
    Ok(next)
}

/// Loads a game's row, tokens and dice ledger.
///
/// # Errors
/// The read failed.
pub(super) fn load(conn: &Connection, id: &str) -> Result<Option<Loaded>, rusqlite::Error> {
    let row = conn
        .query_row(
            &format!("SELECT {COLUMNS} FROM games WHERE id = ?1"),
            params![id],
            row_from_sql,
        )
        .optional()?;
    let Some(row) = row else { return Ok(None) };
    let mut stmt = conn.prepare("SELECT token FROM tokens WHERE game_id = ?1 ORDER BY seq")?;
    let tokens = stmt
        .query_map(params![id], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    let mut stmt = conn.prepare("SELECT die, seq, value FROM dice WHERE game_id = ?1")?;
    let dice = stmt
        .query_map(params![id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, u8>(2)?,
            ))
        })?
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .filter_map(|(die, seq, value)| {
            Some(Drawn {
                die: Die::from_name(&die)?,
                seq: usize::try_from(seq).ok()?,
                value,
            })
        })
        .collect();
    Ok(Some(Loaded { row, tokens, dice }))
}

/// The most recently changed games, newest first, with their token counts.
///
/// # Errors
/// The read failed.
pub(super) fn list(
    conn: &Connection,
    query: &ListQuery,
) -> Result<Vec<(GameRow, usize)>, rusqlite::Error> {
    let mut filters = vec![];
    let mut values: Vec<rusqlite::types::Value> = vec![];
    let mut mine = vec![];
    if let Some(ids) = query.ids.as_ref().filter(|ids| !ids.is_empty()) {
        mine.push(format!("g.id IN ({})", vec!["?"; ids.len()].join(", ")));
        values.extend(ids.iter().map(|id| id.clone().into()));
    }
    if let Some(account) = query.account {
        mine.push("g.account0 = ? OR g.account1 = ?".to_string());
        values.extend([account.into(), account.into()]);
    }
    if mine.is_empty() && query.ids.is_some() {
        return Ok(vec![]);
    }
    if !mine.is_empty() {
        filters.push(format!("({})", mine.join(" OR ")));
    }
    if let Some(c) = &query.after {
        filters.push("(updated_at, created_at, g.id) < (?, ?, ?)".to_string());
        values.extend([
            c.updated_at.into(),
            c.created_at.into(),
            c.id.clone().into(),
        ]);
    }
    let filter = if filters.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", filters.join(" AND "))
    };
    values.push((query.limit as i64).into());
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS}, (SELECT COUNT(*) FROM tokens t WHERE t.game_id = g.id)
         FROM games g {filter} ORDER BY updated_at DESC, created_at DESC, g.id DESC LIMIT ?"
    ))?;
    let rows = stmt
        .query_map(rusqlite::params_from_iter(values), |r| {
            Ok((row_from_sql(r)?, r.get::<_, i64>(N_COLUMNS)? as usize))
        })?
        .collect();
    rows
}

/// Makes the data directory readable by its owner only (0700), and creates
/// the database file (0600) so that it never exists with wider rights. Called
/// before SQLite opens the file: see [`keep_private`] for after.
#[cfg(unix)]
pub(super) fn create_private(dir: &Path, file: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(file)?;
    keep_private(file)
}

/// Makes the database and its journal files readable by their owner only
/// (0600), by name: it never opens them. Once SQLite has the database open,
/// opening and closing it here would drop every lock this process holds on
/// it (POSIX locks belong to the process, and any close releases them), so
/// another process's connection (`agon backup`) would think itself the last
/// one, checkpoint, and delete the log the server is still writing to:
/// every change after that was lost at the next restart.
#[cfg(unix)]
pub(super) fn keep_private(file: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for suffix in ["", "-wal", "-shm"] {
        let mut name = file.as_os_str().to_owned();
        name.push(suffix);
        let path = std::path::PathBuf::from(name);
        if path.exists() {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
        }
    }
    Ok(())
}

#[cfg(not(unix))]
pub(super) fn create_private(_dir: &Path, _file: &Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(not(unix))]
pub(super) fn keep_private(_file: &Path) -> std::io::Result<()> {
    Ok(())
}

/// Replaces seat tokens stored in clear (databases made before hashing) by
/// their hashes; the players' links keep working, since a token is compared
/// by its hash.
fn hash_clear_tokens(conn: &Connection) -> Result<(), rusqlite::Error> {
    let clear: Vec<(String, Option<String>, Option<String>)> = conn
        .prepare(
            "SELECT id, token0, token1 FROM games WHERE length(token0) = 32 OR length(token1) = 32",
        )?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<Result<_, _>>()?;
    let fix = |t: Option<String>| {
        t.map(|t| {
            if crate::secrets::is_hash(&t) {
                t
            } else {
                crate::secrets::hash(&t)
            }
        })
    };
    for (id, t0, t1) in clear {
        conn.execute(
            "UPDATE games SET token0 = ?2, token1 = ?3 WHERE id = ?1",
            params![id, fix(t0), fix(t1)],
        )?;
    }
    Ok(())
}

fn insert_tokens(
    conn: &Connection,
    id: &str,
    from: usize,
    tokens: &[String],
) -> Result<(), rusqlite::Error> {
    let mut stmt =
        conn.prepare_cached("INSERT INTO tokens (game_id, seq, token) VALUES (?1, ?2, ?3)")?;
    for (i, t) in tokens.iter().enumerate() {
        stmt.execute(params![id, (from + i) as i64, t])?;
    }
    Ok(())
}

fn insert_dice(conn: &Connection, id: &str, dice: &[Drawn]) -> Result<(), rusqlite::Error> {
    let mut stmt = conn.prepare_cached(
        "INSERT OR IGNORE INTO dice (game_id, die, seq, value) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for d in dice {
        stmt.execute(params![id, d.die.name(), d.seq as i64, d.value])?;
    }
    Ok(())
}

fn insert_invite(
    conn: &Connection,
    id: &str,
    code: &str,
    seat: InviteSeats,
) -> Result<(), rusqlite::Error> {
    conn.execute(
        "INSERT INTO invites (game_id, code, seat) VALUES (?1, ?2, ?3)",
        params![id, code, seat],
    )?;
    Ok(())
}

/// A text column read as one of the model's enums; a word it does not know
/// is a conversion error (the row is damaged), not a panic.
pub(super) fn parsed<T>(r: &rusqlite::Row<'_>, column: usize) -> Result<T, rusqlite::Error>
where
    T: std::str::FromStr,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    let text: String = r.get(column)?;
    text.parse().map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(column, rusqlite::types::Type::Text, Box::new(e))
    })
}

fn row_from_sql(r: &rusqlite::Row<'_>) -> Result<GameRow, rusqlite::Error> {
    Ok(GameRow {
        id: r.get(0)?,
        kind: parsed(r, 1)?,
        settings: r.get(2)?,
        mode: parsed(r, 3)?,
        level: r.get(4)?,
        engine_seat: r.get(5)?,
        token0: r.get(6)?,
        token1: r.get(7)?,
        start_position: r.get(8)?,
        status: parsed(r, 9)?,
        created_at: r.get(10)?,
        updated_at: r.get(11)?,
        revision: r.get(12)?,
        reason: r.get(13)?,
        rematch: r.get(14)?,
        score: match (r.get::<_, Option<u32>>(15)?, r.get::<_, Option<u32>>(16)?) {
            (Some(light), Some(dark)) => Some([light, dark]),
            _ => None,
        },
        accounts: [
            seat_account(r.get(17)?, r.get(19)?),
            seat_account(r.get(18)?, r.get(20)?),
        ],
        rated: r.get::<_, i64>(21)? != 0,
        pair_first: r.get(22)?,
        rating_change: match (r.get::<_, Option<f64>>(23)?, r.get::<_, Option<f64>>(24)?) {
            (Some(a), Some(b)) => Some([a, b]),
            _ => None,
        },
        pair_score: match (r.get::<_, Option<f64>>(25)?, r.get::<_, Option<f64>>(26)?) {
            (Some(a), Some(b)) => Some([a, b]),
            _ => None,
        },
        clock: clock_from(r.get::<_, Option<String>>(27)?.as_deref()),
        clock_owner: r.get(28)?,
        moved: r.get(29)?,
        offer: crate::model::Offer::parse(r.get::<_, Option<String>>(30)?.as_deref()),
    })
}

/// A clock as its column holds it (JSON).
pub(super) fn clock_text(clock: Option<&crate::clock::Clock>) -> Option<String> {
    clock.and_then(|c| serde_json::to_string(c).ok())
}

/// A clock from its column (a damaged one reads as none: the game goes on
/// unclocked rather than not at all).
pub(super) fn clock_from(text: Option<&str>) -> Option<crate::clock::Clock> {
    text.and_then(|t| serde_json::from_str(t).ok())
}

/// A seat's account from its number and name columns.
fn seat_account(
    id: Option<i64>,
    name: Option<String>,
) -> Option<crate::store::accounts::SeatAccount> {
    id.map(|id| crate::store::accounts::SeatAccount { id, name })
}

/// A game's stored review: the revision it was made at, and its JSON.
///
/// # Errors
/// The read failed.
pub(super) fn review(
    conn: &Connection,
    id: &str,
) -> Result<Option<(i64, String)>, rusqlite::Error> {
    conn.query_row(
        "SELECT revision, body FROM reviews WHERE game_id = ?1",
        params![id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

/// Stores (or replaces) a game's review.
///
/// # Errors
/// The write failed.
pub(super) fn save_review(
    conn: &Connection,
    id: &str,
    revision: i64,
    body: &str,
) -> Result<(), rusqlite::Error> {
    conn.execute(
        "INSERT OR REPLACE INTO reviews (game_id, revision, body, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![id, revision, body, now()],
    )?;
    Ok(())
}
