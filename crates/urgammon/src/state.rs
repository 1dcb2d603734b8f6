//! The game state: where the pieces are, and the turn state machine of sections
//! 4 and 5 (chance roll, verdict die, moves, rosette bonuses, the opening roll,
//! the compensation turn) with the scoring of section 6.
//!
//! Dice are inputs: [`State::apply`] takes the tokens of a record (`start:L-D`,
//! `r1`…`r4`, `v+`/`v-`, moves), so the same tokens always give the same game.

use crate::board::{promote, Side};
use crate::error::TokenError;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::result::{GameResult, ResultKind};

/// Where the turn stands: what the next token must be.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// Both players roll for the start: `start:L-D`.
    Opening,
    /// The player rolls the chance die: `r1`…`r4`.
    Roll,
    /// The player plays a move with the chance value, or rolls the verdict die.
    Decide,
    /// The verdict die must be rolled: `v+` or `v-`.
    Verdict,
    /// The player plays a move with the binding value.
    Move,
    /// The game is over.
    Over,
}

impl Phase {
    /// The phase's name in the CLI's JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Opening => "opening",
            Phase::Roll => "roll",
            Phase::Decide => "decide",
            Phase::Verdict => "verdict",
            Phase::Move => "move",
            Phase::Over => "over",
        }
    }
}

/// A record token (section 7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Token {
    /// `start:L-D`: light rolled L, dark rolled D.
    Start(u8, u8),
    /// `rN`: the chance die shows N.
    Roll(u8),
    /// `v+` (true) or `v-` (false): the verdict die.
    Verdict(bool),
    /// A move.
    Move(Move),
}

impl Token {
    /// Whether the token opens a turn of the game's record: a chance roll, or
    /// an opening roll that decides who starts. A tied opening roll opens
    /// none (both roll again). The game's log and its review number turns by
    /// this, so a review's "52." is the log's line 52.
    pub fn opens_turn(self) -> bool {
        match self {
            Token::Start(l, d) => l != d,
            Token::Roll(_) => true,
            Token::Verdict(_) | Token::Move(_) => false,
        }
    }
}

/// The whole state of one game: the position and where the turn stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct State {
    pos: Position,
    phase: Phase,
    /// The side acting (meaningless in the opening and once over).
    side: Side,
    /// The chance value of this turn.
    chance: u8,
    /// True after `v+`: the binding value is the promoted one.
    promoted: bool,
    /// The side that started (won the opening roll).
    starter: Option<Side>,
    /// True during the compensation turn.
    last_turn: bool,
    result: Option<GameResult>,
}

impl Default for State {
    fn default() -> State {
        State::new()
    }
}

impl State {
    /// A new game, waiting for the opening roll.
    pub const fn new() -> State {
        State {
            pos: Position::START,
            phase: Phase::Opening,
            side: Side::Light,
            chance: 0,
            promoted: false,
            starter: None,
            last_turn: false,
            result: None,
        }
    }

