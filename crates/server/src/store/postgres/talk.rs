//! The PostgreSQL store's chat, presence, push subscriptions and keys. A
//! new line of chat is announced on its own channel, so each instance
//! pushes it to its own sockets.

use super::{PgStore, CHAT, NOTIFY};
use crate::model::Seat;
use crate::store::error::Stored;
use crate::store::talk::{ChatLine, PushTarget, Room, TalkBackend, MAX_TARGETS};
use tokio_postgres::Row;

const CHAT_COLUMNS: &str = "id, game, room, seat, author, body, at_ms, hidden, author_id";

fn line_from(r: &Row) -> ChatLine {
    ChatLine {
        id: r.get(0),
        game: r.get(1),
        room: Room::from_name(r.get(2)).unwrap_or(Room::Spectators),
        seat: r.get::<_, Option<i16>>(3).and_then(Seat::from_number),
        name: r.get(4),
        text: r.get(5),
        at_ms: r.get(6),
        hidden: r.get(7),
        writer: r.get(8),
    }
}

fn target_from(r: &Row) -> PushTarget {
    PushTarget {
        id: r.get(0),
        endpoint: r.get(1),
        p256dh: r.get(2),
        auth: r.get(3),
        account: r.get(4),
        lang: r.get(5),
    }
}

#[async_trait::async_trait]
impl TalkBackend for PgStore {
    async fn add_chat(&self, line: ChatLine) -> Stored<ChatLine> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let row = tx
            .query_one(
                "INSERT INTO chat (game, room, seat, author, body, at_ms, hidden, author_id)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                &[
                    &line.game,
                    &line.room.name(),
                    &line.seat.map(i16::from),
                    &line.name,
                    &line.text,
                    &line.at_ms,
                    &line.hidden,
                    &line.writer,
                ],
            )
            .await?;
        let id: i64 = row.get(0);
        tx.execute(NOTIFY, &[&CHAT, &format!("{} {id}", line.game)])
            .await?;
        tx.commit().await?;
        Ok(ChatLine { id, ..line })
    }

    async fn chat(&self, game: &str, room: Room, limit: usize) -> Stored<Vec<ChatLine>> {
        let client = self.client().await?;
        let mut lines: Vec<ChatLine> = client
            .query(
                &format!(
                    "SELECT {CHAT_COLUMNS} FROM chat WHERE game = $1 AND room = $2
                     ORDER BY id DESC LIMIT $3"
                ),
                &[&game, &room.name(), &(limit as i64)],
            )
            .await?
            .iter()
            .map(line_from)
            .collect();
        lines.reverse();
        Ok(lines)
    }

    async fn chat_line(&self, id: i64) -> Stored<Option<ChatLine>> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                &format!("SELECT {CHAT_COLUMNS} FROM chat WHERE id = $1"),
                &[&id],
            )
            .await?
            .as_ref()
            .map(line_from))
    }

    async fn hidden_lines(&self, author: &str) -> Stored<i64> {
        let client = self.client().await?;
        Ok(client
            .query_one(
                "SELECT COUNT(*) FROM chat WHERE author = $1 AND hidden",
                &[&author],
            )
            .await?
            .get(0))
    }

    async fn set_presence(
        &self,
        game: &str,
        seat: Seat,
        instance: &str,
        sockets: usize,
        now_ms: i64,
    ) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO presence (game, seat, instance, sockets, changed_ms)
                 VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (game, seat, instance) DO UPDATE SET sockets = $4, changed_ms = $5",
                &[
                    &game,
                    &i16::from(seat),
                    &instance,
                    &(sockets as i32),
                    &now_ms,
                ],
            )
            .await?;
        client
            .execute(NOTIFY, &[&CHAT, &format!("presence {game}")])
            .await?;
        Ok(())
    }

    async fn presence(&self, game: &str, seat: Seat) -> Stored<Vec<(String, i64, i64)>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT instance, sockets, changed_ms FROM presence WHERE game = $1 AND seat = $2",
                &[&game, &i16::from(seat)],
            )
            .await?
            .iter()
            .map(|r| (r.get(0), i64::from(r.get::<_, i32>(1)), r.get(2)))
            .collect())
    }

    async fn server_key(&self, name: &str, made: String) -> Stored<String> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO server_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                &[&name, &made],
            )
            .await?;
        Ok(client
            .query_one("SELECT value FROM server_keys WHERE name = $1", &[&name])
            .await?
            .get(0))
    }

    async fn subscribe(&self, t: PushTarget, seats: Vec<(String, Seat)>) -> Stored<String> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let id: String = tx
            .query_one(
                "INSERT INTO push_subscriptions (id, endpoint, p256dh, auth, account_id, lang, created_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (endpoint) DO UPDATE SET p256dh = $3, auth = $4,
                    account_id = COALESCE($5, push_subscriptions.account_id), lang = $6
                 RETURNING id",
                &[
                    &t.id,
                    &t.endpoint,
                    &t.p256dh,
                    &t.auth,
                    &t.account,
                    &t.lang,
                    &crate::clock::now_ms(),
                ],
            )
            .await?
            .get(0);
        for (game, seat) in seats {
            tx.execute(
                "INSERT INTO push_seats (subscription, game, seat) VALUES ($1, $2, $3)
                 ON CONFLICT DO NOTHING",
                &[&id, &game, &i16::from(seat)],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(id)
    }

    async fn unsubscribe(&self, endpoint: &str) -> Stored<bool> {
        let client = self.client().await?;
        Ok(client
            .execute(
                "DELETE FROM push_subscriptions WHERE endpoint = $1",
                &[&endpoint],
            )
            .await?
            > 0)
    }

    async fn push_targets(
        &self,
        game: &str,
        seat: Seat,
        account: Option<i64>,
    ) -> Stored<Vec<PushTarget>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT id, endpoint, p256dh, auth, account_id, lang FROM push_subscriptions s
                 WHERE EXISTS (SELECT 1 FROM push_seats p
                               WHERE p.subscription = s.id AND p.game = $1 AND p.seat = $2)
                    OR ($3::BIGINT IS NOT NULL AND s.account_id = $3)
                 ORDER BY s.created_ms DESC LIMIT $4",
                &[&game, &i16::from(seat), &account, &MAX_TARGETS],
            )
            .await?
            .iter()
            .map(target_from)
            .collect())
    }
}
