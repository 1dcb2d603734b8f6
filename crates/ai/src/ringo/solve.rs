//! Proving Ringo positions: depth-first proof-number search (df-pn, Nagai
//! 2002) with a transposition table, sound with Ringo's repetition rule, and
//! the endgame tablebases ([`super::tablebase`]) as exact leaves.
//!
//! **What is proved.** One search proves or disproves "the *goal* side wins"
//! from the position taken as a fresh start. Under `repetition=defenders`
//! the goal is the attackers' win: proved means the attackers win, disproved
//! that the defenders do. Under `repetition=draw` a second search asks the
//! same of the defenders, and a position neither side wins is a draw.
//!
//! **Repetitions (the graph-history-interaction problem).** A position
//! that comes back on the current line ends that line as "not a win for the
//! goal" (a side that can force a win can force it without ever repeating a
//! position, and a side that cannot is kept out forever and loses or draws
//! by repetition; so cutting at the second occurrence gives the right value
//! at the root). Such a result depends on the line that led there, so it is
//! never stored as a position's value: each disproof carries the depth of
//! the earliest position on the line it relies on (its *taint*), is handed
//! up the line, and is stored in the table only at the position it repeats
//! or above it, where it no longer depends on anything outside. Proofs never
//! rely on a repetition, so they are always stored.
//!
//! **Tablebases.** Every position whose class is held is a leaf with its
//! exact value. The classes the search reaches before a leaf are never held
//! ones, so a proof's line and a table's line never share a position, and
//! no position occurs three times when the winner follows them.

use super::tablebase::{Tablebases, Value};
use ringo::{legal_moves, Game, Move, MoveList, Position, Repetition, Rules, Side};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A proof or disproof number too large to matter (infinity).
const INF: u32 = u32::MAX / 4;
/// No taint: the result does not depend on the line above.
const CLEAN: u32 = u32::MAX;
/// Salt of the table key for a position reached by a pass.
const AFTER_PASS: u64 = 0x9e37_79b9_7f4a_7c15;
/// Table entries kept before the unproven ones are dropped.
const TT_CAP: usize = 8_000_000;

/// The result of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Solution {
    /// `"attackers"`, `"defenders"`, `"draw"` or `"unknown"` (the node
    /// budget ran out first).
    pub result: &'static str,
    /// The length of the main line of the proof (the winner's moves from the
    /// proof, the loser's longest resistance the proof shows, then the
    /// tablebase's fastest win); `null` when unknown.
    pub plies: Option<usize>,
    /// Positions expanded by the searches.
    pub nodes: u64,
    /// The main line, in move notation.
    pub pv: Vec<String>,
    /// True when the result is a tablebase's entry for the position itself.
    pub tablebase: bool,
    /// When unknown: what the search did prove, that the attackers cannot
    /// force a win within this many plies (`null`: not even that).
    pub attackers_no_win_within: Option<u32>,
}

/// The search's budget and help.
pub struct SolveOptions<'a> {
    /// Positions to expand at most, over all searches.
    pub max_nodes: u64,
    /// Threads: with more than one, the root's moves are shared out, each
    /// searched with its own table.
    pub threads: usize,
    /// Tablebases to use as leaves.
    pub tablebases: Option<&'a Tablebases>,
}

