//! Bulk move generation with bitboard shifts: each direction's targets are found
//! for all pieces at once, then read off bit by bit. This is the fast path for
//! attackers and for defenders without `slide`; it must list exactly the moves
//! of the per-piece generators (the property tests compare both with a naive
//! reference).

use crate::board::{Bitboard, Cell, Dir};
use crate::moves::{Move, MoveList, Sink};
use crate::position::{Position, Side};
use crate::rules::{AttackerCaptures, Rules};

/// Sector `a` of every ring: the neutral zone.
const A_FILE: u64 = Bitboard::NEUTRAL_ZONE.0;
/// Sector `h` of every ring.
const H_FILE: u64 = A_FILE << 7;
/// Ring 1.
const RING_1: u64 = Bitboard::RING_1.0;

/// Moves every bit one cell in `dir`. Each ring is one byte, so sideways is a
/// rotation inside the byte; bits leaving the board (and inward from ring 1,
/// which is the fortress, handled apart) are dropped.
#[inline(always)]
fn shift(x: u64, dir: Dir, board: u64) -> u64 {
    match dir {
        Dir::Clockwise => ((x & !H_FILE) << 1) | ((x & H_FILE) >> 7),
        Dir::Counter => ((x & !A_FILE) >> 1) | ((x & A_FILE) << 7),
        Dir::In => x >> 8,
        Dir::Out => (x << 8) & board,
    }
}

/// The index one cell back from `t` against `dir` (the inverse of [`shift`]).
#[inline(always)]
fn back(t: u8, dir: Dir) -> u8 {
    match dir {
        Dir::Clockwise => (t & !7) | ((t + 7) & 7),
        Dir::Counter => (t & !7) | ((t + 1) & 7),
        Dir::In => t + 8,
        Dir::Out => t - 8,
    }
}

const F: u8 = Cell::FORTRESS.index() as u8;
const NO_CAPTURE: u8 = 255;

#[inline(always)]
fn bits(mut x: u64, mut f: impl FnMut(u8)) {
    while x != 0 {
        f(x.trailing_zeros() as u8);
        x &= x - 1;
    }
}

/// Steps into `targets`, each from one cell back against `dir`.
#[inline(always)]
fn steps(out: &mut Sink<'_>, targets: u64, dir: Dir) {
    bits(targets, |t| {
        out.push(Move::raw(back(t, dir), t, NO_CAPTURE))
    });
}

/// Jumps over the pieces in `over` (adjacent to `movers` in `dir`) onto empty
/// cells beyond: captures when `capture`, else NZ jumps.
#[inline(always)]
fn jumps(
    out: &mut Sink<'_>,
    movers: u64,
    over: u64,
    empty: u64,
    dir: Dir,
    board: u64,
    capture: bool,
) {
    let mid = shift(movers, dir, board) & over;
    let land = shift(mid, dir, board) & empty;
    bits(land, |t| {
        let m = back(t, dir);
        let captured = if capture { m } else { NO_CAPTURE };
        out.push(Move::raw(back(m, dir), t, captured));
    });
}

/// Replacement captures of the pieces in `victims` adjacent to `movers` in `dir`.
#[inline(always)]
fn replacements(out: &mut Sink<'_>, movers: u64, victims: u64, dir: Dir, board: u64) {
    let mid = shift(movers, dir, board) & victims;
    bits(mid, |t| out.push(Move::raw(back(t, dir), t, t)));
}

/// The cells next to any cell of `x` (all four directions, inside the board).
#[inline(always)]
fn adjacent(x: u64, board: u64) -> u64 {
    shift(x, Dir::In, board)
        | shift(x, Dir::Out, board)
        | shift(x, Dir::Clockwise, board)
        | shift(x, Dir::Counter, board)
}

/// Jump and replacement captures in one direction, as `capture` allows.
#[inline(always)]
fn captures(
    out: &mut Sink<'_>,
    movers: u64,
    victims: u64,
    empty: u64,
    dir: Dir,
    board: u64,
    rules: &Rules,
) {
    if rules.capture.jumps() {
        jumps(out, movers, victims, empty, dir, board, true);
    }
    if rules.capture.replaces() {
        replacements(out, movers, victims, dir, board);
    }
}

pub(super) fn attacker_moves(pos: &Position, rules: &Rules, list: &mut MoveList) {
    let mut out = list.sink();
    attacker_moves_into(pos, rules, &mut out);
    out.finish();
}

