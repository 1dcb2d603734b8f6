//! Exact values of Urgammon's endings, as backgammon engines have their
//! bear-off databases.
//!
//! **Reach.** Every position where each side has one or two pieces left to
//! bring home, whatever their kinds and wherever they are (waiting or on
//! the board), with either side to roll and either side having started:
//! 64 **classes** ([`Class`], e.g. `PCvH`: light has a pawn and a chariot
//! left, dark its hero). Beyond the tables, [`Exact`] plays every line out
//! to a horizon of a few rolls and answers exactly where every line ends in
//! the game's end or in a table (the levels ask it first at every
//! decision).
//!
//! **How.** A class's entries reach each other (a capture sends a piece
//! back, a turn with no move passes), so they are solved together by value
//! iteration over the whole turn: the chance die, the choice between a
//! move and the verdict die, the verdict die, the move, a rosette's bonus
//! roll, and the compensation turn, each played through the rules crate's
//! own [`urgammon::State`]. A bear-off leaves the class for a smaller one,
//! solved first. The sweeps stop when no value moves by 10⁻¹¹.
//!
//! **What an entry holds.** The probability of each outcome (wins and
//! losses by 1, 2 or 3 points, and the draw; no Babylon, with five pieces
//! home) under best play for the payoff the tables were solved for: points
//! for the stored tables, or a match's winning chances at a score
//! ([`Endings::for_payoff`], solved in memory). Seven 16-bit probabilities
//! an entry: 112 bits, values exact to 10⁻⁴.

mod build;
mod exact;
mod file;
mod index;
mod registry;
mod table;

