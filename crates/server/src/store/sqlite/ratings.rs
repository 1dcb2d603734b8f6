//! The SQLite store's ratings.

use super::SqliteStore;
use crate::model::Kind;
use crate::store::error::Stored;
use crate::store::ratings::{HistoryPoint, RatedGame, Rater, RatingBackend, RatingRow, Replayed};
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

/// A rated game from three columns: id, place in the order, when.
fn rated_from(r: &rusqlite::Row<'_>) -> Result<RatedGame, rusqlite::Error> {
    Ok(RatedGame {
        id: r.get(0)?,
        seq: r.get(1)?,
        at: r.get(2)?,
    })
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
                     pair_points0 = ?5, pair_points1 = ?6, rated_at = ?7,
                     rated_seq = (SELECT COALESCE(MAX(rated_seq), 0) + 1 FROM games)
                 WHERE id = ?1",
                params![
                    game,
                    change[0],
                    change[1],
                    revision + 1,
                    pair_score.map(|p| p[0]),
                    pair_score.map(|p| p[1]),
                    now
                ],
            )?;
            Ok(Some((change, revision + 1)))
        })
        .await
    }

    async fn rated_games(&self, kind: Kind) -> Stored<Vec<RatedGame>> {
        self.read(move |c| {
            c.prepare(
                "SELECT id, rated_seq, COALESCE(rated_at, updated_at) FROM games
                 WHERE kind = ?1 AND rating_change0 IS NOT NULL AND rated_seq IS NOT NULL
                 ORDER BY rated_seq, id",
            )?
            .query_map(params![kind.name()], rated_from)?
            .collect()
        })
        .await
    }

    async fn rated_games_of(
        &self,
        account: i64,
        kind: Kind,
        limit: usize,
    ) -> Stored<Vec<RatedGame>> {
        self.read(move |c| {
            c.prepare(
                "SELECT id, rated_seq, COALESCE(rated_at, updated_at) FROM games
                 WHERE kind = ?1 AND (account0 = ?2 OR account1 = ?2)
                   AND rating_change0 IS NOT NULL AND rated_seq IS NOT NULL
                 ORDER BY rated_seq DESC LIMIT ?3",
            )?
            .query_map(params![kind.name(), account, limit as i64], rated_from)?
            .collect()
        })
        .await
    }

    async fn replace_ratings(
        &self,
        kind: Kind,
        expected: (usize, Option<i64>),
        replayed: Replayed,
        now: i64,
    ) -> Stored<Option<Vec<(String, i64)>>> {
        self.write(move |c| {
            let (count, last): (i64, Option<i64>) = c.query_row(
                "SELECT COUNT(*), MAX(rated_seq) FROM games
                 WHERE kind = ?1 AND rating_change0 IS NOT NULL AND rated_seq IS NOT NULL",
                params![kind.name()],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            if (count as usize, last) != expected {
                return Ok(None);
            }
            c.execute("DELETE FROM ratings WHERE game = ?1", params![kind.name()])?;
            for (account, r) in &replayed.ratings {
                c.execute(
                    "INSERT INTO ratings (account_id, game, rating, deviation, volatility, games, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    params![account, kind.name(), r.rating, r.deviation, r.volatility, r.games, now],
                )?;
            }
            c.execute("DELETE FROM rating_history WHERE game = ?1", params![kind.name()])?;
            let mut changed = vec![];
            for g in &replayed.games {
                if let Some(after) = g.after {
                    for (account, r) in g.accounts.iter().zip(after) {
                        c.execute(
                            "INSERT INTO rating_history (account_id, game, at, rating, deviation, game_id)
                             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                            params![account, kind.name(), g.at, r.rating, r.deviation, g.id],
                        )?;
                    }
                }
                let revision: Option<i64> = c
                    .query_row(
                        "UPDATE games SET rating_change0 = ?2, rating_change1 = ?3,
                             revision = revision + 1
                         WHERE id = ?1 AND (rating_change0 <> ?2 OR rating_change1 <> ?3)
                         RETURNING revision",
                        params![g.id, g.change[0], g.change[1]],
                        |r| r.get(0),
                    )
                    .optional()?;
                if let Some(revision) = revision {
                    changed.push((g.id.clone(), revision));
                }
            }
            Ok(Some(changed))
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
                "SELECT h.at, h.rating, h.deviation, h.game_id FROM rating_history h
                 LEFT JOIN games g ON g.id = h.game_id
                 WHERE h.account_id = ?1 AND h.game = ?2 ORDER BY h.at, g.rated_seq, h.rowid",
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
