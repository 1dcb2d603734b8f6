//! Game review for Urgammon, after GNU Backgammon's match analysis: every
//! decision (each move, and each choice between a move and the verdict die)
//! against the engine's best, each roll's luck, each side's error rate and
//! rating, the luck-adjusted result and light's win chance over the game.
//!
//! # Losses and grades
//! A decision's **equity loss** is the best option's expected points minus
//! the played option's (0 when the played option is the best); in a match the
//! engine's "best" is the best for the match-winning chance, and the
//! **MWC loss** is that chance lost. Grades by equity loss: best, excellent
//! (< 0.01), good (< 0.02), inaccuracy (< 0.04), mistake (< 0.08), blunder
//! (≥ 0.08): gnubg's "doubtful / bad / very bad" bands of 0.04, 0.08 and 0.16
//! halved, since an Urgammon decision is smaller than a backgammon one.
//!
//! # Error rate and rating
//! A side's **error rate** is its total equity loss per non-trivial decision
//! (one with two or more options), in thousandths of a point, and its rating
//! follows gnubg's scale: Supernatural (< 2), World class (< 5), Expert (< 8),
//! Advanced (< 12), Intermediate (< 18), Casual player (< 26), Beginner
//! (< 35), Awful.
//!
//! # Luck
//! A chance roll's **luck** for the roller is the value of the position after
//! it (the best decision taken) minus the mean of that value over the four
//! faces weighted by their chances; a verdict die's luck is the value after
//! what it said minus 4/6 of YES and 2/6 of NO. Values are points in money
//! play and match-winning chances in a match. A side's **luck** is its rolls'
//! luck less its opponent's; its **luck-adjusted result** is its net points
//! minus that.

use super::eval::Outcomes;
use super::player::Decision;
use super::{analyze, MatchContext, Payoff};
pub use crate::review::Grade;
use crate::Level;
use urgammon::{Game, Match, Phase, Side, State, Token};

/// Urgammon's grade thresholds: equity losses in points.
pub const THRESHOLDS: [f64; 4] = [0.01, 0.02, 0.04, 0.08];

/// The default level of a review: the network with its full look-ahead.
pub const LEVEL: u8 = 10;

/// What kind of decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A move was played (the verdict die was the alternative, if allowed).
    Move,
    /// The verdict die was rolled instead of a move.
    Verdict,
}

/// One reviewed decision.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedDecision {
    /// The game of the match, from 1.
    pub game: usize,
    /// The token's index in its game's record.
    pub index: usize,
    /// The token's index in the whole match record.
    pub ply: usize,
    /// The turn of its game the token belongs to, from 1, as the game's
    /// log numbers it (`Token::opens_turn`).
    pub turn: usize,
    /// Who decided.
    pub side: Side,
    /// A move, or the verdict die.
    pub kind: Kind,
    /// What was played (a move's notation, or `verdict`).
    pub played: String,
    /// The engine's choice.
    pub best: String,
    /// Every option with its expected points for the decider, best first.
    pub options: Vec<(String, f64)>,
    /// Expected points lost.
    pub equity_loss: f64,
    /// Match-winning chance lost (in a match).
    pub mwc_loss: Option<f64>,
    /// The grade.
    pub grade: Grade,
    /// Whether there was a choice at all.
    pub trivial: bool,
    /// True when the options' values are exact (every line played out to
    /// the game's end or the endings' tables): the loss is then measured
    /// against the exact value, not the engine's estimate.
    pub exact: bool,
}

/// One die's luck.
#[derive(Clone, Debug, PartialEq)]
pub struct Roll {
    /// The game of the match, from 1.
    pub game: usize,
    /// The token's index in its game's record.
    pub index: usize,
    /// The token's index in the whole match record.
    pub ply: usize,
    /// The turn of its game the token belongs to, from 1, as the game's
    /// log numbers it (`Token::opens_turn`).
    pub turn: usize,
    /// Who rolled.
    pub side: Side,
    /// The token: `r3`, `v+`, `v-`.
    pub token: String,
    /// The roller's luck, in points.
    pub luck: f64,
}

