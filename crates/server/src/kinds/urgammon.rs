//! Urgammon, for the server: the computer's rolls and decisions for the
//! match score, the review, a game or match record read for import, and
//! the replay's turns.

use super::kind::{decision_rng, GameKind, ImportError, Imported, SettingsFields, SettingsRefusal};
use crate::engine::analysis::{bad, AnalyzeAnswer, AnalyzeRequest, BoardView, EngineView};
use crate::engine::{BadInput, EngineError};
use crate::model::Kind;
use crate::session::Action;
use agon_ai::urgammon::MatchContext;
use agon_views::UrgammonBoard;

/// Urgammon.
pub(super) struct Urgammon;

/// The Urgammon position an analysis request names: the game from its
/// set-up and record, its match (if any), and the level that analyses it.
fn analysis_game(
    req: &AnalyzeRequest,
) -> Result<(urgammon::Game, Option<MatchContext>, agon_ai::Level), EngineError> {
    let start = match req.setup.as_deref() {
        Some(s) => urgammon::parse_setup(s)
            .map_err(|e| bad(BadInput::Record, format!("invalid setup: {e}")))?,
        None => urgammon::State::new(),
    };
    let mut game = urgammon::Game::from_state(start);
    game.apply_all(req.record.as_deref().unwrap_or(""), 0)
        .map_err(|e| bad(BadInput::Record, e))?;
    let level = match req.level {
        None => agon_ai::Level::MAX,
        Some(n) => agon_ai::Level::try_from(n).map_err(|e| bad(BadInput::Level, e))?,
    };
    let ctx = match (req.to, req.score) {
        (None, _) => None,
        (Some(to), score) => {
            let [l, d] = score.unwrap_or([0, 0]);
            if !(1..=99).contains(&to) || l >= to || d >= to {
                return Err(bad(
                    BadInput::MatchTarget,
                    "the match is 1 to 99 points, and neither score may have reached it",
                ));
            }
            Some(MatchContext {
                to,
                score: (l, d),
                draw: urgammon::DrawRule::Replay,
            })
        }
    };
    Ok((game, ctx, level))
}

impl GameKind for Urgammon {
    fn check_analysis(&self, req: &AnalyzeRequest) -> Result<(), EngineError> {
        analysis_game(req).map(|_| ())
    }

    fn analyze(&self, req: &AnalyzeRequest, _depth: u32) -> Result<AnalyzeAnswer, EngineError> {
        let (game, ctx, level) = analysis_game(req)?;
        let over = game.is_over();
        Ok(AnalyzeAnswer {
            state: BoardView::Urgammon(Box::new(UrgammonBoard::of(&game))),
            game: Kind::Urgammon,
            analysis: (!over).then(|| {
                EngineView::Urgammon(Box::new(agon_ai::urgammon::report::analysis_json(
                    game.state(),
                    level,
                    ctx,
                )))
            }),
        })
    }

    fn check_rollout(&self, req: &AnalyzeRequest) -> Result<(), EngineError> {
        let (game, _, _) = analysis_game(req)?;
        if game.is_over() {
            return Err(EngineError::GameOver(
                "the game is over: nothing to roll out".into(),
            ));
        }
        Ok(())
    }

    fn rollout(&self, req: &AnalyzeRequest, games: usize) -> Result<String, EngineError> {
        self.check_rollout(req)?;
        let (game, ctx, _) = analysis_game(req)?;
        let json = agon_ai::urgammon::report::rollout_json(
            game.state(),
            games,
            agon_ai::Level::new(8),
            ctx,
            1,
            1,
            &|_| {},
        )
        .map_err(EngineError::GameOver)?;
        serde_json::to_string(&json)
            .map_err(|e| EngineError::Internal(format!("rollout JSON: {e}")))
    }

    fn settings(&self, fields: &SettingsFields<'_>) -> Result<String, SettingsRefusal> {
        let draw = match fields.draw {
            None => urgammon::DrawRule::Replay,
            Some(text) => text
                .parse()
                .map_err(|e: urgammon::SettingsError| SettingsRefusal::Match(e.to_string()))?,
        };
        // Parsed as written: a padded stake is refused like a padded number.
        let stake = match fields.stake {
            None | Some("") => None,
            Some(text) => Some(
                text.parse()
                    .map_err(|e: urgammon::SettingsError| SettingsRefusal::Stake(e.to_string()))?,
            ),
        };
        Ok(urgammon::MatchSettings {
            to: fields.to,
            draw,
            stake,
        }
        .header())
    }

