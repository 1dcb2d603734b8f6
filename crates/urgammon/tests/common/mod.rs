//! Test helpers: a seeded RNG and a random legal player.
#![allow(dead_code)]

use urgammon::{Phase, State, Token, CHANCE_FACES};

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

/// The legal next token picked by `choice`, a number proptest can shrink:
/// fair dice, a move, and the verdict die taken 30% of the time when it is
/// optional. Choice 0 is the first move, and the lowest die faces.
pub fn chosen_token(state: &State, choice: u64) -> Token {
    let face = |k: u64| CHANCE_FACES[(k % 6) as usize];
    match state.phase() {
        Phase::Opening => Token::Start(face(choice), face(choice / 6)),
        Phase::Roll => Token::Roll(face(choice)),
        Phase::Verdict => Token::Verdict(choice % 6 < 4),
        Phase::Decide if choice % 10 >= 7 => Token::Verdict((choice / 10) % 6 < 4),
        Phase::Decide | Phase::Move => {
            let moves = state.moves();
            let pick = if state.phase() == Phase::Decide {
                choice / 10
            } else {
                choice
            };
            Token::Move(moves[(pick % moves.len() as u64) as usize])
        }
        Phase::Over => panic!("no token after the end"),
    }
}

/// A random legal next token (see [`chosen_token`]).
pub fn random_token(state: &State, rng: &mut Rng) -> Token {
    chosen_token(state, rng.next())
}
