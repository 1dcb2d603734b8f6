//! The lobby's WebSocket (`/api/lobby/ws`): the open seeks and pools when
//! it opens, then every change, batched (`{"type": "lobby", "added",
//! "gone"}`; a taken seek's `gone` names its game, so its creator goes
//! there). A client holds its own seek with `{"type": "hold", "seek",
//! "token"}`: the seek lasts while a socket holds it.

use super::{PoolView, SeekView};
use crate::games::AppState;
use crate::hub::RESTART;
use axum::extract::ws::{Message, WebSocket};
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

/// The most seeks one lobby socket may hold.
const MAX_HELD: usize = 8;

/// A message a lobby client may send.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum ClientMessage {
    Hold { seek: String, token: String },
    Ping,
}

/// A message the lobby socket sends besides the batched changes.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum LobbyMessage<'a> {
    /// Everything open now (when the socket opens, and after it fell
    /// behind).
    Seeks {
        seeks: &'a [SeekView],
        pools: &'a [PoolView],
    },
    /// The answer to `hold`.
    Held { seek: &'a str, ok: bool },
    /// The answer to `ping`.
    Pong,
    /// A message the socket does not take.
    Error { error: &'a str },
}

fn text(msg: &LobbyMessage<'_>) -> Message {
    Message::Text(
        serde_json::to_string(msg)
            .unwrap_or_else(|_| "{\"type\":\"error\"}".into())
            .into(),
    )
}

/// The whole lobby as one message.
async fn snapshot(app: &AppState) -> Message {
    let seeks = app.seeks().await.unwrap_or_default();
    let pools = app.pools().await.unwrap_or_default();
    text(&LobbyMessage::Seeks {
        seeks: &seeks,
        pools: &pools,
    })
}

/// Resolves once the server starts stopping.
async fn closed(closing: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = closing.wait_for(|c| *c).await;
}

/// Runs a lobby socket until it closes; the seeks it held go with it.
pub async fn run(mut socket: WebSocket, app: AppState) {
    let mut rx = app.inner.lobby.subscribe();
    let mut closing = app.inner.closing.subscribe();
    let mut held: Vec<String> = vec![];
    if socket.send(snapshot(&app).await).await.is_ok() {
        serve(&mut socket, &app, &mut rx, &mut closing, &mut held).await;
    }
    for id in held {
        app.release_seek(&id).await;
    }
}

async fn serve(
    socket: &mut WebSocket,
    app: &AppState,
    rx: &mut broadcast::Receiver<axum::extract::ws::Utf8Bytes>,
    closing: &mut tokio::sync::watch::Receiver<bool>,
    held: &mut Vec<String>,
) {
    // One wait for the server's stop for the socket's whole life: made anew
    // at each message it cost every socket a lock on the shared channel.
    let stopping = closed(closing);
    tokio::pin!(stopping);
    loop {
        tokio::select! {
            () = &mut stopping => {
                let _ = socket
                    .send(Message::Close(Some(axum::extract::ws::CloseFrame {
                        code: RESTART,
                        reason: "the server is restarting: reconnect".into(),
                    })))
                    .await;
                return;
            }
            update = rx.recv() => {
                let msg = match update {
                    Ok(text) => Message::Text(text),
                    // Fell behind: the whole lobby instead.
                    Err(broadcast::error::RecvError::Lagged(_)) => snapshot(app).await,
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                if socket.send(msg).await.is_err() {
                    return;
                }
            }
            msg = socket.recv() => {
                let reply = match msg {
                    Some(Ok(Message::Text(t))) if t.as_str() == "ping" => text(&LobbyMessage::Pong),
                    Some(Ok(Message::Text(t))) => match serde_json::from_str::<ClientMessage>(t.as_str()) {
                        Ok(ClientMessage::Ping) => text(&LobbyMessage::Pong),
                        Ok(ClientMessage::Hold { seek, token }) => {
                            let ok = held.len() < MAX_HELD
                                && !held.contains(&seek)
                                && app.hold_seek(&seek, &token).await;
                            if ok {
                                held.push(seek.clone());
                            }
                            text(&LobbyMessage::Held { seek: &seek, ok })
                        }
                        Err(_) => text(&LobbyMessage::Error {
                            error: "this socket takes only {\"type\":\"hold\",\"seek\":…,\"token\":…} and ping",
                        }),
                    },
                    Some(Ok(Message::Close(_))) | None => return,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Binary(_))) => text(&LobbyMessage::Error {
                        error: "this socket takes text messages only",
                    }),
                    Some(Err(_)) => return,
                };
                if socket.send(reply).await.is_err() {
                    return;
                }
            }
        }
    }
}