/// Solves the game's current position, taken as a fresh start (positions
/// played before it do not count towards repetitions). `progress(nodes)` is
/// called now and then.
pub fn solve(game: &Game, opts: &SolveOptions, progress: &(dyn Fn(u64) + Sync)) -> Solution {
    let rules = *game.rules();
    let pos = *game.position();
    let unknown = |nodes, no_win_within| Solution {
        result: "unknown",
        plies: None,
        nodes,
        pv: vec![],
        tablebase: false,
        attackers_no_win_within: no_win_within,
    };
    if let Some(o) = game.outcome() {
        let result = match o.winner {
            Some(Side::Attackers) => "attackers",
            Some(Side::Defenders) => "defenders",
            None => "draw",
        };
        return Solution {
            result,
            plies: Some(0),
            nodes: 0,
            pv: vec![],
            tablebase: false,
            attackers_no_win_within: None,
        };
    }
    let after_pass = game.last_was_pass();
    if let Some(tb) = opts.tablebases {
        let v = if after_pass {
            tb.probe_after_pass(&pos)
        } else {
            tb.probe(&pos)
        };
        if let Some(v) = v {
            let pv = table_line(tb, &rules, pos, after_pass);
            return Solution {
                result: v.result_name(&rules),
                plies: v.plies().map(usize::from).or(Some(pv.len())),
                nodes: 0,
                pv,
                tablebase: true,
                attackers_no_win_within: None,
            };
        }
    }
    let goals: &[Side] = match rules.repetition {
        Repetition::Defenders => &[Side::Attackers],
        Repetition::Draw => &[Side::Attackers, Side::Defenders],
    };
    let mut nodes = 0;
    let mut no_win_within = None;
    for (k, &goal) in goals.iter().enumerate() {
        let budget = (opts.max_nodes.saturating_sub(nodes)) / (goals.len() - k) as u64;
        let Proof {
            proved,
            nodes: used,
            pv,
            bound,
        } = prove(&rules, pos, after_pass, goal, budget, opts, progress, nodes);
        nodes += used;
        if k == 0 {
            no_win_within = bound;
        }
        match proved {
            Some(true) => {
                return Solution {
                    result: name(goal),
                    plies: Some(pv.len()),
                    nodes,
                    pv,
                    tablebase: false,
                    attackers_no_win_within: None,
                }
            }
            Some(false) if k + 1 == goals.len() => {
                let result = match rules.repetition {
                    Repetition::Defenders => "defenders",
                    Repetition::Draw => "draw",
                };
                return Solution {
                    result,
                    plies: Some(pv.len()),
                    nodes,
                    pv,
                    tablebase: false,
                    attackers_no_win_within: None,
                };
            }
            Some(false) => {}
            None => return unknown(nodes, no_win_within),
        }
    }
    unknown(nodes, no_win_within)
}

fn name(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attackers",
        Side::Defenders => "defenders",
    }
}

/// What one proof attempt found.
#[derive(Clone, Default)]
struct Proof {
    /// Proved or disproved (`None`: unknown).
    proved: Option<bool>,
    /// Nodes used.
    nodes: u64,
    /// The main line.
    pv: Vec<String>,
    /// When unknown: the goal cannot force a win within this many plies.
    bound: Option<u32>,
}

