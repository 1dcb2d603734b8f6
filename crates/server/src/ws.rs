//! The WebSocket of a game: it pushes the state now and after every change,
//! and who is connected. A client may say who it is with `hello` and its seat
//! token (never in the URL), which marks its seat present while the socket is
//! open; it may send `ping`. Actions go to the HTTP API, not here. The
//! upgrade itself, with its caps, is the HTTP layer's (`http::socket`).

use crate::games::round;
use crate::games::talk;
use crate::games::{Games, Options};
use crate::hub::{closed, say_restarting, Slot};
use crate::model::Seat;
use crate::protocol::{Broadcast, GameIn, GameOut};
use axum::extract::ws::{Message, WebSocket};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tokio::sync::broadcast;

/// The largest WebSocket message accepted from a client, in bytes.
pub const MAX_WS_MESSAGE: usize = 4 * 1024;

/// Each socket's read buffer: room for the largest message a client may
/// send, and its frame header.
pub(crate) const WS_READ_BUFFER: usize = MAX_WS_MESSAGE + 64;

/// Why a socket is not opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SocketRefused {
    /// The client's address has its share open.
    #[error("too many live connections from your address (at most {0}): close some and try again")]
    Address(usize),
    /// The server, or the game, has as many as it takes.
    #[error(
        "too many live connections (at most {all} in all and {per_game} per game): try again later"
    )]
    Full {
        /// Sockets at most, in all.
        all: usize,
        /// Sockets at most on one game.
        per_game: usize,
    },
}

/// The WebSockets open on this instance (in all, and per client address),
/// and the signal that closes them when the server stops.
pub struct Sockets {
    open: AtomicUsize,
    addresses: Arc<crate::hub::PerAddress>,
    closing: tokio::sync::watch::Sender<bool>,
}

impl Sockets {
    /// None open yet; at most `per_address` from one client address.
    pub(crate) fn new(per_address: usize) -> Arc<Sockets> {
        Arc::new(Sockets {
            open: AtomicUsize::new(0),
            addresses: crate::hub::PerAddress::new(per_address, vec![]),
            closing: tokio::sync::watch::channel(false).0,
        })
    }

    /// How many are open now.
    pub(crate) fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    /// Closes every socket with a reconnect hint (the server stops).
    pub(crate) fn close(&self) {
        self.closing.send_replace(true);
    }

    /// True once the sockets are closing.
    pub(crate) fn closing(&self) -> bool {
        *self.closing.borrow()
    }

    /// Raised when the server stops: a socket's `select!` arm.
    pub(crate) fn closing_watch(&self) -> tokio::sync::watch::Receiver<bool> {
        self.closing.subscribe()
    }
}

/// One open socket, counted in all, on its game (none: the lobby's) and for
/// its client's address until dropped.
pub(crate) struct SocketCount {
    sockets: Arc<Sockets>,
    slot: Option<Arc<Slot>>,
    _address: crate::hub::AddressSlot,
}

impl SocketCount {
    /// Counts a socket on a game's slot (none: the lobby's), or refuses it
    /// past the caps.
    pub(crate) fn take(
        sockets: &Arc<Sockets>,
        o: &Options,
        slot: Option<&Arc<Slot>>,
        client: std::net::IpAddr,
    ) -> Result<SocketCount, SocketRefused> {
        let address = sockets
            .addresses
            .take(client)
            .ok_or(SocketRefused::Address(o.max_sockets_per_address))?;
        let total = sockets.open.fetch_add(1, Ordering::SeqCst);
        let here = slot.map_or(0, |s| s.sockets.fetch_add(1, Ordering::SeqCst));
        let count = SocketCount {
            sockets: sockets.clone(),
            slot: slot.cloned(),
            _address: address,
        };
        if total >= o.max_sockets || here >= o.max_sockets_per_game {
            return Err(SocketRefused::Full {
                all: o.max_sockets,
                per_game: o.max_sockets_per_game,
            });
        }
        Ok(count)
    }
}

