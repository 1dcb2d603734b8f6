//! The game state: where the pieces are, and the turn state machine of sections
//! 4 and 5 (chance roll, verdict die, moves, rosette bonuses, the opening roll,
//! the compensation turn) with the scoring of section 6.
//!
//! Dice are inputs: [`State::apply`] takes the tokens of a record (`start:L-D`,
//! `r1`…`r4`, `v+`/`v-`, moves), so the same tokens always give the same game.

use crate::board::{
    house_at, progress_of, promote, BySide, House, Kind, Side, CROSS, PALACE, ROSETTE,
};
use std::fmt;

/// A move: a step, an entry (`from` 0), or a bear-off (`to` 17).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// The moving piece.
    pub piece: Kind,
    /// Its progress before the move (0 for an entry from the waiting area).
    pub from: u8,
    /// Its progress after (17 = the palace).
    pub to: u8,
    /// The captured enemy piece, if any.
    pub captured: Option<Kind>,
}

impl Move {
    /// Writes the move for `side`: `P-2a`, `Cx6`, `2a-3a`, `5x9`, `13b-off`.
    pub fn notation(&self, side: Side) -> String {
        let sep = if self.captured.is_some() { 'x' } else { '-' };
        let from = if self.from == 0 {
            self.piece.letter().to_string()
        } else {
            house_at(side, self.from).to_string()
        };
        let to = if self.to == PALACE {
            "off".to_string()
        } else {
            house_at(side, self.to).to_string()
        };
        format!("{from}{sep}{to}")
    }

    /// The house the move ends on (`None` for a bear-off).
    pub fn to_house(&self, side: Side) -> Option<House> {
        (self.to < PALACE).then(|| house_at(side, self.to))
    }

    /// The house the move starts from (`None` for an entry).
    pub fn from_house(&self, side: Side) -> Option<House> {
        (self.from > 0).then(|| house_at(side, self.from))
    }
}

/// At most one move per piece on the board, plus three entries: 8 is plenty.
pub const MAX_MOVES: usize = 10;

/// A fixed-capacity move list, so generation never allocates.
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: u8,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList {
            moves: [Move {
                piece: Kind::Pawn,
                from: 0,
                to: 0,
                captured: None,
            }; MAX_MOVES],
            len: 0,
        }
    }
}

impl MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len as usize) {
            *slot = m;
            self.len += 1;
        }
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }
}

/// Where one side's pieces are.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Army {
    /// `cells[progress]` for progress 1..=16: 0 empty, else the kind + 1.
    cells: [u8; 17],
    /// Bit `p` set when `cells[p]` holds a piece: move generation walks only these.
    mask: u32,
    /// Pieces in the waiting area, by kind.
    waiting: [u8; 3],
    /// Pieces in the palace, by kind.
    palace: [u8; 3],
}

impl Army {
    const START: Army = Army {
        cells: [0; 17],
        mask: 0,
        waiting: [3, 3, 1],
        palace: [0; 3],
    };

    /// The piece at a progress 1..=16.
    #[inline]
    pub fn at(&self, progress: u8) -> Option<Kind> {
        match self.cells.get(progress as usize).copied().unwrap_or(0) {
            0 => None,
            k => Some(Kind::from_index(k - 1)),
        }
    }

    /// Waiting pieces of a kind.
    pub fn waiting(&self, kind: Kind) -> u8 {
        self.waiting[kind as usize]
    }

    /// Pieces of a kind in the palace.
    pub fn palace(&self, kind: Kind) -> u8 {
        self.palace[kind as usize]
    }

    /// All waiting pieces.
    pub fn waiting_total(&self) -> u8 {
        self.waiting.iter().sum()
    }

    /// All pieces in the palace.
    pub fn palace_total(&self) -> u8 {
        self.palace.iter().sum()
    }

    /// The pieces on the board as (progress, kind).
    pub fn on_board(&self) -> impl Iterator<Item = (u8, Kind)> + '_ {
        (1..=16u8).filter_map(|p| self.at(p).map(|k| (p, k)))
    }

    /// The occupied progresses as bits (bit `p` for progress `p`, 1..=16), for
    /// callers that walk the pieces fast (evaluation features).
    #[inline]
    pub fn mask(&self) -> u32 {
        self.mask
    }

    /// True when a piece stands at a progress 1..=16.
    #[inline]
    pub fn occupied(&self, progress: u8) -> bool {
        self.mask & (1u32 << (progress & 31)) != 0
    }
}

/// The placement of both armies.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    armies: BySide<Army>,
}

impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}

