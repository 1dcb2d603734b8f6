//! One built class (`Table`), a rule set's tables (`Tablebases`), probing
//! them, and building them by retrograde analysis.

use super::build::*;
use super::index::*;
use super::value::*;
use ringo::{legal_moves, Move, MoveList, Position, Repetition, Rules};
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// One built class: a value per position.
pub struct Table {
    pub(super) layout: Layout,
    pub(super) values: Vec<u16>,
}

impl Table {
    /// The class.
    pub fn material(&self) -> Material {
        self.layout.material
    }

    /// Positions in the table.
    pub fn len(&self) -> u64 {
        self.values.len() as u64
    }

    /// True for a table with no positions (never built ones).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The value of a position of this class.
    pub fn get(&self, pos: &Position) -> Option<Value> {
        let i = self.layout.index(pos)?;
        self.values.get(i as usize).map(|&v| Value::decode(v))
    }

    /// The position at an index, for sampling.
    pub fn position(&self, index: u64, rules: &Rules) -> Position {
        self.layout.position(index, rules)
    }

    /// How many positions are won by each side and how many cycle, and the
    /// longest forced win.
    pub fn summary(&self) -> TableSummary {
        let mut s = TableSummary {
            material: self.material().to_string(),
            positions: self.len(),
            bytes: self.len() * 2,
            attackers: 0,
            defenders: 0,
            cycles: 0,
            longest: 0,
            build_secs: 0.0,
        };
        for &v in &self.values {
            match Value::decode(v) {
                Value::Attackers(n) => {
                    s.attackers += 1;
                    s.longest = s.longest.max(n);
                }
                Value::Defenders(n) => {
                    s.defenders += 1;
                    s.longest = s.longest.max(n);
                }
                Value::Cycle => s.cycles += 1,
            }
        }
        s
    }
}

/// A table's figures, as `agon ringo tablebase build` prints them.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TableSummary {
    /// The class, e.g. `3v2`.
    pub material: String,
    /// Positions (both sides to move).
    pub positions: u64,
    /// Bytes on disk (two per position, plus a small header).
    pub bytes: u64,
    /// Positions the attackers win by force.
    pub attackers: u64,
    /// Positions the defenders win by force.
    pub defenders: u64,
    /// Positions neither side wins by force (a repetition decides).
    pub cycles: u64,
    /// The longest forced win, in plies.
    pub longest: u16,
    /// Seconds the build took (0 for a loaded table).
    pub build_secs: f64,
}

/// Why tables could not be built, read or written.
#[derive(Debug)]
pub enum TablebaseError {
    /// A file could not be read or written.
    Io(PathBuf, std::io::Error),
    /// A file is not a table of these rules and class, or is damaged.
    Corrupt(PathBuf, String),
    /// A class asked for is outside what the tables handle.
    Unsupported(String),
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            TablebaseError::Corrupt(p, why) => write!(f, "{}: {why}", p.display()),
            TablebaseError::Unsupported(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for TablebaseError {}

/// The tables of one rule set, smallest classes first.
pub struct Tablebases {
    pub(super) rules: Rules,
    pub(super) tables: BTreeMap<Material, Table>,
}

/// The rules a table is built for: the start count and the repetition rule
/// do not change any table, so they are set to the defaults.
pub fn table_rules(rules: &Rules) -> Rules {
    let mut r = *rules;
    r.attackers = 7;
    r.repetition = Repetition::Defenders;
    r
}

impl Tablebases {
    /// No tables yet, for these rules.
    pub fn new(rules: &Rules) -> Tablebases {
        Tablebases {
            rules: table_rules(rules),
            tables: BTreeMap::new(),
        }
    }

    /// The rules the tables are for (start count and repetition normalised).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The classes held.
    pub fn classes(&self) -> Vec<Material> {
        self.tables.keys().copied().collect()
    }

    /// One class's table.
    pub fn table(&self, m: Material) -> Option<&Table> {
        self.tables.get(&m)
    }

    /// Positions in one class under these rules (both sides to move).
    pub fn class_size(rules: &Rules, m: Material) -> u64 {
        Layout {
            material: m,
            cells: 8 * rules.rings as u32,
        }
        .len()
    }

    /// The classes needed for `attackers` v `defenders`: every smaller one a
    /// capture can lead to, in the order they must be built.
    pub fn plan(attackers: u8, defenders: u8) -> Vec<Material> {
        let mut v = vec![];
        for a in 2..=attackers {
            for d in 0..=defenders {
                v.push(Material {
                    attackers: a,
                    defenders: d,
                });
            }
        }
        v
    }

    /// The value of a position reached by a move other than a pass, when its
    /// class is held (`None` otherwise). Terminal positions are answered too.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if pos.fortress() >= 2 {
            return Some(Value::Attackers(0));
        }
        if pos.attackers_left() < 2 {
            return Some(Value::Defenders(0));
        }
        self.tables.get(&Material::of(pos))?.get(pos)
    }

    /// The value of a position just after a pass: a second pass wins for the
    /// defenders, so when the side to move may pass it is a defenders' win in
    /// one (they pass, or the attackers must).
    pub fn probe_after_pass(&self, pos: &Position) -> Option<Value> {
        if pos.fortress() < 2 && pos.attackers_left() >= 2 && may_pass(pos, &self.rules) {
            return Some(Value::Defenders(1));
        }
        self.probe(pos)
    }

