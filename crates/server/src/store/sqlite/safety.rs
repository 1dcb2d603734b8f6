//! The SQLite store's reports, moderators, their log and mutes.

use super::SqliteStore;
use crate::store::accounts::SeatAccount;
use crate::store::error::Stored;
use crate::store::safety::{ModActionRow, ReportRow, SafetyBackend, Sanction};
use rusqlite::{params, OptionalExtension};

/// The columns of a report, in the order [`report_from`] reads them.
const REPORT_COLUMNS: &str = "r.id, r.reporter, a.name, r.target, b.name, r.reason, r.body, r.game,
    r.evidence, r.status, r.created_ms";

const REPORT_FROM: &str =
    "reports r LEFT JOIN accounts a ON a.id = r.reporter JOIN accounts b ON b.id = r.target";

fn report_from(r: &rusqlite::Row<'_>) -> Result<ReportRow, rusqlite::Error> {
    Ok(ReportRow {
        id: r.get(0)?,
        reporter: r
            .get::<_, Option<i64>>(1)?
            .map(|id| -> Result<SeatAccount, rusqlite::Error> {
                Ok(SeatAccount {
                    id,
                    name: r.get(2)?,
                })
            })
            .transpose()?,
        target: SeatAccount {
            id: r.get(3)?,
            name: r.get(4)?,
        },
        reason: r.get(5)?,
        text: r.get(6)?,
        game: r.get(7)?,
        evidence: r.get(8)?,
        status: r.get(9)?,
        created_ms: r.get(10)?,
    })
}

/// The columns of a logged action, in the order [`action_from`] reads them.
const ACTION_COLUMNS: &str = "m.id, m.moderator, a.name, m.target, b.name, m.action, m.reason,
    m.until_ms, m.report, m.created_ms";

const ACTION_FROM: &str =
    "mod_actions m LEFT JOIN accounts a ON a.id = m.moderator JOIN accounts b ON b.id = m.target";

fn action_from(r: &rusqlite::Row<'_>) -> Result<ModActionRow, rusqlite::Error> {
    Ok(ModActionRow {
        id: r.get(0)?,
        moderator: r
            .get::<_, Option<i64>>(1)?
            .map(|id| -> Result<SeatAccount, rusqlite::Error> {
                Ok(SeatAccount {
                    id,
                    name: r.get(2)?,
                })
            })
            .transpose()?,
        target: SeatAccount {
            id: r.get(3)?,
            name: r.get(4)?,
        },
        action: r.get(5)?,
        reason: r.get(6)?,
        until_ms: r.get(7)?,
        report: r.get(8)?,
        created_ms: r.get(9)?,
    })
}

#[async_trait::async_trait]
impl SafetyBackend for SqliteStore {
    async fn add_report(&self, report: ReportRow) -> Stored<Option<i64>> {
        self.write(move |c| {
            let n = c.execute(
                "INSERT INTO reports (reporter, target, reason, body, game, evidence, status, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'open', ?7)
                 ON CONFLICT DO NOTHING",
                params![
                    report.reporter.map(|a| a.id),
                    report.target.id,
                    report.reason,
                    report.text,
                    report.game,
                    report.evidence,
                    report.created_ms
                ],
            )?;
            Ok((n == 1).then(|| c.last_insert_rowid()))
        })
        .await
    }

    async fn reports(&self, status: &str, limit: usize) -> Stored<Vec<ReportRow>> {
        let status = status.to_string();
        self.read(move |c| {
            c.prepare(&format!(
                "SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} WHERE r.status = ?1
                 ORDER BY r.created_ms, r.id LIMIT ?2"
            ))?
            .query_map(params![status, limit as i64], report_from)?
            .collect()
        })
        .await
    }

    async fn close_report(&self, id: i64, by: Option<i64>, now_ms: i64) -> Stored<bool> {
        self.write(move |c| {
            Ok(c.execute(
                "UPDATE reports SET status = 'closed', closed_ms = ?2, closed_by = ?3
                 WHERE id = ?1 AND status = 'open'",
                params![id, now_ms, by],
            )? == 1)
        })
        .await
    }

    async fn is_moderator(&self, account: i64) -> Stored<bool> {
        self.read(move |c| {
            c.query_row(
                "SELECT EXISTS (SELECT 1 FROM moderators WHERE account_id = ?1)",
                params![account],
                |r| r.get(0),
            )
        })
        .await
    }

    async fn grant_moderator(&self, account: i64, now_ms: i64) -> Stored<bool> {
        self.write(move |c| {
            Ok(c.execute(
                "INSERT INTO moderators (account_id, granted_ms) VALUES (?1, ?2)
                 ON CONFLICT DO NOTHING",
                params![account, now_ms],
            )? == 1)
        })
        .await
    }

