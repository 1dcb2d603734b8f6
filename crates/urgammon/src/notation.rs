//! Record tokens and their text (section 7): `start:L-D`, `r1`…`r4`, `v+`, `v-`,
//! and moves such as `P-2a`, `Cx6`, `2a-3a`, `5x9` and `13b-off`.

use crate::board::{progress_of, House, Kind, Side, PALACE};
use crate::error::{SettingsError, TokenError};
use crate::state::{State, Token};
use std::fmt;

/// Why a record could not be read: the bad token, its index and the reason.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordError {
    /// 0-based index of the token (counted over the whole match record).
    pub index: usize,
    /// The token's text.
    pub token: String,
    /// Why it was rejected.
    pub reason: RecordReason,
}

/// Why a part of a record was rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecordReason {
    /// A token that cannot be read or does not fit.
    Token(TokenError),
    /// A bad match header.
    Settings(SettingsError),
    /// A game line that starts before the previous game has finished.
    Unfinished,
}

impl fmt::Display for RecordReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordReason::Token(e) => e.fmt(f),
            RecordReason::Settings(e) => e.fmt(f),
            RecordReason::Unfinished => f.write_str("the previous game is not finished"),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "token {} ('{}'): {}",
            self.index, self.token, self.reason
        )
    }
}

impl std::error::Error for RecordError {}

/// A token as written, before moves are matched against the legal ones.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TokenText {
    /// `start:L-D`.
    Start(u8, u8),
    /// `rN`.
    Roll(u8),
    /// `v+` / `v-`.
    Verdict(bool),
    /// A move: FROM (a piece letter for an entry, else a house), `x` or not,
    /// TO (a house, or `None` for `off`).
    Move {
        /// The entering piece, for an entry.
        entry: Option<Kind>,
        /// The start house, for a step or bear-off.
        from: Option<House>,
        /// Written with `x`.
        capture: bool,
        /// The end house (`None` for `off`).
        to: Option<House>,
    },
}

fn die(s: &str) -> Option<u8> {
    match s {
        "1" => Some(1),
        "2" => Some(2),
        "3" => Some(3),
        "4" => Some(4),
        _ => None,
    }
}

impl TokenText {
    /// Whether the token opens a turn of the record, as
    /// [`crate::Token::opens_turn`] says of the played token: a chance roll,
    /// or an opening roll that decides who starts (a tie opens none).
    pub fn opens_turn(&self) -> bool {
        match *self {
            TokenText::Start(l, d) => l != d,
            TokenText::Roll(_) => true,
            TokenText::Verdict(_) | TokenText::Move { .. } => false,
        }
    }

    /// Parses one token. Never panics.
    ///
    /// # Errors
    /// The reason, in words.
    pub fn parse(text: &str) -> Result<TokenText, TokenError> {
        if let Some(rest) = text.strip_prefix("start:") {
            let (l, d) = rest.split_once('-').ok_or(TokenError::OpeningForm)?;
            return match (die(l), die(d)) {
                (Some(l), Some(d)) => Ok(TokenText::Start(l, d)),
                _ => Err(TokenError::OpeningFaces),
            };
        }
        match text {
            "v+" => return Ok(TokenText::Verdict(true)),
            "v-" => return Ok(TokenText::Verdict(false)),
            _ => {}
        }
        if let Some(n) = text.strip_prefix('r') {
            return die(n).map(TokenText::Roll).ok_or(TokenError::ChanceForm);
        }
        let (from, to, capture) = if let Some((a, b)) = text.split_once('x') {
            (a, b, true)
        } else if let Some((a, b)) = text.split_once('-') {
            (a, b, false)
        } else {
            return Err(TokenError::Unreadable);
        };
        let to = match to {
            "off" => None,
            h => Some(House::parse(h).ok_or_else(|| TokenError::NotAHouse(h.to_string()))?),
        };
        let mut chars = from.chars();
        let (entry, from) = match (chars.next().and_then(Kind::from_letter), chars.next()) {
            (Some(kind), None) => (Some(kind), None),
            _ => (
                None,
                Some(
                    House::parse(from)
                        .ok_or_else(|| TokenError::NotAHouseOrPiece(from.to_string()))?,
                ),
            ),
        };
        if entry.is_some() && to.is_none() {
            return Err(TokenError::EnterPalace);
        }
        Ok(TokenText::Move {
            entry,
            from,
            capture,
            to,
        })
    }

    /// Resolves the text against the state: moves are matched with the legal moves.
    ///
    /// # Errors
    /// The reason, in words.
    pub fn resolve(self, state: &State) -> Result<Token, TokenError> {
        Ok(match self {
            TokenText::Start(l, d) => Token::Start(l, d),
            TokenText::Roll(c) => Token::Roll(c),
            TokenText::Verdict(y) => Token::Verdict(y),
            TokenText::Move {
                entry,
                from,
                capture,
                to,
            } => {
                let Some(side) = state.to_act() else {
                    return Err(match state.phase() {
                        crate::state::Phase::Over => TokenError::GameOver,
                        _ => TokenError::OpeningFirst,
                    });
                };
                let from_p = match (entry, from) {
                    (Some(_), _) => Some(0),
                    (None, Some(h)) => progress_of(side, h),
                    _ => None,
                };
                let to_p = match to {
                    None => Some(PALACE),
                    Some(h) => progress_of(side, h),
                };
                let legal = state.moves();
                let found = legal.iter().find(|m| {
                    Some(m.from) == from_p
                        && Some(m.to) == to_p
                        && entry.is_none_or(|k| k == m.piece)
                });
                match found {
                    Some(m) if m.captured.is_some() == capture => Token::Move(*m),
                    Some(m) => {
                        return Err(TokenError::WrongCapture {
                            notation: m.notation(side),
                            captures: m.captured.is_some(),
                        })
                    }
                    None => return Err(TokenError::NoSuchMove(illegal_reason(state, side))),
                }
            }
        })
    }
}

fn illegal_reason(state: &State, side: Side) -> String {
    let legal = state.moves();
    match (state.phase(), state.value()) {
        (crate::state::Phase::Decide | crate::state::Phase::Move, Some(v)) => {
            let list: Vec<String> = legal.iter().map(|m| m.notation(side)).collect();
            if list.is_empty() {
                format!("{} has no move with {v}", side.name())
            } else {
                format!("not a legal move with {v}; legal: {}", list.join(" "))
            }
        }
        (crate::state::Phase::Roll, _) => {
            format!("{} must roll the chance die first (r1-r4)", side.name())
        }
        (crate::state::Phase::Verdict, _) => {
            format!("{} must roll the verdict die (v+ or v-)", side.name())
        }
        _ => "no move is expected here".into(),
    }
}

impl Token {
    /// Writes the token; moves are written for `side`.
    pub fn notation(&self, side: Side) -> String {
        match self {
            Token::Start(l, d) => format!("start:{l}-{d}"),
            Token::Roll(c) => format!("r{c}"),
            Token::Verdict(true) => "v+".into(),
            Token::Verdict(false) => "v-".into(),
            Token::Move(m) => m.notation(side),
        }
    }
}