impl Position {
    /// Every piece waiting.
    pub const START: Position = Position {
        armies: BySide {
            light: Army::START,
            dark: Army::START,
        },
    };

    /// Builds a position from the pieces on the board and in the palace; every
    /// other piece is waiting.
    ///
    /// # Errors
    /// Two pieces on one house, a house off the side's path, or more pieces of a
    /// kind than a side has.
    pub fn setup(
        board: &[(Side, House, Kind)],
        palace: &[(Side, Kind, u8)],
    ) -> Result<Position, String> {
        let mut pos = Position::START;
        let mut used = [false; 20];
        let take = |pos: &mut Position, side: Side, kind: Kind, n: u8| -> Result<(), String> {
            let w = &mut pos.armies[side].waiting[kind as usize];
            *w = w.checked_sub(n).ok_or_else(|| {
                format!("{} has only {} {}s", side.name(), kind.count(), kind.name())
            })?;
            Ok(())
        };
        for &(side, house, kind) in board {
            let p = progress_of(side, house)
                .ok_or_else(|| format!("{house} is not on {}'s path", side.name()))?;
            if std::mem::replace(&mut used[house.index()], true) {
                return Err(format!("two pieces on {house}"));
            }
            take(&mut pos, side, kind, 1)?;
            pos.armies[side].cells[p as usize] = kind as u8 + 1;
            pos.armies[side].mask |= 1 << p;
        }
        for &(side, kind, n) in palace {
            take(&mut pos, side, kind, n)?;
            pos.armies[side].palace[kind as usize] += n;
        }
        Ok(pos)
    }

    /// One side's pieces.
    pub fn army(&self, side: Side) -> &Army {
        &self.armies[side]
    }

    /// The piece on a house, with its side.
    pub fn at(&self, house: House) -> Option<(Side, Kind)> {
        Side::ALL.into_iter().find_map(|s| {
            progress_of(s, house)
                .and_then(|p| self.armies[s].at(p))
                .map(|k| (s, k))
        })
    }

    /// The legal moves of `side` with value `v` into `out`. `promoted` says the
    /// value came from the verdict die: then pawns cannot enter and nothing bears
    /// off, and chariots (5–7) and the hero (10) may enter.
    pub fn moves(&self, side: Side, v: u8, promoted: bool, out: &mut MoveList) {
        out.len = 0;
        let own = &self.armies[side];
        let enemy = &self.armies[side.other()];
        let cross = &CROSS[side.index()];
        let rosette = &ROSETTE[side.index()];
        // A step or entry onto progress `t`: not onto an own piece; onto an enemy
        // only where the capture table allows and the house is not a rosette.
        let target = |t: u8, piece: Kind| -> Option<Option<Kind>> {
            if own.mask & (1 << t) != 0 {
                return None;
            }
            let e = enemy.cells[cross[t as usize] as usize];
            if cross[t as usize] == 0 || e == 0 {
                return Some(None);
            }
            let victim = Kind::from_index(e - 1);
            (!rosette[t as usize] && piece.captures(victim)).then_some(Some(victim))
        };
        let last_piece = own.palace_total() == 6;
        let mut mask = own.mask;
        while mask != 0 {
            let from = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            let piece = Kind::from_index(own.cells[from as usize] - 1);
            let t = from + v;
            if t < PALACE {
                if let Some(captured) = target(t, piece) {
                    out.push(Move {
                        piece,
                        from,
                        to: t,
                        captured,
                    });
                }
            } else if !promoted && (t == PALACE || last_piece) {
                // Bear-off: exact, or greater for the last piece; never promoted.
                out.push(Move {
                    piece,
                    from,
                    to: PALACE,
                    captured: None,
                });
            }
        }
        let pawns_waiting = own.waiting[Kind::Pawn as usize] > 0;
        let entry = match (promoted, v) {
            (false, 1..=4) if pawns_waiting => Some(Kind::Pawn),
            (true, 5..=7) if !pawns_waiting && own.waiting[Kind::Chariot as usize] > 0 => {
                Some(Kind::Chariot)
            }
            (true, 10) if !pawns_waiting && own.waiting[Kind::Hero as usize] > 0 => {
                Some(Kind::Hero)
            }
            _ => None,
        };
        if let Some(piece) = entry {
            if let Some(captured) = target(v, piece) {
                out.push(Move {
                    piece,
                    from: 0,
                    to: v,
                    captured,
                });
            }
        }
    }

