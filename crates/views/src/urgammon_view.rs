//! The Urgammon views.

use serde::Serialize;
use std::collections::BTreeMap;
use urgammon::{Kind, Match, Side, State};

/// Counts per Urgammon piece type.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_snake_case)]
pub struct PieceCounts {
    /// Pawns.
    pub P: u8,
    /// Chariots.
    pub C: u8,
    /// Heroes.
    pub H: u8,
}

/// Where one Urgammon side's pieces are.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct ArmyView {
    /// The pieces on the board: house → piece letter.
    pub board: BTreeMap<String, String>,
    /// Pieces waiting to enter.
    pub waiting: PieceCounts,
    /// Pieces borne off.
    pub palace: PieceCounts,
    /// The steps still to travel to the palace, 17 for each waiting piece
    /// and 17 − progress for each on the board: the race count a
    /// backgammon player knows as the pip count.
    pub pips: u32,
}

/// A finished Urgammon game's result.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResultView {
    /// `light` or `dark` (none for a draw).
    pub winner: Option<&'static str>,
    /// The points.
    pub points: u8,
    /// `plain`, `streets`, `waiting`, `babylon` or `draw`.
    pub kind: &'static str,
}

/// One Urgammon game state: the `agon urgammon legal` object.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct UrgammonState {
    /// The side to act.
    pub to_act: Option<&'static str>,
    /// `opening`, `roll`, `decide`, `verdict`, `move` or `over`.
    pub phase: &'static str,
    /// The binding value.
    pub value: Option<u8>,
    /// The chance roll of the turn.
    pub chance: Option<u8>,
    /// The legal moves with the value, sorted.
    pub moves: Vec<String>,
    /// The legal moves with the promoted value (a YES), sorted.
    pub promoted_moves: Vec<String>,
    /// The other side has finished: this is the compensation turn.
    pub last_turn: bool,
    /// Who started the game.
    pub starter: Option<&'static str>,
    /// The result, once the game is over.
    pub result: Option<ResultView>,
    /// Light's pieces.
    pub light: ArmyView,
    /// Dark's pieces.
    pub dark: ArmyView,
}

fn sorted_notation(list: &[urgammon::Move], side: Option<Side>) -> Vec<String> {
    let Some(side) = side else { return vec![] };
    let mut v: Vec<String> = list.iter().map(|m| m.notation(side)).collect();
    v.sort_unstable();
    v
}

/// The views of a move list, sorted by notation.
fn move_views(list: &[urgammon::Move], side: Option<Side>) -> Vec<UrgammonMoveView> {
    let Some(side) = side else { return vec![] };
    let mut v: Vec<UrgammonMoveView> = list.iter().map(|m| UrgammonMoveView::of(m, side)).collect();
    v.sort_by(|a, b| a.notation.cmp(&b.notation));
    v
}

fn counts(f: impl Fn(Kind) -> u8) -> PieceCounts {
    PieceCounts {
        P: f(Kind::Pawn),
        C: f(Kind::Chariot),
        H: f(Kind::Hero),
    }
}

impl UrgammonState {
    /// The view of a game state.
    pub fn of(state: &State) -> UrgammonState {
        let side = state.to_act();
        let army = |s: Side| {
            let a = state.position().army(s);
            ArmyView {
                board: a
                    .on_board()
                    .map(|(p, k)| (urgammon::house_at(s, p).to_string(), k.letter().to_string()))
                    .collect(),
                waiting: counts(|k| a.waiting(k)),
                palace: counts(|k| a.palace(k)),
                pips: a.pips(),
            }
        };
        UrgammonState {
            to_act: side.map(Side::name),
            phase: state.phase().name(),
            value: state.value(),
            chance: state.chance(),
            moves: sorted_notation(&state.moves(), side),
            promoted_moves: sorted_notation(&state.promoted_moves(), side),
            last_turn: state.last_turn(),
            starter: state.starter().map(Side::name),
            result: state.result().map(|r| ResultView {
                winner: r.winner.map(Side::name),
                points: r.points,
                kind: r.kind.name(),
            }),
            light: army(Side::Light),
            dark: army(Side::Dark),
        }
    }
}

