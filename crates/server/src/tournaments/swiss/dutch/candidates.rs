//! The Dutch order of a bracket's candidates: transpositions (D.1) with
//! their branch and bound, exchanges (D.2, D.3) in their order, and the
//! largest matching of two sets that bounds a branch.

use std::cell::Cell;
use std::cmp::Ordering;
use std::ops::ControlFlow;

use super::types::*;

/// Visits each ordered choice of `s1.len()` of `items` (BSNs ascending)
/// in lexicographic order (D.1), skipping those that put together two
/// players who may not meet, those with more than `allow` unclean pairs,
/// and those whose faults (from `start` on) already make them no better
/// than the best candidate found ([`Costs::hopeless`]); `visit` sees the
/// choice, the items left, the allowance left and the faults.
///
/// Why one function of 140 lines: its inner `go` is the recursion, and the
/// pruning it does at each level (the allowance, the hope of the faults so
/// far, the clean matching of what is left) reads the arguments of the
/// whole walk.
pub(super) fn transpositions(
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
pub(super) fn bipartite(left: usize, right: usize, edge: &dyn Fn(usize, usize) -> bool) -> usize {
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
pub(super) fn exchanges<'a>(
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
pub(super) fn holds_extreme(x: &[usize], y: &[usize], highest: bool) -> Ordering {
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
pub(super) fn exchange_order(a: &Exchange, b: &Exchange) -> Ordering {
    let diff =
        |x: &Exchange| (x.1.iter().sum::<usize>() as i64 - x.0.iter().sum::<usize>() as i64).abs();
    a.0.len()
        .cmp(&b.0.len())
        .then(diff(a).cmp(&diff(b)))
        .then_with(|| holds_extreme(&a.0, &b.0, true))
        .then_with(|| holds_extreme(&a.1, &b.1, false))
}

/// The sorted difference `all − out`.
pub(super) fn without(all: &[usize], out: &[usize]) -> Vec<usize> {
    all.iter().copied().filter(|x| !out.contains(x)).collect()
}

/// The sorted union.
pub(super) fn with(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut v: Vec<usize> = a.iter().chain(b).copied().collect();
    v.sort_unstable();
    v
}
