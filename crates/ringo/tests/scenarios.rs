//! Scenario tests: each sets up a position, checks the exact legal move set (or
//! the outcome), and quotes the sentence of `shared/rules/ringo.md` it checks.

use ringo::{EndReason, Game, Position, Rules, Side};

/// A game from a compact description: attacker cells, defender cells, the number
/// of attackers in F, and the side to move (`'a'` or `'d'`).
fn setup(rules: &str, attackers: &str, defenders: &str, fortress: u8, side: char) -> Game {
    let rules: Rules = rules.parse().expect("valid rules");
    let mut rows = vec![['.'; 8]; rules.rings as usize];
    for (cells, ch) in [(attackers, 'A'), (defenders, 'D')] {
        for cell in cells.split_whitespace() {
            let b = cell.as_bytes();
            let sector = (b[0] - b'a') as usize;
            let ring = (b[1] - b'0') as usize;
            rows[ring - 1][sector] = ch;
        }
    }
    let board: Vec<String> = rows.iter().rev().map(|r| r.iter().collect()).collect();
    let text = format!("{} {fortress} {side}", board.join("/"));
    Game::from_position(
        rules,
        Position::parse(&text, &rules).expect("valid position"),
    )
}

#[track_caller]
fn assert_moves(game: &Game, expected: &str) {
    let mut want: Vec<&str> = expected.split_whitespace().collect();
    want.sort_unstable();
    assert_eq!(
        game.legal_notations(),
        want,
        "in {}",
        game.position().to_text(game.rules().rings)
    );
}

/// Legal moves of the piece on one cell only (for positions with other pieces).
#[track_caller]
fn assert_moves_from(game: &Game, from: &str, expected: &str) {
    let mut want: Vec<&str> = expected.split_whitespace().collect();
    want.sort_unstable();
    let got: Vec<String> = game
        .legal_notations()
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect();
    assert_eq!(got, want);
}

