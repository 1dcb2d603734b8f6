//! Property tests over random games and matches.
//!
//! Single games and garbage input come from `proptest`: a failure shrinks to
//! the smallest case (a shorter game, lower dice, earlier moves) before it is
//! reported. The seed is fixed so every run checks the same cases.

mod common;

use common::{chosen_token, random_token, Rng};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use urgammon::{
    DrawRule, Game, House, Kind, Match, MatchSettings, Phase, Side, Stake, Token, TokenText,
};

fn check_invariants(game: &Game) {
    let pos = game.state().position();
    let mut houses = [0u8; 20];
    for side in Side::ALL {
        let army = pos.army(side);
        let on_board = army.on_board().count() as u8;
        // "Each side has 7 pieces"
        assert_eq!(army.waiting_total() + army.palace_total() + on_board, 7);
        for kind in Kind::ALL {
            let n = army.waiting(kind)
                + army.palace(kind)
                + army.on_board().filter(|&(_, k)| k == kind).count() as u8;
            assert_eq!(n, kind.count());
        }
        for p in 1..=16 {
            assert_eq!(army.occupied(p), army.at(p).is_some(), "occupancy mask");
        }
        for (p, _) in army.on_board() {
            houses[urgammon::house_at(side, p).index()] += 1;
        }
        // The race count: 17 for a waiting piece, 17 − progress on the board.
        let steps: u32 = army.on_board().map(|(p, _)| 17 - u32::from(p)).sum();
        assert_eq!(army.pips(), 17 * u32::from(army.waiting_total()) + steps);
    }
    // No two pieces share a house (of one side, or of both).
    assert!(houses.iter().all(|&n| n <= 1));
}

