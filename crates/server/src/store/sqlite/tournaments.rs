//! The SQLite store's tournaments.

use super::SqliteStore;
use crate::model::EventStatus;
use crate::store::accounts::SeatAccount;
use crate::store::error::Stored;
use crate::store::tournaments::{BoutRow, EntrantRow, TournamentBackend, TournamentRow};
use crate::store::Capped;
use rusqlite::{params, OptionalExtension};

/// A tournament's columns, in the order [`tournament_from`] reads them.
const COLUMNS: &str = "t.id, t.kind, t.game, t.name, t.spec, t.status, t.starts_ms, t.ends_ms,
    t.round, t.created_by, a.name, t.created_ms, t.schedule";

/// A tournament's tables (its maker's name beside it).
const FROM: &str = "tournaments t LEFT JOIN accounts a ON a.id = t.created_by";

fn tournament_from(r: &rusqlite::Row<'_>) -> Result<TournamentRow, rusqlite::Error> {
    let by: Option<i64> = r.get(9)?;
    Ok(TournamentRow {
        id: r.get(0)?,
        kind: super::sql::parsed(r, 1)?,
        game: super::sql::parsed(r, 2)?,
        name: r.get(3)?,
        spec: r.get(4)?,
        status: super::sql::parsed(r, 5)?,
        starts_ms: r.get(6)?,
        ends_ms: r.get(7)?,
        round: r.get(8)?,
        created_by: by.map(|id| SeatAccount {
            id,
            name: r.get(10).ok().flatten(),
        }),
        created_ms: r.get(11)?,
        schedule: r.get(12)?,
    })
}

/// A bout's columns, in the order [`bout_from`] reads them.
const BOUT_COLUMNS: &str = "b.tournament_id, b.game_id, b.round, b.account0, b.account1,
    b.berserk0, b.berserk1, b.score0, b.created_ms, b.ended_ms, b.turns";

fn bout_from(r: &rusqlite::Row<'_>) -> Result<BoutRow, rusqlite::Error> {
    Ok(BoutRow {
        tournament: r.get(0)?,
        game: r.get(1)?,
        round: r.get(2)?,
        account0: r.get(3)?,
        account1: r.get(4)?,
        berserk: [r.get::<_, i64>(5)? != 0, r.get::<_, i64>(6)? != 0],
        score0: r.get(7)?,
        created_ms: r.get(8)?,
        ended_ms: r.get(9)?,
        turns: r.get(10)?,
    })
}

