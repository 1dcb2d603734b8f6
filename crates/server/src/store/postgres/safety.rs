//! The PostgreSQL store's reports, moderators, their log and mutes. Every
//! instance reads them from the database, so a mute holds on every
//! instance at once.

use super::PgStore;
use crate::store::accounts::SeatAccount;
use crate::store::error::Stored;
use crate::store::safety::{ModActionRow, ReportRow, SafetyBackend, Sanction};
use tokio_postgres::Row;

const REPORT_COLUMNS: &str = "r.id, r.reporter, a.name, r.target, b.name, r.reason, r.body, r.game,
    r.evidence, r.status, r.created_ms";

const REPORT_FROM: &str =
    "reports r LEFT JOIN accounts a ON a.id = r.reporter JOIN accounts b ON b.id = r.target";

fn report_from(r: &Row) -> ReportRow {
    ReportRow {
        id: r.get(0),
        reporter: r
            .get::<_, Option<i64>>(1)
            .map(|id| SeatAccount { id, name: r.get(2) }),
        target: SeatAccount {
            id: r.get(3),
            name: r.get(4),
        },
        reason: r.get(5),
        text: r.get(6),
        game: r.get(7),
        evidence: r.get(8),
        status: r.get(9),
        created_ms: r.get(10),
    }
}

const ACTION_COLUMNS: &str = "m.id, m.moderator, a.name, m.target, b.name, m.action, m.reason,
    m.until_ms, m.report, m.created_ms";

const ACTION_FROM: &str =
    "mod_actions m LEFT JOIN accounts a ON a.id = m.moderator JOIN accounts b ON b.id = m.target";

fn action_from(r: &Row) -> ModActionRow {
    ModActionRow {
        id: r.get(0),
        moderator: r
            .get::<_, Option<i64>>(1)
            .map(|id| SeatAccount { id, name: r.get(2) }),
        target: SeatAccount {
            id: r.get(3),
            name: r.get(4),
        },
        action: r.get(5),
        reason: r.get(6),
        until_ms: r.get(7),
        report: r.get(8),
        created_ms: r.get(9),
    }
}