#[inline(always)]
fn attacker_moves_into(pos: &Position, rules: &Rules, out: &mut Sink<'_>) {
    let board = Bitboard::board(rules.rings).0;
    let att = pos.pieces(Side::Attackers).0;
    let def = pos.pieces(Side::Defenders).0;
    let empty = board & !(att | def);
    let fortress_open = pos.fortress() < 2;
    // Attackers that may enter F: ring-1 attackers, not from the NZ when
    // `fortress-from-neutral=off`.
    let nz_ok = if rules.fortress_from_neutral {
        !0
    } else {
        !A_FILE
    };

    steps(out, shift(att, Dir::In, board) & empty, Dir::In);
    steps(
        out,
        shift(att, Dir::Clockwise, board) & empty,
        Dir::Clockwise,
    );
    steps(out, shift(att, Dir::Counter, board) & empty, Dir::Counter);
    if fortress_open {
        bits(att & RING_1 & nz_ok, |c| {
            out.push(Move::raw(c, F, NO_CAPTURE))
        });
    }
    if rules.jump_neutral {
        let over = def & A_FILE;
        if over != 0 {
            for dir in [Dir::In, Dir::Clockwise, Dir::Counter] {
                jumps(out, att, over, empty, dir, board, false);
            }
            // Over a defender on a1 into F, from a2 (an NZ cell).
            if fortress_open && rules.fortress_from_neutral {
                bits((att >> 8) & over & RING_1, |m| {
                    out.push(Move::raw(m + 8, F, NO_CAPTURE))
                });
            }
        }
    }
    if rules.attacker_captures == AttackerCaptures::None {
        return;
    }
    let movers = if rules.capture_from_neutral {
        att
    } else {
        att & !A_FILE
    };
    // "A piece in the NZ is never captured."
    let victims = def & !A_FILE;
    // Only attackers next to a capturable defender matter; usually there are none.
    if adjacent(victims, board) & movers != 0 {
        captures(out, movers, victims, empty, Dir::In, board, rules);
        captures(out, movers, victims, empty, Dir::Clockwise, board, rules);
        captures(out, movers, victims, empty, Dir::Counter, board, rules);
        if rules.attacker_captures == AttackerCaptures::All {
            captures(out, movers, victims, empty, Dir::Out, board, rules);
        }
    }
    // Forward jump from ring 2 over a ring-1 defender into F. The victim is not in
    // the NZ, so neither is the capturer (same sector).
    if fortress_open && rules.capture.jumps() {
        bits((movers >> 8) & victims & RING_1, |m| {
            out.push(Move::raw(m + 8, F, m))
        });
    }
}

pub(super) fn defender_moves(pos: &Position, rules: &Rules, list: &mut MoveList) {
    let mut out = list.sink();
    defender_moves_into(pos, rules, &mut out);
    out.finish();
}

#[inline(always)]
fn defender_moves_into(pos: &Position, rules: &Rules, out: &mut Sink<'_>) {
    let board = Bitboard::board(rules.rings).0;
    let att = pos.pieces(Side::Attackers).0;
    let def = pos.pieces(Side::Defenders).0;
    let empty = board & !(att | def);

    // `x >> 8` drops ring 1, so no defender steps into F.
    steps(out, shift(def, Dir::In, board) & empty, Dir::In);
    steps(out, shift(def, Dir::Out, board) & empty, Dir::Out);
    steps(
        out,
        shift(def, Dir::Clockwise, board) & empty,
        Dir::Clockwise,
    );
    steps(out, shift(def, Dir::Counter, board) & empty, Dir::Counter);
    if rules.jump_neutral {
        let over = att & A_FILE;
        if adjacent(over, board) & def != 0 {
            for dir in Dir::ALL {
                jumps(out, def, over, empty, dir, board, false);
            }
        }
    }
    let movers = if rules.capture_from_neutral {
        def
    } else {
        def & !A_FILE
    };
    let victims = att & !A_FILE;
    if adjacent(victims, board) & movers != 0 {
        captures(out, movers, victims, empty, Dir::In, board, rules);
        captures(out, movers, victims, empty, Dir::Out, board, rules);
        captures(out, movers, victims, empty, Dir::Clockwise, board, rules);
        captures(out, movers, victims, empty, Dir::Counter, board, rules);
    }
    if rules.fortress_capture && pos.fortress() == 1 {
        bits(movers & RING_1, |c| {
            let facing = (c + 4) % 8;
            if empty & (1 << facing) != 0 {
                out.push(Move::raw(c, facing, F));
            }
        });
    }
}
