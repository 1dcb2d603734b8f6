//! The proof-number search itself: df-pn with a transposition table, sound
//! with repetitions, the tablebases as exact leaves.

use crate::ringo::tablebase::{Tablebases, Value};
use ringo::{legal_moves, Move, MoveList, Position, Rules, Side};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A proof or disproof number too large to matter (infinity).
pub(super) const INF: u32 = u32::MAX / 4;
/// No taint: the result does not depend on the line above.
pub(super) const CLEAN: u32 = u32::MAX;
/// Salt of the table key for a position reached by a pass.
pub(super) const AFTER_PASS: u64 = 0x9e37_79b9_7f4a_7c15;
/// Table entries kept before the unproven ones are dropped.
pub(super) const TT_CAP: usize = 8_000_000;

/// A hasher for keys that are already Zobrist hashes.
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

pub(super) type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// A stored node: its numbers and, once settled, when (proofs made earlier
/// support later ones, which orders the main line).
#[derive(Clone, Copy)]
pub(super) struct Entry {
    pub(super) pn: u32,
    pub(super) dn: u32,
    pub(super) seq: u32,
    pub(super) horizon: bool,
}

/// A child's numbers during its parent's expansion.
#[derive(Clone, Copy)]
pub(super) struct Numbers {
    pub(super) pn: u32,
    pub(super) dn: u32,
    /// The depth on the line of the earliest position this result relies on
    /// (CLEAN: none).
    pub(super) taint: u32,
    /// A disproof that relies on the search's horizon: "no win within the
    /// plies searched", not a result.
    pub(super) horizon: bool,
}

impl Numbers {
    const UNKNOWN: Numbers = Numbers {
        pn: 1,
        dn: 1,
        taint: CLEAN,
        horizon: false,
    };
    const PROVED: Numbers = Numbers {
        pn: 0,
        dn: INF,
        taint: CLEAN,
        horizon: false,
    };
    const DISPROVED: Numbers = Numbers {
        pn: INF,
        dn: 0,
        taint: CLEAN,
        horizon: false,
    };
    const HORIZON: Numbers = Numbers {
        pn: INF,
        dn: 0,
        taint: CLEAN,
        horizon: true,
    };
}

pub(super) struct Dfpn<'a> {
    pub(super) rules: Rules,
    pub(super) goal: Side,
    pub(super) tablebases: Option<&'a Tablebases>,
    pub(super) tt: KeyMap<Entry>,
    /// The positions on the current line, with their depths.
    pub(super) line: KeyMap<u32>,
    pub(super) nodes: u64,
    pub(super) budget: u64,
    pub(super) seq: u32,
    pub(super) progress: Option<(&'a (dyn Fn(u64) + Sync), u64)>,
    /// The longest horizon within which the goal was shown not to win.
    pub(super) bound: Option<u32>,
}