#[async_trait::async_trait]
impl SafetyBackend for PgStore {
    async fn add_report(&self, report: ReportRow) -> Stored<Option<i64>> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                "INSERT INTO reports (reporter, target, reason, body, game, evidence, status, created_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, 'open', $7)
                 ON CONFLICT DO NOTHING RETURNING id",
                &[
                    &report.reporter.map(|a| a.id),
                    &report.target.id,
                    &report.reason,
                    &report.text,
                    &report.game,
                    &report.evidence,
                    &report.created_ms,
                ],
            )
            .await?
            .map(|r| r.get(0)))
    }

    async fn reports(&self, status: &str, limit: usize) -> Stored<Vec<ReportRow>> {
        let client = self.client().await?;
        Ok(client
            .query(
                &format!(
                    "SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} WHERE r.status = $1
                     ORDER BY r.created_ms, r.id LIMIT $2"
                ),
                &[&status, &(limit as i64)],
            )
            .await?
            .iter()
            .map(report_from)
            .collect())
    }

    async fn close_report(&self, id: i64, by: Option<i64>, now_ms: i64) -> Stored<bool> {
        let client = self.client().await?;
        Ok(client
            .execute(
                "UPDATE reports SET status = 'closed', closed_ms = $2, closed_by = $3
                 WHERE id = $1 AND status = 'open'",
                &[&id, &now_ms, &by],
            )
            .await?
            == 1)
    }

    async fn is_moderator(&self, account: i64) -> Stored<bool> {
        let client = self.client().await?;
        Ok(client
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM moderators WHERE account_id = $1)",
                &[&account],
            )
            .await?
            .get(0))
    }

    async fn grant_moderator(&self, account: i64, now_ms: i64) -> Stored<bool> {
        let client = self.client().await?;
        Ok(client
            .execute(
                "INSERT INTO moderators (account_id, granted_ms) VALUES ($1, $2)
                 ON CONFLICT DO NOTHING",
                &[&account, &now_ms],
            )
            .await?
            == 1)
    }

    async fn log_action(&self, a: ModActionRow) -> Stored<i64> {
        let client = self.client().await?;
        Ok(client
            .query_one(
                "INSERT INTO mod_actions (moderator, target, action, reason, until_ms, report, created_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                &[
                    &a.moderator.map(|m| m.id),
                    &a.target.id,
                    &a.action,
                    &a.reason,
                    &a.until_ms,
                    &a.report,
                    &a.created_ms,
                ],
            )
            .await?
            .get(0))
    }

    async fn actions(&self, target: Option<i64>, limit: usize) -> Stored<Vec<ModActionRow>> {
        let client = self.client().await?;
        Ok(client
            .query(
                &format!(
                    "SELECT {ACTION_COLUMNS} FROM {ACTION_FROM}
                     WHERE ($1::bigint IS NULL OR m.target = $1)
                     ORDER BY m.created_ms DESC, m.id DESC LIMIT $2"
                ),
                &[&target, &(limit as i64)],
            )
            .await?
            .iter()
            .map(action_from)
            .collect())
    }

    async fn unseen_actions(&self, target: i64) -> Stored<Vec<ModActionRow>> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let rows: Vec<ModActionRow> = tx
            .query(
                &format!(
                    "SELECT {ACTION_COLUMNS} FROM {ACTION_FROM}
                     WHERE m.target = $1 AND NOT m.seen AND m.action IN ('warn', 'mute', 'mark')
                     ORDER BY m.created_ms, m.id FOR UPDATE OF m"
                ),
                &[&target],
            )
            .await?
            .iter()
            .map(action_from)
            .collect();
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        tx.execute(
            "UPDATE mod_actions SET seen = TRUE WHERE id = ANY($1)",
            &[&ids],
        )
        .await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn set_sanction(&self, account: i64, sanction: Sanction, until_ms: i64) -> Stored<()> {
        let client = self.client().await?;
        if until_ms == 0 {
            client
                .execute(
                    "DELETE FROM sanctions WHERE account_id = $1 AND kind = $2",
                    &[&account, &sanction.name()],
                )
                .await?;
        } else {
            client
                .execute(
                    "INSERT INTO sanctions (account_id, kind, until_ms) VALUES ($1, $2, $3)
                     ON CONFLICT (account_id, kind) DO UPDATE SET until_ms = $3",
                    &[&account, &sanction.name(), &until_ms],
                )
                .await?;
        }
        Ok(())
    }

    async fn sanction_until(&self, account: i64, sanction: Sanction) -> Stored<Option<i64>> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                "SELECT until_ms FROM sanctions WHERE account_id = $1 AND kind = $2",
                &[&account, &sanction.name()],
            )
            .await?
            .map(|r| r.get(0)))
    }

    async fn sanctioned(&self, sanction: Sanction, now_ms: i64) -> Stored<Vec<i64>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT account_id FROM sanctions WHERE kind = $1 AND until_ms > $2
                 ORDER BY account_id",
                &[&sanction.name(), &now_ms],
            )
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    async fn rename_account(&self, account: i64, name: &str, key: &str) -> Stored<bool> {
        let client = self.client().await?;
        // The name key is unique: a name another account has is refused by
        // the database itself, even when two renames race.
        match client
            .execute(
                "UPDATE accounts SET name = $2, name_key = $3 WHERE id = $1 AND deleted_at IS NULL",
                &[&account, &name, &key],
            )
            .await
        {
            Ok(_) => Ok(true),
            Err(e) if e.code() == Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) => {
                Ok(false)
            }
            Err(e) => Err(e.into()),
        }
    }

    async fn same_devices(&self, account: i64) -> Stored<Vec<SeatAccount>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT DISTINCT a.id, a.name, a.name_key FROM known_devices k
                 JOIN known_devices o ON o.device_hash = k.device_hash AND o.account_id <> k.account_id
                 JOIN accounts a ON a.id = o.account_id
                 WHERE k.account_id = $1 AND a.deleted_at IS NULL ORDER BY a.name_key",
                &[&account],
            )
            .await?
            .iter()
            .map(|r| SeatAccount {
                id: r.get(0),
                name: r.get(1),
            })
            .collect())
    }
}
