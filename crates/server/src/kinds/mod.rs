//! One place per game: what the server needs of a game that its rules crate
//! and the session do not already say, behind [`GameKind`]. A third game is
//! one implementation of it (a file beside `ringo.rs` and `urgammon.rs`) and
//! one line in [`of`], besides its `Kind` variant, its session rules
//! (`session::GameRules`, registered in `session::rules_for`) and the page's registry
//! (`static/js/games.js`).

mod kind;
mod ringo;
mod urgammon;

pub use kind::{GameKind, ImportError, Imported, SettingsFields, SettingsRefusal};

pub use ringo::{ringo_reply, EVEN_RULES};

use crate::engine::analysis::{self, parse, AnalyzeRequest};
use crate::engine::EngineError;
use crate::model::Kind;
use crate::session::{Action, Rules, Session};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The game of this kind.
pub fn of(kind: Kind) -> &'static dyn GameKind {
    match kind {
        Kind::Ringo => &ringo::Ringo,
        Kind::Urgammon => &urgammon::Urgammon,
    }
}

/// What the computer does now in a game: roll when it must roll, else its
/// level's decision. A raised `stop` ends a search early.
pub(crate) fn engine_action(session: &Session, stop: Arc<AtomicBool>) -> Option<Action> {
    engine_action_at(session, None, stop)
}

/// [`engine_action`] at `level` instead of the game's own (a move retried
/// after failures is made at level 1).
pub(crate) fn engine_action_at(
    session: &Session,
    level: Option<u8>,
    stop: Arc<AtomicBool>,
) -> Option<Action> {
    let level = agon_ai::Level::new(level.or(session.row.level).unwrap_or(5));
    let tokens = session.tokens.len();
    match &session.rules {
        Rules::Ringo(g) => ringo::engine_action(g, level, tokens, stop),
        Rules::Urgammon(m) => urgammon::engine_action(m, level, tokens),
    }
}

/// A finished game's review as the API's JSON (the CLI's): engine work, run
/// on the analysis pool or by an `agon worker`, calling `progress` as it
/// goes.
///
/// # Errors
/// The JSON could not be written.
pub fn review_json(rules: &Rules, progress: &dyn Fn(usize, usize)) -> Result<String, EngineError> {
    match rules {
        Rules::Ringo(g) => ringo::review_json(g, progress),
        Rules::Urgammon(m) => urgammon::review_json(m, progress),
    }
    .map_err(|e| EngineError::Internal(format!("review JSON: {e}")))
}

/// Checks an analysis request (its depth and position) before any engine
/// work.
///
/// # Errors
/// The request is not valid.
pub fn checked_analyze(req: &AnalyzeRequest) -> Result<(), EngineError> {
    analysis::depth(req)?;
    of(req.game).check_analysis(req)
}

/// The answer to an analysis request's body, as the API's JSON: engine
/// work, run on the analysis pool or by an `agon worker`.
///
/// # Errors
/// The request is not valid.
pub fn analyze_json(body: &[u8]) -> Result<String, EngineError> {
    let req: AnalyzeRequest = parse(body)?;
    let answer = of(req.game).analyze(&req, analysis::depth(&req)?)?;
    serde_json::to_string(&answer).map_err(|e| EngineError::Internal(format!("analysis JSON: {e}")))
}

/// Checks a rollout request (its games and position) before any engine
/// work.
///
/// # Errors
/// The request is not valid, or the position is over.
pub fn checked_rollout(req: &AnalyzeRequest) -> Result<(), EngineError> {
    analysis::rollout_games(req)?;
    of(req.game).check_rollout(req)
}

