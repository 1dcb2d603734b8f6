//! The FIDE (Dutch) system of pairing a Swiss round, in the text applied
//! since 1 July 2025 (C.04.3): its absolute criteria C.1–C.3, its completion
//! criterion C.4 and its quality criteria C.5–C.21 in their order, its
//! brackets (scoregroups with the players moved down to them), the order in
//! which it tries candidates (transpositions D.1, exchanges D.2 and
//! exchanges of moved-down players D.3) and its colour allocation rules.
//!
//! How it works is how the rules read, bracket by bracket from the top: for
//! each bracket, candidates are generated in the Dutch order; each is
//! checked for the absolute criteria and for completion (the players left
//! below can still all be paired, a perfect-matching question answered by
//! [`super::matching`]) and scored on the quality criteria; the first
//! candidate that meets them all is taken, else the best one, the earliest
//! in the Dutch order among equals. The number of pairs (C.6) and of
//! moved-down players paired fix the bracket's shape, tried from the most.
//!
//! The search is a branch and bound in the Dutch order. It goes by passes,
//! each allowing a number of *unclean* pairs (pairs failing a quality
//! criterion): first the fewest any candidate can have (the bracket's pairs
//! less a largest matching of clean pairs), then one more, up to
//! [`ALLOWANCE_PASSES`] more, then any number. A branch is left at once
//! when it cannot be finished within the allowance (a largest clean
//! matching of the players left says so) or cannot beat the best candidate
//! found (its faults so far, plus what the unclean pairs and unmet colour
//! preferences it still needs add, already no better; an equal candidate
//! loses to the one earlier in the Dutch order, across passes too). A
//! candidate at the bracket's floor (C.7 and C.8 at their ideal, the faults
//! the fewest unclean pairs and unmet preferences force) ends the search
//! when no later pass can equal it: so a large bracket whose best is forced
//! (round 2 of 1,000 players) is proven in a fraction of a second.
//!
//! Limits, each said ([`Round::limited`]): a pass stops at [`BUDGET`]
//! steps, a size of exchanges with more than [`BUDGET`] of them is not
//! tried, and the passes stop one past the first that found a candidate
//! unless the cheapest unclean pair shows no later pass can do better. C.8
//! (the next bracket's pairs and score differences) counts the next
//! bracket's pairs without the completion criterion and takes its
//! moved-down players to pair greedily, highest score first.
//!
//! Colours are seats: the first seat is "white". With `colours` off (Ringo,
//! whose rounds are pairs of games with the seats swapped) nobody has a
//! colour preference and C.3 never keeps two players apart.

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

use super::matching;

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
enum Strength {
    None,
    Mild,
    Strong,
    Absolute,
}

/// A player in the ranking of this round.
struct Player<'a> {
    e: &'a Entrant,
    /// Pairing number, from 1.
    tpn: usize,
    /// Score in hundredths of a point (scores are compared exactly).
    score: i64,
    /// The seat she prefers.
    pref: Option<usize>,
    strength: Strength,
    /// Colour difference: first seats minus second seats.
    cd: i64,
    /// A topscorer (A.7).
    top: bool,
}

fn hundredths(x: f64) -> i64 {
    (x * 100.0).round() as i64
}

/// A.6: the colour preference of a player who has played `seats`.
fn preference(seats: &[usize]) -> (Option<usize>, Strength, i64) {
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
type Visit<'a> =
    &'a mut dyn FnMut(&[usize], &[usize], usize, &Faults, &mut usize) -> ControlFlow<()>;

/// What [`transpositions`] asks of a pair: whether it may be made, whether
/// it is unclean (fails a quality criterion), what it fails, and whether a
/// partial candidate with these faults can still beat the best found.
struct Costs<'c> {
    ok: &'c dyn Fn(usize, usize) -> bool,
    unclean: &'c dyn Fn(usize, usize) -> bool,
    faults: &'c dyn Fn(usize, usize, &mut Faults),
    hopeless: &'c dyn Fn(&Faults) -> bool,
    /// Whether adding the unclean pair `(a, b)` to a branch with these
    /// faults leaves it any hope.
    acceptable: &'c dyn Fn(&Faults, usize, usize) -> bool,
    /// Whether a best candidate stands where a branch's faults decide
    /// (so that bounding them is worth its cost).
    open: &'c dyn Fn() -> bool,
    /// Whether a pair leaves a colour preference unmet (C.12).
    unmet: &'c dyn Fn(usize, usize) -> bool,
    /// Whether a branch with these faults is hopeless when it still needs
    /// this many unclean pairs and this many unmet preferences.
    hopeless_needing: &'c dyn Fn(&Faults, usize, usize) -> bool,
}

/// The least faults a branch with faults `f` can end with when it still
/// needs `need` unclean pairs (each at least the `cheapest`, by count) and
/// `unmet` pairs leaving a colour preference unmet: two bounds, the larger.
fn at_least(f: &Faults, need: usize, cheapest: Option<&Faults>, unmet: usize) -> Faults {
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
const SMALL: usize = 1_024;

/// An exchange: the BSNs moved out of S1, and those moved into it.
type Exchange = (Vec<usize>, Vec<usize>);

/// A bracket's pairs and the players it moves down.
type Outcome = (Vec<(usize, usize)>, Vec<usize>);

/// C.8's measure of a next bracket: its pairs (negated) and its PSD.
type Next = (i64, Vec<i64>);

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
struct Quality {
    /// C.7: the pairing score differences, highest first.
    psd: Vec<i64>,
    /// C.8: the next bracket's pairs (negated) and its PSD.
    next: Next,
    /// C.9: the bye assignee's unplayed rounds.
    bye_unplayed: usize,
    /// C.10–C.21.
    faults: Faults,
}

/// A candidate's failures of C.10–C.21, in their order.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Faults {
    /// C.10–C.13: topscorers past ±2, topscorers thrice the same colour,
    /// colour preferences not met, strong ones not met.
    colours: [usize; 4],
    /// C.14–C.17: repeated downfloats and upfloats (last round, two back).
    floats: [usize; 4],
    /// C.18–C.21: their score differences, highest first.
    float_sds: [Vec<i64>; 4],
}

/// The ranked field, and who may meet whom.
struct Field<'a> {
    p: Vec<Player<'a>>,
    ok: Vec<Vec<bool>>,
    bye_ok: Vec<bool>,
    colours: bool,
    /// E.5's initial colour ([`Rules::initial`]).
    initial: usize,
}

/// What one round's search remembers between candidates.
#[derive(Default)]
struct Memo {
    complete: HashMap<Vec<usize>, bool>,
    next: HashMap<Vec<usize>, Next>,
    /// A bracket's search stopped at [`BUDGET`] steps.
    limited: bool,
}

/// A candidate's place in the Dutch order of its bracket shape: the
/// exchange of moved-down players (D.3) and their opponents (D.1), then the
/// remainder's exchange (D.2) and transposition (D.1).
type Place = (usize, Vec<usize>, usize, Vec<usize>);

/// The best candidate a bracket's search has found.
struct Best {
    quality: Quality,
    place: Place,
    /// The pass of the search that found it.
    pass: usize,
    outcome: Outcome,
}

