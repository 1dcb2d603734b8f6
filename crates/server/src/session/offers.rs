//! What one player offers the other in a game between people, and the win
//! claimed from an opponent who left: a takeback (offered, accepted,
//! declined), a rematch (offered and declined here; accepting it makes a
//! new game, which the games service does), and the claim. An offer is kept
//! in the row until answered, and lapses when the position moves on (every
//! other action clears it).

use super::actions::{Refusal, SessionError};
use super::game::Session;
use super::moment::Moment;
use super::rules::End;
use crate::model::Seat;
use crate::model::{Mode, Offer, OfferKind};
use crate::store::Commit;

/// How long the opponent of a live game must have been gone (no socket
/// open, no decision made) before the win may be claimed.
pub const CLAIM_AFTER_MS: i64 = 60_000;

impl Session {
    /// The seat a player offers or answers from: offers are between two
    /// people, each holding one seat.
    fn talking_seat(&self, seats: &[Seat]) -> Result<Seat, SessionError> {
        match (self.mode(), seats) {
            (Mode::Friend, [seat]) => Ok(*seat),
            _ => Err(SessionError::Conflict(
                Refusal::NoOffers,
                "offers are between two people: against the computer or on one screen, use undo and rematch".into(),
            )),
        }
    }

    /// Whether the win may be claimed from a player of this game who is
    /// gone long enough (the one copy of the rule, read by a claim and by
    /// the presence the pages are shown): a game between two people, in
    /// play and begun, not by correspondence.
    ///
    /// # Errors
    /// Why not, in words.
    pub fn claimable(&self) -> Result<(), &'static str> {
        if self.mode() != Mode::Friend || self.is_over() {
            return Err("only a game in play between two people is claimed");
        }
        if self.correspondence() {
            return Err("a correspondence game is not claimed: its days per move decide");
        }
        if self.row.moved != 3 {
            return Err("the game has not begun: abort it instead");
        }
        Ok(())
    }

    /// Where a takeback of `seat`'s last decision cuts the record, as Undo
    /// would in a game against the computer; `None` when it has none to
    /// take back (none yet, or the game, or this game of the match, is
    /// over).
    pub fn takeback_point(&self, seat: Seat) -> Option<usize> {
        if self.is_over() || self.between_games() {
            return None;
        }
        self.rules.undo_point(self.tokens.len(), &[seat])
    }

    /// The offer of `kind` the other player made, which these seats may
    /// answer.
    ///
    /// # Errors
    /// Not a game between two people, or no such offer waits.
    pub fn answerable(&self, seats: &[Seat], kind: OfferKind) -> Result<Offer, SessionError> {
        let seat = self.talking_seat(seats)?;
        self.row
            .offer
            .filter(|o| o.kind == kind && o.seat != seat)
            .ok_or_else(|| {
                SessionError::Conflict(
                    Refusal::NoOffer,
                    format!(
                        "there is no {} offer from your opponent to answer",
                        offer_word(kind)
                    ),
                )
            })
    }

    /// Offers a takeback (of the offerer's last decision) or, after the
    /// end, a rematch. The same offer the other player made already is
    /// accepted instead: both want it.
    pub(super) fn offer(
        &self,
        seats: &[Seat],
        kind: OfferKind,
        at: &Moment<'_>,
    ) -> Result<(Session, Commit), SessionError> {
        let seat = self.talking_seat(seats)?;
        if let Some(o) = self.row.offer.filter(|o| o.kind == kind) {
            if o.seat == seat {
                return Err(SessionError::Conflict(
                    Refusal::OfferPending,
                    format!(
                        "you have offered a {} already: wait for the answer",
                        offer_word(kind)
                    ),
                ));
            }
            if kind == OfferKind::Takeback {
                return self.accept(seats, kind, at);
            }
        }
        match kind {
            OfferKind::Takeback if self.is_over() => {
                return Err(SessionError::Conflict(
                    Refusal::GameOver,
                    "the game is over: nothing can be taken back".into(),
                ))
            }
            OfferKind::Takeback if self.takeback_point(seat).is_none() => {
                return Err(SessionError::Conflict(
                    Refusal::CannotUndo,
                    if self.between_games() {
                        "this game is over: its result stands".into()
                    } else {
                        "there is no move of yours to take back".into()
                    },
                ))
            }
            OfferKind::Rematch if !self.is_over() => {
                return Err(SessionError::Conflict(
                    Refusal::RematchBeforeEnd,
                    "a rematch comes after the end: finish or resign this game first".into(),
                ))
            }
            OfferKind::Rematch if self.row.rematch.is_some() => {
                return Err(SessionError::Conflict(
                    Refusal::NoOffers,
                    "the rematch has been made already".into(),
                ))
            }
            _ => {}
        }
        let mut next = self.clone();
        next.row.offer = Some(Offer { kind, seat });
        Ok(next.sealed(self, self.tokens.len(), vec![]))
    }

    /// Accepts the other player's takeback: the record is cut before the
    /// offerer's last decision (and the reply to it), as Undo cuts it.
    pub(super) fn accept(
        &self,
        seats: &[Seat],
        kind: OfferKind,
        at: &Moment<'_>,
    ) -> Result<(Session, Commit), SessionError> {
        let offer = self.answerable(seats, kind)?;
        if kind == OfferKind::Rematch {
            // The games service makes the new game; this is only reached
            // by a caller that forgot that.
            return Err(SessionError::Conflict(
                Refusal::WrongMoment,
                "a rematch is accepted by the games service".into(),
            ));
        }
        let keep = self.takeback_point(offer.seat).ok_or_else(|| {
            SessionError::Conflict(
                Refusal::CannotUndo,
                "there is nothing left to take back".into(),
            )
        })?;
        let mut next = Session::build(
            self.row.clone(),
            self.tokens[..keep].to_vec(),
            self.ledger.clone(),
        )
        .map_err(SessionError::Corrupt)?;
        next.row.offer = None;
        let quiet = Moment { lag_ms: 0, ..*at };
        self.wind(&mut next, &quiet);
        Ok(next.sealed(self, keep, vec![]))
    }

    /// Declines the other player's offer.
    pub(super) fn decline(
        &self,
        seats: &[Seat],
        kind: OfferKind,
        _at: &Moment<'_>,
    ) -> Result<(Session, Commit), SessionError> {
        self.answerable(seats, kind)?;
        let mut next = self.clone();
        next.row.offer = None;
        Ok(next.sealed(self, self.tokens.len(), vec![]))
    }

    /// Claims the win of a live game whose opponent has been gone
    /// `absent_ms`: it needs `needed_ms` ([`CLAIM_AFTER_MS`] unless the
    /// server says otherwise). A game that has not begun is aborted
    /// instead, and a correspondence game's days decide.
    pub(super) fn claim(
        &self,
        seats: &[Seat],
        absent_ms: i64,
        needed_ms: i64,
        at: &Moment<'_>,
    ) -> Result<(Session, Commit), SessionError> {
        let seat = self.talking_seat(seats)?;
        let refuse = |why: String| Err(SessionError::Conflict(Refusal::CannotClaim, why));
        if self.is_over() {
            return Err(SessionError::Conflict(
                Refusal::GameOver,
                "the game is over".into(),
            ));
        }
        if let Err(why) = self.claimable() {
            return refuse(why.into());
        }
        if absent_ms < needed_ms {
            return refuse(format!(
                "your opponent has been gone {} s: the win may be claimed after {} s",
                absent_ms.max(0) / 1000,
                needed_ms / 1000
            ));
        }
        Ok(self.stop_with(End::Claimed(seat.other()), at))
    }
}

/// The offer's name in English messages.
fn offer_word(kind: OfferKind) -> &'static str {
    match kind {
        OfferKind::Takeback => "takeback",
        OfferKind::Rematch => "rematch",
    }
}
