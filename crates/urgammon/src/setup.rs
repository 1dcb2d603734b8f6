//! A position set up by hand, for the analysis board (Agon's extension of
//! the notation, section 7 of the rules): each side's pieces on the board and
//! in the palace (every other piece waits), who rolls next, and who started.
//!
//! ```text
//! light=2a:P,7:C,off:P dark=3b:P,8:H roll=dark starter=light
//! ```
//!
//! A list entry is `HOUSE:KIND` or `off:KIND` (one piece in the palace);
//! `roll` defaults to light and `starter` to the side to roll.
//!
//! ```
//! let s = urgammon::parse_setup("light=2a:P,off:P dark=8:H roll=dark").unwrap();
//! assert_eq!(s.to_act(), Some(urgammon::Side::Dark));
//! assert_eq!(urgammon::setup_text(&s).unwrap(), "light=2a:P,off:P dark=8:H roll=dark starter=dark");
//! ```

use crate::board::{house_at, House, Kind, Side};
use crate::position::Position;
use crate::state::{Phase, State};
use std::fmt;

/// Why a set-up text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A word that is not `light=…`, `dark=…`, `roll=…` or `starter=…`.
    UnknownWord(String),
    /// A list entry that is not `HOUSE:KIND` or `off:KIND`.
    BadEntry(String),
    /// Not `light` or `dark`.
    BadSide(String),
    /// The pieces do not fit (two on a house, a house off the path, too many).
    Position(String),
    /// The game is already over in this position: the side to roll has
    /// finished, or the side that did not start has (a finish by the side
    /// that did not start wins at once).
    Over(String),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::UnknownWord(w) => {
                write!(f, "'{w}' is not light=…, dark=…, roll=… or starter=…")
            }
            SetupError::BadEntry(e) => {
                write!(f, "'{e}' is not HOUSE:KIND or off:KIND (kinds P, C, H)")
            }
            SetupError::BadSide(s) => write!(f, "'{s}' is not light or dark"),
            SetupError::Position(why) | SetupError::Over(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for SetupError {}

fn side(text: &str) -> Result<Side, SetupError> {
    match text {
        "light" => Ok(Side::Light),
        "dark" => Ok(Side::Dark),
        other => Err(SetupError::BadSide(other.to_string())),
    }
}

fn kind(text: &str) -> Option<Kind> {
    Kind::ALL
        .into_iter()
        .find(|k| text.len() == 1 && text.starts_with(k.letter()))
}

/// Reads a set-up position: the state with the named side about to roll.
///
/// # Errors
/// The first word or entry that does not read, or pieces that do not fit.
pub fn parse_setup(text: &str) -> Result<State, SetupError> {
    let mut board = vec![];
    let mut palace = vec![];
    let (mut roll, mut starter) = (Side::Light, None);
    for word in text.split_whitespace() {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| SetupError::UnknownWord(word.to_string()))?;
        match key {
            "light" | "dark" => {
                let s = side(key)?;
                for entry in value.split(',').filter(|e| !e.is_empty()) {
                    let bad = || SetupError::BadEntry(entry.to_string());
                    let (place, k) = entry.split_once(':').ok_or_else(bad)?;
                    let k = kind(k).ok_or_else(bad)?;
                    if place == "off" {
                        palace.push((s, k, 1));
                    } else {
                        board.push((s, House::parse(place).ok_or_else(bad)?, k));
                    }
                }
            }
            "roll" => roll = side(value)?,
            "starter" => starter = Some(side(value)?),
            _ => return Err(SetupError::UnknownWord(word.to_string())),
        }
    }
    let pos = Position::setup(&board, &palace).map_err(SetupError::Position)?;
    let starter = starter.unwrap_or(roll);
    // Seven home and still to play is no position of a game: the game ended
    // when the last piece went home, unless the starter finished and the
    // other side is to play its compensation turn (which the state opens).
    for s in [Side::Light, Side::Dark] {
        if pos.army(s).palace_total() == 7 && (s == roll || s != starter) {
            return Err(SetupError::Over(format!(
                "{} has all seven pieces home: the game is over",
                s.name()
            )));
        }
    }
    Ok(State::from_position(pos, roll, starter))
}

