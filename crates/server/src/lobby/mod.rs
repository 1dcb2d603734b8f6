//! The lobby: seeks (a player waiting for an opponent, with the game, its
//! rules or match length, a clock, rated or casual, an optional rating
//! range) and quick pairing (`pools.rs`). A seek is taken by one
//! conditional write in the store, so it becomes one game however many
//! accept it at once; its creator, waiting on the lobby's socket, is sent
//! there. A seek lasts while a lobby socket of its creator holds it.
//! As lila splits `lobby` from `round`, the lobby only opens games: playing
//! them is the games service's.

mod challenges;
mod error;
mod fairplay;
mod housekeeping;
mod meeting;
mod pools;
pub(crate) mod service;
pub(crate) mod socket;

pub use challenges::{
    ChallengeCursor, ChallengeView, Challenges, ANSWERED_SHOWN_MS, CHALLENGES_PAGE,
    LIVE_CHALLENGE_MS, MAX_CHALLENGES_EACH,
};
pub use fairplay::{abandoned_by, ended_early_by, pause_ms, ABANDONS_BEFORE_PAUSE, FIRST_PAUSE_MS};
pub use pools::{PoolView, EVEN_RULES, POOLS};
pub(crate) use service::WeakLobby;
pub use service::{
    Lobby, LobbyError, Made, Paired, Pause, SeekSpec, SeekView, MAX_SEEKS_EACH, SEEK_TTL_MS,
};

use crate::games::Games;
use crate::hub::LobbyHub;
use crate::store::Notice;
use service::Inner;
use std::sync::Arc;

impl Lobby {
    /// The lobby over the games service; its loops (the batches, the
    /// fan-out, the housekeeping, the follower of other instances'
    /// changes) start here and stop with the app's tasks.
    pub(crate) fn start(games: Games, people: crate::people::People) -> Lobby {
        let notices = games.store().notices();
        let lobby = Lobby {
            inner: Arc::new(Inner {
                games,
                people,
                hub: LobbyHub::new(),
            }),
        };
        housekeeping::start(&lobby);
        if let Some(notices) = notices {
            lobby.spawn(follow(lobby.downgrade(), notices, lobby.stopping()));
        }
        lobby
    }
}

/// Follows the store's announcements of lobby changes (another instance's
/// seek, or this one's, heard back through PostgreSQL) for as long as the
/// lobby lives. One that fell behind mends the lobby from the store.
async fn follow(
    lobby: WeakLobby,
    mut notices: tokio::sync::broadcast::Receiver<Notice>,
    mut stopping: crate::tasks::Stopping,
) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        let heard = tokio::select! {
            () = stopping.wait() => return,
            heard = notices.recv() => heard,
        };
        let Some(lobby) = lobby.upgrade() else { return };
        match heard {
            Ok(Notice::Lobby(change)) => lobby.hub().changed(&change),
            Ok(_) => {}
            Err(RecvError::Lagged(_)) => lobby.seed_lobby().await,
            Err(RecvError::Closed) => return,
        }
    }
}
