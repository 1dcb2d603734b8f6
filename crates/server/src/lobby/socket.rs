//! The lobby's WebSocket (`/api/lobby/ws`): the open seeks and pools when
//! it opens, then every change, batched (`{"type": "lobby", "added",
//! "gone"}`; a taken seek's `gone` names its game, so its creator goes
//! there). A client holds its own seek with `{"type": "hold", "seek",
//! "token"}`: the seek lasts while a socket holds it.

use super::service::Lobby;
use crate::hub::{closed, CatchUp, LobbyHub, LobbyMember, RESTART};
use crate::protocol::{LobbyIn, LobbyOut};
use crate::wire::{frame, Offer, Outbox, Wire, TEXT};
use crate::ws::{MAX_WS_MESSAGE, WS_READ_BUFFER};
use futures_util::StreamExt;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// The most seeks one lobby socket may hold.
const MAX_HELD: usize = 8;

fn text(msg: &LobbyOut<'_>) -> Vec<u8> {
    frame(TEXT, msg.to_json().as_bytes())
}

/// Runs a lobby socket (upgraded, its frames not read yet) until it
/// closes; the seeks it held go with it. Its outbox joins the lobby's
/// fan-out (`fan_out`); this task reads what the client sends.
pub async fn run<S>(io: S, app: Lobby, mut closing: tokio::sync::watch::Receiver<bool>)
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
    // Joined and sent the whole lobby with the outbox held: the fan-out
    // finds it busy meanwhile, and sends it the batches cut after.
    let member = out.send_with(|| app.hub().join(out.clone()));
    let mut held: Vec<String> = vec![];
    if out.flushed().await {
        serve(&out, &mut stream, &app, &mut closing, &mut held).await;
    }
    app.hub().leave(member);
    for id in held {
        app.release_seek(&id).await;
    }
}

