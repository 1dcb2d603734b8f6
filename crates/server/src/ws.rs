//! The WebSocket of a game: it pushes the state now and after every change,
//! and who is connected. A client may say who it is with `hello` and its seat
//! token (never in the URL), which marks its seat present while the socket is
//! open; it may send `ping`. Actions go to the HTTP API, not here.

use crate::app::{AppState, Slot};
use crate::error::ApiError;
use crate::error::ErrorCode;
use crate::limits::Client;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::broadcast;

/// The largest WebSocket message accepted from a client, in bytes.
pub const MAX_WS_MESSAGE: usize = 4 * 1024;

/// Each socket's read buffer: room for the largest message a client may
/// send, and its frame header.
const WS_READ_BUFFER: usize = MAX_WS_MESSAGE + 64;

/// A message the server sends on a game's socket.
#[derive(Serialize, Debug, Clone)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum WsMessage {
    /// The game's state (after every change, and when the socket opens).
    State {
        /// The same object as `GET /api/games/{id}`'s `state`.
        state: Box<crate::session::SessionView>,
    },
    /// Which seats have a player connected.
    Presence {
        /// Seat 0 and seat 1.
        seats: [bool; 2],
    },
    /// The answer to `hello`: the seats the token holds (none for a spectator).
    Hello {
        /// The seats.
        you: Vec<u8>,
    },
    /// A review's progress: `done` of `total` steps; `ready` once it is
    /// stored (then `GET /api/games/{id}/review` returns it).
    Review {
        /// Steps done.
        done: usize,
        /// Steps in all.
        total: usize,
        /// The review is stored.
        ready: bool,
    },
    /// This socket's seat moved to another device (its seat link was
    /// used): the token it said `hello` with holds only `you` now (none: it
    /// watches). Sent at once, so the old device stops looking live.
    Moved {
        /// The seats the token still holds.
        you: Vec<u8>,
    },
    /// The answer to `ping`.
    Pong,
    /// A message the socket does not take.
    Error {
        /// Why.
        error: String,
    },
}

impl WsMessage {
    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{\"type\":\"error\"}".into())
    }
}

/// The close code of a socket closed because the server stops (RFC 6455's
/// "service restart"): the client should reconnect.
pub const RESTART: u16 = 1012;

/// Resolves once the server starts stopping.
async fn closed(closing: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = closing.wait_for(|c| *c).await;
}

/// A message a client may send.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum ClientMessage {
    Hello { token: String },
    Ping,
}

/// `GET /api/games/{id}/ws`.
pub async fn upgrade(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let slot = app.slot(&id).await?;
    // Count the socket now, so a flood of upgrades cannot pass the caps
    // before the first of them is counted.
    let count = SocketCount::take(&app, &slot, client)?;
    // Small buffers: a client sends at most 4 KiB and each message is sent
    // (and flushed) as it comes, so the default 128 KiB read buffer per
    // socket only cost memory (2,000 sockets on one game: 268 MiB).
    Ok(upgrade
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .on_upgrade(move |socket| async move {
            let app = count.app.clone();
            let closing = app.inner.closing.subscribe();
            push_updates(socket, slot, closing).await;
            drop(count);
        }))
}

/// One open socket, counted in all, on its game and for its client's
/// address until dropped.
struct SocketCount {
    app: AppState,
    slot: Arc<Slot>,
    _address: crate::listen::AddressSlot,
}

impl SocketCount {
    fn take(
        app: &AppState,
        slot: &Arc<Slot>,
        client: std::net::IpAddr,
    ) -> Result<SocketCount, ApiError> {
        let o = app.options();
        let address = app.inner.socket_addresses.take(client).ok_or_else(|| {
            ApiError::TooMany(
                ErrorCode::TooManyConnections,
                format!(
                    "too many live connections from your address (at most {}): close some and try again",
                    o.max_sockets_per_address
                ),
                10,
            )
        })?;
        let total = app.inner.sockets.fetch_add(1, Ordering::SeqCst);
        let here = slot.sockets.fetch_add(1, Ordering::SeqCst);
        let count = SocketCount {
            app: app.clone(),
            slot: slot.clone(),
            _address: address,
        };
        if total >= o.max_sockets || here >= o.max_sockets_per_game {
            return Err(ApiError::Unavailable(
                ErrorCode::TooManyConnections,
                format!(
                "too many live connections (at most {} in all and {} per game): try again later",
                o.max_sockets, o.max_sockets_per_game
            ),
            ));
        }
        Ok(count)
    }
}

