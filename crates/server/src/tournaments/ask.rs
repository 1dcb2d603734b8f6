//! What a player, or the operator's schedule, asks a tournament to be:
//! apart from the service that checks it and the schedule that makes it,
//! so each uses it without the other.

use crate::clock::{now_ms, ClockSettings};
use crate::model::{EventKind, Kind};

/// The longest arena, in minutes (a day).
pub const MAX_MINUTES: u32 = 1_440;

/// The most rounds of a Swiss event.
pub const MAX_ROUNDS: u32 = 15;

/// What a player (or the schedule) asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    /// An arena or a Swiss event.
    pub kind: EventKind,
    /// The game.
    pub game: Kind,
    /// A name (else made from the settings).
    pub name: Option<String>,
    /// Ringo's rules (the most even set when none).
    pub rules: Option<String>,
    /// Urgammon's match target.
    pub to: u32,
    /// The clock.
    pub clock: Option<ClockSettings>,
    /// An arena's minutes.
    pub minutes: Option<u32>,
    /// A Swiss event's rounds.
    pub rounds: Option<u32>,
    /// Rated.
    pub rated: bool,
    /// When it starts, milliseconds since the epoch.
    pub starts_ms: i64,
    /// Entry conditions.
    pub min_rating: Option<f64>,
    /// Entry conditions.
    pub max_rating: Option<f64>,
    /// Entry conditions.
    pub min_rated_games: Option<u32>,
    /// A password (private event).
    pub password: Option<String>,
    /// The schedule entry that makes it.
    pub schedule: Option<String>,
}

impl Ask {
    /// An event of `kind` in `game`, starting now, casual, on no clock
    /// (each field then set as asked).
    pub fn new(kind: EventKind, game: Kind) -> Ask {
        Ask {
            kind,
            game,
            name: None,
            rules: None,
            to: 7,
            clock: None,
            minutes: None,
            rounds: None,
            rated: false,
            starts_ms: now_ms(),
            min_rating: None,
            max_rating: None,
            min_rated_games: None,
            password: None,
            schedule: None,
        }
    }
}
