//! The SQLite store's challenges, follows and who is online. One instance
//! owns an SQLite file: there is no one else to tell of a change.

use super::SqliteStore;
use crate::store::accounts::SeatAccount;
use crate::store::error::Stored;
use crate::store::people::{
    Capped, ChallengeRow, ChallengeStatus, OnlineNow, PeopleBackend, Relation,
};
use rusqlite::{params, OptionalExtension};

/// The columns of a challenge, in the order [`challenge_from`] reads them.
const CHALLENGE_COLUMNS: &str = "c.id, c.from_account, f.name, c.to_account, t.name, c.kind,
    c.settings, c.clock, c.rated, c.seat, c.status, c.game, c.created_ms, c.changed_ms";

/// The tables a challenge is read from (its two players' names beside it).
const CHALLENGE_FROM: &str = "challenges c JOIN accounts f ON f.id = c.from_account
    JOIN accounts t ON t.id = c.to_account";

fn bad(column: usize, e: String) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        column,
        rusqlite::types::Type::Text,
        Box::<dyn std::error::Error + Send + Sync>::from(e),
    )
}

fn challenge_from(r: &rusqlite::Row<'_>) -> Result<ChallengeRow, rusqlite::Error> {
    let kind: String = r.get(5)?;
    let status: String = r.get(10)?;
    Ok(ChallengeRow {
        id: r.get(0)?,
        from: SeatAccount {
            id: r.get(1)?,
            name: r.get(2)?,
        },
        to: SeatAccount {
            id: r.get(3)?,
            name: r.get(4)?,
        },
        kind: kind.parse().map_err(|e| bad(5, format!("{e}")))?,
        settings: r.get(6)?,
        clock: r
            .get::<_, Option<String>>(7)?
            .and_then(|t| serde_json::from_str(&t).ok()),
        rated: r.get::<_, i64>(8)? != 0,
        seat: r.get(9)?,
        status: status.parse().map_err(|e| bad(10, e))?,
        game: r.get(11)?,
        created_ms: r.get(12)?,
        changed_ms: r.get(13)?,
    })
}