/// One df-pn proof of "`goal` wins", with the root's moves shared out over
/// the threads when there are several. Returns proved/disproved/unknown, the
/// nodes used and the main line.
#[allow(clippy::too_many_arguments)]
fn prove(
    rules: &Rules,
    pos: Position,
    after_pass: bool,
    goal: Side,
    budget: u64,
    opts: &SolveOptions,
    progress: &(dyn Fn(u64) + Sync),
    before: u64,
) -> Proof {
    let mut list = MoveList::new();
    legal_moves(&pos, rules, &mut list);
    if opts.threads <= 1 || list.len() < 2 {
        let mut s = Dfpn::new(*rules, goal, opts.tablebases, budget);
        s.progress = Some((progress, before));
        let r = s.root(pos, after_pass, &[]);
        let pv = match r {
            Some(goal_wins) => s.main_line(pos, after_pass, goal_wins),
            None => vec![],
        };
        return Proof {
            proved: r,
            nodes: s.nodes,
            pv,
            bound: s.bound,
        };
    }
    // The root's moves, each proved on its own thread with its own table;
    // the root itself is on the line above each of them.
    let mover_is_goal = pos.to_move() == goal;
    let per = budget / list.len() as u64;
    let moves: Vec<Move> = list.iter().copied().collect();
    let mut results: Vec<Option<Proof>> = vec![None; moves.len()];
    let done = std::sync::atomic::AtomicU64::new(0);
    crate::par::run(
        moves.len(),
        opts.threads,
        |i| {
            let mv = moves[i];
            let mut next = pos;
            next.play_unchecked(mv);
            let mut s = Dfpn::new(*rules, goal, opts.tablebases, per);
            let r = match s.leaf(
                &next,
                mv == Move::PASS && after_pass,
                mv == Move::PASS,
                &[pos.key()],
            ) {
                Some(l) => Some(l.pn == 0),
                None => {
                    s.progress = Some((
                        progress,
                        before + done.load(std::sync::atomic::Ordering::Relaxed),
                    ));
                    s.root(next, mv == Move::PASS, &[pos.key()])
                }
            };
            let mut pv = vec![mv.to_notation(&list)];
            if let Some(goal_wins) = r {
                pv.extend(s.main_line(next, mv == Move::PASS, goal_wins));
            }
            done.fetch_add(s.nodes, std::sync::atomic::Ordering::Relaxed);
            (
                i,
                Proof {
                    proved: r,
                    nodes: s.nodes,
                    pv,
                    bound: s.bound,
                },
            )
        },
        |(i, p)| {
            let settles = p.proved == Some(mover_is_goal);
            results[i] = Some(p);
            // One move that wins for the side to move settles the root.
            !settles
        },
    );
    let nodes = results.iter().flatten().map(|r| r.nodes).sum();
    let all = results.iter().all(Option::is_some);
    let found: Vec<Proof> = results.into_iter().flatten().collect();
    // The goal to move needs one proof, the opponent to move one disproof.
    let want = mover_is_goal;
    if let Some(hit) = found.iter().find(|r| r.proved == Some(want)) {
        return Proof {
            proved: Some(want),
            nodes,
            pv: hit.pv.clone(),
            bound: None,
        };
    }
    if all && found.iter().all(|r| r.proved == Some(!want)) {
        // Every move fails: the longest main line stands for the proof.
        let pv = found
            .into_iter()
            .map(|r| r.pv)
            .max_by_key(Vec::len)
            .unwrap_or_default();
        return Proof {
            proved: Some(!want),
            nodes,
            pv,
            bound: None,
        };
    }
    // No win within n plies: after every goal move (or one opponent move),
    // none within n - 1.
    let bounds = found.iter().map(|r| match r.proved {
        Some(false) => Some(u32::MAX - 1),
        _ => r.bound,
    });
    let bound = if !all {
        None
    } else if mover_is_goal {
        bounds.min().flatten()
    } else {
        bounds.flatten().max()
    };
    Proof {
        proved: None,
        nodes,
        pv: vec![],
        bound: bound.filter(|&b| b < u32::MAX - 1).map(|b| b + 1),
    }
}

/// A hasher for keys that are already Zobrist hashes.
#[derive(Default)]
struct KeyHasher(u64);

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

type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// A stored node: its numbers and, once settled, when (proofs made earlier
/// support later ones, which orders the main line).
#[derive(Clone, Copy)]
struct Entry {
    pn: u32,
    dn: u32,
    seq: u32,
    horizon: bool,
}

