//! Who is online: each open site socket counts its player here (signed in
//! by account, else as one anonymous socket), and a loop notes this
//! instance's count in the store whenever it changed, so every instance
//! answers the same players (an instance that stops beating its heart is
//! left out of the count within `ONLINE_FRESH_MS`, `service.rs`).

use super::service::{Inner, People};
use crate::hub::{closed, say_restarting, Heard};
use crate::protocol::SiteOut;
use axum::extract::ws::{Message, WebSocket};
use std::sync::atomic::Ordering;
use std::sync::Weak;

/// How often this instance's count is written, when it changed.
const WRITE_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// One open site socket, counted until it is dropped.
pub struct OnlineSocket {
    people: People,
    account: Option<i64>,
}

impl People {
    /// Counts one more site socket of `account` (none: not signed in).
    pub fn arrive(&self, account: Option<i64>) -> OnlineSocket {
        match account {
            Some(a) => {
                if let Ok(mut here) = self.inner.here.lock() {
                    *here.entry(a).or_insert(0) += 1;
                }
            }
            None => {
                self.inner.anonymous.fetch_add(1, Ordering::SeqCst);
            }
        }
        self.inner.dirty.store(true, Ordering::SeqCst);
        OnlineSocket {
            people: self.clone(),
            account,
        }
    }
}

impl Drop for OnlineSocket {
    fn drop(&mut self) {
        let inner = &self.people.inner;
        match self.account {
            Some(a) => {
                if let Ok(mut here) = inner.here.lock() {
                    if let Some(n) = here.get_mut(&a) {
                        *n -= 1;
                        if *n == 0 {
                            here.remove(&a);
                        }
                    }
                }
            }
            None => {
                inner.anonymous.fetch_sub(1, Ordering::SeqCst);
            }
        }
        inner.dirty.store(true, Ordering::SeqCst);
    }
}

/// Notes this instance's players online in the store whenever they
/// changed (checked twice a second), for as long as the service lives.
pub(super) async fn keep(people: Weak<Inner>, mut stopping: crate::tasks::Stopping) {
    let mut tick = tokio::time::interval(WRITE_EVERY);
    loop {
        tokio::select! {
            () = stopping.wait() => return,
            _ = tick.tick() => {}
        }
        let Some(inner) = people.upgrade() else {
            return;
        };
        if !inner.dirty.swap(false, Ordering::SeqCst) {
            continue;
        }
        let accounts: Vec<i64> = inner
            .here
            .lock()
            .map(|h| h.keys().copied().collect())
            .unwrap_or_default();
        let anonymous = inner.anonymous.load(Ordering::SeqCst) as i64;
        let store = inner.games.store().clone();
        let instance = inner.games.instance().to_string();
        drop(inner);
        if let Err(e) = store.set_online(&instance, accounts, anonymous).await {
            tracing::warn!(error = %e, "could not note who is online here");
            if let Some(inner) = people.upgrade() {
                inner.dirty.store(true, Ordering::SeqCst);
            }
        }
    }
}

async fn send(socket: &mut WebSocket, msg: &SiteOut) -> bool {
    socket
        .send(Message::Text(msg.to_json().into()))
        .await
        .is_ok()
}

/// Runs one site socket: counts its player online while it is open, and
/// tells the page when her challenges change. Closed with 1012 when the
/// server stops, so the page reconnects.
pub(crate) async fn run(
    mut socket: WebSocket,
    people: People,
    account: Option<i64>,
    mut closing: tokio::sync::watch::Receiver<bool>,
) {
    let mut changes = people.changes();
    let _counted = people.arrive(account);
    if !send(
        &mut socket,
        &SiteOut::Hello {
            signed_in: account.is_some(),
        },
    )
    .await
    {
        return;
    }
    loop {
        tokio::select! {
            () = closed(&mut closing) => {
                say_restarting(&mut socket).await;
                return;
            }
            changed = changes.recv() => {
                let mine = match changed {
                    Ok(a) => account.is_some_and(|me| a == me || a == 0),
                    // Missed some: look again, to be sure.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => account.is_some(),
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                };
                if mine && !send(&mut socket, &SiteOut::Challenges).await {
                    return;
                }
            }
            msg = socket.recv() => {
                let reply = match Heard::of(msg) {
                    Heard::Ping => SiteOut::Pong,
                    Heard::Gone => return,
                    Heard::Nothing => continue,
                    Heard::Other => SiteOut::Error {
                        error: "this socket takes only ping",
                    },
                };
                if !send(&mut socket, &reply).await {
                    return;
                }
            }
        }
    }
}
