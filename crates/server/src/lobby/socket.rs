//! The lobby's WebSocket (`/api/lobby/ws`): the open seeks and pools when
//! it opens, then every change, batched (`{"type": "lobby", "added",
//! "gone"}`; a taken seek's `gone` names its game, so its creator goes
//! there). A client holds its own seek with `{"type": "hold", "seek",
//! "token"}`: the seek lasts while a socket holds it.

use crate::games::AppState;
use crate::hub::{LobbyMember, RESTART};
use crate::wire::{frame, Offer, Outbox, Wire, TEXT};
use crate::ws::{MAX_WS_MESSAGE, WS_READ_BUFFER};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

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
    /// The answer to `hold`.
    Held { seek: &'a str, ok: bool },
    /// The answer to `ping`.
    Pong,
    /// A message the socket does not take.
    Error { error: &'a str },
}

fn text(msg: &LobbyMessage<'_>) -> Vec<u8> {
    let json = serde_json::to_string(msg).unwrap_or_else(|_| "{\"type\":\"error\"}".to_string());
    frame(TEXT, json.as_bytes())
}

/// The whole lobby as one frame, from memory.
fn snapshot(app: &AppState) -> Vec<u8> {
    frame(TEXT, app.inner.lobby.whole().as_bytes())
}

/// Resolves once the server starts stopping.
async fn closed(closing: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = closing.wait_for(|c| *c).await;
}

/// Runs a lobby socket (upgraded, its frames not read yet) until it
/// closes; the seeks it held go with it. Its outbox joins the lobby's
/// fan-out (`fan_out`); this task reads what the client sends.
pub async fn run<S>(io: S, app: AppState)
where
    S: AsyncRead + AsyncWrite + Send + 'static,
{
    let out = Outbox::new(io);
    let config = WebSocketConfig::default()
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(Some(MAX_WS_MESSAGE))
        .max_frame_size(Some(MAX_WS_MESSAGE));
    let mut stream =
        WebSocketStream::from_raw_socket(Wire::new(out.clone()), Role::Server, Some(config)).await;
    // Joined and sent the whole lobby with the outbox held: a batch in
    // between finds it busy, and the socket gets the whole lobby again
    // after the next change.
    let member = out.send_with(|| {
        let member = app.inner.lobby.join(out.clone());
        (member, snapshot(&app))
    });
    let mut closing = app.inner.closing.subscribe();
    let mut held: Vec<String> = vec![];
    if out.flushed().await {
        serve(&out, &mut stream, &app, &mut closing, &mut held).await;
    }
    app.inner.lobby.leave(member);
    for id in held {
        app.release_seek(&id).await;
    }
}

async fn serve(
    out: &Arc<Outbox>,
    stream: &mut WebSocketStream<Wire>,
    app: &AppState,
    closing: &mut tokio::sync::watch::Receiver<bool>,
    held: &mut Vec<String>,
) {
    let stopping = closed(closing);
    tokio::pin!(stopping);
    loop {
        let msg = tokio::select! {
            () = &mut stopping => {
                out.send(&crate::wire::close_frame(
                    RESTART,
                    "the server is restarting: reconnect",
                ));
                out.flushed().await;
                return;
            }
            () = out.gone() => return,
            msg = stream.next() => msg,
        };
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
                    error:
                        "this socket takes only {\"type\":\"hold\",\"seek\":…,\"token\":…} and ping",
                }),
            },
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
            // Pings are answered by the reader itself (through the outbox):
            // read on only once the answers so far are written, so pings
            // from a client that never reads do not pile up pongs.
            Some(Ok(Message::Ping(_))) => {
                if !out.flushed().await {
                    return;
                }
                continue;
            }
            Some(Ok(Message::Pong(_) | Message::Frame(_))) => continue,
            Some(Ok(Message::Binary(_))) => text(&LobbyMessage::Error {
                error: "this socket takes text messages only",
            }),
        };
        // Answered before the next message is read: a client that sends
        // and never reads is not read either (its answers cannot pile up).
        out.send(&reply);
        if !out.flushed().await {
            return;
        }
    }
}

/// Writes one batched message to every lobby socket, split over the
/// machine's cores; the frame is encoded once and each socket is written a
/// slice of it (nothing shared between the cores is touched per socket). A
/// write that cannot finish at once (a slow network) finishes from the
/// socket's outbox; that socket misses the batches meanwhile and is sent
/// the whole lobby when it has caught up.
pub(crate) async fn fan_out(app: &AppState, msg: String) {
    let members = app.inner.lobby.members();
    if members.is_empty() {
        return;
    }
    let encoded = frame(TEXT, msg.as_bytes());
    let lanes = std::thread::available_parallelism().map_or(2, |n| n.get());
    let per = members.len().div_ceil(lanes);
    let mut tasks = vec![];
    for chunk in members.chunks(per.max(1)) {
        let (chunk, encoded, app) = (chunk.to_vec(), encoded.clone(), app.clone());
        // Unconstrained: tokio's per-task budget would otherwise make the
        // lane yield every hundred-odd writes.
        tasks.push(tokio::spawn(tokio::task::unconstrained(async move {
            for (i, m) in chunk.iter().enumerate() {
                write(&app, m, &encoded);
                // Let requests in between, a thousand writes at a time.
                if i % 1000 == 999 {
                    tokio::task::yield_now().await;
                }
            }
        })));
    }
    for t in tasks {
        let _ = t.await;
    }
}

/// Writes to one lobby socket without waiting for it.
fn write(app: &AppState, m: &LobbyMember, encoded: &[u8]) {
    match m.out.offer(encoded) {
        Offer::Sent => {
            if m.missed.swap(false, Ordering::Relaxed) {
                // Caught up after missing some: the whole lobby.
                m.out.send(&snapshot(app));
            }
        }
        Offer::Queued | Offer::Busy => m.missed.store(true, Ordering::Relaxed),
        Offer::Broken => {}
    }
}
