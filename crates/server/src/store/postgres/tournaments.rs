//! The PostgreSQL store's tournaments: shared by every instance, each
//! running event paired by the one instance holding its lease.

use super::PgStore;
use crate::model::EventStatus;
use crate::store::accounts::SeatAccount;
use crate::store::error::StoreError;
use crate::store::error::Stored;
use crate::store::tournaments::{BoutRow, EntrantRow, TournamentBackend, TournamentRow};
use crate::store::Capped;
use tokio_postgres::Row;

/// A tournament's columns, in the order [`tournament_from`] reads them.
const COLUMNS: &str = "t.id, t.kind, t.game, t.name, t.spec, t.status, t.starts_ms, t.ends_ms,
    t.round, t.created_by, a.name, t.created_ms, t.schedule";

/// A tournament's tables (its maker's name beside it).
const FROM: &str = "tournaments t LEFT JOIN accounts a ON a.id = t.created_by";

fn tournament_from(r: &Row) -> Result<TournamentRow, StoreError> {
    let by: Option<i64> = r.get(9);
    Ok(TournamentRow {
        id: r.get(0),
        kind: super::parsed(r, 1)?,
        game: super::parsed(r, 2)?,
        name: r.get(3),
        spec: r.get(4),
        status: super::parsed(r, 5)?,
        starts_ms: r.get(6),
        ends_ms: r.get(7),
        round: r.get(8),
        created_by: by.map(|id| SeatAccount {
            id,
            name: r.get(10),
        }),
        created_ms: r.get(11),
        schedule: r.get(12),
    })
}

/// A bout's columns, in the order [`bout_from`] reads them.
const BOUT_COLUMNS: &str = "b.tournament_id, b.game_id, b.round, b.account0, b.account1,
    b.berserk0, b.berserk1, b.score0, b.created_ms, b.ended_ms, b.turns";

fn bout_from(r: &Row) -> BoutRow {
    BoutRow {
        tournament: r.get(0),
        game: r.get(1),
        round: r.get(2),
        account0: r.get(3),
        account1: r.get(4),
        berserk: [r.get(5), r.get(6)],
        score0: r.get(7),
        created_ms: r.get(8),
        ended_ms: r.get(9),
        turns: r.get(10),
    }
}

