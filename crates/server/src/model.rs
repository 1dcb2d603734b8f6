//! The three words every stored game carries, as types: which game
//! ([`Kind`]), who plays the other seat ([`Mode`]), and how it stands
//! ([`Status`]); and the two a tournament carries ([`EventKind`],
//! [`EventStatus`]). The store reads and writes them as text; everything
//! else compares them as enums.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The two games.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Ringo.
    Ringo,
    /// Urgammon.
    Urgammon,
}

impl Kind {
    /// Every game, in the order lists show them. A new game fails to
    /// compile in [`Kind::index`] until it is added here too.
    pub const ALL: [Kind; 2] = [Kind::Ringo, Kind::Urgammon];

    /// The game's place in [`Kind::ALL`].
    pub const fn index(self) -> usize {
        match self {
            Kind::Ringo => 0,
            Kind::Urgammon => 1,
        }
    }

    /// The game's name as people write it (a notification's title).
    pub const fn title(self) -> &'static str {
        match self {
            Kind::Ringo => "Ringo",
            Kind::Urgammon => "Urgammon",
        }
    }

    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Ringo => "ringo",
            Kind::Urgammon => "urgammon",
        }
    }

    /// The seat names: attackers/defenders, light/dark.
    pub const fn seat_names(self) -> [&'static str; 2] {
        match self {
            Kind::Ringo => ["attackers", "defenders"],
            Kind::Urgammon => ["light", "dark"],
        }
    }

    /// The seat a side name stands for.
    pub fn seat_of(self, name: &str) -> Option<Seat> {
        self.seat_names()
            .iter()
            .position(|n| *n == name)
            .and_then(Seat::from_index)
    }

    /// The name of a seat's side in this game.
    pub const fn seat_name(self, seat: Seat) -> &'static str {
        self.seat_names()[seat.index()]
    }
}

/// One of a game's two seats: the first plays the side each game lists
/// first (Ringo's attackers, Urgammon's light), the second the other. The
/// games service speaks of seats, never of `0` and `1`; the rules crates'
/// own sides meet it in `session/ringo.rs` and `session/urgammon.rs`. In
/// JSON, in the store and in the API a seat is still the number 0 or 1 (the
/// contract), read and written here only.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Seat {
    /// Seat 0.
    First,
    /// Seat 1.
    Second,
}

impl Seat {
    /// Both seats, the first first.
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// 0 or 1: the seat's place in a pair of values.
    pub const fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }

    /// The seat numbered `i` (0 or 1).
    pub const fn from_index(i: usize) -> Option<Seat> {
        match i {
            0 => Some(Seat::First),
            1 => Some(Seat::Second),
            _ => None,
        }
    }

    /// The seat as the store and the API number it.
    pub const fn number(self) -> u8 {
        self.index() as u8
    }

    /// The seat a stored number names (`None`: not 0 or 1).
    pub fn from_number(n: impl TryInto<usize>) -> Option<Seat> {
        n.try_into().ok().and_then(Seat::from_index)
    }

    /// The other seat.
    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// This seat's bit in a two-bit set (the `moved` column).
    pub const fn bit(self) -> u8 {
        1 << self.index()
    }
}

/// The seats an invite or a seat link hands over: one seat, or both (a
/// same-screen game's link). Stored as 0, 1 or 2.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum InviteSeats {
    /// One seat.
    One(Seat),
    /// Both seats.
    Both,
}

impl InviteSeats {
    /// The number the store keeps: the seat's, or 2 for both.
    pub const fn number(self) -> u8 {
        match self {
            InviteSeats::One(seat) => seat.number(),
            InviteSeats::Both => 2,
        }
    }

    /// The seats a stored number names (`None`: not 0, 1 or 2).
    pub fn from_number(n: impl TryInto<usize>) -> Option<InviteSeats> {
        match n.try_into().ok()? {
            2 => Some(InviteSeats::Both),
            i => Seat::from_index(i).map(InviteSeats::One),
        }
    }

