//! Who is here: the players with a page of the site open (each page keeps
//! a socket, `GET /api/site/ws`), counted on every instance through the
//! store; the players one follows; and the pages to tell when a player's
//! challenges change (lila's `socket` presence and `relation` modules).
//! The lobby (challenges) and the HTTP layer call it; it calls only the
//! games service (for its store, its loops and Web Push).

mod follows;
mod online;
mod service;

pub use follows::{FollowError, MAX_FOLLOWS};
pub(crate) use online::run;
pub use online::OnlineSocket;
pub use service::{People, ONLINE_FRESH_MS};

use crate::games::Games;
use crate::store::Notice;
use service::Inner;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

impl People {
    /// The service over the games service; its loops (noting this
    /// instance's players in the store, following other instances'
    /// changes) start here and stop with the app's tasks.
    pub(crate) fn start(games: Games) -> People {
        let notices = games.store().notices();
        let people = People {
            inner: Arc::new(Inner {
                games,
                here: Mutex::new(HashMap::new()),
                anonymous: std::sync::atomic::AtomicUsize::new(0),
                dirty: std::sync::atomic::AtomicBool::new(true),
                changed: broadcast::channel(256).0,
                cached: tokio::sync::Mutex::new(None),
            }),
        };
        let weak = Arc::downgrade(&people.inner);
        people
            .inner
            .games
            .spawn(online::keep(weak.clone(), people.inner.games.stopping()));
        if let Some(notices) = notices {
            people
                .inner
                .games
                .spawn(follow(weak, notices, people.inner.games.stopping()));
        }
        people
    }
}

/// Follows the store's announcements of players whose challenges changed
/// (made by any instance, this one too) for as long as the service lives.
async fn follow(
    people: std::sync::Weak<Inner>,
    mut notices: broadcast::Receiver<Notice>,
    mut stopping: crate::tasks::Stopping,
) {
    use broadcast::error::RecvError;
    loop {
        let heard = tokio::select! {
            () = stopping.wait() => return,
            heard = notices.recv() => heard,
        };
        let Some(inner) = people.upgrade() else {
            return;
        };
        match heard {
            Ok(Notice::Person { account }) => {
                let _ = inner.changed.send(account);
            }
            // Announcements were missed: every page looks again (0 is no
            // account: the sockets take it as "everyone").
            Ok(Notice::Resync) | Err(RecvError::Lagged(_)) => {
                let _ = inner.changed.send(0);
            }
            Ok(_) => {}
            Err(RecvError::Closed) => return,
        }
    }
}
