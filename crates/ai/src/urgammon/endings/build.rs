//! Solving a class: every entry's outcomes with best play, by value
//! iteration over the turn's tree (chance die, verdict die, moves, rosette
//! bonuses), reading smaller classes' tables where a piece goes home.

use super::exact::{after, play_out_turn};
use super::index::{locate, Class};
use super::table::{Endings, Table, SCALE, SLOTS};
use crate::urgammon::eval::{Outcomes, OUTCOMES};
use crate::urgammon::search::{CHANCE, YES};
use std::collections::HashMap;
use urgammon::{Phase, Side, State, Token};

/// Value iteration stops when no entry's value moves by more than this.
const CONVERGED: f64 = 1e-11;

/// The sweeps a class may take before its solve is called stuck (the
/// largest classes take a few dozen).
const MAX_SWEEPS: u32 = 100_000;

/// A class's figures after its solve.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ClassSummary {
    /// The class, e.g. `PCvH`.
    pub class: String,
    /// Its positions (placements of both sides' pieces that are legal,
    /// times the side to roll and the side that started).
    pub positions: u64,
    /// The table's bytes.
    pub bytes: u64,
    /// Sweeps of value iteration until no value moved.
    pub sweeps: u32,
    /// Light's mean equity over its positions, light to roll, light
    /// started (a figure to compare builds by).
    pub mean_equity: f64,
    /// Seconds.
    pub seconds: f64,
}

/// Where a choice leads: an entry of the class being solved, or outcomes
/// already known (the game's end, a compensation turn, a smaller class).
#[derive(Clone, Copy)]
enum Next {
    Entry(u32),
    Known(u32),
}

/// One roll's options at an entry.
#[derive(Clone, Copy, Default)]
struct Roll {
    /// Where its successors start in the flat list.
    start: u32,
    /// Plain moves (or the one "no move" successor when none is legal and
    /// the verdict die may not be rolled).
    plain: u8,
    /// Moves the verdict die's YES allows (then the NO successor follows).
    promoted: u8,
}

impl Endings {
    /// The classes a build of `classes` solves: they and every smaller
    /// class they reach, less those held, smaller ones first.
    pub fn missing(&self, classes: &[Class]) -> Vec<Class> {
        let mut todo: Vec<Class> = classes.iter().flat_map(|c| c.with_smaller()).collect();
        todo.sort_by_key(|c| (c.pieces(), *c));
        todo.dedup();
        todo.retain(|c| !self.tables.contains_key(c));
        todo
    }

    /// Solves `classes` (with every smaller class they reach that is not
    /// yet held), on `threads` threads; `progress(class, entries done, of)`.
    ///
    /// # Errors
    /// A class whose values do not settle (a bug, never seen).
    pub fn build(
        &mut self,
        classes: &[Class],
        threads: usize,
        progress: &(dyn Fn(Class, u64, u64) + Sync),
    ) -> Result<Vec<ClassSummary>, String> {
        let todo = self.missing(classes);
        let mut summaries = vec![];
        // Classes with as many pieces left read only smaller ones: each
        // such group is solved in parallel.
        for pieces in 2..=4 {
            let group: Vec<Class> = todo
                .iter()
                .copied()
                .filter(|c| c.pieces() == pieces)
                .collect();
            let mut results = vec![];
            crate::par::run(
                group.len(),
                threads,
                |i| (group[i], self.solve(group[i], progress)),
                |r| {
                    results.push(r);
                    true
                },
            );
            for (class, r) in results {
                let (table, summary) = r?;
                self.tables.insert(class, table);
                summaries.push(summary);
            }
        }
        summaries.sort_by(|a, b| a.class.cmp(&b.class));
        Ok(summaries)
    }

    /// The outcomes of the state a choice leads to, when known without this
    /// class: the game's end, a compensation turn, a smaller class.
    fn known(&self, s: &State, class: Class) -> Result<Option<Outcomes>, u32> {
        match s.phase() {
            Phase::Over => Ok(s.result().map(Outcomes::of_result)),
            _ if s.last_turn() => Ok(play_out_turn(s, &self.payoff)),
            _ => match locate(s) {
                Some((c, i)) if c == class => Err(i),
                Some((c, i)) => Ok(self.tables.get(&c).map(|t| t.outcomes(i))),
                None => Ok(None),
            },
        }
    }

