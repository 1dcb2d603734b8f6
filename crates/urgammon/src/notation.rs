//! Record tokens and their text (section 7): `start:L-D`, `r1`…`r4`, `v+`, `v-`,
//! and moves such as `P-2a`, `Cx6`, `2a-3a`, `5x9` and `13b-off`.

use crate::board::{progress_of, House, Kind, Side, PALACE};
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
    pub reason: String,
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
    /// Parses one token. Never panics.
    ///
    /// # Errors
    /// The reason, in words.
    pub fn parse(text: &str) -> Result<TokenText, String> {
        if let Some(rest) = text.strip_prefix("start:") {
            let (l, d) = rest
                .split_once('-')
                .ok_or_else(|| "expected start:L-D, e.g. start:2-3".to_string())?;
            return match (die(l), die(d)) {
                (Some(l), Some(d)) => Ok(TokenText::Start(l, d)),
                _ => Err("opening rolls are 1 to 4, e.g. start:2-3".into()),
            };
        }
        match text {
            "v+" => return Ok(TokenText::Verdict(true)),
            "v-" => return Ok(TokenText::Verdict(false)),
            _ => {}
        }
        if let Some(n) = text.strip_prefix('r') {
            return die(n)
                .map(TokenText::Roll)
                .ok_or_else(|| "a chance roll is r1, r2, r3 or r4".into());
        }
        let (from, to, capture) = if let Some((a, b)) = text.split_once('x') {
            (a, b, true)
        } else if let Some((a, b)) = text.split_once('-') {
            (a, b, false)
        } else {
            return Err(
                "expected start:L-D, r1-r4, v+, v- or a move such as P-2a, 2a-3a, Cx6, 13b-off"
                    .into(),
            );
        };
        let to = match to {
            "off" => None,
            h => Some(House::parse(h).ok_or_else(|| format!("'{h}' is not a house"))?),
        };
        let mut chars = from.chars();
        let (entry, from) = match (chars.next().and_then(Kind::from_letter), chars.next()) {
            (Some(kind), None) => (Some(kind), None),
            _ => (
                None,
                Some(House::parse(from).ok_or_else(|| {
                    format!("'{from}' is not a house or a piece letter (P, C, H)")
                })?),
            ),
        };
        if entry.is_some() && to.is_none() {
            return Err("a piece cannot enter straight into the palace".into());
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
    pub fn resolve(self, state: &State) -> Result<Token, String> {
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
                        crate::Phase::Over => "the game is over".into(),
                        _ => "the game starts with the opening roll, start:L-D".into(),
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
                        return Err(format!(
                            "{} {}; write {}",
                            m.notation(side),
                            if m.captured.is_some() {
                                "captures"
                            } else {
                                "captures nothing"
                            },
                            m.notation(side)
                        ))
                    }
                    None => return Err(illegal_reason(state, side)),
                }
            }
        })
    }
}

fn illegal_reason(state: &State, side: Side) -> String {
    let legal = state.moves();
    match (state.phase(), state.value()) {
        (crate::Phase::Decide | crate::Phase::Move, Some(v)) => {
            let list: Vec<String> = legal.iter().map(|m| m.notation(side)).collect();
            if list.is_empty() {
                format!("{} has no move with {v}", side.name())
            } else {
                format!("not a legal move with {v}; legal: {}", list.join(" "))
            }
        }
        (crate::Phase::Roll, _) => {
            format!("{} must roll the chance die first (r1-r4)", side.name())
        }
        (crate::Phase::Verdict, _) => {
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
