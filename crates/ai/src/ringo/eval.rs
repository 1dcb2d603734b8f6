//! The Ringo evaluation: a weighted sum of features of the position, computed
//! with bitboard shifts. Every tunable weight is a named field of [`Weights`],
//! in one place, so tuning can change them and tests can pin them.

use ringo::{Bitboard, Position, Rules, Side};

/// Evaluation units per logistic unit: an evaluation of +400 is a ~73% win.
pub const SCALE: f32 = 400.0;

/// The logistic curve that maps an evaluation (over [`SCALE`]) to a chance of
/// winning. The evaluation's meaning lives here, beside it: the tuner fits
/// the weights through it, and level 10's reading of its opponent turns
/// scores into chances with it.
pub(crate) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Sector `a`, the neutral zone.
const NZ: u64 = Bitboard::NEUTRAL_ZONE.0;
const H_FILE: u64 = NZ << 7;

#[inline]
fn cw(x: u64) -> u64 {
    ((x & !H_FILE) << 1) | ((x & H_FILE) >> 7)
}
#[inline]
fn ccw(x: u64) -> u64 {
    ((x & !NZ) >> 1) | ((x & NZ) << 7)
}

/// The features, each from the attackers' point of view where it has a sign.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Features {
    /// Attackers in the fortress (0–2).
    pub in_fortress: f32,
    /// Σ over attackers on the board of the rings they have come inward.
    pub progress: f32,
    /// Attackers on ring 1: one step from the fortress.
    pub on_ring_one: f32,
    /// Attackers left (board and fortress).
    pub attackers: f32,
    /// Defenders left.
    pub defenders: f32,
    /// Attackers standing (safe) in the neutral zone, up to the limit.
    pub attackers_in_neutral: f32,
    /// Defenders guarding ring 1.
    pub guards: f32,
    /// Attackers the defenders could capture at once.
    pub attackers_attacked: f32,
    /// Defenders the attackers could capture at once.
    pub defenders_attacked: f32,
    /// Attacker step moves minus defender step moves.
    pub mobility: f32,
    /// +1 when the attackers are to move, −1 otherwise.
    pub tempo: f32,
}

impl Features {
    /// The values from an array in the order of [`Features::as_array`].
    pub fn from_array(a: [f32; 11]) -> Features {
        Features {
            in_fortress: a[0],
            progress: a[1],
            on_ring_one: a[2],
            attackers: a[3],
            defenders: a[4],
            attackers_in_neutral: a[5],
            guards: a[6],
            attackers_attacked: a[7],
            defenders_attacked: a[8],
            mobility: a[9],
            tempo: a[10],
        }
    }

    /// The values as an array, in a fixed order (the order of the fields).
    pub fn as_array(&self) -> [f32; 11] {
        [
            self.in_fortress,
            self.progress,
            self.on_ring_one,
            self.attackers,
            self.defenders,
            self.attackers_in_neutral,
            self.guards,
            self.attackers_attacked,
            self.defenders_attacked,
            self.mobility,
            self.tempo,
        ]
    }
}

/// The weights of the features: one per feature, in the same layout, in
/// centipawn-like units (an attacker ≈ 100).
pub type Weights = Features;

/// The hand-set starting point of the tuning.
pub const HAND_WEIGHTS: Weights = Weights {
    in_fortress: 420.0,
    progress: 14.0,
    on_ring_one: 45.0,
    attackers: 110.0,
    defenders: -170.0,
    attackers_in_neutral: 12.0,
    guards: -28.0,
    attackers_attacked: -45.0,
    defenders_attacked: 35.0,
    mobility: 2.0,
    tempo: 8.0,
};

/// The weights the engine plays with: tuned from [`HAND_WEIGHTS`] by SPSA on
/// self-play match results, reproducibly with
/// `agon tune ringo --method spsa --games 3000 --depth 3 --verify 1000 --seed 11`
/// (3000 iterations of 8 games at depth 3, every preset with random options).
/// Against the hand-set weights they scored 0.544 over 1000 games at depth 4.
/// See docs/engine.md.
pub const WEIGHTS: Weights = Weights {
    in_fortress: 278.4,
    progress: 15.2,
    on_ring_one: 48.1,
    attackers: 121.5,
    defenders: -193.1,
    attackers_in_neutral: 14.4,
    guards: -26.4,
    attackers_attacked: -46.3,
    defenders_attacked: 35.9,
    mobility: 7.5,
    tempo: 10.2,
};