pub use build::ClassSummary;
pub use exact::{Exact, HORIZON, NODES};
pub use file::{file_path, EndingsError};
pub use index::{locate, Class, Hand};
pub use registry::{install, installed};
pub use table::Endings;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::urgammon::eval::{Outcomes, POINTS};
    use crate::urgammon::payoff::Payoff;
    use crate::urgammon::search::{CHANCE, YES};
    use crate::Rng;
    use std::collections::HashMap;
    use urgammon::{parse_setup, Phase, Side, State, Token};

    fn built(classes: &[&str]) -> Endings {
        let mut e = Endings::new();
        let classes: Vec<Class> = classes.iter().map(|c| c.parse().unwrap()).collect();
        e.build(&classes, 2, &|_, _, _| {}).unwrap();
        e
    }

    #[test]
    fn classes_are_named_and_parsed_alike() {
        assert_eq!(Class::all().len(), 64);
        for c in Class::all() {
            assert_eq!(c.to_string().parse::<Class>(), Ok(c));
        }
        assert_eq!("HvCP".parse::<Class>().unwrap().to_string(), "HvPC");
        for bad in ["", "P", "PvHH", "PPPvP", "XvP", "Pv", "vP"] {
            assert!(bad.parse::<Class>().is_err(), "{bad}");
        }
    }

    /// Every entry of a class that names a position leads back to itself,
    /// and no two entries name one position.
    #[test]
    fn every_entry_names_a_position_that_locates_it() {
        for name in ["PvH", "PPvC", "CHvP"] {
            let class: Class = name.parse().unwrap();
            let mut seen = std::collections::HashSet::new();
            for i in 0..class.len() as u32 {
                if let Some(s) = class.state(i) {
                    assert_eq!(locate(&s), Some((class, i)), "{name} {i}");
                    assert!(seen.insert(s), "{name}: two entries name one position");
                }
            }
            assert!(!seen.is_empty());
        }
    }

    /// A position's turn spelled out as a tree, for the plain solver below.
    enum Tree {
        /// The chance die or the verdict die: weighted children.
        Chance(Vec<(f64, Tree)>),
        /// A choice of the side (true: light) among children.
        Choose(bool, Vec<Tree>),
        /// The game is over: light's points.
        Over(f64),
        /// Another state about to roll.
        Roll(usize),
    }

    /// The plain solver the tables are checked against: no classes, no
    /// index, no smaller tables, no compensation-turn special case, no
    /// rounding. It walks from the roots through `State::apply`, keeps
    /// every state about to roll in a map, and repeats "every state's value
    /// from the others'" (Jacobi) until nothing moves.
    fn plain(roots: &[State]) -> HashMap<State, f64> {
        let mut ids: HashMap<State, usize> = HashMap::new();
        let mut states: Vec<State> = vec![];
        let mut trees: Vec<Tree> = vec![];
        fn id(s: State, ids: &mut HashMap<State, usize>, states: &mut Vec<State>) -> usize {
            *ids.entry(s).or_insert_with(|| {
                states.push(s);
                states.len() - 1
            })
        }
        fn tree(s: &State, ids: &mut HashMap<State, usize>, states: &mut Vec<State>) -> Tree {
            let step = |t| {
                let mut n = *s;
                n.apply(t).unwrap();
                n
            };
            match s.phase() {
                Phase::Over => {
                    let r = s.result().unwrap();
                    let sign = match r.winner {
                        Some(Side::Light) => 1.0,
                        Some(Side::Dark) => -1.0,
                        None => 0.0,
                    };
                    Tree::Over(sign * f64::from(r.points))
                }
                Phase::Roll => Tree::Roll(id(*s, ids, states)),
                _ => {
                    let mut options = vec![];
                    if matches!(s.phase(), Phase::Decide | Phase::Move) {
                        for &m in s.moves().iter() {
                            options.push(tree(&step(Token::Move(m)), ids, states));
                        }
                    }
                    if matches!(s.phase(), Phase::Decide | Phase::Verdict) {
                        let y = f64::from(YES);
                        options.push(Tree::Chance(vec![
                            (y, tree(&step(Token::Verdict(true)), ids, states)),
                            (1.0 - y, tree(&step(Token::Verdict(false)), ids, states)),
                        ]));
                    }
                    Tree::Choose(s.to_act() == Some(Side::Light), options)
                }
            }
        }
        for r in roots {
            id(*r, &mut ids, &mut states);
        }
        while trees.len() < states.len() {
            let s = states[trees.len()];
            let rolls = CHANCE
                .iter()
                .map(|&(c, p)| {
                    let mut n = s;
                    n.apply(Token::Roll(c)).unwrap();
                    (f64::from(p), tree(&n, &mut ids, &mut states))
                })
                .collect();
            trees.push(Tree::Chance(rolls));
        }
        fn eval(t: &Tree, v: &[f64]) -> f64 {
            match t {
                Tree::Chance(kids) => kids.iter().map(|(p, k)| p * eval(k, v)).sum(),
                Tree::Choose(light, kids) => {
                    let vals = kids.iter().map(|k| eval(k, v));
                    if *light {
                        vals.fold(f64::MIN, f64::max)
                    } else {
                        vals.fold(f64::MAX, f64::min)
                    }
                }
                Tree::Over(x) => *x,
                Tree::Roll(i) => v[*i],
            }
        }
        let mut v = vec![0.0; states.len()];
        loop {
            let next: Vec<f64> = trees.iter().map(|t| eval(t, &v)).collect();
            let moved = next
                .iter()
                .zip(&v)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            v = next;
            if moved < 1e-12 {
                break;
            }
        }
        states.into_iter().zip(v).collect()
    }

    fn equity(o: &Outcomes) -> f64 {
        o.0.iter()
            .zip(POINTS)
            .map(|(p, u)| f64::from(*p) * f64::from(u))
            .sum()
    }

    /// Issue 87: the tables against a second, plain solver, on 300 random
    /// endings of one and two pieces a side (light or dark to roll, either
    /// side having started), to the tables' resolution.
    #[test]
    fn the_tables_agree_with_a_plain_solver_on_random_endings() {
        let names = ["PvP", "CvH", "HvC", "PvC", "HvP", "PCvH", "CvPP"];
        let endings = built(&names);
        let mut rng = Rng::new(87);
        let mut roots = vec![];
        while roots.len() < 300 {
            let class: Class = names[rng.below(names.len())].parse().unwrap();
            if let Some(s) = class.state(rng.below(class.len()) as u32) {
                roots.push(s);
            }
        }
        let truth = plain(&roots);
        let mut worst = 0.0f64;
        for r in &roots {
            let got = equity(&endings.probe(r).unwrap());
            worst = worst.max((got - truth[r]).abs());
        }
        assert!(worst < 2e-4, "the tables differ from plain play by {worst}");
    }

    /// Issue 87's position (strategy `urgammon/ending-one-home`): after `r2`
    /// every line ends in a Babylon unless light bears its pawn off. The
    /// exact search finds −3.00 and −4.00 without any table.
    #[test]
    fn ending_one_home_is_exact() {
        let mut s = parse_setup(
            "light=13b:P,3a:P,5:C dark=12a:H,off:P,off:P,off:P,off:C,off:C,off:C roll=light",
        )
        .unwrap();
        s.apply(Token::Roll(2)).unwrap();
        let opts = Exact::new(Payoff::MONEY, None, NODES)
            .options(&s, HORIZON)
            .unwrap();
        let eq: Vec<(String, f64)> = opts
            .iter()
            .map(|c| (format!("{:?}", c.decision), equity(&c.outcomes)))
            .collect();
        assert!((opts[0].value + 3.0).abs() < 1e-6, "{eq:?}");
        assert!(
            matches!(opts[0].decision, crate::urgammon::Decision::Move(m) if m.notation(Side::Light) == "13b-off"),
            "{eq:?}"
        );
        for c in &opts[1..] {
            assert!((c.value + 4.0).abs() < 1e-6, "{eq:?}");
        }
    }

    /// "The engine at every level that uses it plays these positions
    /// perfectly and reports exact values": levels 3–10 (the greedy levels
    /// 1–2 do not think) analyse ending-one-home as exact, −3.00 and
    /// −4.00, and bear the pawn off.
    #[test]
    fn every_thinking_level_is_exact_in_ending_one_home() {
        use crate::urgammon::levels::{analyze, decide, level_spec};
        let mut s = parse_setup(
            "light=13b:P,3a:P,5:C dark=12a:H,off:P,off:P,off:P,off:C,off:C,off:C roll=light",
        )
        .unwrap();
        s.apply(Token::Roll(2)).unwrap();
        for level in 3..=10 {
            let a = analyze(&s, crate::Level::new(level), Payoff::MONEY);
            assert!(a.exact, "level {level}");
            let verdict = a
                .options
                .iter()
                .find(|c| c.decision == crate::urgammon::Decision::Verdict)
                .unwrap();
            assert!((verdict.value + 4.0).abs() < 1e-6, "level {level}");
            assert!((a.options[0].value + 3.0).abs() < 1e-6, "level {level}");
            // Level 3's noise is 0.2 points: an exact answer takes none.
            for seed in 0..20 {
                let d = decide(
                    &s,
                    level_spec(crate::Level::new(level)),
                    Payoff::MONEY,
                    &mut Rng::new(seed),
                );
                assert_eq!(d, Some(a.options[0].decision), "level {level}");
            }
        }
    }

    /// Where a line does not end within the horizon there is no answer,
    /// never an estimate.
    #[test]
    fn no_exact_answer_at_the_start() {
        let mut s = State::new();
        s.apply(Token::Start(1, 2)).unwrap();
        assert!(Exact::new(Payoff::MONEY, None, NODES)
            .options(&s, HORIZON)
            .is_none());
    }

    /// Solved for a match score, the tables choose for the match: at
    /// double match point every win is worth the same, so an entry's value
    /// is its chance to win (a draw replays the game at 1–1: a half).
    #[test]
    fn a_match_at_double_match_point_values_only_winning() {
        use crate::urgammon::payoff::MatchTable;
        let table = MatchTable::trained(7, urgammon::DrawRule::Replay);
        let payoff = Payoff::for_match(&table, (6, 6));
        let mut e = Endings::for_payoff(payoff);
        e.build(&["PvC".parse().unwrap()], 1, &|_, _, _| {})
            .unwrap();
        let class: Class = "PvC".parse().unwrap();
        for i in (0..class.len() as u32).step_by(7) {
            if let Some(s) = class.state(i) {
                let o = e.probe(&s).unwrap();
                let win = o.0[0] + o.0[1] + o.0[2] + o.0[3];
                assert!((payoff.value(&o, Side::Light) - (win + 0.5 * o.0[8])).abs() < 1e-3);
            }
        }
        // Only the points tables go to disk.
        assert!(e.save(std::path::Path::new("/nonexistent")).is_err());
    }

    #[test]
    fn files_round_trip_and_a_damaged_one_is_refused() {
        let e = built(&["PvH"]);
        let dir = std::env::temp_dir().join(format!("agon-endings-{}", std::process::id()));
        e.save(&dir).unwrap();
        let back = Endings::load(&dir).unwrap();
        assert_eq!(back.classes(), e.classes());
        let class: Class = "PvH".parse().unwrap();
        for i in 0..class.len() as u32 {
            if let Some(s) = class.state(i) {
                assert_eq!(back.probe(&s), e.probe(&s));
            }
        }
        let path = file_path(&dir, class);
        let mut bytes = std::fs::read(&path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(Endings::load(&dir).is_err());
        std::fs::write(&path, &bytes[..mid]).unwrap();
        assert!(Endings::load(&dir).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
