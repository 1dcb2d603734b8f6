//! A game: a start position, the moves played, and the outcome (section 6),
//! with the history that double passes and repetition need. Also game records
//! (section 8).

use crate::movegen::{explain_illegal, legal_moves};
use crate::moves::{Move, MoveError, MoveList, MoveText};
use crate::position::{Position, PositionError, Side};
use crate::rules::{Repetition, Rules, RulesError};
use std::fmt;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// Two attackers reached the fortress.
    Fortress,
    /// Fewer than two attackers are left.
    Attrition,
    /// Both sides passed in a row: the siege stalled.
    DoublePass,
    /// A position occurred for the third time.
    Repetition,
}

impl EndReason {
    /// A short machine name: `fortress`, `attrition`, `double-pass`, `repetition`.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Fortress => "fortress",
            EndReason::Attrition => "attrition",
            EndReason::DoublePass => "double-pass",
            EndReason::Repetition => "repetition",
        }
    }

    /// A sentence for players.
    pub const fn describe(self) -> &'static str {
        match self {
            EndReason::Fortress => "two attackers hold the fortress",
            EndReason::Attrition => "fewer than two attackers are left",
            EndReason::DoublePass => "both sides passed in a row: the siege has stalled",
            EndReason::Repetition => "the same position occurred a third time",
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// `"attackers-win"`, `"defenders-win"` or `"draw"`.
    pub const fn status_name(self) -> &'static str {
        match self.winner {
            Some(Side::Attackers) => "attackers-win",
            Some(Side::Defenders) => "defenders-win",
            None => "draw",
        }
    }
}

/// One entry of the history: a position and the move that led to it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    pos: Position,
    /// The move that led here (`None` for the start position).
    mv: Option<Move>,
    /// Index of the first entry that this position could repeat: positions
    /// before an irreversible move (a capture or an attacker moving inward)
    /// can never occur again.
    rep_start: usize,
    outcome: Option<Outcome>,
}

/// A game under one rule set. Every move it accepts is legal.
///
/// ```
/// use ringo::{Game, Rules};
/// let mut game = Game::new("classic".parse::<Rules>().unwrap());
/// game.play_text("b6-b5").unwrap();
/// assert!(game.play_text("b5-b6").is_err()); // defenders to move
/// assert_eq!(game.record(), "classic b6-b5");
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    entries: Vec<Entry>,
}