impl<'a> Dfpn<'a> {
    pub(super) fn new(
        rules: Rules,
        goal: Side,
        tablebases: Option<&'a Tablebases>,
        budget: u64,
    ) -> Dfpn<'a> {
        Dfpn {
            rules,
            goal,
            tablebases,
            tt: KeyMap::default(),
            line: KeyMap::default(),
            nodes: 0,
            budget,
            seq: 1,
            progress: None,
            bound: None,
        }
    }

    pub(super) fn key(pos: &Position, after_pass: bool) -> u64 {
        pos.key() ^ if after_pass { AFTER_PASS } else { 0 }
    }

    /// The table key of a position's numbers with `left` plies left.
    pub(super) fn with_left(base: u64, left: u32) -> u64 {
        base ^ (u64::from(left) + 1).wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Proves the root, with `above` the positions on the line before it.
    /// The horizon starts just above the fewest plies the attackers need and
    /// grows by a quarter (12, 15, 18, 22, 27, … plies) until the root is proved, or
    /// disproved without the horizon's help, or the budget is spent: each
    /// round's graph of (position, plies left) has no cycles, which keeps
    /// proof numbers from growing without end around Ringo's many cycles.
    pub(super) fn root(&mut self, pos: Position, after_pass: bool, above: &[u64]) -> Option<bool> {
        for (d, k) in above.iter().enumerate() {
            self.line.insert(*k, d as u32);
        }
        let depth = above.len() as u32;
        // No shorter horizon can prove the attackers' win.
        let mut horizon = if self.goal == Side::Attackers {
            attackers_need(&pos).saturating_add(1).clamp(8, 1 << 12)
        } else {
            8
        };
        while self.nodes < self.budget {
            let mut n = Numbers::UNKNOWN;
            while n.pn != 0 && n.dn != 0 && self.nodes < self.budget {
                n = self.mid(pos, after_pass, depth, horizon, INF, INF);
            }
            if n.pn == 0 {
                return Some(true);
            }
            if n.dn == 0 && !n.horizon {
                return Some(false);
            }
            if n.dn == 0 {
                self.bound = Some(horizon);
            }
            if horizon >= 1 << 12 {
                break;
            }
            horizon += (horizon / 4).max(2);
        }
        None
    }

    /// A child that needs no search: the end of the game, a tablebase entry
    /// or a repetition of the line.
    pub(super) fn leaf(
        &self,
        pos: &Position,
        double_pass: bool,
        after_pass: bool,
        above: &[u64],
    ) -> Option<Numbers> {
        let won = |winner: Option<Side>| {
            Some(if winner == Some(self.goal) {
                Numbers::PROVED
            } else {
                Numbers::DISPROVED
            })
        };
        if pos.fortress() >= 2 {
            return won(Some(Side::Attackers));
        }
        if pos.attackers_left() < 2 || double_pass {
            return won(Some(Side::Defenders));
        }
        let key = pos.key();
        let at = self
            .line
            .get(&key)
            .copied()
            .or_else(|| above.iter().position(|&k| k == key).map(|d| d as u32));
        if let Some(depth) = at {
            return Some(Numbers {
                taint: depth,
                ..Numbers::DISPROVED
            });
        }
        let tb = self.tablebases?;
        let v = if after_pass {
            tb.probe_after_pass(pos)
        } else {
            tb.probe(pos)
        }?;
        won(v.outcome(&self.rules).0)
    }

    /// The numbers of a child with `left` plies left to start from: a
    /// leaf's, a stored entry's that holds for `left`, or the unknown (1, 1).
    pub(super) fn first_numbers(
        &self,
        pos: &Position,
        double_pass: bool,
        after_pass: bool,
        left: u32,
    ) -> Numbers {
        if let Some(l) = self.leaf(pos, double_pass, after_pass, &[]) {
            return l;
        }
        if self.goal == Side::Attackers && attackers_need(pos) > left {
            return Numbers::HORIZON;
        }
        let base = Self::key(pos, after_pass);
        let stored = self
            .tt
            .get(&base)
            .or_else(|| self.tt.get(&Self::with_left(base, left)))
            .map(|e| Numbers {
                pn: e.pn,
                dn: e.dn,
                taint: CLEAN,
                horizon: e.horizon,
            });
        match stored {
            Some(n) => n,
            None if left == 0 => Numbers::HORIZON,
            None => Numbers::UNKNOWN,
        }
    }

    /// df-pn's multiple iterative deepening at one node with `left` plies
    /// left: searches below it until its proof number reaches `th_pn` or its
    /// disproof number `th_dn`.
    pub(super) fn mid(
        &mut self,
        pos: Position,
        after_pass: bool,
        depth: u32,
        left: u32,
        th_pn: u32,
        th_dn: u32,
    ) -> Numbers {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1 << 14) {
            if let Some((p, before)) = self.progress {
                p(before + self.nodes);
            }
        }
        let or_node = pos.to_move() == self.goal;
        let mut list = MoveList::new();
        legal_moves(&pos, &self.rules, &mut list);
        self.line.insert(pos.key(), depth);
        let mut kids: Vec<(Position, bool, Numbers)> = list
            .iter()
            .map(|&mv| {
                let mut next = pos;
                next.play_unchecked(mv);
                let pass = mv == Move::PASS;
                let n = self.first_numbers(&next, pass && after_pass, pass, left - 1);
                (next, pass, n)
            })
            .collect();
        let mut me;
        loop {
            me = combine(or_node, &kids);
            if me.pn >= th_pn
                || me.dn >= th_dn
                || me.pn == 0
                || me.dn == 0
                || self.nodes >= self.budget
            {
                break;
            }
            // The most proving child and the runner-up's number.
            let key_of = |n: &Numbers| if or_node { n.pn } else { n.dn };
            let mut best = 0;
            let mut second = INF;
            for (i, k) in kids.iter().enumerate().skip(1) {
                let v = key_of(&k.2);
                if v < key_of(&kids[best].2) {
                    second = key_of(&kids[best].2);
                    best = i;
                } else if v < second {
                    second = v;
                }
            }
            let c = kids[best].2;
            let (c_pn, c_dn) = if or_node {
                (
                    th_pn.min(second.saturating_add(1)),
                    sat_sub(th_dn, me.dn).saturating_add(c.dn).min(INF),
                )
            } else {
                (
                    sat_sub(th_pn, me.pn).saturating_add(c.pn).min(INF),
                    th_dn.min(second.saturating_add(1)),
                )
            };
            let (next, pass, _) = kids[best];
            kids[best].2 = self.mid(next, pass, depth + 1, left - 1, c_pn, c_dn);
        }
        self.line.remove(&pos.key());
        // A result that relies on this position or below no longer depends
        // on the line above it.
        if me.taint >= depth {
            me.taint = CLEAN;
        }
        let settled = me.pn == 0 || me.dn == 0;
        if !settled || me.taint == CLEAN {
            if self.tt.len() >= TT_CAP {
                self.tt
                    .retain(|_, e| e.pn == 0 || (e.dn == 0 && !e.horizon));
            }
            let seq = if settled {
                self.seq += 1;
                self.seq
            } else {
                0
            };
            // Results hold whatever the plies left; numbers and horizon
            // disproofs only for as many as they were found with.
            let base = Self::key(&pos, after_pass);
            let absolute = me.pn == 0 || (me.dn == 0 && !me.horizon);
            let key = if absolute {
                base
            } else {
                Self::with_left(base, left)
            };
            self.tt.insert(
                key,
                Entry {
                    pn: me.pn,
                    dn: me.dn,
                    seq,
                    horizon: me.horizon,
                },
            );
        }
        me
    }

    /// The main line from a settled root: the winning side's earliest-settled
    /// move (a leaf first), the losing side's latest-settled one, then the
    /// tablebase's line. `goal_wins` is the root's result.
    pub(super) fn main_line(
        &self,
        mut pos: Position,
        mut after_pass: bool,
        goal_wins: bool,
    ) -> Vec<String> {
        let mut pv = vec![];
        let mut seen = std::collections::HashSet::new();
        while pv.len() < 1000 && seen.insert(pos.key()) {
            if let Some(tb) = self.tablebases {
                let v = if after_pass {
                    tb.probe_after_pass(&pos)
                } else {
                    tb.probe(&pos)
                };
                if v.is_some() {
                    pv.extend(table_line(tb, &self.rules, pos, after_pass));
                    break;
                }
            }
            let winning = (pos.to_move() == self.goal) == goal_wins;
            let mut list = MoveList::new();
            legal_moves(&pos, &self.rules, &mut list);
            let mut pick: Option<(Move, u32)> = None;
            for &mv in list.iter() {
                let mut next = pos;
                next.play_unchecked(mv);
                let pass = mv == Move::PASS;
                // (the goal wins after this move, when it was settled)
                let status = if seen.contains(&next.key()) {
                    Some((false, 0))
                } else {
                    match self.leaf(&next, pass && after_pass, pass, &[]) {
                        Some(l) => Some((l.pn == 0, 0)),
                        None => match self.tt.get(&Self::key(&next, pass)) {
                            Some(e) if e.pn == 0 => Some((true, e.seq)),
                            Some(e) if e.dn == 0 && !e.horizon => Some((false, e.seq)),
                            _ => None,
                        },
                    }
                };
                let Some((goal_wins_here, seq)) = status else {
                    continue;
                };
                if goal_wins_here != goal_wins {
                    continue;
                }
                let better = match pick {
                    None => true,
                    Some((_, s)) if winning => seq < s,
                    Some((_, s)) => seq > s,
                };
                if better {
                    pick = Some((mv, seq));
                }
            }
            let Some((mv, _)) = pick else { break };
            pv.push(mv.to_notation(&list));
            let double_pass = mv == Move::PASS && after_pass;
            pos.play_unchecked(mv);
            after_pass = mv == Move::PASS;
            if double_pass || pos.fortress() >= 2 || pos.attackers_left() < 2 {
                break;
            }
        }
        pv
    }
}