    /// Solves one class (smaller ones held).
    fn solve(
        &self,
        class: Class,
        progress: &(dyn Fn(Class, u64, u64) + Sync),
    ) -> Result<(Table, ClassSummary), String> {
        let started = std::time::Instant::now();
        let n = class.len();
        let mut rolls = vec![Roll::default(); n * 4];
        let mut next: Vec<Next> = vec![];
        let mut known: Vec<[f64; OUTCOMES]> = vec![];
        let mut known_at: HashMap<[u32; OUTCOMES], u32> = HashMap::new();
        let mut valid = vec![];
        let mut fail = None;
        let mut lead = |s: &State, next: &mut Vec<Next>| {
            let n = match self.known(s, class) {
                Err(i) => Next::Entry(i),
                Ok(Some(o)) => {
                    let key = o.0.map(f32::to_bits);
                    let k = *known_at.entry(key).or_insert_with(|| {
                        known.push(o.0.map(f64::from));
                        known.len() as u32 - 1
                    });
                    Next::Known(k)
                }
                Ok(None) => {
                    fail.get_or_insert_with(|| format!("{class}: a successor of no table"));
                    Next::Known(0)
                }
            };
            next.push(n);
        };
        for index in 0..n as u32 {
            let Some(state) = class.state(index) else {
                continue;
            };
            valid.push(index);
            for (r, (c, _)) in CHANCE.iter().enumerate() {
                let mut s = state;
                let _ = s.apply(Token::Roll(*c));
                let start = next.len() as u32;
                let mut plain = 0;
                let mut promoted = 0;
                match s.phase() {
                    Phase::Decide | Phase::Move | Phase::Verdict => {
                        if s.phase() != Phase::Verdict {
                            for &m in s.moves().iter() {
                                lead(&after(&s, Token::Move(m)), &mut next);
                                plain += 1;
                            }
                        }
                        if s.phase() != Phase::Move {
                            let yes = after(&s, Token::Verdict(true));
                            for &m in yes.moves().iter() {
                                lead(&after(&yes, Token::Move(m)), &mut next);
                                promoted += 1;
                            }
                            lead(&after(&s, Token::Verdict(false)), &mut next);
                        }
                    }
                    // No move at all: the turn passed.
                    _ => {
                        lead(&s, &mut next);
                        plain = 1;
                    }
                }
                rolls[index as usize * 4 + r] = Roll {
                    start,
                    plain,
                    promoted,
                };
            }
            if index % 4096 == 0 {
                progress(class, u64::from(index) / 2, n as u64);
            }
        }
        if let Some(why) = fail {
            return Err(why);
        }
        // The sweeps go from the most advanced entries back, so most of
        // what an entry reads is already this sweep's.
        valid.sort_by_key(|&i| std::cmp::Reverse(class.advance(i)));
        let mut dist = vec![[0.0f64; OUTCOMES]; n];
        let light = self.payoff.light.map(f64::from);
        let worth = |d: &[f64; OUTCOMES]| -> f64 { d.iter().zip(&light).map(|(p, u)| p * u).sum() };
        let mut sweeps = 0;
        loop {
            sweeps += 1;
            let mut moved = 0.0f64;
            for &i in &valid {
                let side = if (i >> 1) & 1 == 0 {
                    Side::Light
                } else {
                    Side::Dark
                };
                let sign = if side == Side::Light { 1.0 } else { -1.0 };
                let mut total = [0.0f64; OUTCOMES];
                for (r, (_, p)) in CHANCE.iter().enumerate() {
                    let roll = rolls[i as usize * 4 + r];
                    let get = |k: u32| -> &[f64; OUTCOMES] {
                        match next[k as usize] {
                            Next::Entry(e) => &dist[e as usize],
                            Next::Known(j) => &known[j as usize],
                        }
                    };
                    // The best of a run of successors for the side acting;
                    // of equals, the first, so the choice cannot flicker.
                    let best = |from: u32, len: u8| -> Option<(f64, [f64; OUTCOMES])> {
                        let mut best: Option<(f64, [f64; OUTCOMES])> = None;
                        for k in from..from + u32::from(len) {
                            let d = get(k);
                            let v = sign * worth(d);
                            if best.is_none_or(|(b, _)| v > b + 1e-13) {
                                best = Some((v, *d));
                            }
                        }
                        best
                    };
                    let mut chosen = best(roll.start, roll.plain);
                    if roll.promoted > 0 {
                        let from = roll.start + u32::from(roll.plain);
                        if let Some((_, yes)) = best(from, roll.promoted) {
                            let no = get(from + u32::from(roll.promoted));
                            let y = f64::from(YES);
                            let mut d = [0.0; OUTCOMES];
                            for k in 0..OUTCOMES {
                                d[k] = y * yes[k] + (1.0 - y) * no[k];
                            }
                            let v = sign * worth(&d);
                            if chosen.is_none_or(|(b, _)| v > b + 1e-13) {
                                chosen = Some((v, d));
                            }
                        }
                    }
                    if let Some((_, d)) = chosen {
                        for k in 0..OUTCOMES {
                            total[k] += f64::from(*p) * d[k];
                        }
                    }
                }
                let old = &mut dist[i as usize];
                moved = moved.max((worth(&total) - worth(old)).abs());
                for k in 0..OUTCOMES {
                    moved = moved.max((total[k] - old[k]).abs() * 1e-3);
                }
                *old = total;
            }
            progress(
                class,
                n as u64 / 2 + (n as u64 / 2).min(u64::from(sweeps) * n as u64 / 80),
                n as u64,
            );
            if moved < CONVERGED {
                break;
            }
            if sweeps >= MAX_SWEEPS {
                return Err(format!("{class}: the values did not settle"));
            }
        }
        let mut values = vec![0u16; n * SLOTS.len()];
        let mut sum = 0.0;
        let mut count = 0u32;
        for &i in &valid {
            let d = &dist[i as usize];
            for (k, &slot) in SLOTS.iter().enumerate() {
                values[i as usize * SLOTS.len() + k] =
                    (d[slot].clamp(0.0, 1.0) * SCALE).round() as u16;
            }
            if i & 3 == 0 {
                sum += worth(d);
                count += 1;
            }
        }
        progress(class, n as u64, n as u64);
        let summary = ClassSummary {
            class: class.to_string(),
            positions: valid.len() as u64,
            bytes: (values.len() * 2) as u64,
            sweeps,
            mean_equity: if count > 0 {
                sum / f64::from(count)
            } else {
                0.0
            },
            seconds: started.elapsed().as_secs_f64(),
        };
        Ok((Table { values }, summary))
    }
}