    /// The seats, the first first.
    pub fn seats(self) -> Vec<Seat> {
        match self {
            InviteSeats::One(seat) => vec![seat],
            InviteSeats::Both => Seat::BOTH.to_vec(),
        }
    }
}

impl From<InviteSeats> for i16 {
    fn from(seats: InviteSeats) -> i16 {
        i16::from(seats.number())
    }
}

/// A Ringo side's seat: the attackers sit first.
impl From<ringo::Side> for Seat {
    fn from(side: ringo::Side) -> Seat {
        match side {
            ringo::Side::Attackers => Seat::First,
            ringo::Side::Defenders => Seat::Second,
        }
    }
}

/// An Urgammon side's seat: light sits first.
impl From<urgammon::Side> for Seat {
    fn from(side: urgammon::Side) -> Seat {
        match side {
            urgammon::Side::Light => Seat::First,
            urgammon::Side::Dark => Seat::Second,
        }
    }
}

impl From<Seat> for i16 {
    fn from(seat: Seat) -> i16 {
        i16::from(seat.number())
    }
}

impl From<Seat> for i64 {
    fn from(seat: Seat) -> i64 {
        i64::from(seat.number())
    }
}

impl Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.number())
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let n = u8::deserialize(d)?;
        Seat::from_number(n).ok_or_else(|| serde::de::Error::custom("a seat is 0 or 1"))
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A word the model does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// Not a game of this server.
    #[error("unknown game '{0}'; the games are ringo and urgammon")]
    UnknownGame(String),
    /// Not an opponent.
    #[error("unknown opponent '{0}'; use engine, friend or local")]
    UnknownOpponent(String),
    /// Not a status (only a damaged row has one).
    #[error("unknown status '{0}'")]
    UnknownStatus(String),
    /// Not a kind of tournament.
    #[error("unknown kind '{0}': arena or swiss")]
    UnknownEventKind(String),
}

impl FromStr for Kind {
    type Err = ModelError;
    fn from_str(s: &str) -> Result<Kind, ModelError> {
        match s {
            "ringo" => Ok(Kind::Ringo),
            "urgammon" => Ok(Kind::Urgammon),
            other => Err(ModelError::UnknownGame(other.to_string())),
        }
    }
}

/// Who plays the other seat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The computer.
    Engine,
    /// A friend, who joins with an invite code.
    Friend,
    /// Both seats on one screen.
    Local,
}

impl Mode {
    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::Friend => "friend",
            Mode::Local => "local",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = ModelError;
    fn from_str(s: &str) -> Result<Mode, ModelError> {
        match s {
            "engine" => Ok(Mode::Engine),
            "friend" => Ok(Mode::Friend),
            "local" => Ok(Mode::Local),
            other => Err(ModelError::UnknownOpponent(other.to_string())),
        }
    }
}

/// How a game stands, as the games list shows it. The words are part of the
/// API (`ongoing`, `draw`, `attackers-win`, `defenders-win`, `light-wins`,
/// `dark-wins`): the Ringo ones are as the first release wrote them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Status {
    /// Still being played.
    #[serde(rename = "ongoing")]
    Ongoing,
    /// Ended without a winner.
    #[serde(rename = "draw")]
    Draw,
    /// Ringo: the attackers won.
    #[serde(rename = "attackers-win")]
    AttackersWin,
    /// Ringo: the defenders won.
    #[serde(rename = "defenders-win")]
    DefendersWin,
    /// Urgammon: light won the match.
    #[serde(rename = "light-wins")]
    LightWins,
    /// Urgammon: dark won the match.
    #[serde(rename = "dark-wins")]
    DarkWins,
    /// Ended before both sides had moved: by a player's abort, or by the
    /// server when a live game's first move did not come in time. Never
    /// rated, no winner.
    #[serde(rename = "aborted")]
    Aborted,
}

