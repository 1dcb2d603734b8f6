//! The PostgreSQL store's challenges, follows and who is online. A change
//! of a player's challenges is announced (`people ACCOUNT` on the chat
//! channel), so the instance holding her socket tells her page.

use super::{parsed, PgStore, CHAT, NOTIFY};
use crate::model::Seat;
use crate::store::accounts::SeatAccount;
use crate::store::error::{StoreError, Stored};
use crate::store::people::{
    Capped, ChallengeRow, ChallengeStatus, OnlineNow, PeopleBackend, Relation,
};
use tokio_postgres::Row;

/// The columns of a challenge, in the order [`challenge_from`] reads them.
const CHALLENGE_COLUMNS: &str = "c.id, c.from_account, f.name, c.to_account, t.name, c.kind,
    c.settings, c.clock, c.rated, c.seat, c.status, c.game, c.created_ms, c.changed_ms";

/// The tables a challenge is read from (its two players' names beside it).
const CHALLENGE_FROM: &str = "challenges c JOIN accounts f ON f.id = c.from_account
    JOIN accounts t ON t.id = c.to_account";

fn challenge_from(r: &Row) -> Result<ChallengeRow, StoreError> {
    Ok(ChallengeRow {
        id: r.get(0),
        from: SeatAccount {
            id: r.get(1),
            name: r.get(2),
        },
        to: SeatAccount {
            id: r.get(3),
            name: r.get(4),
        },
        kind: parsed(r, 5)?,
        settings: r.get(6),
        clock: r
            .get::<_, Option<&str>>(7)
            .and_then(|t| serde_json::from_str(t).ok()),
        rated: r.get(8),
        seat: r.get::<_, Option<i16>>(9).and_then(Seat::from_number),
        status: parsed(r, 10)?,
        game: r.get(11),
        created_ms: r.get(12),
        changed_ms: r.get(13),
    })
}

