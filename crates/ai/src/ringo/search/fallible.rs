//! Playing a fallible opponent. Minimax assumes the best reply; against a
//! player who looks only a move ahead, that makes the engine choose "the
//! cheapest loss" where a bolder line would very likely win (as the `globe`
//! attackers, a position that is lost against best play is usually won against
//! defenders who only take what is in reach). So the engine first *reads* its
//! opponent: it weighs how much likelier the opponent's moves this game are from
//! such a player than from a strong one ([`Reading`]), and only when the
//! evidence is strong does it change how it plays. Against an opponent read as
//! strong nothing changes. (The reading is not perfect: read over the whole
//! game, 9 of the 14,402 readings in 200 recorded games of level 10 against
//! plain 1-second search crossed the threshold, in 2 of the games; before a
//! move as good as the best stopped counting ([`NEAR_BEST`]) it was 190
//! readings in 42 games; docs/engine-results/README.md.)
//!
//! Against a fallible opponent the engine scores each of its moves by the
//! expected chance of winning when the opponent's next [`MODEL_PLIES`] replies
//! are the model's ([`crate::ringo::player::model_replies`]: a win, else a
//! capture, else a move that leaves nothing to capture, else progress, each of
//! the equally good ones as likely), the engine plays its best move between
//! them, and both sides play best after the last, searched ever deeper while
//! the time lasts. Chances, not scores, are averaged, so a reply that
//! loses at once weighs as one reply among the model's, not as minus infinity.
//! A line that best play wins for the opponent after the last modelled reply
//! is not lost against the model: it keeps a share of the evaluation's
//! chance ([`HOPE`]); only an end of the game itself is worth 0.
//!
//! The reading can be wrong, so the model's move is not played blindly: what
//! it gains against the model is weighed against what it gives up against
//! best play ([`MODEL_TRUST`]), and when the loss outweighs the gain the
//! normal search's move is played.

use super::{Limits, Searcher, INF, MATE_BAND, REPETITION_WIN};
use crate::ringo::eval::evaluate;
use crate::ringo::player::model_replies;
use ringo::{legal_moves, position_winner, Game, Move, MoveList, Position, Side};
use std::collections::HashMap;

/// How many of the opponent's replies the expected-chance search takes from
/// the model before it assumes best play by both (the `globe` attackers lose
/// pieces in positions where every move leaves one to capture; seeing such a
/// position coming takes our move, a reply, our next move and a reply).
pub const MODEL_PLIES: u32 = 2;
/// How many moves' evidence a searcher remembers before it forgets them all
/// (each is a few dozen bytes; a game has a few hundred moves).
pub const READ_CACHE: usize = 1 << 16;
/// The entries of the reading's own transposition table (a depth-3 search
/// of one position's moves needs few).
pub const READ_TABLE: usize = 1 << 16;
/// The depth at which the opponent's moves are scored.
pub const READ_DEPTH: u32 = 3;
/// How sharply a strong player prefers better moves: the strong hypothesis
/// gives a move whose chance of winning is `d` below the best move's the
/// weight `exp(-d / TEMPERATURE)`. Chances, not scores: where the game is
/// decided every move is about as good (a won game is won by the longer line
/// too). 0.006 is about 10 evaluation units in an even position.
pub const TEMPERATURE: f64 = 0.006;
/// The most one move can weigh either way (a single odd move, such as a
/// match's random opening move, does not decide the reading).
pub const MOVE_EVIDENCE: f64 = 3.0;
/// The share of a shallow player's moves outside the model's choice.
pub const OUTSIDE_MODEL: f64 = 0.1;
/// The share of a strong player's moves the short search cannot explain (it
/// sees [`READ_DEPTH`] plies; the player may see much further), as if random.
pub const OUTSIDE_SEARCH: f64 = 0.2;
/// A move whose weight under the strong hypothesis is at least this (its
/// chance within `TEMPERATURE · ln 2` of the best move's) is what a strong
/// player plays too, so it never counts for the shallow hypothesis. Where the
/// short search finds several moves equally good (the quiet opening most of
/// all) the strong hypothesis spreads over all of them while the model picks
/// the few that make progress; a strong player making progress then read as
/// a little shallow each move, and the whole-game sum crossed
/// [`EVIDENCE`] in 42 of 200 recorded games of level 10 against plain
/// 1-second search, the same search without the reading (2 with this).
pub const NEAR_BEST: f64 = 0.5;
/// The evidence (natural log of the likelihood ratio, shallow over strong)
/// at which the opponent is played as fallible: at least five moves that fit
/// the model much better than a strong player's, about one unit a move read.
pub const EVIDENCE: f64 = 8.0;
/// How far the engine trusts its model of the opponent once it has read
/// them as fallible: the move with the best expected chance against the
/// model is played only when this share of what it gains there is at least
/// the other share of what it gives up against best play. At 1 (until
/// 2026-11-24) the model alone chose, and a false alarm against 1-second
/// search cost a won game (game 58 of seed 2328: a move 0.05 better against
/// the model and 0.15 worse against best play). At 0.5 a move must gain
/// against the model at least what it gives up against best play.
/// docs/engine-results/README.md, *Trusting the model halfway*.
pub const MODEL_TRUST: f64 = 0.5;
/// The share of the evaluation's chance that a line lost against best play
/// keeps against the model. Such a line is not lost against a player who
/// only takes what is in reach: as the `globe` attackers, where best play
/// wins every game for the defenders, the search proves more and more lines
/// lost as pieces fall, and every one of them used to score a chance of 0,
/// so the engine chose among them by the length of the loss, the "cheapest
/// loss" this module exists to avoid. Scaled by the evaluation's chance they
/// are chosen by the position, and below most lines best play has not
/// refuted. At 200 ms a move the `globe` attackers won 92 and 92 games of
/// 100 against `greedy` with it, 89 and 90 without it on the same openings
/// (docs/engine-results/README.md, *Lines lost against best play keep hope*).
pub const HOPE: f64 = 0.5;

