//! The SQLite store's ratings.

use super::SqliteStore;
use crate::model::Kind;
use crate::store::error::Stored;
use crate::store::ratings::{HistoryPoint, Rater, RatingBackend, RatingRow};
use rusqlite::{params, Connection, OptionalExtension};

/// A rating from four columns from `at`: rating, deviation, volatility,
/// games.
fn rating_from(r: &rusqlite::Row<'_>, at: usize) -> Result<RatingRow, rusqlite::Error> {
    Ok(RatingRow {
        rating: r.get(at)?,
        deviation: r.get(at + 1)?,
        volatility: r.get(at + 2)?,
        games: r.get(at + 3)?,
    })
}

fn read(c: &Connection, account: i64, kind: Kind) -> Result<RatingRow, rusqlite::Error> {
    Ok(c.query_row(
        "SELECT rating, deviation, volatility, games FROM ratings
             WHERE account_id = ?1 AND game = ?2",
        params![account, kind.name()],
        |r| rating_from(r, 0),
    )
    .optional()?
    .unwrap_or(RatingRow::NEW))
}

#[async_trait::async_trait]
impl RatingBackend for SqliteStore {
    async fn rate(
        &self,
        game: &str,
        kind: Kind,
        accounts: [i64; 2],
        rater: Rater,
        pair_score: Option<[f64; 2]>,
        now: i64,
    ) -> Stored<Option<([f64; 2], i64)>> {
        let game = game.to_string();
        self.write(move |c| {
            let revision: Option<i64> = c
                .query_row(
                    "SELECT revision FROM games WHERE id = ?1 AND rating_change0 IS NULL",
                    params![game],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(revision) = revision else {
                return Ok(None);
            };
            let before = [read(c, accounts[0], kind)?, read(c, accounts[1], kind)?];
            let after = rater(before);
            for (account, r) in accounts.iter().zip(after) {
                c.execute(
                    "INSERT INTO ratings (account_id, game, rating, deviation, volatility, games, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                     ON CONFLICT (account_id, game) DO UPDATE SET rating = ?3, deviation = ?4,
                         volatility = ?5, games = ?6, updated_at = ?7",
                    params![account, kind.name(), r.rating, r.deviation, r.volatility, r.games, now],
                )?;
                c.execute(
                    "INSERT INTO rating_history (account_id, game, at, rating, deviation, game_id)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![account, kind.name(), now, r.rating, r.deviation, game],
                )?;
            }
            let change = [
                after[0].rating - before[0].rating,
                after[1].rating - before[1].rating,
            ];
            c.execute(
                "UPDATE games SET rating_change0 = ?2, rating_change1 = ?3, revision = ?4,
                     pair_points0 = ?5, pair_points1 = ?6
                 WHERE id = ?1",
                params![
                    game,
                    change[0],
                    change[1],
                    revision + 1,
                    pair_score.map(|p| p[0]),
                    pair_score.map(|p| p[1])
                ],
            )?;
            Ok(Some((change, revision + 1)))
        })
        .await
    }

    async fn ratings_of(&self, account: i64) -> Stored<Vec<(Kind, RatingRow)>> {
        self.read(move |c| {
            let mut stmt = c.prepare(
                "SELECT game, rating, deviation, volatility, games FROM ratings
                 WHERE account_id = ?1 ORDER BY game",
            )?;
            let rows = stmt.query_map(params![account], |r| {
                let game: String = r.get(0)?;
                Ok((game, rating_from(r, 1)?))
            })?;
            let mut out = vec![];
            for row in rows {
                let (game, r) = row?;
                if let Ok(kind) = game.parse() {
                    out.push((kind, r));
                }
            }
            Ok(out)
        })
        .await
    }

    async fn rating_history(&self, account: i64, kind: Kind) -> Stored<Vec<HistoryPoint>> {
        self.read(move |c| {
            let mut stmt = c.prepare(
                "SELECT at, rating, deviation, game_id FROM rating_history
                 WHERE account_id = ?1 AND game = ?2 ORDER BY at, rowid",
            )?;
            let rows = stmt.query_map(params![account, kind.name()], |r| {
                Ok(HistoryPoint {
                    at: r.get(0)?,
                    rating: r.get(1)?,
                    deviation: r.get(2)?,
                    game: r.get(3)?,
                })
            })?;
            rows.collect()
        })
        .await
    }

    async fn leaderboard(
        &self,
        kind: Kind,
        max_deviation: f64,
        limit: usize,
    ) -> Stored<Vec<(String, RatingRow)>> {
        self.read(move |c| {
            let mut stmt = c.prepare(
                "SELECT a.name, r.rating, r.deviation, r.volatility, r.games
                 FROM ratings r JOIN accounts a ON a.id = r.account_id
                 WHERE r.game = ?1 AND r.deviation <= ?2 AND a.deleted_at IS NULL
                   AND NOT EXISTS (SELECT 1 FROM sanctions s
                                   WHERE s.account_id = a.id AND s.kind = 'cheat')
                 ORDER BY r.rating DESC, a.name_key LIMIT ?3",
            )?;
            let rows = stmt.query_map(params![kind.name(), max_deviation, limit as i64], |r| {
                Ok((r.get(0)?, rating_from(r, 1)?))
            })?;
            rows.collect()
        })
        .await
    }
}
