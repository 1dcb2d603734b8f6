//! The Urgammon engine's search: expectimax over the chance die and the
//! verdict die. What an outcome is worth is [`crate::urgammon::payoff`]; how
//! each level uses the search is [`crate::urgammon::levels`].
//!
//! # Search
//! A turn is a little tree: the chance die (1, 2, 3, 4 with probabilities
//! 1/3, 1/3, 1/6, 1/6), then the player's choice between a move and the verdict
//! die, then the verdict die (YES 4/6, NO 2/6), then a move; a move that ends on
//! a rosette starts the tree again for the same player. [`Search`] walks it
//! exactly, choosing at each decision what is best for the player deciding,
//! and stops after `plies` chance rolls beyond the decision at hand, where the
//! evaluator ([`Evaluator`]) estimates the outcome probabilities.
//!
//! - 0 plies: each option's resulting position is evaluated directly;
//! - 1 ply: each resulting position is averaged over the next roll, with the
//!   best reply to each roll (rosette bonus turns included);
//! - 2 plies: the same, one roll deeper.
//!
//! # What "best" means
//! A [`Payoff`] ([`crate::urgammon::payoff`]) gives each of the nine outcomes a value: its points for a single
//! game ("money" play), or the match-winning chance after it when a match is on
//! ([`MatchTable`]). The verdict die is rolled exactly when its expected payoff
//! beats the best move's.

use crate::urgammon::eval::{Evaluator, Outcomes};
pub use crate::urgammon::payoff::{MatchTable, Payoff};
use crate::urgammon::player::Decision;
use std::cell::Cell;
use urgammon::{Phase, Side, State, Token};

/// The chance values and their probabilities.
pub const CHANCE: [(u8, f32); 4] = [
    (1, 1.0 / 3.0),
    (2, 1.0 / 3.0),
    (3, 1.0 / 6.0),
    (4, 1.0 / 6.0),
];

/// The verdict die's YES probability.
pub const YES: f32 = 4.0 / 6.0;

/// One option at a decision, with its evaluation.
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    /// The move, or the verdict die.
    pub decision: Decision,
    /// Outcome probabilities after it, from light's point of view.
    pub outcomes: Outcomes,
    /// Its payoff for the side deciding (points, or match-winning chance).
    pub value: f32,
}

/// An expectimax search with an evaluator and a payoff.
pub struct Search<'a> {
    eval: &'a dyn Evaluator,
    payoff: Payoff,
    evals: Cell<u64>,
}

/// Applies a token the search knows is legal.
#[inline]
fn next(state: &State, token: Token) -> State {
    let mut s = *state;
    // The search only applies tokens generated from this very state.
    let applied = s.apply(token);
    debug_assert!(applied.is_ok(), "{applied:?}");
    s
}