/// What the engine read of its opponent's moves this game: how much likelier they
/// are from a shallow player ([`model_replies`]) than from a strong one (who
/// plays the short search's better moves more often, by [`TEMPERATURE`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reading {
    /// Moves read.
    pub moves: usize,
    /// The log-likelihood ratio of the moves read, shallow over strong.
    pub evidence: f64,
}

impl Reading {
    /// True when the evidence says the opponent plays like the model.
    pub fn fallible(&self) -> bool {
        self.evidence >= EVIDENCE
    }
}

/// The searcher the reading runs on, with its own table and history (see
/// [`Searcher::read_opponent`]), and what it has read.
pub(super) struct Reader {
    searcher: Searcher,
    /// Each opponent move's evidence once read, by (position key, whether
    /// the move before was a pass, the move).
    readings: HashMap<(u64, bool, Move), f64>,
}

impl Reader {
    /// Reads the opponent's moves of this game on the reader's own table,
    /// scoring only the moves not read before.
    fn read(&mut self, game: &Game) -> Reading {
        let s = &mut self.searcher;
        s.begin(Limits::default());
        let me = game.position().to_move();
        let moves = game.moves();
        let mut reading = Reading::default();
        if self.readings.len() > READ_CACHE {
            self.readings.clear();
        }
        for ply in 0..moves.len() {
            let Some(pos) = game.position_at(ply) else {
                continue;
            };
            if pos.to_move() == me {
                continue;
            }
            let last_pass = ply > 0 && moves[ply - 1].is_pass();
            let key = (pos.key(), last_pass, moves[ply]);
            let e = match self.readings.get(&key) {
                Some(&e) => e,
                None => {
                    // Every reading searches without the game's history,
                    // so the table's scores carry from one to the next: no
                    // new generation.
                    s.path.clear();
                    s.path.push(pos.key());
                    s.root = 0;
                    let scores = s.score_moves(pos, last_pass, READ_DEPTH);
                    // Judged fresh, like the short search: no repetitions.
                    let model = model_replies(pos, &s.rules, last_pass, |_| false);
                    let e = evidence(&scores, &model, moves[ply]);
                    self.readings.insert(key, e);
                    e
                }
            };
            reading.moves += 1;
            reading.evidence += e;
        }
        reading
    }
}

/// The side to move's chance of winning for a search score (proven results
/// saturate at 0 and 1).
fn chance(score: i32) -> f64 {
    f64::from(crate::ringo::eval::sigmoid(
        score as f32 / crate::ringo::eval::SCALE,
    ))
}

/// What a line is worth when chances are averaged: the chance, and a trace of
/// the score below any real difference of chances, so that among won lines
/// (all at chance 1) the shorter win is preferred, and among lost ones the
/// longer resistance.
fn worth(score: i32) -> f64 {
    chance(score) + f64::from(score) * 1e-9
}

/// The least chance against best play a move the model prefers may keep,
/// when the normal search's best move scores `normal_score` and the model's
/// move is `gain` likelier to win against the model: `trust · gain` must be
/// at least `(1 − trust) ·` what it gives up (`trust` of 1 or more: any).
fn chance_floor(normal_score: i32, gain: f64, trust: f64) -> f64 {
    if trust >= 1.0 {
        return 0.0;
    }
    chance(normal_score) - gain * trust / (1.0 - trust)
}

/// The first of the moves with the highest value (the move order breaks ties).
fn first_best(values: &[(Move, f64)]) -> Option<(Move, f64)> {
    values
        .iter()
        .copied()
        .fold(None, |best, (m, p)| match best {
            Some((_, b)) if p <= b => best,
            _ => Some((m, p)),
        })
}

/// The score whose chance is `p` (0 < p < 1; the inverse of [`chance`]),
/// rounded up.
fn score_for_chance(p: f64) -> i32 {
    (f64::from(crate::ringo::eval::SCALE) * (p / (1.0 - p)).ln()).ceil() as i32
}

