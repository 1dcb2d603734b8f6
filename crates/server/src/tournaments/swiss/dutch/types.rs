//! The Dutch system's words: the field and its players (with their
//! colour preferences and who may meet whom), a candidate's quality and
//! faults in the order of the criteria, and what a bracket's search keeps.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

/// A player's float in one round (A.4): down when she played a lower
/// score (or scored without playing), up when she played a higher one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Float {
    /// Neither (an equal score, or no round played).
    #[default]
    None,
    /// A downfloat.
    Down,
    /// An upfloat.
    Up,
}

/// A player as the pairing of the next round sees her.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Entrant {
    /// Her account.
    pub account: i64,
    /// Her rating: the initial ranking (her pairing number) is by rating.
    pub rating: f64,
    /// Her score so far (a win 1, a draw ½, a bye 1).
    pub score: f64,
    /// Her opponents so far.
    pub opponents: Vec<i64>,
    /// Her seat in each game played so far (0 or 1), oldest first.
    pub seats: Vec<usize>,
    /// She has had a bye (or scored without playing): C.2.
    pub had_bye: bool,
    /// Her float in each round of the event so far, oldest first.
    pub floats: Vec<Float>,
    /// The rounds so far in which she played no game (a bye, an absence):
    /// the bye goes to the player with the fewest (C.9).
    pub unplayed: usize,
}

/// What the pairing needs to know of the event.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rules {
    /// Colours (seats) matter: Urgammon's matches, not Ringo's pairs.
    pub colours: bool,
    /// This is the event's last round: topscorers (A.7) may then meet
    /// whatever their colours.
    pub final_round: bool,
    /// The seat the odd pairing numbers get when nothing else decides
    /// (E.5's initial colour): 0, the first seat (the default), or 1.
    pub initial: usize,
}

/// A round's pairings: boards (first seat, second seat) and the bye.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Round {
    /// The boards, best first.
    pub boards: Vec<[i64; 2]>,
    /// The player with no opponent this round (a point).
    pub bye: Option<i64>,
    /// A bracket's search stopped at one of its limits (see the module): the pairing meets
    /// the absolute criteria but may be worse than the rules' best by the
    /// quality criteria. The director logs it and counts it in a metric.
    pub limited: bool,
}

/// A colour preference's strength (A.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

/// A player in the ranking of this round.
pub(super) struct Player<'a> {
    pub(super) e: &'a Entrant,
    /// Pairing number, from 1.
    pub(super) tpn: usize,
    /// Score in hundredths of a point (scores are compared exactly).
    pub(super) score: i64,
    /// The seat she prefers.
    pub(super) pref: Option<usize>,
    pub(super) strength: Strength,
    /// Colour difference: first seats minus second seats.
    pub(super) cd: i64,
    /// A topscorer (A.7).
    pub(super) top: bool,
}

pub(super) fn hundredths(x: f64) -> i64 {
    (x * 100.0).round() as i64
}

/// A.6: the colour preference of a player who has played `seats`.
pub(super) fn preference(seats: &[usize]) -> (Option<usize>, Strength, i64) {
    let first = seats.iter().filter(|&&s| s == 0).count() as i64;
    let cd = 2 * first - seats.len() as i64;
    let Some(&last) = seats.last() else {
        return (None, Strength::None, 0);
    };
    let last_two_same = seats.len() >= 2 && seats[seats.len() - 2] == last;
    if cd < -1 {
        (Some(0), Strength::Absolute, cd)
    } else if cd > 1 {
        (Some(1), Strength::Absolute, cd)
    } else if last_two_same {
        (Some(1 - last), Strength::Absolute, cd)
    } else if cd == -1 {
        (Some(0), Strength::Strong, cd)
    } else if cd == 1 {
        (Some(1), Strength::Strong, cd)
    } else {
        (Some(1 - last), Strength::Mild, cd)
    }
}

