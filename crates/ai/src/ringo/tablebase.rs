//! Ringo endgame tablebases, built by retrograde analysis.
//!
//! A table holds one **material class**: `a` attackers (the fortress
//! included, at most one of them in it, since two there is a win) and `d`
//! defenders. Every placement of those pieces on the board, with either side
//! to move, has one entry: who wins with best play from a fresh history and
//! in how many plies (the winner as fast as it can, the loser as slowly), or
//! [`Value::Cycle`] when neither side can force a win. What a cycle means is
//! the rules' `repetition`: the defenders win (the default) or it is a draw.
//!
//! **Why the values are exact.** A side that can force a win can do it along
//! a line that never repeats a position (the distance to the win falls at
//! every move), so no repetition rule can take that win away; a side that
//! cannot force a win can be kept from it forever, so the game ends by
//! repetition. The retrograde analysis computes exactly those two sets (the
//! "attractors" of each side's wins) and their distances, with no search
//! horizon and no path dependence.
//!
//! **Passes.** The entry is for a position reached by a move other than a
//! pass. After a pass, a second pass ends the game for the defenders, so
//! [`Tablebases::probe_after_pass`] answers "defenders in 1" when the side to
//! move may pass, and the entry otherwise (the moves are then the same).
//!
//! **Layout.** No keys are stored: an entry's index is computed from the
//! pieces (the attackers' cells ranked as a combination of the board's cells,
//! the defenders' as a combination of the cells left), so a table is one
//! `u16` per position. Captures leave the class for a smaller one, which is
//! built first and looked up; a move into the fortress stays in the class.
//!
//! The tables do not depend on the rules' `attackers` (the start count) or
//! `repetition` (only what a cycle means), so one table serves all six of
//! those variants of a rule set.

use ringo::{legal_moves, Bitboard, Move, MoveList, Position, Repetition, Rules, Side};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// One material class: pieces of each side (attackers counting the one in
/// the fortress, if any).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Material {
    /// Attackers on the board plus in the fortress (2 or more).
    pub attackers: u8,
    /// Defenders on the board.
    pub defenders: u8,
}

impl Material {
    /// The material of a position.
    pub fn of(pos: &Position) -> Material {
        Material {
            attackers: pos.attackers_left() as u8,
            defenders: pos.defenders_left() as u8,
        }
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.attackers, self.defenders)
    }
}

/// A position's value with best play from a fresh history.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Value {
    /// The attackers win in this many plies.
    Attackers(u16),
    /// The defenders win in this many plies (without needing a repetition).
    Defenders(u16),
    /// Neither side can force a win: the game ends by repetition.
    Cycle,
}

impl Value {
    /// Stored form: 0 a cycle, `1 + plies` an attackers' win, with the top
    /// bit set a defenders' win.
    fn encode(self) -> u16 {
        match self {
            Value::Cycle => 0,
            Value::Attackers(n) => 1 + n,
            Value::Defenders(n) => DEFENDERS_BIT | (1 + n),
        }
    }

    fn decode(raw: u16) -> Value {
        match raw {
            0 => Value::Cycle,
            r if r & DEFENDERS_BIT != 0 => Value::Defenders((r & !DEFENDERS_BIT) - 1),
            r => Value::Attackers(r - 1),
        }
    }

    /// The winner under these rules (`None`: a draw), with the plies when
    /// the win is forced (a defenders' win by repetition has none).
    pub fn outcome(self, rules: &Rules) -> (Option<Side>, Option<u16>) {
        match self {
            Value::Attackers(n) => (Some(Side::Attackers), Some(n)),
            Value::Defenders(n) => (Some(Side::Defenders), Some(n)),
            Value::Cycle => match rules.repetition {
                Repetition::Defenders => (Some(Side::Defenders), None),
                Repetition::Draw => (None, None),
            },
        }
    }

    /// A forced win for `side` in `plies`.
    pub fn win(side: Side, plies: u16) -> Value {
        match side {
            Side::Attackers => Value::Attackers(plies),
            Side::Defenders => Value::Defenders(plies),
        }
    }

