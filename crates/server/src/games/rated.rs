//! Rated games: when one ends, the first game of a Ringo pair brings the
//! second (seats swapped, both players sent there as by a rematch); the
//! second game of a pair, or an Urgammon match, rates both accounts once
//! (ratings.rs says how a result becomes a rating period).

use super::{AppState, GameError};
use crate::dice::Ledger;
use crate::hub::{Slot, WsMessage};
use crate::model::{Kind, Status};
use crate::ratings;
use crate::session::Session;
use crate::store::{NewRecord, StoreError};
use std::sync::Arc;

/// The account `me`'s score in a finished game: 1 a win, 0.5 a draw, 0 a
/// loss (a resignation is a loss).
fn score_for(session: &Session, me: i64) -> f64 {
    match session.winner() {
        None => 0.5,
        Some(w) => {
            let winner = session.row.accounts[w as usize].as_ref().map(|a| a.id);
            if winner == Some(me) {
                1.0
            } else {
                0.0
            }
        }
    }
}

impl AppState {
    /// What follows the end of a rated game: the pair's second game, or the
    /// rating. Nothing for a game not rated, not over, or rated already.
    ///
    /// # Errors
    /// The store failed.
    pub(crate) async fn finish_rated(&self, slot: &Arc<Slot>) -> Result<(), GameError> {
        let mut session = slot.session.lock().await;
        // An aborted game has no result: never rated, and no second game.
        if !session.row.rated
            || !session.is_over()
            || session.row.rating_change.is_some()
            || session.status() == Status::Aborted
        {
            return Ok(());
        }
        let (Some(a), Some(b)) = (&session.row.accounts[0], &session.row.accounts[1]) else {
            return Ok(());
        };
        let accounts = [a.id, b.id];
        let mut pair_score = None;
        let scores = match session.kind() {
            Kind::Ringo => {
                let first = session.row.pair_first.clone().unwrap_or_default();
                if first == session.row.id {
                    if session.row.rematch.is_none() {
                        self.second_of_pair(slot, &mut session).await?;
                    }
                    return Ok(());
                }
                let Some(loaded) = self.store().load(&first).await? else {
                    return Ok(());
                };
                let one = Session::from_stored(loaded)?;
                let games = vec![
                    score_for(&one, accounts[0]),
                    score_for(&session, accounts[0]),
                ];
                let points: f64 = games.iter().sum();
                pair_score = Some([points, 2.0 - points]);
                games
            }
            Kind::Urgammon => {
                let to = urgammon::MatchSettings::parse_header(&session.row.settings)
                    .map_or(1, |s| s.to);
                vec![score_for(&session, accounts[0]); ratings::match_weight(to)]
            }
        };
        let rater = Box::new(move |before| ratings::rate(before, &scores));
        if let Some((change, revision)) = self
            .store()
            .rate(
                &session.row.id,
                session.kind(),
                accounts,
                rater,
                pair_score,
                crate::store::now(),
            )
            .await?
        {
            session.row.rating_change = Some(change);
            session.row.pair_score = pair_score;
            session.row.revision = revision;
            slot.broadcast(&WsMessage::State {
                state: Box::new(session.view()),
            });
        }
        Ok(())
    }

    /// Opens a pair's second game: the first's settings, its seats (tokens
    /// and accounts) swapped; the first names it as its rematch, so both
    /// players' pages go there.
    async fn second_of_pair(&self, slot: &Slot, first: &mut Session) -> Result<(), GameError> {
        let mut row = first.row.clone();
        row.id = crate::secrets::game_id().map_err(|e| GameError::Internal(e.to_string()))?;
        row.token0 = first.row.token1.clone();
        row.token1 = first.row.token0.clone();
        row.accounts = [first.row.accounts[1].clone(), first.row.accounts[0].clone()];
        row.status = Status::Ongoing;
        row.reason = None;
        row.rematch = None;
        row.revision = 0;
        row.score = None;
        row.rating_change = None;
        row.pair_score = None;
        row.created_at = crate::store::now();
        row.updated_at = row.created_at;
        // The pair has begun: its second game cannot be aborted, and its
        // clock (the first's settings, afresh) runs from the start.
        row.moved = 3;
        row.clock = first
            .row
            .clock
            .map(|c| c.settings().start(crate::clock::now_ms(), c.first_move_ms));
        row.clock_owner = row.clock.map(|_| self.instance().to_string());
        let second =
            Session::build(row.clone(), vec![], Ledger::default()).map_err(GameError::Internal)?;
        self.store()
            .create(NewRecord {
                row,
                tokens: vec![],
                dice: vec![],
                invite: None,
            })
            .await?;
        let id = second.row.id.clone();
        self.insert(second)?;
        match self
            .store()
            .set_rematch(&first.row.id, first.revision(), id.clone())
            .await
        {
            Ok(revision) => {
                first.row.rematch = Some(id);
                first.row.revision = revision;
                slot.broadcast(&WsMessage::State {
                    state: Box::new(first.view()),
                });
                Ok(())
            }
            // Another instance made the pair's second game first: ours is
            // an orphan nobody is sent to; theirs stands.
            Err(StoreError::Stale(_)) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }
}