fn play(game: &mut Game, moves: &str) {
    for m in moves.split_whitespace() {
        game.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
}

// ---- Section 2: pieces and set-up; every preset's start ----

#[test]
fn every_preset_starts_with_the_same_nine_attacker_moves() {
    // "Attackers (dark, "A") move first." "Attackers start on the outermost ring R"
    for preset in ["classic", "encyclopedia", "globe"] {
        assert_moves(
            &Game::new(preset.parse().unwrap()),
            "b6-a6 b6-b5 c6-c5 d6-d5 e6-e5 f6-f5 g6-g5 h6-a6 h6-h5",
        );
    }
}

#[test]
fn defenders_start_on_b1_d1_f1_h1() {
    // "Defenders start on b1 d1 f1 h1."
    let mut game = Game::new(Rules::default());
    play(&mut game, "d6-d5");
    assert_moves(
        &game,
        "b1-a1 b1-b2 b1-c1 d1-c1 d1-d2 d1-e1 f1-e1 f1-f2 f1-g1 h1-a1 h1-g1 h1-h2",
    );
}

#[test]
fn small_board_and_fewer_attackers() {
    // "R is 6 on the standard board (49 cells) and 5 on the small board (41 cells)."
    assert_moves(
        &Game::new("classic,rings=5".parse().unwrap()),
        "b5-a5 b5-b4 c5-c4 d5-d4 e5-e4 f5-f4 g5-g4 h5-a5 h5-h4",
    );
    // "6: all but e"
    assert_moves(
        &Game::new("classic,attackers=6".parse().unwrap()),
        "b6-a6 b6-b5 c6-c5 d6-d5 d6-e6 f6-e6 f6-f5 g6-g5 h6-a6 h6-h5",
    );
    // "5: all but d and f"
    assert_moves(
        &Game::new("classic,attackers=5".parse().unwrap()),
        "b6-a6 b6-b5 c6-c5 c6-d6 e6-d6 e6-e5 e6-f6 g6-f6 g6-g5 h6-a6 h6-h5",
    );
}

// ---- Section 3: moves ----

#[test]
fn attacker_steps_forward_or_sideways_never_backward() {
    // "Attacker step: to an empty cell one step forward (into F, if it holds fewer
    // than 2) or sideways. Never backward."
    assert_moves(&setup("classic", "c3", "g6", 1, 'a'), "c3-b3 c3-c2 c3-d3");
    assert_moves(&setup("classic", "c1", "g6", 1, 'a'), "c1-F c1-b1 c1-d1");
}

#[test]
fn defender_steps_every_way_but_never_into_the_fortress() {
    // "Defender step: to an empty cell one step forward, backward or sideways.
    // Never into F."
    assert_moves(
        &setup("classic", "e6 f6", "c3", 0, 'd'),
        "c3-b3 c3-c2 c3-c4 c3-d3",
    );
    assert_moves(
        &setup("classic", "e6 f6", "c1", 0, 'd'),
        "c1-b1 c1-c2 c1-d1",
    );
}

#[test]
fn a_cell_holds_one_piece() {
    // "Occupancy: a cell holds at most one piece."
    assert_moves(
        &setup("classic", "c3 c2", "g6", 0, 'a'),
        "c2-b2 c2-c1 c2-d2 c3-b3 c3-d3",
    );
}

#[test]
fn defender_slides_stop_in_the_neutral_zone() {
    // "Defender slide (option slide): sideways moves may cover any number of empty
    // cells along the ring. The slide stops on the first NZ cell it enters; it may
    // not pass through the NZ in one move."
    assert_moves(
        &setup("classic,slide=on", "e6 f6", "b3 e3", 0, 'd'),
        "b3-a3 b3-b2 b3-b4 b3-c3 b3-d3 \
         e3-c3 e3-d3 e3-e2 e3-e4 e3-f3 e3-g3 e3-h3 e3-a3",
    );
    // "A slide that starts in the NZ may leave it and go on." "Forward and backward
    // moves stay one step."
    assert_moves(
        &setup("classic,slide=on", "e6 f6", "a3 e3", 0, 'd'),
        "a3-a2 a3-a4 a3-b3 a3-c3 a3-d3 a3-f3 a3-g3 a3-h3 \
         e3-b3 e3-c3 e3-d3 e3-e2 e3-e4 e3-f3 e3-g3 e3-h3",
    );
    // Without `slide`, one step only.
    assert_moves(
        &setup("classic", "e6 f6", "b3", 0, 'd'),
        "b3-a3 b3-b2 b3-b4 b3-c3",
    );
}

// ---- Section 4: captures ----

#[test]
fn jump_captures_land_just_beyond_on_an_empty_cell() {
    // "Jump: the capturer stands next to an enemy piece and jumps over it in a
    // straight line to the cell just beyond, which must be empty. The line may run
    // sideways along the ring (wrapping) or radially along the sector."
    // "Defenders capture forward, backward and sideways."
    assert_moves(
        &setup("classic", "d3 c4 c2", "c3", 0, 'd'),
        "c3-b3 c3xc1 c3xc5 c3xe3",
    );
    // Blocked landing cells: no capture.
    assert_moves(
        &setup("classic", "d3 g6", "c3 e3", 0, 'd'),
        "c3-b3 c3-c2 c3-c4 e3-e2 e3-e4 e3-f3",
    );
    // The ring wraps: a3 jumps h3 to land on g3.
    assert_moves(
        &setup("classic", "h3", "a3", 1, 'd'),
        "a3-a2 a3-a4 a3-b3 a3xg3",
    );
}

#[test]
fn attackers_capture_forward_and_sideways_by_default() {
    // "attacker-captures: forward-sideways — the default"
    assert_moves(
        &setup("classic", "c3", "c2 d3 c4", 1, 'a'),
        "c3-b3 c3xc1 c3xe3",
    );
}

#[test]
fn attacker_jumps_into_the_fortress() {
    // "An attacker may jump forward from ring 2 over a defender on ring 1 into F
    // when F holds fewer than 2."
    assert_moves(&setup("classic", "c2", "c1", 1, 'a'), "c2-b2 c2-d2 c2xF");
    let mut game = setup("classic", "c2", "c1", 1, 'a');
    play(&mut game, "c2xF");
    assert_eq!(game.outcome().map(|o| o.reason), Some(EndReason::Fortress));
    assert_eq!(game.status_name(), "attackers-win");
}

#[test]
fn attacker_captures_all_and_none() {
    // "all — backward too"
    assert_moves(
        &setup("classic,attacker-captures=all", "c3", "c4", 1, 'a'),
        "c3-b3 c3-c2 c3-d3 c3xc5",
    );
    assert_moves(&setup("classic", "c3", "c4", 1, 'a'), "c3-b3 c3-c2 c3-d3");
    // "none — attackers never capture."
    assert_moves(
        &setup("classic,attacker-captures=none", "c3", "c2 d3", 1, 'a'),
        "c3-b3",
    );
}

#[test]
fn replacement_and_both() {
    // "Replacement (capture=replace, and half of both): the capturer moves onto the
    // enemy's adjacent cell, in a direction it may capture in."
    assert_moves(
        &setup("classic,capture=replace", "d3 c4", "c3", 0, 'd'),
        "c3-b3 c3-c2 c3xc4 c3xd3",
    );
    assert_moves(
        &setup("classic,capture=both", "d3 c4", "c3", 0, 'd'),
        "c3-b3 c3-c2 c3xc4 c3xc5 c3xd3 c3xe3",
    );
    // Attackers replace only forward and sideways.
    assert_moves(
        &setup("classic,capture=replace", "c3", "c2 c4", 1, 'a'),
        "c3-b3 c3-d3 c3xc2",
    );
}

#[test]
fn long_range_ring_captures() {
    // "Long-range ring capture (comes with slide, defenders only): along a ring, the
    // defender may be separated from the attacker it captures by empty cells. None
    // of those cells may be in the NZ. It then jumps (the cell beyond must be
    // empty) or replaces, as capture allows. Radial captures are always adjacent."
    assert_moves(
        &setup("globe", "f3 f6", "c3", 0, 'd'),
        "c3-a3 c3-b3 c3-c2 c3-c4 c3-d3 c3-e3 c3xf3 c3xg3",
    );
    // The jump may land in the NZ, but the path may not cross it.
    assert_moves(
        &setup("globe", "h3 f6", "c3", 0, 'd'),
        "c3-a3 c3-b3 c3-c2 c3-c4 c3-d3 c3-e3 c3-f3 c3-g3 c3xa3 c3xh3",
    );
    // Radial captures stay adjacent.
    assert_moves_from(
        &setup("globe", "c5 f6", "c3", 0, 'd'),
        "c3",
        "c3-a3 c3-b3 c3-c2 c3-c4 c3-d3 c3-e3 c3-f3 c3-g3 c3-h3",
    );
}

#[test]
fn ambiguous_captures_name_the_captured_cell() {
    // "Examples: d2xa2 capturing either b2 or h2 … In that case, and only then,
    // each of them is written with the captured cell in parentheses: d2xa2(b2),
    // d2xa2(h2)"
    let game = setup("globe", "b2 h2", "d2", 0, 'd');
    assert_moves(
        &game,
        "d2-c2 d2-d1 d2-d3 d2-e2 d2-f2 d2-g2 d2xa2(b2) d2xa2(h2) d2xb2 d2xh2",
    );
    // "A text without the parentheses is illegal while it is ambiguous."
    let err = game.parse_move("d2xa2").unwrap_err().to_string();
    assert!(
        err.contains("ambiguous") && err.contains("d2xa2(b2)"),
        "{err}"
    );
    // "f1xb1 as a fortress capture or a ring capture … f1xb1(F), f1xb1(c1)"
    let mut game = setup("globe", "c1", "f1", 1, 'd');
    assert_moves(
        &game,
        "f1-a1 f1-d1 f1-e1 f1-f2 f1-g1 f1-h1 f1xb1(F) f1xb1(c1) f1xc1",
    );
    play(&mut game, "f1xb1(F)");
    assert_eq!(game.position().fortress(), 0);
    assert_eq!(game.status_name(), "defenders-win");
}

#[test]
fn long_range_never_returns_to_its_start() {
    // "A slide never comes back to its start cell, and a long-range jump never
    // lands on its own start cell."
    assert_moves(
        &setup(
            "globe,capture-from-neutral=on,must-leave-neutral=off",
            "h3 f6",
            "a3",
            0,
            'd',
        ),
        "a3-a2 a3-a4 a3-b3 a3-c3 a3-d3 a3-e3 a3-f3 a3-g3 a3xg3 a3xh3",
    );
}

#[test]
fn fortress_capture() {
    // "Fortress capture (option fortress-capture, defenders only): when F holds
    // exactly one attacker, a defender on a ring-1 cell may jump over F to the
    // facing ring-1 cell, which must be empty. The attacker in F is captured."
    assert_moves(
        &setup("classic", "e5", "c1", 1, 'd'),
        "c1-b1 c1-c2 c1-d1 c1xg1",
    );
    assert_moves(
        &setup("classic,fortress-capture=off", "e5", "c1", 1, 'd'),
        "c1-b1 c1-c2 c1-d1",
    );
    // "This jump is allowed whatever capture says."
    assert_moves(
        &setup("classic,capture=replace", "e5", "c1", 1, 'd'),
        "c1-b1 c1-c2 c1-d1 c1xg1",
    );
    // The facing cell must be empty.
    assert_moves_from(
        &setup("classic", "e5", "c1 g1", 1, 'd'),
        "c1",
        "c1-b1 c1-c2 c1-d1",
    );
    // Capturing the last but one attacker wins for the defenders.
    let mut game = setup("classic", "e5", "c1", 1, 'd');
    play(&mut game, "c1xg1");
    assert_eq!(game.outcome().map(|o| o.reason), Some(EndReason::Attrition));
}

// ---- Section 5: the neutral zone ----

#[test]
fn pieces_in_the_neutral_zone_are_safe_and_may_be_jumped() {
    // "Safety: a piece in the NZ is never captured." "Jumping an NZ piece (option
    // jump-neutral): a piece may jump over an enemy piece that stands in the NZ
    // without capturing it. It is an ordinary move, written with -"
    assert_moves(
        &setup("classic", "a3", "b3", 1, 'd'),
        "b3-b2 b3-b4 b3-c3 b3-h3",
    );
    assert_moves(
        &setup("classic,jump-neutral=off", "a3", "b3", 1, 'd'),
        "b3-b2 b3-b4 b3-c3",
    );
    assert_moves(&setup("classic", "b3", "a3", 1, 'a'), "b3-b2 b3-c3 b3-h3");
    // "Nobody ever jumps their own piece."
    assert_moves_from(
        &setup("classic", "e6 f6", "a3 b3", 0, 'd'),
        "b3",
        "b3-b2 b3-b4 b3-c3",
    );
    // "an attacker may land in F when F holds fewer than 2"
    assert_moves(&setup("classic", "a2", "a1", 1, 'a'), "a2-F a2-b2 a2-h2");
}

#[test]
fn captures_may_land_in_the_neutral_zone() {
    // "Landing: a capture may land in the NZ."
    assert_moves(
        &setup("classic", "b3", "c3", 1, 'd'),
        "c3-c2 c3-c4 c3-d3 c3xa3",
    );
}

#[test]
fn capture_from_neutral() {
    // "Capturing out of the NZ: captures may start from the NZ unless
    // capture-from-neutral=off. With off, no capture may start on an NZ cell,
    // including the fortress jump from a1."
    assert_moves(
        &setup("classic", "c5", "a1", 1, 'd'),
        "a1-a2 a1-b1 a1-h1 a1xe1",
    );
    assert_moves(
        &setup("classic,capture-from-neutral=off", "c5", "a1", 1, 'd'),
        "a1-a2 a1-b1 a1-h1",
    );
    assert_moves(
        &setup("classic", "b3", "a3", 1, 'd'),
        "a3-a2 a3-a4 a3-h3 a3xc3",
    );
    assert_moves(
        &setup("classic,capture-from-neutral=off", "b3", "a3", 1, 'd'),
        "a3-a2 a3-a4 a3-h3",
    );
}

#[test]
fn neutral_limit_one_and_none() {
    // "one — 1" "An attacker move is illegal if it raises the attackers' NZ count
    // above the limit in force after the move."
    assert_moves(
        &setup("classic,neutral-limit=one", "a4 b3", "f6", 0, 'a'),
        "a4-a3 a4-b4 a4-h4 b3-b2 b3-c3",
    );
    // "none — no limit"
    assert_moves(
        &setup("encyclopedia", "a4 a5 b3", "f6", 0, 'a'),
        "a4-a3 a4-b4 a4-h4 a5-b5 a5-h5 b3-a3 b3-b2 b3-c3",
    );
}

#[test]
fn neutral_limit_defenders() {
    // "defenders — no more than the number of defenders left on the board"
    assert_moves(
        &setup("classic", "a4 b3", "f6", 0, 'a'),
        "a4-a3 a4-b4 a4-h4 b3-b2 b3-c3",
    );
    // "An attacker capture that shrinks the defenders limit is therefore legal."
    assert_moves(
        &setup("classic", "a5 a4 c3", "d3 g6", 0, 'a'),
        "a4-a3 a4-b4 a4-h4 a5-b5 a5-h5 c3-b3 c3-c2 c3xe3",
    );
    // "With no defenders left, the defenders limit is 0."
    assert_moves(&setup("classic", "b3 c3", "", 0, 'a'), "b3-b2 c3-c2 c3-d3");
}

#[test]
fn neutral_limit_half() {
    // "half — no more than ⌊(attackers on the board, F included)/2⌋."
    assert_moves(
        &setup("globe", "a5 a4 b3 e6", "g1", 0, 'a'),
        "a4-a3 a4-b4 a4-h4 a5-b5 a5-h5 b3-b2 b3-c3 e6-d6 e6-e5 e6-f6",
    );
    // F counts: 3 on the board + 1 in F = 4, limit 2.
    assert_moves_from(
        &setup("globe", "a5 a4 b3", "g1", 1, 'a'),
        "b3",
        "b3-b2 b3-c3",
    );
    // 5 attackers with one in F: limit 2 still.
    assert_moves_from(
        &setup("globe", "a5 b3 e6 f6", "g1", 1, 'a'),
        "b3",
        "b3-a3 b3-b2 b3-c3",
    );
}

#[test]
fn forced_reduction_after_the_limit_shrinks() {
    // "In those positions the attackers' next move must strictly lower their count
    // in the NZ, if any legal move does"
    assert_moves(
        &setup("classic", "a5 a4 e3", "g6", 0, 'a'),
        "a4-b4 a4-h4 a5-b5 a5-h5",
    );
    // "otherwise any legal move is allowed."
    assert_moves(
        &setup(
            "classic,neutral-limit=one,attacker-captures=none",
            "a5 a4 e2",
            "b5 h5 b4 h4",
            0,
            'a',
        ),
        "a4-a3 e2-d2 e2-e1 e2-f2",
    );
    // The reduction may be a step from a1 into F, which is not in the NZ.
    assert_moves(
        &setup("classic", "a1 a2 g5", "c6", 0, 'a'),
        "a1-F a1-b1 a1-h1 a2-b2 a2-h2",
    );
}

#[test]
fn fortress_from_neutral() {
    // "Entering F from the NZ: with fortress-from-neutral=off, no move that starts
    // on an NZ cell may end in F."
    assert_moves(&setup("classic", "a1", "e5", 1, 'a'), "a1-F a1-b1 a1-h1");
    assert_moves(
        &setup("classic,fortress-from-neutral=off", "a1", "e5", 1, 'a'),
        "a1-b1 a1-h1",
    );
    // Also a jump over an NZ defender from a2.
    assert_moves(
        &setup("classic,fortress-from-neutral=off", "a2", "a1", 1, 'a'),
        "a2-b2 a2-h2",
    );
}

#[test]
fn must_leave_neutral() {
    // "Defenders leaving the NZ (option must-leave-neutral): when the defenders'
    // turn begins with a defender in the NZ, and some legal move takes a defender
    // out of the NZ, they must play such a move."
    assert_moves(
        &setup("globe", "c3 f6", "a3", 0, 'd'),
        "a3-b3 a3-d3 a3-e3 a3-f3 a3-g3 a3-h3",
    );
    // "Captures count as leaving moves when they are allowed." (a3xb3 captures c3
    // the long way round, over the empty h3…d3.)
    assert_moves(
        &setup("globe,capture-from-neutral=on", "c3 f6", "a3", 0, 'd'),
        "a3-b3 a3-d3 a3-e3 a3-f3 a3-g3 a3-h3 a3xb3 a3xc3 a3xd3",
    );
    // Off: the NZ moves stay.
    assert_moves(
        &setup("globe,must-leave-neutral=off", "c3 f6", "a3", 0, 'd'),
        "a3-a2 a3-a4 a3-b3 a3-d3 a3-e3 a3-f3 a3-g3 a3-h3",
    );
    // "While such a move exists, a voluntary pass is not allowed."
    assert_moves(
        &setup("globe,defender-pass=on", "c3 f6", "a3", 0, 'd'),
        "a3-b3 a3-d3 a3-e3 a3-f3 a3-g3 a3-h3",
    );
    // With no leaving move, the other moves and the pass are allowed.
    assert_moves(
        &setup("globe,defender-pass=on", "b3 h3", "a3", 0, 'd'),
        "a3-a2 a3-a4 pass",
    );
}

// ---- Section 6: passing, repetition, end of game ----

#[test]
fn defender_pass() {
    // "With defender-pass=on, the defenders may also pass when they have moves."
    assert_moves(
        &setup("classic,defender-pass=on", "e6 f6", "c3", 0, 'd'),
        "c3-b3 c3-c2 c3-c4 c3-d3 pass",
    );
    let game = setup("classic", "e6 f6", "c3", 0, 'd');
    let err = game.parse_move("pass").unwrap_err().to_string();
    assert!(err.contains("only when they have no legal move"), "{err}");
}

#[test]
fn a_side_with_no_move_passes_and_two_passes_end_the_game() {
    // "A side with no legal move passes; pass is then its only move."
    let rules = "classic,fortress-from-neutral=off,capture-from-neutral=off,defender-pass=on";
    let mut game = setup(rules, "a1", "b1 h1", 1, 'a');
    assert_moves(&game, "pass");
    // "If both sides pass in a row, the defenders win" "A voluntary defender pass
    // counts toward a double pass."
    play(&mut game, "pass pass");
    assert_eq!(game.status_name(), "defenders-win");
    assert_eq!(
        game.outcome().map(|o| o.reason),
        Some(EndReason::DoublePass)
    );
    assert!(game.legal_notations().is_empty());
}

#[test]
fn attackers_never_pass_by_choice() {
    // "Attackers never pass by choice."
    let game = setup("classic,defender-pass=on", "c3", "g6", 1, 'a');
    assert!(!game.legal_notations().contains(&"pass".to_string()));
    assert!(game.parse_move("pass").is_err());
}

#[test]
fn threefold_repetition() {
    // "a position (placement plus side to move) that occurs for the third time
    // ends the game. … Under the default repetition=defenders the defenders win"
    let cycle = "b6-a6 b1-c1 a6-b6 c1-b1";
    let mut game = Game::new(Rules::default());
    play(&mut game, cycle);
    assert_eq!(game.occurrences(), 2);
    play(&mut game, "b6-a6 b1-c1 a6-b6");
    assert!(!game.is_over());
    play(&mut game, "c1-b1");
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.status_name(), "defenders-win");
    assert_eq!(
        game.outcome().map(|o| o.reason),
        Some(EndReason::Repetition)
    );
    // "Under repetition=draw the game is drawn."
    let mut game = Game::new("classic,repetition=draw".parse().unwrap());
    play(&mut game, &format!("{cycle} {cycle}"));
    assert_eq!(game.status_name(), "draw");
}