impl Drop for SocketCount {
    fn drop(&mut self) {
        self.app.inner.sockets.fetch_sub(1, Ordering::SeqCst);
        self.slot.sockets.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Counts a socket as present for its seats until it is dropped.
struct Presence {
    slot: Arc<Slot>,
    seats: Vec<u8>,
}

impl Presence {
    fn set(&mut self, seats: Vec<u8>) {
        self.release();
        for &s in &seats {
            self.slot.presence[s as usize].fetch_add(1, Ordering::SeqCst);
        }
        self.seats = seats;
        self.slot.broadcast(&WsMessage::Presence {
            seats: self.slot.presence(),
        });
    }

    fn release(&mut self) {
        for s in self.seats.drain(..) {
            self.slot.presence[s as usize].fetch_sub(1, Ordering::SeqCst);
        }
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        if !self.seats.is_empty() {
            self.release();
            self.slot.broadcast(&WsMessage::Presence {
                seats: self.slot.presence(),
            });
        }
    }
}

async fn send(socket: &mut WebSocket, msg: &WsMessage) -> bool {
    socket
        .send(Message::Text(msg.to_json().into()))
        .await
        .is_ok()
}

/// Sends the state now and after every change. A client that reconnects gets
/// the current state at once, so it catches up.
/// When the server stops it closes the socket with 1012 (service restart),
/// so the page reconnects, to another instance behind the proxy if need be.
async fn push_updates(
    mut socket: WebSocket,
    slot: Arc<Slot>,
    mut closing: tokio::sync::watch::Receiver<bool>,
) {
    let mut rx = slot.tx.subscribe();
    let first = slot.session.lock().await.view();
    if !send(
        &mut socket,
        &WsMessage::State {
            state: Box::new(first),
        },
    )
    .await
        || !send(
            &mut socket,
            &WsMessage::Presence {
                seats: slot.presence(),
            },
        )
        .await
    {
        return;
    }
    let mut presence = Presence {
        slot: slot.clone(),
        seats: vec![],
    };
    // The token this socket said hello with, and the seat changes seen.
    let mut hello: Option<String> = None;
    let mut seats_seen = slot.seat_changes.load(Ordering::SeqCst);
    loop {
        tokio::select! {
            () = closed(&mut closing) => {
                let _ = socket
                    .send(Message::Close(Some(axum::extract::ws::CloseFrame {
                        code: RESTART,
                        reason: "the server is restarting: reconnect".into(),
                    })))
                    .await;
                return;
            }
            update = rx.recv() => {
                let text: Arc<str> = match update {
                    Ok(text) => text,
                    // Missed updates: send the current state instead.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let now = slot.session.lock().await.view();
                        Arc::from(WsMessage::State { state: Box::new(now) }.to_json())
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                if socket.send(Message::Text(text.to_string().into())).await.is_err() {
                    return;
                }
                // A seat changed hands: does this socket's token still hold
                // what it held?
                let changes = slot.seat_changes.load(Ordering::SeqCst);
                if changes != seats_seen {
                    seats_seen = changes;
                    if let Some(token) = &hello {
                        let you = slot.session.lock().await.seats_for(Some(token));
                        if you != presence.seats {
                            presence.set(you.clone());
                            if !send(&mut socket, &WsMessage::Moved { you }).await {
                                return;
                            }
                        }
                    }
                }
            }
            msg = socket.recv() => {
                let reply = match msg {
                    Some(Ok(Message::Text(t))) if t.as_str() == "ping" => WsMessage::Pong,
                    Some(Ok(Message::Text(t))) => match serde_json::from_str::<ClientMessage>(t.as_str()) {
                        Ok(ClientMessage::Ping) => WsMessage::Pong,
                        Ok(ClientMessage::Hello { token }) => {
                            let you = slot.session.lock().await.seats_for(Some(&token));
                            presence.set(you.clone());
                            hello = Some(token);
                            WsMessage::Hello { you }
                        }
                        Err(_) => WsMessage::Error {
                            error: "this socket takes only {\"type\":\"hello\",\"token\":…} and ping; send actions to POST /api/games/{id}/action".into(),
                        },
                    },
                    Some(Ok(Message::Close(_))) | None => return,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Binary(_))) => WsMessage::Error {
                        error: "this socket takes text messages only".into(),
                    },
                    Some(Err(e)) => {
                        let _ = send(&mut socket, &WsMessage::Error { error: e.to_string() }).await;
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
