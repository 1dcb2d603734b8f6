//! The three words every stored game carries, as types: which game
//! ([`Kind`]), who plays the other seat ([`Mode`]), and how it stands
//! ([`Status`]). The store reads and writes them as text; everything else
//! compares them as enums.

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
    pub fn seat_of(self, name: &str) -> Option<u8> {
        self.seat_names()
            .iter()
            .position(|n| *n == name)
            .map(|i| i as u8)
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

    /// A win for `seat` (0 or 1) in a game of `kind`.
    pub const fn won(kind: Kind, seat: u8) -> Status {
        match (kind, seat) {
            (Kind::Ringo, 0) => Status::AttackersWin,
            (Kind::Ringo, _) => Status::DefendersWin,
            (Kind::Urgammon, 0) => Status::LightWins,
            (Kind::Urgammon, _) => Status::DarkWins,
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
    pub fn outcome_for(self, kind: Kind, seat: u8) -> Outcome {
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
    pub seat: u8,
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
        assert!("won".parse::<Status>().is_err());
        // An aborted game is nobody's win or loss.
        for seat in 0..2 {
            assert_eq!(
                Status::Aborted.outcome_for(Kind::Ringo, seat),
                Outcome::Aborted
            );
        }
        assert_eq!(
            Status::DefendersWin.outcome_for(Kind::Ringo, 1),
            Outcome::Won
        );
        assert_eq!(
            Status::DefendersWin.outcome_for(Kind::Ringo, 0),
            Outcome::Lost
        );
        assert_eq!(Status::Draw.outcome_for(Kind::Urgammon, 0), Outcome::Drawn);
        assert_eq!(Status::won(Kind::Urgammon, 1), Status::DarkWins);
    }
}
