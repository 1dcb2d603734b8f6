//! What the store keeps for live play: which instances are alive (each
//! notes it every second), which games have a running clock and who keeps
//! it, and the lobby's seeks. A seek is taken by one conditional write, so
//! however many clients (on however many instances) accept it at once, one
//! wins.

use super::accounts::SeatAccount;
use super::error::Stored;
use crate::clock::ClockSettings;
use crate::model::Kind;
use crate::model::Seat;

/// A seek as stored: a player waiting in the lobby (or in a quick-pairing
/// pool) for an opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    /// Its id (public).
    pub id: String,
    /// When it was made, in milliseconds since the epoch.
    pub created_ms: i64,
    /// When it lapses unless its creator's lobby socket keeps it.
    pub expires_ms: i64,
    /// Which game.
    pub kind: Kind,
    /// The rules string or match header.
    pub settings: String,
    /// The clock, if live.
    pub clock: Option<ClockSettings>,
    /// Rated (between two accounts).
    pub rated: bool,
    /// The creator's seat in the game.
    pub seat: Seat,
    /// The creator's account, when signed in.
    pub account: Option<SeatAccount>,
    /// The creator's rating in this game, when signed in.
    pub rating: Option<f64>,
    /// The lowest rating of an opponent she accepts.
    pub rating_min: Option<f64>,
    /// The highest.
    pub rating_max: Option<f64>,
    /// The quick-pairing pool it waits in (not shown in the lobby).
    pub pool: Option<String>,
    /// The SHA-256 of the creator's seat token for the game to come (and
    /// her proof that the seek is hers).
    pub token_hash: String,
    /// The game it became, once taken.
    pub game: Option<String>,
}

/// A change of the lobby, as the instances tell each other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyNotice {
    /// A seek was made.
    Added {
        /// The seek's id.
        id: String,
        /// Its public view, as JSON.
        view: String,
    },
    /// A seek went: cancelled, lapsed, or taken (then `game` is the game it
    /// became).
    Gone {
        /// The seek's id.
        id: String,
        /// The game, when taken.
        game: Option<String>,
    },
}

impl LobbyNotice {
    /// The notice as a `NOTIFY` payload.
    pub fn payload(&self) -> String {
        match self {
            LobbyNotice::Added { view, .. } => format!("seek {view}"),
            LobbyNotice::Gone { id, game: Some(g) } => format!("gone {id} {g}"),
            LobbyNotice::Gone { id, game: None } => format!("gone {id}"),
        }
    }

    /// A notice from its payload.
    pub fn parse(payload: &str) -> Option<LobbyNotice> {
        if let Some(view) = payload.strip_prefix("seek ") {
            // The id is read once, here, where the notice comes in.
            #[derive(serde::Deserialize)]
            struct Id {
                id: String,
            }
            let Id { id } = serde_json::from_str(view).ok()?;
            return Some(LobbyNotice::Added {
                id,
                view: view.to_string(),
            });
        }
        let mut words = payload.strip_prefix("gone ")?.split(' ');
        let id = words.next()?.to_string();
        Some(LobbyNotice::Gone {
            id,
            game: words.next().map(str::to_string),
        })
    }
}

/// What every store keeps for live play.
#[async_trait::async_trait]
pub trait LiveBackend: Send + Sync {
    /// Notes that `instance` is alive at `now_ms`.
    async fn heartbeat(&self, instance: &str, now_ms: i64) -> Stored<()>;

    /// Every instance's last sign of life (milliseconds since the epoch).
    async fn instances(&self) -> Stored<Vec<(String, i64)>>;

    /// The games in play with a clock, and the instance keeping each.
    async fn clocked_games(&self) -> Stored<Vec<(String, Option<String>)>>;

    /// Stores a new seek and tells the other instances (`view`: its public
    /// JSON).
    async fn add_seek(&self, seek: SeekRow, view: String) -> Stored<()>;

    /// The open seeks (not taken, not lapsed at `now_ms`), oldest first.
    async fn open_seeks(&self, now_ms: i64) -> Stored<Vec<SeekRow>>;

    /// One seek, open or taken.
    async fn seek(&self, id: &str) -> Stored<Option<SeekRow>>;

    /// Takes an open seek for `game`: true for the one caller that did.
    async fn take_seek(&self, id: &str, game: &str, now_ms: i64) -> Stored<bool>;

    /// Gives back a seek taken for a game that could not be opened.
    async fn untake_seek(&self, id: &str, game: &str) -> Stored<()>;

    /// Tells every instance that a taken seek became `game` (after the game
    /// is stored, so a creator sent there finds it).
    async fn announce_taken(&self, id: &str, game: &str) -> Stored<()>;

    /// Removes an open seek; true when it was open.
    async fn drop_seek(&self, id: &str) -> Stored<bool>;

    /// Keeps these seeks open until `until_ms` (their creators are still in
    /// the lobby).
    async fn renew_seeks(&self, ids: Vec<String>, until_ms: i64) -> Stored<()>;

    /// Removes the seeks that lapsed by `now_ms` (and taken ones an hour
    /// old); answers the lapsed open ones' ids.
    async fn expire_seeks(&self, now_ms: i64) -> Stored<Vec<String>>;
}

#[cfg(test)]
mod tests {
    use super::LobbyNotice;

    #[test]
    fn lobby_notices_round_trip() {
        for n in [
            LobbyNotice::Added {
                id: "x".into(),
                view: "{\"id\":\"x\"}".into(),
            },
            LobbyNotice::Gone {
                id: "abc".into(),
                game: Some("g1".into()),
            },
            LobbyNotice::Gone {
                id: "abc".into(),
                game: None,
            },
        ] {
            assert_eq!(LobbyNotice::parse(&n.payload()), Some(n));
        }
        assert_eq!(LobbyNotice::parse("nonsense"), None);
    }
}