impl Drop for SocketCount {
    fn drop(&mut self) {
        self.sockets.open.fetch_sub(1, Ordering::SeqCst);
        if let Some(slot) = &self.slot {
            slot.sockets.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Counts a socket as present for its seats until it is dropped; the store
/// hears of each change (every instance must know who is gone before a win
/// is claimed).
struct Presence {
    app: Games,
    slot: Arc<Slot>,
    seats: Vec<Seat>,
}

impl Presence {
    fn set(&mut self, seats: Vec<Seat>) {
        self.release();
        for &s in &seats {
            self.slot.presence[s.index()].fetch_add(1, Ordering::SeqCst);
            talk::note_presence(&self.app, &self.slot, s);
        }
        self.seats = seats;
        talk::tell_presence_soon(&self.app, &self.slot);
    }

    fn release(&mut self) {
        for s in self.seats.drain(..) {
            if self.slot.presence[s.index()].fetch_sub(1, Ordering::SeqCst) == 1 {
                self.slot.left_at[s.index()].store(crate::clock::now_ms(), Ordering::SeqCst);
            }
            talk::note_presence(&self.app, &self.slot, s);
        }
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        if !self.seats.is_empty() {
            self.release();
            talk::tell_presence_soon(&self.app, &self.slot);
        }
    }
}

async fn send(socket: &mut WebSocket, msg: &GameOut) -> bool {
    socket
        .send(Message::Text(msg.to_json().into()))
        .await
        .is_ok()
}

/// Sends the state now and after every change. A client that reconnects gets
/// the current state at once, so it catches up.
/// When the server stops it closes the socket with 1012 (service restart),
/// so the page reconnects, to another instance behind the proxy if need be.
///
/// Why one function of 110 lines: it is a socket's one select loop, each of
/// its arms (the server stopping, a change of the game, a message of the
/// client) writing to the same socket in turn.
pub(crate) async fn push_updates(
    mut socket: WebSocket,
    app: Games,
    slot: Arc<Slot>,
    mut closing: tokio::sync::watch::Receiver<bool>,
    account: Option<i64>,
) {
    let mut rx = slot.tx.subscribe();
    let first = {
        let session = slot.session.lock().await;
        round::shown(&app, &slot, &session)
    };
    if !send(
        &mut socket,
        &GameOut::State {
            state: Box::new(first),
        },
    )
    .await
        || !send(&mut socket, &talk::presence_message(&app, &slot).await).await
    {
        return;
    }
    let mut presence = Presence {
        app,
        slot: slot.clone(),
        seats: vec![],
    };
    // The token this socket said hello with, and the seat changes seen.
    let mut hello: Option<String> = None;
    let mut seats_seen = slot.seat_changes.load(Ordering::SeqCst);
    loop {
        tokio::select! {
            () = closed(&mut closing) => {
                say_restarting(&mut socket).await;
                return;
            }
            update = rx.recv() => {
                let sent: Broadcast = match update {
                    Ok(sent) => sent,
                    // Missed updates: send the current state instead.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let now = {
                            let session = slot.session.lock().await;
                            round::shown(&presence.app, &slot, &session)
                        };
                        GameOut::State { state: Box::new(now) }.broadcast()
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                // A chat line goes only where its reader may read it (the
                // players' room, a block, a hidden line): the one policy.
                if let Some(line) = &sent.line {
                    if !talk::socket_may_read(&presence.app, &slot, &presence.seats, account, line).await {
                        continue;
                    }
                }
                if socket.send(Message::Text(sent.json.to_string().into())).await.is_err() {
                    return;
                }
                // A seat changed hands: does this socket's token still hold
                // what it held?
                let changes = slot.seat_changes.load(Ordering::SeqCst);
                if changes != seats_seen {
                    seats_seen = changes;
                    if hello.is_some() || account.is_some() {
                        let you = slot.session.lock().await.seats_held(hello.as_deref(), account);
                        if you != presence.seats {
                            presence.set(you.clone());
                            if !send(&mut socket, &GameOut::Moved { you }).await {
                                return;
                            }
                        }
                    }
                }
            }
            msg = socket.recv() => {
                let reply = match msg {
                    Some(Ok(Message::Text(t))) if t.as_str() == "ping" => GameOut::Pong,
                    Some(Ok(Message::Text(t))) => match serde_json::from_str::<GameIn>(t.as_str()) {
                        Ok(GameIn::Ping) => GameOut::Pong,
                        Ok(GameIn::Hello { token }) => {
                            let you = slot.session.lock().await.seats_held(Some(&token), account);
                            presence.set(you.clone());
                            hello = Some(token);
                            GameOut::Hello { you }
                        }
                        Err(_) => GameOut::Error {
                            error: "this socket takes only {\"type\":\"hello\",\"token\":…} and ping; send actions to POST /api/games/{id}/action".into(),
                        },
                    },
                    Some(Ok(Message::Close(_))) | None => return,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Binary(_))) => GameOut::Error {
                        error: "this socket takes text messages only".into(),
                    },
                    Some(Err(e)) => {
                        let _ = send(&mut socket, &GameOut::Error { error: e.to_string() }).await;
                        return;
                    }
                };
                if !send(&mut socket, &reply).await {
                    return;
                }
            }
        }
    }
}
