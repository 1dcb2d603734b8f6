//! Rollouts: a position played out many times by one level on both sides,
//! and the match context that gives the players their payoff.

use super::eval::{Net, Outcomes};
use super::tournament::next_token;
use super::{LevelSpec, MatchTable, Payoff};
use crate::Rng;
use urgammon::{DrawRule, Match, Side, State};

/// The match a decision is played in: the target, the score so far and the
/// draw rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchContext {
    /// Points to win the match.
    pub to: u32,
    /// Light's and dark's points so far.
    pub score: (u32, u32),
    /// What a drawn game does.
    pub draw: DrawRule,
}

impl MatchContext {
    /// The context of a match at its current score.
    pub fn of(m: &Match) -> MatchContext {
        MatchContext {
            to: m.settings().to,
            score: (m.score()[Side::Light], m.score()[Side::Dark]),
            draw: m.settings().draw,
        }
    }

    /// The payoff: match-winning chances from the trained match equity table.
    pub fn payoff(&self) -> Payoff {
        Payoff::for_match(&MatchTable::trained(self.to, self.draw), self.score)
    }
}

/// Plays `state` out `games` times with `spec` and `net` on both sides, the
/// players deciding for `payoff`, on `threads` threads. Returns how many games
/// ended in each of the nine outcomes, seen by the side to act (the order of
/// [`super::eval::OUTCOMES`]). `progress` is told the number of games done
/// after each one. Game `i` uses seeds made from `seed` and `i`, so a rollout
/// is reproducible whatever the number of threads.
pub fn rollout(
    state: &State,
    games: usize,
    (spec, net): (LevelSpec, &Net),
    payoff: Payoff,
    threads: usize,
    seed: u64,
    progress: &(dyn Fn(usize) + Sync),
) -> [u64; 9] {
    let side = state.to_act().unwrap_or(Side::Light);
    let mut counts = [0u64; 9];
    let mut done = 0;
    crate::par::run(
        games,
        threads,
        |i| {
            let mut dice = Rng::new(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            let mut rng = Rng::new(seed.wrapping_add(i as u64));
            let (s, _) = urgammon::playout(state, |s| {
                next_token(s, [(spec, net); 2], payoff, &mut dice, &mut rng)
            });
            let o = s
                .result()
                .map(Outcomes::of_result)
                .unwrap_or_default()
                .seen_by(side);
            o.0.iter().position(|&p| p > 0.5).unwrap_or(8)
        },
        |k| {
            counts[k] += 1;
            done += 1;
            progress(done);
            true
        },
    );
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rollout_is_reproducible_and_counts_every_game() {
        let mut g = urgammon::Game::new();
        g.apply_text("start:1-2").unwrap();
        let spec = crate::urgammon::level_spec(crate::Level::MIN);
        let a = rollout(
            g.state(),
            40,
            (spec, Net::trained()),
            Payoff::MONEY,
            2,
            7,
            &|_| {},
        );
        let b = rollout(
            g.state(),
            40,
            (spec, Net::trained()),
            Payoff::MONEY,
            1,
            7,
            &|_| {},
        );
        assert_eq!(a, b, "the same games whatever the threads");
        assert_eq!(a.iter().sum::<u64>(), 40);
        let m = Match::new(urgammon::MatchSettings::default());
        assert_eq!(MatchContext::of(&m).to, 7);
    }
}