#[async_trait::async_trait]
impl PeopleBackend for SqliteStore {
    async fn add_challenge(&self, row: ChallengeRow, cap: usize) -> Stored<Capped> {
        // The one writer runs this whole: the count and the insert are one
        // step for every other request.
        self.write(move |c| {
            let open: Vec<ChallengeRow> = c
                .prepare(&format!(
                    "SELECT {CHALLENGE_COLUMNS} FROM {CHALLENGE_FROM}
                     WHERE c.from_account = ?1 AND c.status = 'open'"
                ))?
                .query_map(params![row.from.id], challenge_from)?
                .collect::<Result<_, _>>()?;
            let open: Vec<&ChallengeRow> =
                open.iter().filter(|o| o.open_at(row.created_ms)).collect();
            if open.iter().any(|o| o.to.id == row.to.id) {
                return Ok(Capped::Already);
            }
            if open.len() >= cap {
                return Ok(Capped::Full(open.len()));
            }
            c.execute(
                "INSERT INTO challenges (id, from_account, to_account, kind, settings, clock,
                    rated, seat, status, game, created_ms, changed_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    row.id,
                    row.from.id,
                    row.to.id,
                    row.kind.to_string(),
                    row.settings,
                    row.clock.and_then(|k| serde_json::to_string(&k).ok()),
                    i64::from(row.rated),
                    row.seat,
                    row.status.name(),
                    row.game,
                    row.created_ms,
                    row.changed_ms
                ],
            )?;
            Ok(Capped::Added)
        })
        .await
    }

    async fn challenge(&self, id: &str) -> Stored<Option<ChallengeRow>> {
        let id = id.to_string();
        self.read(move |c| {
            c.query_row(
                &format!("SELECT {CHALLENGE_COLUMNS} FROM {CHALLENGE_FROM} WHERE c.id = ?1"),
                params![id],
                challenge_from,
            )
            .optional()
        })
        .await
    }

    async fn challenges_of(
        &self,
        account: i64,
        sent: bool,
        since_ms: i64,
        before: Option<(i64, String)>,
        limit: usize,
    ) -> Stored<Vec<ChallengeRow>> {
        let side = if sent {
            "c.from_account"
        } else {
            "c.to_account"
        };
        let (before_ms, before_id) = before.unwrap_or((i64::MAX, String::new()));
        self.read(move |c| {
            c.prepare(&format!(
                "SELECT {CHALLENGE_COLUMNS} FROM {CHALLENGE_FROM}
                 WHERE {side} = ?1
                   AND (c.status = 'open' OR c.changed_ms >= ?2)
                   AND (c.created_ms < ?3 OR (c.created_ms = ?3 AND c.id > ?4))
                 ORDER BY c.created_ms DESC, c.id LIMIT ?5"
            ))?
            .query_map(
                params![account, since_ms, before_ms, before_id, limit as i64],
                challenge_from,
            )?
            .collect()
        })
        .await
    }

    async fn settle_challenge(
        &self,
        id: &str,
        status: ChallengeStatus,
        game: Option<&str>,
        now_ms: i64,
    ) -> Stored<bool> {
        let (id, game) = (id.to_string(), game.map(str::to_string));
        self.write(move |c| {
            Ok(c.execute(
                "UPDATE challenges SET status = ?2, game = ?3, changed_ms = ?4
                 WHERE id = ?1 AND status = 'open'",
                params![id, status.name(), game, now_ms],
            )? == 1)
        })
        .await
    }

    async fn unsettle_challenge(&self, id: &str, game: &str) -> Stored<()> {
        let (id, game) = (id.to_string(), game.to_string());
        self.write(move |c| {
            c.execute(
                "UPDATE challenges SET status = 'open', game = NULL
                 WHERE id = ?1 AND status = 'accepted' AND game = ?2",
                params![id, game],
            )?;
            Ok(())
        })
        .await
    }

    async fn relate(
        &self,
        relation: Relation,
        from: i64,
        to: i64,
        now_ms: i64,
        cap: usize,
    ) -> Stored<Capped> {
        // The one writer runs this whole: the count and the insert are one
        // step for every other request.
        self.write(move |c| {
            let held: bool = c.query_row(
                "SELECT EXISTS (SELECT 1 FROM relations
                    WHERE from_account = ?1 AND to_account = ?2 AND kind = ?3)",
                params![from, to, relation.name()],
                |r| r.get(0),
            )?;
            if held {
                return Ok(Capped::Already);
            }
            let n: i64 = c.query_row(
                "SELECT COUNT(*) FROM relations r JOIN accounts a ON a.id = r.to_account
                 WHERE r.from_account = ?1 AND r.kind = ?2 AND a.deleted_at IS NULL",
                params![from, relation.name()],
                |r| r.get(0),
            )?;
            let n = usize::try_from(n).unwrap_or(usize::MAX);
            if n >= cap {
                return Ok(Capped::Full(n));
            }
            c.execute(
                "INSERT INTO relations (from_account, to_account, kind, created_ms)
                 VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
                params![from, to, relation.name(), now_ms],
            )?;
            Ok(Capped::Added)
        })
        .await
    }

    async fn unrelate(&self, relation: Relation, from: i64, to: i64) -> Stored<bool> {
        self.write(move |c| {
            Ok(c.execute(
                "DELETE FROM relations WHERE from_account = ?1 AND to_account = ?2 AND kind = ?3",
                params![from, to, relation.name()],
            )? == 1)
        })
        .await
    }

    async fn related(&self, relation: Relation, from: i64) -> Stored<Vec<SeatAccount>> {
        self.read(move |c| {
            c.prepare(
                "SELECT a.id, a.name FROM relations r JOIN accounts a ON a.id = r.to_account
                 WHERE r.from_account = ?1 AND r.kind = ?2 AND a.deleted_at IS NULL
                 ORDER BY a.name_key",
            )?
            .query_map(params![from, relation.name()], |r| {
                Ok(SeatAccount {
                    id: r.get(0)?,
                    name: r.get(1)?,
                })
            })?
            .collect()
        })
        .await
    }

    async fn related_to(&self, relation: Relation, to: i64) -> Stored<i64> {
        self.read(move |c| {
            c.query_row(
                "SELECT COUNT(*) FROM relations r JOIN accounts a ON a.id = r.from_account
                 WHERE r.to_account = ?1 AND r.kind = ?2 AND a.deleted_at IS NULL",
                params![to, relation.name()],
                |r| r.get(0),
            )
        })
        .await
    }

    async fn related_either(&self, relation: Relation, a: i64, b: i64) -> Stored<bool> {
        self.read(move |c| {
            c.query_row(
                "SELECT EXISTS (SELECT 1 FROM relations WHERE kind = ?3 AND
                    ((from_account = ?1 AND to_account = ?2) OR (from_account = ?2 AND to_account = ?1)))",
                params![a, b, relation.name()],
                |r| r.get(0),
            )
        })
        .await
    }

    async fn set_online(&self, instance: &str, accounts: Vec<i64>, anonymous: i64) -> Stored<()> {
        let instance = instance.to_string();
        self.write(move |c| {
            c.execute("DELETE FROM online WHERE instance = ?1", params![instance])?;
            let mut insert = c.prepare(
                "INSERT INTO online (instance, account_id, sockets) VALUES (?1, ?2, ?3)",
            )?;
            for a in accounts {
                insert.execute(params![instance, a, 1])?;
            }
            if anonymous > 0 {
                insert.execute(params![instance, 0, anonymous])?;
            }
            Ok(())
        })
        .await
    }

    async fn online(&self, since_ms: i64) -> Stored<OnlineNow> {
        self.read(move |c| {
            let named: Vec<(i64, String)> = c
                .prepare(
                    "SELECT DISTINCT a.id, a.name FROM online o
                     JOIN instances i ON i.id = o.instance AND i.seen_ms >= ?1
                     JOIN accounts a ON a.id = o.account_id
                     WHERE o.account_id <> 0 AND a.deleted_at IS NULL AND a.name IS NOT NULL
                     ORDER BY a.name_key",
                )?
                .query_map(params![since_ms], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            let anonymous: i64 = c.query_row(
                "SELECT COALESCE(SUM(o.sockets), 0) FROM online o
                 JOIN instances i ON i.id = o.instance AND i.seen_ms >= ?1
                 WHERE o.account_id = 0",
                params![since_ms],
                |r| r.get(0),
            )?;
            let (ids, names) = named.into_iter().unzip();
            Ok(OnlineNow {
                names,
                ids,
                anonymous,
            })
        })
        .await
    }
}
