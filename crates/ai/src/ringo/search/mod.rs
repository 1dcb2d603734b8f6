//! The Ringo search: iterative deepening negamax with principal variation
//! search, a transposition table on the position's Zobrist key, move ordering
//! (table move, captures, fortress entries, killers, history), late-move
//! reductions, and a quiescence search over captures and fortress entries.
//!
//! Scores are from the side to move's point of view. A real end of game (two in
//! the fortress, fewer than two attackers, a double pass) scores `±(MATE - ply)`,
//! so a proven result can be reported with its length. A repetition inside the
//! search is scored by the `repetition` option, but outside the proven band: the
//! rule ends the game at a position's third occurrence, while the search ends
//! a line at its first repeat. That keeps the attackers making progress: a
//! search that forgave a game position's second occurrence, as the rule does,
//! let them shuffle until every way forward was a third occurrence. Only when
//! every move then scores as lost by repetition does the search look again,
//! counting the game's occurrences as the rule does (`search_game`).

use crate::ringo::eval::{evaluate, Weights, WEIGHTS};
use ringo::{
    legal_moves, position_winner, Game, Move, MoveList, Position, Repetition, Rules, Side,
};
use std::time::{Duration, Instant};

mod fallible;
mod levels;
mod ordering;
pub mod params;
mod pv;
mod report;
mod time;
mod tt;

pub use fallible::{
    Reading, EVIDENCE, MOVE_EVIDENCE, OUTSIDE_MODEL, OUTSIDE_SEARCH, READ_CACHE, READ_DEPTH,
    READ_TABLE, TEMPERATURE,
};
pub use levels::{level_move, level_play, level_spec, LevelPlay, LevelSpec};
use params::*;
pub use report::{Proven, Report};
pub use time::Limits;
use tt::{EXACT, LOWER, UPPER};

/// Mixed into the key when the last move was a pass: then a second pass ends the
/// game, so the same placement is a different search node.
const PASS_KEY: u64 = 0x9d2c_5680_a7f3_11b5;

/// A searcher: reusable across searches (the table and the history persist, so
/// a game's later searches start warm).
pub struct Searcher {
    rules: Rules,
    weights: Weights,
    tt: tt::Table,
    history: ordering::History,
    /// The keys of the positions from the last irreversible move to the node
    /// searched: the game's part first, up to the root at `root`.
    path: Vec<u64>,
    root: usize,
    /// True while the search counts a game position's occurrences as the rule
    /// does; otherwise any repeat ends a line ([`Searcher::search_game`]).
    faithful: bool,
    /// The game's part of the path in the last search, to know when the
    /// table's path-dependent scores went stale.
    root_keys: Vec<u64>,
    nodes: u64,
    limits: Limits,
    start: Instant,
    aborted: bool,
    /// The endgame tables of these rules, when installed
    /// ([`crate::ringo::tablebase::install`]).
    tablebases: Option<std::sync::Arc<crate::ringo::tablebase::Tablebases>>,
    /// The searcher the reading runs on, with its own table and history,
    /// and what it has read, made on first use (`fallible`): the reading's
    /// short searches must not see the main search's deeper table entries,
    /// nor leave entries searched without the game's history in its table.
    reader: Option<Box<fallible::Reader>>,
    /// The lines the search finds, ply by ply.
    lines: pv::Lines,
}

impl Searcher {
    /// A searcher for these rules with the tuned weights.
    pub fn new(rules: Rules) -> Searcher {
        Searcher::with_weights(rules, WEIGHTS, TT_ENTRIES)
    }

    /// A searcher with given weights and table size (a power of two).
    pub fn with_weights(rules: Rules, weights: Weights, tt_entries: usize) -> Searcher {
        Searcher {
            rules,
            weights,
            tt: tt::Table::new(tt_entries),
            history: ordering::History::new(),
            path: Vec::with_capacity(512),
            root: 0,
            faithful: false,
            root_keys: Vec::new(),
            nodes: 0,
            limits: Limits::default(),
            start: Instant::now(),
            aborted: false,
            tablebases: crate::ringo::tablebase::for_rules(&rules),
            reader: None,
            lines: pv::Lines::new(),
        }
    }

