//! A game's one door (lila's round): every change of a game, whoever causes
//! it, goes through [`change`]. It locks the game, asks the caller
//! to decide the change on the session as it stands (pure), writes it with
//! the revision check ([`write`], the one function that commits a
//! game), takes the stored game and decides again when another instance
//! was first, and then runs [`after_change`], which owes every
//! after-effect by construction: a game that just ended is finished (rated,
//! a pair's second game opened: `finish.rs`), the clock's deadline noted,
//! the one broadcast of the state ([`publish`]), the computer stopped or
//! woken, and the Web Push notices the change calls for. A caller chooses
//! none of these: a new way to change a game is a new [`Change`] or a new
//! caller of the door, never a copy of it.
//!
//! One second door, for one reason: the ratings recount (`recount.rs`)
//! rewrites many finished games' rating changes at once, in one store
//! transaction (a rating list and its games must move together, or a
//! recount half done would show), bumping each game's revision and
//! announcing it as [`write`] does. It then brings every such game held in
//! memory up to the store through this door's [`catch_up`], so its sockets
//! get the one broadcast; other instances hear of each game from the store,
//! as of any change. A finished game owes nothing else (no clock, no
//! computer, no notice): those are the same after-effects.

use super::change::{Cause, Change, Outcome, Written};
use super::error::GameError;
use super::finish;
use super::service::{Games, Wake};
use super::talk;
use crate::hub::Slot;
use crate::model::Offer;
use crate::model::Seat;
use crate::protocol::GameOut;
use crate::session::{Session, SessionView};
use crate::store::StoreError;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::MutexGuard;

/// What the after-effects compare: the game as it was before the change.
struct Before {
    revision: i64,
    over: bool,
    seat_to_act: Option<Seat>,
    offer: Option<Offer>,
    tokens: usize,
    keeper: Option<String>,
    seats: [Option<String>; 2],
    accounts: [Option<i64>; 2],
}

impl Before {
    fn of(s: &Session) -> Before {
        Before {
            revision: s.revision(),
            over: s.is_over(),
            seat_to_act: s.seat_to_act(),
            offer: s.row.offer,
            tokens: s.tokens.len(),
            keeper: s.row.clock_owner.clone(),
            seats: [s.row.token0.clone(), s.row.token1.clone()],
            accounts: accounts_of(s),
        }
    }
}

fn accounts_of(s: &Session) -> [Option<i64>; 2] {
    [0, 1].map(|i| s.row.accounts[i].as_ref().map(|a| a.id))
}

/// The one broadcast of a game's state to its sockets.
fn publish(slot: &Slot, view: &SessionView) {
    Slot::broadcast(
        slot,
        &GameOut::State {
            state: Box::new(view.clone()),
        },
    );
}

/// A game's state as its sockets and readers are shown it: a clock
/// whose keeper (another instance) has gone silent is shown paused
/// where the keeper was last seen alive, until it is heard again or
/// the clock is taken over (`clocks.rs`).
pub(crate) fn shown(games: &Games, slot: &Slot, session: &Session) -> SessionView {
    let view = session.view();
    let seen = slot.keeper_lost_since.load(Ordering::SeqCst);
    let elsewhere = session.row.clock_owner.as_deref() != Some(games.instance());
    if seen > 0 && elsewhere && view.clock.is_some() {
        let clock = session.clock_view_paused(seen, crate::clock::now_ms());
        return SessionView { clock, ..view };
    }
    view
}

/// Tells a game's sockets its state again, unchanged but for how it is
/// shown (its clock's keeper went silent, or was heard again).
pub(crate) async fn republish(games: &Games, slot: &Arc<Slot>) {
    let view = {
        let session = slot.session.lock().await;
        shown(games, slot, &session)
    };
    publish(slot, &view);
}

/// How many times a change is decided again on the stored game before the
/// door gives up (another instance kept changing the game first).
const TRIES: usize = 3;

