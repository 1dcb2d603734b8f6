//! Seats and accounts: a signed-in player claims the seats her browser's
//! tokens hold, so her games follow her to any device where she signs in;
//! a deleted account's name leaves the games in memory. Both are changes
//! of a game through its door.

use super::change::{Cause, Change};
use super::clocks;
use super::error::GameError;
use super::round;
use super::service::Games;
use crate::hub::Slot;
use crate::model::Seat;
use crate::store::SeatAccount;
use std::sync::Arc;

/// The most games one request may claim (a browser's whole list).
pub const MAX_CLAIMS: usize = 500;

/// A game's slot and the seats the request's token and account hold in
/// it.
pub(crate) async fn slot_and_seats(
    games: &Games,
    id: &str,
    token: Option<&str>,
    account: Option<i64>,
) -> Result<(Arc<Slot>, Vec<crate::model::Seat>), GameError> {
    let slot = games.slot(id).await?;
    let mut seats = slot.session.lock().await.seats_held(token, account);
    // Another instance may have handed a seat to this token a moment
    // ago (its announcement is on its way): look at the stored game.
    if seats.is_empty() && token.is_some_and(|t| !t.is_empty()) && games.store().is_shared() {
        round::catch_up(games, &slot).await?;
        seats = slot.session.lock().await.seats_held(token, account);
    }
    Ok((slot, seats))
}

/// Gives the seats `token` holds in game `id` to `account`, except a
/// seat another account holds already. Returns the seats that are now
/// the account's (claimed now or before); a game that does not exist or
/// a token that holds nothing gives none.
///
/// # Errors
/// The store failed.
pub async fn claim_seats(
    games: &Games,
    id: &str,
    token: &str,
    account: &SeatAccount,
) -> Result<Vec<Seat>, GameError> {
    let found = games.slot(id).await;
    if matches!(found, Err(GameError::NotFound(_))) {
        return Ok(vec![]);
    }
    let slot = found?;
    // One seat a change: each is decided again on the game as it
    // stands when its turn comes (the token may have lost the seat).
    for seat in Seat::BOTH {
        round::change(games, &slot, Cause::Player, |session| {
            let free = session.row.accounts[seat.index()].is_none();
            if !free || !session.seats_for(Some(token)).contains(&seat) {
                return Ok(None);
            }
            Ok(Some(Change::SeatAccount {
                seat,
                account: account.clone(),
            }))
        })
        .await?;
    }
    let session = slot.session.lock().await;
    let held = session.seats_for(Some(token));
    Ok(session
        .seats_of(Some(account.id))
        .into_iter()
        .filter(|s| held.contains(s))
        .collect())
}

/// Shows an account's name as stored now (a new name, or none once
/// deleted) in every game in memory where it holds a seat, through the
/// door (the store already shows it so to every game loaded later).
/// Called where the name changed, and on every instance when the store
/// announces the player changed.
pub async fn refresh_account(games: &Games, account: i64) {
    let slots = games.slots_in_memory();
    let mut name = None;
    for slot in slots {
        let holds = slot
            .session
            .lock()
            .await
            .row
            .accounts
            .iter()
            .flatten()
            .any(|a| a.id == account);
        if !holds {
            continue;
        }
        // Read once, and only when a game in memory shows her.
        if name.is_none() {
            match games.store().account(account).await {
                Ok(a) => name = Some(a.and_then(|a| a.name)),
                Err(e) => {
                    tracing::warn!(error = %e, "could not read a renamed account");
                    return;
                }
            }
        }
        let now = name.clone().flatten();
        let shown = round::change(games, &slot, Cause::Server, |session| {
            let stale = session
                .row
                .accounts
                .iter()
                .flatten()
                .any(|a| a.id == account && a.name != now);
            Ok(stale.then(|| Change::AccountName {
                account,
                name: now.clone(),
            }))
        })
        .await;
        if let Err(e) = shown {
            tracing::warn!(error = %e, "could not show an account's new name in a game");
        }
    }
}

/// Takes a seat of game `id` with a one-time invite `code` (a friend's
/// invite, or a seat link from another device): the code's seat (or
/// both) goes to `token`, and to the signed-in player's account; a
/// friend game that was waiting for her begins (the wait for the first
/// move starts now). Each step is a change through the door. Returns
/// the seats the token holds.
///
/// # Errors
/// A spent code, a rated game joined signed out or by its creator, the
/// store.
pub(crate) async fn join(
    games: &Games,
    id: &str,
    code: &str,
    token: &str,
    account: Option<&SeatAccount>,
) -> Result<Vec<Seat>, GameError> {
    let slot = games.slot(id).await?;
    // A player banned from rated play takes no seat of a rated game.
    if let Some(a) = account {
        let rated = slot.session.lock().await.row.rated;
        if rated
            && crate::safety::rated_banned(games.store(), a.id)
                .await?
                .is_some()
        {
            return Err(GameError::RatedBanned);
        }
    }
    let (code, token_hash) = (crate::secrets::hash(code), crate::secrets::hash(token));
    let mut was_waiting = false;
    let outcome = round::change(games, &slot, Cause::Player, |session| {
        // A rated game is between two accounts: the friend joins
        // signed in, and not as the creator.
        if session.row.rated {
            let Some(a) = account else {
                return Err(GameError::RatedNeedsAccount);
            };
            if session.seats_of(Some(a.id)).len() == 1 {
                return Err(GameError::OwnRatedGame);
            }
        }
        was_waiting = session.waiting_for_friend();
        Ok(Some(Change::Invite {
            code: code.clone(),
            token: token_hash.clone(),
        }))
    })
    .await?;
    let seat = outcome
        .written
        .and_then(|w| w.seat)
        .ok_or(GameError::InviteUsed)?;
    // A signed-in player's new seat is her account's too.
    if let Some(account) = account {
        claim_seats(games, id, token, account).await?;
    }
    if was_waiting {
        clocks::restart_clock(games, &slot).await?;
    }
    Ok(seat.seats())
}

/// A player goes berserk in game `id` (a tournament's, before her first
/// decision): her own clock halved, through the door. Answers her seat.
///
/// # Errors
/// Not her game; a moment when she may not ([`Session::berserk`]).
pub(crate) async fn berserk(games: &Games, id: &str, account: i64) -> Result<Seat, GameError> {
    let slot = games.slot(id).await?;
    let mut seat = None;
    let instance = games.instance().to_string();
    round::change(games, &slot, Cause::Player, |session| {
        let Some(&s) = session.seats_of(Some(account)).first() else {
            return Err(crate::session::SessionError::Forbidden(
                crate::session::Refusal::WatchOnly,
                "this is not your game".into(),
            )
            .into());
        };
        seat = Some(s);
        let at = crate::session::Moment::now(&instance, 0);
        let (next, commit) = session.berserk(s, &at).map_err(|r| {
            crate::session::SessionError::Conflict(
                r,
                "berserk is for a live clock, before your first move, once".into(),
            )
        })?;
        Ok(Some(Change::Play(Box::new(next), commit)))
    })
    .await?;
    seat.ok_or_else(|| GameError::Internal("berserk without a seat".into()))
}
