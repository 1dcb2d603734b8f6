//! The rematcher (lila's `Rematcher`): a new game with the same settings
//! and the seats swapped, each player's token holding her new seat, so both
//! land in it without a new secret; the finished game is linked to it
//! through the door. Asked twice, it gives the same game.

use super::change::{Cause, Change};
use super::error::GameError;
use super::finish::begin_pair;
use super::opening::{new_row, open_game, NewGame};
use super::round;
use super::service::Games;
use crate::model::Mode;
use crate::model::{InviteSeats, Seat};
use crate::secrets;
use crate::session::{Refusal, SessionError, SessionView};

/// A rematch made (or found made already).
pub(crate) struct Rematched {
    /// The finished game's state, linked to the rematch.
    pub state: SessionView,
    /// The seats the request holds in the finished game.
    pub you: Vec<Seat>,
    /// The rematch's id.
    pub game: String,
    /// For a friend game whose other seat was never taken: that seat's new
    /// invite code.
    pub invite: Option<String>,
}

/// The rematch's row, made from the finished game in `session`: the same
/// game, settings, clock (afresh) and rating, the seats (and the accounts
/// holding them) swapped; a friend seat never taken gets a fresh invite
/// code, answered beside the row.
fn next_row(
    games: &Games,
    session: &crate::session::Session,
) -> Result<(crate::store::GameRow, Option<(String, Seat)>), GameError> {
    let g = NewGame {
        kind: session.kind(),
        settings: session.row.settings.clone(),
        start: session.row.start_position.clone(),
        mode: session.mode(),
        level: session.row.level,
        my_seat: Seat::First,
        tokens: vec![],
        // A rated game's rematch is rated too (a Ringo pair's: a
        // new pair).
        rated: session.row.rated,
        // A live game's rematch has the same clock, afresh.
        clock: session.row.clock.map(|c| c.settings()),
        first_move_ms: games.first_move_ms(),
    };
    let mut row = new_row(
        &g,
        session.row.token1.clone(),
        session.row.token0.clone(),
        session.row.engine_seat.map(Seat::other),
    )?;
    row.level = session.row.level;
    begin_pair(&mut row);
    // The seats swap, and so do the accounts that hold them.
    row.accounts = [
        session.row.accounts[1].clone(),
        session.row.accounts[0].clone(),
    ];
    // A friend seat that was never taken gets a fresh invite code.
    let free = match (session.mode(), &row.token0, &row.token1) {
        (Mode::Friend, None, _) => Some(Seat::First),
        (Mode::Friend, _, None) => Some(Seat::Second),
        _ => None,
    };
    let invite = match free {
        Some(seat) => Some((secrets::secret()?, seat)),
        None => None,
    };
    Ok((row, invite))
}

/// The rematch of game `id` for a request holding `token` and signed in
/// as `account`, if the game is still at `expect_revision` (when
/// given).
///
/// # Errors
/// Not a player, a stale revision, a game not over, the store.
pub(crate) async fn rematch(
    games: &Games,
    id: &str,
    token: Option<&str>,
    account: Option<i64>,
    expect_revision: Option<i64>,
) -> Result<Rematched, GameError> {
    let slot = games.slot(id).await?;
    // What the new game is, read on the finished one.
    let (you, row, invite) = {
        let session = slot.session.lock().await;
        let you = session.seats_held(token, account);
        if you.is_empty() {
            return Err(GameError::NotAPlayer(
                "only the players can ask for a rematch".into(),
            ));
        }
        if let Some(r) = expect_revision.filter(|r| *r != session.revision()) {
            return Err(GameError::Stale {
                sent: r,
                now: session.revision(),
            });
        }
        if let Some(existing) = session.row.rematch.clone() {
            return Ok(Rematched {
                state: session.view(),
                you,
                game: existing,
                invite: None,
            });
        }
        if !session.is_over() {
            return Err(SessionError::Conflict(
                Refusal::RematchBeforeEnd,
                "a rematch comes after the end: finish or resign this game first".into(),
            )
            .into());
        }
        let (row, invite) = next_row(games, &session)?;
        (you, row, invite)
    };
    let new_id = row.id.clone();
    let invite_hash = invite
        .as_ref()
        .map(|(code, seat)| (secrets::hash(code), InviteSeats::One(*seat)));
    open_game(
        games,
        row,
        vec![],
        invite_hash.as_ref().map(|(h, s)| (h.as_str(), *s)),
    )
    .await?;
    let outcome = round::change(games, &slot, Cause::Player, |session| {
        // Another request made the rematch first: ours is an
        // orphan nobody is sent to, and theirs stands.
        if session.row.rematch.is_some() {
            return Ok(None);
        }
        Ok(Some(Change::Link(new_id.clone())))
    })
    .await?;
    let game = outcome.view.rematch.clone().unwrap_or(new_id.clone());
    Ok(Rematched {
        invite: invite.filter(|_| game == new_id).map(|(code, _)| code),
        state: outcome.view,
        you,
        game,
    })
}
