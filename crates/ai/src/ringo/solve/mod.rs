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

mod dfpn;

use crate::ringo::tablebase::Tablebases;
pub use dfpn::table_line;
use dfpn::*;
use ringo::{legal_moves, Game, Move, MoveList, Position, Repetition, Rules, Side};

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
