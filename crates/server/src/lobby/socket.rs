//! The lobby's WebSocket (`/api/lobby/ws`): the open seeks and pools when
//! it opens, then every change, batched (`{"type": "lobby", "added",
//! "gone"}`; a taken seek's `gone` names its game, so its creator goes
//! there). A client holds its own seek with `{"type": "hold", "seek",
//! "token"}`: the seek lasts while a socket holds it.

use crate::games::AppState;
use crate::hub::{LobbyMember, LobbySink, RESTART};
use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use futures_util::{FutureExt, SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use std::sync::atomic::Ordering;
use std::sync::Arc;

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

fn text(msg: &LobbyMessage<'_>) -> Message {
    Message::Text(
        serde_json::to_string(msg)
            .unwrap_or_else(|_| "{\"type\":\"error\"}".into())
            .into(),
    )
}

/// The whole lobby as one message, from memory.
fn snapshot(app: &AppState) -> Message {
    Message::Text(app.inner.lobby.whole())
}

/// Resolves once the server starts stopping.
async fn closed(closing: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = closing.wait_for(|c| *c).await;
}

/// Runs a lobby socket until it closes; the seeks it held go with it. Its
/// sending half joins the lobby's fan-out (`fan_out`); this task reads.
pub async fn run(socket: WebSocket, app: AppState) {
    let (sink, mut stream) = socket.split();
    let sink: LobbySink = Arc::new(tokio::sync::Mutex::new(sink));
    // Joined before the whole lobby is sent, the sink held meanwhile: a
    // change in between finds it busy, and the socket gets the whole lobby
    // again after the next change.
    let member = {
        let mut first = sink.lock().await;
        let member = app.inner.lobby.join(sink.clone());
        if first.send(snapshot(&app)).await.is_err() {
            drop(first);
            app.inner.lobby.leave(member);
            return;
        }
        member
    };
    let mut closing = app.inner.closing.subscribe();
    let mut held: Vec<String> = vec![];
    serve(&sink, &mut stream, &app, &mut closing, &mut held).await;
    app.inner.lobby.leave(member);
    for id in held {
        app.release_seek(&id).await;
    }
}

async fn serve(
    sink: &LobbySink,
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    app: &AppState,
    closing: &mut tokio::sync::watch::Receiver<bool>,
    held: &mut Vec<String>,
) {
    let stopping = closed(closing);
    tokio::pin!(stopping);
    loop {
        let msg = tokio::select! {
            () = &mut stopping => {
                let _ = sink
                    .lock()
                    .await
                    .send(Message::Close(Some(axum::extract::ws::CloseFrame {
                        code: RESTART,
                        reason: "the server is restarting: reconnect".into(),
                    })))
                    .await;
                return;
            }
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
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Ok(Message::Binary(_))) => text(&LobbyMessage::Error {
                error: "this socket takes text messages only",
            }),
        };
        if sink.lock().await.send(reply).await.is_err() {
            return;
        }
    }
}

/// Writes one batched message to every lobby socket, split over the
/// machine's cores. A write that cannot finish at once (a slow network)
/// finishes on a task of its own; that socket misses the batches meanwhile
/// and is sent the whole lobby when it has caught up.
pub(crate) async fn fan_out(app: &AppState, msg: Utf8Bytes) {
    let members = app.inner.lobby.members();
    if members.is_empty() {
        return;
    }
    let lanes = std::thread::available_parallelism().map_or(2, |n| n.get());
    let per = members.len().div_ceil(lanes);
    let mut tasks = vec![];
    for chunk in members.chunks(per.max(1)) {
        let (chunk, msg, app) = (chunk.to_vec(), msg.clone(), app.clone());
        // Unconstrained: tokio's per-task budget (a hundred-odd I/O
        // operations before it makes a task yield) would otherwise make
        // every write after the first hundred look blocked.
        tasks.push(tokio::spawn(tokio::task::unconstrained(async move {
            for (i, m) in chunk.iter().enumerate() {
                write(&app, m, Message::Text(msg.clone()));
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
fn write(app: &AppState, m: &Arc<LobbyMember>, msg: Message) {
    let Ok(mut sink) = m.sink.clone().try_lock_owned() else {
        // Busy: a reply, or a slow write, in progress.
        m.missed.store(true, Ordering::Relaxed);
        return;
    };
    let mut send = Box::pin(async move { sink.send(msg).await.map(|()| sink) });
    match (&mut send).now_or_never() {
        Some(Ok(mut sink)) => {
            if m.missed.swap(false, Ordering::Relaxed) {
                // Caught up after missing some: the whole lobby.
                let whole = snapshot(app);
                tokio::spawn(async move {
                    let _ = sink.send(whole).await;
                });
            }
        }
        Some(Err(_)) => {}
        None => {
            m.missed.store(true, Ordering::Relaxed);
            tokio::spawn(async move {
                let _ = tokio::time::timeout(std::time::Duration::from_secs(10), send).await;
            });
        }
    }
}