impl Searcher {
    /// Reads every move the opponent has made this game: each move's
    /// likelihood under the model and under a strong player, from a search of
    /// every move of its position to [`READ_DEPTH`]. The moves are
    /// independent evidence, so it adds up over the whole game: a window of
    /// the last moves (16 until 2026-11-24) let the reading of the `globe`
    /// defenders swing about the threshold from move to move, and drop below
    /// it just as they began to capture, since a capture, or a position the
    /// short search finds decided, is what a strong player would play too and
    /// so says little. Each move's evidence is remembered, so a reading
    /// scores only the moves it has not seen. Each position is judged fresh
    /// (the short search ignores repetitions).
    ///
    /// The reading runs on a searcher of its own (its own table and
    /// history), so it reads the same whatever this searcher has searched.
    /// On the shared table (until 2026-11-24) the short searches found the
    /// main search's deeper entries: in live play against 1-second search on
    /// `classic,attackers=5` the reading crossed the threshold at 66 of 368
    /// turns in 10 games, where a fresh searcher replaying the same kind of
    /// games crossed it in 2 of 200, and level 10 lost 16 of 100 games as
    /// the attackers there (9 by repetition).
    pub fn read_opponent(&mut self, game: &Game) -> Reading {
        let (rules, weights) = (self.rules, self.weights);
        let tablebases = self.tablebases.clone();
        self.reader
            .get_or_insert_with(|| {
                let mut searcher = Searcher::with_weights(rules, weights, READ_TABLE);
                searcher.set_tablebases(tablebases);
                Box::new(Reader {
                    searcher,
                    readings: HashMap::new(),
                })
            })
            .read(game)
    }

    /// The move against a fallible opponent: a forced win found by the normal
    /// search (a third of the time) is played; otherwise the move with the
    /// best expected chance against the model's replies (half the time),
    /// unless what it gains against the model is worth less than what it
    /// gives up against best play (`MODEL_TRUST`, checked in the last
    /// sixth by a null-window search), when the normal search's move is.
    pub fn play_fallible(&mut self, game: &Game, limits: Limits) -> Option<Move> {
        let part = |n: u32| Limits {
            movetime: limits.movetime.map(|t| t / n),
            ..limits.clone()
        };
        let report = self.search_game(game, part(3));
        if report.score >= MATE_BAND {
            return report.best;
        }
        let normal = report.best?;
        let Some((best, gain)) = self.expected_choice(game, part(2), normal) else {
            return Some(normal);
        };
        if best == normal {
            return Some(best);
        }
        let floor = chance_floor(report.score, gain, MODEL_TRUST);
        let keeps = self.keeps_chance(game, best, floor, report.depth, part(6));
        tracing::debug!(%best, %normal, gain, floor, keeps, "model's move checked");
        Some(if keeps { best } else { normal })
    }

    /// True when `m`'s chance against best play, by a search one ply short of
    /// `depth` after it, is at least `floor` (a null-window test; a test cut
    /// off by the limits says no).
    fn keeps_chance(
        &mut self,
        game: &Game,
        m: Move,
        floor: f64,
        depth: u32,
        limits: Limits,
    ) -> bool {
        if floor <= 0.0 {
            return true;
        }
        if floor >= 1.0 {
            return false;
        }
        let pos = game.position();
        if m.is_pass() && game.last_was_pass() {
            // The second pass in a row: the defenders win at once.
            return pos.to_move() == Side::Defenders;
        }
        let mut child = *pos;
        child.play_unchecked(m);
        if let Some(winner) = position_winner(&child) {
            return winner == pos.to_move();
        }
        let t = score_for_chance(floor);
        self.begin(limits);
        self.set_root(&game.repetition_keys());
        self.path.push(child.key());
        let d = depth.max(2) as i32 - 1;
        let s = -self.search(&child, d, -t, -t + 1, 1, m.is_pass());
        self.path.pop();
        !self.aborted && s >= t
    }

    /// The move with the highest expected chance against the model's replies
    /// and how much more that is than `normal`'s, from the deepest iteration
    /// completed within the limits (see [`Searcher::expected_best`]).
    fn expected_choice(
        &mut self,
        game: &Game,
        limits: Limits,
        normal: Move,
    ) -> Option<(Move, f64)> {
        let values = self.expected_values(game, limits)?;
        let (best, p) = first_best(&values)?;
        let normal_p = values
            .iter()
            .find(|&&(m, _)| m == normal)
            .map_or(p, |&(_, q)| q);
        Some((best, p - normal_p))
    }

    /// The move with the highest expected chance against the model's replies,
    /// from the deepest iteration completed within the limits (`None` when the
    /// game is over or not even the first iteration completed). The first
    /// iteration models one reply and looks no further, so there is a move
    /// at once; then `MODEL_PLIES` replies, with the search after the last
    /// one ever deeper (a depth limit counts those plies).
    pub fn expected_best(&mut self, game: &Game, limits: Limits) -> Option<Move> {
        let values = self.expected_values(game, limits)?;
        first_best(&values).map(|(m, _)| m)
    }

