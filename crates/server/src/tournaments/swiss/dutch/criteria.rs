//! What the criteria ask of the field: who may meet (the graphs), whether
//! the players left can all be paired (C.4), the next bracket (C.8), the
//! first seat (E), and a candidate's quality (C.7–C.21).

use super::super::matching;
use super::types::*;

impl Field<'_> {
    /// The graph of who may meet among `set` (vertex k is `set[k]`), with a
    /// last vertex for the bye (joined to those who may have it) when asked.
    pub(super) fn graph(&self, set: &[usize], bye: bool) -> Vec<Vec<usize>> {
        self.graph_where(set, bye, |_, _| true)
    }

    /// [`Field::graph`] with only the edges between positions `a < b` that
    /// `keep` keeps.
    pub(super) fn graph_where(
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
    pub(super) fn completable(&self, set: &[usize], memo: &mut Memo) -> bool {
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
    pub(super) fn next_bracket(
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
    pub(super) fn next_ideal(&self, scores: &[i64], group: &[usize]) -> Next {
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
    pub(super) fn first_seat(&self, hi: usize, lo: usize) -> bool {
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
    pub(super) fn quality(
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
    pub(super) fn float_fault(&self, i: usize, now: Float, sd: i64, f: &mut Faults) {
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
    pub(super) fn pair_faults(&self, a: usize, b: usize, f: &mut Faults) {
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
}
