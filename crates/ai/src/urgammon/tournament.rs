//! Urgammon engine-against-engine games and matches, with the statistics to
//! read them: games won with a 95% interval, and points per game with a 95%
//! interval.
//!
//! Games come in pairs that share a dice seed, with the players in swapped
//! seats, so luck of the dice cancels out as far as it can (the dice drift
//! apart once the players choose differently about the verdict die).

use crate::urgammon::eval::Net;
use crate::urgammon::player::Decision;
use crate::urgammon::{decide_with, level_spec, Brain, LevelSpec, MatchTable, Payoff};
use crate::Rng;
use std::str::FromStr;
use urgammon::{DrawRule, Match, MatchSettings, Phase, Side, State, Token};

/// A player in a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spec {
    /// A playing level, 1–10.
    Level(crate::Level),
    /// The trained network at a search depth of 0, 1 or 2 plies.
    Ply(u32),
    /// The hand-written heuristic at a search depth of 0, 1 or 2 plies.
    Heuristic(u32),
    /// The network at 0 plies with noise of this many thousandths of a point
    /// added to each option (`noise:0.1` is 100).
    Noise(u16),
    /// The network at 1 or 2 plies, valued by the mean with the depth below.
    Blend(u32),
    /// Uniformly random choices.
    Random,
    /// The greedy baseline: capture, rosette, furthest piece; the verdict die
    /// only when forced.
    Greedy,
}

impl FromStr for Spec {
    type Err = String;
    fn from_str(s: &str) -> Result<Spec, String> {
        let bad = || {
            format!(
                "invalid player '{s}': use level:N (1-10), ply:P or heuristic:P (0-2), blend:P (1-2), noise:X, random or greedy"
            )
        };
        let ply = |n: &str| n.parse().ok().filter(|p| *p <= 2);
        match s.split_once(':') {
            None if s == "random" => Ok(Spec::Random),
            None if s == "greedy" => Ok(Spec::Greedy),
            Some(("level", n)) => n
                .parse::<crate::Level>()
                .ok()
                .map(Spec::Level)
                .ok_or_else(bad),
            Some(("ply", n)) => ply(n).map(Spec::Ply).ok_or_else(bad),
            Some(("heuristic", n)) => ply(n).map(Spec::Heuristic).ok_or_else(bad),
            Some(("blend", n)) => ply(n).filter(|p| *p > 0).map(Spec::Blend).ok_or_else(bad),
            Some(("noise", x)) => x
                .parse::<f32>()
                .ok()
                .filter(|x| (0.0..=10.0).contains(x))
                .map(|x| Spec::Noise((x * 1000.0).round() as u16))
                .ok_or_else(bad),
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spec::Level(l) => write!(f, "level:{l}"),
            Spec::Ply(p) => write!(f, "ply:{p}"),
            Spec::Heuristic(p) => write!(f, "heuristic:{p}"),
            Spec::Blend(p) => write!(f, "blend:{p}"),
            Spec::Noise(x) => write!(f, "noise:{}", f32::from(*x) / 1000.0),
            Spec::Random => f.write_str("random"),
            Spec::Greedy => f.write_str("greedy"),
        }
    }
}

impl Spec {
    /// How this player plays.
    pub fn level_spec(self) -> LevelSpec {
        let plain = |brain, plies| LevelSpec {
            brain,
            plies,
            noise: 0.0,
            blunder: 0.0,
            blend: false,
        };
        match self {
            Spec::Level(l) => level_spec(l),
            Spec::Ply(p) => plain(Brain::Net, p),
            Spec::Heuristic(p) => plain(Brain::Heuristic, p),
            Spec::Blend(p) => LevelSpec {
                blend: true,
                ..plain(Brain::Net, p)
            },
            Spec::Noise(x) => LevelSpec {
                noise: f32::from(x) / 1000.0,
                ..plain(Brain::Net, 0)
            },
            Spec::Random => plain(Brain::Random, 0),
            Spec::Greedy => plain(Brain::Greedy, 0),
        }
    }
}