#[async_trait::async_trait]
impl TournamentBackend for PgStore {
    async fn add_tournament(&self, row: TournamentRow, cap: usize) -> Stored<Capped> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        if let Some(by) = row.created_by.as_ref() {
            // One maker's events are decided one at a time.
            super::people::lock_account(&tx, by.id).await?;
            let made: i64 = tx
                .query_one(
                    "SELECT COUNT(*) FROM tournaments WHERE created_by = $1 AND status <> 'finished'",
                    &[&by.id],
                )
                .await?
                .get(0);
            let made = usize::try_from(made).unwrap_or(usize::MAX);
            if made >= cap {
                return Ok(Capped::Full(made));
            }
        }
        let n = tx
            .execute(
                "INSERT INTO tournaments (id, kind, game, name, spec, status, starts_ms, ends_ms,
                     round, created_by, created_ms, schedule)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                 ON CONFLICT DO NOTHING",
                &[
                    &row.id,
                    &row.kind.name(),
                    &row.game.name(),
                    &row.name,
                    &row.spec,
                    &row.status.name(),
                    &row.starts_ms,
                    &row.ends_ms,
                    &row.round,
                    &row.created_by.as_ref().map(|a| a.id),
                    &row.created_ms,
                    &row.schedule,
                ],
            )
            .await?;
        tx.commit().await?;
        Ok(if n == 1 {
            Capped::Added
        } else {
            Capped::Already
        })
    }

    async fn tournament(&self, id: &str) -> Stored<Option<TournamentRow>> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                &format!("SELECT {COLUMNS} FROM {FROM} WHERE t.id = $1"),
                &[&id],
            )
            .await?
            .as_ref()
            .map(tournament_from)
            .transpose()?)
    }

    async fn tournaments(&self, finished: usize) -> Stored<Vec<TournamentRow>> {
        let client = self.client().await?;
        let mut out: Vec<TournamentRow> = client
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM {FROM} WHERE t.status <> 'finished'
                     ORDER BY t.starts_ms, t.id"
                ),
                &[],
            )
            .await?
            .iter()
            .map(tournament_from)
            .collect::<Result<_, _>>()?;
        out.extend(
            client
                .query(
                    &format!(
                        "SELECT {COLUMNS} FROM {FROM} WHERE t.status = 'finished'
                         ORDER BY t.starts_ms DESC, t.id LIMIT $1"
                    ),
                    &[&(finished as i64)],
                )
                .await?
                .iter()
                .map(tournament_from)
                .collect::<Result<Vec<_>, _>>()?,
        );
        Ok(out)
    }

    async fn advance_tournament(
        &self,
        id: &str,
        from: (EventStatus, i64),
        to: (EventStatus, i64),
        ends_ms: Option<i64>,
    ) -> Stored<bool> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE tournaments SET status = $4, round = $5, ends_ms = COALESCE($6, ends_ms)
                 WHERE id = $1 AND status = $2 AND round = $3",
                &[&id, &from.0.name(), &from.1, &to.0.name(), &to.1, &ends_ms],
            )
            .await?;
        Ok(n == 1)
    }

    async fn lease_tournament(
        &self,
        id: &str,
        instance: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Stored<bool> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE tournaments SET pairer = $2, pairer_until_ms = $4
                 WHERE id = $1 AND (pairer IS NULL OR pairer = $2 OR pairer_until_ms < $3)",
                &[&id, &instance, &now_ms, &until_ms],
            )
            .await?;
        Ok(n == 1)
    }

    async fn enter(&self, id: &str, account: i64, rating: f64, now_ms: i64) -> Stored<bool> {
        let client = self.client().await?;
        let n = client
            .execute(
                "INSERT INTO tournament_entrants (tournament_id, account_id, joined_ms, rating)
                 VALUES ($1, $2, $3, $4)
                 ON CONFLICT (tournament_id, account_id) DO UPDATE SET withdrawn = FALSE
                 WHERE tournament_entrants.withdrawn",
                &[&id, &account, &now_ms, &rating],
            )
            .await?;
        Ok(n == 1)
    }

    async fn withdraw(&self, id: &str, account: i64) -> Stored<bool> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE tournament_entrants SET withdrawn = TRUE
                 WHERE tournament_id = $1 AND account_id = $2 AND NOT withdrawn",
                &[&id, &account],
            )
            .await?;
        Ok(n == 1)
    }

    async fn entrants(&self, id: &str) -> Stored<Vec<EntrantRow>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT e.account_id, a.name, e.joined_ms, e.withdrawn, e.rating, e.told_ms
                 FROM tournament_entrants e JOIN accounts a ON a.id = e.account_id
                 WHERE e.tournament_id = $1 ORDER BY e.joined_ms, e.account_id",
                &[&id],
            )
            .await?
            .iter()
            .map(|r| EntrantRow {
                account: SeatAccount {
                    id: r.get(0),
                    name: r.get(1),
                },
                joined_ms: r.get(2),
                withdrawn: r.get(3),
                rating: r.get(4),
                told_ms: r.get(5),
            })
            .collect())
    }

    async fn mark_told(&self, id: &str, account: i64, now_ms: i64) -> Stored<bool> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE tournament_entrants SET told_ms = $3
                 WHERE tournament_id = $1 AND account_id = $2 AND told_ms IS NULL",
                &[&id, &account, &now_ms],
            )
            .await?;
        Ok(n == 1)
    }

    async fn add_bout(&self, b: BoutRow) -> Stored<bool> {
        let client = self.client().await?;
        let n = client
            .execute(
                "INSERT INTO tournament_bouts (game_id, tournament_id, round, account0, account1,
                     berserk0, berserk1, score0, created_ms, ended_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING",
                &[
                    &b.game,
                    &b.tournament,
                    &b.round,
                    &b.account0,
                    &b.account1,
                    &b.berserk[0],
                    &b.berserk[1],
                    &b.score0,
                    &b.created_ms,
                    &b.ended_ms,
                ],
            )
            .await?;
        Ok(n == 1)
    }

    async fn end_bout(&self, game: &str, score0: f64, turns: i64, now_ms: i64) -> Stored<bool> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE tournament_bouts SET score0 = $2, ended_ms = $3, turns = $4
                 WHERE game_id = $1 AND score0 IS NULL",
                &[&game, &score0, &now_ms, &turns],
            )
            .await?;
        Ok(n == 1)
    }

    async fn berserk(&self, game: &str, seat: usize) -> Stored<()> {
        let client = self.client().await?;
        let column = if seat == 0 { "berserk0" } else { "berserk1" };
        client
            .execute(
                &format!("UPDATE tournament_bouts SET {column} = TRUE WHERE game_id = $1"),
                &[&game],
            )
            .await?;
        Ok(())
    }

    async fn bouts(&self, id: &str) -> Stored<Vec<BoutRow>> {
        let client = self.client().await?;
        Ok(client
            .query(
                &format!(
                    "SELECT {BOUT_COLUMNS} FROM tournament_bouts b WHERE b.tournament_id = $1
                     ORDER BY b.created_ms, b.game_id"
                ),
                &[&id],
            )
            .await?
            .iter()
            .map(bout_from)
            .collect())
    }

    async fn bout_of(&self, game: &str) -> Stored<Option<BoutRow>> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                &format!(
                    "SELECT {BOUT_COLUMNS} FROM tournament_bouts b
                     WHERE b.game_id = $1
                        OR b.game_id = (SELECT pair_first FROM games WHERE id = $1)
                     LIMIT 1"
                ),
                &[&game],
            )
            .await?
            .as_ref()
            .map(bout_from))
    }

    async fn tournaments_of(&self, account: i64, limit: usize) -> Stored<Vec<TournamentRow>> {
        let client = self.client().await?;
        Ok(client
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM {FROM}
                     JOIN tournament_entrants e ON e.tournament_id = t.id AND e.account_id = $1
                     ORDER BY t.starts_ms DESC, t.id LIMIT $2"
                ),
                &[&account, &(limit as i64)],
            )
            .await?
            .iter()
            .map(tournament_from)
            .collect::<Result<_, _>>()?)
    }
}
