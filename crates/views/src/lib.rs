//! # The shared JSON views
//!
//! The shapes in which the `agon` CLI (`ringo legal`, `urgammon legal`) and
//! the web app describe a game, as typed `Serialize` structs, so both say the
//! same thing in the same words. This crate depends only on the rules crates:
//! the CLI uses it without the web server.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

use serde::Serialize;
use std::collections::BTreeMap;
use urgammon::{Kind, Match, Side, State};

/// A Ringo game: the `agon ringo legal` object (position, side to move,
/// status, sorted legal moves) plus the history and counts a board needs.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct RingoGame {
    /// The rules string.
    pub rules: String,
    /// Rings around the fortress.
    pub rings: u8,
    /// The position in notation.
    pub position: String,
    /// The start position in notation.
    pub start_position: String,
    /// `attackers` or `defenders`.
    pub to_move: &'static str,
    /// `ongoing`, `attackers-win`, `defenders-win` or `draw`.
    pub status: &'static str,
    /// Why the game ended, once it has.
    pub reason: Option<&'static str>,
    /// Moves played.
    pub ply: usize,
    /// The legal moves, sorted.
    pub moves: Vec<String>,
    /// The moves played, in notation.
    pub history: Vec<String>,
    /// The last move's cells.
    pub last_move: Option<RingoLastMove>,
    /// Pieces captured so far, by whose pieces they were.
    pub captured: RingoCaptured,
    /// Attackers in the fortress.
    pub fortress: u8,
}

/// The cells of the last Ringo move.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct RingoLastMove {
    /// Where it came from (none for a pass).
    pub from: Option<String>,
    /// Where it went.
    pub to: Option<String>,
    /// The captured piece's cell.
    pub captured: Option<String>,
}

/// Ringo pieces captured so far.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct RingoCaptured {
    /// Attackers taken off the board.
    pub attackers: u32,
    /// Defenders taken off the board.
    pub defenders: u32,
}

impl RingoGame {
    /// The view of a game.
    pub fn of(game: &ringo::Game) -> RingoGame {
        let pos = game.position();
        let rules = game.rules();
        RingoGame {
            rules: rules.to_string(),
            rings: rules.rings,
            position: pos.to_text(rules.rings),
            start_position: game.start_position().to_text(rules.rings),
            to_move: pos.to_move().name(),
            status: game.status_name(),
            reason: game.outcome().map(|o| o.reason.name()),
            ply: game.ply(),
            moves: game.legal_notations(),
            history: game.move_notations(),
            last_move: game.moves().last().map(|m| RingoLastMove {
                from: m.from().map(|c| c.to_string()),
                to: m.to().map(|c| c.to_string()),
                captured: m.captured().map(|c| c.to_string()),
            }),
            captured: RingoCaptured {
                attackers: u32::from(rules.attackers).saturating_sub(pos.attackers_left()),
                defenders: 4u32.saturating_sub(pos.defenders_left()),
            },
            fortress: pos.fortress(),
        }
    }
}

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
}

impl UrgammonMatch {
    /// The view of a match for the web.
    pub fn of(m: &Match) -> UrgammonMatch {
        let game = m.current();
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_views_keep_their_json_shapes() {
        let game = ringo::Game::parse_record("classic b6-b5").unwrap();
        let v = serde_json::to_value(RingoGame::of(&game)).unwrap();
        assert_eq!(v["history"], serde_json::json!(["b6-b5"]));
        assert_eq!(v["last_move"]["to"], "b5");
        assert_eq!(
            v["captured"],
            serde_json::json!({"attackers": 0, "defenders": 0})
        );
        let m = Match::parse("urgammon match to=3 draw=end stake=5\nstart:2-3 P-2a").unwrap();
        let v = serde_json::to_value(UrgammonMatch::of(&m)).unwrap();
        assert_eq!(v["to_act"], "dark");
        assert_eq!(
            v["match"]["score"],
            serde_json::json!({"light": 0, "dark": 0})
        );
        assert_eq!(v["light"]["board"], serde_json::json!({"2a": "P"}));
        assert_eq!(v["light"]["waiting"]["P"], 2, "three pawns, one entered");
        assert_eq!(v["dice"]["chance"], 2);
        assert_eq!(v["last_move"]["notation"], "P-2a");
    }
}