    /// The winner of a forced win (`None` for a cycle).
    pub fn winner(self) -> Option<Side> {
        match self {
            Value::Attackers(_) => Some(Side::Attackers),
            Value::Defenders(_) => Some(Side::Defenders),
            Value::Cycle => None,
        }
    }

    /// The plies of a forced win.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Attackers(n) | Value::Defenders(n) => Some(n),
            Value::Cycle => None,
        }
    }

    /// `"attackers"`, `"defenders"` or `"draw"` under these rules.
    pub fn result_name(self, rules: &Rules) -> &'static str {
        match self.outcome(rules).0 {
            Some(Side::Attackers) => "attackers",
            Some(Side::Defenders) => "defenders",
            None => "draw",
        }
    }
}

const DEFENDERS_BIT: u16 = 0x8000;
/// The longest win a table can store.
const MAX_PLIES: u16 = 0x7ffe;

/// Binomial coefficients C(n, k) for n ≤ 48, k ≤ 8.
const BINOM: [[u64; 9]; 49] = {
    let mut t = [[0u64; 9]; 49];
    let mut n = 0;
    while n < 49 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 9 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

fn binom(n: u32, k: u32) -> u64 {
    if k > 8 || n > 48 {
        return 0;
    }
    BINOM[n as usize][k as usize]
}

/// Colex rank of a set of cells (bits of `bits`, all below 48).
fn rank(bits: u64) -> u64 {
    let mut r = 0;
    let mut b = bits;
    let mut i = 1;
    while b != 0 {
        let c = b.trailing_zeros();
        r += binom(c, i);
        b &= b - 1;
        i += 1;
    }
    r
}

/// The `k`-set of colex rank `r` (inverse of [`rank`]).
fn unrank(mut r: u64, k: u32) -> u64 {
    let mut bits = 0;
    for i in (1..=k).rev() {
        // The largest c with C(c, i) ≤ r.
        let mut c = i - 1;
        while binom(c + 1, i) <= r {
            c += 1;
        }
        r -= binom(c, i);
        bits |= 1 << c;
    }
    bits
}

/// Removes the `taken` cells from the numbering: cell c becomes c minus the
/// taken cells below it.
fn compress(bits: u64, taken: u64) -> u64 {
    let mut out = 0;
    let mut b = bits;
    while b != 0 {
        let c = b.trailing_zeros();
        let below = (taken & ((1u64 << c) - 1)).count_ones();
        out |= 1 << (c - below);
        b &= b - 1;
    }
    out
}

/// Inverse of [`compress`]: the j-th free cell for each bit j.
fn expand(bits: u64, taken: u64) -> u64 {
    let mut out = 0;
    let mut free = !taken;
    let mut b = bits;
    while b != 0 {
        let c = free.trailing_zeros();
        if b & 1 != 0 {
            out |= 1 << c;
        }
        free &= free - 1;
        b >>= 1;
    }
    out
}

/// How one class's positions are numbered.
#[derive(Clone, Copy, Debug)]
struct Layout {
    material: Material,
    cells: u32,
}

impl Layout {
    /// Positions with `f` attackers in the fortress and one side to move.
    fn block(&self, f: u8) -> u64 {
        let on_board = (self.material.attackers - f) as u32;
        binom(self.cells, on_board) * binom(self.cells - on_board, self.material.defenders as u32)
    }

    fn len(&self) -> u64 {
        2 * (self.block(0) + self.block(1))
    }

    /// The index of a position of this class (`None` when it is not one).
    fn index(&self, pos: &Position) -> Option<u64> {
        let f = pos.fortress();
        if f > 1 || Material::of(pos) != self.material {
            return None;
        }
        let att = pos.pieces(Side::Attackers).0;
        let def = pos.pieces(Side::Defenders).0;
        let on_board = att.count_ones();
        let d_rank = rank(compress(def, att));
        let within =
            rank(att) * binom(self.cells - on_board, self.material.defenders as u32) + d_rank;
        let side = u64::from(pos.to_move() == Side::Defenders);
        let base = if f == 0 {
            side * self.block(0)
        } else {
            2 * self.block(0) + side * self.block(1)
        };
        Some(base + within)
    }

    /// The position at an index.
    fn position(&self, index: u64, rules: &Rules) -> Position {
        let (f, side, within) = {
            let b0 = self.block(0);
            let b1 = self.block(1);
            if index < 2 * b0 {
                (0, index / b0, index % b0)
            } else {
                let i = index - 2 * b0;
                (1, i / b1, i % b1)
            }
        };
        let on_board = (self.material.attackers - f) as u32;
        let per = binom(self.cells - on_board, self.material.defenders as u32);
        let att = unrank(within / per, on_board);
        let def = expand(unrank(within % per, self.material.defenders as u32), att);
        let side = if side == 0 {
            Side::Attackers
        } else {
            Side::Defenders
        };
        Position::from_cells(Bitboard(att), Bitboard(def), f, side, rules)
            .expect("an index names a valid position")
    }
}

/// One built class: a value per position.
pub struct Table {
    layout: Layout,
    values: Vec<u16>,
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
    rules: Rules,
    tables: BTreeMap<Material, Table>,
}

/// The rules a table is built for: the start count and the repetition rule
/// do not change any table, so they are set to the defaults.
pub fn table_rules(rules: &Rules) -> Rules {
    let mut r = *rules;
    r.attackers = 7;
    r.repetition = Repetition::Defenders;
    r
}

/// What a child of a position is worth during the build.
enum Child {
    /// A position of the class being built.
    Same(u64),
    /// A known value (a terminal position or a smaller class).
    Known(Value),
}

/// Per-position facts from the first pass.
#[derive(Clone, Copy, Default)]
struct Start {
    /// Children not (yet) known to be wins for the opponent.
    open: u16,
    /// The fastest known win for the side to move, plus one (0: none).
    win: u16,
    /// The slowest known loss, in plies from here.
    loss: u16,
}

const CHUNK: u64 = 1 << 15;

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
    fn build(
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
    fn children(&self, layout: &Layout, i: u64, out: &mut Vec<Child>) {
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

    /// Writes every table to `dir` (one file a class).
    ///
    /// # Errors
    /// The directory or a file could not be written.
    pub fn save(&self, dir: &Path) -> Result<(), TablebaseError> {
        std::fs::create_dir_all(dir).map_err(|e| TablebaseError::Io(dir.to_path_buf(), e))?;
        for (m, t) in &self.tables {
            let path = file_path(dir, &self.rules, *m);
            let tmp = path.with_extension("tmp");
            let write = || -> std::io::Result<()> {
                let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
                let rules = self.rules.to_string();
                f.write_all(MAGIC)?;
                f.write_all(&(rules.len() as u32).to_le_bytes())?;
                f.write_all(rules.as_bytes())?;
                f.write_all(&[m.attackers, m.defenders])?;
                f.write_all(&t.len().to_le_bytes())?;
                let mut sum = Fnv::new();
                for &v in &t.values {
                    let b = v.to_le_bytes();
                    sum.add(&b);
                    f.write_all(&b)?;
                }
                f.write_all(&sum.0.to_le_bytes())?;
                f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
                std::fs::rename(&tmp, &path)
            };
            write().map_err(|e| TablebaseError::Io(path.clone(), e))?;
        }
        Ok(())
    }

    /// Reads every table of these rules found in `dir` (none is not an
    /// error: the result then holds no class).
    ///
    /// # Errors
    /// A file of these rules that cannot be read or is damaged.
    pub fn load(dir: &Path, rules: &Rules) -> Result<Tablebases, TablebaseError> {
        let mut tb = Tablebases::new(rules);
        for m in Self::plan(7, 4) {
            let path = file_path(dir, &tb.rules, m);
            if !path.exists() {
                continue;
            }
            let table = read_table(&path, &tb.rules, m)?;
            tb.tables.insert(m, table);
        }
        Ok(tb)
    }
}

/// What [`Tablebases::verify`] checked and found.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Verification {
    /// Positions whose value was recomputed from their children's values.
    pub checked: u64,
    /// Of those, values that disagree with their children's (should be 0).
    pub inconsistent: u64,
    /// Sampled positions searched by the plain minimax.
    pub sampled: u64,
    /// Of those, forced wins short enough for the minimax depth.
    pub sampled_short: u64,
    /// Sampled positions where the minimax and the table disagree (should
    /// be 0).
    pub disagreements: u64,
    /// The first few disagreements or inconsistencies, as position strings.
    pub examples: Vec<String>,
}

impl Tablebases {
    /// Checks every table two ways. **Consistency**: every entry is
    /// recomputed from its children's entries (a winner's fastest child, a
    /// loser's slowest, otherwise a cycle), which by induction on the
    /// distance proves the whole table right. **Minimax**: `samples`
    /// positions a class (half of them forced wins within `depth`, where the
    /// table has them) are searched by [`minimax`] without the tables, from
    /// a fresh history and just after a pass, and must agree exactly.
    pub fn verify(
        &self,
        threads: usize,
        samples: u64,
        depth: u32,
        seed: u64,
        progress: &(dyn Fn(Material, u64, u64) + Sync),
    ) -> Verification {
        let mut report = Verification::default();
        for (&m, table) in &self.tables {
            let n = table.len();
            let mut done = 0u64;
            chunked(
                n,
                threads,
                |range| {
                    let count = range.end - range.start;
                    let mut bad = vec![];
                    for i in range {
                        let pos = table.position(i, &self.rules);
                        if self.recompute(&pos) != table.get(&pos) {
                            bad.push(pos.to_text(self.rules.rings));
                        }
                    }
                    (count, bad)
                },
                |(k, bad)| {
                    report.checked += k;
                    report.inconsistent += bad.len() as u64;
                    report.examples.extend(bad.into_iter().take(3));
                    done += k;
                    progress(m, done, n + samples);
                    true
                },
            );
            let mut rng =
                crate::Rng::new(seed ^ u64::from(m.attackers) << 8 ^ u64::from(m.defenders));
            let (mut short, mut tries) = (0u64, 0u64);
            let mut picked = 0u64;
            while picked < samples && tries < 100 * samples {
                tries += 1;
                let i = rng.next_u64() % n;
                let pos = table.position(i, &self.rules);
                let after_pass = rng.below(4) == 0;
                let want = if after_pass {
                    self.probe_after_pass(&pos)
                } else {
                    self.probe(&pos)
                };
                let is_short = want
                    .and_then(Value::plies)
                    .is_some_and(|p| p as u32 <= depth);
                // Half the sample are short forced wins, when there are any.
                if !is_short && short * 2 < picked && tries < 50 * samples {
                    continue;
                }
                picked += 1;
                short += u64::from(is_short);
                let expected = if is_short { want } else { None };
                let got = minimax(&pos, after_pass, &self.rules, depth);
                if got != expected {
                    report.disagreements += 1;
                    if report.examples.len() < 6 {
                        report.examples.push(format!(
                            "{} (after a pass: {after_pass}): table {want:?}, minimax {got:?}",
                            pos.to_text(self.rules.rings)
                        ));
                    }
                }
                progress(m, n + picked, n + samples);
            }
            report.sampled += picked;
            report.sampled_short += short;
        }
        report
    }

    /// A position's value from its children's table entries.
    fn recompute(&self, pos: &Position) -> Option<Value> {
        let mut list = MoveList::new();
        legal_moves(pos, &self.rules, &mut list);
        let children: Option<Vec<Value>> = list
            .iter()
            .map(|&mv| {
                let mut next = *pos;
                next.play_unchecked(mv);
                if mv == Move::PASS {
                    self.probe_after_pass(&next)
                } else {
                    self.probe(&next)
                }
            })
            .collect();
        let children = children?.into_iter().map(Some);
        Some(back_up(pos.to_move(), children).unwrap_or(Value::Cycle))
    }
}

/// The directory of tables the engines use, once installed, and the tables
/// read from it so far (by rule set; `None`: none there).
struct Registry {
    dir: PathBuf,
    loaded: std::sync::Mutex<std::collections::HashMap<String, Option<std::sync::Arc<Tablebases>>>>,
}

static REGISTRY: std::sync::OnceLock<Registry> = std::sync::OnceLock::new();

/// Makes every engine search (analysis, review, the computer's moves) use
/// the tables in `dir`, read the first time a rule set asks for them. A
/// process installs one directory; later calls are ignored.
pub fn install(dir: PathBuf) {
    let _ = REGISTRY.set(Registry {
        dir,
        loaded: std::sync::Mutex::new(std::collections::HashMap::new()),
    });
}

/// The installed tables of these rules (`None`: nothing installed, or no
/// table of these rules in the directory). A damaged file is logged and
/// skipped: the engine then searches without tables.
pub fn for_rules(rules: &Rules) -> Option<std::sync::Arc<Tablebases>> {
    let reg = REGISTRY.get()?;
    let key = table_rules(rules).to_string();
    let mut loaded = reg.loaded.lock().ok()?;
    loaded
        .entry(key)
        .or_insert_with(|| {
            if !reg.dir.exists() {
                return None;
            }
            match Tablebases::load(&reg.dir, rules) {
                Ok(tb) if !tb.classes().is_empty() => {
                    tracing::info!(rules = %tb.rules(), classes = tb.classes().len(), "tablebases loaded");
                    Some(std::sync::Arc::new(tb))
                }
                Ok(_) => None,
                Err(e) => {
                    tracing::warn!(error = %e, "tablebases not used");
                    None
                }
            }
        })
        .clone()
}

/// Runs `work` over the indices `0..n` in chunks shared out to the
/// threads ([`crate::par::run`]), each chunk's result given to `done`.
fn chunked<T: Send>(
    n: u64,
    threads: usize,
    work: impl Fn(std::ops::Range<u64>) -> T + Sync,
    done: impl FnMut(T) -> bool + Send,
) {
    crate::par::run(
        n.div_ceil(CHUNK) as usize,
        threads,
        |c| {
            let lo = c as u64 * CHUNK;
            work(lo..(lo + CHUNK).min(n))
        },
        done,
    );
}

/// Whether the side to move may pass here (it must when it has no move; the
/// defenders may with `defender-pass`).
fn may_pass(pos: &Position, rules: &Rules) -> bool {
    let mut list = MoveList::new();
    legal_moves(pos, rules, &mut list);
    list.contains(&Move::PASS)
}

/// Pass 1's facts about one position from its children; same-class children
/// go to `edges`.
fn start_of(layout: &Layout, i: u64, children: &[Child], edges: &mut Vec<u32>) -> Start {
    let mover = layout.position_side(i);
    let mut s = Start::default();
    for ch in children {
        match ch {
            Child::Same(j) => {
                s.open += 1;
                edges.push(*j as u32);
            }
            Child::Known(v) => match v.winner() {
                Some(w) if w == mover => {
                    let d = v.plies().unwrap_or(0) + 1;
                    if s.win == 0 || d + 1 < s.win {
                        s.win = d + 1;
                    }
                }
                Some(_) => s.loss = s.loss.max(v.plies().unwrap_or(0) + 1),
                None => s.open += 1,
            },
        }
    }
    s
}

impl Layout {
    /// The side to move at an index (without building the position).
    fn position_side(&self, index: u64) -> Side {
        let b0 = self.block(0);
        let side = if index < 2 * b0 {
            index / b0
        } else {
            (index - 2 * b0) / self.block(1)
        };
        if side == 0 {
            Side::Attackers
        } else {
            Side::Defenders
        }
    }
}

/// The retrograde propagation: positions are settled in order of their
/// distance, so each gets its exact distance (the winner's fastest, the
/// loser's slowest).
fn propagate(
    layout: &Layout,
    starts: &mut [Start],
    offsets: &[u64],
    preds: &[u32],
    progress: impl Fn(u64),
) -> Vec<u16> {
    let n = starts.len();
    let mut values = vec![0u16; n];
    let mut settled = vec![false; n];
    // buckets[d]: positions that may settle at distance d, as (index, win).
    let mut buckets: Vec<Vec<(u32, bool)>> = vec![];
    let push = |buckets: &mut Vec<Vec<(u32, bool)>>, d: u16, i: usize, win: bool| {
        let d = d as usize;
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push((i as u32, win));
    };
    for (i, s) in starts.iter().enumerate() {
        if s.win > 0 {
            push(&mut buckets, s.win - 1, i, true);
        } else if s.open == 0 {
            push(&mut buckets, s.loss, i, false);
        }
    }
    let mut d = 0usize;
    let mut count = 0u64;
    while d < buckets.len() {
        let bucket = std::mem::take(&mut buckets[d]);
        for (i, win) in bucket {
            let i = i as usize;
            if settled[i] {
                continue;
            }
            settled[i] = true;
            count += 1;
            if count % (1 << 16) == 0 {
                progress(count);
            }
            let mover = layout.position_side(i as u64);
            let winner = if win { mover } else { mover.other() };
            let plies = (d as u16).min(MAX_PLIES);
            values[i] = Value::win(winner, plies).encode();
            for &p in &preds[offsets[i] as usize..offsets[i + 1] as usize] {
                let p = p as usize;
                if settled[p] {
                    continue;
                }
                if layout.position_side(p as u64) == winner {
                    push(&mut buckets, plies + 1, p, true);
                } else {
                    let s = &mut starts[p];
                    s.open -= 1;
                    s.loss = s.loss.max(plies + 1);
                    if s.open == 0 && s.win == 0 {
                        push(&mut buckets, s.loss, p, false);
                    }
                }
            }
        }
        d += 1;
    }
    values
}

const MAGIC: &[u8; 8] = b"AGONRTB1";

/// `DIR/ringo-<rules>-<a>v<d>.tb`.
fn file_path(dir: &Path, rules: &Rules, m: Material) -> PathBuf {
    let name = rules.to_string().replace([',', '='], "_");
    dir.join(format!("ringo-{name}-{m}.tb"))
}

fn read_table(path: &Path, rules: &Rules, m: Material) -> Result<Table, TablebaseError> {
    let corrupt = |why: &str| TablebaseError::Corrupt(path.to_path_buf(), why.to_string());
    let io = |e| TablebaseError::Io(path.to_path_buf(), e);
    let mut f = std::io::BufReader::new(std::fs::File::open(path).map_err(io)?);
    let mut magic = [0u8; 8];
    f.read_exact(&mut magic).map_err(io)?;
    if &magic != MAGIC {
        return Err(corrupt("not an Agon Ringo tablebase"));
    }
    let mut len = [0u8; 4];
    f.read_exact(&mut len).map_err(io)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > 1000 {
        return Err(corrupt("damaged header"));
    }
    let mut text = vec![0u8; len];
    f.read_exact(&mut text).map_err(io)?;
    if text != rules.to_string().as_bytes() {
        return Err(corrupt("built for other rules"));
    }
    let mut class = [0u8; 2];
    f.read_exact(&mut class).map_err(io)?;
    if class != [m.attackers, m.defenders] {
        return Err(corrupt("another material class"));
    }
    let layout = Layout {
        material: m,
        cells: 8 * rules.rings as u32,
    };
    let mut count = [0u8; 8];
    f.read_exact(&mut count).map_err(io)?;
    if u64::from_le_bytes(count) != layout.len() {
        return Err(corrupt("wrong number of positions"));
    }
    let mut bytes = vec![0u8; layout.len() as usize * 2];
    f.read_exact(&mut bytes).map_err(|_| corrupt("truncated"))?;
    let mut sum = Fnv::new();
    sum.add(&bytes);
    let mut stored = [0u8; 8];
    f.read_exact(&mut stored)
        .map_err(|_| corrupt("truncated"))?;
    if u64::from_le_bytes(stored) != sum.0 {
        return Err(corrupt("checksum mismatch"));
    }
    let values = bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    Ok(Table { layout, values })
}

/// FNV-1a, 64 bits: a damaged file is refused, not trusted.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }
}