/// The one door: decides a change of the game in `slot` with `decide`
/// (on the session as it stands; `Ok(None)`: nothing to change),
/// writes it with the revision check, and owes every after-effect. On
/// a shared store, a decision refused here, or a write another
/// instance beat, is made again on the stored game.
///
/// # Errors
/// The decision's refusal, or the store's failure.
pub(crate) async fn change(
    games: &Games,
    slot: &Arc<Slot>,
    cause: Cause,
    mut decide: impl FnMut(&Session) -> Result<Option<Change>, GameError>,
) -> Result<Outcome, GameError> {
    let mut session = slot.session.lock().await;
    let before = Before::of(&session);
    let shared = games.store().is_shared();
    // The game as stored may be newer than the one held here: once it
    // was read, the sockets here must hear of it even if nothing is
    // written after all.
    let mut caught_up = false;
    let mut tries = 0;
    let result = loop {
        let decided = match decide(&session) {
            Ok(d) => d,
            // The game held here may be behind the stored one (its
            // announcement is on its way): judged again on it.
            Err(e) if shared && tries < TRIES => {
                tries += 1;
                match catch_up_locked(games, &mut session).await {
                    Ok(true) => {
                        caught_up = true;
                        // Its sockets see the other instance's change
                        // before this one (a watcher misses no move).
                        publish(slot, &shown(games, slot, &session));
                        continue;
                    }
                    Ok(false) => break Err(e),
                    Err(err) => break Err(err),
                }
            }
            Err(e) => break Err(e),
        };
        let Some(change) = decided else {
            break Ok(None);
        };
        match write(games, &mut session, change).await {
            Ok(w) => break Ok(Some(w)),
            // Another instance changed the game first: take the stored
            // game and decide again.
            Err(GameError::Store(StoreError::Stale(_))) if shared && tries < TRIES => {
                tries += 1;
                match catch_up_locked(games, &mut session).await {
                    Ok(c) => {
                        if c {
                            publish(slot, &shown(games, slot, &session));
                        }
                        caught_up |= c;
                    }
                    Err(err) => break Err(err),
                }
            }
            Err(e) => break Err(e),
        }
    };
    let written = matches!(result, Ok(Some(_)));
    if !written && !caught_up {
        // A deadline that fell due with nothing to fire (its clock
        // went to another instance) is forgotten here.
        games.watch_clock(&session);
        let view = session.view();
        return result.map(|written| Outcome { view, written });
    }
    let cause = if written { cause } else { Cause::Elsewhere };
    let view = after_change(games, slot, session, before, cause).await;
    result.map(|written| Outcome { view, written })
}

/// Brings a game held in memory up to the stored one (another instance
/// changed it), through the door: its sockets are told and the
/// computer looks again. Returns whether anything changed.
///
/// # Errors
/// The store failed.
pub(crate) async fn catch_up(games: &Games, slot: &Arc<Slot>) -> Result<bool, GameError> {
    let mut session = slot.session.lock().await;
    let before = Before::of(&session);
    let changed = catch_up_locked(games, &mut session).await?;
    if changed {
        after_change(games, slot, session, before, Cause::Elsewhere).await;
    }
    Ok(changed)
}

/// Finishes a game that ended while no instance finished it (a crash
/// in between: found when it is loaded), through the door's
/// after-change.
pub(crate) async fn finish_late(games: &Games, slot: &Arc<Slot>) {
    let mut session = slot.session.lock().await;
    let before = Before::of(&session);
    if finish_owed(games, &mut session).await {
        after_change(games, slot, session, before, Cause::Server).await;
    }
}

/// Finishes a game that has just ended, held locked: writes what the
/// finisher says finishing owes (`finish.rs`: a pair's second game
/// linked, or the rating). A write another instance beat (it finished
/// the game first) is no failure: the stored game, read again, says how
/// it was finished. A failure is logged: the game stays ended, and is
/// finished when next loaded. Returns whether the game changed.
async fn finish_owed(games: &Games, session: &mut Session) -> bool {
    match write_owed(games, session).await {
        Ok(changed) => changed,
        Err(e) => {
            tracing::error!(error = %e, game = %session.row.id, "finishing a game failed");
            false
        }
    }
}

async fn write_owed(games: &Games, session: &mut Session) -> Result<bool, GameError> {
    let Some(owed) = finish::owed(games, session).await? else {
        return Ok(false);
    };
    let rating = matches!(owed, Change::Rated { .. });
    match write(games, session, owed).await {
        Ok(_) => {
            if rating {
                finish::rated(games, session);
            }
            Ok(true)
        }
        Err(GameError::Store(StoreError::Stale(_))) => catch_up_locked(games, session).await,
        Err(e) => Err(e),
    }
}

/// Replaces a session (held locked) by the game as stored now, when
/// another instance changed it (its revision, or its seats). Returns
/// whether anything changed. Nobody is told here: the door's
/// after-change does that.
pub(super) async fn catch_up_locked(
    games: &Games,
    session: &mut Session,
) -> Result<bool, GameError> {
    let loaded = games
        .store()
        .load(&session.row.id)
        .await?
        .ok_or_else(|| GameError::NotFound(session.row.id.clone()))?;
    let fresh = Session::from_stored(loaded)?;
    let changed = fresh.revision() != session.revision()
        || fresh.row.token0 != session.row.token0
        || fresh.row.token1 != session.row.token1
        || accounts_of(&fresh) != accounts_of(session);
    if changed {
        *session = fresh;
    }
    Ok(changed)
}