    /// Every legal move's expected chance against the model's replies, from
    /// the deepest iteration completed within the limits.
    fn expected_values(&mut self, game: &Game, limits: Limits) -> Option<Vec<(Move, f64)>> {
        self.begin(limits);
        self.nodes = 0;
        self.set_root(&game.repetition_keys());
        let pos = *game.position();
        let legal = game.legal_moves();
        let max_depth = self.limits.depth.unwrap_or(super::MAX_PLY as u32 / 2);
        let schedule =
            std::iter::once((1, 0)).chain((0..=max_depth).map(|d| (MODEL_PLIES, d as i32)));
        let mut done = None;
        'iterations: for (replies, depth) in schedule {
            let mut values = Vec::with_capacity(legal.len());
            for &m in legal.iter() {
                let p = self.expected(&pos, m, game.last_was_pass(), replies, depth, 0);
                if self.aborted {
                    break 'iterations;
                }
                values.push((m, p));
            }
            tracing::trace!(replies, depth, "expected iteration");
            done = Some(values);
            if let Some(t) = self.limits.movetime {
                if legal.len() == 1 || self.start.elapsed() * 2 > t {
                    break;
                }
            }
        }
        done.filter(|v| !v.is_empty())
    }

    /// The move of `moves` (the mover's legal moves in `pos`, reached at
    /// `ply`) with the best expected chance and that chance, modelling
    /// `replies` replies and searching `depth` plies after the last.
    fn best_expected(
        &mut self,
        pos: &Position,
        moves: &[Move],
        last_pass: bool,
        replies: u32,
        depth: i32,
        ply: usize,
    ) -> Option<(Move, f64)> {
        let mut best: Option<(Move, f64)> = None;
        for &m in moves {
            let p = self.expected(pos, m, last_pass, replies, depth, ply);
            if self.aborted {
                return None;
            }
            if best.is_none_or(|(_, b)| p > b) {
                best = Some((m, p));
            }
        }
        best
    }

    /// The mover's expected chance after `m` in `pos`: the mean over the
    /// model's replies of the chance after each, from the mover's best move
    /// there while `replies` remain to model, else a search `depth` plies on.
    fn expected(
        &mut self,
        pos: &Position,
        m: Move,
        last_pass: bool,
        replies: u32,
        depth: i32,
        ply: usize,
    ) -> f64 {
        let side = pos.to_move();
        if m.is_pass() && last_pass {
            return worth(self.win_for(Side::Defenders, side, ply + 1));
        }
        let mut child = *pos;
        child.play_unchecked(m);
        if let Some(s) = self.terminal(&child, ply + 1) {
            return worth(-s);
        }
        self.path.push(child.key());
        let model = model_replies(&child, &self.rules, m.is_pass(), |after| {
            self.third_occurrence(after.key())
        });
        let p = if self.repeated(child.key()) {
            self.repeat_worth(&child, side, -self.repetition_score(child.to_move()))
        } else if model.is_empty() {
            let s = -self.search(&child, depth + 1, -INF, INF, ply + 1, m.is_pass());
            self.tail_worth(&child, side, s)
        } else {
            let mut total = 0.0;
            for &r in &model {
                total += if r.is_pass() && m.is_pass() {
                    worth(self.win_for(Side::Defenders, side, ply + 2))
                } else {
                    let mut after = child;
                    after.play_unchecked(r);
                    self.path.push(after.key());
                    let w = if replies > 1 {
                        self.our_turn(&after, r.is_pass(), replies - 1, depth, ply + 2)
                    } else {
                        let s = self.search(&after, depth, -INF, INF, ply + 2, r.is_pass());
                        self.tail_worth(&after, side, s)
                    };
                    self.path.pop();
                    w
                };
            }
            total / model.len() as f64
        };
        self.path.pop();
        p
    }

    /// The mover's expected chance in `pos` (on the path, reached after a
    /// modelled reply) when it plays its best move and `replies` more replies
    /// are modelled.
    fn our_turn(
        &mut self,
        pos: &Position,
        last_pass: bool,
        replies: u32,
        depth: i32,
        ply: usize,
    ) -> f64 {
        if let Some(s) = self.terminal(pos, ply) {
            return worth(s);
        }
        if self.repeated(pos.key()) {
            return self.repeat_worth(pos, pos.to_move(), self.repetition_score(pos.to_move()));
        }
        let mut list = MoveList::new();
        legal_moves(pos, &self.rules, &mut list);
        self.best_expected(pos, &list, last_pass, replies, depth, ply)
            .map_or(0.0, |(_, p)| p)
    }

    /// What a line that the search scores `s` for `me` after `pos` is worth
    /// against the model. A loss against best play (proven, or a repetition
    /// inside the search) is not a loss against the model unless `pos` ends
    /// the game: it keeps the evaluation's chance scaled by [`HOPE`].
    fn tail_worth(&self, pos: &Position, me: Side, s: i32) -> f64 {
        if s > -REPETITION_WIN || position_winner(pos).is_some() {
            return worth(s);
        }
        self.hope_worth(pos, me, s)
    }

    /// `pos`'s chance for `me` by the evaluation, scaled by [`HOPE`], with
    /// the trace of the search's score `s` (so the longer of two equally
    /// hopeful losses is still preferred).
    fn hope_worth(&self, pos: &Position, me: Side, s: i32) -> f64 {
        let e = evaluate(pos, &self.rules, &self.weights);
        let e = if pos.to_move() == me { e } else { -e };
        HOPE * chance(e) + f64::from(s) * 1e-9
    }

    /// What the position at the end of the path is worth for `me` when it
    /// repeats one before it (`s`: the search's repetition score for `me`):
    /// its third occurrence ends the game; a second does not, against the
    /// model.
    fn repeat_worth(&self, pos: &Position, me: Side, s: i32) -> f64 {
        if s > -REPETITION_WIN || self.stands_third() {
            return worth(s);
        }
        self.hope_worth(pos, me, s)
    }

    /// True when the position at the end of the path stands for the third
    /// time (the game's positions and the line's, as the rule counts).
    fn stands_third(&self) -> bool {
        let n = self.path.len();
        self.path
            .last()
            .is_some_and(|&key| self.occurrences(key, n - 1) >= 2)
    }
}