/// `cases` cases from a fixed seed, without regression files (a failure
/// prints its minimal case, which belongs in a scenario test).
fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(2026),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Plays one game from `choices` (token `i` is [`chosen_token`] of choice
/// `i`) to its end, checking every token; true if the game was drawn.
fn play_checked(choices: &[u64]) -> bool {
    let mut drawn = false;
    let mut game = Game::new();
    let mut tokens = 0;
    // After the choices, a seeded generator plays the game out.
    let mut rest = Rng::new(choices.len() as u64);
    while !game.is_over() {
        let state = *game.state();
        let token = match choices.get(tokens) {
            Some(&c) => chosen_token(&state, c),
            None => random_token(&state, &mut rest),
        };
        if let Token::Move(m) = token {
            let side = state.to_act().unwrap();
            // Every legal move's notation parses back to the same move.
            for l in state.moves().iter() {
                let text = l.notation(side);
                let back = TokenText::parse(&text).unwrap().resolve(&state).unwrap();
                assert_eq!(back, Token::Move(*l), "{text}");
            }
            // Pieces on rosettes are never captured.
            if m.captured.is_some() {
                assert!(!m.to_house(side).unwrap().is_rosette());
            }
        }
        game.apply(token).expect("random tokens are legal");
        check_invariants(&game);
        tokens += 1;
        assert!(tokens < 20_000, "every game ends");
    }
    let state = game.state();
    let result = state.result().unwrap();
    assert_eq!(state.phase(), Phase::Over);
    assert_eq!(state.to_act(), None);
    assert!(!state.last_turn());
    match result.winner {
        // The score matches the loser's position.
        Some(w) => {
            assert_eq!(state.position().army(w).palace_total(), 7);
            assert_eq!(
                state.position().loss_points(w.other()),
                (result.points, result.kind)
            );
        }
        None => {
            drawn = true;
            for s in Side::ALL {
                assert_eq!(state.position().army(s).palace_total(), 7);
            }
        }
    }
    // Records round-trip.
    let replay = Game::parse(&game.record()).unwrap();
    assert_eq!(replay.state(), game.state());
    assert_eq!(replay.record(), game.record());
    // Undo by truncation replays to the same earlier states.
    let half = game.tokens().len() / 2;
    assert_eq!(game.truncated(half).tokens(), &game.tokens()[..half]);
    drawn
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn random_games_keep_every_invariant(
        choices in proptest::collection::vec(any::<u64>(), 0..400),
    ) {
        play_checked(&choices);
    }
}

/// Drawn games (both sides home on the same turn) come up in random play, so
/// the checks above cover them.
#[test]
fn some_random_games_are_drawn() {
    let mut rng = Rng::new(2026);
    let draws = (0..2000)
        .filter(|_| {
            let choices: Vec<u64> = (0..400).map(|_| rng.next()).collect();
            play_checked(&choices)
        })
        .count();
    assert!(draws > 0, "no drawn game in 2000");
}

fn random_match(settings: MatchSettings, rng: &mut Rng) -> Match {
    let mut m = Match::new(settings);
    while m.result().is_none() {
        let token = random_token(&m.next_state(), rng);
        m.apply(token).unwrap();
    }
    m
}

#[test]
fn matches_end_at_the_target_and_pay_the_difference() {
    let mut rng = Rng::new(7);
    for to in [1, 3, 7] {
        for _ in 0..30 {
            let settings = MatchSettings {
                to,
                draw: DrawRule::Replay,
                stake: Some("2.5".parse().unwrap()),
            };
            let m = random_match(settings, &mut rng);
            let r = m.result().unwrap();
            let w = r.winner.expect("draw=replay always has a winner");
            assert!(r.score[w] >= to && r.score[w.other()] < to);
            // The score is the sum of the games' points.
            let mut sum = urgammon::BySide::<u32>::default();
            for g in m.finished().iter().chain(std::iter::once(m.current())) {
                let gr = g.state().result().unwrap();
                if let Some(gw) = gr.winner {
                    sum[gw] += u32::from(gr.points);
                }
            }
            assert_eq!(sum, r.score);
            let diff = u64::from(r.score[w] - r.score[w.other()]);
            assert_eq!(r.payout, Some(Stake(250 * diff)));
            // The match record round-trips.
            let back = Match::parse(&m.record()).unwrap();
            assert_eq!(back.result(), m.result());
            assert_eq!(back.record(), m.record());
        }
    }
}

#[test]
fn a_drawn_game_ends_the_match_under_draw_end() {
    let mut rng = Rng::new(11);
    let mut seen = 0;
    for _ in 0..400 {
        let settings = MatchSettings {
            to: 7,
            draw: DrawRule::End,
            stake: Some("10".parse().unwrap()),
        };
        let m = random_match(settings, &mut rng);
        let last = m.current().state().result().unwrap();
        if last.winner.is_none() {
            seen += 1;
            let r = m.result().unwrap();
            assert_eq!(r.winner, None);
            assert_eq!(r.payout, None);
            assert!(r.score[Side::Light] < 7 && r.score[Side::Dark] < 7);
        }
        // Under replay a drawn game scores nothing and play goes on; under end it
        // stops the match: either way no finished game before the last is drawn.
        for g in m.finished() {
            assert!(g.state().result().unwrap().winner.is_some());
        }
    }
    assert!(seen > 0, "some match ended on a drawn game");
}

proptest! {
    #![proptest_config(config(30_000))]

    #[test]
    fn garbage_never_panics_and_changes_nothing(
        // A played-out prefix, so the garbage meets every phase.
        prefix in proptest::collection::vec(any::<u64>(), 0..60),
        text in "(start:|r|v|\\+|-|x|P|C|H|[1-5]|a|b|off|12|13|14|10|:|é| ){0,5}",
    ) {
        let mut game = Game::new();
        for &c in &prefix {
            if game.is_over() {
                break;
            }
            let token = chosen_token(game.state(), c);
            game.apply(token).unwrap();
        }
        let before = game.state().to_owned();
        let len = game.tokens().len();
        if game.apply_text(&text).is_err() {
            prop_assert_eq!(*game.state(), before);
            prop_assert_eq!(game.tokens().len(), len);
        }
        let _ = Match::parse(&text);
        let _ = MatchSettings::parse_header(&text);
        let _ = House::parse(&text);
    }
}