async fn serve(
    out: &Arc<Outbox>,
    stream: &mut WebSocketStream<Wire>,
    app: &Lobby,
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
            Some(Ok(Message::Text(t))) if t.as_str() == "ping" => text(&LobbyOut::Pong),
            Some(Ok(Message::Text(t))) => match serde_json::from_str::<LobbyIn>(t.as_str()) {
                Ok(LobbyIn::Ping) => text(&LobbyOut::Pong),
                Ok(LobbyIn::Hold { seek, token }) => {
                    let ok = held.len() < MAX_HELD
                        && !held.contains(&seek)
                        && app.hold_seek(&seek, &token).await;
                    if ok {
                        held.push(seek.clone());
                    }
                    text(&LobbyOut::Held { seek: &seek, ok })
                }
                Err(_) => text(&LobbyOut::Error {
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
            Some(Ok(Message::Binary(_))) => text(&LobbyOut::Error {
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

/// One round of the fan-out: every lobby socket is written the batches it
/// has not had yet, as one write, the sockets split over the machine's
/// cores. A batch is encoded once, and consecutive sockets are mostly
/// behind by the same batches, so each lane keeps the last write it made
/// up (nothing shared between the cores is touched per socket but the
/// socket's own outbox). A write that cannot finish at once (a slow
/// network) finishes from the socket's outbox; a socket still writing is
/// passed over and catches up in a later round. Answers whether any socket
/// was left behind.
pub(crate) async fn fan_out(app: &Lobby) -> bool {
    let members = app.hub().members();
    if members.is_empty() {
        return false;
    }
    let lanes = std::thread::available_parallelism().map_or(2, |n| n.get());
    let per = members.len().div_ceil(lanes);
    let mut tasks = vec![];
    for lane in 0..lanes {
        let (members, app) = (members.clone(), app.clone());
        let range = (lane * per).min(members.len())..((lane + 1) * per).min(members.len());
        // Unconstrained: once tokio's per-task budget is spent, a socket's
        // write would answer "not now" (and the socket be queued for
        // nothing); the lane yields on its own instead.
        tasks.push(tokio::spawn(tokio::task::unconstrained(async move {
            let (mut made, mut behind) = (None, false);
            for (i, m) in members[range].iter().enumerate() {
                behind |= !write(app.hub(), m, &mut made);
                // Let requests in between, a hundred writes (half a
                // millisecond) at a time.
                if i % 100 == 99 {
                    tokio::task::yield_now().await;
                }
            }
            behind
        })));
    }
    let mut behind = false;
    for t in tasks {
        behind |= t.await.unwrap_or(false);
    }
    behind
}

/// Writes to one lobby socket what it has not had, without waiting for
/// it; `made` is the lane's last write (from which batch it starts, and
/// the write). False when the socket was busy and stays behind.
fn write(hub: &LobbyHub, m: &LobbyMember, made: &mut Option<(u64, CatchUp)>) -> bool {
    let (sent, head) = (m.sent.load(Ordering::Acquire), hub.head());
    if sent >= head {
        return true;
    }
    let fresh = match made {
        Some((from, c)) if *from == sent && c.to == head => c,
        _ => match hub.since(sent) {
            Some(c) => &made.insert((sent, c)).1,
            None => return true,
        },
    };
    match m.out.offer(&fresh.bytes) {
        Offer::Sent | Offer::Queued => {
            m.sent.store(fresh.to, Ordering::Release);
            true
        }
        Offer::Busy => false,
        Offer::Broken => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::LobbyNotice;
    use tokio::io::AsyncReadExt;

    /// The text messages in a run of unmasked server frames (short ones).
    fn messages(bytes: &[u8]) -> Vec<serde_json::Value> {
        let mut out = vec![];
        let mut at = 0;
        while at < bytes.len() {
            assert_eq!(bytes[at], 0x81, "a whole text frame");
            let (len, head) = match bytes[at + 1] {
                126 => (
                    u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]) as usize,
                    4,
                ),
                n => (n as usize, 2),
            };
            out.push(serde_json::from_slice(&bytes[at + head..at + head + len]).unwrap());
            at += head + len;
        }
        out
    }

    fn add(hub: &LobbyHub, id: &str) {
        hub.changed(&LobbyNotice::Added {
            id: id.into(),
            view: format!("{{\"id\":\"{id}\"}}"),
        });
        assert!(hub.cut());
    }

    /// A socket whose network cannot take a batch at once is passed over
    /// while it is still writing, and then sent every batch it missed, in
    /// order, once each, as one write; one that fell further behind than
    /// the batches kept is sent the whole lobby instead.
    #[tokio::test]
    async fn a_socket_that_cannot_keep_up_is_sent_what_it_missed_once_it_has_caught_up() {
        let hub = LobbyHub::new();
        let (near, mut far) = tokio::io::duplex(64);
        let out = Outbox::new(near);
        out.send_with(|| hub.join(out.clone()));
        let m = hub.members()[0].clone();
        let mut made = None;
        // Nothing cut: nothing to write.
        assert!(!hub.cut());
        assert!(write(&hub, &m, &mut made));
        // The first batch does not fit in what the pipe holds: queued.
        add(&hub, "a");
        assert!(write(&hub, &m, &mut made));
        assert_eq!(m.sent.load(Ordering::Relaxed), 1);
        // Two more while it is still writing: passed over, left behind.
        add(&hub, "b");
        hub.changed(&LobbyNotice::Gone {
            id: "a".into(),
            game: Some("g1".into()),
        });
        assert!(hub.cut());
        assert!(!write(&hub, &m, &mut made), "busy: left behind");
        assert_eq!(m.sent.load(Ordering::Relaxed), 1);
        // The client reads; once the outbox has caught up, one write
        // carries both batches.
        let reader = tokio::spawn(async move {
            let mut got = vec![];
            let mut buf = [0u8; 256];
            loop {
                match tokio::time::timeout(
                    std::time::Duration::from_millis(300),
                    far.read(&mut buf),
                )
                .await
                {
                    Ok(Ok(n)) if n > 0 => got.extend_from_slice(&buf[..n]),
                    _ => return (got, far),
                }
            }
        });
        assert!(out.flushed().await);
        assert!(write(&hub, &m, &mut made));
        assert_eq!(m.sent.load(Ordering::Relaxed), 3);
        assert!(write(&hub, &m, &mut made), "nothing more to send");
        let (got, mut far) = reader.await.unwrap();
        let got = messages(&got);
        let kinds: Vec<&str> = got.iter().map(|v| v["type"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["seeks", "lobby", "lobby", "lobby"]);
        assert_eq!(got[1]["added"][0]["id"], "a");
        assert_eq!(got[2]["added"][0]["id"], "b");
        assert_eq!(got[3]["gone"][0]["game"], "g1");
        // Further behind than the batches kept: the whole lobby, as it
        // stands after all of them.
        for i in 0..crate::hub::KEEP_BATCHES + 5 {
            add(&hub, &format!("s{i}"));
            hub.changed(&LobbyNotice::Gone {
                id: format!("s{i}"),
                game: None,
            });
        }
        assert!(write(&hub, &m, &mut made));
        let mut buf = vec![0u8; 4096];
        let n = far.read(&mut buf).await.unwrap();
        let got = messages(&buf[..n]);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0]["type"], "seeks");
        let ids: Vec<&str> = got[0]["seeks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["b", &format!("s{}", crate::hub::KEEP_BATCHES + 4)]);
    }

    /// A socket joining while batches are cut gets the whole lobby as it
    /// stands with the number of the last batch in it: it is sent every
    /// later batch and none already in the whole lobby.
    #[tokio::test]
    async fn a_socket_joins_at_the_batch_its_whole_lobby_ends_with() {
        let hub = LobbyHub::new();
        add(&hub, "a");
        add(&hub, "b");
        let (near, _far) = tokio::io::duplex(64);
        let out = Outbox::new(near);
        let (_, first) = hub.join(out);
        let whole = messages(&first);
        assert_eq!(whole[0]["seeks"].as_array().unwrap().len(), 2);
        let m = hub.members()[0].clone();
        assert_eq!(m.sent.load(Ordering::Relaxed), 2);
        assert!(hub.since(2).is_none());
        add(&hub, "c");
        let c = hub.since(2).unwrap();
        assert_eq!(c.to, 3);
        let got = messages(&c.bytes);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0]["added"][0]["id"], "c");
    }
}
