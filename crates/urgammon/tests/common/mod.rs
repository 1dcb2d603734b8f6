//! Test helpers: a seeded RNG and a random legal player.
#![allow(dead_code)]

use urgammon::{Phase, State, Token, CHANCE_FACES};

/// SplitMix64, reproducible from a seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn face(&mut self) -> u8 {
        CHANCE_FACES[self.below(6)]
    }
}

/// A random legal next token: fair dice, a random move, and the verdict die taken
/// 30% of the time when it is optional.
pub fn random_token(state: &State, rng: &mut Rng) -> Token {
    match state.phase() {
        Phase::Opening => Token::Start(rng.face(), rng.face()),
        Phase::Roll => Token::Roll(rng.face()),
        Phase::Verdict => Token::Verdict(rng.below(6) < 4),
        Phase::Decide if rng.below(10) < 3 => Token::Verdict(rng.below(6) < 4),
        Phase::Decide | Phase::Move => {
            let moves = state.moves();
            Token::Move(moves[rng.below(moves.len())])
        }
        Phase::Over => panic!("no token after the end"),
    }
}
