//! Ringo's session rules: one game, no dice.

use super::actions::{Action, Refusal, SessionError};
use super::rules::{End, GameRules, GameView};
use crate::dice::Die;
use crate::model::Seat;
use crate::model::{Kind, Status};
use agon_views::RingoGame;

/// A Ringo game from its rules string, start position and moves.
pub(super) fn build(
    settings: &str,
    start: Option<&str>,
    moves: &[String],
) -> Result<ringo::Game, String> {
    let r: ringo::Rules = settings.parse().map_err(|e| format!("rules: {e}"))?;
    ringo::Game::from_moves(r, start, moves.iter().map(String::as_str)).map_err(|e| e.to_string())
}

fn seat(side: ringo::Side) -> Seat {
    Seat::from(side)
}

impl GameRules for ringo::Game {
    fn kind(&self) -> Kind {
        Kind::Ringo
    }

    fn over(&self) -> bool {
        self.is_over()
    }

    fn to_act(&self) -> Option<Seat> {
        Some(seat(self.position().to_move()))
    }

    fn winner(&self) -> Option<Seat> {
        self.outcome().and_then(|o| o.winner).map(seat)
    }

    fn play_move(&mut self, _seat: Seat, text: &str) -> Result<String, SessionError> {
        let legal = self.legal_moves();
        let m = self
            .play_text(text)
            .map_err(|e| SessionError::Conflict(Refusal::IllegalMove, e.to_string()))?;
        Ok(m.to_notation(&legal))
    }

    fn die_for(&self, _action: &Action) -> Result<Die, SessionError> {
        Err(SessionError::BadRequest(
            Refusal::NoDice,
            "Ringo has no dice: send a move".into(),
        ))
    }

    fn apply_die(&mut self, token: &str) -> Result<(), String> {
        Err(format!("Ringo has no dice: {token}"))
    }

    /// Before the last move of one of the seats.
    fn undo_point(&self, _recorded: usize, seats: &[Seat]) -> Option<usize> {
        (0..self.ply()).rev().find(|&i| {
            self.position_at(i)
                .is_some_and(|p| seats.contains(&seat(p.to_move())))
        })
    }

    fn record(&self) -> String {
        ringo::Game::record(self)
    }

    fn no_next_game(&self, _over: bool) -> String {
        "Ringo is one game: there is no next game".into()
    }

    fn view(&self, end: Option<End>, status: Status) -> GameView {
        let mut v = RingoGame::of(self);
        if let Some(end) = end {
            v.status = status.name();
            v.reason = Some(end.reason());
            v.moves.clear();
            v.legal.clear();
        }
        GameView::Ringo(Box::new(v))
    }

    fn review_steps(&self) -> usize {
        self.ply()
    }

    fn turns(&self) -> usize {
        self.ply()
    }
}