/// A player: how it plays, and the network it thinks with.
pub type Player<'a> = (LevelSpec, &'a Net);

/// The next token at `state`: dice from `dice`, decisions by `players[side]`
/// (their own randomness from `rng`) under `payoff`; `None` once it is over.
pub fn next_token(
    state: &State,
    players: [Player<'_>; 2],
    payoff: Payoff,
    dice: &mut Rng,
    rng: &mut Rng,
) -> Option<Token> {
    Some(match state.phase() {
        Phase::Over => return None,
        Phase::Opening => Token::Start(dice.chance(), dice.chance()),
        Phase::Roll => Token::Roll(dice.chance()),
        _ => {
            let side = state.to_act().unwrap_or(Side::Light);
            let (spec, net) = players[side.index()];
            match decide_with(state, spec, net, payoff, rng)? {
                Decision::Move(m) => Token::Move(m),
                Decision::Verdict => Token::Verdict(dice.verdict()),
            }
        }
    })
}

/// Plays one game for points from the start to its end; `players[side]`
/// decides for each side.
pub fn play_game(players: [Player<'_>; 2], dice: &mut Rng, rng: &mut Rng) -> State {
    urgammon::playout(&State::new(), |s| {
        next_token(s, players, Payoff::MONEY, dice, rng)
    })
    .0
}

/// What one tournament game (or match) gave.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// True when A played light.
    pub a_light: bool,
    /// A's points minus B's in this game (or over the match's games).
    pub a_points: i32,
    /// 1 for an A win, 0 for a loss, 0.5 for a draw.
    pub a_score: f32,
    /// Games played (1, or the games of a match).
    pub games: u32,
}

/// Plays game (or match) number `index` of a tournament seeded by `seed`:
/// pairs share the dice seed, with the seats swapped.
pub fn play(
    a: Player<'_>,
    b: Player<'_>,
    match_to: Option<u32>,
    index: usize,
    seed: u64,
) -> Outcome {
    let a_light = index.is_multiple_of(2);
    let mut dice = Rng::new(seed ^ ((index / 2) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut rng = Rng::new(
        seed.wrapping_add(index as u64)
            .wrapping_mul(0x2545_f491_4f6c_dd1d),
    );
    let players = if a_light { [a, b] } else { [b, a] };
    let a_side = if a_light { Side::Light } else { Side::Dark };
    let Some(to) = match_to else {
        let end = play_game(players, &mut dice, &mut rng);
        let r = end.result();
        let (a_points, a_score) = match r.and_then(|r| r.winner) {
            Some(w) if w == a_side => (i32::from(r.map_or(0, |r| r.points)), 1.0),
            Some(_) => (-i32::from(r.map_or(0, |r| r.points)), 0.0),
            None => (0, 0.5),
        };
        return Outcome {
            a_light,
            a_points,
            a_score,
            games: 1,
        };
    };
    let settings = MatchSettings {
        to,
        ..MatchSettings::default()
    };
    let table = MatchTable::trained(to, DrawRule::Replay);
    let mut m = Match::new(settings);
    while m.result().is_none() {
        let score = m.score();
        let payoff = Payoff::for_match(&table, (score[Side::Light], score[Side::Dark]));
        let state = m.next_state();
        let Some(token) = next_token(&state, players, payoff, &mut dice, &mut rng) else {
            break;
        };
        if m.apply(token).is_err() {
            break;
        }
    }
    let score = m.score();
    let (mine, theirs) = if a_light {
        (score[Side::Light], score[Side::Dark])
    } else {
        (score[Side::Dark], score[Side::Light])
    };
    let a_score = match m.result().and_then(|r| r.winner) {
        Some(w) if w == a_side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    Outcome {
        a_light,
        a_points: mine as i32 - theirs as i32,
        a_score,
        games: m.finished().len() as u32 + 1,
    }
}

/// Totals of a tournament so far.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Games (or matches) played.
    pub played: usize,
    /// A's wins.
    pub wins: usize,
    /// A's losses.
    pub losses: usize,
    /// Draws.
    pub draws: usize,
    /// Sum of A's point differences.
    pub points: i64,
    /// Sum of squared point differences (for the interval).
    pub points_sq: i64,
    /// Games played in all (more than `played` in match mode).
    pub games: u64,
    /// A's wins as light, and games as light.
    pub a_light: (usize, usize),
}

impl Tally {
    /// Adds an outcome.
    pub fn add(&mut self, o: &Outcome) {
        self.played += 1;
        if o.a_score > 0.75 {
            self.wins += 1;
        } else if o.a_score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        self.points += i64::from(o.a_points);
        self.points_sq += i64::from(o.a_points) * i64::from(o.a_points);
        self.games += u64::from(o.games);
        if o.a_light {
            self.a_light.1 += 1;
            if o.a_score > 0.75 {
                self.a_light.0 += 1;
            }
        }
    }

    /// A's share of wins (draws half) and its 95% interval.
    pub fn win_rate(&self) -> (f64, f64, f64) {
        let n = self.played.max(1) as f64;
        let p = (self.wins as f64 + 0.5 * self.draws as f64) / n;
        let (lo, hi) = crate::share_95(p, n);
        (p, lo, hi)
    }

    /// A's mean point difference per game (or match) and its 95% interval.
    pub fn mean_points(&self) -> (f64, f64, f64) {
        let n = self.played.max(1) as f64;
        let mean = self.points as f64 / n;
        let var = (self.points_sq as f64 / n - mean * mean).max(0.0);
        let half = 1.96 * (var / n).sqrt();
        (mean, mean - half, mean + half)
    }
}

/// What a tournament plays.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Player A.
    pub a: Spec,
    /// Player B.
    pub b: Spec,
    /// Games (or matches) to play.
    pub games: usize,
    /// Match length; `None` plays single games for points.
    pub match_to: Option<u32>,
    /// Games played at once.
    pub threads: usize,
    /// Seed for the dice and the players.
    pub seed: u64,
}

/// Runs a tournament; `nets` are A's and B's networks (the trained one, or
/// checkpoints to compare); `progress` sees the tally after every game (or
/// match).
pub fn run(config: Config, nets: [&Net; 2], progress: &(dyn Fn(&Tally) + Sync)) -> Tally {
    let mut t = Tally::default();
    crate::par::run(
        config.games,
        config.threads,
        |i| {
            play(
                (config.a.level_spec(), nets[0]),
                (config.b.level_spec(), nets[1]),
                config.match_to,
                i,
                config.seed,
            )
        },
        |o| {
            t.add(&o);
            progress(&t);
            true
        },
    );
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_print() {
        for s in [
            "level:10",
            "ply:2",
            "heuristic:0",
            "noise:0.05",
            "random",
            "greedy",
        ] {
            assert_eq!(s.parse::<Spec>().unwrap().to_string(), s);
        }
        for bad in ["level:0", "level:11", "ply:3", "x", "", "level:"] {
            assert!(bad.parse::<Spec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn greedy_beats_random() {
        let config = Config {
            a: Spec::Greedy,
            b: Spec::Random,
            games: 200,
            match_to: None,
            threads: 2,
            seed: 3,
        };
        let t = run(config, [Net::trained(); 2], &|_| {});
        assert_eq!(t.played, 200);
        assert!(t.win_rate().0 > 0.55, "{:?}", t.win_rate());
    }

    #[test]
    fn matches_end_with_a_winner() {
        let config = Config {
            a: Spec::Level(crate::Level::new(7)),
            b: Spec::Greedy,
            games: 4,
            match_to: Some(3),
            threads: 1,
            seed: 1,
        };
        let t = run(config, [Net::trained(); 2], &|_| {});
        assert_eq!(t.played, 4);
        assert!(t.games >= 4);
    }
}