/// Light's win chance at a point of the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    /// The game of the match, from 1.
    pub game: usize,
    /// The token's index in its game's record.
    pub index: usize,
    /// The token's index in the whole match record.
    pub ply: usize,
    /// The turn of its game the token belongs to, from 1, as the game's
    /// log numbers it (`Token::opens_turn`).
    pub turn: usize,
    /// Light's chance to win the game.
    pub win: f64,
}

/// A whole review.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Every decision.
    pub decisions: Vec<ReviewedDecision>,
    /// Every die's luck.
    pub rolls: Vec<Roll>,
    /// Light's win chance, decision by decision.
    pub win_curve: Vec<CurvePoint>,
    /// Points each side won over the reviewed games (light, dark).
    pub points: (f64, f64),
    /// The level the review used.
    pub level: u8,
}

impl Review {
    /// A review with nothing in it yet.
    fn empty(level: Level) -> Review {
        Review {
            decisions: vec![],
            rolls: vec![],
            win_curve: vec![],
            points: (0.0, 0.0),
            level: level.get(),
        }
    }

    /// A side's error rate: thousandths of a point lost per non-trivial decision.
    pub fn error_rate(&self, side: Side) -> f64 {
        let mine: Vec<&ReviewedDecision> = self
            .decisions
            .iter()
            .filter(|d| d.side == side && !d.trivial)
            .collect();
        if mine.is_empty() {
            return 0.0;
        }
        1000.0 * mine.iter().map(|d| d.equity_loss).sum::<f64>() / mine.len() as f64
    }

    /// A side's net luck: its rolls' luck less the opponent's (the game is
    /// zero-sum, so the opponent's good luck is this side's bad luck).
    pub fn luck(&self, side: Side) -> f64 {
        self.rolls
            .iter()
            .map(|r| if r.side == side { r.luck } else { -r.luck })
            .sum()
    }

    /// A side's net points from the games minus its net luck.
    pub fn luck_adjusted(&self, side: Side) -> f64 {
        let (l, d) = self.points;
        let net = if side == Side::Light { l - d } else { d - l };
        net - self.luck(side)
    }
}

/// A decision as JSON (`agon urgammon review`, `GET /api/games/{id}/review`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct DecisionJson {
    /// The game of the match, from 1.
    pub game: usize,
    /// The token's index in its game's record.
    pub index: usize,
    /// The token's index in the whole match record (`/at/{ply}` shows the
    /// position before it).
    pub ply: usize,
    /// The turn of its game the token belongs to, from 1, as the game's
    /// log numbers it (`Token::opens_turn`).
    pub turn: usize,
    /// `light` or `dark`.
    pub side: &'static str,
    /// `move` or `verdict`.
    pub kind: &'static str,
    /// What was played.
    pub played: String,
    /// The engine's choice.
    pub best: String,
    /// Expected points lost.
    pub equity_loss: f64,
    /// Match-winning chance lost (null outside a match).
    pub mwc_loss: Option<f64>,
    /// The grade.
    pub grade: Grade,
    /// `?!`, `?`, `??` or empty.
    pub symbol: &'static str,
    /// Whether there was only one option.
    pub trivial: bool,
    /// True when the options' values are exact (every line played out to
    /// the game's end or the endings' tables): the loss is then measured
    /// against the exact value, not the engine's estimate.
    pub exact: bool,
    /// Every option with its expected points for the decider, best first.
    pub options: Vec<OptionJson>,
}

/// One option of a decision.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct OptionJson {
    /// A move's notation, or `verdict`.
    pub option: String,
    /// Its expected points for the decider.
    pub equity: f64,
}

/// One die's luck as JSON.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RollJson {
    /// The game of the match, from 1.
    pub game: usize,
    /// The token's index in its game's record.
    pub index: usize,
    /// The token's index in the whole match record.
    pub ply: usize,
    /// The turn of its game the token belongs to, from 1, as the game's
    /// log numbers it (`Token::opens_turn`).
    pub turn: usize,
    /// Who rolled.
    pub side: &'static str,
    /// `r1`…`r4`, `v+`, `v-`.
    pub token: String,
    /// The roller's luck.
    pub luck: f64,
}

/// A number per side.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct PerSide<T> {
    /// Light's.
    pub light: T,
    /// Dark's.
    pub dark: T,
}