/// Light's and dark's points.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Score {
    /// Light's points.
    pub light: u32,
    /// Dark's points.
    pub dark: u32,
}

/// A finished game of a match (its fields are all set; they are options for
/// the sake of the shape older clients read).
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinishedGame {
    /// The winner (none for a draw).
    pub winner: Option<&'static str>,
    /// The points.
    pub points: Option<u8>,
    /// How it was won.
    pub kind: Option<&'static str>,
}

/// An Urgammon match: score, target, result and payout.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct MatchView {
    /// The target.
    pub to: u32,
    /// `replay` or `end`.
    pub draw: &'static str,
    /// The stake per point, if any.
    pub stake: Option<String>,
    /// The score.
    pub score: Score,
    /// Games begun, the current one included.
    pub games: usize,
    /// The match is over.
    pub over: bool,
    /// The match's winner.
    pub winner: Option<&'static str>,
    /// What the loser pays.
    pub payout: Option<String>,
    /// The games before the current one.
    pub results: Vec<FinishedGame>,
    /// The side that resigned the match, if one did (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resigned: Option<&'static str>,
}

impl MatchView {
    /// The view of a match.
    pub fn of(m: &Match) -> MatchView {
        let r = m.result();
        MatchView {
            to: m.settings().to,
            draw: m.settings().draw.name(),
            stake: m.settings().stake.map(|s| s.to_string()),
            score: Score {
                light: m.score()[Side::Light],
                dark: m.score()[Side::Dark],
            },
            games: m.finished().len() + 1,
            over: r.is_some(),
            winner: r.and_then(|r| r.winner).map(Side::name),
            payout: r.and_then(|r| r.payout).map(|p| p.to_string()),
            results: m
                .finished()
                .iter()
                .map(|g| {
                    let r = g.state().result();
                    FinishedGame {
                        winner: r.and_then(|r| r.winner).map(Side::name),
                        points: r.map(|r| r.points),
                        kind: r.map(|r| r.kind.name()),
                    }
                })
                .collect(),
            resigned: None,
        }
    }
}

/// The dice of the turn in progress, or of the last turn.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiceView {
    /// The last chance roll (or opening value).
    pub chance: Option<u8>,
    /// Whether the verdict die followed it, and what it said.
    pub verdict: Option<bool>,
}

/// The last Urgammon move.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct UrgammonLastMove {
    /// Who played it.
    pub side: &'static str,
    /// From which house (none for an entry).
    pub from: Option<String>,
    /// To which house (none for a bear-off).
    pub to: Option<String>,
    /// Its notation.
    pub notation: String,
}

/// Urgammon for the web: the current game's state, the match, the tokens of
/// the current game, the last dice and the last move.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct UrgammonMatch {
    /// The current game's state.
    #[serde(flatten)]
    pub state: UrgammonState,
    /// The match.
    #[serde(rename = "match")]
    pub match_: MatchView,
    /// The match header.
    pub settings: String,
    /// The current game's tokens.
    pub tokens: Vec<String>,
    /// The last dice.
    pub dice: DiceView,
    /// The last move of the current game.
    pub last_move: Option<UrgammonLastMove>,
    /// The verdict die may be rolled now.
    pub verdict_allowed: bool,
    /// The verdict die must be rolled now.
    pub verdict_forced: bool,
    /// The legal moves with their houses, so a page never parses notation.
    pub legal: Vec<UrgammonMoveView>,
    /// The moves a YES on the verdict die would allow.
    pub promoted_legal: Vec<UrgammonMoveView>,
    /// The current game, turn by turn: who rolled what and moved what.
    pub log: Vec<UrgammonTurn>,
    /// Each side's path, house by house (progress 1 to 16).
    pub paths: Paths,
    /// Why the match ended other than by its points: `resignation`, `time`
    /// (a flag fell) or `abort`; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
}

/// An Urgammon move with its piece and houses.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct UrgammonMoveView {
    /// Its notation, as the API takes it.
    pub notation: String,
    /// The moving piece: `P`, `C` or `H`.
    pub piece: char,
    /// The house it leaves (none for an entry from the waiting area).
    pub from: Option<String>,
    /// The house it reaches (none for a bear-off to the palace).
    pub to: Option<String>,
    /// The enemy piece it captures: `P`, `C` or `H`.
    pub captured: Option<char>,
}