/// A plain minimax with exact distances, for checking tables: the winner and
/// the plies when a side forces a win within `depth` plies, `None` otherwise.
/// It knows nothing of tables, so it is an independent check; with `depth`
/// ≤ 7 no position can occur a third time, so repetitions cannot matter.
pub fn minimax(pos: &Position, after_pass: bool, rules: &Rules, depth: u32) -> Option<Value> {
    if pos.fortress() >= 2 {
        return Some(Value::Attackers(0));
    }
    if pos.attackers_left() < 2 {
        return Some(Value::Defenders(0));
    }
    if depth == 0 {
        return None;
    }
    let mut list = MoveList::new();
    legal_moves(pos, rules, &mut list);
    let children = list.iter().map(|&mv| {
        if mv == Move::PASS && after_pass {
            Some(Value::Defenders(0))
        } else {
            let mut next = *pos;
            next.play_unchecked(mv);
            minimax(&next, mv == Move::PASS, rules, depth - 1)
        }
    });
    back_up(pos.to_move(), children)
}

/// A position's forced result from its children's (`None`: a child whose
/// result is not a forced win): the mover's fastest win, else, when every
/// child wins for the opponent, its slowest loss, else `None`.
fn back_up(mover: Side, children: impl IntoIterator<Item = Option<Value>>) -> Option<Value> {
    let mut best_win: Option<u16> = None;
    let mut worst_loss: Option<u16> = Some(0);
    for child in children {
        match child.and_then(|v| Some((v.winner()?, v.plies()? + 1))) {
            Some((w, d)) if w == mover => best_win = Some(best_win.map_or(d, |b| b.min(d))),
            Some((_, d)) => worst_loss = worst_loss.map(|w| w.max(d)),
            None => worst_loss = None,
        }
    }
    best_win
        .map(|d| Value::win(mover, d))
        .or_else(|| worst_loss.map(|d| Value::win(mover.other(), d)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_and_unranks_are_inverse() {
        for k in 0..=4u32 {
            let total = binom(20, k);
            for r in 0..total.min(3000) {
                let bits = unrank(r, k);
                assert_eq!(bits.count_ones(), k);
                assert_eq!(rank(bits), r);
            }
        }
        let taken = 0b1011_0010u64;
        for bits in [0b1u64, 0b101, 0b1110, 0b1_0000_0001] {
            assert_eq!(compress(expand(bits, taken), taken), bits);
            assert_eq!(expand(bits, taken) & taken, 0);
        }
    }

    #[test]
    fn every_index_names_a_position_of_its_class_and_back() {
        let rules: Rules = "classic,rings=5".parse().unwrap();
        for m in [
            Material {
                attackers: 2,
                defenders: 1,
            },
            Material {
                attackers: 3,
                defenders: 0,
            },
        ] {
            let layout = Layout {
                material: m,
                cells: 40,
            };
            for i in (0..layout.len()).step_by(7) {
                let pos = layout.position(i, &rules);
                assert_eq!(Material::of(&pos), m);
                assert_eq!(layout.index(&pos), Some(i));
                assert_eq!(layout.position_side(i), pos.to_move());
            }
        }
    }

    #[test]
    fn small_tables_are_consistent_and_agree_with_plain_minimax() {
        for text in [
            "classic,rings=5",
            "globe,rings=5",
            "encyclopedia,rings=5,defender-pass=on,repetition=draw",
        ] {
            let rules: Rules = text.parse().unwrap();
            let mut tb = Tablebases::new(&rules);
            let built = tb.build_up_to(3, 1, 2, &|_, _, _| {}).unwrap();
            assert_eq!(built.len(), 4, "{text}: 2v0 2v1 3v0 3v1");
            let v = tb.verify(2, 150, 5, 7, &|_, _, _| {});
            assert_eq!(v.inconsistent, 0, "{text}: {v:?}");
            assert_eq!(v.disagreements, 0, "{text}: {v:?}");
            assert!(v.sampled_short > 100, "{text}: short wins sampled: {v:?}");
            // A wrong entry is found: a win made one ply longer.
            let m = Material {
                attackers: 2,
                defenders: 1,
            };
            let t = tb.tables.get_mut(&m).unwrap();
            let i = t.values.iter().position(|&v| v != 0).unwrap();
            let old = t.values[i];
            t.values[i] += 1;
            let v = tb.verify(1, 0, 5, 7, &|_, _, _| {});
            assert!(v.inconsistent >= 1, "{text}: a changed entry is found");
            tb.tables.get_mut(&m).unwrap().values[i] = old;
            // Every class has forced wins, and the attackers cannot always
            // win: the table is not one answer everywhere.
            for m in tb.classes() {
                let s = tb.table(m).unwrap().summary();
                assert!(s.attackers > 0, "{text} {m}: {s:?}");
                if m.defenders > 0 {
                    assert!(s.defenders + s.cycles > 0, "{text} {m}: {s:?}");
                }
            }
        }
    }

    #[test]
    fn a_table_written_is_read_back_and_damage_is_refused() {
        let rules: Rules = "classic,rings=5".parse().unwrap();
        let mut tb = Tablebases::new(&rules);
        tb.build_up_to(2, 1, 1, &|_, _, _| {}).unwrap();
        let dir = std::env::temp_dir().join(format!("agon-tb-{}", std::process::id()));
        tb.save(&dir).unwrap();
        // attackers and repetition do not change the tables: the same files.
        let other: Rules = "classic,rings=5,attackers=5,repetition=draw"
            .parse()
            .unwrap();
        let back = Tablebases::load(&dir, &other).unwrap();
        assert_eq!(back.classes(), tb.classes());
        let m = Material {
            attackers: 2,
            defenders: 1,
        };
        assert_eq!(back.table(m).unwrap().values, tb.table(m).unwrap().values);

        let path = file_path(&dir, tb.rules(), m);
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0x55;
        std::fs::write(&path, &bytes).unwrap();
        let err = Tablebases::load(&dir, &rules)
            .err()
            .expect("damage is found");
        assert!(err.to_string().contains("checksum"), "{err}");
        std::fs::write(&path, &bytes[..40]).unwrap();
        let err = Tablebases::load(&dir, &rules)
            .err()
            .expect("truncation is found");
        assert!(err.to_string().contains("truncated"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_search_with_tables_reports_their_exact_result() {
        use crate::ringo::search::{Limits, Searcher};
        let rules: Rules = "classic,rings=5".parse().unwrap();
        let mut tb = Tablebases::new(&rules);
        tb.build_up_to(2, 1, 1, &|_, _, _| {}).unwrap();
        let tb = std::sync::Arc::new(tb);
        let mut rng = crate::Rng::new(3);
        let table = tb
            .table(Material {
                attackers: 2,
                defenders: 1,
            })
            .unwrap();
        let mut checked = 0;
        while checked < 30 {
            let pos = table.position(rng.next_u64() % table.len(), &rules);
            let Some(Value::Attackers(n) | Value::Defenders(n)) = tb.probe(&pos) else {
                continue;
            };
            if n == 0 {
                continue;
            }
            let game = ringo::Game::from_position(rules, pos);
            let mut s = Searcher::new(rules);
            s.set_tablebases(Some(tb.clone()));
            let r = s.search_game(
                &game,
                Limits {
                    depth: Some(2),
                    ..Limits::default()
                },
            );
            let p = r
                .proven
                .expect("every child is in the tables: a proven result");
            let winner = tb.probe(&pos).and_then(Value::winner).unwrap();
            assert_eq!(
                (p.winner, p.plies),
                (winner, u32::from(n)),
                "{}",
                pos.to_text(5)
            );
            checked += 1;
        }
    }

    #[test]
    fn values_survive_their_encoding() {
        for v in [
            Value::Cycle,
            Value::Attackers(0),
            Value::Attackers(77),
            Value::Defenders(0),
            Value::Defenders(MAX_PLIES),
        ] {
            assert_eq!(Value::decode(v.encode()), v);
        }
    }
}
