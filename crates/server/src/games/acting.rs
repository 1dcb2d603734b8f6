//! What a player asks of a game, as the API names it, turned into the
//! rules' action by the games service's policy: against the computer or on
//! one screen a takeback needs nobody's agreement (it is Undo) and a
//! rematch offer is accepted at once; a rated game's takebacks need both
//! players to allow them; a claim measures the opponent's absence; a
//! rematch accepted makes the new game (the rematcher). Then through the
//! door, as every change.

use super::change::{Cause, Change};
use super::error::GameError;
use super::players;
use super::rematch;
use super::round;
use super::service::Games;
use super::talk;
use crate::dice::OsDice;
use crate::hub::Slot;
use crate::model::{Mode, OfferKind, Seat};
use crate::session::Moment;
use crate::session::{Action, SessionView};
use serde::Deserialize;
use std::sync::Arc;

/// What a player asks of a game (the action's `type` in the API).
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum Ask {
    /// Play `move`.
    Move,
    /// Urgammon: roll the chance die.
    Roll,
    /// Urgammon: roll the verdict die.
    Verdict,
    /// Take back your last decision.
    Undo,
    /// Give up the game (Ringo) or match (Urgammon).
    Resign,
    /// Urgammon: start the next game after a game has ended.
    Next,
    /// After the end: a new game with the same settings and the seats swapped.
    Rematch,
    /// End a game between two people before both have moved (no result).
    Abort,
    /// Ask the other player to take back your last decision (against the
    /// computer or on one screen: taken back at once, as `undo`).
    TakebackOffer,
    /// Take back as the other player asked.
    TakebackAccept,
    /// Refuse the other player's takeback.
    TakebackDecline,
    /// After the end: offer the other player a rematch (the computer, or a
    /// game on one screen, accepts at once, as `rematch`).
    RematchOffer,
    /// Accept the other player's rematch: the new game is made.
    RematchAccept,
    /// Refuse the other player's rematch.
    RematchDecline,
    /// Claim the win: the opponent of a live game has been gone 60 s.
    Claim,
}

/// What an action did.
pub struct Acted {
    /// The game's state after it.
    pub state: SessionView,
    /// The seats the request holds.
    pub you: Vec<Seat>,
    /// For a rematch: the new game's id.
    pub rematch: Option<String>,
    /// For a rematch of a friend game whose other seat was never taken:
    /// that seat's invite code.
    pub invite: Option<String>,
}

/// Does what a player asks of game `id` for the seats her `token` and
/// `account` hold (`notation`: a move's), if the game is still at
/// `expect_revision` (when given); `lag_ms` is credited to her clock
/// for a decision.
///
/// # Errors
/// The rules' refusal, a stale revision, takebacks off, not a player,
/// the store.
pub(crate) async fn act(
    games: &Games,
    id: &str,
    who: (Option<&str>, Option<i64>),
    ask: Ask,
    notation: Option<String>,
    expect_revision: Option<i64>,
    lag_ms: i64,
) -> Result<Acted, GameError> {
    let (token, account) = who;
    let rematched = |games: &Games| {
        let games = games.clone();
        async move {
            let made = rematch::rematch(&games, id, token, account, expect_revision).await?;
            Ok::<_, GameError>(Acted {
                state: made.state,
                you: made.you,
                rematch: Some(made.game),
                invite: made.invite,
            })
        }
    };
    if ask == Ask::Rematch {
        return rematched(games).await;
    }
    let (slot, seats) = players::slot_and_seats(games, id, token, account).await?;
    let mode = slot.session.lock().await.mode();
    let action = match ask {
        Ask::Move => Action::Move(notation.unwrap_or_default()),
        Ask::Roll => Action::Roll,
        Ask::Verdict => Action::Verdict,
        Ask::Undo => Action::Undo,
        Ask::Resign => Action::Resign,
        Ask::Next => Action::Next,
        Ask::Abort => Action::Abort,
        // Against the computer or on one screen nobody need agree.
        Ask::TakebackOffer if mode != Mode::Friend => Action::Undo,
        Ask::RematchOffer if mode != Mode::Friend => return rematched(games).await,
        Ask::TakebackOffer => {
            takebacks_allowed(games, &slot).await?;
            Action::Offer(OfferKind::Takeback)
        }
        Ask::TakebackAccept => Action::Accept(OfferKind::Takeback),
        Ask::TakebackDecline => Action::Decline(OfferKind::Takeback),
        Ask::RematchOffer => Action::Offer(OfferKind::Rematch),
        Ask::RematchDecline => Action::Decline(OfferKind::Rematch),
        Ask::RematchAccept => {
            if seats.is_empty() {
                return Err(GameError::NotAPlayer(
                    "only the players can answer an offer".into(),
                ));
            }
            slot.session
                .lock()
                .await
                .answerable(&seats, OfferKind::Rematch)?;
            return rematched(games).await;
        }
        Ask::Claim => {
            // The opponent of a player holding one seat.
            let absent_ms = match seats.as_slice() {
                [seat] => talk::absence(games, &slot, seat.other())
                    .await?
                    .unwrap_or(0),
                _ => 0,
            };
            Action::Claim {
                absent_ms,
                needed_ms: games.options().claim_after.as_millis() as i64,
            }
        }
        Ask::Rematch => return rematched(games).await,
    };
    let (state, you) = apply(games, &slot, &seats, &action, expect_revision, lag_ms).await?;
    Ok(Acted {
        state,
        you,
        rematch: None,
        invite: None,
    })
}

/// A rated game's takebacks need both players to allow them (a setting
/// of each account, on by default).
async fn takebacks_allowed(games: &Games, slot: &crate::hub::Slot) -> Result<(), GameError> {
    let (rated, accounts) = {
        let s = slot.session.lock().await;
        (s.row.rated, s.row.accounts.clone())
    };
    if !rated {
        return Ok(());
    }
    for a in accounts.iter().flatten() {
        let settings = games
            .store()
            .account(a.id)
            .await?
            .and_then(|acc| acc.settings);
        if !crate::accounts::allows_takebacks(settings.as_deref()) {
            return Err(GameError::TakebacksOff);
        }
    }
    Ok(())
}

/// Applies a player's action to a game for the seats her request
/// holds, if the game is still at `expect_revision` (when given),
/// through the door. Returns the state after it and the seats. A
/// client that reports `lag_ms` of network lag is credited that much
/// on its clock for a decision, up to the bound.
pub(crate) async fn apply(
    games: &Games,
    slot: &Arc<Slot>,
    seats: &[Seat],
    action: &Action,
    expect_revision: Option<i64>,
    lag_ms: i64,
) -> Result<(crate::session::SessionView, Vec<Seat>), GameError> {
    let lag_ms = if action.is_decision() { lag_ms } else { 0 };
    let outcome = round::change(games, slot, Cause::Player, |session| {
        if let Some(r) = expect_revision.filter(|r| *r != session.revision()) {
            return Err(GameError::Stale {
                sent: r,
                now: session.revision(),
            });
        }
        let at = Moment::now(games.instance(), lag_ms);
        let (next, commit) = session.act_at(seats, action, &mut OsDice, &at)?;
        Ok(Some(Change::Play(Box::new(next), commit)))
    })
    .await?;
    Ok((outcome.view, seats.to_vec()))
}