/// Light's win chance at a decision, as JSON.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct CurveJson {
    /// The game of the match, from 1.
    pub game: usize,
    /// The token's index in its game's record.
    pub index: usize,
    /// The token's index in the whole match record.
    pub ply: usize,
    /// The turn of its game the token belongs to, from 1, as the game's
    /// log numbers it (`Token::opens_turn`).
    pub turn: usize,
    /// Light's chance to win the game.
    pub win: f64,
}

/// A review as JSON.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ReviewJson {
    /// Always `urgammon`.
    pub game: &'static str,
    /// The level the review used.
    pub level: u8,
    /// Every decision.
    pub decisions: Vec<DecisionJson>,
    /// Thousandths of a point lost per non-trivial decision.
    pub error_rate: PerSide<f64>,
    /// gnubg's rating of each error rate.
    pub rating: PerSide<&'static str>,
    /// Each side's net luck.
    pub luck: PerSide<f64>,
    /// Each side's net points minus its luck.
    pub luck_adjusted: PerSide<f64>,
    /// Every die's luck.
    pub rolls: Vec<RollJson>,
    /// Light's win chance, decision by decision.
    pub win_curve: Vec<CurveJson>,
}

impl Review {
    /// The review as JSON.
    pub fn to_json(&self) -> ReviewJson {
        use crate::stats::round4;
        let both = |f: &dyn Fn(Side) -> f64| PerSide {
            light: round4(f(Side::Light)),
            dark: round4(f(Side::Dark)),
        };
        ReviewJson {
            game: "urgammon",
            level: self.level,
            decisions: self
                .decisions
                .iter()
                .map(|d| DecisionJson {
                    game: d.game,
                    index: d.index,
                    ply: d.ply,
                    turn: d.turn,
                    side: d.side.name(),
                    kind: match d.kind {
                        Kind::Move => "move",
                        Kind::Verdict => "verdict",
                    },
                    played: d.played.clone(),
                    best: d.best.clone(),
                    equity_loss: round4(d.equity_loss),
                    mwc_loss: d.mwc_loss.map(round4),
                    grade: d.grade,
                    symbol: d.grade.symbol(),
                    trivial: d.trivial,
                    exact: d.exact,
                    options: d
                        .options
                        .iter()
                        .map(|(option, equity)| OptionJson {
                            option: option.clone(),
                            equity: round4(*equity),
                        })
                        .collect(),
                })
                .collect(),
            error_rate: both(&|s| self.error_rate(s)),
            rating: PerSide {
                light: rating(self.error_rate(Side::Light)),
                dark: rating(self.error_rate(Side::Dark)),
            },
            luck: both(&|s| self.luck(s)),
            luck_adjusted: both(&|s| self.luck_adjusted(s)),
            rolls: self
                .rolls
                .iter()
                .map(|r| RollJson {
                    game: r.game,
                    index: r.index,
                    ply: r.ply,
                    turn: r.turn,
                    side: r.side.name(),
                    token: r.token.clone(),
                    luck: round4(r.luck),
                })
                .collect(),
            win_curve: self
                .win_curve
                .iter()
                .map(|p| CurveJson {
                    game: p.game,
                    index: p.index,
                    ply: p.ply,
                    turn: p.turn,
                    win: round4(p.win),
                })
                .collect(),
        }
    }
}

/// gnubg's rating of an error rate (thousandths of a point per decision).
pub fn rating(error_rate: f64) -> &'static str {
    const SCALE: [(f64, &str); 7] = [
        (2.0, "Supernatural"),
        (5.0, "World class"),
        (8.0, "Expert"),
        (12.0, "Advanced"),
        (18.0, "Intermediate"),
        (26.0, "Casual player"),
        (35.0, "Beginner"),
    ];
    SCALE
        .iter()
        .find(|(limit, _)| error_rate < *limit)
        .map_or("Awful", |(_, name)| name)
}

/// The value of a position for `side` once its decision (if any) is taken
/// best, and the outcomes from light's side.
fn value_of(state: &State, level: Level, payoff: Payoff, side: Side) -> (f64, Outcomes) {
    if let Some(r) = state.result() {
        let o = Outcomes::of_result(r);
        return (f64::from(payoff.value(&o, side)), o);
    }
    let a = analyze(state, level, payoff);
    (f64::from(payoff.value(&a.position, side)), a.position)
}

