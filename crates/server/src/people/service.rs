//! The people service's handle: `People`, what it keeps in memory, and
//! what the lobby and the HTTP layer ask of it.

use crate::games::Games;
use crate::store::{OnlineNow, Store};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use tokio::sync::broadcast;

/// An instance counts for who is online while it was heard from this
/// lately (its heartbeat's dead line: a killed instance's players leave
/// the count within it).
pub const ONLINE_FRESH_MS: i64 = crate::games::DEAD_AFTER_MS;

/// The people service. Clones share one.
#[derive(Clone)]
pub struct People {
    pub(super) inner: Arc<Inner>,
}

pub(super) struct Inner {
    pub(super) games: Games,
    /// Signed-in sockets open here, per account.
    pub(super) here: Mutex<HashMap<i64, usize>>,
    /// Sockets open here of players not signed in.
    pub(super) anonymous: std::sync::atomic::AtomicUsize,
    /// Raised when `here` or `anonymous` changed since the store last
    /// heard of them.
    pub(super) dirty: std::sync::atomic::AtomicBool,
    /// The accounts whose challenges just changed: each site socket looks
    /// for its own.
    pub(super) changed: broadcast::Sender<i64>,
    /// The last answer of who is online, and when it was read: the store
    /// is asked at most once a second, however many pages ask.
    pub(super) cached: tokio::sync::Mutex<Option<(std::time::Instant, OnlineNow)>>,
}

impl People {
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

    /// Tells the pages of `account` on every instance that something of
    /// hers changed outside a store write that announces it itself (a
    /// tournament's news, a moderator's word): here at once, elsewhere
    /// through the store's announcement.
    ///
    /// # Errors
    /// The store failed to announce it.
    pub(crate) async fn announce(&self, account: i64) -> Result<(), crate::store::StoreError> {
        self.person_changed(account);
        self.store().announce_person(account).await
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