#[async_trait::async_trait]
impl PeopleBackend for PgStore {
    async fn add_challenge(&self, row: ChallengeRow, cap: usize) -> Stored<Capped> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        // One sender's challenges are decided one at a time.
        lock_account(&tx, row.from.id).await?;
        let open: Vec<ChallengeRow> = tx
            .query(
                &format!(
                    "SELECT {CHALLENGE_COLUMNS} FROM {CHALLENGE_FROM}
                     WHERE c.from_account = $1 AND c.status = 'open'"
                ),
                &[&row.from.id],
            )
            .await?
            .iter()
            .map(challenge_from)
            .collect::<Result<_, _>>()?;
        let open: Vec<&ChallengeRow> = open.iter().filter(|o| o.open_at(row.created_ms)).collect();
        if open.iter().any(|o| o.to.id == row.to.id) {
            return Ok(Capped::Already);
        }
        if open.len() >= cap {
            return Ok(Capped::Full(open.len()));
        }
        tx.execute(
            "INSERT INTO challenges (id, from_account, to_account, kind, settings, clock,
                rated, seat, status, game, created_ms, changed_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            &[
                &row.id,
                &row.from.id,
                &row.to.id,
                &row.kind.to_string(),
                &row.settings,
                &row.clock.and_then(|k| serde_json::to_string(&k).ok()),
                &row.rated,
                &row.seat.map(i16::from),
                &row.status.name(),
                &row.game,
                &row.created_ms,
                &row.changed_ms,
            ],
        )
        .await?;
        for a in [row.from.id, row.to.id] {
            tx.execute(NOTIFY, &[&CHAT, &format!("people {a}")]).await?;
        }
        tx.commit().await?;
        Ok(Capped::Added)
    }

    async fn challenge(&self, id: &str) -> Stored<Option<ChallengeRow>> {
        let client = self.client().await?;
        client
            .query_opt(
                &format!("SELECT {CHALLENGE_COLUMNS} FROM {CHALLENGE_FROM} WHERE c.id = $1"),
                &[&id],
            )
            .await?
            .as_ref()
            .map(challenge_from)
            .transpose()
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
        let client = self.client().await?;
        client
            .query(
                &format!(
                    "SELECT {CHALLENGE_COLUMNS} FROM {CHALLENGE_FROM}
                     WHERE {side} = $1
                       AND (c.status = 'open' OR c.changed_ms >= $2)
                       AND (c.created_ms < $3 OR (c.created_ms = $3 AND c.id > $4))
                     ORDER BY c.created_ms DESC, c.id LIMIT $5"
                ),
                &[&account, &since_ms, &before_ms, &before_id, &(limit as i64)],
            )
            .await?
            .iter()
            .map(challenge_from)
            .collect()
    }

    async fn settle_challenge(
        &self,
        id: &str,
        status: ChallengeStatus,
        game: Option<&str>,
        now_ms: i64,
    ) -> Stored<bool> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let row = tx
            .query_opt(
                "UPDATE challenges SET status = $2, game = $3, changed_ms = $4
                 WHERE id = $1 AND status = 'open' RETURNING from_account, to_account",
                &[&id, &status.name(), &game, &now_ms],
            )
            .await?;
        let Some(row) = row else {
            return Ok(false);
        };
        for a in [row.get::<_, i64>(0), row.get::<_, i64>(1)] {
            tx.execute(NOTIFY, &[&CHAT, &format!("people {a}")]).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn unsettle_challenge(&self, id: &str, game: &str) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE challenges SET status = 'open', game = NULL
                 WHERE id = $1 AND status = 'accepted' AND game = $2",
                &[&id, &game],
            )
            .await?;
        Ok(())
    }

    async fn relate(
        &self,
        relation: Relation,
        from: i64,
        to: i64,
        now_ms: i64,
        cap: usize,
    ) -> Stored<Capped> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        // One account's relations are decided one at a time.
        lock_account(&tx, from).await?;
        let held: bool = tx
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM relations
                    WHERE from_account = $1 AND to_account = $2 AND kind = $3)",
                &[&from, &to, &relation.name()],
            )
            .await?
            .get(0);
        if held {
            return Ok(Capped::Already);
        }
        let n: i64 = tx
            .query_one(
                "SELECT COUNT(*) FROM relations r JOIN accounts a ON a.id = r.to_account
                 WHERE r.from_account = $1 AND r.kind = $2 AND a.deleted_at IS NULL",
                &[&from, &relation.name()],
            )
            .await?
            .get(0);
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if n >= cap {
            return Ok(Capped::Full(n));
        }
        tx.execute(
            "INSERT INTO relations (from_account, to_account, kind, created_ms)
             VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            &[&from, &to, &relation.name(), &now_ms],
        )
        .await?;
        tx.commit().await?;
        Ok(Capped::Added)
    }

    async fn unrelate(&self, relation: Relation, from: i64, to: i64) -> Stored<bool> {
        let client = self.client().await?;
        Ok(client
            .execute(
                "DELETE FROM relations WHERE from_account = $1 AND to_account = $2 AND kind = $3",
                &[&from, &to, &relation.name()],
            )
            .await?
            == 1)
    }

    async fn related(&self, relation: Relation, from: i64) -> Stored<Vec<SeatAccount>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT a.id, a.name FROM relations r JOIN accounts a ON a.id = r.to_account
                 WHERE r.from_account = $1 AND r.kind = $2 AND a.deleted_at IS NULL
                 ORDER BY a.name_key",
                &[&from, &relation.name()],
            )
            .await?
            .iter()
            .map(|r| SeatAccount {
                id: r.get(0),
                name: r.get(1),
            })
            .collect())
    }

    async fn related_to(&self, relation: Relation, to: i64) -> Stored<i64> {
        let client = self.client().await?;
        Ok(client
            .query_one(
                "SELECT COUNT(*) FROM relations r JOIN accounts a ON a.id = r.from_account
                 WHERE r.to_account = $1 AND r.kind = $2 AND a.deleted_at IS NULL",
                &[&to, &relation.name()],
            )
            .await?
            .get(0))
    }

    async fn related_either(&self, relation: Relation, a: i64, b: i64) -> Stored<bool> {
        let client = self.client().await?;
        Ok(client
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM relations WHERE kind = $3 AND
                    ((from_account = $1 AND to_account = $2) OR (from_account = $2 AND to_account = $1)))",
                &[&a, &b, &relation.name()],
            )
            .await?
            .get(0))
    }

    async fn set_online(&self, instance: &str, accounts: Vec<i64>, anonymous: i64) -> Stored<()> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute("DELETE FROM online WHERE instance = $1", &[&instance])
            .await?;
        let mut ids = accounts;
        let mut sockets = vec![1i64; ids.len()];
        if anonymous > 0 {
            ids.push(0);
            sockets.push(anonymous);
        }
        tx.execute(
            "INSERT INTO online (instance, account_id, sockets)
             SELECT $1, a, s FROM UNNEST($2::bigint[], $3::bigint[]) AS u(a, s)",
            &[&instance, &ids, &sockets],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn online(&self, since_ms: i64) -> Stored<OnlineNow> {
        let client = self.client().await?;
        let named = client
            .query(
                "SELECT DISTINCT a.id, a.name, a.name_key FROM online o
                 JOIN instances i ON i.id = o.instance AND i.seen_ms >= $1
                 JOIN accounts a ON a.id = o.account_id
                 WHERE o.account_id <> 0 AND a.deleted_at IS NULL AND a.name IS NOT NULL
                 ORDER BY a.name_key",
                &[&since_ms],
            )
            .await?;
        let anonymous: i64 = client
            .query_one(
                "SELECT COALESCE(SUM(o.sockets), 0)::bigint FROM online o
                 JOIN instances i ON i.id = o.instance AND i.seen_ms >= $1
                 WHERE o.account_id = 0",
                &[&since_ms],
            )
            .await?
            .get(0);
        Ok(OnlineNow {
            ids: named.iter().map(|r| r.get(0)).collect(),
            names: named.iter().map(|r| r.get(1)).collect(),
            anonymous,
        })
    }

    async fn announce_person(&self, account: i64) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(NOTIFY, &[&CHAT, &format!("people {account}")])
            .await?;
        Ok(())
    }
}

/// Holds an account's row until the transaction ends, so that the caps of
/// one account (its challenges, follows, blocks, events) are decided one
/// request at a time: a count and the insert it allows are one step.
/// `FOR NO KEY UPDATE`, not `FOR UPDATE`: an insert that only refers to the
/// account (its foreign key's share lock) is not held up, so two accounts
/// relating to each other at once cannot deadlock.
pub(super) async fn lock_account(tx: &tokio_postgres::Transaction<'_>, account: i64) -> Stored<()> {
    tx.execute(
        "SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE",
        &[&account],
    )
    .await?;
    Ok(())
}