    /// A game in progress from a position: `to_roll` is about to roll the
    /// chance die, and `starter` is the side that started the game (it decides
    /// whether a finish gives the other side a compensation turn).
    ///
    /// When the starter has brought all seven pieces home and the other side
    /// is to roll, that roll opens the compensation turn (rules, section 5.2):
    /// the state says so, as it would had the finish been played.
    pub fn from_position(pos: Position, to_roll: Side, starter: Side) -> State {
        let last_turn = to_roll != starter && pos.army(starter).palace_total() == 7;
        State {
            pos,
            phase: Phase::Roll,
            side: to_roll,
            starter: Some(starter),
            last_turn,
            ..State::new()
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The phase: what the next token must be.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The side to act (`None` in the opening and once the game is over).
    pub fn to_act(&self) -> Option<Side> {
        match self.phase {
            Phase::Opening | Phase::Over => None,
            _ => Some(self.side),
        }
    }

    /// The side that started the game.
    pub fn starter(&self) -> Option<Side> {
        self.starter
    }

    /// This turn's chance value (in phases decide, verdict and move).
    pub fn chance(&self) -> Option<u8> {
        matches!(self.phase, Phase::Decide | Phase::Verdict | Phase::Move).then_some(self.chance)
    }

    /// The binding value in phases move and decide.
    pub fn value(&self) -> Option<u8> {
        match self.phase {
            Phase::Decide => Some(self.chance),
            Phase::Move if self.promoted => Some(promote(self.chance)),
            Phase::Move => Some(self.chance),
            _ => None,
        }
    }

    /// True when the binding value is a promoted one.
    pub fn promoted(&self) -> bool {
        self.phase == Phase::Move && self.promoted
    }

    /// True during the compensation turn.
    pub fn last_turn(&self) -> bool {
        self.last_turn && self.phase != Phase::Over
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// The legal moves for the binding value (phases decide and move).
    pub fn moves(&self) -> MoveList {
        let mut list = MoveList::default();
        if let Some(v) = self.value() {
            self.pos.moves(self.side, v, self.promoted(), &mut list);
        }
        list
    }

    /// P(c), the moves the verdict die's YES would allow (phases decide and verdict).
    pub fn promoted_moves(&self) -> MoveList {
        let mut list = MoveList::default();
        if matches!(self.phase, Phase::Decide | Phase::Verdict) {
            self.pos
                .moves(self.side, promote(self.chance), true, &mut list);
        }
        list
    }

    /// The turn passes to the other side, unless it was the compensation turn,
    /// which ends the game with the starter's win.
    fn end_turn(&mut self) {
        if self.last_turn {
            let winner = self.starter.unwrap_or(self.side.other());
            self.finish(winner);
        } else {
            self.side = self.side.other();
            self.phase = Phase::Roll;
        }
    }

    fn finish(&mut self, winner: Side) {
        let (points, kind) = self.pos.loss_points(winner.other());
        self.result = Some(GameResult {
            winner: Some(winner),
            points,
            kind,
        });
        self.phase = Phase::Over;
    }

    /// After the chance value is known: decide, verdict, move, or no move at all.
    fn after_chance(&mut self, c: u8) {
        self.chance = c;
        self.promoted = false;
        let mut m = MoveList::default();
        let mut p = MoveList::default();
        self.pos.moves(self.side, c, false, &mut m);
        self.pos.moves(self.side, promote(c), true, &mut p);
        self.phase = match (m.is_empty(), p.is_empty()) {
            (true, true) => return self.end_turn(),
            (false, true) => Phase::Move,
            (true, false) => Phase::Verdict,
            (false, false) => Phase::Decide,
        };
    }

    fn after_move(&mut self, m: Move) {
        let side = self.side;
        let rosette = self.pos.play(side, m);
        if self.pos.army(side).palace_total() == 7 {
            if self.last_turn {
                // Both finished: a draw.
                self.result = Some(GameResult {
                    winner: None,
                    points: 0,
                    kind: ResultKind::Draw,
                });
                self.phase = Phase::Over;
            } else if Some(side) == self.starter {
                // The other side gets one more full turn.
                self.last_turn = true;
                self.side = side.other();
                self.phase = Phase::Roll;
            } else {
                self.finish(side);
            }
        } else if rosette {
            self.phase = Phase::Roll;
        } else {
            self.end_turn();
        }
    }

    /// Applies one record token.
    ///
    /// # Errors
    /// A [`TokenError`] saying why the token does not fit here; the state is
    /// unchanged.
    pub fn apply(&mut self, token: Token) -> Result<(), TokenError> {
        match (self.phase, token) {
            (Phase::Over, _) => Err(TokenError::GameOver),
            (Phase::Opening, Token::Start(l, d)) => {
                if !(1..=4).contains(&l) || !(1..=4).contains(&d) {
                    return Err(TokenError::OpeningRange);
                }
                if l != d {
                    // The lower roll starts and plays that value.
                    let (side, c) = if l < d {
                        (Side::Light, l)
                    } else {
                        (Side::Dark, d)
                    };
                    self.starter = Some(side);
                    self.side = side;
                    self.after_chance(c);
                }
                Ok(())
            }
            (Phase::Opening, _) => Err(TokenError::OpeningFirst),
            (Phase::Roll, Token::Roll(c)) if (1..=4).contains(&c) => {
                self.after_chance(c);
                Ok(())
            }
            (Phase::Roll, Token::Roll(c)) => Err(TokenError::ChanceRange(c)),
            (Phase::Roll, _) => Err(TokenError::MustRoll(self.side)),
            (Phase::Decide | Phase::Verdict, Token::Verdict(yes)) => {
                if yes {
                    self.promoted = true;
                    self.phase = Phase::Move;
                } else {
                    self.end_turn();
                }
                Ok(())
            }
            (Phase::Verdict, _) => Err(TokenError::MustRollVerdict {
                chance: self.chance,
                side: self.side,
            }),
            (Phase::Decide | Phase::Move, Token::Move(m)) => {
                if self.moves().contains(&m) {
                    self.after_move(m);
                    Ok(())
                } else {
                    Err(TokenError::Illegal(m.notation(self.side)))
                }
            }
            (Phase::Move, Token::Verdict(_)) => Err(if self.promoted {
                TokenError::VerdictAlreadyRolled
            } else {
                TokenError::VerdictNotAllowed
            }),
            (Phase::Decide | Phase::Move, _) => Err(TokenError::MustMove(self.side)),
        }
    }
}
