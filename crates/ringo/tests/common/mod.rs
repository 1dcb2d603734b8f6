//! Shared test helpers: a small deterministic RNG, random rule sets, and a naive
//! reference move generator written straight from the rules page, with
//! (sector, ring) arithmetic instead of bitboards and tables. The property tests
//! check that the fast generator and this one always agree.
#![allow(dead_code)]

use ringo::{AttackerCaptures, CaptureKind, NeutralLimit, Position, Rules, Side, OPTIONS};

/// The project's seeded generator (SplitMix64 from `rand_xoshiro`), with the
/// modulo mapping these tests were written with, so every seed replays the
/// same games as before.
pub struct Rng(rand_xoshiro::SplitMix64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(rand_core::SeedableRng::seed_from_u64(seed))
    }
    pub fn next(&mut self) -> u64 {
        rand_core::RngCore::next_u64(&mut self.0)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random rule set: a random preset, then each option set at random with
/// probability 1/2.
pub fn random_rules(rng: &mut Rng) -> Rules {
    let preset = ["classic", "encyclopedia", "globe"][rng.below(3)];
    let mut rules: Rules = preset.parse().unwrap();
    for (key, values) in OPTIONS {
        if rng.below(2) == 0 {
            rules.set(key, values[rng.below(values.len())]).unwrap();
        }
    }
    rules
}

/// A board cell in reference form: `None` is the fortress.
type Sq = Option<(i32, i32)>; // (sector 0..8, ring 1..=R)

#[derive(Clone, Copy, PartialEq)]
enum P {
    Empty,
    A,
    D,
}

struct Board {
    cells: Vec<Vec<P>>, // [ring][sector], ring index 1..=R (index 0 unused)
    fortress: i32,
    rings: i32,
}

fn name(sq: Sq) -> String {
    match sq {
        None => "F".into(),
        Some((s, r)) => format!("{}{}", (b'a' + s as u8) as char, r),
    }
}

impl Board {
    fn from(pos: &Position, rules: &Rules) -> Board {
        let text = pos.to_text(rules.rings);
        let mut parts = text.split(' ');
        let rings: Vec<&str> = parts.next().unwrap().split('/').collect();
        let r = rules.rings as i32;
        let mut cells = vec![vec![P::Empty; 8]; (r + 1) as usize];
        for (i, ring) in rings.iter().enumerate() {
            let ring_no = r - i as i32;
            for (s, ch) in ring.chars().enumerate() {
                cells[ring_no as usize][s] = match ch {
                    'A' => P::A,
                    'D' => P::D,
                    _ => P::Empty,
                };
            }
        }
        Board {
            cells,
            fortress: parts.next().unwrap().parse().unwrap(),
            rings: r,
        }
    }
    fn at(&self, sq: Sq) -> P {
        match sq {
            None => P::Empty,
            Some((s, r)) => self.cells[r as usize][s as usize],
        }
    }
    fn on_board(&self, s: i32, r: i32) -> Sq {
        if r >= 1 && r <= self.rings {
            Some((s.rem_euclid(8), r))
        } else {
            None
        }
    }
}

fn neutral(sq: Sq) -> bool {
    matches!(sq, Some((0, _)))
}

/// The step from `sq` by (dsector, dring); dring = -1 is inward. Inward from ring
/// 1 gives the fortress; `Err` means off the board.
fn step(b: &Board, sq: Sq, ds: i32, dr: i32) -> Result<Sq, ()> {
    let (s, r) = sq.ok_or(())?;
    if dr == -1 && r == 1 {
        return Ok(None);
    }
    b.on_board(s + ds, r + dr).map(Some).ok_or(())
}

/// The reference legal move set, as notation without disambiguation plus the
/// captured cell: `from-to`, `fromxto[cap]`, `pass`.
pub fn reference_moves(pos: &Position, rules: &Rules) -> Vec<String> {
    let b = Board::from(pos, rules);
    let attackers_total: i32 = (1..=b.rings)
        .map(|r| b.cells[r as usize].iter().filter(|&&p| p == P::A).count() as i32)
        .sum::<i32>()
        + b.fortress;
    let defenders_total: i32 = (1..=b.rings)
        .map(|r| b.cells[r as usize].iter().filter(|&&p| p == P::D).count() as i32)
        .sum();
    if b.fortress >= 2 || attackers_total < 2 {
        return vec![];
    }
    let me = if pos.to_move() == Side::Attackers {
        P::A
    } else {
        P::D
    };
    let them = if me == P::A { P::D } else { P::A };
    // (from, to, captured)
    let mut moves: Vec<(Sq, Sq, Option<Sq>)> = vec![];
    let fortress_ok = |from: Sq| b.fortress < 2 && (rules.fortress_from_neutral || !neutral(from));
    let all_dirs = [(1, 0), (-1, 0), (0, -1), (0, 1)];
    let move_dirs: Vec<(i32, i32)> = if me == P::A {
        vec![(1, 0), (-1, 0), (0, -1)]
    } else {
        all_dirs.to_vec()
    };
    let capture_dirs: Vec<(i32, i32)> = if me == P::D {
        all_dirs.to_vec()
    } else {
        match rules.attacker_captures {
            AttackerCaptures::None => vec![],
            AttackerCaptures::ForwardSideways => vec![(1, 0), (-1, 0), (0, -1)],
            AttackerCaptures::All => all_dirs.to_vec(),
        }
    };
    for r in 1..=b.rings {
        for s in 0..8 {
            let from = Some((s, r));
            if b.at(from) != me {
                continue;
            }
            // Plain steps and slides.
            for &(ds, dr) in &move_dirs {
                let mut cur = from;
                while let Ok(to) = step(&b, cur, ds, dr) {
                    if to == from {
                        break;
                    }
                    if to.is_none() {
                        if me == P::A && fortress_ok(from) {
                            moves.push((from, None, None));
                        }
                        break;
                    }
                    if b.at(to) != P::Empty {
                        break;
                    }
                    moves.push((from, to, None));
                    let slides = me == P::D && rules.slide && dr == 0;
                    if !slides || neutral(to) {
                        break;
                    }
                    cur = to;
                }
                // Jump over an adjacent enemy standing in the NZ, without capture.
                if rules.jump_neutral {
                    if let Ok(mid) = step(&b, from, ds, dr) {
                        if mid.is_some() && b.at(mid) == them && neutral(mid) {
                            if let Ok(land) = step(&b, mid, ds, dr) {
                                if land.is_none() {
                                    if me == P::A && fortress_ok(from) {
                                        moves.push((from, None, None));
                                    }
                                } else if b.at(land) == P::Empty {
                                    moves.push((from, land, None));
                                }
                            }
                        }
                    }
                }
            }
            // Captures.
            if neutral(from) && !rules.capture_from_neutral {
                continue;
            }
            for &(ds, dr) in &capture_dirs {
                let long = me == P::D && rules.slide && dr == 0;
                let mut cur = from;
                let mut target = None;
                while let Ok(n) = step(&b, cur, ds, dr) {
                    if n.is_none() || n == from {
                        break;
                    }
                    match b.at(n) {
                        p if p == them => {
                            target = Some(n);
                            break;
                        }
                        P::Empty if long && !neutral(n) => cur = n,
                        _ => break,
                    }
                }
                let Some(victim) = target else { continue };
                if neutral(victim) {
                    continue;
                }
                if rules.capture == CaptureKind::Jump || rules.capture == CaptureKind::Both {
                    if let Ok(land) = step(&b, victim, ds, dr) {
                        if land.is_none() {
                            if me == P::A && fortress_ok(from) {
                                moves.push((from, None, Some(victim)));
                            }
                        } else if land != from && b.at(land) == P::Empty {
                            moves.push((from, land, Some(victim)));
                        }
                    }
                }
                if rules.capture == CaptureKind::Replace || rules.capture == CaptureKind::Both {
                    moves.push((from, victim, Some(victim)));
                }
            }
            if me == P::D && rules.fortress_capture && b.fortress == 1 && r == 1 {
                let land = Some(((s + 4) % 8, 1));
                if b.at(land) == P::Empty {
                    moves.push((from, land, Some(None)));
                }
            }
        }
    }
    moves.sort_by_key(|m| format!("{m:?}"));
    moves.dedup();
    // Whole-list rules.
    let in_nz = |p: P| {
        (1..=b.rings)
            .filter(|&r| b.cells[r as usize][0] == p)
            .count() as i32
    };
    let limit = |defs: i32| match rules.neutral_limit {
        NeutralLimit::None => i32::MAX,
        NeutralLimit::One => 1,
        NeutralLimit::Defenders => defs,
        NeutralLimit::Half => attackers_total / 2,
    };
    let mut restricted = false;
    if me == P::A {
        let before = in_nz(P::A);
        let after = |m: &(Sq, Sq, Option<Sq>)| {
            before - neutral(m.0) as i32 + (m.1.is_some() && neutral(m.1)) as i32
        };
        moves.retain(|m| {
            let a = after(m);
            a <= before || a <= limit(defenders_total - m.2.is_some() as i32)
        });
        if before > limit(defenders_total) && moves.iter().any(|m| after(m) < before) {
            moves.retain(|m| after(m) < before);
        }
    } else if rules.must_leave_neutral && in_nz(P::D) > 0 {
        let leaving = |m: &(Sq, Sq, Option<Sq>)| neutral(m.0) && !neutral(m.1);
        if moves.iter().any(leaving) {
            moves.retain(leaving);
            restricted = true;
        }
    }
    let mut out: Vec<String> = moves
        .iter()
        .map(|(f, t, c)| match c {
            None => format!("{}-{}", name(*f), name(*t)),
            Some(c) => format!("{}x{}[{}]", name(*f), name(*t), name(*c)),
        })
        .collect();
    if out.is_empty() || (me == P::D && rules.defender_pass && !restricted) {
        out.push("pass".into());
    }
    out.sort();
    out
}

/// The fast generator's moves in the same form as [`reference_moves`].
pub fn fast_moves(pos: &Position, rules: &Rules) -> Vec<String> {
    let mut list = ringo::MoveList::new();
    ringo::legal_moves(pos, rules, &mut list);
    let mut out: Vec<String> = list
        .iter()
        .map(|m| match m.captured() {
            Some(c) => format!("{m}[{c}]"),
            None => m.to_string(),
        })
        .collect();
    out.sort();
    out
}