impl UrgammonMoveView {
    /// The view of `m` played by `side`.
    pub fn of(m: &urgammon::Move, side: Side) -> UrgammonMoveView {
        UrgammonMoveView {
            notation: m.notation(side),
            piece: m.piece.letter(),
            from: m.from_house(side).map(|h| h.to_string()),
            to: m.to_house(side).map(|h| h.to_string()),
            captured: m.captured.map(Kind::letter),
        }
    }
}

/// One turn of an Urgammon game: a roll (or the opening roll), the verdict
/// die if rolled, the value played and the move made.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct UrgammonTurn {
    /// The turn number, from 1.
    pub turn: usize,
    /// Who rolled (none for a tied opening roll).
    pub side: Option<&'static str>,
    /// The opening roll: light's, then dark's.
    pub opening: Option<[u8; 2]>,
    /// Tied opening rolls before this one (each side rolls again on a tie).
    #[serde(skip_serializing_if = "is_zero")]
    pub ties: u32,
    /// The chance roll (for the opening: the lower roll, which the starter plays).
    pub roll: Option<u8>,
    /// The verdict die, if rolled: YES (true) or NO.
    pub verdict: Option<bool>,
    /// The value moved with (the promoted value after a YES).
    pub value: Option<u8>,
    /// The move made, if any.
    pub moves: Vec<UrgammonMoveView>,
    /// The record's length once this turn's last token is played, counted
    /// through the whole match: `GET /api/games/{id}/at/{ply}` shows the
    /// position after the turn (the game page opens it from its log).
    pub ply: usize,
}

/// Each side's path: the houses at progress 1 to 16.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Paths {
    /// Light's path.
    pub light: Vec<String>,
    /// Dark's path.
    pub dark: Vec<String>,
}

impl Paths {
    /// Both paths.
    pub fn new() -> Paths {
        let path = |s: Side| {
            (1..=16)
                .map(|p| urgammon::house_at(s, p).to_string())
                .collect()
        };
        Paths {
            light: path(Side::Light),
            dark: path(Side::Dark),
        }
    }
}