    fn import(&self, text: &str) -> Result<Imported, ImportError> {
        let text = text.trim();
        let m = if text.starts_with("urgammon") {
            urgammon::Match::parse(text).map_err(|e| ImportError {
                message: e.to_string(),
                at: Some((e.index, e.token.clone())),
            })?
        } else {
            let mut m = urgammon::Match::new(urgammon::MatchSettings::default());
            for (i, t) in text.split_whitespace().enumerate() {
                m.apply_text(t).map_err(|e| ImportError {
                    message: format!("token {i} ('{t}'): {e}"),
                    at: Some((i, t.to_string())),
                })?;
            }
            m
        };
        let tokens: Vec<String> = m
            .finished()
            .iter()
            .chain(std::iter::once(m.current()))
            .flat_map(|g| g.token_texts().to_vec())
            .collect();
        Ok(Imported {
            settings: m.settings().header(),
            start: None,
            tokens,
            to_act: m.current().state().to_act().map(Into::into),
        })
    }

    /// Before each token that opens a turn, before the first opening roll
    /// of each game, at 0 and at the end.
    fn turn_plies(&self, tokens: &[String]) -> Option<Vec<usize>> {
        let is_start = |t: &str| t.starts_with("start:");
        let mut plies = vec![0];
        for (i, token) in tokens.iter().enumerate().skip(1) {
            let opens = urgammon::TokenText::parse(token).is_ok_and(|t| t.opens_turn());
            let new_game = is_start(token) && !is_start(&tokens[i - 1]);
            if opens || new_game {
                plies.push(i);
            }
        }
        if plies.last() != Some(&tokens.len()) {
            plies.push(tokens.len());
        }
        plies.dedup();
        Some(plies)
    }

    /// The side the opening roll gives the first move: the lower roll
    /// (rules §5.1: "The lower roll starts"; a tie is rolled again), as the
    /// rules crate plays the record.
    fn first_mover(&self, tokens: &[String]) -> Option<crate::model::Seat> {
        let mut game = urgammon::Game::new();
        for t in tokens {
            game.apply_text(t).ok()?;
            if let Some(side) = game.state().to_act() {
                return Some(side.into());
            }
        }
        None
    }

    /// Urgammon's seats are light and dark, balanced as colours.
    fn seats_are_colours(&self) -> bool {
        true
    }

    fn engine_measure(&self, review: &str, side: &str) -> Option<f64> {
        let v: serde_json::Value = serde_json::from_str(review).ok()?;
        let decisions = v["decisions"]
            .as_array()?
            .iter()
            .filter(|d| d["side"] == side && d["trivial"] == false)
            .count();
        let rate = v["error_rate"][side].as_f64()?;
        (decisions >= super::kind::ACCURACY_MIN_MOVES && rate < ENGINE_ERROR_RATE).then_some(rate)
    }

    /// A match is whole in itself: its games alternate who starts by the
    /// opening roll.
    fn plays_pairs(&self) -> bool {
        false
    }

    fn match_target(&self, settings: &str) -> Option<u32> {
        urgammon::MatchSettings::parse_header(settings)
            .ok()
            .map(|s| s.to)
    }

    /// A match to `to` points counts ⌈√to⌉ times (`ratings::match_weight`).
    fn rating_weight(&self, settings: &str) -> usize {
        crate::ratings::match_weight(self.match_target(settings).unwrap_or(1))
    }

    fn title(&self) -> &'static str {
        "Urgammon"
    }

    /// Urgammon has one rule set (its match target and stake are settings).
    fn even_rules(&self) -> Option<&'static str> {
        None
    }

    fn measure_name(&self) -> &'static str {
        "error rate"
    }
}

/// An error rate (the review's thousandths of a point lost per non-trivial
/// decision) under this is the engine's own (gnubg's "Supernatural").
pub const ENGINE_ERROR_RATE: f64 = 2.0;

/// The computer's decision in an Urgammon match at `level`: a roll when it
/// must roll, else its level's choice for the match at its score.
pub(super) fn engine_action(
    m: &urgammon::Match,
    level: agon_ai::Level,
    tokens: usize,
) -> Option<Action> {
    let state = m.current().state();
    if state.phase() == urgammon::Phase::Roll {
        return Some(Action::Roll);
    }
    let side = state.to_act()?;
    // Decisions maximise the chance to win the match at its score.
    let payoff = agon_ai::urgammon::MatchContext::of(m).payoff();
    let spec = agon_ai::urgammon::level_spec(level);
    let mut rng = decision_rng(tokens, level);
    match agon_ai::urgammon::decide(state, spec, payoff, &mut rng)? {
        agon_ai::urgammon::player::Decision::Verdict => Some(Action::Verdict),
        agon_ai::urgammon::player::Decision::Move(mv) => Some(Action::Move(mv.notation(side))),
    }
}

/// A finished Urgammon match's review as the API's JSON.
pub(super) fn review_json(
    m: &urgammon::Match,
    progress: &dyn Fn(usize, usize),
) -> serde_json::Result<String> {
    serde_json::to_string(
        &agon_ai::urgammon::review::review(
            m,
            true,
            agon_ai::Level::new(agon_ai::urgammon::review::LEVEL),
            progress,
        )
        .to_json(),
    )
}