    /// Uses these tables (or none) instead of the installed ones.
    pub fn set_tablebases(
        &mut self,
        tablebases: Option<std::sync::Arc<crate::ringo::tablebase::Tablebases>>,
    ) {
        self.tablebases = tablebases;
        // The reader is made again, with these tables, on its next use.
        self.reader = None;
    }

    /// A position's exact score from the tables, when its class is held: a
    /// forced win in n plies scores like a real end n plies later (so it
    /// is reported as proven); a cycle scores as a repetition does.
    fn table_score(&self, pos: &Position, ply: usize, last_pass: bool) -> Option<i32> {
        let tb = self.tablebases.as_ref()?;
        let v = if last_pass {
            tb.probe_after_pass(pos)?
        } else {
            tb.probe(pos)?
        };
        Some(match v.outcome(&self.rules) {
            (Some(winner), Some(n)) => self.win_for(winner, pos.to_move(), ply + n as usize),
            (_, _) => self.repetition_score(pos.to_move()),
        })
    }

    /// Forgets the table, the history and the opponent readings (for
    /// deterministic, independent searches).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.reader = None;
    }

    fn terminal(&self, pos: &Position, ply: usize) -> Option<i32> {
        position_winner(pos).map(|winner| self.win_for(winner, pos.to_move(), ply))
    }

    fn win_for(&self, winner: Side, to_move: Side, ply: usize) -> i32 {
        let s = MATE - ply as i32;
        if winner == to_move {
            s
        } else {
            -s
        }
    }

    fn repetition_score(&self, to_move: Side) -> i32 {
        match self.rules.repetition {
            Repetition::Draw => 0,
            Repetition::Defenders if to_move == Side::Defenders => REPETITION_WIN,
            Repetition::Defenders => -REPETITION_WIN,
        }
    }

    /// Starts the path at a root: `keys` are the positions a repetition could
    /// match, oldest first, the root last. A new history starts a new
    /// generation of the table.
    fn set_root(&mut self, keys: &[u64]) {
        if self.root_keys != keys {
            self.tt.new_generation();
            self.root_keys.clear();
            self.root_keys.extend_from_slice(keys);
        }
        self.path.clear();
        self.path.extend_from_slice(keys);
        self.root = keys.len().saturating_sub(1);
    }

    /// True when the position at the end of the path ends its line as a
    /// repetition: it repeats one reached after the root, or one from the game
    /// up to the root (when `faithful`: only at that position's third
    /// occurrence). Only every second position can match (the same side to
    /// move).
    fn repeated(&self, key: u64) -> bool {
        let n = self.path.len();
        let mut before_root = 0;
        for i in (0..n.saturating_sub(2)).rev().step_by(2) {
            if self.path[i] == key {
                if i > self.root || !self.faithful {
                    return true;
                }
                before_root += 1;
                if before_root == 2 {
                    return true;
                }
            }
        }
        false
    }

    /// True when the position `key`, reached by a move from the end of the
    /// path, would stand for the third time, counting the game's positions
    /// and the line's as the rule does (the opponent model's view of a
    /// repetition, [`crate::ringo::player::model_replies`]).
    fn third_occurrence(&self, key: u64) -> bool {
        self.occurrences(key, self.path.len()) >= 2
    }

    /// How often `key` stands among the first `end` positions of the path
    /// with the same side to move as a position at index `end` would.
    fn occurrences(&self, key: u64, end: usize) -> usize {
        (0..end.saturating_sub(1))
            .rev()
            .step_by(2)
            .filter(|&i| self.path[i] == key)
            .count()
    }

    /// Counts a node and reads the limits now and then. False once the search
    /// must stop.
    #[inline]
    fn enter_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check_limits();
        }
        !self.aborted
    }

    /// Starts the clock for a new search under these limits.
    fn begin(&mut self, limits: Limits) {
        self.start = Instant::now();
        self.limits = limits;
        self.aborted = false;
    }

    fn check_limits(&mut self) {
        if self.limits.reached(self.nodes, self.start) {
            self.aborted = true;
        }
    }

    fn search(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        last_pass: bool,
    ) -> i32 {
        self.lines.clear(ply);
        if !self.enter_node() {
            return 0;
        }
        if let Some(s) = self.terminal(pos, ply) {
            return s;
        }
        if ply > 0 && self.repeated(pos.key()) {
            return self.repetition_score(pos.to_move());
        }
        if ply > 0 {
            if let Some(s) = self.table_score(pos, ply, last_pass) {
                return s;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply);
        }
        let key = pos.key() ^ if last_pass { PASS_KEY } else { 0 };
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            if ply > 0 && i32::from(e.depth) >= depth {
                let s = tt::score_at(i32::from(e.score), ply);
                if e.bound == EXACT
                    || (e.bound == LOWER && s >= beta)
                    || (e.bound == UPPER && s <= alpha)
                {
                    return s;
                }
            }
        }
        let mut list = MoveList::new();
        legal_moves(pos, &self.rules, &mut list);
        let side = pos.to_move();
        let mut ordered = self.history.order(&list, side, tt_move, ply);
        let moves = ordered.as_mut_slice();
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        for i in 0..moves.len() {
            // Selection sort: the best remaining move first, lazily.
            let j = (i..moves.len()).max_by_key(|&k| moves[k].0).unwrap_or(i);
            moves.swap(i, j);
            let m = moves[i].1;
            let searched = !(m.is_pass() && last_pass);
            let score = if !searched {
                // A second pass in a row: the defenders win at once.
                self.win_for(Side::Defenders, side, ply + 1)
            } else {
                let mut child = *pos;
                child.play_unchecked(m);
                self.path.push(child.key());
                let quiet = !m.is_capture() && !m.to().is_some_and(|c| c.is_fortress());
                let s = if i == 0 {
                    -self.search(&child, depth - 1, -beta, -alpha, ply + 1, m.is_pass())
                } else {
                    let r = i32::from(depth >= LMR_DEPTH && i > LMR_AFTER && quiet);
                    let mut s = -self.search(
                        &child,
                        depth - 1 - r,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        m.is_pass(),
                    );
                    if s > alpha && (r > 0 || s < beta) {
                        s = -self.search(&child, depth - 1, -beta, -alpha, ply + 1, m.is_pass());
                    }
                    s
                };
                self.path.pop();
                s
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.lines.update(ply, m, searched);
                    if alpha >= beta {
                        if !m.is_capture() {
                            self.history.reward(side, m, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best <= original_alpha {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.tt.store(key, depth, best, bound, best_move, ply);
        best
    }

    /// Quiescence: stand pat on the evaluation, or try captures and fortress
    /// entries, so the search never stops in the middle of an exchange or one
    /// step before a win.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.enter_node() {
            return 0;
        }
        if let Some(s) = self.terminal(pos, ply) {
            return s;
        }
        if let Some(s) = self.table_score(pos, ply, false) {
            return s;
        }
        let stand = evaluate(pos, &self.rules, &self.weights);
        if stand >= beta || ply >= MAX_PLY {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut list = MoveList::new();
        legal_moves(pos, &self.rules, &mut list);
        let mut best = stand;
        for &m in list.iter() {
            if !(m.is_capture() || m.to().is_some_and(|c| c.is_fortress())) {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(m);
            let s = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The principal variation: the search's own line (`found`, when it
    /// starts with `first`), then on from the table, checked move by move.
    fn pv(&self, game: &Game, found: &[Move], first: Move, max: usize) -> Vec<Move> {
        let mut pv = vec![first];
        let mut g = game.clone();
        if g.play(first).is_err() {
            return pv;
        }
        if found.first() == Some(&first) {
            for &m in &found[1..] {
                if g.is_over() || g.play(m).is_err() {
                    break;
                }
                pv.push(m);
            }
        }
        while pv.len() < max && !g.is_over() {
            let key = g.position().key() ^ if g.last_was_pass() { PASS_KEY } else { 0 };
            // Quiescence stores nothing: where the table has no move, a move that
            // wins at once still completes a proven line.
            let mover = g.position().to_move();
            let winning = || {
                g.legal_moves().iter().copied().find(|&m| {
                    let mut c = g.clone();
                    c.play_unchecked(m);
                    c.outcome().is_some_and(|o| o.winner == Some(mover))
                })
            };
            let Some(m) = self.tt.probe(key).and_then(|e| e.mv).or_else(winning) else {
                break;
            };
            if g.play(m).is_err() {
                break;
            }
            pv.push(m);
        }
        pv
    }

    /// Searches the game's current position within the limits.
    pub fn search_game(&mut self, game: &Game, limits: Limits) -> Report {
        self.begin(limits);
        self.nodes = 0;
        let legal = game.legal_moves();
        if legal.is_empty() {
            return Report {
                best: None,
                score: 0,
                proven: None,
                pv: vec![],
                depth: 0,
                nodes: 0,
                elapsed: Duration::ZERO,
            };
        }
        self.set_root(&game.repetition_keys());
        let pos = *game.position();
        let max_depth = self
            .limits
            .depth
            .map_or(MAX_PLY as u32 - 1, |d| d.clamp(1, MAX_PLY as u32 - 1));
        let mut best = legal[0];
        let mut score = 0;
        let mut done = 0;
        let mut depth = 0;
        // The line of the last whole iteration (a timed search's last one is
        // cut off).
        let mut line: Vec<Move> = vec![];
        self.faithful = false;
        while depth < max_depth {
            depth += 1;
            let s = self.search(&pos, depth as i32, -INF, INF, 0, game.last_was_pass());
            let key = pos.key() ^ if game.last_was_pass() { PASS_KEY } else { 0 };
            // The table's move for the root is the best so far, even from a
            // partial (aborted) iteration.
            if let Some(m) = self
                .tt
                .probe(key)
                .and_then(|e| e.mv)
                .filter(|m| legal.contains(m))
            {
                best = m;
            }
            if self.aborted {
                break;
            }
            score = s;
            done = depth;
            line = self.pv(game, self.lines.root(), best, depth as usize);
            // Once per iteration, so a subscriber costs nothing in the tree.
            tracing::trace!(depth, score, nodes = self.nodes, best = ?best, "iteration");
            if s.abs() >= MATE_BAND {
                break; // proven: deeper search cannot change it
            }
            if s == -REPETITION_WIN && !self.faithful {
                // Every move ends in a repeat: look again, letting the game's
                // positions occur a second time as the rule does (game 20 of
                // seed 2341 was a forced win there). The table's repetition
                // scores were found under the other count.
                self.faithful = true;
                self.tt.new_generation();
                depth = 0;
                continue;
            }
            // Under a time limit, an iteration that starts after half the time
            // has gone would almost surely be cut off (each takes a few times
            // the last), so its time is better saved; and a forced move needs
            // no thought beyond the first iteration's score.
            if let Some(t) = self.limits.movetime {
                if legal.len() == 1 || self.start.elapsed() * 2 > t {
                    break;
                }
            }
        }
        if self.faithful {
            // Its repetition scores hold only under the rule's count.
            self.tt.new_generation();
            self.faithful = false;
        }
        let proven = (score.abs() >= MATE_BAND).then(|| Proven {
            winner: if score > 0 {
                game.position().to_move()
            } else {
                game.position().to_move().other()
            },
            plies: (MATE - score.abs()) as u32,
        });
        // A proof may come from quiescence, deeper than the iteration: follow it.
        let pv_len = proven.map_or(done, |p| p.plies.max(done)).max(1) as usize;
        // The last whole iteration's line, when the root's move is still its
        // first (a cut-off iteration may have found a better one).
        let start = if line.first() == Some(&best) {
            &line[..]
        } else {
            &[][..]
        };
        let pv = self.pv(game, start, best, pv_len);
        Report {
            best: Some(best),
            score,
            proven,
            pv,
            depth: done,
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
        }
    }

    /// Scores every root move by a full-window search to `depth` (for the noisy
    /// low levels, which pick among near-best moves).
    pub fn score_root_moves(&mut self, game: &Game, depth: u32) -> Vec<(Move, i32)> {
        self.begin(Limits::default());
        self.set_root(&game.repetition_keys());
        self.score_moves(game.position(), game.last_was_pass(), depth)
    }

    /// Scores every move of `pos` by a full-window search to `depth`, with the
    /// path and limits as the caller set them.
    fn score_moves(&mut self, pos: &Position, last_pass: bool, depth: u32) -> Vec<(Move, i32)> {
        let mut legal = MoveList::new();
        legal_moves(pos, &self.rules, &mut legal);
        legal
            .iter()
            .map(|&m| {
                let s = if m.is_pass() && last_pass {
                    self.win_for(Side::Defenders, pos.to_move(), 1)
                } else {
                    let mut child = *pos;
                    child.play_unchecked(m);
                    self.path.push(child.key());
                    let s = -self.search(&child, depth as i32 - 1, -INF, INF, 1, m.is_pass());
                    self.path.pop();
                    s
                };
                (m, s)
            })
            .collect()
    }

    /// Nodes searched by the last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;

    fn game(rules: &str, pos: &str) -> Game {
        let rules: Rules = rules.parse().unwrap();
        Game::from_position(rules, Position::parse(pos, &rules).unwrap())
    }

    fn search(g: &Game, depth: u32) -> Report {
        Searcher::with_weights(*g.rules(), WEIGHTS, 1 << 16).search_game(
            g,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
        )
    }

    #[test]
    fn the_line_is_as_deep_as_the_search_even_when_the_table_forgot_it() {
        // A table of 256 entries keeps almost nothing of a depth-10 search:
        // read back from it alone, the line broke off after a move or two.
        for rules in ["classic", "globe"] {
            let g = Game::new(rules.parse().unwrap());
            let r = Searcher::with_weights(*g.rules(), WEIGHTS, 1 << 8).search_game(
                &g,
                Limits {
                    depth: Some(10),
                    ..Limits::default()
                },
            );
            assert_eq!(r.depth, 10);
            assert_eq!(r.pv.len(), 10, "{rules}: {:?}", r.pv);
            assert_eq!(r.pv[0], r.best.unwrap());
            // Every move of it is legal in turn.
            let mut line = g.clone();
            for m in &r.pv {
                line.play(*m).unwrap();
            }
        }
    }

    #[test]
    fn finds_a_win_in_one() {
        let g = game(
            "classic",
            "......../......../......../......../......../..A..D.. 1 a",
        );
        let r = search(&g, 3);
        assert_eq!(r.best.unwrap().to_string(), "c1-F");
        assert_eq!(
            r.proven,
            Some(Proven {
                winner: Side::Attackers,
                plies: 1
            })
        );
    }

    #[test]
    fn defenders_capture_the_last_but_one_attacker() {
        let g = game(
            "classic",
            "......../......../......../..DA..../......../........ 1 d",
        );
        let r = search(&g, 2);
        assert!(r.best.unwrap().is_capture());
        assert_eq!(r.proven.map(|p| p.winner), Some(Side::Defenders));
    }

    #[test]
    fn proves_a_win_in_three() {
        // Attackers on c1 and g1, a lone defender far away on a6: c1-F, any
        // defender move, g1-F.
        let g = game(
            "classic",
            "D......./......../......../......../......../..A...A. 0 a",
        );
        let r = search(&g, 6);
        assert_eq!(
            r.proven,
            Some(Proven {
                winner: Side::Attackers,
                plies: 3
            }),
            "{r:?}"
        );
        assert_eq!(r.pv.len(), 3);
        // From c2 and g2 it takes four attacker moves: seven plies.
        let g = game(
            "classic",
            "D......./......../......../......../..A...A./........ 0 a",
        );
        assert_eq!(
            search(&g, 8).proven,
            Some(Proven {
                winner: Side::Attackers,
                plies: 7
            })
        );
    }

    #[test]
    fn deterministic_for_a_depth() {
        let g = Game::new(Rules::default());
        let a = search(&g, 5);
        let b = search(&g, 5);
        assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
    }

    #[test]
    fn stops_on_request_with_a_move() {
        let g = Game::new(Rules::default());
        let stop = Arc::new(AtomicBool::new(true));
        let r = Searcher::new(Rules::default()).search_game(
            &g,
            Limits {
                stop: Some(stop),
                ..Limits::default()
            },
        );
        assert!(g.legal_moves().contains(&r.best.unwrap()));
        let r = Searcher::new(Rules::default()).search_game(
            &g,
            Limits {
                nodes: Some(5000),
                ..Limits::default()
            },
        );
        assert!(r.nodes < 10_000 && r.best.is_some());
    }

    #[test]
    fn each_level_searches_deeper_or_with_less_noise() {
        // Levels 1–9 are fixed depths (reproducible matches); only 10 is timed.
        for level in 1..=9 {
            let spec = level_spec(crate::Level::new(level));
            assert!(spec.depth.is_some() && spec.movetime.is_none(), "{level}");
        }
        assert!(
            level_spec(crate::Level::MAX).movetime.is_some()
                && level_spec(crate::Level::MAX).noise == 0
        );
        for level in 2..=9 {
            let (lower, upper) = (
                level_spec(crate::Level::new(level - 1)),
                level_spec(crate::Level::new(level)),
            );
            let stronger = upper.depth > lower.depth
                || (upper.depth == lower.depth && upper.noise < lower.noise);
            assert!(stronger && upper.noise <= lower.noise, "level {level}");
        }
    }

    #[test]
    fn every_level_plays_legal_moves_in_every_preset() {
        for preset in ["classic", "encyclopedia", "globe"] {
            let mut g = Game::new(preset.parse().unwrap());
            let mut s = Searcher::with_weights(*g.rules(), WEIGHTS, 1 << 16);
            for level in [1, 3, 5, 7] {
                let m = level_move(&mut s, &g, crate::Level::new(level), 9, None).unwrap();
                g.play(m).unwrap();
            }
        }
    }

    #[test]
    fn a_position_from_before_the_root_ends_a_line_only_at_its_third_occurrence() {
        // Rules §6: "a position (placement plus side to move) that occurs for
        // the third time ends the game". Keys stand for positions; the path
        // is the game's part up to the root (index 4), then the search line.
        let mut s = Searcher::new("classic".parse().unwrap());
        s.set_root(&[1, 2, 3, 4, 5, 6, 3]);
        assert!(s.repeated(3), "by default any repeat ends a line");
        s.faithful = true;
        s.set_root(&[1, 2, 3, 4, 5]);
        // Position 3 met once in the game: meeting it again is its second
        // occurrence, which the rule lets the game go on from.
        s.path.extend([6, 3]);
        assert!(!s.repeated(3));
        // Met twice in the game (path index 0 and 2): the third ends it.
        s.set_root(&[3, 2, 3, 4, 5]);
        s.path.extend([6, 3]);
        assert!(s.repeated(3));
        // A position first reached after the root ends the line at its
        // first repeat: a side that could return to it once can again.
        s.set_root(&[1, 2, 3, 4, 5]);
        s.path.extend([6, 7, 8, 6]);
        assert!(!s.repeated(6), "only the same side to move can match");
        s.path.extend([9, 7]);
        assert!(s.repeated(7));
    }

    #[test]
    fn a_second_occurrence_does_not_give_away_a_won_game() {
        // Game 20 of seed 2341 (level 10 against 1-second search on
        // `classic,attackers=5`): after b2-a2 e1-f1 the position stood for the
        // second time, the attackers could still force the fortress, but the
        // search scored every move a repetition loss (it ends lines at the
        // first repeat of a game position too) and lost by the third
        // occurrence at ply 76.
        let game = Game::parse_record(
            "classic,attackers=5 h6-h5 h1-a1 h5-h4 a1-a2 c6-c5 a2-a3 h4-a4 a3-a2 \
             g6-g5 a2-a1 e6-e5 a1-h1 a4-a3 b1-a1 a3-a2 d1-c1 e5-e4 c1-d1 c5-c4 h1-g1 \
             b6-b5 f1-e1 b5-b4 d1-d2 g5-g4 e1-d1 c4-c3 d1-c1 e4-d4 d2-e2 b4-b3 e2-e3 \
             c3-d3 e3-e2 b3-b2 g1-g2 d3-d2 e2-e3 b2-c2 c1xc3 d4-d3 e3-e2 d2xf2 c3xe3 \
             f2xh2 e3-f3 g4-h4 f3-f2 h2-g2 f2-f1 h4-h3 a1-a3 h3-h2 a3-a1 a2-b2 f1-e1 \
             b2-a2 e1-f1",
        )
        .unwrap();
        assert_eq!(game.ply(), 58);
        assert_eq!(game.occurrences(), 2);
        // By depth 23 every move ends in a repeat under the search's own
        // count; counting as the rule does, the win is proven (a2-b2).
        let r = search(&game, 24);
        assert_eq!(
            r.proven.map(|p| p.winner),
            Some(Side::Attackers),
            "scored {}",
            r.score
        );
        let mut after = game.clone();
        after.play(r.best.unwrap()).unwrap();
        assert!(after.outcome().is_none());
    }
}
