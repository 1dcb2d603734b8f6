//! The PostgreSQL store's puzzle ratings and tries: a try is recorded once
//! (the attempts' primary key), and the rating row is locked while it is
//! rated, so two instances never rate one try twice or lose one.

use super::PgStore;
use crate::store::error::Stored;
use crate::store::puzzles::{PuzzleBackend, PuzzleRater};
use crate::store::ratings::RatingRow;

fn rating_from(r: &tokio_postgres::Row) -> RatingRow {
    RatingRow {
        rating: r.get(0),
        deviation: r.get(1),
        volatility: r.get(2),
        games: r.get::<_, i32>(3) as u32,
    }
}

#[async_trait::async_trait]
impl PuzzleBackend for PgStore {
    async fn puzzle_rating(&self, account: i64, game: &str) -> Stored<RatingRow> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                "SELECT rating, deviation, volatility, attempts FROM puzzle_ratings
                 WHERE account_id = $1 AND game = $2",
                &[&account, &game],
            )
            .await?
            .map_or(RatingRow::NEW, |r| rating_from(&r)))
    }

    async fn try_puzzle(
        &self,
        account: i64,
        game: &str,
        puzzle: &str,
        correct: bool,
        rater: PuzzleRater,
        now: i64,
    ) -> Stored<Option<(RatingRow, RatingRow)>> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let new = tx
            .execute(
                "INSERT INTO puzzle_attempts (account_id, puzzle, game, correct, at)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id, puzzle) DO NOTHING",
                &[&account, &puzzle, &game, &correct, &now],
            )
            .await?;
        if new == 0 {
            return Ok(None);
        }
        let before = tx
            .query_opt(
                "SELECT rating, deviation, volatility, attempts FROM puzzle_ratings
                 WHERE account_id = $1 AND game = $2 FOR UPDATE",
                &[&account, &game],
            )
            .await?
            .map_or(RatingRow::NEW, |r| rating_from(&r));
        let after = rater(before);
        let attempts = after.games as i32;
        tx.execute(
            "INSERT INTO puzzle_ratings (account_id, game, rating, deviation, volatility, attempts, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (account_id, game) DO UPDATE SET rating = $3, deviation = $4,
                 volatility = $5, attempts = $6, updated_at = $7",
            &[&account, &game, &after.rating, &after.deviation, &after.volatility, &attempts, &now],
        )
        .await?;
        tx.commit().await?;
        Ok(Some((before, after)))
    }

    async fn puzzles_tried(&self, account: i64, game: &str) -> Stored<Vec<String>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT puzzle FROM puzzle_attempts WHERE account_id = $1 AND game = $2",
                &[&account, &game],
            )
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    async fn see_puzzle(
        &self,
        puzzle: &str,
        seer: &str,
        now: i64,
        forget_before: i64,
    ) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO puzzle_seen (puzzle, seer, at) VALUES ($1, $2, $3)
                 ON CONFLICT (puzzle, seer) DO UPDATE SET at = $3",
                &[&puzzle, &seer, &now],
            )
            .await?;
        client
            .execute("DELETE FROM puzzle_seen WHERE at < $1", &[&forget_before])
            .await?;
        Ok(())
    }

    async fn puzzle_seen(&self, puzzle: &str, seer: &str, since: i64) -> Stored<bool> {
        let client = self.client().await?;
        Ok(client
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM puzzle_seen
                 WHERE puzzle = $1 AND seer = $2 AND at >= $3)",
                &[&puzzle, &seer, &since],
            )
            .await?
            .get(0))
    }
}