impl<'a> Search<'a> {
    /// A search with this evaluator and payoff.
    pub fn new(eval: &'a dyn Evaluator, payoff: Payoff) -> Search<'a> {
        Search {
            eval,
            payoff,
            evals: Cell::new(0),
        }
    }

    /// Evaluator calls so far.
    pub fn evals(&self) -> u64 {
        self.evals.get()
    }

    /// The payoff in use.
    pub fn payoff(&self) -> &Payoff {
        &self.payoff
    }

    /// The value of a position where a side is about to roll (or of any
    /// state): exact when the game is over, else the evaluator at 0 plies, else
    /// the average over the chance die of the best play.
    pub fn value_roll(&self, s: &State, plies: u32) -> Outcomes {
        match s.phase() {
            Phase::Over => s.result().map(Outcomes::of_result).unwrap_or_default(),
            Phase::Roll if plies == 0 => {
                self.evals.set(self.evals.get() + 1);
                // The endings' exact outcomes where they hold the position
                // (for points; in a match, the best estimate there is).
                crate::urgammon::endings::installed()
                    .and_then(|e| e.probe(s))
                    .unwrap_or_else(|| self.eval.evaluate(s))
            }
            Phase::Roll => {
                let mut total = Outcomes::default();
                for (c, p) in CHANCE {
                    total.add_scaled(&self.value_turn(&next(s, Token::Roll(c)), plies - 1), p);
                }
                total
            }
            Phase::Opening => self.value_opening(plies),
            _ => self.value_turn(s, plies),
        }
    }

    /// The value before the opening roll: the average over the opening rolls
    /// (ties are rolled again, so they drop out).
    fn value_opening(&self, plies: u32) -> Outcomes {
        let mut total = Outcomes::default();
        let mut weight = 0.0;
        for (l, pl) in CHANCE {
            for (d, pd) in CHANCE {
                if l != d {
                    let s = next(&State::new(), Token::Start(l, d));
                    total.add_scaled(&self.value_turn(&s, plies), pl * pd);
                    weight += pl * pd;
                }
            }
        }
        let mut o = Outcomes::default();
        o.add_scaled(&total, 1.0 / weight);
        o
    }

    /// The value of a state inside a turn, with the best play for the side
    /// acting.
    pub fn value_turn(&self, s: &State, plies: u32) -> Outcomes {
        match s.phase() {
            Phase::Decide | Phase::Move | Phase::Verdict => {
                let side = s.to_act().unwrap_or(Side::Light);
                let mut best: Option<(f32, Outcomes)> = None;
                self.for_each_option(s, plies, |_, o| {
                    let v = self.payoff.value(&o, side);
                    if best.is_none_or(|(bv, _)| v > bv) {
                        best = Some((v, o));
                    }
                });
                best.map(|(_, o)| o).unwrap_or_default()
            }
            _ => self.value_roll(s, plies),
        }
    }

    /// Calls `f` with each option at a decision and its value.
    fn for_each_option(&self, s: &State, plies: u32, mut f: impl FnMut(Decision, Outcomes)) {
        if matches!(s.phase(), Phase::Decide | Phase::Move) {
            for &m in s.moves().iter() {
                f(
                    Decision::Move(m),
                    self.value_roll(&next(s, Token::Move(m)), plies),
                );
            }
        }
        if matches!(s.phase(), Phase::Decide | Phase::Verdict) {
            f(Decision::Verdict, self.value_verdict(s, plies));
        }
    }

    /// The value of rolling the verdict die: YES, then the best promoted move;
    /// NO, and the turn ends.
    fn value_verdict(&self, s: &State, plies: u32) -> Outcomes {
        let mut o = self.value_turn(&next(s, Token::Verdict(true)), plies);
        let mut total = Outcomes::default();
        total.add_scaled(&o, YES);
        o = self.value_roll(&next(s, Token::Verdict(false)), plies);
        total.add_scaled(&o, 1.0 - YES);
        total
    }

    /// Every option at a decision (phases decide, verdict and move), best
    /// first, for the side acting.
    pub fn options(&self, s: &State, plies: u32) -> Vec<Choice> {
        let side = s.to_act().unwrap_or(Side::Light);
        let mut out = Vec::new();
        self.for_each_option(s, plies, |decision, outcomes| {
            out.push(Choice {
                decision,
                outcomes,
                value: self.payoff.value(&outcomes, side),
            });
        });
        out.sort_by(|a, b| b.value.total_cmp(&a.value));
        out
    }

    /// The options valued by the mean of a `plies` and a `plies − 1` search.
    /// An evaluator's errors differ with the side to roll at the leaves, so
    /// consecutive depths err in opposite directions (backgammon programs
    /// call it the odd–even effect); their mean cancels much of it.
    pub fn blended_options(&self, s: &State, plies: u32) -> Vec<Choice> {
        let mut deep = self.options(s, plies);
        if plies == 0 {
            return deep;
        }
        let side = s.to_act().unwrap_or(Side::Light);
        let shallow = self.options(s, plies - 1);
        for c in &mut deep {
            if let Some(o) = shallow.iter().find(|o| o.decision == c.decision) {
                let mut mean = Outcomes::default();
                mean.add_scaled(&c.outcomes, 0.5);
                mean.add_scaled(&o.outcomes, 0.5);
                c.outcomes = mean;
                c.value = self.payoff.value(&mean, side);
            }
        }
        deep.sort_by(|a, b| b.value.total_cmp(&a.value));
        deep
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::urgammon::eval::{Heuristic, Net};
    use crate::urgammon::levels::{decide, level_spec};
    use crate::Rng;
    use urgammon::DrawRule;
    use urgammon::Game;

    #[test]
    fn match_table_is_symmetric_and_monotone() {
        let t = MatchTable::new(7, DrawRule::Replay, [0.2, 0.1, 0.1, 0.08], 0.04);
        for a in 1..=7 {
            assert!((t.mwc(a, a) - 0.5).abs() < 1e-4, "{a}");
            for b in 1..=7 {
                assert!((t.mwc(a, b) + t.mwc(b, a) - 1.0).abs() < 1e-4);
                if a < 7 {
                    assert!(t.mwc(a, b) >= t.mwc(a + 1, b) - 1e-6);
                }
            }
        }
        assert_eq!(t.mwc(0, 3), 1.0);
        assert_eq!(t.mwc(3, -1), 0.0);
        // With 1 point needed each, the next non-drawn game decides.
        assert!((t.mwc(1, 1) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn draw_end_counts_half() {
        let t = MatchTable::new(1, DrawRule::End, [0.3, 0.1, 0.05, 0.05], 0.0);
        assert!((t.mwc(1, 1) - 0.5).abs() < 1e-6);
    }

    #[test]
    fn the_payoff_of_a_match_is_the_match_winning_chance() {
        let t = MatchTable::new(7, DrawRule::Replay, [0.2, 0.1, 0.1, 0.08], 0.04);
        let p = Payoff::for_match(&t, (6, 0));
        // Light needs 1: any light win wins the match.
        for k in 0..4 {
            assert_eq!(p.light[k], 1.0);
        }
        let o = Outcomes([0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]);
        assert!((p.value(&o, Side::Light) + p.value(&o, Side::Dark) - 1.0).abs() < 1e-6);
    }

    /// The verdict die must be rolled when no plain move exists: the search's
    /// only option in phase verdict is the die, and a level takes it.
    #[test]
    fn forced_verdict_is_the_only_option() {
        // Light on 1a..3a? Find a roll where M(c) is empty and P(c) is not by play.
        let mut rng = Rng::new(5);
        let mut found = false;
        for _ in 0..200 {
            let mut g = Game::new();
            while !g.is_over() {
                let s = *g.state();
                if s.phase() == Phase::Verdict {
                    let search = Search::new(&Heuristic, Payoff::MONEY);
                    let opts = search.options(&s, 0);
                    assert_eq!(opts.len(), 1);
                    assert_eq!(opts[0].decision, Decision::Verdict);
                    found = true;
                    break;
                }
                let t = match s.phase() {
                    Phase::Opening => Token::Start(rng.chance(), rng.chance()),
                    Phase::Roll => Token::Roll(rng.chance()),
                    _ => match decide(&s, level_spec(crate::Level::MIN), Payoff::MONEY, &mut rng)
                        .unwrap()
                    {
                        Decision::Move(m) => Token::Move(m),
                        Decision::Verdict => Token::Verdict(rng.verdict()),
                    },
                };
                g.apply(t).unwrap();
            }
            if found {
                break;
            }
        }
        assert!(found);
    }

    /// Deeper search and the evaluation agree on a finished game: exact.
    #[test]
    fn values_are_distributions_at_every_depth() {
        let mut g = Game::new();
        g.apply_all("start:1-2 P-1a r2", 0).unwrap();
        let s = *g.state();
        for plies in 0..=2 {
            let search = Search::new(&Heuristic, Payoff::MONEY);
            for c in search.options(&s, plies) {
                let total: f32 = c.outcomes.0.iter().sum();
                assert!((total - 1.0).abs() < 1e-4, "plies {plies}: {total}");
            }
        }
    }

    /// "The first side to bear off all 7 pieces has finished … If the
    /// non-starting player finishes first, it wins at once": every level that
    /// thinks takes the winning bear-off.
    #[test]
    fn every_thinking_level_takes_the_winning_bear_off() {
        use urgammon::{House, Kind, Position};
        // Light (not the starter) has 6 pieces home and a chariot on 12b
        // (progress 16); dark has a pawn on 1b. Light rolls 1: 12b-off wins.
        let pos = Position::setup(
            &[
                (Side::Light, House::parse("12b").unwrap(), Kind::Chariot),
                (Side::Dark, House::parse("1b").unwrap(), Kind::Pawn),
            ],
            &[
                (Side::Light, Kind::Pawn, 3),
                (Side::Light, Kind::Chariot, 2),
                (Side::Light, Kind::Hero, 1),
            ],
        )
        .unwrap();
        let mut s = State::from_position(pos, Side::Light, Side::Dark);
        s.apply(Token::Roll(1)).unwrap();
        assert!(matches!(s.phase(), Phase::Move | Phase::Decide));
        for level in 3..=10 {
            let d = decide(
                &s,
                level_spec(crate::Level::new(level)),
                Payoff::MONEY,
                &mut Rng::new(1),
            );
            match d {
                Some(Decision::Move(m)) => assert_eq!(m.to, urgammon::PALACE, "level {level}"),
                other => panic!("level {level}: {other:?}"),
            }
        }
    }

    /// "Decisions maximise match-winning chance, not points": when both sides
    /// need one point, every win is worth the same, so an option's value is its
    /// win chance plus half its draw chance (a drawn game is replayed at 1–1).
    #[test]
    fn at_double_match_point_only_winning_counts() {
        let t = MatchTable::trained(7, DrawRule::Replay);
        let payoff = Payoff::for_match(&t, (6, 6));
        let mut g = Game::new();
        g.apply_all("start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1", 0)
            .unwrap();
        let s = *g.state();
        let search = Search::new(Net::trained(), payoff);
        for c in search.options(&s, 1) {
            let o = c.outcomes.seen_by(Side::Light);
            assert!((c.value - (o.win() + 0.5 * o.0[8])).abs() < 1e-4);
        }
        // At 0–0 the same options are valued by the table, not by wins alone.
        let money = Search::new(Net::trained(), Payoff::MONEY).options(&s, 1);
        assert!(money.iter().all(|c| c.value.abs() < 4.0));
    }

    /// Every level makes legal decisions through whole games, for points and
    /// for a match.
    #[test]
    fn every_level_plays_legal_games() {
        let t = MatchTable::trained(5, DrawRule::Replay);
        for level in 1..=10u8 {
            let mut rng = Rng::new(u64::from(level));
            let mut s = State::new();
            let payoff = if level % 2 == 0 {
                Payoff::MONEY
            } else {
                Payoff::for_match(&t, (2, 3))
            };
            while s.phase() != Phase::Over {
                let token = match s.phase() {
                    Phase::Opening => Token::Start(rng.chance(), rng.chance()),
                    Phase::Roll => Token::Roll(rng.chance()),
                    _ => match decide(&s, level_spec(crate::Level::new(level)), payoff, &mut rng)
                        .unwrap()
                    {
                        Decision::Move(m) => Token::Move(m),
                        Decision::Verdict => Token::Verdict(rng.verdict()),
                    },
                };
                s.apply(token).unwrap();
            }
        }
    }

    /// "If the move ended on a rosette, the same player rolls again": the
    /// search values such a move by the same side's next roll, not the enemy's.
    #[test]
    fn rosette_bonus_turns_are_in_the_tree() {
        let mut g = Game::new();
        // Dark rolls 4 and enters on the 4b rosette: dark rolls again.
        g.apply_all("start:1-2 P-1a r4", 0).unwrap();
        let s = *g.state();
        let after = next(&s, Token::Move(s.moves()[0]));
        assert_eq!(
            (after.to_act(), after.phase()),
            (Some(Side::Dark), Phase::Roll)
        );
        // At 1 ply the value is dark's best play over its bonus roll.
        let search = Search::new(&Heuristic, Payoff::MONEY);
        let mut by_hand = Outcomes::default();
        for (c, p) in CHANCE {
            let s2 = next(&after, Token::Roll(c));
            by_hand.add_scaled(&search.value_turn(&s2, 0), p);
        }
        let searched = search.value_roll(&after, 1);
        for (a, b) in by_hand.0.iter().zip(searched.0) {
            assert!((a - b).abs() < 1e-6);
        }
        // Dark's value there is at least what its worst bonus roll gives.
        assert!(search.value_roll(&after, 1).0.iter().sum::<f32>() > 0.99);
    }
}