impl Status {
    /// Every status.
    pub const ALL: [Status; 7] = [
        Status::Ongoing,
        Status::Draw,
        Status::AttackersWin,
        Status::DefendersWin,
        Status::LightWins,
        Status::DarkWins,
        Status::Aborted,
    ];

    /// A win for `seat` in a game of `kind`.
    pub const fn won(kind: Kind, seat: Seat) -> Status {
        match (kind, seat) {
            (Kind::Ringo, Seat::First) => Status::AttackersWin,
            (Kind::Ringo, Seat::Second) => Status::DefendersWin,
            (Kind::Urgammon, Seat::First) => Status::LightWins,
            (Kind::Urgammon, Seat::Second) => Status::DarkWins,
        }
    }

    /// The word.
    pub const fn name(self) -> &'static str {
        match self {
            Status::Ongoing => "ongoing",
            Status::Draw => "draw",
            Status::AttackersWin => "attackers-win",
            Status::DefendersWin => "defenders-win",
            Status::LightWins => "light-wins",
            Status::DarkWins => "dark-wins",
            Status::Aborted => "aborted",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Status {
    type Err = ModelError;
    fn from_str(s: &str) -> Result<Status, ModelError> {
        Status::ALL
            .into_iter()
            .find(|st| st.name() == s)
            .ok_or_else(|| ModelError::UnknownStatus(s.to_string()))
    }
}

/// What a game's status means for one seat: the one reading of a result
/// that the API's lists, the profile's tallies and the pages share. An
/// aborted game is neither a win nor a loss (nor a draw): it had no result.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Still being played.
    Ongoing,
    /// This seat won.
    Won,
    /// This seat lost (a resignation, a flag, a claim, or the rules).
    Lost,
    /// Nobody won.
    Drawn,
    /// Ended before both sides had moved: no result.
    Aborted,
}

impl Status {
    /// What this status of a game of `kind` means for `seat`.
    pub fn outcome_for(self, kind: Kind, seat: Seat) -> Outcome {
        match self {
            Status::Ongoing => Outcome::Ongoing,
            Status::Draw => Outcome::Drawn,
            Status::Aborted => Outcome::Aborted,
            won if won == Status::won(kind, seat) => Outcome::Won,
            Status::AttackersWin | Status::DefendersWin | Status::LightWins | Status::DarkWins => {
                Outcome::Lost
            }
        }
    }
}

/// What one player may offer the other in a game between people.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferKind {
    /// Take back the offerer's last decision (and the reply to it).
    Takeback,
    /// A new game with the same settings and the seats swapped.
    Rematch,
}

/// An offer waiting for the other player's answer. It lapses when the
/// position moves on: any change of the game but an offer clears it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Offer {
    /// What is offered.
    pub kind: OfferKind,
    /// The seat that offered.
    pub seat: Seat,
}

impl Offer {
    /// The offer as its column holds it (JSON).
    pub fn text(self) -> String {
        serde_json::to_string(&self).unwrap_or_default()
    }

    /// An offer from its column; a damaged one is no offer.
    pub fn parse(text: Option<&str>) -> Option<Offer> {
        text.and_then(|t| serde_json::from_str(t).ok())
    }
}

/// The two kinds of tournament. The words are part of the API and of the
/// store (`arena`, `swiss`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EventKind {
    /// Players are paired again as soon as their game ends, until the time
    /// is up; points for wins, doubled on a streak.
    Arena,
    /// A fixed number of rounds, everyone paired each round by score (the
    /// Dutch system).
    Swiss,
}

impl EventKind {
    /// Both kinds.
    pub const ALL: [EventKind; 2] = [EventKind::Arena, EventKind::Swiss];

    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            EventKind::Arena => "arena",
            EventKind::Swiss => "swiss",
        }
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EventKind {
    type Err = ModelError;
    fn from_str(s: &str) -> Result<EventKind, ModelError> {
        EventKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| ModelError::UnknownEventKind(s.chars().take(20).collect()))
    }
}