/// The fewest plies before the attackers can win: each attacker needed in
/// the fortress must cover its rings, at best two at a time (a jump), and
/// the sides alternate. A node with fewer plies left than this cannot be
/// proved within the horizon, so it is not searched.
pub(super) fn attackers_need(pos: &Position) -> u32 {
    let missing = 2u32.saturating_sub(u32::from(pos.fortress()));
    let mut moves: Vec<u32> = pos
        .pieces(Side::Attackers)
        .iter()
        .filter_map(|c| c.ring())
        .map(|r| u32::from(r).div_ceil(2))
        .collect();
    if moves.len() < missing as usize {
        return u32::MAX;
    }
    moves.sort_unstable();
    let need: u32 = moves[..missing as usize].iter().sum();
    match (need, pos.to_move()) {
        (0, _) => 0,
        (n, Side::Attackers) => 2 * n - 1,
        (n, Side::Defenders) => 2 * n,
    }
}

/// OR node: the smallest proof number and the sum of disproof numbers; AND
/// node: the other way round. A disproof carries the taint and horizon of
/// the children it rests on.
pub(super) fn combine(or_node: bool, kids: &[(Position, bool, Numbers)]) -> Numbers {
    let mut min = INF;
    let mut sum = 0u32;
    for (_, _, n) in kids {
        let (small, add) = if or_node { (n.pn, n.dn) } else { (n.dn, n.pn) };
        min = min.min(small);
        sum = sum.saturating_add(add).min(INF);
    }
    let (pn, dn) = if or_node { (min, sum) } else { (sum, min) };
    let mut n = Numbers {
        pn,
        dn,
        taint: CLEAN,
        horizon: false,
    };
    if dn == 0 {
        let disproofs = kids.iter().map(|k| k.2).filter(|k| k.dn == 0);
        if or_node {
            // Every child is needed.
            for k in disproofs {
                n.taint = n.taint.min(k.taint);
                n.horizon |= k.horizon;
            }
        } else if let Some(k) = disproofs.max_by_key(|k| (!k.horizon, k.taint)) {
            // The soundest disproving child carries the disproof.
            n.taint = k.taint;
            n.horizon = k.horizon;
        }
    }
    n
}

