//! The PostgreSQL store's live play: instances, clocked games, seeks. Every
//! change of the lobby is announced on its own channel, so each instance
//! pushes it to its own lobby sockets.

use super::{notify, PgStore, LOBBY};
use crate::model::Seat;
use crate::store::accounts::SeatAccount;
use crate::store::error::{StoreError, Stored};
use crate::store::live::{LiveBackend, LobbyNotice, SeekRow};
use tokio_postgres::Row;

/// The columns of a seek, in the order [`seek_from`] reads them.
const SEEK_COLUMNS: &str = "s.id, s.created_ms, s.expires_ms, s.kind, s.settings, s.clock, s.rated,
    s.seat, s.account_id, a.name, s.rating, s.rating_min, s.rating_max, s.pool, s.token_hash, s.game";

fn seek_from(r: &Row) -> Result<SeekRow, StoreError> {
    let kind: &str = r.get(3);
    Ok(SeekRow {
        id: r.get(0),
        created_ms: r.get(1),
        expires_ms: r.get(2),
        kind: kind
            .parse()
            .map_err(|e| StoreError::Postgres(format!("damaged seek: {e}")))?,
        settings: r.get(4),
        clock: r
            .get::<_, Option<&str>>(5)
            .and_then(|t| serde_json::from_str(t).ok()),
        rated: r.get(6),
        seat: Seat::from_number(r.get::<_, i16>(7)).unwrap_or(Seat::First),
        account: r
            .get::<_, Option<i64>>(8)
            .map(|id| SeatAccount { id, name: r.get(9) }),
        rating: r.get(10),
        rating_min: r.get(11),
        rating_max: r.get(12),
        pool: r.get(13),
        token_hash: r.get(14),
        game: r.get(15),
    })
}

impl PgStore {
    async fn announce(&self, notice: LobbyNotice) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(super::NOTIFY, &[&LOBBY, &notice.payload()])
            .await?;
        Ok(())
    }
}

#[async_trait::async_trait]
impl LiveBackend for PgStore {
    async fn heartbeat(&self, instance: &str, now_ms: i64) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO instances (id, seen_ms) VALUES ($1, $2)
                 ON CONFLICT (id) DO UPDATE SET seen_ms = $2",
                &[&instance, &now_ms],
            )
            .await?;
        client
            .execute(
                "DELETE FROM instances WHERE seen_ms < $1",
                &[&(now_ms - 86_400_000)],
            )
            .await?;
        Ok(())
    }

    async fn instances(&self) -> Stored<Vec<(String, i64)>> {
        let client = self.client().await?;
        Ok(client
            .query("SELECT id, seen_ms FROM instances", &[])
            .await?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }

    async fn clocked_games(&self) -> Stored<Vec<(String, Option<String>)>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT id, clock_owner FROM games WHERE clock IS NOT NULL AND status = 'ongoing'",
                &[],
            )
            .await?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }

    async fn add_seek(&self, s: SeekRow, view: String) -> Stored<()> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let clock = s.clock.and_then(|c| serde_json::to_string(&c).ok());
        tx.execute(
            "INSERT INTO seeks (id, created_ms, expires_ms, kind, settings, clock, rated, seat,
                account_id, rating, rating_min, rating_max, pool, token_hash)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
            &[
                &s.id,
                &s.created_ms,
                &s.expires_ms,
                &s.kind.name(),
                &s.settings,
                &clock,
                &s.rated,
                &i16::from(s.seat),
                &s.account.as_ref().map(|a| a.id),
                &s.rating,
                &s.rating_min,
                &s.rating_max,
                &s.pool,
                &s.token_hash,
            ],
        )
        .await?;
        notify(
            &tx,
            LOBBY,
            &LobbyNotice::Added {
                id: s.id.clone(),
                view,
            }
            .payload(),
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn open_seeks(&self, now_ms: i64) -> Stored<Vec<SeekRow>> {
        let client = self.client().await?;
        client
            .query(
                &format!(
                    "SELECT {SEEK_COLUMNS} FROM seeks s LEFT JOIN accounts a ON a.id = s.account_id
                     WHERE s.game IS NULL AND s.expires_ms > $1 ORDER BY s.created_ms, s.id"
                ),
                &[&now_ms],
            )
            .await?
            .iter()
            .map(seek_from)
            .collect()
    }

    async fn seek(&self, id: &str) -> Stored<Option<SeekRow>> {
        let client = self.client().await?;
        client
            .query_opt(
                &format!(
                    "SELECT {SEEK_COLUMNS} FROM seeks s LEFT JOIN accounts a ON a.id = s.account_id
                     WHERE s.id = $1"
                ),
                &[&id],
            )
            .await?
            .as_ref()
            .map(seek_from)
            .transpose()
    }

    async fn take_seek(&self, id: &str, game: &str, now_ms: i64) -> Stored<bool> {
        let client = self.client().await?;
        // The row lock makes every other taker wait here; when the first
        // commits, theirs finds the seek taken and changes nothing.
        Ok(client
            .execute(
                "UPDATE seeks SET game = $2 WHERE id = $1 AND game IS NULL AND expires_ms > $3",
                &[&id, &game, &now_ms],
            )
            .await?
            == 1)
    }

    async fn untake_seek(&self, id: &str, game: &str) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE seeks SET game = NULL WHERE id = $1 AND game = $2",
                &[&id, &game],
            )
            .await?;
        Ok(())
    }

    async fn announce_taken(&self, id: &str, game: &str) -> Stored<()> {
        self.announce(LobbyNotice::Gone {
            id: id.to_string(),
            game: Some(game.to_string()),
        })
        .await
    }

    async fn drop_seek(&self, id: &str) -> Stored<bool> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let gone = tx
            .execute("DELETE FROM seeks WHERE id = $1 AND game IS NULL", &[&id])
            .await?
            == 1;
        if gone {
            let notice = LobbyNotice::Gone {
                id: id.to_string(),
                game: None,
            };
            notify(&tx, LOBBY, &notice.payload()).await?;
        }
        tx.commit().await?;
        Ok(gone)
    }

    async fn renew_seeks(&self, ids: Vec<String>, until_ms: i64) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE seeks SET expires_ms = $2 WHERE id = ANY($1) AND game IS NULL",
                &[&ids, &until_ms],
            )
            .await?;
        Ok(())
    }

    async fn expire_seeks(&self, now_ms: i64) -> Stored<Vec<String>> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let gone: Vec<String> = tx
            .query(
                "DELETE FROM seeks WHERE game IS NULL AND expires_ms <= $1 RETURNING id",
                &[&now_ms],
            )
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect();
        tx.execute(
            "DELETE FROM seeks WHERE game IS NOT NULL AND created_ms < $1",
            &[&(now_ms - 3_600_000)],
        )
        .await?;
        for id in &gone {
            let notice = LobbyNotice::Gone {
                id: id.clone(),
                game: None,
            };
            notify(&tx, LOBBY, &notice.payload()).await?;
        }
        tx.commit().await?;
        Ok(gone)
    }
}
