//! The PostgreSQL store's ratings: a game is rated once however many
//! instances see it end (the game's row is locked while it is rated).

use super::{notify, PgStore, GAMES};
use crate::model::Kind;
use crate::store::error::Stored;
use crate::store::ratings::{HistoryPoint, RatedGame, Rater, RatingBackend, RatingRow, Replayed};
use tokio_postgres::Row;

fn rating_from(r: &Row, at: usize) -> RatingRow {
    RatingRow {
        rating: r.get(at),
        deviation: r.get(at + 1),
        volatility: r.get(at + 2),
        games: r.get::<_, i32>(at + 3) as u32,
    }
}

/// A rated game from three columns: id, place in the order, when.
fn rated_from(r: &Row) -> RatedGame {
    RatedGame {
        id: r.get(0),
        seq: r.get(1),
        at: r.get(2),
    }
}

#[async_trait::async_trait]
impl RatingBackend for PgStore {
    async fn rate(
        &self,
        game: &str,
        kind: Kind,
        accounts: [i64; 2],
        rater: Rater,
        pair_score: Option<[f64; 2]>,
        now: i64,
    ) -> Stored<Option<([f64; 2], i64)>> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let Some(row) = tx
            .query_opt(
                "SELECT revision FROM games WHERE id = $1 AND rating_change0 IS NULL FOR UPDATE",
                &[&game],
            )
            .await?
        else {
            return Ok(None);
        };
        let revision: i64 = row.get(0);
        let mut before = [RatingRow::NEW; 2];
        for (i, account) in accounts.iter().enumerate() {
            if let Some(r) = tx
                .query_opt(
                    "SELECT rating, deviation, volatility, games FROM ratings
                     WHERE account_id = $1 AND game = $2 FOR UPDATE",
                    &[account, &kind.name()],
                )
                .await?
            {
                before[i] = rating_from(&r, 0);
            }
        }
        let after = rater(before);
        for (account, r) in accounts.iter().zip(after) {
            let games = r.games as i32;
            tx.execute(
                "INSERT INTO ratings (account_id, game, rating, deviation, volatility, games, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (account_id, game) DO UPDATE SET rating = $3, deviation = $4,
                     volatility = $5, games = $6, updated_at = $7",
                &[account, &kind.name(), &r.rating, &r.deviation, &r.volatility, &games, &now],
            )
            .await?;
            tx.execute(
                "INSERT INTO rating_history (account_id, game, at, rating, deviation, game_id)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[account, &kind.name(), &now, &r.rating, &r.deviation, &game],
            )
            .await?;
        }
        let change = [
            after[0].rating - before[0].rating,
            after[1].rating - before[1].rating,
        ];
        let next = revision + 1;
        tx.execute(
            "UPDATE games SET rating_change0 = $2, rating_change1 = $3, revision = $4,
                 pair_points0 = $5, pair_points1 = $6, rated_at = $7,
                 rated_seq = nextval('rated_order')
             WHERE id = $1",
            &[
                &game,
                &change[0],
                &change[1],
                &next,
                &pair_score.map(|p| p[0]),
                &pair_score.map(|p| p[1]),
                &now,
            ],
        )
        .await?;
        notify(&tx, GAMES, &format!("{game} {next}")).await?;
        tx.commit().await?;
        Ok(Some((change, next)))
    }

    async fn rated_games(&self, kind: Kind) -> Stored<Vec<RatedGame>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT id, rated_seq, COALESCE(rated_at, updated_at) FROM games
                 WHERE kind = $1 AND rating_change0 IS NOT NULL AND rated_seq IS NOT NULL
                 ORDER BY rated_seq, id",
                &[&kind.name()],
            )
            .await?
            .iter()
            .map(rated_from)
            .collect())
    }

    async fn rated_games_of(
        &self,
        account: i64,
        kind: Kind,
        limit: usize,
    ) -> Stored<Vec<RatedGame>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT id, rated_seq, COALESCE(rated_at, updated_at) FROM games
                 WHERE kind = $1 AND (account0 = $2 OR account1 = $2)
                   AND rating_change0 IS NOT NULL AND rated_seq IS NOT NULL
                 ORDER BY rated_seq DESC LIMIT $3",
                &[&kind.name(), &account, &(limit as i64)],
            )
            .await?
            .iter()
            .map(rated_from)
            .collect())
    }

    async fn replace_ratings(
        &self,
        kind: Kind,
        expected: (usize, Option<i64>),
        replayed: Replayed,
        now: i64,
    ) -> Stored<Option<Vec<(String, i64)>>> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        // Ratings of this kind are rewritten whole: no game of the kind is
        // rated meanwhile (a rating locks its game's row, then reads
        // ratings; this lock is taken first by every replay).
        tx.execute("LOCK TABLE ratings IN EXCLUSIVE MODE", &[])
            .await?;
        let row = tx
            .query_one(
                "SELECT COUNT(*), MAX(rated_seq) FROM games
                 WHERE kind = $1 AND rating_change0 IS NOT NULL AND rated_seq IS NOT NULL",
                &[&kind.name()],
            )
            .await?;
        let (count, last): (i64, Option<i64>) = (row.get(0), row.get(1));
        if (count as usize, last) != expected {
            return Ok(None);
        }
        tx.execute("DELETE FROM ratings WHERE game = $1", &[&kind.name()])
            .await?;
        for (account, r) in &replayed.ratings {
            let games = r.games as i32;
            tx.execute(
                "INSERT INTO ratings (account_id, game, rating, deviation, volatility, games, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[account, &kind.name(), &r.rating, &r.deviation, &r.volatility, &games, &now],
            )
            .await?;
        }
        tx.execute(
            "DELETE FROM rating_history WHERE game = $1",
            &[&kind.name()],
        )
        .await?;
        let mut changed = vec![];
        for g in &replayed.games {
            if let Some(after) = g.after {
                for (account, r) in g.accounts.iter().zip(after) {
                    tx.execute(
                        "INSERT INTO rating_history (account_id, game, at, rating, deviation, game_id)
                         VALUES ($1, $2, $3, $4, $5, $6)",
                        &[account, &kind.name(), &g.at, &r.rating, &r.deviation, &g.id],
                    )
                    .await?;
                }
            }
            if let Some(r) = tx
                .query_opt(
                    "UPDATE games SET rating_change0 = $2, rating_change1 = $3,
                         revision = revision + 1
                     WHERE id = $1 AND (rating_change0 <> $2 OR rating_change1 <> $3)
                     RETURNING revision",
                    &[&g.id, &g.change[0], &g.change[1]],
                )
                .await?
            {
                let revision: i64 = r.get(0);
                notify(&tx, GAMES, &format!("{} {revision}", g.id)).await?;
                changed.push((g.id.clone(), revision));
            }
        }
        tx.commit().await?;
        Ok(Some(changed))
    }

    async fn ratings_of(&self, account: i64) -> Stored<Vec<(Kind, RatingRow)>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT game, rating, deviation, volatility, games FROM ratings
                 WHERE account_id = $1 ORDER BY game",
                &[&account],
            )
            .await?
            .iter()
            .filter_map(|r| Some((r.get::<_, &str>(0).parse().ok()?, rating_from(r, 1))))
            .collect())
    }

    async fn rating_history(&self, account: i64, kind: Kind) -> Stored<Vec<HistoryPoint>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT h.at, h.rating, h.deviation, h.game_id FROM rating_history h
                 LEFT JOIN games g ON g.id = h.game_id
                 WHERE h.account_id = $1 AND h.game = $2 ORDER BY h.at, g.rated_seq, h.ctid",
                &[&account, &kind.name()],
            )
            .await?
            .iter()
            .map(|r| HistoryPoint {
                at: r.get(0),
                rating: r.get(1),
                deviation: r.get(2),
                game: r.get(3),
            })
            .collect())
    }

    async fn leaderboard(
        &self,
        kind: Kind,
        max_deviation: f64,
        limit: usize,
    ) -> Stored<Vec<(String, RatingRow)>> {
        let client = self.client().await?;
        let limit = limit as i64;
        Ok(client
            .query(
                "SELECT a.name, r.rating, r.deviation, r.volatility, r.games
                 FROM ratings r JOIN accounts a ON a.id = r.account_id
                 WHERE r.game = $1 AND r.deviation <= $2 AND a.deleted_at IS NULL
                   AND NOT EXISTS (SELECT 1 FROM sanctions s
                                   WHERE s.account_id = a.id AND s.kind = 'cheat')
                 ORDER BY r.rating DESC, a.name_key LIMIT $3",
                &[&kind.name(), &max_deviation, &limit],
            )
            .await?
            .iter()
            .map(|r| (r.get(0), rating_from(r, 1)))
            .collect())
    }
}
