//! The playing levels 1–10: what each thinks with ([`Brain`]), how deep it
//! searches and how much noise it adds ([`LevelSpec`]); [`decide`] plays a
//! level's choice and [`analyze`] reports every option's value.

use crate::urgammon::endings::{self, Exact};
use crate::urgammon::eval::{Evaluator, Heuristic, Net, Outcomes};
use crate::urgammon::payoff::Payoff;
use crate::urgammon::player::{greedy_decision, random_decision, Decision};
use crate::urgammon::search::{Choice, Search};
use crate::Rng;
use urgammon::{Phase, State};

/// What a level thinks with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Brain {
    /// Uniformly random choices (the verdict die 30% of the time).
    Random,
    /// The greedy baseline.
    Greedy,
    /// Expectimax over the hand-written heuristic.
    Heuristic,
    /// Expectimax over the trained network.
    Net,
}

/// How a level plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelSpec {
    /// The evaluator.
    pub brain: Brain,
    /// Search depth in chance rolls (0–2).
    pub plies: u32,
    /// Random noise added to each option's value (in points; a tenth of it
    /// in match-winning chance), so lower levels err like people do.
    pub noise: f32,
    /// Chance of a random choice instead of the chosen one.
    pub blunder: f32,
    /// Value options by the mean of this depth and the one below
    /// ([`Search::blended_options`]).
    pub blend: bool,
}

/// The levels. Each level scored above the one below it over 1000 games
/// (docs/urgammon-engine.md has the table); noise is in points.
///
/// | level | plays |
/// | --- | --- |
/// | 1 | greedy, with a random choice three times in four |
/// | 2 | greedy: capture, rosette, furthest piece; verdict die only when forced |
/// | 3 | the network, 0 plies, noise 0.2 |
/// | 4 | the hand-written heuristic, 0 plies |
/// | 5 | the network, 0 plies, noise 0.07 |
/// | 6 | the network, 0 plies, noise 0.03 |
/// | 7 | the network, 0 plies, noise 0.015 |
/// | 8 | the network, 0 plies |
/// | 9 | the network, 1 ply |
/// | 10 | the network, the mean of 2 plies and 1 ply ([`Search::blended_options`]) |
pub fn level_spec(level: crate::Level) -> LevelSpec {
    let spec = |brain, plies, noise, blunder| LevelSpec {
        brain,
        plies,
        noise,
        blunder,
        blend: false,
    };
    match level.get() {
        1 => spec(Brain::Greedy, 0, 0.0, 0.75),
        2 => spec(Brain::Greedy, 0, 0.0, 0.0),
        3 => spec(Brain::Net, 0, 0.2, 0.0),
        4 => spec(Brain::Heuristic, 0, 0.0, 0.0),
        5 => spec(Brain::Net, 0, 0.07, 0.0),
        6 => spec(Brain::Net, 0, 0.03, 0.0),
        7 => spec(Brain::Net, 0, 0.015, 0.0),
        8 => spec(Brain::Net, 0, 0.0, 0.0),
        9 => spec(Brain::Net, 1, 0.0, 0.0),
        // A plain 2-ply search scored no better than 1 ply (50.3% over 2000
        // games); the blend scored 53.4% with +0.12 points a game.
        _ => LevelSpec {
            blend: true,
            ..spec(Brain::Net, 2, 0.0, 0.0)
        },
    }
}

/// A standard normal sample (Box–Muller), for level noise.
fn gaussian(rng: &mut Rng) -> f32 {
    let u1 = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
}

/// The decision a level makes at `state` under `payoff`, or `None` when the
/// state asks for no decision (a roll is due, or the game is over).
pub fn decide(state: &State, spec: LevelSpec, payoff: Payoff, rng: &mut Rng) -> Option<Decision> {
    decide_with(state, spec, Net::trained(), payoff, rng)
}

/// [`decide`] with another network (a checkpoint being trained or compared).
pub fn decide_with(
    state: &State,
    spec: LevelSpec,
    net: &Net,
    payoff: Payoff,
    rng: &mut Rng,
) -> Option<Decision> {
    if !matches!(state.phase(), Phase::Decide | Phase::Move | Phase::Verdict) {
        return None;
    }
    if state.phase() == Phase::Verdict {
        return Some(Decision::Verdict);
    }
    if spec.blunder > 0.0 && (rng.below(1000) as f32) < spec.blunder * 1000.0 {
        return random_decision(state, rng);
    }
    let eval: &dyn Evaluator = match spec.brain {
        Brain::Random => return random_decision(state, rng),
        Brain::Greedy => return greedy_decision(state, rng),
        Brain::Heuristic => &Heuristic,
        Brain::Net => net,
    };
    // A single legal option needs no thought.
    if state.phase() == Phase::Move && state.moves().len() == 1 {
        return Some(Decision::Move(state.moves()[0]));
    }
    // Where every line is known to its end, every thinking level plays
    // perfectly: no search, and no noise.
    if let Some(options) = exact_options(state, payoff) {
        return options.first().map(|c| c.decision);
    }
    let search = Search::new(eval, payoff);
    let mut options = if spec.blend {
        search.blended_options(state, spec.plies)
    } else {
        search.options(state, spec.plies)
    };
    if spec.noise > 0.0 {
        let scale = if payoff.is_match() { 0.1 } else { 1.0 };
        for o in &mut options {
            o.value += spec.noise * scale * gaussian(rng);
        }
        options.sort_by(|a, b| b.value.total_cmp(&a.value));
    }
    if let Some(best) = options.first() {
        tracing::trace!(decision = ?best.decision, value = best.value, options = options.len(), "decided");
    }
    options.first().map(|c| c.decision)
}