#[test]
fn repetition_counts_from_a_given_start_position() {
    // "Occurrences are counted from the start of the record, including a given
    // start position."
    let mut game = setup("classic", "c3 f6", "a5", 0, 'a');
    play(&mut game, "c3-d3 a5-a4 d3-c3 a4-a5");
    assert_eq!(game.occurrences(), 2);
    play(&mut game, "c3-d3 a5-a4 d3-c3 a4-a5");
    assert_eq!(
        game.outcome().map(|o| o.reason),
        Some(EndReason::Repetition)
    );
}

#[test]
fn a_double_pass_that_is_also_a_repetition_is_a_defenders_win() {
    // "A double pass that is also a third occurrence is a defenders' win under
    // either repetition value."
    let rules = "classic,fortress-from-neutral=off,capture-from-neutral=off,defender-pass=on,repetition=draw";
    let mut game = setup(rules, "a1", "b1 h1 e5", 1, 'a');
    // P0 -pass-> Q0 -e5-e4-> P1 -pass-> Q1 -e4-e5-> P0 (2nd) -pass-> Q0 (2nd)
    play(&mut game, "pass e5-e4 pass e4-e5 pass");
    assert!(!game.is_over());
    play(&mut game, "pass");
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.status_name(), "defenders-win");
    assert_eq!(
        game.outcome().map(|o| o.reason),
        Some(EndReason::DoublePass)
    );
}

