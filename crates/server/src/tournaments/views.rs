//! What the tournaments API answers, as types: an event, a list's line,
//! a line of the standings, a bout, the asker's place, a player's results
//! (the JSON's field names are the API's contract, docs/api.md).

use crate::clock::ClockSettings;
use crate::model::{EventKind, EventStatus, Kind};
use serde::Serialize;

/// The event a game belongs to, as its finished game's page offers the
/// way back to it.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct GameTournament {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `arena` or `swiss`.
    pub kind: EventKind,
    /// `upcoming`, `running` or `finished`.
    pub status: EventStatus,
}

/// One line of the standings.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Standing {
    /// Place, from 1.
    pub rank: usize,
    /// Her name.
    pub name: Option<String>,
    /// Her score: arena points, or Swiss points (a win 1, a draw ½).
    pub score: f64,
    /// Games played: finished bouts with an opponent (a bye or a void,
    /// aborted bout is no game, as FIDE counts).
    pub games: usize,
    /// Arena: each bout's points, in order; Swiss: each round's result
    /// (`1`, `½`, `0`, `B` for a bye).
    pub sheet: Vec<String>,
    /// Arena: on fire (her next result counts double).
    pub fire: bool,
    /// Swiss: Buchholz.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buchholz: Option<f64>,
    /// Swiss: Sonneborn–Berger.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sonneborn_berger: Option<f64>,
    /// Her rating when she entered.
    pub rating: i64,
    /// She withdrew (or paused).
    pub withdrawn: bool,
    /// Her game now, if she is playing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playing: Option<String>,
    #[serde(skip)]
    pub(crate) account: i64,
}

/// A bout as the page lists it.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct BoutView {
    /// Its game (a Ringo pair's first).
    pub id: String,
    /// The round (Swiss).
    pub round: i64,
    /// The first seat's player.
    pub first: Option<String>,
    /// The second's (none: a bye).
    pub second: Option<String>,
    /// Over.
    pub over: bool,
    /// The first seat's score (1, ½, 0), once over; void: none.
    pub score: Option<f64>,
    /// Over and void: it counts for nobody (its first game was aborted, or
    /// ended before each side had moved).
    pub void: bool,
    /// The turns its games took, both sides together, once over (none for
    /// a bye, or a bout ended before the server kept them).
    pub turns: Option<i64>,
    /// Each seat went berserk.
    pub berserk: [bool; 2],
}

/// The signed-in player's place in an event.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct You {
    /// She entered.
    pub joined: bool,
    /// She withdrew.
    pub withdrawn: bool,
    /// Her game now, if one is in play.
    pub game: Option<String>,
    /// Her line of the standings (entered: also when the event's socket
    /// leaves it out of the first lines it pushes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standing: Option<Standing>,
}

/// An event as the API answers it.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct TournamentView {
    /// Its id.
    pub id: String,
    /// `arena` or `swiss`.
    pub kind: EventKind,
    /// The game.
    pub game: Kind,
    /// Its name.
    pub name: String,
    /// `upcoming`, `running` or `finished`.
    pub status: EventStatus,
    /// When it starts.
    pub starts_ms: i64,
    /// When an arena ends (a Swiss event once finished).
    pub ends_ms: Option<i64>,
    /// Swiss: the round under way.
    pub round: i64,
    /// Swiss: rounds in all.
    pub rounds: Option<u32>,
    /// Arena: minutes.
    pub minutes: Option<u32>,
    /// Ringo's rules.
    pub rules: Option<String>,
    /// Urgammon's match.
    pub to: Option<u32>,
    /// The clock.
    pub clock: Option<ClockSettings>,
    /// Rated.
    pub rated: bool,
    /// A password is needed.
    pub private: bool,
    /// Entry conditions.
    pub min_rating: Option<f64>,
    /// Entry conditions.
    pub max_rating: Option<f64>,
    /// Entry conditions.
    pub min_rated_games: Option<u32>,
    /// Who made it (none: the schedule).
    pub created_by: Option<String>,
    /// Players entered (not withdrawn).
    pub players: usize,
    /// The standings, best first.
    pub standings: Vec<Standing>,
    /// Lines of the standings left out of `standings` (the event's socket
    /// pushes the first [`PUSHED_LINES`]; `GET` answers them all).
    #[serde(skip_serializing_if = "is_none_left")]
    pub standings_left: usize,
    /// The bouts, newest first.
    pub games: Vec<BoutView>,
    /// The first three once finished.
    pub podium: Vec<String>,
    /// The signed-in player's place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<You>,
    /// The time on the server (for the countdown).
    pub now_ms: i64,
}

/// An event in a list.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Listed {
    /// Its id.
    pub id: String,
    /// `arena` or `swiss`.
    pub kind: EventKind,
    /// The game.
    pub game: Kind,
    /// Its name.
    pub name: String,
    /// `upcoming`, `running` or `finished`.
    pub status: EventStatus,
    /// When it starts.
    pub starts_ms: i64,
    /// When it ends or ended.
    pub ends_ms: Option<i64>,
    /// Rated.
    pub rated: bool,
    /// Private.
    pub private: bool,
    /// The clock.
    pub clock: Option<ClockSettings>,
    /// Swiss: rounds.
    pub rounds: Option<u32>,
    /// Arena: minutes.
    pub minutes: Option<u32>,
}

/// A player's result in an event, for her profile.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Placing {
    /// The event's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// `arena` or `swiss`.
    pub kind: EventKind,
    /// The game.
    pub game: Kind,
    /// `upcoming`, `running` or `finished`.
    pub status: EventStatus,
    /// When it started.
    pub starts_ms: i64,
    /// Her place (so far), from 1.
    pub rank: usize,
    /// Players in its standings.
    pub of: usize,
    /// Her score.
    pub score: f64,
}

fn is_none_left(n: &usize) -> bool {
    *n == 0
}

/// The lines of the standings the event's socket pushes: every page is
/// sent the leaders (each player her own line besides), so a large arena's
/// push stays small whatever its size.
pub const PUSHED_LINES: usize = 50;

/// The bouts the event's socket pushes, newest first.
pub const PUSHED_BOUTS: usize = 30;