/// Every option at a decision with its exact outcomes, best first, when
/// every line of every option ends within [`endings::HORIZON`] rolls, in the
/// game's end or in the installed endings ([`endings::install`]).
pub fn exact_options(state: &State, payoff: Payoff) -> Option<Vec<Choice>> {
    Exact::new(payoff, endings::installed(), endings::NODES).options(state, endings::HORIZON)
}

/// An analysis: every option with its evaluation, or the evaluation of the
/// position when no decision is due.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The evaluator used.
    pub brain: Brain,
    /// The depth searched, in chance rolls.
    pub plies: u32,
    /// True when values are the mean of `plies` and `plies − 1` (level 10).
    pub blended: bool,
    /// The options, best first (empty when no decision is due).
    pub options: Vec<Choice>,
    /// The position's outcome probabilities from light's point of view: with
    /// the best option taken at a decision, exact once the game is over.
    pub position: Outcomes,
    /// True when every value is exact (every line played out to its end or
    /// to the endings' tables), not the evaluator's estimate.
    pub exact: bool,
}

/// Analyses `state` as level `level` would, without its noise: levels 1–3 use
/// the hand-written heuristic (the baselines have no evaluation of their own),
/// levels 4–10 the network at their depth. Exact where every line ends in
/// the game's end or in the installed endings ([`endings::install`]).
pub fn analyze(state: &State, level: crate::Level, payoff: Payoff) -> Analysis {
    analyze_with(state, level, payoff, endings::installed())
}

/// [`analyze`] with these endings (tables built in memory: the puzzles'
/// check) instead of the installed ones.
pub fn analyze_with(
    state: &State,
    level: crate::Level,
    payoff: Payoff,
    tables: Option<&endings::Endings>,
) -> Analysis {
    let mut spec = level_spec(level);
    spec.noise = 0.0;
    let eval: &dyn Evaluator = match spec.brain {
        Brain::Net => Net::trained(),
        _ => {
            spec.brain = Brain::Heuristic;
            &Heuristic
        }
    };
    let exact = Exact::new(payoff, tables, endings::NODES);
    // Asked once: the search's budget is spent as it goes.
    let roll_exact = match state.phase() {
        Phase::Decide | Phase::Move | Phase::Verdict => None,
        _ => exact.value(state, endings::HORIZON),
    };
    let search = Search::new(eval, payoff);
    match state.phase() {
        Phase::Decide | Phase::Move | Phase::Verdict => {
            if let Some(options) = exact.options(state, endings::HORIZON) {
                return Analysis {
                    brain: spec.brain,
                    plies: spec.plies,
                    blended: spec.blend,
                    position: options.first().map(|c| c.outcomes).unwrap_or_default(),
                    options,
                    exact: true,
                };
            }
            let options = if spec.blend {
                search.blended_options(state, spec.plies)
            } else {
                search.options(state, spec.plies)
            };
            let position = options.first().map(|c| c.outcomes).unwrap_or_default();
            Analysis {
                brain: spec.brain,
                plies: spec.plies,
                blended: spec.blend,
                options,
                position,
                exact: false,
            }
        }
        _ if roll_exact.is_some() => Analysis {
            brain: spec.brain,
            plies: spec.plies,
            blended: spec.blend,
            options: vec![],
            position: roll_exact.unwrap_or_default(),
            exact: true,
        },
        _ => Analysis {
            brain: spec.brain,
            plies: spec.plies,
            blended: spec.blend,
            options: vec![],
            position: {
                let mut o = search.value_roll(state, spec.plies);
                if spec.blend && spec.plies > 0 {
                    let shallow = search.value_roll(state, spec.plies - 1);
                    let mut mean = Outcomes::default();
                    mean.add_scaled(&o, 0.5);
                    mean.add_scaled(&shallow, 0.5);
                    o = mean;
                }
                o
            },
            exact: false,
        },
    }
}