type Shift = fn(u64, u64) -> u64;

/// One step in each direction, paired with the step back: inward, outward,
/// clockwise, counter-clockwise. The second argument is the board mask.
const DIRS: [(Shift, Shift); 4] = [
    (|x, _| x >> 8, |x, b| (x << 8) & b),
    (|x, b| (x << 8) & b, |x, _| x >> 8),
    (|x, _| cw(x), |x, _| ccw(x)),
    (|x, _| ccw(x), |x, _| cw(x)),
];

/// The pieces of `victims` (outside the NZ) that `hunters` could capture at
/// once by a jump onto an empty cell, or by replacement where allowed.
/// `backward` allows the outward direction (always true for defenders).
/// `ranged` is true for the defenders under `slide=on`: along a ring they reach
/// their victim across empty non-NZ cells, as the move generator does. Without
/// it the evaluation would miss the globe preset's main threat at every leaf.
fn attacked(
    hunters: u64,
    victims: u64,
    empty: u64,
    board: u64,
    rules: &Rules,
    backward: bool,
    ranged: bool,
) -> u64 {
    // "With `off`, no capture may start on an NZ cell."
    let hunters = if rules.capture_from_neutral {
        hunters
    } else {
        hunters & !NZ
    };
    let victims = victims & !NZ;
    // Empty cells a long-range capture may cross.
    let lane = if ranged { empty & !NZ } else { 0 };
    let mut hit = 0;
    for (i, (step, back)) in DIRS.iter().enumerate() {
        if i == 1 && !backward {
            continue;
        }
        // Radial captures are always adjacent; ring captures walk the lane.
        let mut front = step(hunters, board);
        let mut reached = front & victims;
        if i >= 2 {
            // At most 6 empty cells lie between two cells of one ring.
            for _ in 0..6 {
                front = step(front & lane, board);
                if front == 0 {
                    break;
                }
                reached |= front & victims;
            }
        }
        if rules.capture.jumps() {
            hit |= back(step(reached, board) & empty, board);
        }
        if rules.capture.replaces() {
            hit |= reached;
        }
    }
    hit
}

/// The features of a position.
pub fn features(pos: &Position, rules: &Rules) -> Features {
    let rings = rules.rings;
    let board = Bitboard::board(rings).0;
    let att = pos.pieces(Side::Attackers).0;
    let def = pos.pieces(Side::Defenders).0;
    let empty = board & !(att | def);
    let mut progress = 0;
    for r in 1..=rings {
        progress += (rings - r) as u32 * (att & Bitboard::ring(r).0).count_ones();
    }
    let limit = rules
        .neutral_limit
        .limit(pos.attackers_left(), pos.defenders_left())
        .min(8);
    let att_steps = ((att >> 8) & empty).count_ones()
        + (cw(att) & empty).count_ones()
        + (ccw(att) & empty).count_ones();
    let def_steps = ((def >> 8) & empty).count_ones()
        + ((def << 8) & board & empty).count_ones()
        + (cw(def) & empty).count_ones()
        + (ccw(def) & empty).count_ones();
    let attacker_captures = rules.attacker_captures != ringo::AttackerCaptures::None;
    let backward = rules.attacker_captures == ringo::AttackerCaptures::All;
    Features {
        in_fortress: f32::from(pos.fortress()),
        progress: progress as f32,
        on_ring_one: (att & Bitboard::RING_1.0).count_ones() as f32,
        attackers: pos.attackers_left() as f32,
        defenders: pos.defenders_left() as f32,
        attackers_in_neutral: (att & NZ).count_ones().min(limit) as f32,
        guards: (def & Bitboard::RING_1.0).count_ones() as f32,
        attackers_attacked: attacked(def, att, empty, board, rules, true, rules.slide).count_ones()
            as f32,
        defenders_attacked: if attacker_captures {
            attacked(att, def, empty, board, rules, backward, false).count_ones() as f32
        } else {
            0.0
        },
        mobility: att_steps as f32 - def_steps as f32,
        tempo: if pos.to_move() == Side::Attackers {
            1.0
        } else {
            -1.0
        },
    }
}

