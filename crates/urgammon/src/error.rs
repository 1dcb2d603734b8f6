//! Why a record token or a match header is refused: small typed errors,
//! each with the sentence a player reads.

use crate::board::Side;
use std::fmt;

/// Why a token cannot be read, or does not fit the state it is applied to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenError {
    /// `start:` without `L-D`.
    OpeningForm,
    /// An opening roll outside 1–4 (as written).
    OpeningFaces,
    /// An opening roll outside 1–4 (as applied).
    OpeningRange,
    /// `rN` with N outside 1–4 (as written).
    ChanceForm,
    /// A chance roll outside 1–4 (as applied).
    ChanceRange(u8),
    /// Not any kind of token.
    Unreadable,
    /// A destination that is not a house.
    NotAHouse(String),
    /// A start that is neither a house nor a piece letter.
    NotAHouseOrPiece(String),
    /// An entry written straight into the palace.
    EnterPalace,
    /// The game is over.
    GameOver,
    /// The game starts with the opening roll.
    OpeningFirst,
    /// The side to act must roll the chance die.
    MustRoll(Side),
    /// No move with the chance value: the verdict die must be rolled.
    MustRollVerdict {
        /// The chance value.
        chance: u8,
        /// The side to act.
        side: Side,
    },
    /// The side to act must play a move.
    MustMove(Side),
    /// A move (in notation) that is not legal here.
    Illegal(String),
    /// A move written with the wrong separator: the right notation.
    WrongCapture {
        /// The move as it must be written.
        notation: String,
        /// Whether it captures.
        captures: bool,
    },
    /// A move that matches no legal move: why, in words.
    NoSuchMove(String),
    /// The verdict die was already rolled this turn.
    VerdictAlreadyRolled,
    /// The verdict die may not be rolled: no promoted move exists.
    VerdictNotAllowed,
    /// The match is over.
    MatchOver,
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenError::OpeningForm => f.write_str("expected start:L-D, e.g. start:2-3"),
            TokenError::OpeningFaces => f.write_str("opening rolls are 1 to 4, e.g. start:2-3"),
            TokenError::OpeningRange => f.write_str("opening rolls are 1 to 4"),
            TokenError::ChanceForm => f.write_str("a chance roll is r1, r2, r3 or r4"),
            TokenError::ChanceRange(c) => write!(f, "the chance die shows 1 to 4, not {c}"),
            TokenError::Unreadable => f.write_str(
                "expected start:L-D, r1-r4, v+, v- or a move such as P-2a, 2a-3a, Cx6, 13b-off",
            ),
            TokenError::NotAHouse(h) => write!(f, "'{h}' is not a house"),
            TokenError::NotAHouseOrPiece(h) => {
                write!(f, "'{h}' is not a house or a piece letter (P, C, H)")
            }
            TokenError::EnterPalace => f.write_str("a piece cannot enter straight into the palace"),
            TokenError::GameOver => f.write_str("the game is over"),
            TokenError::OpeningFirst => {
                f.write_str("the game starts with the opening roll, start:L-D")
            }
            TokenError::MustRoll(side) => {
                write!(f, "{} must roll the chance die (r1-r4)", side.name())
            }
            TokenError::MustRollVerdict { chance, side } => write!(
                f,
                "no move with {chance}; {} must roll the verdict die (v+ or v-)",
                side.name()
            ),
            TokenError::MustMove(side) => write!(f, "{} must play a move", side.name()),
            TokenError::Illegal(m) => write!(f, "{m} is not a legal move here"),
            TokenError::WrongCapture { notation, captures } => write!(
                f,
                "{notation} {}; write {notation}",
                if *captures {
                    "captures"
                } else {
                    "captures nothing"
                }
            ),
            TokenError::NoSuchMove(why) => f.write_str(why),
            TokenError::VerdictAlreadyRolled => {
                f.write_str("the verdict die was already rolled this turn")
            }
            TokenError::VerdictNotAllowed => {
                f.write_str("the verdict die may not be rolled: no promoted move exists")
            }
            TokenError::MatchOver => f.write_str("the match is over"),
        }
    }
}

impl std::error::Error for TokenError {}

/// Why a match header or a match setting is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError {
    /// The line is not a match header.
    NotAHeader,
    /// A target outside 1–99 (as written).
    Target(String),
    /// A draw rule other than `replay` or `end`.
    Draw(String),
    /// A stake that is not an amount.
    Stake(String),
    /// A setting that does not exist.
    Unknown(String),
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::NotAHeader => {
                f.write_str("a match record starts with 'urgammon match to=7 draw=replay'")
            }
            SettingsError::Target(v) => write!(f, "invalid target '{v}': use 1 to 99"),
            SettingsError::Draw(v) => write!(f, "invalid draw '{v}': use replay or end"),
            SettingsError::Stake(v) => {
                write!(f, "invalid stake '{v}': use a number such as 10 or 2.50")
            }
            SettingsError::Unknown(w) => {
                write!(f, "unknown match setting '{w}': use to=, draw=, stake=")
            }
        }
    }
}

impl std::error::Error for SettingsError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_typed_and_say_why() {
        let mut g = crate::game::Game::new();
        assert_eq!(g.apply_text("r5"), Err(TokenError::ChanceForm));
        assert_eq!(g.apply_text("r2"), Err(TokenError::OpeningFirst));
        assert_eq!(g.apply_text("P-off"), Err(TokenError::EnterPalace));
        g.apply_text("start:2-3").unwrap();
        assert_eq!(g.apply_text("v+"), Err(TokenError::VerdictNotAllowed));
        assert_eq!(
            crate::matchplay::MatchSettings::parse_header("urgammon match to=0"),
            Err(SettingsError::Target("0".into()))
        );
        assert_eq!(
            "maybe".parse::<crate::matchplay::DrawRule>(),
            Err(SettingsError::Draw("maybe".into()))
        );
        assert_eq!(
            TokenError::MustRollVerdict {
                chance: 3,
                side: Side::Dark
            }
            .to_string(),
            "no move with 3; dark must roll the verdict die (v+ or v-)"
        );
    }
}