#[async_trait::async_trait]
impl TournamentBackend for SqliteStore {
    async fn add_tournament(&self, row: TournamentRow, cap: usize) -> Stored<Capped> {
        // The one writer runs this whole: the count and the insert are one
        // step for every other request.
        self.write(move |c| {
            if let Some(by) = row.created_by.as_ref() {
                let made: i64 = c.query_row(
                    "SELECT COUNT(*) FROM tournaments WHERE created_by = ?1 AND status <> 'finished'",
                    params![by.id],
                    |r| r.get(0),
                )?;
                let made = usize::try_from(made).unwrap_or(usize::MAX);
                if made >= cap {
                    return Ok(Capped::Full(made));
                }
            }
            let n = c.execute(
                "INSERT INTO tournaments (id, kind, game, name, spec, status, starts_ms, ends_ms,
                     round, created_by, created_ms, schedule)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
                 ON CONFLICT DO NOTHING",
                params![
                    row.id,
                    row.kind.name(),
                    row.game.name(),
                    row.name,
                    row.spec,
                    row.status.name(),
                    row.starts_ms,
                    row.ends_ms,
                    row.round,
                    row.created_by.as_ref().map(|a| a.id),
                    row.created_ms,
                    row.schedule
                ],
            )?;
            Ok(if n == 1 { Capped::Added } else { Capped::Already })
        })
        .await
    }

    async fn tournament(&self, id: &str) -> Stored<Option<TournamentRow>> {
        let id = id.to_string();
        self.read(move |c| {
            c.query_row(
                &format!("SELECT {COLUMNS} FROM {FROM} WHERE t.id = ?1"),
                params![id],
                tournament_from,
            )
            .optional()
        })
        .await
    }

    async fn tournaments(&self, finished: usize) -> Stored<Vec<TournamentRow>> {
        self.read(move |c| {
            let mut out: Vec<TournamentRow> = c
                .prepare(&format!(
                    "SELECT {COLUMNS} FROM {FROM} WHERE t.status <> 'finished'
                     ORDER BY t.starts_ms, t.id"
                ))?
                .query_map([], tournament_from)?
                .collect::<Result<_, _>>()?;
            out.extend(
                c.prepare(&format!(
                    "SELECT {COLUMNS} FROM {FROM} WHERE t.status = 'finished'
                     ORDER BY t.starts_ms DESC, t.id LIMIT ?1"
                ))?
                .query_map(params![finished as i64], tournament_from)?
                .collect::<Result<Vec<_>, _>>()?,
            );
            Ok(out)
        })
        .await
    }

    async fn advance_tournament(
        &self,
        id: &str,
        from: (EventStatus, i64),
        to: (EventStatus, i64),
        ends_ms: Option<i64>,
    ) -> Stored<bool> {
        let (id, from_status, to_status) = (id.to_string(), from.0.name(), to.0.name());
        self.write(move |c| {
            let n = c.execute(
                "UPDATE tournaments SET status = ?4, round = ?5, ends_ms = COALESCE(?6, ends_ms)
                 WHERE id = ?1 AND status = ?2 AND round = ?3",
                params![id, from_status, from.1, to_status, to.1, ends_ms],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn lease_tournament(
        &self,
        id: &str,
        instance: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Stored<bool> {
        let (id, instance) = (id.to_string(), instance.to_string());
        self.write(move |c| {
            let n = c.execute(
                "UPDATE tournaments SET pairer = ?2, pairer_until_ms = ?4
                 WHERE id = ?1 AND (pairer IS NULL OR pairer = ?2 OR pairer_until_ms < ?3)",
                params![id, instance, now_ms, until_ms],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn enter(&self, id: &str, account: i64, rating: f64, now_ms: i64) -> Stored<bool> {
        let id = id.to_string();
        self.write(move |c| {
            let n = c.execute(
                "INSERT INTO tournament_entrants (tournament_id, account_id, joined_ms, rating)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (tournament_id, account_id) DO UPDATE SET withdrawn = 0
                 WHERE withdrawn = 1",
                params![id, account, now_ms, rating],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn withdraw(&self, id: &str, account: i64) -> Stored<bool> {
        let id = id.to_string();
        self.write(move |c| {
            let n = c.execute(
                "UPDATE tournament_entrants SET withdrawn = 1
                 WHERE tournament_id = ?1 AND account_id = ?2 AND withdrawn = 0",
                params![id, account],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn entrants(&self, id: &str) -> Stored<Vec<EntrantRow>> {
        let id = id.to_string();
        self.read(move |c| {
            c.prepare(
                "SELECT e.account_id, a.name, e.joined_ms, e.withdrawn, e.rating, e.told_ms
                 FROM tournament_entrants e JOIN accounts a ON a.id = e.account_id
                 WHERE e.tournament_id = ?1 ORDER BY e.joined_ms, e.account_id",
            )?
            .query_map(params![id], |r| {
                Ok(EntrantRow {
                    account: SeatAccount {
                        id: r.get(0)?,
                        name: r.get(1)?,
                    },
                    joined_ms: r.get(2)?,
                    withdrawn: r.get::<_, i64>(3)? != 0,
                    rating: r.get(4)?,
                    told_ms: r.get(5)?,
                })
            })?
            .collect()
        })
        .await
    }

    async fn mark_told(&self, id: &str, account: i64, now_ms: i64) -> Stored<bool> {
        let id = id.to_string();
        self.write(move |c| {
            let n = c.execute(
                "UPDATE tournament_entrants SET told_ms = ?3
                 WHERE tournament_id = ?1 AND account_id = ?2 AND told_ms IS NULL",
                params![id, account, now_ms],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn add_bout(&self, b: BoutRow) -> Stored<bool> {
        self.write(move |c| {
            let n = c.execute(
                "INSERT INTO tournament_bouts (game_id, tournament_id, round, account0, account1,
                     berserk0, berserk1, score0, created_ms, ended_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) ON CONFLICT DO NOTHING",
                params![
                    b.game,
                    b.tournament,
                    b.round,
                    b.account0,
                    b.account1,
                    i64::from(b.berserk[0]),
                    i64::from(b.berserk[1]),
                    b.score0,
                    b.created_ms,
                    b.ended_ms
                ],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn end_bout(&self, game: &str, score0: f64, turns: i64, now_ms: i64) -> Stored<bool> {
        let game = game.to_string();
        self.write(move |c| {
            let n = c.execute(
                "UPDATE tournament_bouts SET score0 = ?2, ended_ms = ?3, turns = ?4
                 WHERE game_id = ?1 AND score0 IS NULL",
                params![game, score0, now_ms, turns],
            )?;
            Ok(n == 1)
        })
        .await
    }

    async fn berserk(&self, game: &str, seat: usize) -> Stored<()> {
        let game = game.to_string();
        let column = if seat == 0 { "berserk0" } else { "berserk1" };
        self.write(move |c| {
            c.execute(
                &format!("UPDATE tournament_bouts SET {column} = 1 WHERE game_id = ?1"),
                params![game],
            )?;
            Ok(())
        })
        .await
    }

    async fn bouts(&self, id: &str) -> Stored<Vec<BoutRow>> {
        let id = id.to_string();
        self.read(move |c| {
            c.prepare(&format!(
                "SELECT {BOUT_COLUMNS} FROM tournament_bouts b WHERE b.tournament_id = ?1
                 ORDER BY b.created_ms, b.rowid"
            ))?
            .query_map(params![id], bout_from)?
            .collect()
        })
        .await
    }

    async fn bout_of(&self, game: &str) -> Stored<Option<BoutRow>> {
        let game = game.to_string();
        self.read(move |c| {
            c.query_row(
                &format!(
                    "SELECT {BOUT_COLUMNS} FROM tournament_bouts b
                     WHERE b.game_id = ?1
                        OR b.game_id = (SELECT pair_first FROM games WHERE id = ?1)
                     LIMIT 1"
                ),
                params![game],
                bout_from,
            )
            .optional()
        })
        .await
    }

    async fn tournaments_of(&self, account: i64, limit: usize) -> Stored<Vec<TournamentRow>> {
        self.read(move |c| {
            c.prepare(&format!(
                "SELECT {COLUMNS} FROM {FROM}
                 JOIN tournament_entrants e ON e.tournament_id = t.id AND e.account_id = ?1
                 ORDER BY t.starts_ms DESC, t.id LIMIT ?2"
            ))?
            .query_map(params![account, limit as i64], tournament_from)?
            .collect()
        })
        .await
    }
}