    async fn log_action(&self, a: ModActionRow) -> Stored<i64> {
        self.write(move |c| {
            c.execute(
                "INSERT INTO mod_actions (moderator, target, action, reason, until_ms, report, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    a.moderator.map(|m| m.id),
                    a.target.id,
                    a.action,
                    a.reason,
                    a.until_ms,
                    a.report,
                    a.created_ms
                ],
            )?;
            Ok(c.last_insert_rowid())
        })
        .await
    }

    async fn actions(&self, target: Option<i64>, limit: usize) -> Stored<Vec<ModActionRow>> {
        self.read(move |c| {
            c.prepare(&format!(
                "SELECT {ACTION_COLUMNS} FROM {ACTION_FROM}
                 WHERE (?1 IS NULL OR m.target = ?1) ORDER BY m.created_ms DESC, m.id DESC LIMIT ?2"
            ))?
            .query_map(params![target, limit as i64], action_from)?
            .collect()
        })
        .await
    }

    async fn unseen_actions(&self, target: i64) -> Stored<Vec<ModActionRow>> {
        self.write(move |c| {
            let rows: Vec<ModActionRow> = c
                .prepare(&format!(
                    "SELECT {ACTION_COLUMNS} FROM {ACTION_FROM}
                     WHERE m.target = ?1 AND m.seen = 0 AND m.action IN ('warn', 'mute', 'mark')
                     ORDER BY m.created_ms, m.id"
                ))?
                .query_map(params![target], action_from)?
                .collect::<Result<_, _>>()?;
            c.execute(
                "UPDATE mod_actions SET seen = 1 WHERE target = ?1 AND action IN ('warn', 'mute', 'mark')",
                params![target],
            )?;
            Ok(rows)
        })
        .await
    }

    async fn set_sanction(&self, account: i64, sanction: Sanction, until_ms: i64) -> Stored<()> {
        self.write(move |c| {
            if until_ms == 0 {
                c.execute(
                    "DELETE FROM sanctions WHERE account_id = ?1 AND kind = ?2",
                    params![account, sanction.name()],
                )?;
            } else {
                c.execute(
                    "INSERT INTO sanctions (account_id, kind, until_ms) VALUES (?1, ?2, ?3)
                     ON CONFLICT (account_id, kind) DO UPDATE SET until_ms = ?3",
                    params![account, sanction.name(), until_ms],
                )?;
            }
            Ok(())
        })
        .await
    }

    async fn sanction_until(&self, account: i64, sanction: Sanction) -> Stored<Option<i64>> {
        self.read(move |c| {
            c.query_row(
                "SELECT until_ms FROM sanctions WHERE account_id = ?1 AND kind = ?2",
                params![account, sanction.name()],
                |r| r.get(0),
            )
            .optional()
        })
        .await
    }

    async fn sanctioned(&self, sanction: Sanction, now_ms: i64) -> Stored<Vec<i64>> {
        self.read(move |c| {
            c.prepare(
                "SELECT account_id FROM sanctions WHERE kind = ?1 AND until_ms > ?2
                 ORDER BY account_id",
            )?
            .query_map(params![sanction.name(), now_ms], |r| r.get(0))?
            .collect()
        })
        .await
    }

    async fn rename_account(&self, account: i64, name: &str, key: &str) -> Stored<bool> {
        let (name, key) = (name.to_string(), key.to_string());
        self.write(move |c| {
            let taken: bool = c.query_row(
                "SELECT EXISTS (SELECT 1 FROM accounts WHERE name_key = ?1 AND id <> ?2)",
                params![key, account],
                |r| r.get(0),
            )?;
            if taken {
                return Ok(false);
            }
            c.execute(
                "UPDATE accounts SET name = ?2, name_key = ?3 WHERE id = ?1 AND deleted_at IS NULL",
                params![account, name, key],
            )?;
            Ok(true)
        })
        .await
    }

    async fn same_devices(&self, account: i64) -> Stored<Vec<SeatAccount>> {
        self.read(move |c| {
            c.prepare(
                "SELECT DISTINCT a.id, a.name, a.name_key FROM known_devices k
                 JOIN known_devices o ON o.device_hash = k.device_hash AND o.account_id <> k.account_id
                 JOIN accounts a ON a.id = o.account_id
                 WHERE k.account_id = ?1 AND a.deleted_at IS NULL ORDER BY a.name_key",
            )?
            .query_map(params![account], |r| {
                Ok(SeatAccount {
                    id: r.get(0)?,
                    name: r.get(1)?,
                })
            })?
            .collect()
        })
        .await
    }
}