/// Why a game record could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecordError {
    /// The rules string is invalid.
    Rules(RulesError),
    /// The start position is invalid.
    Position(PositionError),
    /// A move is malformed or illegal.
    Move {
        /// 0-based index of the move among the moves.
        index: usize,
        /// The move's text.
        text: String,
        /// Why it was rejected.
        error: MoveError,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Rules(e) => write!(f, "rules: {e}"),
            RecordError::Position(e) => write!(f, "position: {e}"),
            RecordError::Move { index, text, error } => {
                write!(f, "move {index} ('{text}'): {error}")
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// True for moves after which no earlier position can recur.
#[inline]
pub(crate) fn is_irreversible(side: Side, m: Move) -> bool {
    let (from, to, captured) = m.raw_parts();
    // An attacker's move inward lowers its ring (F, index 48, counts as ring 0);
    // a pass (255) is reversible.
    captured != 255 || (side == Side::Attackers && from != 255 && (to == 48 || to / 8 < from / 8))
}

impl Game {
    /// A new game from the standard start of these rules.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(rules, Position::start(&rules))
    }

    /// A new game from a given position (already checked against `rules`).
    pub fn from_position(rules: Rules, pos: Position) -> Game {
        // Most games end within a few hundred plies; reserving avoids regrowth.
        let mut entries = Vec::with_capacity(256);
        entries.push(Entry {
            pos,
            mv: None,
            rep_start: 0,
            outcome: None,
        });
        let mut game = Game { rules, entries };
        game.entries[0].outcome = game.judge();
        game
    }

    /// A new game from an optional position string and a list of move texts.
    ///
    /// # Errors
    /// The first bad position or move, with the move's index.
    pub fn from_moves<'a>(
        rules: Rules,
        position: Option<&str>,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<Game, RecordError> {
        let pos = match position {
            Some(text) => Position::parse(text, &rules).map_err(RecordError::Position)?,
            None => Position::start(&rules),
        };
        let mut game = Game::from_position(rules, pos);
        for (index, text) in moves.into_iter().enumerate() {
            game.play_text(text).map_err(|error| RecordError::Move {
                index,
                text: text.to_string(),
                error,
            })?;
        }
        Ok(game)
    }

    /// Reads a game record: the rules string, an optional start position
    /// (recognised by its `/`), then the moves, separated by spaces.
    ///
    /// # Errors
    /// A [`RecordError`] naming the bad part.
    pub fn parse_record(text: &str) -> Result<Game, RecordError> {
        let mut tokens: Vec<&str> = text.split_whitespace().collect();
        if tokens.is_empty() {
            return Err(RecordError::Rules(RulesError::Empty));
        }
        // A position may also come first, before the rules string.
        let mut position = None;
        if tokens[0].contains('/') && tokens.len() >= 4 {
            position = Some(tokens[..3].join(" "));
            tokens.drain(..3);
        }
        let rules: Rules = tokens[0].parse().map_err(RecordError::Rules)?;
        let mut rest = &tokens[1..];
        if position.is_none() && rest.first().is_some_and(|t| t.contains('/')) {
            position = Some(rest.iter().take(3).copied().collect::<Vec<_>>().join(" "));
            rest = &rest[rest.len().min(3)..];
        }
        Game::from_moves(rules, position.as_deref(), rest.iter().copied())
    }

    /// Writes the game record: rules, the start position when it is not the
    /// standard one, then the moves in notation.
    pub fn record(&self) -> String {
        let mut s = self.rules.to_string();
        let start = self.entries[0].pos;
        if start != Position::start(&self.rules) {
            s.push(' ');
            s.push_str(&start.to_text(self.rules.rings));
        }
        for text in self.move_notations() {
            s.push(' ');
            s.push_str(&text);
        }
        s
    }

    /// The moves played, each in notation with the disambiguation its position needed.
    pub fn move_notations(&self) -> Vec<String> {
        let mut list = MoveList::new();
        self.entries
            .windows(2)
            .filter_map(|w| {
                let m = w[1].mv?;
                legal_moves(&w[0].pos, &self.rules, &mut list);
                Some(m.to_notation(&list))
            })
            .collect()
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.last().pos
    }

    /// The start position.
    pub fn start_position(&self) -> &Position {
        &self.entries[0].pos
    }

    /// The moves played so far.
    pub fn moves(&self) -> Vec<Move> {
        self.entries.iter().filter_map(|e| e.mv).collect()
    }

    /// The position after the first `ply` moves (`None` past the end).
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        self.entries.get(ply).map(|e| &e.pos)
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.last().outcome
    }

    /// True once the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// `"ongoing"`, `"attackers-win"`, `"defenders-win"` or `"draw"`.
    pub fn status_name(&self) -> &'static str {
        self.outcome().map_or("ongoing", Outcome::status_name)
    }

    /// The legal moves now (empty once the game is over).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if !self.is_over() {
            legal_moves(self.position(), &self.rules, &mut list);
        }
        list
    }

    /// The legal moves in notation, sorted in byte order.
    pub fn legal_notations(&self) -> Vec<String> {
        let list = self.legal_moves();
        let mut v: Vec<String> = list.iter().map(|m| m.to_notation(&list)).collect();
        v.sort_unstable();
        v
    }

    /// How often the current position has occurred, this occurrence included.
    pub fn occurrences(&self) -> usize {
        let last = self.last();
        let key = last.pos.key();
        // Only positions with the same side to move can match: every second entry
        // back to the last irreversible move.
        self.entries[last.rep_start..]
            .iter()
            .rev()
            .step_by(2)
            .filter(|e| e.pos.key() == key)
            .count()
    }

    fn last(&self) -> &Entry {
        self.entries
            .last()
            .expect("a game always has its start entry")
    }

    /// Section 6, in its order of checks: 2 in F, fewer than 2 attackers, a double
    /// pass, then repetition.
    fn judge(&self) -> Option<Outcome> {
        let pos = self.position();
        let over = |winner, reason| Some(Outcome { winner, reason });
        if pos.fortress() >= 2 {
            return over(Some(Side::Attackers), EndReason::Fortress);
        }
        if pos.attackers_left() < 2 {
            return over(Some(Side::Defenders), EndReason::Attrition);
        }
        let n = self.entries.len();
        if n >= 3
            && self.entries[n - 1].mv == Some(Move::PASS)
            && self.entries[n - 2].mv == Some(Move::PASS)
        {
            return over(Some(Side::Defenders), EndReason::DoublePass);
        }
        if self.occurrences() >= 3 {
            let winner = match self.rules.repetition {
                Repetition::Defenders => Some(Side::Defenders),
                Repetition::Draw => None,
            };
            return over(winner, EndReason::Repetition);
        }
        None
    }

    /// Plays a move after checking that it is legal.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] or [`MoveError::Illegal`] with the reason.
    pub fn play(&mut self, m: Move) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let legal = self.legal_moves();
        if !legal.contains(&m) {
            return Err(MoveError::Illegal {
                text: m.to_string(),
                reason: explain_illegal(self.position(), &self.rules, m),
            });
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// Parses a move in notation against the legal moves, and plays it.
    ///
    /// # Errors
    /// A [`MoveError`] that says what is wrong: syntax, legality or ambiguity.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = self.parse_move(text)?;
        self.play_unchecked(m);
        Ok(m)
    }

    /// Parses a move in notation and matches it against the legal moves.
    ///
    /// # Errors
    /// As [`Game::play_text`].
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let parsed = MoveText::parse(text, self.rules.rings)?;
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let legal = self.legal_moves();
        let illegal = |m: Move| MoveError::Illegal {
            text: text.to_string(),
            reason: explain_illegal(self.position(), &self.rules, m),
        };
        let MoveText::Move {
            from,
            to,
            capture,
            captured,
        } = parsed
        else {
            return if legal.contains(&Move::PASS) {
                Ok(Move::PASS)
            } else {
                Err(illegal(Move::PASS))
            };
        };
        let matches: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                m.from() == Some(from)
                    && m.to() == Some(to)
                    && m.is_capture() == capture
                    && (captured.is_none() || m.captured() == captured)
            })
            .collect();
        match matches.as_slice() {
            [m] => Ok(*m),
            [] => {
                // Describe the closest move: with the captured cell if given.
                let guess = match captured {
                    Some(c) => Move::capture(from, to, c),
                    None if capture => Move::capture(from, to, to),
                    None => Move::quiet(from, to),
                };
                Err(illegal(guess))
            }
            many => Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: many.iter().map(|m| m.to_notation(&legal)).collect(),
            }),
        }
    }

    /// Plays a move without checking it; it must come from [`Game::legal_moves`].
    pub fn play_unchecked(&mut self, m: Move) {
        let prev = self.last();
        let mut pos = prev.pos;
        let side = pos.to_move();
        pos.play_unchecked(m);
        let rep_start = if is_irreversible(side, m) {
            self.entries.len()
        } else {
            prev.rep_start
        };
        self.entries.push(Entry {
            pos,
            mv: Some(m),
            rep_start,
            outcome: None,
        });
        let outcome = self.judge();
        if let Some(e) = self.entries.last_mut() {
            e.outcome = outcome;
        }
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        if self.entries.len() <= 1 {
            return None;
        }
        self.entries.pop().and_then(|e| e.mv)
    }

    /// Number of moves played.
    pub fn ply(&self) -> usize {
        self.entries.len() - 1
    }

    /// True when the last move was a pass (a second pass would end the game).
    pub fn last_was_pass(&self) -> bool {
        self.last().mv == Some(Move::PASS)
    }

    /// The keys of the positions a repetition could match (those since the last
    /// irreversible move), oldest first, the current one last.
    pub fn repetition_keys(&self) -> Vec<u64> {
        self.entries[self.last().rep_start..]
            .iter()
            .map(|e| e.pos.key())
            .collect()
    }
}
