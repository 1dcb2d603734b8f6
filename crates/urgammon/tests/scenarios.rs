//! Scenario tests: each sets up a game, checks the legal moves or the way the
//! turn moves on, and quotes the sentence of `shared/rules/urgammon.md` it checks.

use urgammon::{
    promote, DrawRule, Game, House, Kind, Match, MatchSettings, Phase, Position, ResultKind, Side,
    Stake, State, CHANCE_FACES,
};

use Kind::{Chariot as C, Hero as H, Pawn as P};
use Side::{Dark as D, Light as L};

fn h(name: &str) -> House {
    House::parse(name).unwrap()
}

/// A state from pieces on the board `(side, house, kind)` and in the palace, with
/// `to_roll` about to roll and `starter` the side that started.
fn setup(
    board: &[(Side, &str, Kind)],
    palace: &[(Side, Kind, u8)],
    to_roll: Side,
    starter: Side,
) -> State {
    let board: Vec<(Side, House, Kind)> = board.iter().map(|&(s, n, k)| (s, h(n), k)).collect();
    State::from_position(Position::setup(&board, palace).unwrap(), to_roll, starter)
}

/// Applies tokens in text form, panicking with the reason on failure.
fn play(state: &mut State, tokens: &str) {
    for t in tokens.split_whitespace() {
        let token = urgammon::TokenText::parse(t)
            .and_then(|tt| tt.resolve(state))
            .unwrap_or_else(|e| panic!("{t}: {e}"));
        state.apply(token).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
}

fn try_play(state: &State, t: &str) -> Result<State, String> {
    let mut s = *state;
    let token = urgammon::TokenText::parse(t)
        .and_then(|t| t.resolve(&s))
        .map_err(|e| e.to_string())?;
    s.apply(token).map_err(|e| e.to_string())?;
    Ok(s)
}

fn moves(state: &State) -> Vec<String> {
    let side = state.to_act().unwrap();
    let mut v: Vec<String> = state.moves().iter().map(|m| m.notation(side)).collect();
    v.sort();
    v
}

fn promoted(state: &State) -> Vec<String> {
    let side = state.to_act().unwrap();
    let mut v: Vec<String> = state
        .promoted_moves()
        .iter()
        .map(|m| m.notation(side))
        .collect();
    v.sort();
    v
}

// ---- Section 3: dice ----

#[test]
fn dice() {
    // "a d6 with faces 1, 1, 2, 2, 3, 4"
    assert_eq!(CHANCE_FACES, [1, 1, 2, 2, 3, 4]);
    // "A YES promotes the chance value: 1→5, 2→6, 3→7, 4→10"
    assert_eq!([1, 2, 3, 4].map(promote), [5, 6, 7, 10]);
}

// ---- Section 4: a turn ----

#[test]
fn the_example_opening() {
    // "Example opening: start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1 2a-3a. The tie
    // is rolled again; light rolled lower and enters a pawn on 2a; dark rolls 3
    // and enters on 3b; light rolls 4 and enters on the 4a rosette, so it rolls
    // again, a 1, and moves 2a to 3a."
    let mut game = Game::new();
    game.apply_text("start:3-3").unwrap();
    assert_eq!(game.state().phase(), Phase::Opening);
    game.apply_text("start:2-3").unwrap();
    assert_eq!(game.state().to_act(), Some(L));
    assert_eq!(game.state().value(), Some(2));
    game.apply_all("P-2a r3 P-3b r4 P-4a", 3).unwrap();
    assert_eq!(
        game.state().to_act(),
        Some(L),
        "the rosette gives light another roll"
    );
    assert_eq!(game.state().phase(), Phase::Roll);
    game.apply_all("r1 2a-3a", 8).unwrap();
    assert_eq!(game.state().to_act(), Some(D));
    assert_eq!(
        game.record(),
        "start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1 2a-3a"
    );
}

#[test]
fn the_lower_opening_roll_starts_with_that_value() {
    // "Both players roll the chance die; ties are rolled again. The lower roll
    // starts and plays its first move with that value."
    let mut game = Game::parse("start:4-1").unwrap();
    assert_eq!(game.state().to_act(), Some(D));
    assert_eq!(game.state().starter(), Some(D));
    assert_eq!(game.state().phase(), Phase::Move);
    assert!(game.apply_text("r2").is_err(), "it rolls no new chance die");
    game.apply_text("P-1b").unwrap();
    assert_eq!(game.state().to_act(), Some(L));
}

#[test]
fn turns_open_with_a_roll_and_a_tied_opening_roll_opens_none() {
    // "Both players roll the chance die; ties are rolled again." The record
    // of the example opening holds four turns: the opening roll that decided
    // (the tie before it is rolled again) and three chance rolls, one of them
    // followed by the verdict die inside the same turn.
    let game = Game::parse("start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1 v+ 2a-7").unwrap();
    let opening: Vec<bool> = game.tokens().iter().map(|t| t.opens_turn()).collect();
    assert_eq!(
        opening,
        [false, true, false, true, false, true, false, true, false, false]
    );
}

#[test]
fn no_move_and_no_promoted_move_ends_the_turn() {
    // "If P(c) is empty, the verdict die may not be rolled. If M(c) is also empty,
    // the turn ends"
    // 13b (15) + 3 and 12b (16) + 3 pass the palace, and they are not the last
    // piece; YES (7) would too; no pawn waits to enter.
    let mut s = setup(
        &[(L, "13b", P), (L, "12b", P)],
        &[(L, P, 1), (L, C, 3), (L, H, 1)],
        L,
        L,
    );
    play(&mut s, "r3");
    assert_eq!(s.to_act(), Some(D));
    assert_eq!(s.phase(), Phase::Roll);
}

#[test]
fn the_verdict_die_is_forbidden_without_a_promoted_move() {
    // "If P(c) is empty, the verdict die may not be rolled. … otherwise the player
    // plays a move from M(c)."
    let mut game = Game::parse("start:2-3").unwrap();
    assert!(game.state().promoted_moves().is_empty());
    assert_eq!(game.state().phase(), Phase::Move);
    let err = game.apply_text("v+").unwrap_err().to_string();
    assert!(err.contains("may not be rolled"), "{err}");
}

#[test]
fn the_verdict_die_is_forced_when_only_a_promoted_move_exists() {
    // "If P(c) is not empty and M(c) is empty, the verdict die must be rolled."
    // With a 1 every light piece is blocked (own pieces, and the dark hero on 5
    // that a chariot cannot capture); with YES (5) they can all step.
    let board = [
        (L, "1a", P),
        (L, "2a", P),
        (L, "3a", P),
        (L, "4a", C),
        (D, "5", H),
    ];
    let mut s = setup(&board, &[], L, L);
    play(&mut s, "r1");
    assert_eq!(s.phase(), Phase::Verdict);
    assert!(s.moves().is_empty());
    assert_eq!(promoted(&s), ["1a-6", "2a-7", "3a-8", "4a-9"]);
    assert!(try_play(&s, "4a-5").is_err());
    play(&mut s, "v+ 4a-9");
    assert_eq!(s.to_act(), Some(D));
}

#[test]
fn the_player_chooses_when_both_sets_exist() {
    // "If both are non-empty, the player chooses: play a move from M(c), or roll
    // the verdict die."
    let mut s = setup(&[(L, "1a", P), (L, "2a", P), (L, "3a", P)], &[], L, L);
    play(&mut s, "r1");
    assert_eq!(s.phase(), Phase::Decide);
    assert_eq!(moves(&s), ["3a-4a"]);
    assert_eq!(promoted(&s), ["1a-6", "2a-7", "3a-8", "C-5"]);
    // "YES: the player plays a move from P(c)"
    let mut yes = s;
    play(&mut yes, "v+");
    assert_eq!(yes.phase(), Phase::Move);
    assert_eq!(yes.value(), Some(5));
    assert_eq!(moves(&yes), ["1a-6", "2a-7", "3a-8", "C-5"]);
    // "NO: the turn ends."
    let mut no = s;
    play(&mut no, "v-");
    assert_eq!(no.to_act(), Some(D));
    // Or simply move.
    play(&mut s, "3a-4a");
    assert_eq!(s.to_act(), Some(L), "4a is a rosette");
}

#[test]
fn rosette_bonus_repeats_and_the_verdict_die_may_be_used_again() {
    // "Rosette bonus: if the move ended on a rosette, the same player rolls again
    // from step 1. This repeats without limit."
    let mut s = setup(&[(L, "1a", P), (L, "2a", P), (L, "3a", P)], &[], L, L);
    play(&mut s, "r1 3a-4a r4 4a-8 r1 v+ 1a-6");
    assert_eq!(s.to_act(), Some(D));
}

#[test]
fn a_move_must_use_the_exact_value() {
    // "A move must use the exact value." "It jumps over any pieces on the way."
    let mut s = setup(&[(L, "5", P), (L, "6", P), (D, "7", P)], &[(L, P, 1)], L, L);
    play(&mut s, "r3");
    assert_eq!(moves(&s), ["5-8", "6-9"]);
}

#[test]
fn steps_may_not_end_on_an_own_piece() {
    // "It may not end on a piece of its own side."
    let mut s = setup(&[(L, "5", P), (L, "7", C)], &[(L, P, 2)], L, L);
    play(&mut s, "r2");
    assert_eq!(moves(&s), ["7-9"]);
}

#[test]
fn captures_follow_the_table_and_never_on_a_rosette() {
    // "If it ends on an enemy piece, it captures that piece when the capture table
    // allows and the house is not a rosette; otherwise the move is illegal."
    // "a pawn captures pawns; a chariot captures pawns and chariots; the hero
    // captures everything."
    let pieces = [
        (L, "5", P),   // +1 = 6: a dark pawn → capture
        (L, "7", P),   // +1 = 8: a dark pawn on the rosette 8 → never
        (L, "13a", P), // +1 = 14: a dark chariot → not for a pawn
        (L, "9", C),   // +1 = 10: the dark hero → not for a chariot
        (L, "11", H),  // +1 = 12a: a dark chariot on its gate rosette → never
        (D, "6", P),
        (D, "8", P),
        (D, "14", C),
        (D, "10", H),
        (D, "12a", C),
    ];
    let mut s = setup(&pieces, &[], L, L);
    play(&mut s, "r1");
    assert_eq!(moves(&s), ["5x6"]);
    // "A captured piece goes back to its owner's waiting area."
    play(&mut s, "5x6");
    assert_eq!(s.position().army(D).waiting(P), 2);
    // The hero captures everything, a chariot captures chariots.
    let mut s = setup(
        &[(L, "8", H), (L, "9", C), (D, "10", H), (D, "11", C)],
        &[(L, P, 3)],
        L,
        L,
    );
    play(&mut s, "r2");
    assert_eq!(moves(&s), ["8x10", "9x11"]);
}

#[test]
fn the_upper_city_is_a_loop_travelled_both_ways() {
    // "light: … 11 12a 13a 14 13b 12b → palace; dark: … 11 12b 13b 14 13a 12a"
    let mut s = setup(
        &[(L, "13a", P), (D, "13b", P)],
        &[(L, P, 2), (D, P, 2)],
        L,
        L,
    );
    play(&mut s, "r2"); // 13a → 14 → 13b: captures dark's pawn
    assert_eq!(moves(&s), ["13ax13b"]);
}

#[test]
fn a_step_may_not_go_beyond_the_palace() {
    // "A step may not go beyond the palace. A step that reaches the palace exactly
    // is a bear-off"
    let mut s = setup(&[(L, "13b", P), (L, "14", C)], &[(L, P, 2)], L, L);
    play(&mut s, "r3"); // 13b (15) + 3 = 18: beyond; 14 (14) + 3 = 17: off
    assert_eq!(moves(&s), ["14-off"]);
}

#[test]
fn pawns_enter_on_their_own_field() {
    // "Enter a pawn: with c = 1–4 the pawn enters on house c of its own field
    // (1a–4a for light), which must not hold a piece of its own side. Entering on
    // 4a or 4b is landing on a rosette."
    let mut s = setup(&[(L, "3a", P)], &[], L, L);
    play(&mut s, "r3");
    assert_eq!(moves(&s), ["3a-6"]);
    let mut s = setup(&[], &[], D, D);
    play(&mut s, "r4 P-4b");
    assert_eq!(s.to_act(), Some(D));
}

#[test]
fn a_blocked_entry_still_leaves_other_moves() {
    // "The source says a blocked entry "loses the turn": that is the ordinary rule
    // that a player with no legal move loses the turn. Any other legal move may
    // still be played [decision]."
    let mut s = setup(&[(L, "2a", P), (L, "9", C)], &[], L, L);
    play(&mut s, "r2");
    assert_eq!(moves(&s), ["2a-4a", "9-11"]);
}

#[test]
fn chariots_and_the_hero_enter_only_with_no_pawn_waiting() {
    // "Enter a chariot: with p = 5, 6 or 7 the chariot enters on house 5, 6 or 7,
    // capturing there as a step would. This is allowed only when none of the
    // side's pawns is waiting; each pawn is on the board or in the palace."
    let mut s = setup(&[(L, "2a", P), (L, "3a", P)], &[], L, L);
    play(&mut s, "r2");
    assert_eq!(promoted(&s), ["2a-8", "3a-9"], "a pawn still waits");
    let mut s = setup(
        &[(L, "2a", P), (L, "3a", P), (D, "6", P)],
        &[(L, P, 1)],
        L,
        L,
    );
    play(&mut s, "r2");
    assert_eq!(promoted(&s), ["2a-8", "3a-9", "Cx6"]);
    // "Enter the hero: with p = 10 the hero enters on house 10, capturing there as
    // a step would."
    let mut s = setup(&[(D, "10", C)], &[(L, P, 3)], L, L);
    play(&mut s, "r4 v+");
    assert_eq!(moves(&s), ["Hx10"]);
    play(&mut s, "Hx10");
    assert_eq!(s.position().at(h("10")), Some((L, H)));
}

#[test]
fn bearing_off_is_exact_except_for_the_last_piece() {
    // "Bear off: with a chance value c and no verdict roll, a piece whose progress
    // is 13–16 goes to the palace when its progress plus c equals 17."
    let mut s = setup(
        &[(L, "13a", P), (L, "12b", C)],
        &[(L, P, 2), (L, C, 2), (L, H, 1)],
        L,
        L,
    );
    play(&mut s, "r4"); // 13a is progress 13: 13 + 4 = 17
    assert_eq!(moves(&s), ["13a-off"]);
    // "If it is the side's last piece, the other 6 are already in the palace, and
    // progress plus c ≥ 17 is enough."
    let mut s = setup(&[(L, "13b", H)], &[(L, P, 3), (L, C, 3)], L, L);
    play(&mut s, "r4"); // 15 + 4 = 19 ≥ 17
    assert_eq!(moves(&s), ["13b-off"]);
}

#[test]
fn bearing_off_never_uses_a_promoted_value() {
    // "Bearing off never uses a promoted value." The last piece on 12b (16) with
    // YES (5): beyond the palace, and promoted, so no move.
    let mut s = setup(
        &[(L, "12b", H), (L, "2a", P)],
        &[(L, P, 2), (L, C, 3)],
        L,
        L,
    );
    play(&mut s, "r1");
    assert_eq!(moves(&s), ["12b-off", "2a-3a"]);
    assert_eq!(promoted(&s), ["2a-7"]);
}

#[test]
fn no_one_may_give_up_a_legal_move() {
    // "The player may not give up a legal move." There is no pass token.
    let s = Game::parse("start:1-2").unwrap();
    assert!(s.clone().apply_text("pass").is_err());
    assert!(s.clone().apply_text("r1").is_err());
}

// ---- Section 5: a game ----

#[test]
fn the_non_starter_finishing_first_wins_at_once() {
    // "If the non-starting player finishes first, it wins at once."
    let mut s = setup(
        &[(D, "12a", H), (L, "5", P)],
        &[(D, P, 3), (D, C, 3), (L, P, 1)],
        D,
        L,
    );
    play(&mut s, "r1 12a-off");
    assert_eq!(s.phase(), Phase::Over);
    let r = s.result().unwrap();
    assert_eq!(
        (r.winner, r.points, r.kind),
        (Some(D), 3, ResultKind::Waiting)
    );
}

#[test]
fn the_starter_finishing_gives_a_compensation_turn() {
    // "If the starting player finishes first, the other player gets one more full
    // turn (with rosette bonuses)."
    let board = [(L, "12b", H), (D, "3b", P), (D, "13a", C)];
    let palace = [(L, P, 3), (L, C, 3), (D, P, 2), (D, C, 2), (D, H, 1)];
    let mut s = setup(&board, &palace, L, L);
    play(&mut s, "r1 12b-off");
    assert_eq!(s.to_act(), Some(D));
    assert!(s.last_turn());
    // Dark moves 3b to the 4b rosette and rolls again: the turn goes on.
    play(&mut s, "r1 3b-4b");
    assert!(s.last_turn() && s.phase() == Phase::Roll);
    // "The compensation turn ends the game however it ends: with a move, a v-, or
    // no legal move." "Otherwise the finisher wins. The loss is then scored on the
    // loser's position at the end of play."
    play(&mut s, "r2 4b-6");
    let r = s.result().unwrap();
    assert_eq!(
        (r.winner, r.points, r.kind),
        (Some(L), 2, ResultKind::Streets)
    );
    assert!(!s.last_turn());
    assert_eq!(s.to_act(), None);
}

#[test]
fn finishing_in_the_compensation_turn_is_a_draw() {
    // "If it also finishes in that turn, the game is a draw."
    let board = [(L, "12b", H), (D, "12a", H)];
    let palace = [(L, P, 3), (L, C, 3), (D, P, 3), (D, C, 3)];
    let mut s = setup(&board, &palace, L, L);
    play(&mut s, "r1 12b-off r3 12a-off");
    let r = s.result().unwrap();
    assert_eq!((r.winner, r.points, r.kind), (None, 0, ResultKind::Draw));
}

#[test]
fn the_compensation_turn_ends_with_v_minus_or_no_move() {
    let board = [(L, "12b", H), (D, "1b", P), (D, "2b", P), (D, "3b", P)];
    let palace = [(L, P, 3), (L, C, 3)];
    // v-: dark has 3b-4b with a 1 and chariot entries with YES; it risks it.
    let mut s = setup(&board, &palace, L, L);
    play(&mut s, "r1 12b-off r1 v-");
    assert_eq!(s.result().unwrap().winner, Some(L));
    assert_eq!(s.result().unwrap().kind, ResultKind::Babylon);
    // No legal move: dark's last two pieces would pass the palace with a 3.
    let board = [(L, "12b", H), (D, "13a", P), (D, "12a", P)];
    let palace = [(L, P, 3), (L, C, 3), (D, P, 1), (D, C, 3), (D, H, 1)];
    let mut s = setup(&board, &palace, L, L);
    play(&mut s, "r1 12b-off r3");
    let r = s.result().unwrap();
    assert_eq!(
        (r.winner, r.points, r.kind),
        (Some(L), 1, ResultKind::Plain)
    );
}

// ---- Section 6: scoring and the match ----

fn pos(board: &[(Side, &str, Kind)], palace: &[(Side, Kind, u8)]) -> Position {
    let board: Vec<(Side, House, Kind)> = board.iter().map(|&(s, n, k)| (s, h(n), k)).collect();
    Position::setup(&board, palace).unwrap()
}

#[test]
fn scoring_takes_the_highest_that_applies() {
    // "4 Babylon: has no piece in the palace"
    assert_eq!(
        pos(&[(D, "13a", P)], &[]).loss_points(D),
        (4, ResultKind::Babylon)
    );
    // "3 …: has a piece waiting"
    assert_eq!(
        pos(&[(D, "13a", P)], &[(D, P, 1)]).loss_points(D),
        (3, ResultKind::Waiting)
    );
    // "2 dogs in the streets: has a piece in the lower city (1x–4x, 5–8) or on
    // the bridge (9, 10)"
    let all_out = [(D, P, 2), (D, C, 3), (D, H, 1)];
    assert_eq!(
        pos(&[(D, "10", P)], &all_out).loss_points(D),
        (2, ResultKind::Streets)
    );
    assert_eq!(
        pos(&[(D, "1b", P)], &all_out).loss_points(D),
        (2, ResultKind::Streets)
    );
    // "1 plain win"
    assert_eq!(
        pos(&[(D, "11", P)], &all_out).loss_points(D),
        (1, ResultKind::Plain)
    );
}

#[test]
fn stakes_are_exact_amounts() {
    // The source's example: 8:4 at 10 shekels a point pays 40.
    let stake: Stake = "10".parse().unwrap();
    assert_eq!(Stake(stake.0 * 4).to_string(), "40");
    assert_eq!("2.5".parse::<Stake>().unwrap().to_string(), "2.50");
    for bad in ["-1", "1.234", "x", "", ".5", "5.", " 5", "1e3"] {
        assert!(bad.parse::<Stake>().is_err(), "{bad}");
    }
}

#[test]
fn match_settings_header_round_trips() {
    let s = MatchSettings {
        to: 5,
        draw: DrawRule::End,
        stake: Some("12.5".parse().unwrap()),
    };
    assert_eq!(s.header(), "urgammon match to=5 draw=end stake=12.50");
    assert_eq!(MatchSettings::parse_header(&s.header()), Ok(s));
    assert!(MatchSettings::parse_header("urgammon match to=0").is_err());
    assert!(MatchSettings::parse_header("urgammon match draw=maybe").is_err());
    assert!(MatchSettings::parse_header("chess").is_err());
    let m = Match::new(MatchSettings::default());
    assert_eq!(m.record(), "urgammon match to=7 draw=replay");
}

#[test]
fn pips_count_the_steps_still_to_go() {
    // "A piece's progress is its index on its own path: 1 for 1a or 1b, up
    // to 16 for the gate, and 17 for the palace."
    let start = urgammon::parse_setup("light= dark= roll=light").unwrap();
    for side in Side::ALL {
        assert_eq!(
            start.position().army(side).pips(),
            7 * 17,
            "every piece waits"
        );
    }
    // Light: a pawn on 5 (progress 5), the hero in the palace, five waiting;
    // dark: a chariot on 12b (progress 12: dark's path runs 11 12b 13b 14 13a
    // 12a), six waiting.
    let s = urgammon::parse_setup("light=5:P,off:H dark=12b:C roll=dark").unwrap();
    assert_eq!(s.position().army(Side::Light).pips(), 12 + 5 * 17);
    assert_eq!(s.position().army(Side::Dark).pips(), 5 + 6 * 17);
}

/// Rules, section 6: "The loser pays (winner's points − loser's points) ×
/// stake", with the Polish text's example: 6–4, a win of dogs in the streets
/// (2 points) makes 8–4, past 7, and at 10 shekels a point the loser pays 40.
#[test]
fn a_match_taken_up_at_a_score_ends_at_the_target_and_pays_the_difference() {
    let settings = MatchSettings {
        to: 7,
        draw: DrawRule::Replay,
        stake: Some("10".parse().unwrap()),
    };
    // Light's last pawn one roll from home; dark started, and has a piece in
    // the lower city and the rest home: a win of 2 points.
    let start = urgammon::parse_setup(
        "light=13b:P,off:P,off:P,off:C,off:C,off:C,off:H dark=6:P,off:P,off:P,off:C,off:C,off:C,off:H roll=light starter=dark",
    )
    .unwrap();
    let mut m = Match::resume(
        settings,
        urgammon::BySide::new(6, 4),
        Game::from_state(start),
    );
    assert!(m.result().is_none());
    m.apply_text("r2").unwrap();
    m.apply_text("13b-off").unwrap();
    let r = m.result().expect("the match is over");
    assert_eq!(r.winner, Some(L));
    assert_eq!(r.score, urgammon::BySide::new(8, 4));
    assert_eq!(r.payout.map(|p| p.to_string()), Some("40".to_string()));
    // A score already at the target is over before anything is played.
    let over = Match::resume(settings, urgammon::BySide::new(4, 7), Game::new());
    assert_eq!(over.result().map(|r| r.winner), Some(Some(D)));
}
