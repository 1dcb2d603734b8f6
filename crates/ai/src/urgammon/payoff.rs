//! What each of the nine outcomes is worth to a player: its points in a single
//! game ("money" play), or the chance to win the match after it
//! ([`MatchTable`], the match equity table, built from the trained network's
//! own per-game outcome rates).

use crate::urgammon::eval::{Evaluator, Net, Outcomes, OUTCOMES, POINTS};
use crate::urgammon::search::Search;
use std::sync::OnceLock;
use urgammon::{DrawRule, Side, State};

/// What each outcome is worth, from light's point of view; dark's value of an
/// outcome is `total − light's`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Payoff {
    /// Light's value of each outcome (light's point of view: win1…win4,
    /// loss1…loss4, draw).
    pub light: [f32; OUTCOMES],
    /// 0 for points (zero-sum), 1 for match-winning chances.
    pub total: f32,
}

impl Payoff {
    /// Single-game play: an outcome is worth its points.
    pub const MONEY: Payoff = Payoff {
        light: POINTS,
        total: 0.0,
    };

    /// Match play: an outcome is worth light's chance to win the match after it.
    /// `score` is (light, dark) points so far in a match to `table.to()`.
    pub fn for_match(table: &MatchTable, score: (u32, u32)) -> Payoff {
        let to = table.to() as i32;
        let a = to - score.0 as i32;
        let b = to - score.1 as i32;
        let mut light = [0.0; OUTCOMES];
        for k in 0..4 {
            light[k] = table.mwc(a - (k as i32 + 1), b);
            light[k + 4] = table.mwc(a, b - (k as i32 + 1));
        }
        light[8] = match table.draw_rule() {
            DrawRule::Replay => table.mwc(a, b),
            DrawRule::End => 0.5,
        };
        Payoff { light, total: 1.0 }
    }

    /// The expected value of outcomes (light's point of view) for `side`.
    #[inline]
    pub fn value(&self, o: &Outcomes, side: Side) -> f32 {
        let v: f32 = o.0.iter().zip(&self.light).map(|(p, u)| p * u).sum();
        match side {
            Side::Light => v,
            Side::Dark => self.total - v,
        }
    }

    /// True for match play (values are match-winning chances).
    pub fn is_match(&self) -> bool {
        self.total != 0.0
    }
}

/// The match equity table: the chance to win a match for a player needing `a`
/// more points against one needing `b`, from the per-game outcome rates, by
/// dynamic programming over the scores.
#[derive(Clone, Debug)]
pub struct MatchTable {
    to: u32,
    draw_rule: DrawRule,
    /// Per game: the chance that a given player wins by 1, 2, 3, 4 points.
    rates: [f32; 4],
    /// The chance that a game is drawn.
    draw: f32,
    /// `table[a][b]` for a, b in 0..=to (0 = already won).
    table: Vec<Vec<f32>>,
}

impl MatchTable {
    /// Builds the table for matches to `to` points from per-game rates: `rates[k]`
    /// is the chance that one given player wins by k + 1 points, `draw` the chance
    /// of a draw (so `2 · Σ rates + draw = 1`).
    pub fn new(to: u32, draw_rule: DrawRule, rates: [f32; 4], draw: f32) -> MatchTable {
        let n = to as usize;
        let mut table = vec![vec![0.0f32; n + 1]; n + 1];
        let at = |t: &Vec<Vec<f32>>, a: i64, b: i64| -> f32 {
            if a <= 0 {
                1.0
            } else if b <= 0 {
                0.0
            } else {
                t[a as usize][b as usize]
            }
        };
        // Fill by increasing a + b: each entry needs only smaller scores.
        for sum in 2..=2 * n {
            for a in 1..=n {
                let Some(b) = sum.checked_sub(a).filter(|b| (1..=n).contains(b)) else {
                    continue;
                };
                let (ai, bi) = (a as i64, b as i64);
                let mut e = 0.0;
                for (k, q) in rates.iter().enumerate() {
                    let k = k as i64 + 1;
                    e += q * at(&table, ai - k, bi) + q * at(&table, ai, bi - k);
                }
                let e = match draw_rule {
                    // A drawn game is replayed: the same score comes back.
                    DrawRule::Replay => e / (1.0 - draw).max(1e-6),
                    // A drawn game ends the match as a draw: half a win.
                    DrawRule::End => e + 0.5 * draw,
                };
                table[a][b] = e;
            }
        }
        MatchTable {
            to,
            draw_rule,
            rates,
            draw,
            table,
        }
    }

    /// The table for the trained network's own per-game outcome rates.
    pub fn trained(to: u32, draw_rule: DrawRule) -> MatchTable {
        let (rates, draw) = trained_game_rates();
        MatchTable::new(to, draw_rule, rates, draw)
    }

    /// The match length.
    pub fn to(&self) -> u32 {
        self.to
    }

    /// What a drawn game does.
    pub fn draw_rule(&self) -> DrawRule {
        self.draw_rule
    }

    /// The per-game rates the table was built from.
    pub fn rates(&self) -> ([f32; 4], f32) {
        (self.rates, self.draw)
    }

    /// The chance to win the match needing `a` more points against `b`
    /// (0 or less: already won or lost).
    pub fn mwc(&self, a: i32, b: i32) -> f32 {
        if a <= 0 && b <= 0 {
            0.5
        } else if a <= 0 {
            1.0
        } else if b <= 0 {
            0.0
        } else {
            let n = self.to as i32;
            self.table[a.min(n) as usize][b.min(n) as usize]
        }
    }
}

/// The per-game outcome rates of the trained network's own play, from its
/// evaluation before the opening roll (symmetrised, since either side may start).
pub fn game_rates(eval: &dyn Evaluator) -> ([f32; 4], f32) {
    let search = Search::new(eval, Payoff::MONEY);
    let o = search.value_roll(&State::new(), 0).0;
    let mut rates = [0.0; 4];
    for k in 0..4 {
        rates[k] = (o[k] + o[k + 4]) / 2.0;
    }
    (rates, o[8])
}

fn trained_game_rates() -> ([f32; 4], f32) {
    static RATES: OnceLock<([f32; 4], f32)> = OnceLock::new();
    *RATES.get_or_init(|| game_rates(Net::trained()))
}