fn applied(state: &State, token: Token) -> Option<State> {
    let mut s = *state;
    s.apply(token).ok().map(|()| s)
}

/// Reviews one game played in `ctx` (money play when `None`); `game_no`
/// numbers it in its match. `tick` is called after each token.
fn review_game(
    game: &Game,
    (game_no, offset): (usize, usize),
    ctx: Option<MatchContext>,
    level: Level,
    out: &mut Review,
    tick: &mut dyn FnMut(),
) {
    let payoff = ctx.map_or(Payoff::MONEY, |c| c.payoff());
    let mut state = *Game::new().state();
    let mut turn = 0;
    for (index, &token) in game.tokens().iter().enumerate() {
        if token.opens_turn() {
            turn += 1;
        }
        let side = state.to_act();
        match (state.phase(), token, side) {
            (Phase::Roll, Token::Roll(c), Some(side)) => {
                // Luck: this face against the four, weighted.
                let mut mean = 0.0;
                let mut this = 0.0;
                for (face, p) in super::search::CHANCE {
                    if let Some(after) = applied(&state, Token::Roll(face)) {
                        let (v, _) = value_of(&after, level, payoff, side);
                        mean += f64::from(p) * v;
                        if face == c {
                            this = v;
                        }
                    }
                }
                out.rolls.push(Roll {
                    game: game_no,
                    index,
                    ply: offset + index,
                    turn,
                    side,
                    token: format!("r{c}"),
                    luck: this - mean,
                });
            }
            (
                Phase::Decide | Phase::Move | Phase::Verdict,
                Token::Move(_) | Token::Verdict(_),
                Some(side),
            ) => {
                let a = analyze(&state, level, payoff);
                let played = match token {
                    Token::Move(m) => Decision::Move(m),
                    _ => Decision::Verdict,
                };
                if let Some(best) = a.options.first() {
                    let name = |d: Decision| d.notation(side);
                    let eq = |o: &Outcomes| f64::from(o.seen_by(side).equity());
                    let chosen = a.options.iter().find(|c| c.decision == played);
                    let is_best = chosen.is_some_and(|c| c.decision == best.decision);
                    let (equity_loss, mwc_loss) = match chosen {
                        Some(c) if !is_best => (
                            (eq(&best.outcomes) - eq(&c.outcomes)).max(0.0),
                            payoff
                                .is_match()
                                .then(|| f64::from(best.value - c.value).max(0.0)),
                        ),
                        _ => (0.0, payoff.is_match().then_some(0.0)),
                    };
                    out.win_curve.push(CurvePoint {
                        game: game_no,
                        index,
                        ply: offset + index,
                        turn,
                        win: f64::from(a.position.win()),
                    });
                    // A forced verdict die is no decision.
                    if state.phase() != Phase::Verdict {
                        out.decisions.push(ReviewedDecision {
                            game: game_no,
                            index,
                            ply: offset + index,
                            turn,
                            side,
                            kind: if matches!(played, Decision::Verdict) {
                                Kind::Verdict
                            } else {
                                Kind::Move
                            },
                            played: name(played),
                            best: name(best.decision),
                            options: a
                                .options
                                .iter()
                                .map(|c| (name(c.decision), eq(&c.outcomes)))
                                .collect(),
                            equity_loss,
                            mwc_loss,
                            grade: Grade::of(equity_loss, is_best, THRESHOLDS),
                            trivial: a.options.len() < 2,
                            exact: a.exact,
                        });
                    }
                }
                // The verdict die's own luck: what it said against its odds.
                if let Token::Verdict(yes) = token {
                    if let (Some(y), Some(n)) = (
                        applied(&state, Token::Verdict(true)),
                        applied(&state, Token::Verdict(false)),
                    ) {
                        let (vy, _) = value_of(&y, level, payoff, side);
                        let (vn, _) = value_of(&n, level, payoff, side);
                        let mean =
                            super::search::YES as f64 * vy + (1.0 - super::search::YES as f64) * vn;
                        out.rolls.push(Roll {
                            game: game_no,
                            index,
                            ply: offset + index,
                            turn,
                            side,
                            token: if yes { "v+" } else { "v-" }.to_string(),
                            luck: if yes { vy } else { vn } - mean,
                        });
                    }
                }
            }
            _ => {}
        }
        match applied(&state, token) {
            Some(next) => state = next,
            None => break,
        }
        tick();
    }
    if let Some(r) = state.result() {
        match r.winner {
            Some(Side::Light) => out.points.0 += f64::from(r.points),
            Some(Side::Dark) => out.points.1 += f64::from(r.points),
            None => {}
        }
    }
}