/// Writes a state about to roll as a set-up text (`None` in other phases:
/// the set-up has no dice).
pub fn setup_text(state: &State) -> Option<String> {
    if state.phase() != Phase::Roll {
        return None;
    }
    let roll = state.to_act()?;
    let pos = state.position();
    let list = |s: Side| {
        let army = pos.army(s);
        let mut entries: Vec<String> = army
            .on_board()
            .map(|(p, k)| format!("{}:{}", house_at(s, p), k.letter()))
            .collect();
        for k in Kind::ALL {
            entries.extend((0..army.palace(k)).map(|_| format!("off:{}", k.letter())));
        }
        entries.join(",")
    };
    Some(format!(
        "light={} dark={} roll={} starter={}",
        list(Side::Light),
        list(Side::Dark),
        roll.name(),
        state.starter().unwrap_or(roll).name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rules, section 5.2: "If the starting player finishes first, the other
    /// player gets one more full turn"; "If the non-starting player finishes
    /// first, it wins at once."
    #[test]
    fn a_setup_after_the_starters_finish_is_the_compensation_turn() {
        let home = "off:P,off:P,off:P,off:C,off:C,off:C,off:H";
        let s = parse_setup(&format!("light={home} dark=12a:H roll=dark starter=light")).unwrap();
        assert!(s.last_turn(), "dark's roll opens its compensation turn");
        // The text written back reads as the same state.
        let again = parse_setup(&setup_text(&s).unwrap()).unwrap();
        assert!(again.last_turn());
        // The non-starter finished, or the finisher is to roll: over.
        for bad in [
            format!("light={home} dark=12a:H roll=dark starter=dark"),
            format!("light={home} dark=12a:H roll=light starter=light"),
        ] {
            assert!(
                matches!(parse_setup(&bad), Err(SetupError::Over(_))),
                "{bad}"
            );
        }
        assert!(
            !parse_setup("light=12b:H dark=12a:H roll=dark starter=light")
                .unwrap()
                .last_turn()
        );
    }

    #[test]
    fn a_setup_reads_and_writes_back_and_bad_ones_say_why() {
        let s = parse_setup("light=2a:P,7:C,off:P dark=3b:P,8:H roll=dark starter=light").unwrap();
        assert_eq!(s.phase(), Phase::Roll);
        assert_eq!(s.to_act(), Some(Side::Dark));
        assert_eq!(s.position().army(Side::Light).palace(Kind::Pawn), 1);
        assert_eq!(s.position().army(Side::Light).waiting(Kind::Pawn), 1);
        let text = setup_text(&s).unwrap();
        assert_eq!(parse_setup(&text).unwrap(), s);
        assert!(matches!(
            parse_setup("light=2a:X"),
            Err(SetupError::BadEntry(_))
        ));
        assert!(matches!(
            parse_setup("blue=2a:P"),
            Err(SetupError::UnknownWord(_))
        ));
        assert!(matches!(
            parse_setup("roll=green"),
            Err(SetupError::BadSide(_))
        ));
        assert!(matches!(
            parse_setup("light=2a:P,2a:C"),
            Err(SetupError::Position(_))
        ));
        assert!(
            matches!(parse_setup("light=2b:P"), Err(SetupError::Position(_))),
            "off light's path"
        );
        assert!(
            matches!(
                parse_setup("light=off:H,off:H"),
                Err(SetupError::Position(_))
            ),
            "one hero only"
        );
        // The empty set-up is the start with every piece waiting.
        assert_eq!(parse_setup("").unwrap().position(), &Position::START);
    }
}
