//! Urgammon players: they choose moves and whether to roll the verdict die.

use crate::Rng;
use urgammon::{house_at, Move, Phase, State, PALACE};

/// A decision in the phases where a player chooses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Decision {
    /// Play this move.
    Move(Move),
    /// Roll the verdict die.
    Verdict,
}

impl Decision {
    /// Its name for `side`: the move's notation, or `verdict` (every report,
    /// review and puzzle writes it so).
    pub fn notation(self, side: urgammon::Side) -> String {
        match self {
            Decision::Move(m) => m.notation(side),
            Decision::Verdict => "verdict".to_string(),
        }
    }
}

/// A random decision: in phase decide, the verdict die 30% of the time, else a
/// random move; in phase verdict, the verdict die; in phase move, a random move.
pub fn random_decision(state: &State, rng: &mut Rng) -> Option<Decision> {
    match state.phase() {
        Phase::Verdict => Some(Decision::Verdict),
        Phase::Decide if rng.below(10) < 3 => Some(Decision::Verdict),
        Phase::Decide | Phase::Move => {
            let moves = state.moves();
            (!moves.is_empty()).then(|| Decision::Move(moves[rng.below(moves.len())]))
        }
        _ => None,
    }
}

/// The greedy baseline's preference: captures, then rosettes, then the
/// furthest-advanced piece (a bear-off counts as furthest).
fn greedy_key(state: &State, m: &Move) -> (bool, bool, u8) {
    let side = state.to_act().unwrap_or(urgammon::Side::Light);
    let rosette = m.to < PALACE && house_at(side, m.to).is_rosette();
    (m.captured.is_some(), rosette, m.from)
}

/// The greedy decision: never the verdict die unless forced; otherwise the move
/// that captures, else lands on a rosette, else moves the furthest piece; ties
/// at random.
pub fn greedy_decision(state: &State, rng: &mut Rng) -> Option<Decision> {
    match state.phase() {
        Phase::Verdict => Some(Decision::Verdict),
        Phase::Decide | Phase::Move => {
            let moves = state.moves();
            let best = moves.iter().map(|m| greedy_key(state, m)).max()?;
            let ties: Vec<&Move> = moves
                .iter()
                .filter(|m| greedy_key(state, m) == best)
                .collect();
            Some(Decision::Move(*ties[rng.below(ties.len())]))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use urgammon::Token;

    /// Plays a game to its end; `level(side)` gives each side's level.
    fn play_out(seed: u64, level: impl Fn(urgammon::Side) -> u8) -> State {
        let mut rng = Rng::new(seed);
        let mut state = State::new();
        while state.phase() != Phase::Over {
            let face = |rng: &mut Rng| rng.chance();
            let token = match state.phase() {
                Phase::Opening => Token::Start(face(&mut rng), face(&mut rng)),
                Phase::Roll => Token::Roll(face(&mut rng)),
                _ => {
                    let side = state.to_act().unwrap();
                    let player = if level(side) == 1 {
                        random_decision
                    } else {
                        greedy_decision
                    };
                    match player(&state, &mut rng).unwrap() {
                        Decision::Move(m) => Token::Move(m),
                        Decision::Verdict => Token::Verdict(rng.below(6) < 4),
                    }
                }
            };
            state.apply(token).unwrap();
        }
        state
    }

    #[test]
    fn players_finish_games() {
        for seed in 0..20 {
            assert!(play_out(seed, |_| 1).result().is_some());
            assert!(play_out(seed, |_| 7).result().is_some());
        }
    }

    #[test]
    fn greedy_beats_random_more_often_than_not() {
        // Greedy plays light, random plays dark, over many seeds.
        let light = urgammon::Side::Light;
        let greedy_wins = (0..200)
            .filter(|&seed| {
                let s = play_out(seed, |side| if side == light { 7 } else { 1 });
                s.result().unwrap().winner == Some(light)
            })
            .count();
        assert!(greedy_wins > 110, "greedy won {greedy_wins} of 200");
    }
}
