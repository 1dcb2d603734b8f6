//! Legal move generation (sections 3–6 of the rules page).
//!
//! Generation runs in two stages. [`pseudo_moves`] lists every move the pieces can
//! make by movement and capture rules alone. [`legal_moves`] then applies the
//! rules that look at the whole move list: the neutral-zone limit, its forced
//! reduction, `must-leave-neutral`, and passing. Keeping the stages apart lets
//! [`explain_illegal`] say which rule forbids a move.

use crate::board::{across_fortress, neighbour, Bitboard, Cell, Dir};

mod bulk;
use crate::moves::{Move, MoveList};
use crate::position::{Position, Side};
use crate::rules::{NeutralLimit, Rules};

/// True when the position itself ends the game: 2 attackers in `F`, or fewer than
/// 2 attackers left. (Double passes and repetition need the game's history; see
/// [`crate::Game`].)
#[inline]
pub fn position_is_terminal(pos: &Position) -> bool {
    pos.fortress() >= 2 || pos.attackers_left() < 2
}

/// Who has won when the position itself ends the game ([`position_is_terminal`]):
/// the attackers with 2 in `F`, else the defenders; `None` while it goes on.
#[inline]
pub fn position_winner(pos: &Position) -> Option<Side> {
    if pos.fortress() >= 2 {
        Some(Side::Attackers)
    } else if pos.attackers_left() < 2 {
        Some(Side::Defenders)
    } else {
        None
    }
}

/// Lists the moves of the side to move by the movement and capture rules alone,
/// before the neutral-zone limit, `must-leave-neutral` and passing are applied.
pub fn pseudo_moves(pos: &Position, rules: &Rules, out: &mut MoveList) {
    out.clear();
    if !position_is_terminal(pos) {
        generate(pos, rules, out);
    }
}

#[inline(always)]
fn generate(pos: &Position, rules: &Rules, out: &mut MoveList) {
    match pos.to_move() {
        Side::Attackers => bulk::attacker_moves(pos, rules, out),
        Side::Defenders if rules.slide => defender_moves_sliding(pos, rules, out),
        Side::Defenders => bulk::defender_moves(pos, rules, out),
    }
}

/// Lists the legal moves of the side to move into `out`: empty when the position
/// is terminal, `[pass]` when the side has nothing else, and with a voluntary
/// pass added where `defender-pass` allows it.
pub fn legal_moves(pos: &Position, rules: &Rules, out: &mut MoveList) {
    out.clear();
    if position_is_terminal(pos) {
        return;
    }
    generate(pos, rules, out);
    let mut restricted = false;
    match pos.to_move() {
        Side::Attackers => apply_neutral_limit(pos, rules, out),
        Side::Defenders => restricted = apply_must_leave(pos, rules, out),
    }
    if out.is_empty() || (pos.to_move() == Side::Defenders && rules.defender_pass && !restricted) {
        out.push(Move::PASS);
    }
}

/// True for a raw index of an NZ cell (sector a; not the fortress or "none").
#[inline(always)]
fn raw_neutral(i: u8) -> bool {
    i < 48 && i & 7 == 0
}

/// True when no attacker move can be filtered by the neutral-zone limit: one
/// more attacker in the NZ still fits even after a capture shrinks the limit,
/// and the count is not over the limit now.
#[inline]
fn neutral_limit_is_slack(pos: &Position, rules: &Rules) -> bool {
    if rules.neutral_limit == NeutralLimit::None {
        return true;
    }
    let before = pos.attackers_in_neutral();
    let (attackers, defenders) = (pos.attackers_left(), pos.defenders_left());
    before
        < rules
            .neutral_limit
            .limit(attackers, defenders.saturating_sub(1))
        && before <= rules.neutral_limit.limit(attackers, defenders)
}

/// The attackers' NZ count after an attacker move.
#[inline]
fn neutral_after(before: u32, m: Move) -> u32 {
    let (from, to, _) = m.raw_parts();
    before - raw_neutral(from) as u32 + raw_neutral(to) as u32
}

