//! What a player, or the operator's schedule, asks a tournament to be:
//! apart from the service that checks it and the schedule that makes it,
//! so each uses it without the other.

use crate::clock::{now_ms, ClockSettings};
use crate::model::{EventKind, Kind};
use crate::text::TextError;
use serde::{Deserialize, Serialize};

/// The longest arena, in minutes (a day).
pub const MAX_MINUTES: u32 = 1_440;

/// The most rounds of a Swiss event.
pub const MAX_ROUNDS: u32 = 15;

/// The furthest ahead an event may start, in milliseconds (30 days).
pub const MAX_AHEAD_MS: i64 = 30 * 86_400_000;

/// How far in the past a start may be asked for: the request's own time
/// in flight, no more (a start in the past is refused).
pub const START_GRACE_MS: i64 = 1_000;

/// A request the event does not allow, in the asker's terms: all answered
/// 400 `bad-tournament` (the API's code for them since the first release),
/// each in its own words.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// An arena without its length.
    #[error("an arena needs its length: minutes")]
    NoMinutes,
    /// An arena's length out of range.
    #[error("an arena lasts 1 to {MAX_MINUTES} minutes, not {0}")]
    Minutes(u32),
    /// Rounds asked of an arena.
    #[error("an arena has minutes, not rounds")]
    RoundsInArena,
    /// A Swiss event without its rounds.
    #[error("a Swiss event needs its number of rounds")]
    NoRounds,
    /// A Swiss event's rounds out of range.
    #[error("a Swiss event has 1 to {MAX_ROUNDS} rounds, not {0}")]
    Rounds(u32),
    /// Minutes asked of a Swiss event.
    #[error("a Swiss event has rounds, not minutes")]
    MinutesInSwiss,
    /// An arena on a correspondence clock, or none.
    #[error("an arena is played on a live clock")]
    NotLive,
    /// A start in the past or too far ahead.
    #[error("a tournament starts within the next 30 days")]
    Start,
    /// An entry rating out of range.
    #[error("{0} is not a rating (0 to 4000)")]
    Rating(f64),
    /// The entry ratings the wrong way round.
    #[error("the lowest rating is above the highest")]
    RatingsCrossed,
    /// Too many rated games asked of entrants.
    #[error("at most 1000 rated games may be asked for")]
    RatedGames,
    /// The name refused by the public text policy.
    #[error(transparent)]
    Name(#[from] TextError),
    /// A password too short or too long.
    #[error("a password has 1 to 100 characters")]
    Password,
    /// Berserk outside an arena under way.
    #[error("berserk is for an arena under way")]
    BerserkNotNow,
    /// Berserk with no game of hers in the event in play.
    #[error("you have no game in play here")]
    NoGameInPlay,
}

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

impl Ask {
    /// Whether the event asked for may be made at `now`: its length (an
    /// arena's minutes on a live clock, a Swiss event's rounds), its start,
    /// its entry conditions and its password, each refusal in its words.
    /// The game's settings are the lobby's to check. Answers the event's
    /// name as it will stand ([`Ask::name_or_default`]).
    ///
    /// # Errors
    /// The first [`Refusal`] found.
    pub fn check(&self, now: i64) -> Result<String, Refusal> {
        match self.kind {
            EventKind::Arena => {
                let m = self.minutes.ok_or(Refusal::NoMinutes)?;
                if !(1..=MAX_MINUTES).contains(&m) {
                    return Err(Refusal::Minutes(m));
                }
                if self.rounds.is_some() {
                    return Err(Refusal::RoundsInArena);
                }
                if self.clock.is_none_or(|c| c.days > 0) {
                    return Err(Refusal::NotLive);
                }
            }
            EventKind::Swiss => {
                let r = self.rounds.ok_or(Refusal::NoRounds)?;
                if !(1..=MAX_ROUNDS).contains(&r) {
                    return Err(Refusal::Rounds(r));
                }
                if self.minutes.is_some() {
                    return Err(Refusal::MinutesInSwiss);
                }
            }
        }
        // A second's grace for the request in flight: "now" sent by a
        // client is a little in the past when it lands.
        if self.starts_ms < now - START_GRACE_MS || self.starts_ms > now + MAX_AHEAD_MS {
            return Err(Refusal::Start);
        }
        for r in [self.min_rating, self.max_rating].into_iter().flatten() {
            if !(0.0..=4000.0).contains(&r) {
                return Err(Refusal::Rating(r));
            }
        }
        if let (Some(lo), Some(hi)) = (self.min_rating, self.max_rating) {
            if lo > hi {
                return Err(Refusal::RatingsCrossed);
            }
        }
        if self.min_rated_games.is_some_and(|n| n > 1000) {
            return Err(Refusal::RatedGames);
        }
        // The name is checked before the password, as it always was.
        let name = self.name_or_default()?;
        if let Some(p) = &self.password {
            if p.is_empty() || p.chars().count() > 100 {
                return Err(Refusal::Password);
            }
        }
        Ok(name)
    }

    /// The event's name: the one asked, as the public text policy lets it
    /// stand, or one made from the settings ("Ringo arena", "Urgammon
    /// Swiss") when none or only spaces was asked.
    ///
    /// # Errors
    /// [`Refusal::Name`]: the text policy refused it.
    pub fn name_or_default(&self) -> Result<String, Refusal> {
        match self.name.as_deref() {
            Some(n) if !n.trim().is_empty() => {
                crate::text::TOURNAMENT_NAME.check(n).map_err(Refusal::Name)
            }
            _ => {
                let g = crate::kinds::of(self.game).title();
                Ok(match self.kind {
                    EventKind::Arena => format!("{g} arena"),
                    EventKind::Swiss => format!("{g} Swiss"),
                })
            }
        }
    }
}

/// What an event is played with, as stored (JSON in its row).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    /// The game's settings header (Ringo's rules, Urgammon's match).
    pub settings: String,
    /// Ringo's rules as asked (a preset and changes), for the page.
    #[serde(default)]
    pub rules: Option<String>,
    /// Urgammon's match target.
    #[serde(default)]
    pub to: Option<u32>,
    /// The clock (live or correspondence).
    pub clock: Option<ClockSettings>,
    /// An arena's length, in minutes.
    #[serde(default)]
    pub minutes: Option<u32>,
    /// A Swiss event's rounds.
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Rated.
    pub rated: bool,
    /// The lowest rating that may enter.
    #[serde(default)]
    pub min_rating: Option<f64>,
    /// The highest.
    #[serde(default)]
    pub max_rating: Option<f64>,
    /// The fewest rated games (in this game) to enter.
    #[serde(default)]
    pub min_rated_games: Option<u32>,
    /// A private event's password, hashed.
    #[serde(default)]
    pub password_hash: Option<String>,
}