    /// Plays a move of `side` (from [`Position::moves`]). Returns true when it
    /// ended on a rosette.
    pub(crate) fn play(&mut self, side: Side, m: Move) -> bool {
        let kind = m.piece as usize;
        {
            let own = &mut self.armies[side];
            if m.from == 0 {
                own.waiting[kind] -= 1;
            } else {
                own.cells[m.from as usize] = 0;
                own.mask &= !(1 << m.from);
            }
            if m.to == PALACE {
                own.palace[kind] += 1;
                return false;
            }
            own.cells[m.to as usize] = kind as u8 + 1;
            own.mask |= 1 << m.to;
        }
        let house = house_at(side, m.to);
        if let Some(victim) = m.captured {
            let enemy = &mut self.armies[side.other()];
            if let Some(ep) = progress_of(side.other(), house) {
                enemy.cells[ep as usize] = 0;
                enemy.mask &= !(1 << ep);
            }
            enemy.waiting[victim as usize] += 1;
        }
        house.is_rosette()
    }

    /// The points a loss scores, judged from the loser's position (section 6):
    /// 4 Babylon, 3 waiting, 2 streets, 1 plain.
    pub fn loss_points(&self, loser: Side) -> (u8, ResultKind) {
        let army = &self.armies[loser];
        if army.palace_total() == 0 {
            (4, ResultKind::Babylon)
        } else if army.waiting_total() > 0 {
            (3, ResultKind::Waiting)
        } else if army.mask & 0b111_1111_1110 != 0 {
            // A piece at progress 1..=10: the lower city or the bridge.
            (2, ResultKind::Streets)
        } else {
            (1, ResultKind::Plain)
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ResultKind {
    /// 1 point.
    Plain,
    /// 2 points: dogs in the streets (*psy na ulicach*).
    Streets,
    /// 3 points: dogs in the waiting area (*psy na przedpolu*).
    Waiting,
    /// 4 points: Babylon (*Babilon*).
    Babylon,
    /// Both finished: no points.
    Draw,
}

impl ResultKind {
    /// `"plain"`, `"streets"`, `"waiting"`, `"babylon"` or `"draw"`.
    pub const fn name(self) -> &'static str {
        match self {
            ResultKind::Plain => "plain",
            ResultKind::Streets => "streets",
            ResultKind::Waiting => "waiting",
            ResultKind::Babylon => "babylon",
            ResultKind::Draw => "draw",
        }
    }
}

/// A finished game's result.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GameResult {
    /// The winner (`None` for a draw).
    pub winner: Option<Side>,
    /// Points won: 1–4, or 0 for a draw.
    pub points: u8,
    /// What kind of win.
    pub kind: ResultKind,
}

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

/// Why a token cannot be applied.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TokenError(pub String);

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TokenError {}

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
    pub fn from_position(pos: Position, to_roll: Side, starter: Side) -> State {
        State {
            pos,
            phase: Phase::Roll,
            side: to_roll,
            starter: Some(starter),
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
        let err = |s: String| Err(TokenError(s));
        match (self.phase, token) {
            (Phase::Over, _) => err("the game is over".into()),
            (Phase::Opening, Token::Start(l, d)) => {
                if !(1..=4).contains(&l) || !(1..=4).contains(&d) {
                    return err("opening rolls are 1 to 4".into());
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
            (Phase::Opening, _) => err("the game starts with the opening roll, start:L-D".into()),
            (Phase::Roll, Token::Roll(c)) if (1..=4).contains(&c) => {
                self.after_chance(c);
                Ok(())
            }
            (Phase::Roll, Token::Roll(c)) => err(format!("the chance die shows 1 to 4, not {c}")),
            (Phase::Roll, _) => err(format!(
                "{} must roll the chance die (r1-r4)",
                self.side.name()
            )),
            (Phase::Decide | Phase::Verdict, Token::Verdict(yes)) => {
                if yes {
                    self.promoted = true;
                    self.phase = Phase::Move;
                } else {
                    self.end_turn();
                }
                Ok(())
            }
            (Phase::Verdict, _) => err(format!(
                "no move with {}; {} must roll the verdict die (v+ or v-)",
                self.chance,
                self.side.name()
            )),
            (Phase::Decide | Phase::Move, Token::Move(m)) => {
                if self.moves().contains(&m) {
                    self.after_move(m);
                    Ok(())
                } else {
                    err(format!(
                        "{} is not a legal move here",
                        m.notation(self.side)
                    ))
                }
            }
            (Phase::Move, Token::Verdict(_)) => err(if self.promoted {
                "the verdict die was already rolled this turn".into()
            } else {
                "the verdict die may not be rolled: no promoted move exists".into()
            }),
            (Phase::Decide | Phase::Move, _) => {
                err(format!("{} must play a move", self.side.name()))
            }
        }
    }
}