/// A child's numbers during its parent's expansion.
#[derive(Clone, Copy)]
struct Numbers {
    pn: u32,
    dn: u32,
    /// The depth on the line of the earliest position this result relies on
    /// (CLEAN: none).
    taint: u32,
    /// A disproof that relies on the search's horizon: "no win within the
    /// plies searched", not a result.
    horizon: bool,
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

struct Dfpn<'a> {
    rules: Rules,
    goal: Side,
    tablebases: Option<&'a Tablebases>,
    tt: KeyMap<Entry>,
    /// The positions on the current line, with their depths.
    line: KeyMap<u32>,
    nodes: u64,
    budget: u64,
    seq: u32,
    progress: Option<(&'a (dyn Fn(u64) + Sync), u64)>,
    /// The longest horizon within which the goal was shown not to win.
    bound: Option<u32>,
}

impl<'a> Dfpn<'a> {
    fn new(rules: Rules, goal: Side, tablebases: Option<&'a Tablebases>, budget: u64) -> Dfpn<'a> {
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

    fn key(pos: &Position, after_pass: bool) -> u64 {
        pos.key() ^ if after_pass { AFTER_PASS } else { 0 }
    }

    /// The table key of a position's numbers with `left` plies left.
    fn with_left(base: u64, left: u32) -> u64 {
        base ^ (u64::from(left) + 1).wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Proves the root, with `above` the positions on the line before it.
    /// The horizon starts just above the fewest plies the attackers need and
    /// grows by a quarter (12, 15, 18, 22, 27, … plies) until the root is proved, or
    /// disproved without the horizon's help, or the budget is spent: each
    /// round's graph of (position, plies left) has no cycles, which keeps
    /// proof numbers from growing without end around Ringo's many cycles.
    fn root(&mut self, pos: Position, after_pass: bool, above: &[u64]) -> Option<bool> {
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
    fn leaf(
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
    fn first_numbers(
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
    fn mid(
        &mut self,
        pos: Position,
        after_pass: bool,
        depth: u32,
        left: u32,
        th_pn: u32,
        th_dn: u32,
    ) -> Numbers {
        self.nodes += 1;
        if self.nodes % (1 << 14) == 0 {
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
    fn main_line(&self, mut pos: Position, mut after_pass: bool, goal_wins: bool) -> Vec<String> {
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
fn attackers_need(pos: &Position) -> u32 {
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
fn combine(or_node: bool, kids: &[(Position, bool, Numbers)]) -> Numbers {
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

fn sat_sub(a: u32, b: u32) -> u32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ringo::tablebase::Material;

    fn opts(max_nodes: u64, tablebases: Option<&Tablebases>) -> SolveOptions<'_> {
        SolveOptions {
            max_nodes,
            threads: 1,
            tablebases,
        }
    }

    /// Random positions of a class: the solver, without the tables and with
    /// only the smaller classes, never disagrees with the table, and leaves
    /// at most `max_unknown` of the `samples` unsolved within `nodes`.
    fn agree(text: &str, top: (u8, u8), samples: usize, nodes: u64, max_unknown: usize) {
        let rules: Rules = text.parse().unwrap();
        let (attackers, defenders) = top;
        let mut full = Tablebases::new(&rules);
        full.build_up_to(attackers, defenders, 2, &|_, _, _| {})
            .unwrap();
        let mut smaller = Tablebases::new(&rules);
        if defenders > 0 {
            smaller
                .build_up_to(attackers, defenders - 1, 2, &|_, _, _| {})
                .unwrap();
        }
        let table = full
            .table(Material {
                attackers,
                defenders,
            })
            .unwrap();
        let mut rng = crate::Rng::new(samples as u64);
        let (mut unknown, mut solved) = (0, 0);
        for _ in 0..samples {
            let pos = table.position(rng.next_u64() % table.len(), &rules);
            let want = full.probe(&pos).unwrap().result_name(&rules);
            let game = Game::from_position(rules, pos);
            for tb in [None, Some(&smaller)] {
                let got = solve(&game, &opts(nodes, tb), &|_| {});
                if got.result == "unknown" {
                    unknown += 1;
                    continue;
                }
                solved += 1;
                let at = pos.to_text(rules.rings);
                assert_eq!(got.result, want, "{text} {at}: {got:?}");
                // The main line is legal and ends the game the right way
                // (a defenders' win by repetition or a draw needs no end).
                let mut g = Game::from_position(rules, pos);
                for m in &got.pv {
                    g.play_text(m)
                        .unwrap_or_else(|e| panic!("{at} {m}: {e} in {:?}", got.pv));
                }
                if got.result == "attackers" {
                    assert_eq!(g.status_name(), "attackers-win", "{at}: {:?}", got.pv);
                }
            }
        }
        assert!(
            unknown <= max_unknown,
            "{text}: {unknown} of {} unsolved",
            2 * samples
        );
        assert!(solved >= samples, "{text}: {solved} solved");
    }

    #[test]
    fn solve_agrees_with_the_tablebases() {
        agree("classic,rings=5", (2, 1), 40, 1_000_000, 0);
        agree("classic,rings=5", (3, 1), 20, 1_000_000, 4);
        agree("globe,rings=5", (2, 1), 40, 1_000_000, 4);
        agree(
            "classic,rings=5,repetition=draw,defender-pass=on",
            (2, 1),
            20,
            300_000,
            20,
        );
    }
}