#[test]
fn attackers_win_with_two_in_the_fortress() {
    // "Attackers win as soon as F holds 2 attackers."
    let mut game = setup("classic", "c1", "g6", 1, 'a');
    play(&mut game, "c1-F");
    assert_eq!(game.status_name(), "attackers-win");
    assert!(game.parse_move("g6-g5").is_err());
}

#[test]
fn defenders_win_when_fewer_than_two_attackers_are_left() {
    // "Defenders win as soon as fewer than 2 attackers are left (board plus F)."
    let mut game = setup("classic", "c3 h6", "c4", 0, 'd');
    play(&mut game, "c4xc2");
    assert_eq!(game.status_name(), "defenders-win");
    assert_eq!(game.position().attackers_left(), 1);
    assert_eq!(game.position().to_move(), Side::Attackers);
}

#[test]
fn illegal_moves_say_why() {
    let game = Game::new(Rules::default());
    let why = |m: &str| game.parse_move(m).unwrap_err().to_string();
    assert!(why("b1-b2").contains("defenders, but the attackers are to move"));
    assert!(why("a3-a2").contains("no piece on a3"));
    assert!(why("b6-b4").contains("cannot go to b4"));
    assert!(why("b6xb5").contains("captures nothing; write b6-b5"));
    assert!(why("b6-z9").contains("not a cell"));
    let game = setup("classic,neutral-limit=one", "a4 b3", "f6", 0, 'a');
    let why = game.parse_move("b3-a3").unwrap_err().to_string();
    assert!(why.contains("over the limit of 1"), "{why}");
    let game = setup("classic", "a5 a4 e3", "g6", 0, 'a');
    let why = game.parse_move("e3-e2").unwrap_err().to_string();
    assert!(why.contains("must move an attacker out"), "{why}");
    let game = setup("globe", "c3 f6", "a3", 0, 'd');
    let why = game.parse_move("a3-a2").unwrap_err().to_string();
    assert!(why.contains("must leave"), "{why}");
}

#[test]
fn undo_restores_the_previous_state() {
    let mut game = Game::new(Rules::default());
    play(&mut game, "b6-a6 b1-c1");
    let before = *game.position();
    play(&mut game, "a6-b6");
    assert_eq!(game.undo().map(|m| m.to_string()), Some("a6-b6".into()));
    assert_eq!(*game.position(), before);
    assert_eq!(game.ply(), 2);
}
