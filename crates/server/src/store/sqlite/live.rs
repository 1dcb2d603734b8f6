//! The SQLite store's live play: instances, clocked games, seeks. One
//! instance owns an SQLite file, so there is no one to tell: the lobby
//! pushes its own changes.

use super::SqliteStore;
use crate::store::accounts::SeatAccount;
use crate::store::error::Stored;
use crate::store::live::{LiveBackend, SeekRow};
use rusqlite::{params, OptionalExtension};

/// The columns of a seek, in the order [`seek_from`] reads them.
const SEEK_COLUMNS: &str = "s.id, s.created_ms, s.expires_ms, s.kind, s.settings, s.clock, s.rated,
    s.seat, s.account_id, a.name, s.rating, s.rating_min, s.rating_max, s.pool, s.token_hash, s.game";

fn seek_from(r: &rusqlite::Row<'_>) -> Result<SeekRow, rusqlite::Error> {
    let kind: String = r.get(3)?;
    Ok(SeekRow {
        id: r.get(0)?,
        created_ms: r.get(1)?,
        expires_ms: r.get(2)?,
        kind: kind.parse().map_err(|e| {
            rusqlite::Error::FromSqlConversionFailure(3, rusqlite::types::Type::Text, Box::new(e))
        })?,
        settings: r.get(4)?,
        clock: r
            .get::<_, Option<String>>(5)?
            .and_then(|t| serde_json::from_str(&t).ok()),
        rated: r.get::<_, i64>(6)? != 0,
        seat: r.get(7)?,
        account: r
            .get::<_, Option<i64>>(8)?
            .map(|id| -> Result<SeatAccount, rusqlite::Error> {
                Ok(SeatAccount {
                    id,
                    name: r.get(9)?,
                })
            })
            .transpose()?,
        rating: r.get(10)?,
        rating_min: r.get(11)?,
        rating_max: r.get(12)?,
        pool: r.get(13)?,
        token_hash: r.get(14)?,
        game: r.get(15)?,
    })
}

#[async_trait::async_trait]
impl LiveBackend for SqliteStore {
    async fn heartbeat(&self, instance: &str, now_ms: i64) -> Stored<()> {
        let instance = instance.to_string();
        self.write(move |c| {
            c.execute(
                "INSERT INTO instances (id, seen_ms) VALUES (?1, ?2)
                 ON CONFLICT (id) DO UPDATE SET seen_ms = ?2",
                params![instance, now_ms],
            )?;
            // Instances gone for a day are forgotten.
            c.execute(
                "DELETE FROM instances WHERE seen_ms < ?1",
                params![now_ms - 86_400_000],
            )?;
            Ok(())
        })
        .await
    }

    async fn instances(&self) -> Stored<Vec<(String, i64)>> {
        self.read(|c| {
            c.prepare("SELECT id, seen_ms FROM instances")?
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
        })
        .await
    }

    async fn clocked_games(&self) -> Stored<Vec<(String, Option<String>)>> {
        self.read(|c| {
            c.prepare(
                "SELECT id, clock_owner FROM games WHERE clock IS NOT NULL AND status = 'ongoing'",
            )?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect()
        })
        .await
    }

    async fn add_seek(&self, s: SeekRow, _view: String) -> Stored<()> {
        self.write(move |c| {
            c.execute(
                "INSERT INTO seeks (id, created_ms, expires_ms, kind, settings, clock, rated, seat,
                    account_id, rating, rating_min, rating_max, pool, token_hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                params![
                    s.id,
                    s.created_ms,
                    s.expires_ms,
                    s.kind.name(),
                    s.settings,
                    s.clock.and_then(|c| serde_json::to_string(&c).ok()),
                    s.rated,
                    s.seat,
                    s.account.as_ref().map(|a| a.id),
                    s.rating,
                    s.rating_min,
                    s.rating_max,
                    s.pool,
                    s.token_hash
                ],
            )?;
            Ok(())
        })
        .await
    }

    async fn open_seeks(&self, now_ms: i64) -> Stored<Vec<SeekRow>> {
        self.read(move |c| {
            c.prepare(&format!(
                "SELECT {SEEK_COLUMNS} FROM seeks s LEFT JOIN accounts a ON a.id = s.account_id
                 WHERE s.game IS NULL AND s.expires_ms > ?1 ORDER BY s.created_ms, s.id"
            ))?
            .query_map(params![now_ms], seek_from)?
            .collect()
        })
        .await
    }

    async fn seek(&self, id: &str) -> Stored<Option<SeekRow>> {
        let id = id.to_string();
        self.read(move |c| {
            c.query_row(
                &format!(
                    "SELECT {SEEK_COLUMNS} FROM seeks s LEFT JOIN accounts a ON a.id = s.account_id
                     WHERE s.id = ?1"
                ),
                params![id],
                seek_from,
            )
            .optional()
        })
        .await
    }

    async fn take_seek(&self, id: &str, game: &str, now_ms: i64) -> Stored<bool> {
        let (id, game) = (id.to_string(), game.to_string());
        self.write(move |c| {
            Ok(c.execute(
                "UPDATE seeks SET game = ?2 WHERE id = ?1 AND game IS NULL AND expires_ms > ?3",
                params![id, game, now_ms],
            )? == 1)
        })
        .await
    }

    async fn untake_seek(&self, id: &str, game: &str) -> Stored<()> {
        let (id, game) = (id.to_string(), game.to_string());
        self.write(move |c| {
            c.execute(
                "UPDATE seeks SET game = NULL WHERE id = ?1 AND game = ?2",
                params![id, game],
            )?;
            Ok(())
        })
        .await
    }

    async fn announce_taken(&self, _id: &str, _game: &str) -> Stored<()> {
        Ok(())
    }

    async fn drop_seek(&self, id: &str) -> Stored<bool> {
        let id = id.to_string();
        self.write(move |c| {
            Ok(c.execute(
                "DELETE FROM seeks WHERE id = ?1 AND game IS NULL",
                params![id],
            )? == 1)
        })
        .await
    }

    async fn renew_seeks(&self, ids: Vec<String>, until_ms: i64) -> Stored<()> {
        self.write(move |c| {
            let mut stmt = c.prepare_cached(
                "UPDATE seeks SET expires_ms = ?2 WHERE id = ?1 AND game IS NULL",
            )?;
            for id in ids {
                stmt.execute(params![id, until_ms])?;
            }
            Ok(())
        })
        .await
    }

    async fn expire_seeks(&self, now_ms: i64) -> Stored<Vec<String>> {
        self.write(move |c| {
            let gone: Vec<String> = c
                .prepare("SELECT id FROM seeks WHERE game IS NULL AND expires_ms <= ?1")?
                .query_map(params![now_ms], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            c.execute(
                "DELETE FROM seeks WHERE (game IS NULL AND expires_ms <= ?1)
                    OR (game IS NOT NULL AND created_ms < ?2)",
                params![now_ms, now_ms - 3_600_000],
            )?;
            Ok(gone)
        })
        .await
    }
}