/// Pairs the next round of `field` (the players still in the event),
/// keeping apart players in `blocked` (either way) as C.1 keeps apart
/// players who have met.
pub fn pair(field: &[Entrant], blocked: &HashSet<(i64, i64)>, rules: Rules) -> Round {
    let mut f = Field::new(field, blocked, rules);
    let n = f.p.len();
    let mut memo = Memo::default();
    let everyone: Vec<usize> = (0..n).collect();
    // A round that cannot be completed (a small field late in an event):
    // as many as can be paired are, the others wait this round.
    let mut playing = everyone.clone();
    if !f.completable(&everyone, &mut memo) {
        // Pairs only: a bye here would be a point to one of the players
        // who cannot be paired and none to the others.
        let adj = f.graph(&everyone, false);
        let mate = matching::maximum(&adj);
        playing = everyone
            .iter()
            .copied()
            .filter(|&i| mate[i].is_some())
            .collect();
        memo = Memo::default();
    }
    // C.5: the bye goes to a player of the lowest score that lets the
    // round be completed.
    if playing.len() % 2 == 1 {
        let mut scores: Vec<i64> = playing.iter().map(|&i| f.p[i].score).collect();
        scores.sort_unstable();
        scores.dedup();
        let eligible = f.bye_ok.clone();
        for s in scores {
            for &i in &playing {
                f.bye_ok[i] = eligible[i] && f.p[i].score <= s;
            }
            memo = Memo::default();
            if f.completable(&playing, &mut memo) {
                break;
            }
        }
    }
    // The scoregroups, top down; each bracket is its scoregroup with the
    // players moved down to it.
    let mut groups: Vec<Vec<usize>> = vec![];
    for &i in &playing {
        match groups.last_mut() {
            Some(g) if f.p[g[0]].score == f.p[i].score => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut pairs: Vec<(usize, usize)> = vec![];
    let mut moved: Vec<usize> = vec![];
    for g in 0..groups.len() {
        let lower: Vec<usize> = groups[g + 1..].concat();
        let (paired, floaters) =
            f.bracket(&moved, &groups[g], &lower, groups.get(g + 1), &mut memo);
        pairs.extend(paired);
        moved = floaters;
    }
    let bye = match moved.as_slice() {
        [one] => Some(f.p[*one].e.account),
        _ => None,
    };
    pairs.sort_by(|a, b| {
        let top = |&(x, y): &(usize, usize)| x.min(y);
        f.p[top(b)]
            .score
            .cmp(&f.p[top(a)].score)
            .then(top(a).cmp(&top(b)))
    });
    Round {
        boards: pairs
            .iter()
            .map(|&(a, b)| {
                let (hi, lo) = (a.min(b), a.max(b));
                if f.first_seat(hi, lo) {
                    [f.p[hi].e.account, f.p[lo].e.account]
                } else {
                    [f.p[lo].e.account, f.p[hi].e.account]
                }
            })
            .collect(),
        bye,
        limited: memo.limited,
    }
}

impl<'a> Field<'a> {
    /// The field ranked (A.2) with who may meet whom (C.1, C.3).
    fn new(field: &'a [Entrant], blocked: &HashSet<(i64, i64)>, rules: Rules) -> Field<'a> {
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

/// Visits each ordered choice of `s1.len()` of `items` (BSNs ascending)
/// in lexicographic order (D.1), skipping those that put together two
/// players who may not meet, those with more than `allow` unclean pairs,
/// and those whose faults (from `start` on) already make them no better
/// than the best candidate found ([`Costs::hopeless`]); `visit` sees the
/// choice, the items left, the allowance left and the faults.
fn transpositions(
    items: &[usize],
    s1: &[usize],
    costs: &Costs,
    allow: usize,
    start: &Faults,
    steps: &mut usize,
    visit: Visit,
) -> ControlFlow<()> {
    #[allow(clippy::too_many_arguments)]
    fn go(
        items: &[usize],
        s1: &[usize],
        costs: &Costs,
        allow: usize,
        acc: &Faults,
        chosen: &mut Vec<usize>,
        used: &mut Vec<bool>,
        steps: &mut usize,
        visit: Visit,
    ) -> ControlFlow<()> {
        *steps += 1;
        if *steps > BUDGET {
            return ControlFlow::Break(());
        }
        // A better candidate found since this branch began may leave it
        // hopeless.
        if (costs.hopeless)(acc) {
            return ControlFlow::Continue(());
        }
        // A bound: the players of S1 still to pair need at least as many
        // unclean pairs as a largest matching of clean pairs leaves out
        // (and a matching at all), so a branch that cannot be finished
        // within the allowance is left at once rather than explored.
        let todo = &s1[chosen.len()..];
        // (Bounded where the branch is small: in a large one the test at
        // every branch would cost more than it saves.)
        let open = !todo.is_empty()
            && todo.len() * (items.len() - chosen.len()) <= SMALL / 4
            && (costs.open)();
        if allow < todo.len() || open {
            let free: Vec<usize> = (0..items.len()).filter(|&k| !used[k]).collect();
            let clean = bipartite(todo.len(), free.len(), &|i, j| {
                let (a, b) = (todo[i], items[free[j]]);
                (costs.ok)(a, b) && !(costs.unclean)(a, b)
            });
            if clean + allow < todo.len() {
                return ControlFlow::Continue(());
            }
            // The unclean pairs (and unmet preferences) the branch still
            // needs, added to its faults, may already leave it hopeless.
            if open {
                let met = bipartite(todo.len(), free.len(), &|i, j| {
                    let (a, b) = (todo[i], items[free[j]]);
                    (costs.ok)(a, b) && !(costs.unmet)(a, b)
                });
                let (need, unmet) = (todo.len() - clean, todo.len().saturating_sub(met));
                if (costs.hopeless_needing)(acc, need, unmet) {
                    return ControlFlow::Continue(());
                }
            }
            // And a matching at all of pairs that are clean or whose faults
            // would leave the branch with hope (a small branch: the test
            // costs a pair's faults for each pair).
            if allow > 0 && chosen.is_empty() && todo.len() * free.len() <= SMALL {
                let usable = bipartite(todo.len(), free.len(), &|i, j| {
                    let (a, b) = (todo[i], items[free[j]]);
                    (costs.ok)(a, b) && (!(costs.unclean)(a, b) || (costs.acceptable)(acc, a, b))
                });
                if usable < todo.len() {
                    return ControlFlow::Continue(());
                }
            }
        }
        if chosen.len() == s1.len() {
            let rest: Vec<usize> = items
                .iter()
                .zip(used.iter())
                .filter(|(_, u)| !**u)
                .map(|(i, _)| *i)
                .collect();
            return visit(chosen, &rest, allow, acc, steps);
        }
        for k in 0..items.len() {
            let a = s1[chosen.len()];
            if used[k] || !(costs.ok)(a, items[k]) {
                continue;
            }
            let unclean = (costs.unclean)(a, items[k]);
            let cost = usize::from(unclean);
            if cost > allow {
                continue;
            }
            // An unclean pair adds its faults: a branch already no better
            // than the best candidate is left (faults only grow).
            let more;
            let acc = if unclean {
                let mut f = acc.clone();
                (costs.faults)(a, items[k], &mut f);
                if (costs.hopeless)(&f) {
                    continue;
                }
                more = f;
                &more
            } else {
                acc
            };
            used[k] = true;
            chosen.push(items[k]);
            let flow = go(
                items,
                s1,
                costs,
                allow - cost,
                acc,
                chosen,
                used,
                steps,
                visit,
            );
            chosen.pop();
            used[k] = false;
            flow?;
        }
        ControlFlow::Continue(())
    }
    go(
        items,
        s1,
        costs,
        allow,
        start,
        &mut vec![],
        &mut vec![false; items.len()],
        steps,
        visit,
    )
}

/// The size of a largest matching between `left` and `right` items
/// joined where `edge` says (Kuhn's augmenting paths: the brackets' halves
/// are small). Each pair is asked once, and a greedy pass matches first.
fn bipartite(left: usize, right: usize, edge: &dyn Fn(usize, usize) -> bool) -> usize {
    fn augment(i: usize, near: &[Vec<u32>], seen: &mut [bool], mate: &mut [Option<u32>]) -> bool {
        for &j in &near[i] {
            let j = j as usize;
            if seen[j] {
                continue;
            }
            seen[j] = true;
            if mate[j].is_none_or(|k| augment(k as usize, near, seen, mate)) {
                mate[j] = Some(i as u32);
                return true;
            }
        }
        false
    }
    let near: Vec<Vec<u32>> = (0..left)
        .map(|i| {
            (0..right)
                .filter(|&j| edge(i, j))
                .map(|j| j as u32)
                .collect()
        })
        .collect();
    let mut mate: Vec<Option<u32>> = vec![None; right];
    let mut done = vec![false; left];
    let mut size = 0;
    // Greedy first: most players find a free partner at once.
    for (i, d) in done.iter_mut().enumerate() {
        if let Some(&j) = near[i].iter().find(|&&j| mate[j as usize].is_none()) {
            mate[j as usize] = Some(i as u32);
            *d = true;
            size += 1;
        }
    }
    let mut seen = vec![false; right];
    for (i, _) in done.iter().enumerate().filter(|(_, d)| !**d) {
        seen.iter_mut().for_each(|x| *x = false);
        if augment(i, &near, &mut seen, &mut mate) {
            size += 1;
        }
    }
    size
}

/// The exchanges between `s1` and `s2` (BSNs ascending) in the Dutch
/// order (D.2, and D.3 between S1 and the limbo): fewer players first,
/// then the smaller difference of the sums of the BSNs swapped, then the
/// one moving the higher BSN out of S1, then the one moving the lower BSN
/// out of S2. The empty exchange (the original S1 and S2) comes first.
///
/// Lazy, a size at a time: most searches end among the single exchanges,
/// and a large bracket's longer ones are many. A size with more than
/// `limit` exchanges ends the list, and `cut` says so (the search is then
/// limited).
pub(crate) fn exchanges<'a>(
    s1: &'a [usize],
    s2: &'a [usize],
    limit: usize,
    cut: &'a Cell<bool>,
) -> impl Iterator<Item = Exchange> + 'a {
    fn combinations(items: &[usize], k: usize, limit: usize) -> Vec<Vec<usize>> {
        let mut out = vec![];
        let mut idx: Vec<usize> = (0..k).collect();
        if k > items.len() {
            return out;
        }
        loop {
            out.push(idx.iter().map(|&i| items[i]).collect());
            if out.len() > limit {
                return out;
            }
            let Some(pos) = (0..k).rev().find(|&p| idx[p] != p + items.len() - k) else {
                return out;
            };
            idx[pos] += 1;
            for q in pos + 1..k {
                idx[q] = idx[q - 1] + 1;
            }
        }
    }
    (0..=s1.len().min(s2.len()))
        .map(move |k| {
            if k == 0 {
                return Some(vec![(vec![], vec![])]);
            }
            let from1 = combinations(s1, k, limit);
            let from2 = combinations(s2, k, limit);
            if from1.len().saturating_mul(from2.len()) > limit {
                cut.set(true);
                return None;
            }
            let mut these: Vec<Exchange> = vec![];
            for a in &from1 {
                for b in &from2 {
                    these.push((a.clone(), b.clone()));
                }
            }
            these.sort_by(exchange_order);
            Some(these)
        })
        .take_while(Option::is_some)
        .flatten()
        .flatten()
}

/// Of two sets of BSNs, the one holding the highest (or the lowest) BSN
/// that only one of them holds comes first.
fn holds_extreme(x: &[usize], y: &[usize], highest: bool) -> Ordering {
    let only = x
        .iter()
        .filter(|v| !y.contains(v))
        .chain(y.iter().filter(|v| !x.contains(v)));
    match if highest { only.max() } else { only.min() } {
        Some(m) if x.contains(m) => Ordering::Less,
        Some(_) => Ordering::Greater,
        None => Ordering::Equal,
    }
}

/// D.2's comparison of two exchanges of the same size.
fn exchange_order(a: &Exchange, b: &Exchange) -> Ordering {
    let diff =
        |x: &Exchange| (x.1.iter().sum::<usize>() as i64 - x.0.iter().sum::<usize>() as i64).abs();
    a.0.len()
        .cmp(&b.0.len())
        .then(diff(a).cmp(&diff(b)))
        .then_with(|| holds_extreme(&a.0, &b.0, true))
        .then_with(|| holds_extreme(&a.1, &b.1, false))
}

/// The sorted difference `all − out`.
fn without(all: &[usize], out: &[usize]) -> Vec<usize> {
    all.iter().copied().filter(|x| !out.contains(x)).collect()
}

/// The sorted union.
fn with(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut v: Vec<usize> = a.iter().chain(b).copied().collect();
    v.sort_unstable();
    v
}

impl Field<'_> {
    /// The graph of who may meet among `set` (vertex k is `set[k]`), with a
    /// last vertex for the bye (joined to those who may have it) when asked.
    fn graph(&self, set: &[usize], bye: bool) -> Vec<Vec<usize>> {
        self.graph_where(set, bye, |_, _| true)
    }

    /// [`Field::graph`] with only the edges between positions `a < b` that
    /// `keep` keeps.
    fn graph_where(
        &self,
        set: &[usize],
        bye: bool,
        keep: impl Fn(usize, usize) -> bool,
    ) -> Vec<Vec<usize>> {
        let n = set.len();
        let mut adj = vec![vec![]; n + usize::from(bye)];
        for a in 0..n {
            for b in a + 1..n {
                if keep(a, b) && self.ok[set[a]][set[b]] {
                    adj[a].push(b);
                    adj[b].push(a);
                }
            }
            if bye && self.bye_ok[set[a]] {
                adj[a].push(n);
                adj[n].push(a);
            }
        }
        adj
    }

    /// C.4: whether the players `set` can all be paired (one of them given
    /// the bye when they are odd).
    fn completable(&self, set: &[usize], memo: &mut Memo) -> bool {
        let mut key = set.to_vec();
        key.sort_unstable();
        if let Some(&known) = memo.complete.get(&key) {
            return known;
        }
        let odd = key.len() % 2 == 1;
        let adj = self.graph(&key, odd);
        let answer = 2 * matching::size(&adj) == adj.len();
        memo.complete.insert(key, answer);
        answer
    }

    /// C.8's measure of the next bracket with `floaters` moved down to
    /// `group` (the first of the players `lower` still to pair): its most
    /// pairs (negated, so that smaller is better) and its least pairing
    /// score differences. The bracket pairs moved-down players with
    /// residents only (its S1 against its S2), so its PSD is fixed by which
    /// moved-down players it pairs; they are taken greedily, highest score
    /// first, each kept when the whole rest can still be paired with it
    /// paired in the bracket (C.4 holds in the next bracket too).
    fn next_bracket(
        &self,
        floaters: &[usize],
        group: &[usize],
        lower: &[usize],
        memo: &mut Memo,
    ) -> Next {
        let mut key = floaters.to_vec();
        key.sort_unstable();
        let f = key.len();
        // The floaters and the bracket they go to (a round's brackets
        // share the memo).
        key.push(group[0]);
        if let Some(known) = memo.next.get(&key) {
            return known.clone();
        }
        let nb: Vec<usize> = key[..f].iter().chain(group).copied().collect();
        // Moved-down players are paired with residents only.
        let pairs = matching::size(&self.graph_where(&nb, false, |_, b| b >= f));
        // The rest of the round: the floaters and everyone below; the
        // players in `must` may only be paired with the bracket's residents.
        let rest: Vec<usize> = key[..f].iter().chain(lower).copied().collect();
        let in_group: Vec<bool> = rest.iter().map(|r| group.contains(r)).collect();
        let odd = rest.len() % 2 == 1;
        let coverable = |must: &[usize]| {
            let mut h = self.graph(&rest, odd);
            for &m in must {
                h[m].retain(|&v| v < rest.len() && in_group[v]);
            }
            for (v, near) in h.iter_mut().enumerate() {
                if !must.contains(&v) {
                    near.retain(|u| !must.contains(u) || (v < rest.len() && in_group[v]));
                }
            }
            2 * matching::size(&h) == h.len()
        };
        let g_score = self.p[group[0]].score;
        let mut by_score: Vec<usize> = (0..f).collect();
        by_score.sort_by_key(|&m| (-self.p[rest[m]].score, rest[m]));
        let mut paired: Vec<usize> = vec![];
        for m in by_score {
            paired.push(m);
            if !coverable(&paired) {
                paired.pop();
            }
        }
        let k = paired.len();
        let mut psd: Vec<i64> = (0..f)
            .map(|m| {
                let d = self.p[rest[m]].score - g_score;
                if paired.contains(&m) {
                    d
                } else {
                    d + 100
                }
            })
            .chain((0..pairs.saturating_sub(k)).map(|_| 0))
            .chain((0..(group.len() + k).saturating_sub(2 * pairs)).map(|_| 100))
            .collect();
        psd.sort_unstable_by(|a, b| b.cmp(a));
        let answer = (-(pairs as i64), psd);
        memo.next.insert(key, answer.clone());
        answer
    }

    /// The best C.8 can be for floaters of `scores` moved down to `group`:
    /// every one paired, the residents left paired among themselves.
    fn next_ideal(&self, scores: &[i64], group: &[usize]) -> Next {
        let g_score = self.p[group[0]].score;
        let mut d: Vec<i64> = scores.iter().map(|s| s - g_score).collect();
        d.sort_unstable_by(|a, b| b.cmp(a));
        let k = d.len().min(group.len());
        let left = group.len() - k;
        let mut psd: Vec<i64> = d
            .iter()
            .enumerate()
            .map(|(i, &x)| if i < k { x } else { x + 100 })
            .chain((0..left / 2).map(|_| 0))
            .chain((0..left % 2).map(|_| 100))
            .collect();
        psd.sort_unstable_by(|a, b| b.cmp(a));
        (-((k + left / 2) as i64), psd)
    }

    /// E.1–E.5: whether `hi` (the higher ranked) has the first seat
    /// against `lo`.
    fn first_seat(&self, hi: usize, lo: usize) -> bool {
        let (a, b) = (&self.p[hi], &self.p[lo]);
        match (a.pref, b.pref) {
            // E.1: both preferences granted (or the only one there is).
            (Some(x), Some(y)) if x != y => return x == 0,
            (Some(x), None) => return x == 0,
            (None, Some(y)) => return y == 1,
            _ => {}
        }
        // E.2: the stronger preference; of two absolute ones the wider
        // colour difference.
        if let (Some(x), Some(_)) = (a.pref, b.pref) {
            if a.strength != b.strength {
                return if a.strength > b.strength {
                    x == 0
                } else {
                    x == 1
                };
            }
            if a.strength == Strength::Absolute && a.cd.abs() != b.cd.abs() {
                return if a.cd.abs() > b.cd.abs() {
                    x == 0
                } else {
                    x == 1
                };
            }
        }
        // E.3: alternate from the latest round they had different seats.
        let (sa, sb) = (&a.e.seats, &b.e.seats);
        for k in 1..=sa.len().min(sb.len()) {
            let (x, y) = (sa[sa.len() - k], sb[sb.len() - k]);
            if x != y {
                return x == 1;
            }
        }
        // E.4: the higher ranked player's preference.
        if let Some(x) = a.pref {
            return x == 0;
        }
        // E.5: an odd pairing number has the initial colour (the first
        // seat, unless the event began the other way).
        (a.tpn % 2 == 1) == (self.initial == 0)
    }

    /// The quality of the candidate `pairs` leaving `floaters`, or `None`
    /// when it breaks completion (C.4).
    #[allow(clippy::too_many_arguments)]
    fn quality(
        &self,
        pairs: &[(usize, usize)],
        floaters: &[usize],
        lower: &[usize],
        next: Option<&Vec<usize>>,
        low: i64,
        memo: &mut Memo,
    ) -> Option<Quality> {
        let rest: Vec<usize> = floaters.iter().chain(lower).copied().collect();
        if !self.completable(&rest, memo) {
            return None;
        }
        let s = |i: usize| self.p[i].score;
        let float_sd = |i: usize| s(i) - (low - 100);
        let mut psd: Vec<i64> = pairs
            .iter()
            .map(|&(a, b)| (s(a) - s(b)).abs())
            .chain(floaters.iter().map(|&i| float_sd(i)))
            .collect();
        psd.sort_unstable_by(|a, b| b.cmp(a));
        let next = match next {
            Some(g) => self.next_bracket(floaters, g, lower, memo),
            None => (0, vec![]),
        };
        let bye_unplayed = match floaters {
            [one] if lower.is_empty() => self.p[*one].e.unplayed,
            _ => 0,
        };
        let mut faults = Faults::default();
        for &(a, b) in pairs {
            self.pair_faults(a, b, &mut faults);
        }
        for &i in floaters {
            self.float_fault(i, Float::Down, float_sd(i), &mut faults);
        }
        for v in &mut faults.float_sds {
            v.sort_unstable_by(|a, b| b.cmp(a));
        }
        Some(Quality {
            psd,
            next,
            bye_unplayed,
            faults,
        })
    }

    /// Notes in `f` a float `now` of player `i` that repeats one of the
    /// last two rounds (C.14–C.21), with its score difference `sd`.
    fn float_fault(&self, i: usize, now: Float, sd: i64, f: &mut Faults) {
        let past = &self.p[i].e.floats;
        for (back, slot) in [(1, 0), (2, 2)] {
            if now != Float::None && past.len() >= back && past[past.len() - back] == now {
                let k = slot + usize::from(now == Float::Up);
                f.floats[k] += 1;
                f.float_sds[k].push(sd);
            }
        }
    }

    /// Notes in `f` what pairing `a` with `b` fails of C.10–C.21.
    fn pair_faults(&self, a: usize, b: usize, f: &mut Faults) {
        let (hi, lo) = (a.min(b), a.max(b));
        let (x, y) = (&self.p[hi], &self.p[lo]);
        if self.colours {
            let hi_first = self.first_seat(hi, lo);
            if x.top || y.top {
                for (pl, seat) in [(x, usize::from(!hi_first)), (y, usize::from(hi_first))] {
                    let cd = pl.cd + if seat == 0 { 1 } else { -1 };
                    f.colours[0] += usize::from(cd.abs() > 2);
                    let st = &pl.e.seats;
                    let thrice =
                        st.len() >= 2 && st[st.len() - 1] == seat && st[st.len() - 2] == seat;
                    f.colours[1] += usize::from(thrice);
                }
            }
            if let (Some(px), Some(py)) = (x.pref, y.pref) {
                if px == py {
                    f.colours[2] += 1;
                    let strong = |p: &Player| p.strength >= Strength::Strong;
                    let both_absolute =
                        x.strength == Strength::Absolute && y.strength == Strength::Absolute;
                    f.colours[3] += usize::from(strong(x) && strong(y) && !both_absolute);
                }
            }
        }
        // Ranks order scores: the higher ranked has the higher score.
        let sd = x.score - y.score;
        if sd != 0 {
            self.float_fault(hi, Float::Down, sd, f);
            self.float_fault(lo, Float::Up, sd, f);
        }
    }

    /// Pairs one bracket: the players `moved` down to it and its scoregroup
    /// `residents` (ranks, best first); `lower` are the players below it.
    /// Answers its pairs and the players it moves down.
    fn bracket(
        &self,
        moved: &[usize],
        residents: &[usize],
        lower: &[usize],
        next: Option<&Vec<usize>>,
        memo: &mut Memo,
    ) -> Outcome {
        // BSNs: positions in the bracket, moved-down players first.
        let all: Vec<usize> = moved.iter().chain(residents).copied().collect();
        let mdps: Vec<usize> = (0..moved.len()).collect();
        let res: Vec<usize> = (moved.len()..all.len()).collect();
        let most_pairs = matching::size(&self.graph(&all, false));
        let m0 = mdps.len();
        let most_moved = matching::size(&self.graph_where(&all, false, |a, b| a < m0 && b >= m0));
        for p in (0..=most_pairs).rev() {
            for m in (0..=p.min(most_moved)).rev() {
                let q = p - m;
                if 2 * q > res.len() - m {
                    continue;
                }
                if let Some(found) = self.shape(&all, &mdps, &res, p, m, lower, next, memo) {
                    return found;
                }
            }
        }
        (vec![], all)
    }

    /// The best candidate of a bracket with `p` pairs of which `m` pair a
    /// moved-down player, in the Dutch order (B.5–B.7).
    #[allow(clippy::too_many_arguments)]
    fn shape(
        &self,
        all: &[usize],
        mdps: &[usize],
        res: &[usize],
        p: usize,
        m: usize,
        lower: &[usize],
        next: Option<&Vec<usize>>,
        memo: &mut Memo,
    ) -> Option<Outcome> {
        let q = p - m;
        let low = self.p[*all.last()?].score;
        // The best C.7 can be: the highest moved-down players paired, and
        // with it the best of every later criterion.
        let floats_left = all.len() - 2 * p;
        let ideal = {
            let s = |b: usize| self.p[all[b]].score;
            let mut psd: Vec<i64> = mdps
                .iter()
                .enumerate()
                .map(|(k, &b)| if k < m { s(b) - low } else { s(b) - low + 100 })
                .chain((0..q).map(|_| 0))
                .chain((0..res.len() - m - 2 * q).map(|_| 100))
                .collect();
            psd.sort_unstable_by(|a, b| b.cmp(a));
            let next = match next {
                Some(g) => {
                    let scores: Vec<i64> = mdps[m..]
                        .iter()
                        .map(|&b| s(b))
                        .chain((0..floats_left - (mdps.len() - m)).map(|_| low))
                        .collect();
                    self.next_ideal(&scores, g)
                }
                None => (0, vec![]),
            };
            Quality {
                psd,
                next,
                bye_unplayed: 0,
                faults: Faults::default(),
            }
        };
        // Passes by the number of unclean pairs allowed (pairs failing a
        // quality criterion): none first, a perfect candidate (most rounds
        // have one, and the Dutch order's first perfect candidate is found
        // far sooner), then one, two, … A candidate with few unclean pairs
        // is looked for deep in the Dutch order at once, where a search of
        // every candidate within the step bound would only vary the bottom
        // of S2 and leave a preference at the top boards unmet. The first
        // pass that finds candidates gives the best of them and of the next
        // pass (a candidate with one more unclean pair may still be better
        // by the criteria' order); a last pass allows any number.
        // Each pair of the bracket's players, once: may meet (1), clean
        // (2: fails no quality criterion), leaves a colour preference
        // unmet (4: C.12). One flat table: the search asks it at every step.
        const MAY: u8 = 1;
        const CLEAN: u8 = 2;
        const UNMET: u8 = 4;
        let n_all = all.len();
        // With it, the least faults (by count) of any unclean pair the
        // bracket can make: each pair's faults are worked out once, here.
        let mut table = vec![0u8; n_all * n_all];
        let mut cheapest: Option<Faults> = None;
        for a in 0..n_all {
            for b in 0..n_all {
                if !self.ok[all[a]][all[b]] {
                    continue;
                }
                let (x, y) = (&self.p[all[a]], &self.p[all[b]]);
                let unmet = self.colours && x.pref.is_some() && x.pref == y.pref;
                let mut f = Faults::default();
                self.pair_faults(all[a], all[b], &mut f);
                let clean = f == Faults::default();
                table[a * n_all + b] =
                    MAY | if clean { CLEAN } else { 0 } | if unmet { UNMET } else { 0 };
                if !clean && a < b {
                    f.float_sds = Default::default();
                    if cheapest.as_ref().is_none_or(|c| f < *c) {
                        cheapest = Some(f);
                    }
                }
            }
        }
        let ok = |a: usize, b: usize| table[a * n_all + b] & MAY != 0;
        let clean = |a: usize, b: usize| table[a * n_all + b] & CLEAN != 0;
        let unclean = |a: usize, b: usize| !clean(a, b);
        let unmet = |a: usize, b: usize| table[a * n_all + b] & UNMET != 0;
        let add_faults = |a: usize, b: usize, f: &mut Faults| {
            self.pair_faults(all[a], all[b], f);
            for v in &mut f.float_sds {
                v.sort_unstable_by(|x, y| y.cmp(x));
            }
        };
        // The best candidate so far: its quality, its place in the Dutch
        // order (the exchange and transposition of the moved-down players,
        // then the remainder's), the pass that found it, and what it is.
        let best: RefCell<Option<Best>> = RefCell::new(None);
        // Counts the changes of `best`, for what is computed from it.
        let version = Cell::new(0usize);
        let mut found_at: Option<usize> = None;
        let mut cut_short = false;
        // The best was shown to be the answer (see `settles`).
        let mut proven = false;
        // The fewest unclean pairs any candidate can have: the p pairs less
        // a largest clean matching of the bracket's players. The passes
        // start there.
        // The most pairs among the positions `set` of players who may meet
        // and whom `edge` keeps together.
        let most_pairs_among = |set: &[usize], edge: &dyn Fn(usize, usize) -> bool| {
            let adj: Vec<Vec<usize>> = set
                .iter()
                .map(|&a| {
                    (0..set.len())
                        .filter(|&j| a != set[j] && ok(a, set[j]) && edge(a, set[j]))
                        .collect()
                })
                .collect();
            matching::size(&adj)
        };
        let everyone: Vec<usize> = (0..all.len()).collect();
        let fewest = p.saturating_sub(most_pairs_among(&everyone, &clean));
        // A floor under every candidate's quality: C.7 and C.8 at their
        // ideal, and faults at least those of the fewest unclean pairs (each
        // at least the cheapest) or of the colour preferences a largest
        // matching of pairs meeting them leaves unmet. A candidate at the
        // floor is the answer as soon as no candidate of a later pass (one
        // more unclean pair) can equal it: the earlier ones in the Dutch
        // order within its pass have all been seen.
        let unmet_need = p.saturating_sub(most_pairs_among(&everyone, &|a, b| !unmet(a, b)));
        let floor = Quality {
            faults: at_least(&Faults::default(), fewest, cheapest.as_ref(), unmet_need),
            ..ideal.clone()
        };
        let settles = |quality: &Quality, allow: usize| {
            *quality == ideal
                || (*quality == floor
                    && at_least(&Faults::default(), allow + 1, cheapest.as_ref(), unmet_need)
                        > quality.faults)
        };
        let most = p.min(fewest + ALLOWANCE_PASSES);
        let passes: Vec<usize> = (fewest..=most).chain(std::iter::once(p)).collect();
        let s = |b: usize| self.p[all[b]].score;
        for (n, &allow) in passes.iter().enumerate() {
            if n > 0 && passes[n - 1] == allow {
                continue;
            }
            if found_at.is_some_and(|f| allow > f + 1) {
                // The passes stop here: a later one could only beat the
                // best with unclean pairs whose faults add up to less,
                // which the cheapest unclean pair rules out, or the stop
                // is a limit of the search (and said so).
                let b = best.borrow();
                let settled = b.as_ref().is_some_and(|b| {
                    b.quality.psd == ideal.psd
                        && b.quality.next == ideal.next
                        && b.quality.bye_unplayed == 0
                        && cheapest.is_some_and(|c| {
                            let times = |v: [usize; 4]| v.map(|x| x * allow);
                            (times(c.colours), times(c.floats))
                                > (b.quality.faults.colours, b.quality.faults.floats)
                        })
                });
                cut_short |= !settled;
                break;
            }
            let perfect_only = allow == 0;
            let pass_allow = allow;
            let bounded = allow < p;
            let mut steps = 0usize;
            // D.3: which moved-down players are paired (S1), the rest in limbo.
            let (s1_first, limbo_first) = mdps.split_at(m);
            let cut = Cell::new(false);
            for (e1, (out, inn)) in exchanges(s1_first, limbo_first, BUDGET, &cut).enumerate() {
                steps += 1;
                if steps > BUDGET {
                    break;
                }
                let s1 = with(&without(s1_first, &out), &inn);
                let limbo = with(&without(limbo_first, &inn), &out);
                // What this exchange fixes of a candidate's quality: its
                // PSD (the moved-down players paired and left, and the
                // residents left over), and at best C.8's ideal. A partial
                // candidate whose faults already make it no better than the
                // best is hopeless (an equal one found in the same pass
                // comes later in the Dutch order).
                let left_over = res.len() - m - 2 * q;
                let mut psd: Vec<i64> = s1
                    .iter()
                    .map(|&b| s(b) - low)
                    .chain((0..q).map(|_| 0))
                    .chain(limbo.iter().map(|&b| s(b) - low + 100))
                    .chain((0..left_over).map(|_| 100))
                    .collect();
                psd.sort_unstable_by(|a, b| b.cmp(a));
                let next_lb = match next {
                    Some(g) => {
                        let scores: Vec<i64> = limbo
                            .iter()
                            .map(|&b| s(b))
                            .chain((0..left_over).map(|_| low))
                            .collect();
                        self.next_ideal(&scores, g)
                    }
                    None => (0, vec![]),
                };
                // How this exchange's fixed part (PSD, C.8 at best, no
                // bye) compares with the best candidate's, computed again
                // only when the best changes.
                let fixed: Cell<Option<(usize, Ordering)>> = Cell::new(None);
                // Whether every candidate of the branch searched comes after
                // the best in the Dutch order (an equal one then loses).
                let later_here = || best.borrow().as_ref().is_some_and(|b| e1 > b.place.0);
                let later = Cell::new(later_here());
                let standing = || -> Option<Ordering> {
                    let b = best.borrow();
                    let b = b.as_ref()?;
                    match fixed.get() {
                        Some((v, ord)) if v == version.get() => Some(ord),
                        _ => {
                            let ord = psd
                                .cmp(&b.quality.psd)
                                .then_with(|| next_lb.cmp(&b.quality.next))
                                .then_with(|| 0.cmp(&b.quality.bye_unplayed));
                            fixed.set(Some((version.get(), ord)));
                            Some(ord)
                        }
                    }
                };
                let hopeless = |f: &Faults| match standing() {
                    None | Some(Ordering::Less) => false,
                    Some(Ordering::Greater) => true,
                    Some(Ordering::Equal) => {
                        let b = best.borrow();
                        let b = b.as_ref().expect("a best candidate");
                        let ord = f.cmp(&b.quality.faults);
                        ord == Ordering::Greater
                            || (ord == Ordering::Equal && (b.pass == n || later.get()))
                    }
                };
                if hopeless(&Faults::default()) {
                    continue;
                }
                let acceptable = |acc: &Faults, a: usize, b: usize| {
                    if standing() != Some(Ordering::Equal) {
                        return standing() != Some(Ordering::Greater);
                    }
                    let mut f = acc.clone();
                    add_faults(a, b, &mut f);
                    !hopeless(&f)
                };
                let open = || standing() == Some(Ordering::Equal);
                let hopeless_needing = |f: &Faults, need: usize, unmet: usize| {
                    (need > 0 || unmet > 0)
                        && hopeless(&at_least(f, need, cheapest.as_ref(), unmet))
                };
                let costs = Costs {
                    ok: &ok,
                    unclean: &unclean,
                    faults: &add_faults,
                    hopeless: &hopeless,
                    acceptable: &acceptable,
                    open: &open,
                    unmet: &unmet,
                    hopeless_needing: &hopeless_needing,
                };
                // D.1 on S2 for the moved-down players' opponents; then the
                // remainder, a homogeneous bracket of its own (D.2 × D.1).
                let flow = transpositions(
                    res,
                    &s1,
                    &costs,
                    allow,
                    &Faults::default(),
                    &mut steps,
                    &mut |chosen, remainder, allow, acc, steps| {
                        // Where its faults decide (and the remainder is
                        // small enough for the test to pay), the unclean
                        // pairs and unmet preferences it still needs may
                        // leave it hopeless.
                        let small = remainder.len() * remainder.len() <= 16 * SMALL && open();
                        let clean_pairs = if small || bounded {
                            most_pairs_among(remainder, &|a, b| !unclean(a, b))
                        } else {
                            q
                        };
                        if small {
                            let need = q.saturating_sub(clean_pairs);
                            let unmet_needed =
                                q.saturating_sub(most_pairs_among(remainder, &|a, b| !unmet(a, b)));
                            if hopeless_needing(acc, need, unmet_needed) {
                                return ControlFlow::Continue(());
                            }
                        }
                        // The remainder's q pairs need at least as many
                        // unclean ones as a largest clean matching among
                        // its players leaves out, however S1 and S2 are
                        // drawn: a pass that cannot afford them skips every
                        // exchange at once.
                        if bounded {
                            if clean_pairs + allow < q {
                                return ControlFlow::Continue(());
                            }
                            // Nor can it be paired at all with pairs that
                            // are clean or leave hope.
                            if allow > 0
                                && remainder.len() * remainder.len() <= 4 * SMALL
                                && most_pairs_among(remainder, &|a, b| {
                                    !unclean(a, b) || acceptable(acc, a, b)
                                }) < q
                            {
                                return ControlFlow::Continue(());
                            }
                        }
                        let (r1, r2) = remainder.split_at(q);
                        for (e2, (out2, in2)) in exchanges(r1, r2, BUDGET, &cut).enumerate() {
                            *steps += 1;
                            if *steps > BUDGET {
                                return ControlFlow::Break(());
                            }
                            later.set(best.borrow().as_ref().is_some_and(|b| {
                                (e1, chosen, e2) > (b.place.0, b.place.1.as_slice(), b.place.2)
                            }));
                            // A candidate found in an earlier exchange may
                            // leave every later one hopeless.
                            if hopeless(acc) {
                                later.set(later_here());
                                break;
                            }
                            let rs1 = with(&without(r1, &out2), &in2);
                            let rs2 = with(&without(r2, &in2), &out2);
                            transpositions(
                                &rs2,
                                &rs1,
                                &costs,
                                allow,
                                acc,
                                steps,
                                &mut |chosen2, left, _, _, steps| {
                                    *steps += 1;
                                    let pairs: Vec<(usize, usize)> = s1
                                        .iter()
                                        .zip(chosen)
                                        .chain(rs1.iter().zip(chosen2))
                                        .map(|(&a, &b)| (all[a], all[b]))
                                        .collect();
                                    let floaters: Vec<usize> =
                                        limbo.iter().chain(left).map(|&b| all[b]).collect();
                                    let Some(quality) =
                                        self.quality(&pairs, &floaters, lower, next, low, memo)
                                    else {
                                        return ControlFlow::Continue(());
                                    };
                                    let perfect = settles(&quality, pass_allow);
                                    let place = (e1, chosen.to_vec(), e2, chosen2.to_vec());
                                    let better = best.borrow().as_ref().is_none_or(|b| {
                                        quality
                                            .cmp(&b.quality)
                                            .then_with(|| place.cmp(&b.place))
                                            .is_lt()
                                    });
                                    if (!perfect_only || perfect) && better {
                                        version.set(version.get() + 1);
                                        *best.borrow_mut() = Some(Best {
                                            quality,
                                            place,
                                            pass: n,
                                            outcome: (pairs, floaters),
                                        });
                                    }
                                    if perfect || *steps > BUDGET {
                                        ControlFlow::Break(())
                                    } else {
                                        ControlFlow::Continue(())
                                    }
                                },
                            )?;
                        }
                        later.set(later_here());
                        ControlFlow::Continue(())
                    },
                );
                if flow.is_break() {
                    break;
                }
            }
            // A pass stopped at the step bound, or with exchanges left
            // untried, may have missed a better candidate (unless it found
            // a perfect one).
            cut_short |= steps > BUDGET || cut.get();
            let found = best.borrow().as_ref().map(|b| settles(&b.quality, allow));
            if let Some(perfect) = found {
                if perfect {
                    proven = true;
                    break;
                }
                found_at.get_or_insert(allow);
            }
        }
        let best = best.into_inner()?;
        if cut_short && !proven {
            memo.limited = true;
        }
        Some(best.outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(account: i64, rating: f64) -> Entrant {
        Entrant {
            account,
            rating,
            ..Entrant::default()
        }
    }

    const URGAMMON: Rules = Rules {
        colours: true,
        final_round: false,
        initial: 0,
    };

    /// Plays a round's boards with `result(board)` the first seat's score,
    /// as the director keeps them: scores, opponents, seats, floats, byes.
    fn play(field: &mut [Entrant], round: &Round, mut result: impl FnMut(usize) -> f64) {
        let before: HashMap<i64, f64> = field.iter().map(|e| (e.account, e.score)).collect();
        let mut floats: HashMap<i64, Float> = HashMap::new();
        for (n, b) in round.boards.iter().enumerate() {
            let r = result(n);
            for (k, &me) in b.iter().enumerate() {
                let other = b[1 - k];
                let e = field.iter_mut().find(|e| e.account == me).unwrap();
                e.opponents.push(other);
                e.seats.push(k);
                e.score += if k == 0 { r } else { 1.0 - r };
                floats.insert(
                    me,
                    match before[&me].total_cmp(&before[&other]) {
                        Ordering::Greater => Float::Down,
                        Ordering::Less => Float::Up,
                        Ordering::Equal => Float::None,
                    },
                );
            }
        }
        for e in field.iter_mut() {
            let f = if round.bye == Some(e.account) {
                e.had_bye = true;
                e.score += 1.0;
                e.unplayed += 1;
                Float::Down
            } else {
                if !floats.contains_key(&e.account) {
                    e.unplayed += 1;
                }
                floats.get(&e.account).copied().unwrap_or_default()
            };
            e.floats.push(f);
        }
    }

    /// FIDE's Dutch system, round 1: eight players ranked 1–8 meet 1–5,
    /// 6–2, 3–7, 8–4 (S1, the top half, against S2; E.5: an odd pairing
    /// number has the initial colour, an even one the other).
    #[test]
    fn the_first_round_is_the_top_half_against_the_bottom_half() {
        let field: Vec<Entrant> = (1..=8).map(|n| entrant(n, 2000.0 - n as f64)).collect();
        let round = pair(&field, &HashSet::new(), URGAMMON);
        assert_eq!(round.boards, vec![[1, 5], [6, 2], [3, 7], [8, 4]]);
        assert_eq!(round.bye, None);
        // Nine players: the ninth (the lowest) has the bye.
        let field: Vec<Entrant> = (1..=9).map(|n| entrant(n, 2000.0 - n as f64)).collect();
        let round = pair(&field, &HashSet::new(), URGAMMON);
        assert_eq!(round.bye, Some(9));
        assert_eq!(round.boards, vec![[1, 5], [6, 2], [3, 7], [8, 4]]);
    }

    /// Round 2 after round 1's winners 1, 2, 3, 4: the first candidate of
    /// the winners' bracket, 1–3 and 2–4, gives two pairs the same
    /// preference (C.12); the next transposition (D.1), 1–4 and 2–3, gives
    /// everyone hers, and is taken. The same in the losers' bracket.
    #[test]
    fn a_transposition_is_taken_for_the_colour_preferences() {
        let mut field: Vec<Entrant> = (1..=8).map(|n| entrant(n, 2000.0 - n as f64)).collect();
        let round = pair(&field, &HashSet::new(), URGAMMON);
        play(&mut field, &round, |n| if n % 2 == 0 { 1.0 } else { 0.0 });
        let round = pair(&field, &HashSet::new(), URGAMMON);
        assert_eq!(round.boards, vec![[4, 1], [2, 3], [5, 8], [7, 6]]);
    }

    /// D.1's own example: in an 11-player homogeneous bracket (S1 = 1–5,
    /// S2 = 6–11) the transpositions run 6-7-8-9-10, 6-7-8-9-11,
    /// 6-7-8-10-9, …, 11-10-9-8-7, 720 of them; with two moved-down
    /// players (S1 = 1–2, S2 = 3–11) 3-4, 3-5, …, 11-10, 72 of them.
    #[test]
    fn transpositions_come_in_the_order_of_fide_d1() {
        let run = |s1: Vec<usize>, s2: Vec<usize>| {
            let mut seen: Vec<Vec<usize>> = vec![];
            let mut steps = 0;
            let costs = Costs {
                ok: &|_, _| true,
                unclean: &|_, _| false,
                faults: &|_, _, _| {},
                hopeless: &|_| false,
                acceptable: &|_, _, _| true,
                open: &|| false,
                unmet: &|_, _| false,
                hopeless_needing: &|_, _, _| false,
            };
            let _ = transpositions(
                &s2,
                &s1,
                &costs,
                0,
                &Faults::default(),
                &mut steps,
                &mut |c, _, _, _, _| {
                    seen.push(c.to_vec());
                    ControlFlow::Continue(())
                },
            );
            seen
        };
        let seen = run((1..=5).collect(), (6..=11).collect());
        assert_eq!(seen.len(), 720);
        assert_eq!(seen[0], [6, 7, 8, 9, 10]);
        assert_eq!(seen[1], [6, 7, 8, 9, 11]);
        assert_eq!(seen[2], [6, 7, 8, 10, 9]);
        assert_eq!(seen[119], [6, 11, 10, 9, 8]);
        assert_eq!(seen[120], [7, 6, 8, 9, 10]);
        assert_eq!(seen[719], [11, 10, 9, 8, 7]);
        let seen = run(vec![1, 2], (3..=11).collect());
        assert_eq!(seen.len(), 72);
        assert_eq!(&seen[..3], &[vec![3, 4], vec![3, 5], vec![3, 6]]);
        assert_eq!(seen[8], [4, 3]);
        assert_eq!(seen[71], [11, 10]);
    }

    /// D.2's order on the 11-player bracket: single exchanges before
    /// double ones; the smaller difference of the sums first (5↔6, then
    /// 5↔7 and 4↔6); among equals the one moving the higher BSN out of S1
    /// (5↔7 before 4↔6; 5↔8, 4↔7, 3↔6); the first double one is 4,5↔6,7.
    #[test]
    fn exchanges_come_in_the_order_of_fide_d2() {
        let s1: Vec<usize> = (1..=5).collect();
        let s2: Vec<usize> = (6..=11).collect();
        let all: Vec<Exchange> = exchanges(&s1, &s2, 100_000, &Cell::new(false)).collect();
        let single = |a: usize, b: usize| (vec![a], vec![b]);
        assert_eq!(all[0], (vec![], vec![]));
        assert_eq!(
            &all[1..11],
            &[
                single(5, 6),
                single(5, 7),
                single(4, 6),
                single(5, 8),
                single(4, 7),
                single(3, 6),
                single(5, 9),
                single(4, 8),
                single(3, 7),
                single(2, 6),
            ]
        );
        let first_double = all.iter().find(|e| e.0.len() == 2).unwrap();
        assert_eq!(first_double, &(vec![4, 5], vec![6, 7]));
        assert_eq!(all.iter().filter(|e| e.0.len() == 1).count(), 30);
        // D.4's last rule: equal sums and the same player out of S1: the
        // lower BSN out of S2 first (4,5↔6,9 before 4,5↔7,8).
        let i = |e: (Vec<usize>, Vec<usize>)| all.iter().position(|x| *x == e).unwrap();
        assert!(i((vec![4, 5], vec![6, 9])) < i((vec![4, 5], vec![7, 8])));
    }

    /// The C.5 example of the 2025 text (as the FIDE-endorsed bbpPairings
    /// tests it): the last round of three, player 4 absent. 1 and 3 (2
    /// points) could meet, but then the bye would fall to 5 (1 point); C.5
    /// gives the bye to the lowest score that lets the round be completed,
    /// 6 (0 points), so 1 and 3 float: 1–5, 3–2.
    #[test]
    fn fide_2025_c5_the_bye_goes_to_the_lowest_score_possible() {
        let mk =
            |a: i64, score: f64, opponents: Vec<i64>, seats: Vec<usize>, floats: Vec<Float>| {
                Entrant {
                    account: a,
                    rating: 2800.0 - a as f64,
                    score,
                    opponents,
                    seats,
                    floats,
                    ..Entrant::default()
                }
            };
        use Float::*;
        let field = vec![
            mk(1, 2.0, vec![4, 2], vec![0, 1], vec![None, None]),
            mk(2, 1.0, vec![5, 1], vec![1, 0], vec![None, None]),
            mk(3, 2.0, vec![6, 4], vec![0, 1], vec![None, Down]),
            mk(5, 1.0, vec![2, 6], vec![0, 1], vec![None, None]),
            mk(6, 0.0, vec![3, 5], vec![1, 0], vec![None, None]),
        ];
        let rules = Rules {
            colours: true,
            final_round: true,
            initial: 0,
        };
        let round = pair(&field, &HashSet::new(), rules);
        assert_eq!(round.boards, vec![[1, 5], [3, 2]]);
        assert_eq!(round.bye, Some(6));
    }

    /// The C.9 example of the 2025 text (as bbpPairings tests it): round
    /// 2, player 5 absent in round 1. The zero-point bracket {3, 4, 5}
    /// would give 5 the bye in the Dutch order (3–4 first); C.9 gives it to
    /// the player with the fewest unplayed rounds, 4: 3–5.
    #[test]
    fn fide_2025_c9_the_bye_goes_to_the_player_who_missed_fewest_rounds() {
        let mk =
            |a: i64, score: f64, opponents: Vec<i64>, seats: Vec<usize>, unplayed: usize| Entrant {
                account: a,
                rating: 2800.0 - a as f64,
                score,
                opponents,
                seats,
                floats: vec![Float::None],
                unplayed,
                ..Entrant::default()
            };
        let field = vec![
            mk(1, 1.0, vec![3], vec![0], 0),
            mk(2, 1.0, vec![4], vec![1], 0),
            mk(3, 0.0, vec![1], vec![1], 0),
            mk(4, 0.0, vec![2], vec![0], 0),
            mk(5, 0.0, vec![], vec![], 1),
        ];
        let round = pair(&field, &HashSet::new(), URGAMMON);
        assert_eq!(round.boards, vec![[2, 1], [3, 5]]);
        assert_eq!(round.bye, Some(4));
    }

    /// C.3: two players who both must have the first seat (two second
    /// seats in a row) do not meet, unless (A.7) one is a topscorer in the
    /// last round; then E.2 gives the seat to the wider colour difference.
    #[test]
    fn absolute_colours_keep_players_apart_except_topscorers_in_the_last_round() {
        let mk = |a: i64, score: f64, seats: Vec<usize>| Entrant {
            account: a,
            rating: 2000.0 - a as f64,
            score,
            seats,
            opponents: vec![90 + a],
            floats: vec![Float::None, Float::None],
            ..Entrant::default()
        };
        let field = vec![
            mk(1, 2.0, vec![1, 1]),
            mk(2, 2.0, vec![0, 1, 1]),
            mk(3, 0.0, vec![0, 0]),
            mk(4, 0.0, vec![1, 0]),
        ];
        let round = pair(&field, &HashSet::new(), URGAMMON);
        for b in &round.boards {
            assert!(!(b.contains(&1) && b.contains(&2)), "{round:?}");
        }
        let last = Rules {
            colours: true,
            final_round: true,
            initial: 0,
        };
        let round = pair(&field, &HashSet::new(), last);
        // 1 (colour difference −2) is wider than 2 (−1): 1 has the first seat.
        assert_eq!(round.boards[0], [1, 2], "{round:?}");
        // Ringo: no colours, no such rule.
        let ringo = Rules::default();
        let round = pair(&field, &HashSet::new(), ringo);
        assert_eq!(round.boards[0], [1, 2]);
    }

    /// C.14: a player who floated down last round is not floated down
    /// again when another can be: in the bracket {1, 2, 3}, where 3
    /// floated down last round, the Dutch order's first candidate (1–2, 3
    /// floating) repeats 3's downfloat; the next (1–3, 2 floating) does
    /// not, and is taken; 2 meets the top of the next bracket.
    #[test]
    fn a_player_is_not_floated_down_twice_running_when_another_can_be() {
        let mk = |a: i64, score: f64, floats: Vec<Float>| Entrant {
            account: a,
            rating: 2000.0 - a as f64,
            score,
            opponents: vec![100 + a],
            floats,
            ..Entrant::default()
        };
        use Float::*;
        let field = vec![
            mk(1, 1.0, vec![None]),
            mk(2, 1.0, vec![None]),
            mk(3, 1.0, vec![Down]),
            mk(4, 0.0, vec![None]),
            mk(5, 0.0, vec![None]),
            mk(6, 0.0, vec![None]),
        ];
        let ringo = Rules::default();
        let round = pair(&field, &HashSet::new(), ringo);
        let has = |a: i64, b: i64| {
            round
                .boards
                .iter()
                .any(|x| x.contains(&a) && x.contains(&b))
        };
        assert!(has(1, 3), "{round:?}");
        assert!(
            has(2, 4),
            "2 floats down and meets the top of the next bracket: {round:?}"
        );
        assert!(has(5, 6), "{round:?}");
    }

    /// C.8's memo is shared by a round's brackets: two brackets with the
    /// same (no) floaters are still measured each on its own (a shared
    /// key once served one bracket's measure to the next, which then never
    /// saw its perfect candidate and paired 16–35 in a 22-player bracket
    /// where a perfect pairing was there to take).
    #[test]
    fn each_next_bracket_is_measured_on_its_own() {
        let mut field: Vec<Entrant> = (1..=7).map(|n| entrant(n, 2000.0 - n as f64)).collect();
        for e in &mut field {
            e.score = match e.account {
                1 | 2 => 2.0,
                3..=5 => 1.0,
                _ => 0.0,
            };
        }
        let f = Field::new(&field, &HashSet::new(), URGAMMON);
        let mut memo = Memo::default();
        // Ranks 2, 3, 4 (one point): one pair and one left (1 point).
        assert_eq!(
            f.next_bracket(&[], &[2, 3, 4], &[2, 3, 4, 5, 6], &mut memo),
            (-1, vec![100, 0])
        );
        // Ranks 5, 6 (no points): one pair.
        assert_eq!(
            f.next_bracket(&[], &[5, 6], &[5, 6], &mut memo),
            (-1, vec![0])
        );
    }

    /// A 22-player bracket whose first perfect candidate lies deep in the
    /// Dutch order (S2's third player onward transposed): it is found, and
    /// it is the first one, each S1 player meeting the first S2 player
    /// left who wants the other colour.
    #[test]
    fn the_first_perfect_candidate_of_a_large_bracket_is_found() {
        // Seat last played: 1 wants the first seat, 0 the second.
        let s1 = [1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1];
        let s2 = [0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 0];
        let field: Vec<Entrant> = s1
            .iter()
            .chain(&s2)
            .enumerate()
            .map(|(i, &seat)| Entrant {
                account: i as i64 + 1,
                rating: 2000.0 - i as f64,
                score: 1.0,
                opponents: vec![100 + i as i64],
                seats: vec![seat],
                floats: vec![Float::None],
                ..Entrant::default()
            })
            .collect();
        let round = pair(&field, &HashSet::new(), URGAMMON);
        let mut left: Vec<i64> = (12..=22).collect();
        for (i, &seat) in s1.iter().enumerate() {
            let a = i as i64 + 1;
            let k = left
                .iter()
                .position(|&b| s2[b as usize - 12] != seat)
                .unwrap();
            let b = left.remove(k);
            let want = if seat == 1 { [a, b] } else { [b, a] };
            assert!(round.boards.contains(&want), "{a} meets {b}: {round:?}");
        }
    }

    /// A bracket whose best is forced (70 players want the first seat, 50
    /// the second: 10 pairs must leave both wanting) is proven at its
    /// floor, not searched to the step bound: the round is not limited,
    /// and exactly 10 boards leave a preference unmet.
    #[test]
    fn a_large_bracket_at_its_floor_is_proven_not_limited() {
        let field: Vec<Entrant> = (0..120)
            .map(|i| Entrant {
                account: i + 1,
                rating: 2000.0 - i as f64,
                score: 1.0,
                opponents: vec![1000 + i],
                // Seat last played: 1 wants the first seat.
                seats: vec![usize::from(i % 12 < 7)],
                floats: vec![Float::None],
                ..Entrant::default()
            })
            .collect();
        let round = pair(&field, &HashSet::new(), URGAMMON);
        assert!(!round.limited, "proven at the floor");
        assert_eq!(round.boards.len(), 60);
        let wants_first = |a: i64| (a - 1) % 12 < 7;
        let unmet = round
            .boards
            .iter()
            .filter(|[a, b]| wants_first(*a) == wants_first(*b))
            .count();
        assert_eq!(unmet, 10, "{round:?}");
    }

    #[test]
    fn a_player_who_had_the_bye_does_not_have_it_again_and_nobody_meets_twice() {
        let mut field: Vec<Entrant> = (1..=3).map(|n| entrant(n, 1500.0)).collect();
        field[2].had_bye = true;
        field[0].opponents = vec![2];
        field[1].opponents = vec![1];
        let round = pair(&field, &HashSet::new(), URGAMMON);
        // 3 had the bye: 1 and 2 have met: one of them sits out, the other meets 3.
        assert_eq!(round.boards.len(), 1);
        assert!(round.bye == Some(1) || round.bye == Some(2));
        assert!(round.boards[0].contains(&3));
    }

    /// The smallest fields: nobody, one player (the bye, unless she has had
    /// it), two who have met (nobody paired, nobody given a point).
    #[test]
    fn the_smallest_fields_are_paired_as_far_as_they_can_be() {
        assert_eq!(pair(&[], &HashSet::new(), URGAMMON), Round::default());
        let mut one = vec![entrant(1, 1500.0)];
        assert_eq!(pair(&one, &HashSet::new(), URGAMMON).bye, Some(1));
        one[0].had_bye = true;
        assert_eq!(pair(&one, &HashSet::new(), URGAMMON), Round::default());
        let mut two = vec![entrant(1, 1500.0), entrant(2, 1400.0)];
        two[0].opponents = vec![2];
        two[1].opponents = vec![1];
        assert_eq!(pair(&two, &HashSet::new(), URGAMMON), Round::default());
    }

    #[test]
    fn a_block_keeps_two_players_apart() {
        let field: Vec<Entrant> = (1..=4).map(|n| entrant(n, 2000.0 - n as f64)).collect();
        let round = pair(&field, &HashSet::from([(3, 1)]), URGAMMON);
        for b in &round.boards {
            assert!(!(b.contains(&1) && b.contains(&3)), "{round:?}");
        }
    }

    /// A field that cannot be completed (everyone has met everyone but
    /// one): those who can be paired are, nobody meets twice.
    #[test]
    fn a_round_that_cannot_be_completed_pairs_whom_it_can() {
        let mut field: Vec<Entrant> = (1..=4).map(|n| entrant(n, 2000.0 - n as f64)).collect();
        for (a, b) in [(1, 2), (1, 3), (2, 3), (2, 4), (3, 4)] {
            field[a - 1].opponents.push(b as i64);
            field[b - 1].opponents.push(a as i64);
        }
        let round = pair(&field, &HashSet::new(), Rules::default());
        assert_eq!(round.boards.len(), 1);
        assert!(round.boards[0].contains(&1) && round.boards[0].contains(&4));
    }

    /// Generated fields played out round by round with made-up results:
    /// every round meets the absolute criteria (no repeat, one bye at
    /// most, C.3's colours) and pairs everyone but the bye.
    #[test]
    fn generated_fields_meet_the_absolute_criteria_every_round() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let sizes: Vec<usize> = std::env::var("AGON_DUTCH_SIZES")
            .ok()
            .map(|v| v.split(',').filter_map(|x| x.parse().ok()).collect())
            .unwrap_or(vec![6, 9, 12, 17, 24, 41]);
        for n in sizes {
            let began = std::time::Instant::now();
            let mut field: Vec<Entrant> = (0..n)
                .map(|i| entrant(i as i64 + 1, 1200.0 + (next() % 1000) as f64))
                .collect();
            let rounds = (n / 2).min(7);
            for r in 0..rounds {
                let rules = Rules {
                    colours: true,
                    final_round: r + 1 == rounds,
                    initial: 0,
                };
                let round = pair(&field, &HashSet::new(), rules);
                let mut seen = HashSet::new();
                for b in &round.boards {
                    assert!(seen.insert(b[0]) && seen.insert(b[1]), "one board each");
                    let e = field.iter().find(|e| e.account == b[0]).unwrap();
                    assert!(!e.opponents.contains(&b[1]), "no repeat pairing");
                }
                if let Some(b) = round.bye {
                    assert!(seen.insert(b));
                    let e = field.iter().find(|e| e.account == b).unwrap();
                    assert!(!e.had_bye, "one bye at most");
                }
                assert_eq!(seen.len(), n, "everyone paired or given the bye");
                let results: Vec<f64> = round
                    .boards
                    .iter()
                    .map(|_| [1.0, 0.0, 0.5][(next() % 3) as usize])
                    .collect();
                play(&mut field, &round, |k| results[k]);
                if rules.final_round {
                    eprintln!("{n} players, {rounds} rounds: {:?}", began.elapsed());
                    continue;
                }
                for e in &field {
                    let s = &e.seats;
                    let l = s.len();
                    assert!(
                        !(l >= 3 && s[l - 1] == s[l - 2] && s[l - 2] == s[l - 3]),
                        "no seat three times in a row: {s:?}"
                    );
                    let first = s.iter().filter(|&&x| x == 0).count() as i64;
                    assert!((2 * first - l as i64).abs() <= 2, "seats within two: {s:?}");
                }
            }
        }
    }
}
