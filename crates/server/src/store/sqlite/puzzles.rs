//! The SQLite store's puzzle ratings and tries.

use super::SqliteStore;
use crate::store::error::Stored;
use crate::store::puzzles::{PuzzleBackend, PuzzleRater};
use crate::store::ratings::RatingRow;
use rusqlite::{params, Connection, OptionalExtension};

fn read(c: &Connection, account: i64, game: &str) -> Result<RatingRow, rusqlite::Error> {
    Ok(c.query_row(
        "SELECT rating, deviation, volatility, attempts FROM puzzle_ratings
         WHERE account_id = ?1 AND game = ?2",
        params![account, game],
        |r| {
            Ok(RatingRow {
                rating: r.get(0)?,
                deviation: r.get(1)?,
                volatility: r.get(2)?,
                games: r.get(3)?,
            })
        },
    )
    .optional()?
    .unwrap_or(RatingRow::NEW))
}

#[async_trait::async_trait]
impl PuzzleBackend for SqliteStore {
    async fn puzzle_rating(&self, account: i64, game: &str) -> Stored<RatingRow> {
        let game = game.to_string();
        self.read(move |c| read(c, account, &game)).await
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
        let (game, puzzle) = (game.to_string(), puzzle.to_string());
        self.write(move |c| {
            let new = c.execute(
                "INSERT INTO puzzle_attempts (account_id, puzzle, game, correct, at)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (account_id, puzzle) DO NOTHING",
                params![account, puzzle, game, correct, now],
            )?;
            if new == 0 {
                return Ok(None);
            }
            let before = read(c, account, &game)?;
            let after = rater(before);
            c.execute(
                "INSERT INTO puzzle_ratings (account_id, game, rating, deviation, volatility, attempts, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (account_id, game) DO UPDATE SET rating = ?3, deviation = ?4,
                     volatility = ?5, attempts = ?6, updated_at = ?7",
                params![account, game, after.rating, after.deviation, after.volatility, after.games, now],
            )?;
            Ok(Some((before, after)))
        })
        .await
    }

    async fn puzzles_tried(&self, account: i64, game: &str) -> Stored<Vec<String>> {
        let game = game.to_string();
        self.read(move |c| {
            let mut stmt = c.prepare(
                "SELECT puzzle FROM puzzle_attempts WHERE account_id = ?1 AND game = ?2",
            )?;
            let rows = stmt.query_map(params![account, game], |r| r.get(0))?;
            rows.collect::<Result<Vec<String>, _>>()
        })
        .await
    }

    async fn see_puzzle(
        &self,
        puzzle: &str,
        seer: &str,
        now: i64,
        forget_before: i64,
    ) -> Stored<()> {
        let (puzzle, seer) = (puzzle.to_string(), seer.to_string());
        self.write(move |c| {
            c.execute(
                "INSERT INTO puzzle_seen (puzzle, seer, at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (puzzle, seer) DO UPDATE SET at = ?3",
                params![puzzle, seer, now],
            )?;
            c.execute(
                "DELETE FROM puzzle_seen WHERE at < ?1",
                params![forget_before],
            )?;
            Ok(())
        })
        .await
    }

    async fn puzzle_seen(&self, puzzle: &str, seer: &str, since: i64) -> Stored<bool> {
        let (puzzle, seer) = (puzzle.to_string(), seer.to_string());
        self.read(move |c| {
            c.query_row(
                "SELECT EXISTS (SELECT 1 FROM puzzle_seen
                 WHERE puzzle = ?1 AND seer = ?2 AND at >= ?3)",
                params![puzzle, seer, since],
                |r| r.get(0),
            )
        })
        .await
    }
}