/// Where a tournament stands. The words are part of the API and of the
/// store (`upcoming`, `running`, `finished`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EventStatus {
    /// Not begun: players may enter.
    Upcoming,
    /// Under way.
    Running,
    /// Over: its standings are final.
    Finished,
}

impl EventStatus {
    /// Every status, in the order an event passes through them.
    pub const ALL: [EventStatus; 3] = [
        EventStatus::Upcoming,
        EventStatus::Running,
        EventStatus::Finished,
    ];

    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            EventStatus::Upcoming => "upcoming",
            EventStatus::Running => "running",
            EventStatus::Finished => "finished",
        }
    }
}

impl fmt::Display for EventStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EventStatus {
    type Err = ModelError;
    fn from_str(s: &str) -> Result<EventStatus, ModelError> {
        EventStatus::ALL
            .into_iter()
            .find(|st| st.name() == s)
            .ok_or_else(|| ModelError::UnknownStatus(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_round_trip_through_text_and_json() {
        for st in Status::ALL {
            assert_eq!(st.to_string().parse::<Status>(), Ok(st));
            assert_eq!(serde_json::to_value(st).unwrap(), st.name());
        }
        for (i, k) in Kind::ALL.into_iter().enumerate() {
            assert_eq!(k.index(), i);
            assert_eq!(k.to_string().parse::<Kind>(), Ok(k));
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        }
        for m in [Mode::Engine, Mode::Friend, Mode::Local] {
            assert_eq!(m.to_string().parse::<Mode>(), Ok(m));
        }
        for k in EventKind::ALL {
            assert_eq!(k.to_string().parse::<EventKind>(), Ok(k));
            assert_eq!(serde_json::to_value(k).unwrap(), k.name());
        }
        for st in EventStatus::ALL {
            assert_eq!(st.to_string().parse::<EventStatus>(), Ok(st));
            assert_eq!(serde_json::to_value(st).unwrap(), st.name());
        }
        assert!("Arena".parse::<EventKind>().is_err());
        assert!("ongoing".parse::<EventStatus>().is_err());
        assert!("won".parse::<Status>().is_err());
        // An aborted game is nobody's win or loss.
        for seat in Seat::BOTH {
            assert_eq!(
                Status::Aborted.outcome_for(Kind::Ringo, seat),
                Outcome::Aborted
            );
        }
        assert_eq!(
            Status::DefendersWin.outcome_for(Kind::Ringo, Seat::Second),
            Outcome::Won
        );
        assert_eq!(
            Status::DefendersWin.outcome_for(Kind::Ringo, Seat::First),
            Outcome::Lost
        );
        assert_eq!(
            Status::Draw.outcome_for(Kind::Urgammon, Seat::First),
            Outcome::Drawn
        );
        assert_eq!(Status::won(Kind::Urgammon, Seat::Second), Status::DarkWins);
    }

    /// A seat is 0 or 1 in JSON (the API's contract) and nothing else.
    #[test]
    fn a_seat_is_the_number_0_or_1_in_json() {
        assert_eq!(serde_json::to_string(&Seat::BOTH).unwrap(), "[0,1]");
        assert_eq!(serde_json::from_str::<Seat>("1").unwrap(), Seat::Second);
        for bad in ["2", "-1", "\"0\"", "null", "0.5"] {
            assert!(serde_json::from_str::<Seat>(bad).is_err(), "{bad}");
        }
        assert_eq!(Seat::First.other(), Seat::Second);
        assert_eq!(InviteSeats::from_number(2), Some(InviteSeats::Both));
        assert_eq!(InviteSeats::Both.seats(), Seat::BOTH.to_vec());
        assert_eq!(InviteSeats::from_number(3), None);
        assert_eq!(Seat::from(ringo::Side::Defenders), Seat::Second);
        assert_eq!(Seat::from(urgammon::Side::Light), Seat::First);
    }
}