/// The log-likelihood ratio of `played` (shallow over strong), given every
/// move's score for the mover and the model's choice of replies; never above
/// 0 for a move about as good as the best ([`NEAR_BEST`]).
fn evidence(scores: &[(Move, i32)], model: &[Move], played: Move) -> f64 {
    let n = scores.len();
    if n == 0 {
        return 0.0;
    }
    let shallow = if model.len() >= n {
        1.0 / n as f64
    } else if model.contains(&played) {
        (1.0 - OUTSIDE_MODEL) / model.len() as f64
    } else {
        OUTSIDE_MODEL / (n - model.len()) as f64
    };
    let best = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
    if best.abs() >= MATE_BAND {
        // The game is decided: how the mover plays it out says little.
        return 0.0;
    }
    let weight = |s: i32| (-(chance(best) - chance(s)) / TEMPERATURE).exp();
    let total: f64 = scores.iter().map(|&(_, s)| weight(s)).sum();
    let played_weight = scores
        .iter()
        .find(|&&(m, _)| m == played)
        .map_or(0.0, |&(_, s)| weight(s));
    let strong = (1.0 - OUTSIDE_SEARCH) * played_weight / total + OUTSIDE_SEARCH / n as f64;
    let e = (shallow / strong).ln().clamp(-MOVE_EVIDENCE, MOVE_EVIDENCE);
    if played_weight >= NEAR_BEST {
        e.min(0.0)
    } else {
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ringo::eval::WEIGHTS;
    use crate::ringo::player::{cautious_move, greedy_move};
    use crate::Rng;
    use ringo::Rules;

    fn searcher(rules: Rules) -> Searcher {
        Searcher::with_weights(rules, WEIGHTS, 1 << 16)
    }

    fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Plays from the start: the engine searches to depth 3 for `engine_side`,
    /// `opponent` chooses the other side's moves. Returns the game at the
    /// engine's turn after `plies`, or its last turn before the game ended (so
    /// the engine reads the opponent's moves).
    fn play(
        rules: Rules,
        engine_side: Side,
        mut opponent: impl FnMut(&Game) -> Option<Move>,
        plies: usize,
    ) -> Game {
        let mut engine = searcher(rules);
        let mut game = Game::new(rules);
        let mut engine_turn = game.clone();
        while !game.is_over() {
            let m = if game.position().to_move() == engine_side {
                engine_turn = game.clone();
                if game.ply() >= plies {
                    break;
                }
                engine.search_game(&game, depth(3)).best
            } else {
                opponent(&game)
            };
            game.play(m.unwrap()).unwrap();
        }
        engine_turn
    }

    #[test]
    fn reads_a_shallow_player_as_fallible_and_a_searching_one_as_not() {
        type Player = fn(&Game, &mut Rng) -> Option<Move>;
        // The opponents the weaker seats lose to (issue #21): `cautious`
        // attacking, and the `globe` defenders (under `globe` the attackers
        // cannot capture, so `greedy` and `cautious` defend alike).
        let shallow: [(&str, Side, &str, Player); 5] = [
            ("classic", Side::Defenders, "cautious", cautious_move),
            ("encyclopedia", Side::Defenders, "cautious", cautious_move),
            (
                "classic,attackers=5",
                Side::Defenders,
                "cautious",
                cautious_move,
            ),
            ("globe", Side::Defenders, "cautious", cautious_move),
            ("globe", Side::Attackers, "greedy", greedy_move),
        ];
        for (rules, engine_side, name, player) in shallow {
            let rules: Rules = rules.parse().unwrap();
            let mut rng = Rng::new(7);
            let game = play(rules, engine_side, |g| player(g, &mut rng), 40);
            let reading = searcher(rules).read_opponent(&game);
            assert!(reading.fallible(), "{rules}, {name}: {reading:?}");
        }
        // A searching opponent is never read as fallible, in either seat.
        for rules in ["classic", "encyclopedia", "globe", "classic,attackers=5"] {
            let rules: Rules = rules.parse().unwrap();
            for engine_side in [Side::Attackers, Side::Defenders] {
                let mut strong = searcher(rules);
                let game = play(
                    rules,
                    engine_side,
                    |g| strong.search_game(g, depth(5)).best,
                    40,
                );
                let reading = searcher(rules).read_opponent(&game);
                assert!(
                    reading.moves >= 12 && !reading.fallible(),
                    "{rules}, depth 5 against {engine_side:?}: {reading:?}"
                );
            }
        }
    }

    #[test]
    fn reads_every_move_of_the_game_and_remembers_each() {
        // The evidence adds up over the whole game, not a window of the last
        // moves: after 60 plies the engine, attacking, has read all 30 of
        // the defenders' moves. A reading from what is remembered equals a
        // fresh one, so remembering changes nothing but the time.
        let rules: Rules = "globe".parse().unwrap();
        let mut rng = Rng::new(11);
        let game = play(rules, Side::Attackers, |g| greedy_move(g, &mut rng), 60);
        assert_eq!(game.ply(), 60, "the game went on past ply 60");
        let mut s = searcher(rules);
        let first = s.read_opponent(&game);
        assert_eq!(first.moves, 30);
        assert_eq!(s.read_opponent(&game), first);
        s.clear();
        assert_eq!(s.read_opponent(&game), first);
        assert_eq!(searcher(rules).read_opponent(&game), first);
    }

    #[test]
    fn the_reading_does_not_depend_on_what_the_searcher_searched() {
        // The reading runs on its own table: after a deep search of the
        // position it reads as a fresh searcher does. On the shared table the
        // short searches found the deep search's entries and read otherwise.
        let rules: Rules = "classic,attackers=5".parse().unwrap();
        let mut strong = searcher(rules);
        let game = play(
            rules,
            Side::Attackers,
            |g| strong.search_game(g, depth(4)).best,
            30,
        );
        let fresh = searcher(rules).read_opponent(&game);
        let mut warm = searcher(rules);
        warm.search_game(&game, depth(7));
        assert_eq!(warm.read_opponent(&game), fresh);
    }

    #[test]
    fn a_move_as_good_as_the_best_is_no_evidence_of_weakness() {
        // Five moves the short search finds equally good; the model makes
        // progress with two of them. Playing one of those is what a strong
        // player does too, so it weighs nothing for the shallow hypothesis
        // (it weighed +0.81); playing one outside the model still weighs
        // against it, and a model move the search rates far below the best
        // still weighs for it.
        let cell = |sector, ring| ringo::Cell::new(sector, ring).unwrap();
        let moves: Vec<Move> = (0..5u8)
            .map(|s| Move::quiet(cell(s, 3), cell(s, 2)))
            .collect();
        let even: Vec<(Move, i32)> = moves.iter().map(|&m| (m, 0)).collect();
        let model = [moves[0], moves[1]];
        assert_eq!(evidence(&even, &model, moves[0]), 0.0);
        assert!(evidence(&even, &model, moves[4]) < 0.0);
        let mut uneven = even.clone();
        uneven[0].1 = -300;
        assert!(evidence(&uneven, &model, moves[0]) > 1.0);
    }

    #[test]
    fn level_ten_against_itself_is_not_read_as_shallow_over_whole_games() {
        // The first 40 of the 200 recorded games of level 10 against plain
        // 1-second search on `classic,attackers=5`: each side reads the other
        // at every turn. Before moves as good as the best stopped counting
        // ([`NEAR_BEST`]) the whole-game sum crossed the threshold in 6 of
        // them (42 of the 200), almost always the defenders reading attackers
        // who make progress.
        let records = include_str!(
            "../../../../../docs/engine-results/classic,attackers=5--level:10--time:1000.records.jsonl"
        );
        let mut alarmed = 0;
        for line in records.lines().take(40) {
            let start = line.find("\"record\":\"").unwrap() + 10;
            let record = &line[start..start + line[start..].find('"').unwrap()];
            let game = Game::parse_record(record).unwrap();
            let rules = *game.rules();
            let mut readers = [searcher(rules), searcher(rules)];
            let mut replay = Game::from_position(rules, *game.start_position());
            let mut alarm = false;
            for m in game.moves() {
                let reader =
                    &mut readers[usize::from(replay.position().to_move() == Side::Attackers)];
                alarm |= reader.read_opponent(&replay).fallible();
                replay.play(m).unwrap();
            }
            alarmed += usize::from(alarm);
        }
        assert!(alarmed <= 1, "{alarmed} of 40 games read as shallow");
    }

    /// A game from a position.
    fn from(rules: &str, position: &str) -> Game {
        let rules: Rules = rules.parse().unwrap();
        Game::from_position(rules, Position::parse(position, &rules).unwrap())
    }

    #[test]
    fn against_the_model_takes_a_win_and_leaves_nothing_to_capture() {
        // "The attackers win when two of them stand in the fortress": c1-F.
        let game = from(
            "classic",
            "......../......../......../......../......../..A..D.. 1 a",
        );
        assert_eq!(
            searcher(*game.rules())
                .expected_best(&game, depth(2))
                .unwrap()
                .to_string(),
            "c1-F"
        );
        // c3-c2 lets the defender on c1 jump over it, and the model's
        // defenders take whatever is in reach: the engine steps elsewhere.
        let game = from(
            "classic",
            "......A./......../......../..A...../......../..D..... 0 a",
        );
        for d in 0..3 {
            let m = searcher(*game.rules())
                .expected_best(&game, depth(d))
                .unwrap();
            assert_ne!(m.to_string(), "c3-c2", "depth {d}");
        }
    }

    #[test]
    fn the_model_takes_a_third_occurrence_and_the_engine_does_not_offer_it() {
        // "A position that occurs for the third time ends the game": the
        // defenders win. `greedy` judges the end by the game, so when a reply
        // repeats a position for the third time it takes that reply, and the
        // model must too. Two attackers shuffle on ring 6; the start stood
        // at plies 0 and 4, and d6-c6 now lets f4-f3 bring it back a third
        // time.
        let mut game = from(
            "globe",
            "..A...../......../......../....DDDD/......../A....... 0 a",
        );
        let start = game.position().key();
        for m in ["c6-d6", "e3-e4", "d6-c6", "e4-e3", "c6-d6", "f3-f4"] {
            game.play(game.parse_move(m).unwrap()).unwrap();
        }
        let rules = *game.rules();
        let back = game.parse_move("d6-c6").unwrap();
        let mut child = *game.position();
        child.play_unchecked(back);
        let names = |v: Vec<Move>| v.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        let blind = names(model_replies(&child, &rules, false, |_| false));
        assert!(blind.len() > 10 && blind.contains(&"f4-f3".to_string()));
        let seeing = model_replies(&child, &rules, false, |p| p.key() == start);
        assert_eq!(names(seeing), ["f4-f3"]);
        // The engine counts the game's history: d6-c6 is a certain loss
        // against the model, not one reply in twenty, and it plays another.
        let mut s = searcher(rules);
        let values = s.expected_values(&game, depth(1)).unwrap();
        let value = |m: Move| values.iter().find(|&&(v, _)| v == m).unwrap().1;
        assert!(value(back) < 1e-3, "{values:?}");
        assert!(values.iter().any(|&(m, p)| m != back && p > 0.01));
        assert_ne!(s.expected_best(&game, depth(1)), Some(back));
    }

    #[test]
    fn two_modelled_replies_see_a_loss_coming_a_move_later() {
        // e1-F puts one attacker in the fortress; the defenders on c1 and g1
        // face each other across it, so neither can jump over it yet. Every
        // reply the model chooses moves one of them, and then whatever the
        // attackers play, "a defender on a ring-1 cell may jump over F to the
        // facing ring-1 cell" and capture it, leaving one attacker: "defenders
        // win as soon as fewer than 2 attackers are left". a2-a1 (or any step
        // of a2) keeps both. Seen only with a second modelled reply: with one
        // reply and nothing searched after it (depth 0), e1-F is the choice.
        let game = from(
            "classic",
            "......../......../......../......../A......./..D.A.D. 0 a",
        );
        let m = searcher(*game.rules())
            .expected_best(&game, depth(0))
            .unwrap();
        assert_ne!(m.to_string(), "e1-F");
        assert!(game.legal_moves().contains(&m));
    }

    #[test]
    fn the_chance_floor_weighs_the_gain_against_what_best_play_takes() {
        // `score_for_chance` inverts `chance` (to the unit, rounded up).
        for s in [-900, -252, -4, 0, 4, 252, 900] {
            assert!((score_for_chance(chance(s)) - s).abs() <= 1, "{s}");
        }
        // Game 58 of seed 2328, ply 46: the normal move scored +252, the
        // model's move was 0.05 better against the model and scored +4.
        let floor = chance_floor(252, 0.053, 0.5);
        assert!((floor - (chance(252) - 0.053)).abs() < 1e-12);
        assert!(chance(4) < floor);
        // Trusted more, the same gain buys more; trusted fully, anything.
        assert!(chance_floor(252, 0.053, 0.9) < chance(4));
        assert_eq!(chance_floor(252, 0.053, 1.0), 0.0);
    }

    #[test]
    fn keeps_chance_tells_a_sound_move_from_one_that_gives_a_piece_away() {
        // Two attackers: c3-c2 lets the defender on c1 jump over it, and
        // "defenders win as soon as fewer than 2 attackers are left".
        let game = from(
            "classic",
            "......A./......../......../..A...../......../..D..... 0 a",
        );
        let mut s = searcher(*game.rules());
        let report = s.search_game(&game, depth(4));
        let best = report.best.unwrap();
        assert_ne!(best.to_string(), "c3-c2");
        let floor = chance(report.score) - 0.05;
        let blunder = game.parse_move("c3-c2").unwrap();
        assert!(s.keeps_chance(&game, best, floor, report.depth, Limits::default()));
        assert!(!s.keeps_chance(&game, blunder, floor, report.depth, Limits::default()));
        // With nothing to keep, any move keeps it.
        assert!(s.keeps_chance(&game, blunder, 0.0, report.depth, Limits::default()));
    }

    #[test]
    fn a_false_alarm_does_not_throw_away_a_won_position() {
        // Game 58 of seed 2328 (level 10 against 1-second search on
        // `classic,attackers=5`): the reading mistook the defenders for
        // shallow, and at ply 46 the model's choice, g2-g1, gave up most of
        // the attackers' edge against best play for a little against the
        // model; the game was lost by ply 52. Weighed against best play at
        // `MODEL_TRUST`, the engine keeps the normal search's move.
        let game = Game::parse_record(
            "classic,attackers=5 h6-a6 h1-h2 c6-c5 h2-h1 a6-a5 h1-g1 a5-a4 f1-e1 \
             a4-a3 b1-a1 a3-a2 e1-f1 e6-e5 f1-f2 g6-g5 f2-f1 c5-c4 d1-c1 b6-b5 f1-e1 \
             e5-e4 g1-f1 g5-g4 f1-g1 e4-e3 g1-g2 c4-c3 c1-b1 b5-b4 b1-c1 c3-d3 c1-c2 \
             e3-e2 e1xe3 d3xf3 c2-c3 f3-e3 g2-f2 b4-a4 c3-c2 a4-a3 f2-f1 g4-g3 f1-e1 \
             g3-g2 c2-c1",
        )
        .unwrap();
        assert_eq!(game.ply(), 46);
        let model = searcher(*game.rules())
            .expected_best(&game, depth(2))
            .unwrap();
        let played = searcher(*game.rules())
            .play_fallible(&game, depth(6))
            .unwrap();
        assert_eq!(model.to_string(), "g2-g1");
        assert_ne!(played, model);
    }

    #[test]
    fn a_line_lost_against_best_play_keeps_a_chance_against_the_model() {
        // Game 37 of seed 3301 (level 10 at 200 ms a move as the `globe`
        // attackers against `greedy`), ply 150: two attackers left, a1 and
        // c4, in a position best play wins for the defenders. Against the
        // model every line scored a chance of about 0 and the engine chose
        // by the length of the loss; now the moves the model punishes at
        // once (c4-c3 walks into a capture, a1-F into the jump across `F`)
        // stay at 0 while the waiting moves keep the evaluation's chance,
        // scaled by HOPE, so the engine chooses among them by the position.
        let rules: Rules = "globe".parse().unwrap();
        let pos = Position::parse(
            "......../.....D../..A...../...D..../.......D/A.D..... 0 a",
            &rules,
        )
        .unwrap();
        let game = Game::from_position(rules, pos);
        let mut s = searcher(rules);
        assert!(s.search_game(&game, depth(6)).score <= -MATE_BAND);
        let values = s.expected_values(&game, depth(2)).unwrap();
        let value = |m: &str| {
            let m = game.parse_move(m).unwrap();
            values.iter().find(|&&(v, _)| v == m).unwrap().1
        };
        assert!(value("c4-c3") < 0.001, "{values:?}");
        assert!(value("a1-F") < 0.001, "{values:?}");
        let (best, p) = first_best(&values).unwrap();
        assert!(p > 0.02 && p <= HOPE, "{values:?}");
        assert!(["c4-b4", "c4-d4", "a1-b1", "a1-h1"].contains(&best.to_string().as_str()));
    }

    #[test]
    fn level_ten_plays_legal_moves_against_a_fallible_opponent() {
        // A game long enough to read `cautious` as fallible, then level 10's
        // move (the expected-chance path) under a short time limit.
        let rules: Rules = "classic".parse().unwrap();
        let mut rng = Rng::new(3);
        let game = play(rules, Side::Defenders, |g| cautious_move(g, &mut rng), 40);
        let mut s = searcher(rules);
        assert!(s.read_opponent(&game).fallible());
        let m = s
            .play_fallible(
                &game,
                Limits {
                    movetime: Some(std::time::Duration::from_millis(150)),
                    ..Limits::default()
                },
            )
            .unwrap();
        assert!(game.legal_moves().contains(&m));
    }
}