/// The NZ limit in force after an attacker move (a capture may shrink the
/// `defenders` limit).
#[inline]
fn limit_after(pos: &Position, rules: &Rules, m: Move) -> u32 {
    let defenders = pos.defenders_left() - m.is_capture() as u32;
    rules.neutral_limit.limit(pos.attackers_left(), defenders)
}

/// Section 5, "Attacker limit": a move may not *raise* the attackers' NZ count
/// above the limit in force after it; and when the count is already over the
/// limit, the move must strictly lower it if any legal move does.
fn apply_neutral_limit(pos: &Position, rules: &Rules, out: &mut MoveList) {
    if neutral_limit_is_slack(pos, rules) {
        return;
    }
    let before = pos.attackers_in_neutral();
    out.retain(|m| {
        let after = neutral_after(before, m);
        after <= before || after <= limit_after(pos, rules, m)
    });
    let limit_now = rules
        .neutral_limit
        .limit(pos.attackers_left(), pos.defenders_left());
    if before > limit_now && out.iter().any(|&m| neutral_after(before, m) < before) {
        out.retain(|m| neutral_after(before, m) < before);
    }
}

/// True when `m` takes a defender out of the NZ.
#[inline]
fn leaves_neutral(m: Move) -> bool {
    let (from, to, _) = m.raw_parts();
    raw_neutral(from) && !raw_neutral(to)
}

/// Section 5, "Defenders leaving the NZ". Returns true when the restriction applied
/// (so no voluntary pass is allowed).
fn apply_must_leave(pos: &Position, rules: &Rules, out: &mut MoveList) -> bool {
    if !rules.must_leave_neutral
        || pos
            .pieces(Side::Defenders)
            .and(Bitboard::NEUTRAL_ZONE)
            .is_empty()
        || !out.iter().any(|&m| leaves_neutral(m))
    {
        return false;
    }
    out.retain(leaves_neutral);
    true
}

/// Per-piece defender generation, used with `slide=on` (slides and long-range
/// captures walk the ring cell by cell).
fn defender_moves_sliding(pos: &Position, rules: &Rules, out: &mut MoveList) {
    let own = pos.pieces(Side::Defenders);
    let enemy = pos.pieces(Side::Attackers);
    let occupied = own.or(enemy);
    let rings = rules.rings;
    for from in own.iter() {
        let first = out.len();
        let from_neutral = from.is_neutral();
        // Radial steps, one cell; never into F.
        for dir in [Dir::In, Dir::Out] {
            let Some(n) = neighbour(from, dir, rings).filter(|c| !c.is_fortress()) else {
                continue;
            };
            if !occupied.contains(n) {
                out.push(Move::quiet(from, n));
            } else if rules.jump_neutral && enemy.contains(n) && n.is_neutral() {
                if let Some(b) = neighbour(n, dir, rings) {
                    if !b.is_fortress() && !occupied.contains(b) {
                        out.push(Move::quiet(from, b));
                    }
                }
            }
        }
        // Sideways steps, or slides with `slide=on`. A slide stops on the first NZ
        // cell it enters and never comes back to its start cell. Two slides from
        // the NZ can reach one cell both ways round, hence `push_unique`.
        for dir in Dir::SIDEWAYS {
            let mut cur = from;
            while let Some(n) = neighbour(cur, dir, rings) {
                if n == from {
                    break;
                }
                if occupied.contains(n) {
                    if cur == from && rules.jump_neutral && enemy.contains(n) && n.is_neutral() {
                        if let Some(b) = neighbour(n, dir, rings) {
                            if !occupied.contains(b) {
                                out.push_unique(Move::quiet(from, b), first);
                            }
                        }
                    }
                    break;
                }
                out.push_unique(Move::quiet(from, n), first);
                if !rules.slide || n.is_neutral() {
                    break;
                }
                cur = n;
            }
        }
        if from_neutral && !rules.capture_from_neutral {
            continue;
        }
        // Radial captures are always adjacent; a defender never lands in F.
        for dir in [Dir::In, Dir::Out] {
            let Some(n) = neighbour(from, dir, rings) else {
                continue;
            };
            if !enemy.contains(n) || n.is_neutral() {
                continue;
            }
            if rules.capture.jumps() {
                if let Some(b) = neighbour(n, dir, rings) {
                    if !b.is_fortress() && !occupied.contains(b) {
                        out.push(Move::capture(from, b, n));
                    }
                }
            }
            if rules.capture.replaces() {
                out.push(Move::capture(from, n, n));
            }
        }
        // Ring captures; with `slide=on` across empty non-NZ cells (long range).
        for dir in Dir::SIDEWAYS {
            let mut cur = from;
            while let Some(n) = neighbour(cur, dir, rings) {
                if n == from || own.contains(n) {
                    break;
                }
                if enemy.contains(n) {
                    if n.is_neutral() {
                        break;
                    }
                    if rules.capture.jumps() {
                        if let Some(b) = neighbour(n, dir, rings) {
                            // "a long-range jump never lands on its own start cell"
                            if b != from && !occupied.contains(b) {
                                out.push_unique(Move::capture(from, b, n), first);
                            }
                        }
                    }
                    if rules.capture.replaces() {
                        out.push_unique(Move::capture(from, n, n), first);
                    }
                    break;
                }
                // An empty cell between capturer and captured: never an NZ cell.
                if !rules.slide || n.is_neutral() {
                    break;
                }
                cur = n;
            }
        }
        // Fortress capture: over a lone attacker in F to the facing ring-1 cell.
        if rules.fortress_capture && pos.fortress() == 1 && from.ring() == Some(1) {
            let facing = across_fortress(from);
            if !occupied.contains(facing) {
                out.push(Move::capture(from, facing, Cell::FORTRESS));
            }
        }
    }
}

