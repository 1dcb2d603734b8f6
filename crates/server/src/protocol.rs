//! The sockets' protocol: every message in and out of a game's socket
//! (`crate::ws`) and the lobby's (`crate::lobby::socket`), as types. A
//! socket reads a message into its `…In` type and writes only `…Out`
//! values; nothing is spliced into JSON by hand. (Seeks and pools travel
//! as [`RawValue`]s: JSON made once, when the seek was made, by whichever
//! instance made it, and carried as it is.)

use crate::model::Seat;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::sync::Arc;

/// A message a client may send on a game's socket.
#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum GameIn {
    /// Who the socket is: its seat token (never in the URL).
    Hello {
        /// The seat token.
        token: String,
    },
    /// Are you there?
    Ping,
}

/// A message the server sends on a game's socket.
#[derive(Serialize, Debug, Clone)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum GameOut {
    /// The game's state (after every change, and when the socket opens).
    State {
        /// The same object as `GET /api/games/{id}`'s `state`.
        state: Box<crate::session::SessionView>,
    },
    /// Which seats have a player connected, and how long each absent
    /// player has been gone where that could win her opponent the game by
    /// a claim (null: connected, or no claim possible in this game now).
    Presence {
        /// Seat 0 and seat 1.
        seats: [bool; 2],
        /// Milliseconds each seat's player has been gone, as a claim
        /// measures it.
        away_ms: [Option<i64>; 2],
    },
    /// The answer to `hello`: the seats the token holds (none for a spectator).
    Hello {
        /// The seats.
        you: Vec<Seat>,
    },
    /// A review's progress: `done` of `total` steps; `ready` once it is
    /// stored (then `GET /api/games/{id}/review` returns it).
    Review {
        /// Steps done.
        done: usize,
        /// Steps in all.
        total: usize,
        /// The review is stored.
        ready: bool,
    },
    /// This socket's seat moved to another device (its seat link was
    /// used): the token it said `hello` with holds only `you` now (none: it
    /// watches). Sent at once, so the old device stops looking live.
    Moved {
        /// The seats the token still holds.
        you: Vec<Seat>,
    },
    /// A line of chat (`room` first, so a socket can tell a players'
    /// line without parsing it: spectators' sockets never get those).
    Chat {
        /// The room.
        room: crate::store::Room,
        /// The line.
        line: crate::store::ChatLine,
    },
    /// The answer to `ping`.
    Pong,
    /// A message the socket does not take.
    Error {
        /// Why.
        error: String,
    },
}

impl GameOut {
    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{\"type\":\"error\"}".into())
    }
}

impl GameOut {
    /// The message as a game's channel carries it to the game's sockets:
    /// its JSON once, and for a chat line the line itself, so each socket
    /// asks whether its reader may read it.
    pub fn broadcast(&self) -> Broadcast {
        Broadcast {
            json: Arc::from(self.to_json()),
            line: match self {
                GameOut::Chat { line, .. } => Some(Arc::new(line.clone())),
                _ => None,
            },
        }
    }
}

/// A message on its way to every socket of a game.
#[derive(Clone, Debug)]
pub struct Broadcast {
    /// The message's JSON.
    pub json: Arc<str>,
    /// A chat line: sent only to the sockets whose reader may read it
    /// (`games::chat::may_read`).
    pub line: Option<Arc<crate::store::ChatLine>>,
}

/// A message a client may send on the lobby's socket.
#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum LobbyIn {
    /// Keep my seek open while this socket is: `token` is the seek's seat
    /// token, its proof of ownership.
    Hold {
        /// The seek's id.
        seek: String,
        /// The creator's seat token.
        token: String,
    },
    /// Are you there?
    Ping,
}

/// A message the lobby's socket sends.
#[derive(Serialize, Debug)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum LobbyOut<'a> {
    /// The whole lobby: the first message, and to a socket that fell
    /// further behind than the batches kept.
    Seeks {
        /// The open seeks, oldest first (each `GET /api/seeks`'s item).
        seeks: Vec<&'a RawValue>,
        /// The pools and their counts (`GET /api/pools`).
        pools: &'a RawValue,
    },
    /// One batch of changes.
    Lobby {
        /// Seeks made.
        added: Vec<&'a RawValue>,
        /// Seeks gone; a taken one names its game.
        gone: Vec<Gone<'a>>,
        /// The pools, when their counts changed.
        #[serde(skip_serializing_if = "Option::is_none")]
        pools: Option<&'a RawValue>,
    },
    /// The answer to `hold`.
    Held {
        /// The seek.
        seek: &'a str,
        /// Whether this socket holds it now.
        ok: bool,
    },
    /// The answer to `ping`.
    Pong,
    /// A message the socket does not take.
    Error {
        /// Why.
        error: &'a str,
    },
}

impl LobbyOut<'_> {
    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{\"type\":\"error\"}".into())
    }
}

/// A seek gone, in a lobby batch.
#[derive(Serialize, Debug)]
pub struct Gone<'a> {
    /// The seek's id.
    pub id: &'a str,
    /// The game it became, when taken (its creator goes there).
    pub game: Option<&'a str>,
}

/// What the site's socket (`GET /api/site/ws`, opened by every page)
/// sends: it keeps its player counted online, and says when her
/// challenges change, so the page asks `GET /api/challenges` again.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SiteOut {
    /// The first message: whether the socket's player is signed in (only
    /// a signed-in player hears of challenges).
    Hello {
        /// Signed in.
        signed_in: bool,
    },
    /// The player's challenges (sent or received) changed.
    Challenges,
    /// The answer to a ping.
    Pong,
    /// A message the socket does not take.
    Error {
        /// Why.
        error: &'static str,
    },
}

impl SiteOut {
    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
