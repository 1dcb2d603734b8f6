//! A bracket paired: its shapes tried from the most pairs, and each shape's
//! branch and bound in the Dutch order, pass by pass of unclean pairs
//! allowed (the module's documentation says how).

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::ops::ControlFlow;

use super::super::matching;
use super::candidates::*;
use super::types::*;

impl Field<'_> {
    /// Pairs one bracket: the players `moved` down to it and its scoregroup
    /// `residents` (ranks, best first); `lower` are the players below it.
    /// Answers its pairs and the players it moves down.
    pub(super) fn bracket(
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
    ///
    /// Why one function of 400 lines: it is one branch and bound whose
    /// closures (the costs, the bound, the visit of each candidate) share the
    /// bracket's state as it changes (the best candidate, its pass, the
    /// allowance, the steps spent); the module's documentation reads it in
    /// order, pass by pass, and the cross-check against bbpPairings holds it.
    /// Split, that state would travel in a struct of fifteen fields.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn shape(
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
