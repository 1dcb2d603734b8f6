//! Who is here: the players with a page of the site open (each page keeps
//! a socket, `GET /api/site/ws`), counted on every instance through the
//! store; the players one follows; and the pages to tell when a player's
//! challenges change (lila's `socket` presence and `relation` modules).
//! The lobby (challenges) and the HTTP layer call it; it calls only the
//! games service (for its store, its loops and Web Push).

mod follows;
mod online;

pub use follows::{FollowError, MAX_FOLLOWS};
pub(crate) use online::run;
pub use online::{OnlineSocket, ONLINE_FRESH_MS};

use crate::games::Games;
use crate::store::{Notice, OnlineNow, Store};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// The people service. Clones share one.
#[derive(Clone)]
pub struct People {
    inner: Arc<Inner>,
}

struct Inner {
    games: Games,
    /// Signed-in sockets open here, per account.
    here: Mutex<HashMap<i64, usize>>,
    /// Sockets open here of players not signed in.
    anonymous: std::sync::atomic::AtomicUsize,
    /// Raised when `here` or `anonymous` changed since the store last
    /// heard of them.
    dirty: std::sync::atomic::AtomicBool,
    /// The accounts whose challenges just changed: each site socket looks
    /// for its own.
    changed: broadcast::Sender<i64>,
    /// The last answer of who is online, and when it was read: the store
    /// is asked at most once a second, however many pages ask.
    cached: tokio::sync::Mutex<Option<(std::time::Instant, OnlineNow)>>,
}

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

    pub(crate) fn store(&self) -> &Store {
        self.inner.games.store()
    }

    /// The games service (for Web Push).
    pub(crate) fn games(&self) -> &Games {
        &self.inner.games
    }

    /// Tells the pages of `account` that her challenges changed: at once
    /// on a store no one shares; on PostgreSQL through the store's
    /// announcement (made with the change), which every instance hears.
    pub(crate) fn person_changed(&self, account: i64) {
        if !self.store().is_shared() {
            let _ = self.inner.changed.send(account);
        }
    }

    /// Hears of the accounts whose challenges change.
    pub(crate) fn changes(&self) -> broadcast::Receiver<i64> {
        self.inner.changed.subscribe()
    }

    /// Who is online on every live instance (read from the store at most
    /// once a second).
    ///
    /// # Errors
    /// The store failed.
    pub async fn online(&self) -> Result<OnlineNow, crate::store::StoreError> {
        let mut cached = self.inner.cached.lock().await;
        if let Some((at, now)) = cached.as_ref() {
            if at.elapsed() < std::time::Duration::from_secs(1) {
                return Ok(now.clone());
            }
        }
        let since = crate::clock::now_ms() - ONLINE_FRESH_MS;
        let now = self.store().online(since).await?;
        *cached = Some((std::time::Instant::now(), now.clone()));
        Ok(now)
    }

    /// Whether `account` has a page open (on any instance).
    ///
    /// # Errors
    /// The store failed.
    pub async fn is_online(&self, account: i64) -> Result<bool, crate::store::StoreError> {
        if self
            .inner
            .here
            .lock()
            .is_ok_and(|h| h.get(&account).is_some_and(|n| *n > 0))
        {
            return Ok(true);
        }
        Ok(self.online().await?.ids.contains(&account))
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
