//! Property tests over random games and random rule sets.
//!
//! Each game picks a random rule set (a preset with options changed at random)
//! and plays random legal moves. At every ply it checks that:
//! - the bitboard generator agrees with the naive reference generator;
//! - every generated move plays through the checked `Game::play` without error;
//! - every move's notation parses back to the same move;
//! - no two pieces share a cell, and the piece counts only go down;
//! - the NZ limit holds after every attacker move, allowing for the forced
//!   reduction;
//! - the position string round-trips and the incremental key matches a fresh one.

mod common;

use common::{fast_moves, random_rules, reference_moves, Rng};
use ringo::{Bitboard, Game, Move, NeutralLimit, Position, Rules, Side};

fn check_ply(game: &Game, rng: &mut Rng) -> Option<Move> {
    let rules = *game.rules();
    let pos = *game.position();
    assert_eq!(pos.key(), pos.recompute_key());
    let text = pos.to_text(rules.rings);
    assert_eq!(Position::parse(&text, &rules), Ok(pos), "{text}");
    assert!(pos
        .pieces(Side::Attackers)
        .and(pos.pieces(Side::Defenders))
        .is_empty());
    if game.is_over() {
        assert!(game.legal_moves().is_empty());
        return None;
    }
    assert_eq!(
        fast_moves(&pos, &rules),
        reference_moves(&pos, &rules),
        "rules {rules}, position {text}"
    );
    let legal = game.legal_moves();
    assert!(!legal.is_empty());
    for &m in legal.iter() {
        let written = m.to_notation(&legal);
        assert_eq!(game.parse_move(&written), Ok(m), "{written} in {text}");
    }
    Some(legal[rng.below(legal.len())])
}

fn limit(rules: &Rules, pos: &Position) -> u32 {
    rules
        .neutral_limit
        .limit(pos.attackers_left(), pos.defenders_left())
}

#[test]
fn random_games_keep_every_invariant() {
    let mut rng = Rng(2026);
    let mut finished = 0;
    for _ in 0..600 {
        let rules = random_rules(&mut rng);
        let mut game = Game::new(rules);
        for _ in 0..400 {
            let before = *game.position();
            let Some(m) = check_ply(&game, &mut rng) else {
                finished += 1;
                break;
            };
            let legal = game.legal_moves();
            game.play(m).expect("generated moves are legal");
            let after = *game.position();
            assert!(after.attackers_left() <= before.attackers_left());
            assert!(after.defenders_left() <= before.defenders_left());
            if before.to_move() == Side::Attackers && rules.neutral_limit != NeutralLimit::None {
                let (nb, na) = (before.attackers_in_neutral(), after.attackers_in_neutral());
                if na > limit(&rules, &after) {
                    // Over the limit only when the limit shrank under the
                    // attackers: the move must not have raised the count, and
                    // must have lowered it if any legal move could.
                    assert!(na <= nb, "raised the NZ count over the limit: {rules}");
                    if nb > limit(&rules, &before) {
                        let could_lower = legal.iter().any(|&l| {
                            let mut p = before;
                            p.play_unchecked(l);
                            p.attackers_in_neutral() < nb
                        });
                        assert!(na < nb || !could_lower, "forced reduction ignored");
                    }
                }
            }
        }
        // The record replays to the same game.
        let replay = Game::parse_record(&game.record()).expect("records round-trip");
        assert_eq!(replay.position(), game.position());
        assert_eq!(replay.outcome(), game.outcome());
    }
    assert!(finished > 300, "only {finished} games finished");
}

/// Random placements reach positions that games rarely do (a lone attacker in F
/// beside defenders on ring 1, crowded neutral zones, …).
#[test]
fn random_positions_agree_with_the_reference() {
    let mut rng = Rng(49);
    for _ in 0..20_000 {
        let rules = random_rules(&mut rng);
        let cells = rules.rings as usize * 8;
        let mut attackers = 0u64;
        let mut defenders = 0u64;
        let fortress = rng.below(3) as u8;
        let n_att = rng
            .below(rules.attackers as usize + 1)
            .saturating_sub(fortress as usize);
        let n_def = rng.below(5);
        // Bias towards the inner rings and the NZ, where the rules interact.
        let place = |n: usize, set: &mut u64, other: u64, rng: &mut Rng| {
            let mut placed = 0;
            while placed < n {
                let c = if rng.below(3) == 0 {
                    rng.below(rules.rings as usize) * 8
                } else if rng.below(2) == 0 {
                    rng.below(16.min(cells))
                } else {
                    rng.below(cells)
                };
                if (*set | other) & (1 << c) == 0 {
                    *set |= 1 << c;
                    placed += 1;
                }
            }
        };
        place(n_att, &mut attackers, 0, &mut rng);
        place(n_def, &mut defenders, attackers, &mut rng);
        let side = if rng.below(2) == 0 { 'a' } else { 'd' };
        let mut text = String::new();
        for ring in (1..=rules.rings).rev() {
            for s in 0..8 {
                let bit = 1u64 << ((ring as usize - 1) * 8 + s);
                text.push(if attackers & bit != 0 {
                    'A'
                } else if defenders & bit != 0 {
                    'D'
                } else {
                    '.'
                });
            }
            if ring > 1 {
                text.push('/');
            }
        }
        let text = format!("{text} {fortress} {side}");
        let pos = Position::parse(&text, &rules).expect("valid random position");
        assert_eq!(
            fast_moves(&pos, &rules),
            reference_moves(&pos, &rules),
            "rules {rules}, position {text}"
        );
        assert_eq!(Bitboard(attackers), pos.pieces(Side::Attackers));
        // Every legal move's notation round-trips through the game parser.
        let game = Game::from_position(rules, pos);
        let legal = game.legal_moves();
        for &m in legal.iter() {
            assert_eq!(game.parse_move(&m.to_notation(&legal)), Ok(m));
        }
    }
}

#[test]
fn garbage_input_never_panics() {
    let mut rng = Rng(7);
    let alphabet = b"abcdefghFx-()/. AD0123456789pass";
    let rules = Rules::default();
    let game = Game::new(rules);
    for _ in 0..20_000 {
        let len = rng.below(12);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())] as char)
            .collect();
        let _ = game.parse_move(&text);
        let _ = Position::parse(&text, &rules);
        let _ = text.parse::<Rules>();
        let _ = Game::parse_record(&text);
    }
}

/// The fast playout and a `Game` given the same choices end the same way.
#[test]
fn playouts_agree_with_games() {
    let mut rng = Rng(99);
    for _ in 0..500 {
        let rules = random_rules(&mut rng);
        let start = Position::start(&rules);
        let mut choices = vec![];
        let result = ringo::playout(&start, &rules, |n| {
            let c = rng.below(n);
            choices.push(c);
            c
        });
        let mut game = Game::new(rules);
        for c in choices {
            let legal = game.legal_moves();
            game.play(legal[c]).unwrap();
        }
        assert_eq!(game.outcome(), Some(result.outcome), "{rules}");
        assert_eq!(game.ply(), result.plies);
    }
}