    /// Every legal move of `pos` (reached by a move other than a pass) with
    /// the value of the position it leads to, or `None` when a child's class
    /// is not held: what a position's own value is backed up from, and what
    /// tells a puzzle's only winning move.
    pub fn move_values(&self, pos: &Position) -> Option<Vec<(Move, Value)>> {
        let mut list = MoveList::new();
        legal_moves(pos, &self.rules, &mut list);
        list.iter()
            .map(|&mv| {
                let mut next = *pos;
                next.play_unchecked(mv);
                let v = if mv == Move::PASS {
                    self.probe_after_pass(&next)
                } else {
                    self.probe(&next)
                }?;
                Some((mv, v))
            })
            .collect()
    }

    /// Builds every class up to `attackers` v `defenders` that is not held
    /// yet, smallest first. `progress(class, done, total)` is called as the
    /// work goes (positions of the current class, twice over: the move
    /// generation, then the propagation).
    ///
    /// # Errors
    /// A class too large for the index (more than 8 pieces a side or above
    /// `u32` positions).
    pub fn build_up_to(
        &mut self,
        attackers: u8,
        defenders: u8,
        threads: usize,
        progress: &(dyn Fn(Material, u64, u64) + Sync),
    ) -> Result<Vec<TableSummary>, TablebaseError> {
        if !(2..=7).contains(&attackers) || defenders > 4 {
            return Err(TablebaseError::Unsupported(format!(
                "classes go from 2 to 7 attackers and 0 to 4 defenders, not {attackers}v{defenders}"
            )));
        }
        let mut out = vec![];
        for m in Self::plan(attackers, defenders) {
            if self.tables.contains_key(&m) {
                continue;
            }
            let start = std::time::Instant::now();
            let table = self.build(m, threads, progress)?;
            let mut s = table.summary();
            s.build_secs = start.elapsed().as_secs_f64();
            out.push(s);
            self.tables.insert(m, table);
        }
        Ok(out)
    }

    /// Retrograde analysis of one class, its smaller classes being held.
    pub(super) fn build(
        &self,
        m: Material,
        threads: usize,
        progress: &(dyn Fn(Material, u64, u64) + Sync),
    ) -> Result<Table, TablebaseError> {
        let layout = Layout {
            material: m,
            cells: 8 * self.rules.rings as u32,
        };
        let n = layout.len();
        if n >= u32::MAX as u64 {
            return Err(TablebaseError::Unsupported(format!(
                "class {m} has {n} positions, more than this index holds"
            )));
        }
        // Pass 1: each position's known facts, and how many same-class
        // positions lead to each (for the reverse edges).
        let mut starts = vec![Start::default(); n as usize];
        let mut indegree = vec![0u32; n as usize + 1];
        let mut done = 0u64;
        chunked(
            n,
            threads,
            |range| {
                let lo = range.start;
                let mut facts = Vec::with_capacity((range.end - lo) as usize);
                let mut edges = vec![];
                let mut children = vec![];
                for i in range {
                    children.clear();
                    self.children(&layout, i, &mut children);
                    facts.push(start_of(&layout, i, &children, &mut edges));
                }
                (lo, facts, edges)
            },
            |(lo, facts, edges)| {
                for (k, f) in facts.iter().enumerate() {
                    starts[lo as usize + k] = *f;
                }
                for e in edges {
                    indegree[e as usize] += 1;
                }
                done += facts.len() as u64;
                progress(m, done, 2 * n);
                true
            },
        );
        // Offsets of each position's predecessors, then pass 2 fills them.
        let mut offsets = vec![0u64; n as usize + 1];
        for i in 0..n as usize {
            offsets[i + 1] = offsets[i] + indegree[i] as u64;
        }
        drop(indegree);
        let mut cursor: Vec<u64> = offsets[..n as usize].to_vec();
        let mut preds = vec![0u32; offsets[n as usize] as usize];
        chunked(
            n,
            threads,
            |range| {
                let mut pairs = vec![];
                let mut children = vec![];
                for i in range {
                    children.clear();
                    self.children(&layout, i, &mut children);
                    for ch in &children {
                        if let Child::Same(j) = ch {
                            pairs.push((*j as u32, i as u32));
                        }
                    }
                }
                pairs
            },
            |pairs| {
                for (j, i) in pairs {
                    let at = &mut cursor[j as usize];
                    preds[*at as usize] = i;
                    *at += 1;
                }
                true
            },
        );
        drop(cursor);
        let values = propagate(&layout, &mut starts, &offsets, &preds, |d| {
            progress(m, n + d, 2 * n)
        });
        Ok(Table { layout, values })
    }

    /// The children of position `i` of a class being built.
    pub(super) fn children(&self, layout: &Layout, i: u64, out: &mut Vec<Child>) {
        let pos = layout.position(i, &self.rules);
        let mut list = MoveList::new();
        legal_moves(&pos, &self.rules, &mut list);
        for &mv in list.iter() {
            let mut next = pos;
            next.play_unchecked(mv);
            if mv == Move::PASS {
                if may_pass(&next, &self.rules) {
                    out.push(Child::Known(Value::Defenders(1)));
                } else {
                    out.push(Child::Same(
                        layout.index(&next).expect("a pass keeps the class"),
                    ));
                }
                continue;
            }
            if let Some(j) = layout.index(&next) {
                out.push(Child::Same(j));
            } else {
                let v = self.probe(&next).expect("smaller classes are built first");
                out.push(Child::Known(v));
            }
        }
    }
}
