//! A finished game's review, as the API's (and the CLI's) JSON: the same
//! computation for the web app's engine pool and for `agon worker`; each
//! game's own in `crate::kinds`.

use super::EngineError;
use crate::session::Rules;

/// How many steps a game's review takes (Ringo's plies, Urgammon's tokens).
pub fn steps(rules: &Rules) -> usize {
    crate::kinds::of(rules.kind()).review_steps(rules)
}

/// A finished game's review as the API's JSON (the CLI's): engine work, run
/// on the engine pool or by an `agon worker`, calling `progress` as it goes.
///
/// # Errors
/// The JSON could not be written.
pub fn review_json(rules: &Rules, progress: &dyn Fn(usize, usize)) -> Result<String, EngineError> {
    crate::kinds::of(rules.kind())
        .review_json(rules, progress)
        .map_err(|e| EngineError::Internal(format!("review JSON: {e}")))
}
