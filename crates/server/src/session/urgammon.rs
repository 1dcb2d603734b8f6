//! Urgammon's session rules: a match of games, every die drawn by the
//! server from the ledger.

use super::actions::{Action, Refusal, SessionError};
use super::rules::{End, GameRules, GameView};
use crate::dice::Die;
use crate::model::Seat;
use crate::model::{Kind, Status};
use agon_views::UrgammonMatch;
use urgammon::{Phase, Side, Token};

/// An Urgammon match from its header and tokens.
pub(super) fn build(settings: &str, moves: &[String]) -> Result<urgammon::Match, String> {
    let settings =
        urgammon::MatchSettings::parse_header(settings).map_err(|e| format!("settings: {e}"))?;
    let mut m = urgammon::Match::new(settings);
    for (i, t) in moves.iter().enumerate() {
        m.apply_text(t)
            .map_err(|e| format!("token {i} ('{t}'): {e}"))?;
    }
    Ok(m)
}

fn seat(side: Side) -> Seat {
    Seat::from(side)
}

/// Why a turn does not take a move or a die in this phase.
fn wrong_moment(phase: Phase) -> SessionError {
    let (code, text) = match phase {
        Phase::Roll => (Refusal::RollFirst, "roll the chance die first"),
        Phase::Verdict => (
            Refusal::VerdictRequired,
            "no move with this roll: the verdict die must be rolled",
        ),
        _ => (
            Refusal::WrongMoment,
            "that does not fit this moment of the turn",
        ),
    };
    SessionError::Conflict(code, text.into())
}

impl GameRules for urgammon::Match {
    fn kind(&self) -> Kind {
        Kind::Urgammon
    }

    fn over(&self) -> bool {
        self.result().is_some()
    }

    fn between_games(&self) -> bool {
        urgammon::Match::between_games(self)
    }

    fn to_act(&self) -> Option<Seat> {
        self.current().state().to_act().map(seat)
    }

    fn winner(&self) -> Option<Seat> {
        self.result().and_then(|r| r.winner).map(seat)
    }

    fn score(&self) -> Option<[u32; 2]> {
        let s = urgammon::Match::score(self);
        Some([s[Side::Light], s[Side::Dark]])
    }

    /// The server rolls every die, so a die sent as a move is a bad request
    /// whatever the phase.
    fn check_move_text(&self, text: &str) -> Result<(), SessionError> {
        match urgammon::TokenText::parse(text) {
            Ok(urgammon::TokenText::Move { .. }) => Ok(()),
            Ok(_) => Err(SessionError::BadRequest(Refusal::DieNotMove, format!(
                "'{text}' is a die, not a move: the server rolls every die; send {{\"type\": \"roll\"}} or {{\"type\": \"verdict\"}}"
            ))),
            Err(e) => Err(SessionError::BadRequest(
                Refusal::NotAMove,
                format!("'{text}' is not a move: {e}"),
            )),
        }
    }

    fn play_move(&mut self, seat: Seat, text: &str) -> Result<String, SessionError> {
        let phase = self.current().state().phase();
        if !matches!(phase, Phase::Decide | Phase::Move) {
            return Err(wrong_moment(phase));
        }
        self.apply_text(text)
            .map_err(|e| SessionError::Conflict(Refusal::IllegalMove, e.to_string()))?;
        let side = Side::ALL[seat.index()];
        Ok(match self.current().tokens().last() {
            Some(Token::Move(mv)) => mv.notation(side),
            _ => text.to_string(),
        })
    }

    fn die_for(&self, action: &Action) -> Result<Die, SessionError> {
        match (self.current().state().phase(), action) {
            (Phase::Roll, Action::Roll) => Ok(Die::Chance),
            (Phase::Decide | Phase::Verdict, Action::Verdict) => Ok(Die::Verdict),
            (Phase::Move, Action::Verdict) => Err(SessionError::Conflict(
                Refusal::VerdictNotNow,
                "the verdict die may not be rolled now".into(),
            )),
            (Phase::Decide | Phase::Move, _) => Err(SessionError::Conflict(
                Refusal::AlreadyRolled,
                "the chance die is already rolled: play a move".into(),
            )),
            (phase, _) => Err(wrong_moment(phase)),
        }
    }

    fn opening_due(&self) -> bool {
        self.result().is_none() && self.next_state().phase() == Phase::Opening
    }

    fn apply_die(&mut self, token: &str) -> Result<(), String> {
        self.apply_text(token).map_err(|e| e.to_string())
    }

    /// Before the last move, or verdict die rolled by choice, of one of the
    /// seats in the game in play.
    fn undo_point(&self, recorded: usize, seats: &[Seat]) -> Option<usize> {
        let game_start = recorded - self.current().tokens().len();
        let mut g = urgammon::Game::new();
        let mut last = None;
        for (i, t) in self.current().tokens().iter().enumerate() {
            let state = *g.state();
            let decision = match t {
                Token::Move(_) => true,
                Token::Verdict(_) => state.phase() == Phase::Decide,
                _ => false,
            };
            if decision && state.to_act().is_some_and(|s| seats.contains(&seat(s))) {
                last = Some(game_start + i);
            }
            let _ = g.apply(*t);
        }
        last
    }

    fn record(&self) -> String {
        urgammon::Match::record(self)
    }

    fn resignation_separator(&self) -> char {
        '\n'
    }

    fn no_next_game(&self, over: bool) -> String {
        if over {
            "the match is over".into()
        } else {
            "the game is still in play".into()
        }
    }

    fn forced(&self) -> bool {
        self.result().is_none() && self.current().state().phase() == Phase::Verdict
    }

    fn view(&self, end: Option<End>, _status: Status) -> GameView {
        let mut v = UrgammonMatch::of(self);
        v.reason = end.map(End::reason);
        if end.is_some() {
            // Ended other than by the points: nobody is to act.
            v.match_.over = true;
            v.match_.winner = None;
            v.state.moves.clear();
            v.state.promoted_moves.clear();
            v.legal.clear();
            v.promoted_legal.clear();
            v.state.to_act = None;
            v.verdict_allowed = false;
            v.verdict_forced = false;
        }
        if let Some(seat) = end.and_then(End::loser) {
            // The match is forfeited as if the winner had reached the
            // target: the loser pays for the points still missing.
            let names = Kind::Urgammon.seat_names();
            let loser_points = urgammon::Match::score(self)[Side::ALL[seat.index()]];
            let to = self.settings().to;
            v.match_.over = true;
            v.match_.winner = Some(names[seat.other().index()]);
            if matches!(end, Some(End::Resigned(_))) {
                v.match_.resigned = Some(names[seat.index()]);
            }
            v.match_.payout = self.settings().stake.map(|s| {
                urgammon::Stake(s.0 * u64::from(to.saturating_sub(loser_points))).to_string()
            });
        }
        GameView::Urgammon(Box::new(v))
    }

    fn rolls_next(&self) -> bool {
        self.current().state().phase() == Phase::Roll
    }

    fn review_steps(&self) -> usize {
        self.finished()
            .iter()
            .map(|g| g.tokens().len())
            .sum::<usize>()
            + self.current().tokens().len()
    }

    fn turns(&self) -> usize {
        let rolls = |g: &urgammon::Game| {
            g.tokens()
                .iter()
                .filter(|t| matches!(t, urgammon::Token::Roll(_)))
                .count()
        };
        self.finished().iter().map(rolls).sum::<usize>() + rolls(self.current())
    }
}
