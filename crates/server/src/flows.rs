//! What one request asks of several services, written once and called by
//! every way in (its owner's request, a moderator's action, a future
//! operator's command), as lila's modules answer one another's events: a
//! closed account's after-effects, and a moderator's action with all it
//! owes. A handler calls one of these; none strings services together.

use crate::accounts::AccountError;
use crate::games::{players, recount, GameError};
use crate::lobby::LobbyError;
use crate::model::Kind;
use crate::safety::{ActionView, ModAction, ModAsk, SafetyError};
use crate::state::AppState;
use crate::store::accounts::Account;
use crate::store::{SeatAccount, StoreError};
use crate::tournaments::TournamentError;
use std::net::IpAddr;

/// Why a workflow stopped: the refusal or failure of the service that
/// stopped it, with that service's own code.
#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    /// The accounts service.
    #[error(transparent)]
    Account(#[from] AccountError),
    /// The safety service (a moderator's action refused).
    #[error(transparent)]
    Safety(#[from] SafetyError),
    /// The games service.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The lobby.
    #[error(transparent)]
    Lobby(#[from] LobbyError),
    /// The tournaments service.
    #[error(transparent)]
    Tournament(#[from] TournamentError),
    /// The store.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Its owner deletes her account (checked by her password), and then all
/// a closed account owes ([`account_closed`]).
///
/// # Errors
/// A wrong password (throttled by address); a service failed.
pub async fn delete_account(
    app: &AppState,
    account: &Account,
    password: String,
    address: Option<IpAddr>,
) -> Result<(), FlowError> {
    app.accounts().delete(account, password, address).await?;
    account_closed(app, account.id).await
}

/// What a closed account owes, whoever closed it (its owner, a
/// moderator): the games in memory show the deleted player from now on
/// (through the games' door); her open challenges and seeks go; she
/// leaves every event not finished.
///
/// # Errors
/// The store failed.
pub async fn account_closed(app: &AppState, account: i64) -> Result<(), FlowError> {
    players::refresh_account(app.games(), account).await;
    app.lobby().account_closed(account).await?;
    app.tournaments().account_closed(account).await?;
    Ok(())
}

/// A moderator's action, logged by the safety service, and everything it
/// owes elsewhere before the moderator hears: what it tells the player
/// reaches every page she has open; a closed account is closed everywhere;
/// a new name shows in her games in play; a mark or an unmark replays
/// every game's ratings.
///
/// # Errors
/// Not a moderator, the action refused (in words); a service failed.
pub async fn moderate(
    app: &AppState,
    me: &SeatAccount,
    ask: &ModAsk,
) -> Result<ActionView, FlowError> {
    let done = app.safety().act(me, ask).await?;
    // What a moderator tells her (a warning, a mute and why, a mark)
    // reaches every page she has open at once, on every instance: the
    // site's socket tells the page, which reads her notices.
    if ask.action.tells_her() {
        app.people().announce(done.target_id).await?;
    }
    match ask.action {
        // A closed account leaves its games (through the games' door) and
        // the lobby, as when its owner deletes it.
        ModAction::Close => account_closed(app, done.target_id).await?,
        // Games in play show the new name at once (other instances hear
        // of it from the store).
        ModAction::Rename => players::refresh_account(app.games(), done.target_id).await,
        // A mark takes her rated games out of every rating, an unmark puts
        // them back: the ratings are replayed before the moderator hears.
        ModAction::Mark | ModAction::Unmark => {
            for kind in Kind::ALL {
                recount::replay_ratings(app.games(), kind).await?;
            }
        }
        ModAction::Warn
        | ModAction::Mute
        | ModAction::Unmute
        | ModAction::RatedBan
        | ModAction::LiftRatedBan
        | ModAction::CloseReport
        | ModAction::Grant => {}
    }
    Ok(done)
}