pub(super) fn sat_sub(a: u32, b: u32) -> u32 {
    a.saturating_sub(b)
}

/// The tablebase's line from a held position: the winner's fastest move,
/// the loser's slowest, until the game ends (a cycle has no line).
pub fn table_line(
    tb: &Tablebases,
    rules: &Rules,
    mut pos: Position,
    mut after_pass: bool,
) -> Vec<String> {
    let mut pv = vec![];
    loop {
        let probe = |p: &Position, ap: bool| {
            if ap {
                tb.probe_after_pass(p)
            } else {
                tb.probe(p)
            }
        };
        let Some(v) = probe(&pos, after_pass) else {
            break;
        };
        let (Some(winner), Some(plies)) = (v.winner(), v.plies()) else {
            break;
        };
        if plies == 0 {
            break;
        }
        let mut list = MoveList::new();
        legal_moves(&pos, rules, &mut list);
        let mut pick = None;
        for &mv in list.iter() {
            let mut next = pos;
            next.play_unchecked(mv);
            let cv = if mv == Move::PASS && after_pass {
                Some(Value::Defenders(0))
            } else {
                probe(&next, mv == Move::PASS)
            };
            if cv.and_then(Value::winner) == Some(winner)
                && cv.and_then(Value::plies) == Some(plies - 1)
            {
                pick = Some(mv);
                break;
            }
        }
        let Some(mv) = pick else { break };
        pv.push(mv.to_notation(&list));
        if mv == Move::PASS && after_pass {
            break;
        }
        pos.play_unchecked(mv);
        after_pass = mv == Move::PASS;
    }
    pv
}