/// What a visit of [`transpositions`] is handed: the choice, the items
/// left, the allowance of unclean pairs left, the faults of the pairs
/// chosen so far, and the step count.
pub(super) type Visit<'a> =
    &'a mut dyn FnMut(&[usize], &[usize], usize, &Faults, &mut usize) -> ControlFlow<()>;

/// What [`transpositions`] asks of a pair: whether it may be made, whether
/// it is unclean (fails a quality criterion), what it fails, and whether a
/// partial candidate with these faults can still beat the best found.
pub(super) struct Costs<'c> {
    pub(super) ok: &'c dyn Fn(usize, usize) -> bool,
    pub(super) unclean: &'c dyn Fn(usize, usize) -> bool,
    pub(super) faults: &'c dyn Fn(usize, usize, &mut Faults),
    pub(super) hopeless: &'c dyn Fn(&Faults) -> bool,
    /// Whether adding the unclean pair `(a, b)` to a branch with these
    /// faults leaves it any hope.
    pub(super) acceptable: &'c dyn Fn(&Faults, usize, usize) -> bool,
    /// Whether a best candidate stands where a branch's faults decide
    /// (so that bounding them is worth its cost).
    pub(super) open: &'c dyn Fn() -> bool,
    /// Whether a pair leaves a colour preference unmet (C.12).
    pub(super) unmet: &'c dyn Fn(usize, usize) -> bool,
    /// Whether a branch with these faults is hopeless when it still needs
    /// this many unclean pairs and this many unmet preferences.
    pub(super) hopeless_needing: &'c dyn Fn(&Faults, usize, usize) -> bool,
}

/// The least faults a branch with faults `f` can end with when it still
/// needs `need` unclean pairs (each at least the `cheapest`, by count) and
/// `unmet` pairs leaving a colour preference unmet: two bounds, the larger.
pub(super) fn at_least(f: &Faults, need: usize, cheapest: Option<&Faults>, unmet: usize) -> Faults {
    let mut a = f.clone();
    if let Some(c) = cheapest {
        for i in 0..4 {
            a.colours[i] += need * c.colours[i];
            a.floats[i] += need * c.floats[i];
        }
    }
    let mut b = f.clone();
    b.colours[2] += unmet;
    a.max(b)
}

/// The most pairs (players to pair times players free) a branch of the
/// search tests pair by pair for hope: above it, a test at every branch
/// would cost more than it saves.
pub(super) const SMALL: usize = 1_024;

/// An exchange: the BSNs moved out of S1, and those moved into it.
pub(super) type Exchange = (Vec<usize>, Vec<usize>);

/// A bracket's pairs and the players it moves down.
pub(super) type Outcome = (Vec<(usize, usize)>, Vec<usize>);

/// C.8's measure of a next bracket: its pairs (negated) and its PSD.
pub(super) type Next = (i64, Vec<i64>);

/// The most steps (candidates and partial candidates) one bracket shape
/// is searched for: enough for every candidate of a bracket of ten
/// players, and a bound on a large bracket's time.
pub const BUDGET: usize = 200_000;

/// The passes of a bracket's search by the number of unclean pairs allowed
/// (the fewest possible, one more, … this many more), before the last pass,
/// which allows any number.
pub const ALLOWANCE_PASSES: usize = 6;

/// The quality of a candidate: its failures of C.7–C.21, in their order
/// (smaller is better; Rust compares the fields in order).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Quality {
    /// C.7: the pairing score differences, highest first.
    pub(super) psd: Vec<i64>,
    /// C.8: the next bracket's pairs (negated) and its PSD.
    pub(super) next: Next,
    /// C.9: the bye assignee's unplayed rounds.
    pub(super) bye_unplayed: usize,
    /// C.10–C.21.
    pub(super) faults: Faults,
}