/// Reviews every game of `m` (each in its match context when `in_match`) at
/// `level`; `progress(done, total)` counts tokens.
pub fn review(m: &Match, in_match: bool, level: Level, progress: &dyn Fn(usize, usize)) -> Review {
    let games: Vec<&Game> = m
        .finished()
        .iter()
        .chain(std::iter::once(m.current()))
        .collect();
    let total: usize = games.iter().map(|g| g.tokens().len()).sum();
    let mut out = Review::empty(level);
    let mut score = (0u32, 0u32);
    let mut done = 0;
    let mut offset = 0;
    for (i, game) in games.iter().enumerate() {
        let ctx = in_match.then(|| MatchContext {
            to: m.settings().to,
            score,
            draw: m.settings().draw,
        });
        // A context whose score already reached the target has no payoff left.
        let ctx = ctx.filter(|c| c.score.0 < c.to && c.score.1 < c.to);
        review_game(game, (i + 1, offset), ctx, level, &mut out, &mut || {
            done += 1;
            progress(done, total);
        });
        offset += game.tokens().len();
        if let Some(r) = game.state().result() {
            match r.winner {
                Some(Side::Light) => score.0 += u32::from(r.points),
                Some(Side::Dark) => score.1 += u32::from(r.points),
                None => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reviewed_game_grades_decisions_and_weighs_luck() {
        let m = Match::parse("urgammon match to=7\nstart:2-3 P-2a r2 P-2b r1 v+ 2a-7 r3 P-3b r4")
            .unwrap();
        let review = review(&m, false, Level::new(4), &|_, _| {});
        // Decisions: light's opening entry, dark's entry, light's verdict and
        // move after YES, dark's entry.
        assert!(review.decisions.len() >= 4, "{review:#?}");
        let verdict = review
            .decisions
            .iter()
            .find(|d| d.kind == Kind::Verdict)
            .unwrap();
        assert_eq!(verdict.played, "verdict");
        assert_eq!(verdict.side, Side::Light);
        for d in &review.decisions {
            assert!(d.equity_loss >= 0.0);
            assert_eq!(
                d.equity_loss == 0.0,
                d.grade == Grade::Best || d.played == d.best,
                "{d:?}"
            );
            assert_eq!(d.options.first().map(|o| o.0.clone()), Some(d.best.clone()));
        }
        // Each chance roll (and the verdict die) has a luck; the faces' luck averages to zero.
        assert_eq!(
            review
                .rolls
                .iter()
                .filter(|r| r.token.starts_with('r'))
                .count(),
            4
        );
        assert!(review.rolls.iter().any(|r| r.token == "v+"));
        assert!(!review.win_curve.is_empty());
        assert!(review
            .win_curve
            .iter()
            .all(|p| (0.0..=1.0).contains(&p.win)));
        assert_eq!(rating(1.0), "Supernatural");
        assert_eq!(rating(40.0), "Awful");
    }
}

/// Reviews one game for points (no match around it).
pub fn review_one(game: &Game, level: Level) -> Review {
    let mut out = Review::empty(level);
    review_game(game, (1, 0), None, level, &mut out, &mut || {});
    out
}

/// One player's numbers over a study's reviewed games.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct PlayerStudy {
    /// Non-trivial decisions reviewed.
    pub decisions: usize,
    /// Thousandths of a point lost per non-trivial decision.
    pub error_rate: f64,
    /// gnubg's rating of that.
    pub rating: &'static str,
    /// Non-trivial decisions per grade: best, excellent, good, inaccuracy,
    /// mistake, blunder.
    pub grades: [usize; 6],
    /// The share of non-trivial decisions graded best or excellent.
    pub best_or_excellent: f64,
    /// Mean net luck per game, in points.
    pub luck_per_game: f64,
    /// Mean net points per game.
    pub points_per_game: f64,
    /// Mean luck-adjusted points per game.
    pub luck_adjusted_per_game: f64,
    #[serde(skip)]
    losses: Vec<f64>,
}

/// A study: `a` against `b` over many games for points, every game reviewed.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Study {
    /// Player A.
    pub a: String,
    /// Player B.
    pub b: String,
    /// Games played and reviewed.
    pub games: usize,
    /// The review level.
    pub level: u8,
    /// A's decisions.
    pub player_a: PlayerStudy,
    /// B's decisions.
    pub player_b: PlayerStudy,
    /// Equity losses at the 50th, 75th, 90th, 95th and 99th percentiles, over
    /// both players' decisions that were not the engine's choice.
    pub loss_percentiles: [f64; 5],
}

/// Plays `games` games of `a` against `b` (seats alternating) on `threads`
/// threads and reviews every one at `level`; `progress(done)` counts games.
pub fn study(
    (a, b): (super::Spec, super::Spec),
    games: usize,
    level: Level,
    threads: usize,
    seed: u64,
    progress: &(dyn Fn(usize) + Sync),
) -> Study {
    let net = super::Net::trained();
    let mut out = Study {
        a: a.to_string(),
        b: b.to_string(),
        games: 0,
        level: level.get(),
        player_a: PlayerStudy::default(),
        player_b: PlayerStudy::default(),
        loss_percentiles: [0.0; 5],
    };
    let mut totals = [(0.0, 0.0); 2]; // (luck, points) for A and B
    crate::par::run(
        games,
        threads,
        |i| {
            let a_light = i % 2 == 0;
            let players = if a_light {
                [(a.level_spec(), net), (b.level_spec(), net)]
            } else {
                [(b.level_spec(), net), (a.level_spec(), net)]
            };
            let mut dice = crate::Rng::new(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let mut rng = crate::Rng::new(seed.wrapping_add(i as u64));
            let mut game = Game::new();
            urgammon::playout(&State::new(), |s| {
                let t =
                    super::tournament::next_token(s, players, Payoff::MONEY, &mut dice, &mut rng)?;
                game.apply(t).ok()?;
                Some(t)
            });
            (a_light, review_one(&game, level))
        },
        |(a_light, r)| {
            let a_side = if a_light { Side::Light } else { Side::Dark };
            for d in r.decisions.iter().filter(|d| !d.trivial) {
                let p = if d.side == a_side {
                    &mut out.player_a
                } else {
                    &mut out.player_b
                };
                p.decisions += 1;
                p.losses.push(d.equity_loss);
                p.grades[Grade::ALL.iter().position(|g| *g == d.grade).unwrap_or(0)] += 1;
            }
            for (slot, side) in [(0, a_side), (1, a_side.other())] {
                totals[slot].0 += r.luck(side);
                let (l, d) = r.points;
                totals[slot].1 += if side == Side::Light { l - d } else { d - l };
            }
            out.games += 1;
            progress(out.games);
            true
        },
    );
    let n = out.games.max(1) as f64;
    for (p, (luck, points)) in [
        (&mut out.player_a, totals[0]),
        (&mut out.player_b, totals[1]),
    ] {
        let d = p.decisions.max(1) as f64;
        p.error_rate = crate::stats::round4(1000.0 * p.losses.iter().sum::<f64>() / d);
        p.rating = rating(p.error_rate);
        p.best_or_excellent = crate::stats::round4((p.grades[0] + p.grades[1]) as f64 / d);
        p.luck_per_game = crate::stats::round4(luck / n);
        p.points_per_game = crate::stats::round4(points / n);
        p.luck_adjusted_per_game = crate::stats::round4((points - luck) / n);
    }
    out.loss_percentiles = crate::stats::positive_percentiles(
        out.player_a
            .losses
            .iter()
            .chain(&out.player_b.losses)
            .copied(),
    );
    out
}
