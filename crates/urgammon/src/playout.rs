//! Whole-game playouts: the one game loop for tournaments, training,
//! rollouts, calibration and benchmarks. The tokens come from the caller
//! (the rules crate has no randomness): it rolls the dice and decides.

use crate::state::{State, Token};

/// Plays from `start`: `next` sees each state and gives the token to apply,
/// until it gives none (the game is over, or the caller stops). A token that
/// does not apply ends the playout. Returns the last state and how many
/// tokens were applied.
///
/// ```
/// use urgammon::{playout, Phase, State, Token};
/// // The first legal move, dice cycling 1, 2, 3, 4, and at most 1,000 tokens.
/// let mut n = 0u32;
/// let (end, tokens) = playout(&State::new(), |s| {
///     n += 1;
///     let die = (n % 4 + 1) as u8;
///     match s.phase() {
///         _ if n > 1000 => None,
///         Phase::Over => None,
///         Phase::Opening => Some(Token::Start(1, 2)),
///         Phase::Roll => Some(Token::Roll(die)),
///         Phase::Verdict => Some(Token::Verdict(die % 2 == 0)),
///         _ => s.moves().first().copied().map(Token::Move),
///     }
/// });
/// assert!(tokens > 0 && tokens <= 1000);
/// assert!(end.phase() != Phase::Opening);
/// ```
pub fn playout(start: &State, mut next: impl FnMut(&State) -> Option<Token>) -> (State, usize) {
    let mut state = *start;
    let mut applied = 0;
    while let Some(token) = next(&state) {
        if state.apply(token).is_err() {
            break;
        }
        applied += 1;
    }
    (state, applied)
}