/// A candidate's failures of C.10–C.21, in their order.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Faults {
    /// C.10–C.13: topscorers past ±2, topscorers thrice the same colour,
    /// colour preferences not met, strong ones not met.
    pub(super) colours: [usize; 4],
    /// C.14–C.17: repeated downfloats and upfloats (last round, two back).
    pub(super) floats: [usize; 4],
    /// C.18–C.21: their score differences, highest first.
    pub(super) float_sds: [Vec<i64>; 4],
}

/// The ranked field, and who may meet whom.
pub(super) struct Field<'a> {
    pub(super) p: Vec<Player<'a>>,
    pub(super) ok: Vec<Vec<bool>>,
    pub(super) bye_ok: Vec<bool>,
    pub(super) colours: bool,
    /// E.5's initial colour ([`Rules::initial`]).
    pub(super) initial: usize,
}

/// What one round's search remembers between candidates.
#[derive(Default)]
pub(super) struct Memo {
    pub(super) complete: HashMap<Vec<usize>, bool>,
    pub(super) next: HashMap<Vec<usize>, Next>,
    /// A bracket's search stopped at [`BUDGET`] steps.
    pub(super) limited: bool,
}

/// A candidate's place in the Dutch order of its bracket shape: the
/// exchange of moved-down players (D.3) and their opponents (D.1), then the
/// remainder's exchange (D.2) and transposition (D.1).
pub(super) type Place = (usize, Vec<usize>, usize, Vec<usize>);

/// The best candidate a bracket's search has found.
pub(super) struct Best {
    pub(super) quality: Quality,
    pub(super) place: Place,
    /// The pass of the search that found it.
    pub(super) pass: usize,
    pub(super) outcome: Outcome,
}

impl<'a> Field<'a> {
    /// The field ranked (A.2) with who may meet whom (C.1, C.3).
    pub(super) fn new(
        field: &'a [Entrant],
        blocked: &HashSet<(i64, i64)>,
        rules: Rules,
    ) -> Field<'a> {
        // A.2: the pairing numbers by rating; the order by score, then number.
        let mut by_rating: Vec<&Entrant> = field.iter().collect();
        by_rating.sort_by(|a, b| {
            b.rating
                .total_cmp(&a.rating)
                .then(a.account.cmp(&b.account))
        });
        let rounds_so_far = field.iter().map(|e| e.floats.len()).max().unwrap_or(0) as i64;
        let mut p: Vec<Player> = by_rating
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let (pref, strength, cd) = if rules.colours {
                    preference(&e.seats)
                } else {
                    (None, Strength::None, 0)
                };
                let score = hundredths(e.score);
                Player {
                    e,
                    tpn: i + 1,
                    score,
                    pref,
                    strength,
                    cd,
                    // A.7: over half the most points possible, before the last round.
                    top: rules.final_round && 2 * score > 100 * rounds_so_far,
                }
            })
            .collect();
        p.sort_by(|a, b| b.score.cmp(&a.score).then(a.tpn.cmp(&b.tpn)));
        let n = p.len();
        let mut ok = vec![vec![false; n]; n];
        for i in 0..n {
            for j in 0..n {
                ok[i][j] = i != j && may_meet(&p[i], &p[j], blocked, rules.colours);
            }
        }
        Field {
            bye_ok: p.iter().map(|x| !x.e.had_bye).collect(),
            p,
            ok,
            colours: rules.colours,
            initial: rules.initial,
        }
    }
}

/// C.1 and C.3: whether two players may meet.
fn may_meet(a: &Player, b: &Player, blocked: &HashSet<(i64, i64)>, colours: bool) -> bool {
    let (x, y) = (a.e.account, b.e.account);
    if a.e.opponents.contains(&y) || blocked.contains(&(x, y)) || blocked.contains(&(y, x)) {
        return false;
    }
    !(colours
        && a.strength == Strength::Absolute
        && b.strength == Strength::Absolute
        && a.pref == b.pref
        && !a.top
        && !b.top)
}