/// Writes one change of a game (the one function that commits a game)
/// and makes it the session held: durable before anyone is told.
///
/// # Errors
/// [`StoreError::Stale`] when the stored game has moved on; a spent
/// invite; the store's failure. Nothing is changed then.
pub(super) async fn write(
    games: &Games,
    session: &mut Session,
    change: Change,
) -> Result<Written, GameError> {
    let id = session.row.id.clone();
    let store = games.store();
    let from = session.revision();
    match change {
        Change::Play(next, commit) => {
            let started = std::time::Instant::now();
            store.commit(&id, commit).await?;
            crate::metrics::commit(started.elapsed());
            *session = *next;
        }
        Change::SeatAccount { seat, account } => {
            session.row.revision = store.set_seat_account(&id, from, seat, account.id).await?;
            session.row.accounts[seat.index()] = Some(account);
        }
        Change::Invite { code, token } => {
            let (seat, revision) = store
                .claim_invite(&id, code, token.clone())
                .await?
                .ok_or(GameError::InviteUsed)?;
            for s in seat.seats() {
                match s {
                    Seat::First => session.row.token0 = Some(token.clone()),
                    Seat::Second => session.row.token1 = Some(token.clone()),
                }
            }
            session.row.revision = revision;
            return Ok(Written { seat: Some(seat) });
        }
        Change::Link(next) => {
            session.row.revision = store.set_rematch(&id, from, next.clone()).await?;
            session.row.rematch = Some(next);
            session.row.offer = None;
        }
        Change::Rated {
            accounts,
            rater,
            pair_score,
        } => {
            let kind = session.kind();
            let rated = store
                .rate(&id, kind, accounts, rater, pair_score, crate::store::now())
                .await?;
            // Rated already (by another instance): the stored game
            // says how.
            let Some((change, revision)) = rated else {
                return Err(StoreError::Stale(from).into());
            };
            session.row.rating_change = Some(change);
            session.row.pair_score = pair_score;
            session.row.revision = revision;
        }
        Change::AccountName { account, name } => {
            for a in session.row.accounts.iter_mut().flatten() {
                if a.id == account {
                    a.name = name.clone();
                }
            }
        }
    }
    Ok(Written::default())
}

/// Every after-effect of a change, owed by construction: a game that
/// just ended finished (by the one finisher), the clock's deadline
/// noted, the state published once, a search for a position that is
/// gone stopped, the computer woken, and the players told by Web Push
/// of what concerns them. Returns the state as published.
async fn after_change(
    games: &Games,
    slot: &Arc<Slot>,
    mut session: MutexGuard<'_, Session>,
    before: Before,
    cause: Cause,
) -> SessionView {
    let owed = cause != Cause::Elsewhere;
    let ended = !before.over && session.is_over();
    if owed && ended {
        crate::metrics::game_ended(session.row.reason.as_deref().unwrap_or("end"));
        finish_owed(games, &mut session).await;
    }
    // Told once finished (a pair's second game linked, a rating
    // written), wherever it ended.
    if ended {
        let _ = games.inner.ended.send(session.row.id.clone());
    }
    games.watch_clock(&session);
    // A new keeper has just written the clock: it is not silent.
    if session.row.clock_owner != before.keeper {
        slot.keeper_lost_since.store(0, Ordering::SeqCst);
    }
    let view = shown(games, slot, &session);
    let seats_moved = before.seats != [session.row.token0.clone(), session.row.token1.clone()]
        || before.accounts != accounts_of(&session);
    let correspondence = session.correspondence();
    drop(session);
    if seats_moved {
        slot.seat_changes.fetch_add(1, Ordering::SeqCst);
    }
    // The position the computer is searching is gone (an Undo, a
    // resignation, a change made elsewhere): its search ends at once.
    if cause != Cause::Computer && (view.version != before.tokens || view.over) {
        slot.stop_engine();
    }
    publish(slot, &view);
    // An absent player's absence is counted from the game's last
    // change at most: the pages hear the measure again.
    if slot.presence() != [true, true] && view.mode == crate::model::Mode::Friend {
        talk::tell_presence_soon(games, slot);
    }
    if owed {
        push_notices(games, slot, &before, &view, correspondence, ended).await;
    }
    games.wake(Wake::Computer(slot.clone()));
    tracing::trace!(game = %view.id, from = before.revision, to = view.revision, ?cause, "game changed");
    view
}

/// The Web Push notices a change calls for: an offer made to a player,
/// her turn beginning in a correspondence game, and its end.
async fn push_notices(
    games: &Games,
    slot: &Arc<Slot>,
    before: &Before,
    view: &SessionView,
    correspondence: bool,
    ended: bool,
) {
    use crate::push::Event;
    if let Some(offer) = view.offer.as_ref() {
        let new = before
            .offer
            .is_none_or(|o| o.kind != offer.kind || o.seat != offer.seat);
        if new {
            talk::notify_seat(
                games,
                slot,
                offer.seat.other(),
                Event::Offer(offer.kind),
                None,
            )
            .await;
        }
    }
    if !correspondence {
        return;
    }
    if let Some(next) = view.seat_to_act.filter(|s| before.seat_to_act != Some(*s)) {
        talk::notify_seat(games, slot, next, Event::Turn, None).await;
    }
    if ended {
        for seat in Seat::BOTH {
            talk::notify_seat(games, slot, seat, Event::Ended, None).await;
        }
    }
}
