//! The SQLite store's chat, presence, push subscriptions and keys. One
//! instance owns an SQLite file: a new line is pushed by the instance that
//! wrote it, with no one else to tell.

use super::SqliteStore;
use crate::model::Seat;
use crate::store::error::Stored;
use crate::store::talk::{ChatLine, PushTarget, Room, TalkBackend, MAX_TARGETS};
use rusqlite::{params, OptionalExtension};

const CHAT_COLUMNS: &str = "id, game, room, seat, author, body, at_ms, hidden, author_id";

fn line_from(r: &rusqlite::Row<'_>) -> Result<ChatLine, rusqlite::Error> {
    let room: String = r.get(2)?;
    Ok(ChatLine {
        id: r.get(0)?,
        game: r.get(1)?,
        room: Room::from_name(&room).unwrap_or(Room::Spectators),
        seat: r.get(3)?,
        name: r.get(4)?,
        text: r.get(5)?,
        at_ms: r.get(6)?,
        hidden: r.get::<_, i64>(7)? != 0,
        writer: r.get(8)?,
    })
}

fn target_from(r: &rusqlite::Row<'_>) -> Result<PushTarget, rusqlite::Error> {
    Ok(PushTarget {
        id: r.get(0)?,
        endpoint: r.get(1)?,
        p256dh: r.get(2)?,
        auth: r.get(3)?,
        account: r.get(4)?,
        lang: r.get(5)?,
    })
}

#[async_trait::async_trait]
impl TalkBackend for SqliteStore {
    async fn add_chat(&self, line: ChatLine) -> Stored<ChatLine> {
        self.write(move |c| {
            c.execute(
                "INSERT INTO chat (game, room, seat, author, body, at_ms, hidden, author_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    line.game,
                    line.room.name(),
                    line.seat,
                    line.name,
                    line.text,
                    line.at_ms,
                    i64::from(line.hidden),
                    line.writer
                ],
            )?;
            Ok(ChatLine {
                id: c.last_insert_rowid(),
                ..line
            })
        })
        .await
    }

    async fn chat(&self, game: &str, room: Room, limit: usize) -> Stored<Vec<ChatLine>> {
        let game = game.to_string();
        self.read(move |c| {
            let mut lines: Vec<ChatLine> = c
                .prepare(&format!(
                    "SELECT {CHAT_COLUMNS} FROM chat WHERE game = ?1 AND room = ?2
                     ORDER BY id DESC LIMIT ?3"
                ))?
                .query_map(params![game, room.name(), limit as i64], line_from)?
                .collect::<Result<_, _>>()?;
            lines.reverse();
            Ok(lines)
        })
        .await
    }

    async fn chat_line(&self, id: i64) -> Stored<Option<ChatLine>> {
        self.read(move |c| {
            c.query_row(
                &format!("SELECT {CHAT_COLUMNS} FROM chat WHERE id = ?1"),
                params![id],
                line_from,
            )
            .optional()
        })
        .await
    }

    async fn hidden_lines(&self, author: &str) -> Stored<i64> {
        let author = author.to_string();
        self.read(move |c| {
            c.query_row(
                "SELECT COUNT(*) FROM chat WHERE author = ?1 AND hidden <> 0",
                params![author],
                |r| r.get(0),
            )
        })
        .await
    }

    async fn set_presence(
        &self,
        game: &str,
        seat: Seat,
        instance: &str,
        sockets: usize,
        now_ms: i64,
    ) -> Stored<()> {
        let (game, instance) = (game.to_string(), instance.to_string());
        self.write(move |c| {
            c.execute(
                "INSERT INTO presence (game, seat, instance, sockets, changed_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (game, seat, instance) DO UPDATE SET sockets = ?4, changed_ms = ?5",
                params![game, seat, instance, sockets as i64, now_ms],
            )?;
            Ok(())
        })
        .await
    }

    async fn presence(&self, game: &str, seat: Seat) -> Stored<Vec<(String, i64, i64)>> {
        let game = game.to_string();
        self.read(move |c| {
            c.prepare(
                "SELECT instance, sockets, changed_ms FROM presence WHERE game = ?1 AND seat = ?2",
            )?
            .query_map(params![game, seat], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?
            .collect()
        })
        .await
    }

    async fn server_key(&self, name: &str, made: String) -> Stored<String> {
        let name = name.to_string();
        self.write(move |c| {
            c.execute(
                "INSERT INTO server_keys (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING",
                params![name, made],
            )?;
            Ok(c.query_row(
                "SELECT value FROM server_keys WHERE name = ?1",
                params![name],
                |r| r.get(0),
            )?)
        })
        .await
    }

    async fn subscribe(&self, t: PushTarget, seats: Vec<(String, Seat)>) -> Stored<String> {
        self.write(move |c| {
            c.execute(
                "INSERT INTO push_subscriptions (id, endpoint, p256dh, auth, account_id, lang, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (endpoint) DO UPDATE SET p256dh = ?3, auth = ?4,
                    account_id = COALESCE(?5, account_id), lang = ?6",
                params![t.id, t.endpoint, t.p256dh, t.auth, t.account, t.lang, crate::clock::now_ms()],
            )?;
            let id: String = c.query_row(
                "SELECT id FROM push_subscriptions WHERE endpoint = ?1",
                params![t.endpoint],
                |r| r.get(0),
            )?;
            for (game, seat) in seats {
                c.execute(
                    "INSERT INTO push_seats (subscription, game, seat) VALUES (?1, ?2, ?3)
                     ON CONFLICT DO NOTHING",
                    params![id, game, seat],
                )?;
            }
            Ok(id)
        })
        .await
    }

    async fn unsubscribe(&self, endpoint: &str) -> Stored<bool> {
        let endpoint = endpoint.to_string();
        self.write(move |c| {
            let id: Option<String> = c
                .query_row(
                    "SELECT id FROM push_subscriptions WHERE endpoint = ?1",
                    params![endpoint],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(id) = id else { return Ok(false) };
            c.execute(
                "DELETE FROM push_seats WHERE subscription = ?1",
                params![id],
            )?;
            c.execute("DELETE FROM push_subscriptions WHERE id = ?1", params![id])?;
            Ok(true)
        })
        .await
    }

    async fn push_targets(
        &self,
        game: &str,
        seat: Seat,
        account: Option<i64>,
    ) -> Stored<Vec<PushTarget>> {
        let game = game.to_string();
        self.read(move |c| {
            c.prepare(
                "SELECT id, endpoint, p256dh, auth, account_id, lang FROM push_subscriptions s
                 WHERE EXISTS (SELECT 1 FROM push_seats p
                               WHERE p.subscription = s.id AND p.game = ?1 AND p.seat = ?2)
                    OR (?3 IS NOT NULL AND s.account_id = ?3)
                 ORDER BY s.created_ms DESC LIMIT ?4",
            )?
            .query_map(params![game, seat, account, MAX_TARGETS], target_from)?
            .collect()
        })
        .await
    }
}