/// The evaluation in the attackers' favour (positive: better for the attackers).
pub fn evaluate_for_attackers(pos: &Position, rules: &Rules, w: &Weights) -> i32 {
    let f = features(pos, rules).as_array();
    let w = w.as_array();
    let sum: f32 = f.iter().zip(w.iter()).map(|(a, b)| a * b).sum();
    sum.round() as i32
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Position, rules: &Rules, w: &Weights) -> i32 {
    let s = evaluate_for_attackers(pos, rules, w);
    if pos.to_move() == Side::Attackers {
        s
    } else {
        -s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_of_the_start() {
        let rules = Rules::default();
        let f = features(&Position::start(&rules), &rules);
        assert_eq!(f.attackers, 7.0);
        assert_eq!(f.defenders, 4.0);
        assert_eq!(f.progress, 0.0);
        assert_eq!(f.guards, 4.0);
        assert_eq!(f.attackers_attacked, 0.0);
        // 7 forward steps + b6-a6 and h6-a6; defenders: 4 out + 8 sideways.
        assert_eq!(f.mobility, 9.0 - 12.0);
    }

    /// The defenders' legal captures, as the bitboard of their victims on the
    /// rings (the fortress capture is not a threat to a piece on the board).
    fn capture_victims(pos: &Position, rules: &Rules) -> u64 {
        let mut list = ringo::MoveList::new();
        ringo::legal_moves(pos, rules, &mut list);
        list.iter()
            .filter_map(|m| m.captured())
            .filter(|c| !c.is_fortress())
            .fold(0, |bb, c| bb | c.bb().0)
    }

    #[test]
    fn attacked_pieces_match_the_capture_moves() {
        // The attackers under attack are exactly the pieces the defenders' legal
        // captures take.
        let rules = Rules::default();
        let pos = Position::parse(
            "......../......../......../..DA.A../....D.../......D. 0 d",
            &rules,
        )
        .unwrap();
        let f = features(&pos, &rules);
        assert_eq!(
            f.attackers_attacked,
            capture_victims(&pos, &rules).count_ones() as f32
        );
        // Under globe (`slide=on`) a defender captures along the ring across
        // empty cells: d3 takes g3 from afar (jump to h3, or replacement); the
        // attacker on a6 is safe in the neutral zone.
        let globe: Rules = "globe".parse().unwrap();
        let pos = Position::parse(
            "A......./......../......../...D..A./......../........ 0 d",
            &globe,
        )
        .unwrap();
        assert_eq!(capture_victims(&pos, &globe).count_ones(), 1);
        assert_eq!(features(&pos, &globe).attackers_attacked, 1.0);
    }

    #[test]
    fn attacked_pieces_match_the_capture_moves_in_random_games() {
        // Property: over random games under random rule sets, with the defenders
        // to move, the evaluation's threatened attackers are the victims of the
        // legal captures. Positions where `must-leave-neutral` restricts the
        // defenders' moves are skipped: there, legality depends on more than
        // the threat.
        let mut rng = crate::Rng::new(7);
        let mut checked = 0;
        for _ in 0..300 {
            let rules = crate::ringo::tune::random_rules(&mut rng);
            let mut game = ringo::Game::new(rules);
            while let Some(m) = crate::ringo::player::random_move(&game, &mut rng) {
                game.play(m).unwrap();
                let pos = game.position();
                let def = pos.pieces(Side::Defenders).0;
                if game.is_over()
                    || pos.to_move() != Side::Defenders
                    || (rules.must_leave_neutral && def & NZ != 0)
                {
                    continue;
                }
                let board = Bitboard::board(rules.rings).0;
                let att = pos.pieces(Side::Attackers).0;
                let empty = board & !(att | def);
                let threat = attacked(def, att, empty, board, &rules, true, rules.slide);
                assert_eq!(
                    threat,
                    capture_victims(pos, &rules),
                    "{} under {}",
                    pos.to_text(rules.rings),
                    rules
                );
                checked += 1;
            }
        }
        assert!(checked > 1000, "only {checked} positions checked");
    }
}
