//! Seats and accounts: a signed-in player claims the seats her browser's
//! tokens hold, so her games follow her to any device where she signs in.

use super::{AppState, GameError};
use crate::hub::WsMessage;
use crate::store::{SeatAccount, StoreError};
use std::sync::atomic::Ordering;

/// The most games one request may claim (a browser's whole list).
pub const MAX_CLAIMS: usize = 500;

impl AppState {
    /// Gives the seats `token` holds in game `id` to `account`, except a
    /// seat another account holds already. Returns the seats that are now
    /// the account's (claimed now or before); a game that does not exist or
    /// a token that holds nothing gives none.
    ///
    /// # Errors
    /// The store failed.
    pub async fn claim_seats(
        &self,
        id: &str,
        token: &str,
        account: &SeatAccount,
    ) -> Result<Vec<u8>, GameError> {
        let slot = match self.slot(id).await {
            Ok(slot) => slot,
            Err(GameError::NotFound(_)) => return Ok(vec![]),
            Err(e) => return Err(e),
        };
        let mut session = slot.session.lock().await;
        for _attempt in 0..3 {
            let seats = session.seats_for(Some(token));
            let free: Vec<u8> = seats
                .iter()
                .copied()
                .filter(|&s| session.row.accounts[s as usize].is_none())
                .collect();
            if free.is_empty() {
                break;
            }
            let mut revision = session.revision();
            let mut stale = false;
            for &seat in &free {
                match self
                    .store()
                    .set_seat_account(id, revision, seat, account.id)
                    .await
                {
                    Ok(next) => {
                        revision = next;
                        session.row.revision = next;
                        session.row.accounts[seat as usize] = Some(account.clone());
                    }
                    Err(StoreError::Stale(_)) => {
                        stale = true;
                        break;
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            if stale {
                // Another instance changed the game: read it again and retry.
                self.reload(&slot, &mut session).await?;
                continue;
            }
            slot.seat_changes.fetch_add(1, Ordering::SeqCst);
            slot.broadcast(&WsMessage::State {
                state: Box::new(session.view()),
            });
            break;
        }
        let held = session.seats_for(Some(token));
        Ok(session
            .seats_of(Some(account.id))
            .into_iter()
            .filter(|s| held.contains(s))
            .collect())
    }
}

impl AppState {
    /// Shows an account deleted in every game in memory where it holds a
    /// seat (the store already shows it so to every game loaded later).
    pub async fn forget_account(&self, account: i64) {
        let slots: Vec<_> = match self.inner.games.lock() {
            Ok(g) => g.values().cloned().collect(),
            Err(_) => return,
        };
        for slot in slots {
            let mut session = slot.session.lock().await;
            let mut changed = false;
            for a in session.row.accounts.iter_mut().flatten() {
                if a.id == account && a.name.is_some() {
                    a.name = None;
                    changed = true;
                }
            }
            if changed {
                slot.broadcast(&WsMessage::State {
                    state: Box::new(session.view()),
                });
            }
        }
    }
}