/// The answer to a rollout request's body, as the API's JSON: engine work.
///
/// # Errors
/// The request is not valid, or the position is over.
pub fn rollout_json(body: &[u8]) -> Result<String, EngineError> {
    let req: AnalyzeRequest = parse(body)?;
    of(req.game).rollout(&req, analysis::rollout_games(&req)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's settings as the lobby writes them say its match target and
    /// its weight in a rating period: an Urgammon match to 7 counts three
    /// times (⌈√7⌉), a Ringo game once and has no target.
    #[test]
    fn the_match_target_and_rating_weight_are_read_from_the_settings() {
        let settings = ::urgammon::MatchSettings {
            to: 7,
            ..Default::default()
        }
        .header();
        let urgammon = of(Kind::Urgammon);
        assert_eq!(urgammon.match_target(&settings), Some(7));
        assert_eq!(urgammon.rating_weight(&settings), 3);
        assert_eq!(urgammon.rating_weight("not a header"), 1);
        let ringo = of(Kind::Ringo);
        assert_eq!(ringo.match_target("classic"), None);
        assert_eq!(ringo.rating_weight("classic"), 1);
        assert_eq!(ringo.even_rules(), Some(EVEN_RULES));
        assert_eq!(urgammon.even_rules(), None);
        assert_eq!([ringo.title(), urgammon.title()], ["Ringo", "Urgammon"]);
    }

    #[test]
    fn the_engines_accuracy_is_read_from_the_reviews_as_they_are_written() {
        use crate::model::Kind;
        // A real Ringo review's shape: each ply's side, each side's accuracy.
        let mut game = ::ringo::Game::new(::ringo::Rules::default());
        for _ in 0..4 {
            let m = game.legal_moves()[0];
            game.play(m).unwrap();
        }
        let typed = agon_ai::ringo::review::review(&game, 2, &|_, _| {}).to_json();
        let v = serde_json::to_value(&typed).unwrap();
        assert_eq!(v["plies"][0]["side"], "attackers");
        assert_eq!(
            v["accuracy"]["attackers"].as_f64(),
            typed.accuracy.attackers
        );
        // A real Urgammon review's: each decision's side and triviality,
        // each side's error rate.
        let m = ::urgammon::Match::parse(
            "urgammon match to=7\nstart:2-3 P-2a r2 P-2b r1 v+ 2a-7 r3 P-3b r4",
        )
        .unwrap();
        let typed =
            agon_ai::urgammon::review::review(&m, false, agon_ai::Level::new(2), &|_, _| {})
                .to_json();
        let v = serde_json::to_value(&typed).unwrap();
        assert!(v["decisions"][0]["side"].is_string() && v["decisions"][0]["trivial"].is_boolean());
        assert_eq!(
            v["error_rate"]["light"].as_f64(),
            Some(typed.error_rate.light)
        );
        // Too few moves prove nothing, even at 100.
        let ringo = |moves: usize, accuracy: f64| {
            serde_json::json!({
                "plies": (0..moves * 2).map(|i| serde_json::json!({"side": if i % 2 == 0 { "attackers" } else { "defenders" }})).collect::<Vec<_>>(),
                "accuracy": {"attackers": accuracy, "defenders": 60.0},
            })
            .to_string()
        };
        assert_eq!(
            of(Kind::Ringo).engine_measure(&ringo(9, 100.0), "attackers"),
            None
        );
        assert_eq!(
            of(Kind::Ringo).engine_measure(&ringo(10, 97.0), "attackers"),
            Some(97.0)
        );
        assert_eq!(
            of(Kind::Ringo).engine_measure(&ringo(10, 96.9), "attackers"),
            None
        );
        assert_eq!(
            of(Kind::Ringo).engine_measure(&ringo(30, 99.0), "defenders"),
            None
        );
        let urgammon = |decisions: usize, trivial: bool, rate: f64| {
            serde_json::json!({
                "decisions": (0..decisions).map(|_| serde_json::json!({"side": "dark", "trivial": trivial})).collect::<Vec<_>>(),
                "error_rate": {"light": 40.0, "dark": rate},
            })
            .to_string()
        };
        assert_eq!(
            of(Kind::Urgammon).engine_measure(&urgammon(12, false, 1.5), "dark"),
            Some(1.5)
        );
        assert_eq!(
            of(Kind::Urgammon).engine_measure(&urgammon(12, false, 2.0), "dark"),
            None
        );
        assert_eq!(
            of(Kind::Urgammon).engine_measure(&urgammon(12, true, 0.0), "dark"),
            None,
            "forced moves prove nothing"
        );
        assert_eq!(of(Kind::Urgammon).engine_measure("not json", "dark"), None);
    }
}
