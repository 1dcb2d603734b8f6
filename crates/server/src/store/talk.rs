//! What the store keeps for players talking to each other: each game's chat
//! (two rooms), which seats have a socket open on which instance (so a
//! player may claim the win when her opponent has gone, whichever instance
//! either is on), the browsers subscribed to Web Push and the seats they
//! hear of, and the server's own keys.

use super::error::Stored;
use crate::model::Seat;
use serde::{Deserialize, Serialize};

/// A game's chat room.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    /// The two players.
    Players,
    /// Everyone watching.
    Spectators,
}

impl Room {
    /// The word stored and sent.
    pub const fn name(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }

    /// The room of a stored word.
    pub fn from_name(name: &str) -> Option<Room> {
        [Room::Players, Room::Spectators]
            .into_iter()
            .find(|r| r.name() == name)
    }
}

/// One line of chat as stored and sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChatLine {
    /// Its id: lines of a game are in id order.
    pub id: i64,
    /// The game.
    #[serde(skip)]
    pub game: String,
    /// Its room.
    pub room: Room,
    /// The writer's seat (players' lines), none for a spectator.
    pub seat: Option<Seat>,
    /// The writer's account name, when signed in.
    pub name: Option<String>,
    /// The text: plain text, at most 140 characters, no control characters.
    pub text: String,
    /// When it was written, in milliseconds since the epoch.
    pub at_ms: i64,
    /// Hidden from everyone but its writer (a listed word): never sent to
    /// another page.
    #[serde(skip)]
    pub hidden: bool,
    /// The writer's account, when signed in (none for lines stored before
    /// it was kept: those are matched by `name`). Never sent: a block is
    /// decided by it ([`crate::games::chat::may_read`]).
    #[serde(skip)]
    pub writer: Option<i64>,
}

/// A browser subscribed to Web Push (the Push API's subscription).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushTarget {
    /// Its id.
    pub id: String,
    /// The push service's address for this browser.
    pub endpoint: String,
    /// The browser's public key (P-256, uncompressed, base64url).
    pub p256dh: String,
    /// The browser's authentication secret (16 bytes, base64url).
    pub auth: String,
    /// The account it was made signed in to: it hears of all its games.
    pub account: Option<i64>,
    /// The language its notifications are written in.
    pub lang: String,
}

/// The most subscriptions one event is pushed to (the newest): however
/// many a client registers for a seat, a move costs at most this many
/// requests.
pub const MAX_TARGETS: i64 = 10;

/// What every store keeps for talking.
#[async_trait::async_trait]
pub trait TalkBackend: Send + Sync {
    /// Stores a line (its `id` is given by the store) and tells the other
    /// instances; returns it with its id.
    async fn add_chat(&self, line: ChatLine) -> Stored<ChatLine>;

    /// A game's lines in a room, oldest first, the last `limit`.
    async fn chat(&self, game: &str, room: Room, limit: usize) -> Stored<Vec<ChatLine>>;

    /// One line by id.
    async fn chat_line(&self, id: i64) -> Stored<Option<ChatLine>>;

    /// How many hidden lines an author (by name) wrote.
    async fn hidden_lines(&self, author: &str) -> Stored<i64>;

    /// Notes how many sockets `instance` has open for a seat, at `now_ms`.
    async fn set_presence(
        &self,
        game: &str,
        seat: Seat,
        instance: &str,
        sockets: usize,
        now_ms: i64,
    ) -> Stored<()>;

    /// Every instance's sockets for a seat: (instance, sockets, when that
    /// last changed).
    async fn presence(&self, game: &str, seat: Seat) -> Stored<Vec<(String, i64, i64)>>;

    /// The server key `name`: the stored one, or `made` stored now (the
    /// first instance to store one wins, so every instance signs alike).
    async fn server_key(&self, name: &str, made: String) -> Stored<String>;

    /// Stores a subscription (a known endpoint is updated, keeping its id)
    /// and adds the seats it hears of; returns its id.
    async fn subscribe(&self, target: PushTarget, seats: Vec<(String, Seat)>) -> Stored<String>;

    /// Forgets a subscription by its endpoint; true when it was known.
    async fn unsubscribe(&self, endpoint: &str) -> Stored<bool>;

    /// The subscriptions that hear of a seat: those given the seat, and
    /// those of its account; the newest [`MAX_TARGETS`].
    async fn push_targets(
        &self,
        game: &str,
        seat: Seat,
        account: Option<i64>,
    ) -> Stored<Vec<PushTarget>>;
}