impl Default for Paths {
    fn default() -> Paths {
        Paths::new()
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// The game's turns, replayed from its tokens, which follow `offset` tokens
/// of the match's earlier games. Tied opening rolls are counted, not listed:
/// a record may hold thousands of them.
fn turns(start: &State, tokens: &[urgammon::Token], offset: usize) -> Vec<UrgammonTurn> {
    let mut out: Vec<UrgammonTurn> = vec![];
    let mut ties = 0;
    let mut replay = urgammon::Game::from_state(*start);
    for (i, t) in tokens.iter().enumerate() {
        let side = replay.state().to_act();
        let row = |opening, roll, side: Option<Side>, n| UrgammonTurn {
            turn: n,
            side: side.map(Side::name),
            opening,
            ties: 0,
            roll,
            verdict: None,
            value: None,
            moves: vec![],
            ply: 0,
        };
        match *t {
            urgammon::Token::Start(..) if !t.opens_turn() => ties += 1,
            urgammon::Token::Start(l, d) => {
                let starter = if l < d { Side::Light } else { Side::Dark };
                let mut first = row(Some([l, d]), Some(l.min(d)), Some(starter), out.len() + 1);
                first.ties = ties;
                out.push(first);
            }
            urgammon::Token::Roll(c) => out.push(row(None, Some(c), side, out.len() + 1)),
            urgammon::Token::Verdict(_) | urgammon::Token::Move(_) => {}
        }
        if replay.apply(*t).is_err() {
            break;
        }
        let state = replay.state();
        if let Some(last) = out.last_mut() {
            last.ply = offset + i + 1;
            match *t {
                urgammon::Token::Verdict(yes) => {
                    last.verdict = Some(yes);
                    if yes {
                        last.value = state.value();
                    }
                }
                urgammon::Token::Move(m) => {
                    if let Some(s) = side {
                        last.moves.push(UrgammonMoveView::of(&m, s));
                    }
                }
                _ => last.value = last.value.or(state.value()),
            }
        }
    }
    out
}

impl UrgammonMatch {
    /// The view of a match for the web.
    pub fn of(m: &Match) -> UrgammonMatch {
        let game = m.current();
        // The match record is its games' tokens one after another.
        let earlier = m.finished().iter().map(|g| g.tokens().len()).sum();
        // The dice of the turn in progress, or of the last turn: the last
        // chance roll (or opening value) and whether the verdict die followed.
        let mut dice = DiceView {
            chance: None,
            verdict: None,
        };
        let mut last_move = None;
        let mut replay = urgammon::Game::new();
        for t in game.tokens() {
            let side = replay.state().to_act();
            match *t {
                urgammon::Token::Start(l, d) if l != d => {
                    dice = DiceView {
                        chance: Some(l.min(d)),
                        verdict: None,
                    };
                }
                urgammon::Token::Roll(c) => {
                    dice = DiceView {
                        chance: Some(c),
                        verdict: None,
                    };
                }
                urgammon::Token::Verdict(y) => dice.verdict = Some(y),
                urgammon::Token::Move(mv) => {
                    if let Some(s) = side {
                        last_move = Some(UrgammonLastMove {
                            side: s.name(),
                            from: mv.from_house(s).map(|h| h.to_string()),
                            to: mv.to_house(s).map(|h| h.to_string()),
                            notation: mv.notation(s),
                        });
                    }
                }
                _ => {}
            }
            let _ = replay.apply(*t);
        }
        let phase = game.state().phase();
        UrgammonMatch {
            state: UrgammonState::of(game.state()),
            match_: MatchView::of(m),
            settings: m.settings().header(),
            tokens: game.token_texts().to_vec(),
            dice,
            last_move,
            verdict_allowed: matches!(phase, urgammon::Phase::Decide | urgammon::Phase::Verdict),
            verdict_forced: phase == urgammon::Phase::Verdict,
            legal: move_views(&game.state().moves(), game.state().to_act()),
            promoted_legal: move_views(&game.state().promoted_moves(), game.state().to_act()),
            log: turns(game.start(), game.tokens(), earlier),
            paths: Paths::new(),
            reason: None,
        }
    }
}

/// One Urgammon game on the analysis board (which may start from a set-up
/// position): the state, its legal moves, the dice, the turns and the paths.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct UrgammonBoard {
    /// The state.
    #[serde(flatten)]
    pub state: UrgammonState,
    /// The tokens after the start.
    pub tokens: Vec<String>,
    /// The last dice.
    pub dice: DiceView,
    /// The last move.
    pub last_move: Option<UrgammonLastMove>,
    /// The verdict die may be rolled now.
    pub verdict_allowed: bool,
    /// The legal moves with their houses.
    pub legal: Vec<UrgammonMoveView>,
    /// The moves a YES would allow.
    pub promoted_legal: Vec<UrgammonMoveView>,
    /// The game turn by turn.
    pub log: Vec<UrgammonTurn>,
    /// Both paths.
    pub paths: Paths,
    /// The position as a set-up text, when it is about to roll (for links).
    pub setup: Option<String>,
}

impl UrgammonBoard {
    /// The board view of a game.
    pub fn of(game: &urgammon::Game) -> UrgammonBoard {
        let state = game.state();
        let log = turns(game.start(), game.tokens(), 0);
        let last_turn = log.last();
        let side = state.to_act();
        UrgammonBoard {
            state: UrgammonState::of(state),
            tokens: game.token_texts().to_vec(),
            dice: DiceView {
                chance: last_turn.and_then(|t| t.roll),
                verdict: last_turn.and_then(|t| t.verdict),
            },
            last_move: last_turn.and_then(|t| {
                let m = t.moves.last()?;
                Some(UrgammonLastMove {
                    side: t.side?,
                    from: m.from.clone(),
                    to: m.to.clone(),
                    notation: m.notation.clone(),
                })
            }),
            verdict_allowed: matches!(
                state.phase(),
                urgammon::Phase::Decide | urgammon::Phase::Verdict
            ),
            legal: move_views(&state.moves(), side),
            promoted_legal: move_views(&state.promoted_moves(), side),
            log,
            paths: Paths::new(),
            setup: urgammon::setup_text(state),
        }
    }
}
