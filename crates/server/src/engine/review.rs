//! A finished game's review, as the API's (and the CLI's) JSON: the same
//! computation for the web app's engine pool and for `agon worker`.

use super::EngineError;
use crate::session::Rules;

/// How many steps a game's review takes: plies (Ringo) or tokens (Urgammon).
pub fn steps(rules: &Rules) -> usize {
    match rules {
        Rules::Ringo(g) => g.ply(),
        Rules::Urgammon(m) => {
            m.finished().iter().map(|g| g.tokens().len()).sum::<usize>()
                + m.current().tokens().len()
        }
    }
}

/// A finished game's review as the API's JSON (the CLI's): engine work, run
/// on the engine pool or by an `agon worker`, calling `progress` as it goes.
///
/// # Errors
/// The JSON could not be written.
pub fn review_json(rules: &Rules, progress: &dyn Fn(usize, usize)) -> Result<String, EngineError> {
    let json = match rules {
        Rules::Ringo(g) => serde_json::to_string(
            &agon_ai::ringo::review::review(g, agon_ai::ringo::review::DEPTH, progress).to_json(),
        ),
        Rules::Urgammon(m) => serde_json::to_string(
            &agon_ai::urgammon::review::review(
                m,
                true,
                agon_ai::Level::new(agon_ai::urgammon::review::LEVEL),
                progress,
            )
            .to_json(),
        ),
    };
    json.map_err(|e| EngineError::Internal(format!("review JSON: {e}")))
}