/// Says why `m` is not legal here, in words for a player. `m` should be a move
/// that [`legal_moves`] does not list.
pub fn explain_illegal(pos: &Position, rules: &Rules, m: Move) -> String {
    if position_is_terminal(pos) {
        return "the game is over".into();
    }
    let side = pos.to_move();
    if m.is_pass() {
        return match side {
            Side::Defenders if rules.defender_pass => {
                "a defender in the neutral zone must leave it (must-leave-neutral)".into()
            }
            _ => format!(
                "the {} may pass only when they have no legal move",
                side.name()
            ),
        };
    }
    let (Some(from), Some(to)) = (m.from(), m.to()) else {
        return "not a move".into();
    };
    match pos.piece_at(from) {
        None => return format!("there is no piece on {from}"),
        Some(s) if s != side => {
            return format!(
                "{from} holds one of the {}, but the {} are to move",
                s.name(),
                side.name()
            )
        }
        _ => {}
    }
    let mut pseudo = MoveList::new();
    pseudo_moves(pos, rules, &mut pseudo);
    if pseudo.contains(&m) {
        if side == Side::Attackers {
            let before = pos.attackers_in_neutral();
            let after = neutral_after(before, m);
            let limit = limit_after(pos, rules, m);
            if after > before && after > limit {
                return format!(
                    "it would put {after} attackers in the neutral zone, over the limit of {limit} (neutral-limit)"
                );
            }
            return "the attackers are over the neutral-zone limit and must move an attacker out of it".into();
        }
        return "a defender in the neutral zone must leave it (must-leave-neutral)".into();
    }
    // Same cells, other kind: say how to write it.
    if let Some(other) = pseudo
        .iter()
        .find(|o| o.from() == Some(from) && o.to() == Some(to))
    {
        return if other.is_capture() {
            format!("it captures; write {other}")
        } else {
            format!("it captures nothing; write {other}")
        };
    }
    let from_here: Vec<String> = pseudo
        .iter()
        .filter(|o| o.from() == Some(from))
        .map(|o| o.to_notation(&pseudo))
        .collect();
    if from_here.is_empty() {
        format!("the piece on {from} has no legal move")
    } else {
        format!(
            "the piece on {from} cannot go to {to}; its moves are {}",
            from_here.join(" ")
        )
    }
}
