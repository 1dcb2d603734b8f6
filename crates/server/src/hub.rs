//! The games in play as the sockets see them: each game's slot in memory
//! (its session, its broadcast channel, who is connected, the computer's
//! work for it) and the messages the sockets carry. The games service
//! changes a slot and broadcasts; the sockets (`crate::ws`) subscribe.

use crate::protocol::{Broadcast, GameOut, Gone, LobbyOut};
use crate::session::Session;
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// The close code of a socket closed because the server stops (RFC 6455's
/// "service restart"): the client should reconnect.
pub const RESTART: u16 = 1012;

/// Resolves once the server starts stopping (the guard the watch lends is
/// dropped here, before the socket's next await, so the future stays
/// `Send`). Every socket's loop waits on it.
pub(crate) async fn closed(closing: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = closing.wait_for(|c| *c).await;
}

/// Closes a socket because the server is stopping, with 1012 (restart),
/// so the page connects again (to this instance once it is back, or to
/// another).
pub(crate) async fn say_restarting(socket: &mut axum::extract::ws::WebSocket) {
    let _ = socket
        .send(axum::extract::ws::Message::Close(Some(
            axum::extract::ws::CloseFrame {
                code: RESTART,
                reason: "the server is restarting: reconnect".into(),
            },
        )))
        .await;
}

/// What a socket that takes only `ping` heard.
pub(crate) enum Heard {
    /// `ping`: answer a pong.
    Ping,
    /// Anything else a client may send: answer that only ping is taken.
    Other,
    /// A WebSocket ping or pong (the library answers): nothing to do.
    Nothing,
    /// Closed, or broken: the socket ends.
    Gone,
}

impl Heard {
    /// Reads what a ping-only socket received.
    pub(crate) fn of(msg: Option<Result<axum::extract::ws::Message, axum::Error>>) -> Heard {
        match msg {
            Some(Ok(axum::extract::ws::Message::Text(t))) if t.as_str() == "ping" => Heard::Ping,
            Some(Ok(axum::extract::ws::Message::Close(_))) | None | Some(Err(_)) => Heard::Gone,
            Some(Ok(axum::extract::ws::Message::Ping(_) | axum::extract::ws::Message::Pong(_))) => {
                Heard::Nothing
            }
            Some(Ok(_)) => Heard::Other,
        }
    }
}

/// One game's place in memory: the session, its broadcast channel, who is
/// connected, and the engine's work for it.
pub struct Slot {
    pub(crate) session: tokio::sync::Mutex<Session>,
    pub(crate) tx: broadcast::Sender<Broadcast>,
    /// Whether an engine task is running for this game.
    pub(crate) engine_running: AtomicBool,
    /// The stop flag of the engine search in flight, raised when the game
    /// changes under it (an Undo) so the search ends at once.
    pub(crate) engine_stop: Mutex<Option<Arc<AtomicBool>>>,
    /// Open sockets per seat.
    pub(crate) presence: [AtomicUsize; 2],
    /// When each seat's last socket on this instance closed, in
    /// milliseconds since the epoch (0: none has). The store hears of it
    /// in the background; a claim measured before that write lands must
    /// count from here, not from the instance's last heartbeat.
    pub(crate) left_at: [std::sync::atomic::AtomicI64; 2],
    /// Whether each seat has a socket open on another live instance (the
    /// store's presence, announced by the instance that has it).
    pub(crate) remote: [AtomicBool; 2],
    /// Open sockets on this game, players and spectators.
    pub(crate) sockets: AtomicUsize,
    /// Raised whenever a seat changes hands (a seat link or an invite used,
    /// here or on another instance), so each socket looks again at the
    /// seats its token holds and a device whose seat moved away is told.
    pub(crate) seat_changes: std::sync::atomic::AtomicU64,
    /// When the game was last used, in seconds since the app started.
    pub(crate) last_used: std::sync::atomic::AtomicU64,
    /// When the instance keeping this game's clock (another one) was last
    /// heard of, if it has been silent too long: its pages are shown the
    /// clock paused there until it is heard again or the clock is taken
    /// over. 0: heard lately, or kept here.
    pub(crate) keeper_lost_since: std::sync::atomic::AtomicI64,
}

impl Slot {
    pub(crate) fn new(session: Session) -> Arc<Slot> {
        Arc::new(Slot {
            session: tokio::sync::Mutex::new(session),
            tx: broadcast::channel(64).0,
            engine_running: AtomicBool::new(false),
            engine_stop: Mutex::new(None),
            presence: [AtomicUsize::new(0), AtomicUsize::new(0)],
            left_at: [
                std::sync::atomic::AtomicI64::new(0),
                std::sync::atomic::AtomicI64::new(0),
            ],
            remote: [AtomicBool::new(false), AtomicBool::new(false)],
            sockets: AtomicUsize::new(0),
            seat_changes: std::sync::atomic::AtomicU64::new(0),
            last_used: std::sync::atomic::AtomicU64::new(0),
            keeper_lost_since: std::sync::atomic::AtomicI64::new(0),
        })
    }

    /// Which seats have a socket open now, here or on another instance.
    pub(crate) fn presence(&self) -> [bool; 2] {
        [0, 1].map(|i| {
            self.presence[i].load(Ordering::SeqCst) > 0 || self.remote[i].load(Ordering::SeqCst)
        })
    }

    /// Sends a message to every socket of the game.
    pub(crate) fn broadcast(&self, msg: &GameOut) {
        let _ = self.tx.send(msg.broadcast());
    }

    /// Stops the engine search in flight, if any.
    pub(crate) fn stop_engine(&self) {
        if let Ok(stop) = self.engine_stop.lock() {
            if let Some(flag) = stop.as_ref() {
                flag.store(true, Ordering::SeqCst);
            }
        }
    }
}

/// Open connections per client address, so that one address cannot hold
/// more than its share of the server's connection slots.
pub(crate) struct PerAddress {
    open: Mutex<HashMap<IpAddr, usize>>,
    cap: usize,
    exempt: Vec<IpAddr>,
}

/// One connection counted against its address; uncounted when dropped.
pub(crate) struct AddressSlot {
    table: Arc<PerAddress>,
    ip: IpAddr,
}

impl PerAddress {
    /// At most `cap` connections per address (0: no cap); `exempt`
    /// addresses (trusted proxies, which carry many clients) have none.
    pub(crate) fn new(cap: usize, exempt: Vec<IpAddr>) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            open: Mutex::new(HashMap::new()),
            cap,
            exempt,
        })
    }

    /// Counts one more connection from `ip`, or `None` when it has its share.
    pub(crate) fn take(self: &Arc<Self>, ip: IpAddr) -> Option<AddressSlot> {
        if self.cap > 0 && !self.exempt.contains(&ip) {
            let mut open = self.open.lock().ok()?;
            let n = open.entry(ip).or_insert(0);
            if *n >= self.cap {
                return None;
            }
            *n += 1;
        }
        Some(AddressSlot {
            table: self.clone(),
            ip,
        })
    }
}

/// A connection's place in its address's share, carried by each of its
/// requests: a WebSocket upgraded from it keeps the place for as long as
/// it is open (the HTTP connection itself ends at the upgrade), so sockets
/// count against the per-address cap like any connection.
#[derive(Clone)]
pub(crate) struct ConnectionShare(#[allow(dead_code)] Arc<AddressSlot>);

impl ConnectionShare {
    /// A share holding `slot`.
    pub(crate) fn new(slot: AddressSlot) -> ConnectionShare {
        ConnectionShare(Arc::new(slot))
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        if self.table.cap == 0 || self.table.exempt.contains(&self.ip) {
            return;
        }
        if let Ok(mut open) = self.table.open.lock() {
            if let Some(n) = open.get_mut(&self.ip) {
                *n -= 1;
                if *n == 0 {
                    open.remove(&self.ip);
                }
            }
        }
    }
}

/// One lobby socket as the fan-out sees it.
pub struct LobbyMember {
    /// Where its messages go (its reader's answers go there too).
    pub out: Arc<crate::wire::Outbox>,
    /// The number of the last batch it has been sent (see
    /// [`LobbyHub::cut`]): the fan-out sends it the ones after. A socket
    /// that could not take a write at once (its network is slow) stays
    /// behind and is sent everything it missed when it has caught up.
    pub sent: AtomicU64,
}

/// The lobby's sockets: every change of the open seeks goes to all of them.
/// Changes are gathered for a moment and cut into numbered batches, so a
/// busy lobby costs each socket a few messages a second, not one per seek.
/// The fan-out goes round the sockets and writes each one the batches it
/// has not had yet, as one write: a batch cut while the fan-out is under
/// way reaches the sockets still ahead of it in the same round, so a
/// change waits at most one round, not the rest of the round under way and
/// then a whole one. The fan-out writes to the sockets itself (a task woken
/// per socket per message cost more than the write).
pub struct LobbyHub {
    /// The open lobby sockets.
    members: Mutex<Members>,
    next: AtomicU64,
    pending: Mutex<LobbyBatch>,
    /// The lobby as its sockets know it, and the batches cut lately.
    view: Mutex<View>,
    /// The number of the last batch cut ([`View::head`], read without the
    /// lock by the fan-out, once per socket).
    head: AtomicU64,
    /// Told when a batch is cut.
    pub(crate) fresh: Arc<tokio::sync::Notify>,
    /// The seeks held by this instance's lobby sockets: seek id → how many
    /// sockets hold it (the seek lapses when none does).
    pub(crate) held: Mutex<HashMap<String, usize>>,
}

/// The lobby as its sockets know it: the open seeks (id and JSON, oldest
/// first), kept from the same changes the sockets are sent, and the pools
/// (JSON, refreshed every second). A new socket, or one that missed more
/// batches than are kept, is sent this, with no query to the store. One
/// lock holds it with the batches, so the whole lobby and the number of the
/// last batch in it always agree.
struct View {
    seeks: Vec<(String, Box<RawValue>)>,
    pools: Box<RawValue>,
    /// The number of the last batch cut (0: none yet).
    head: u64,
    /// The last batches cut, as frames, oldest first; the last is `head`.
    frames: std::collections::VecDeque<Arc<[u8]>>,
    /// Their bytes.
    bytes: usize,
}

/// The open lobby sockets, by a number of their own, and the list the
/// fan-out goes round: made again only after a socket joined or left, so a
/// round touches no socket's reference count.
#[derive(Default)]
struct Members {
    by_id: HashMap<u64, Arc<LobbyMember>>,
    list: Option<Arc<[Arc<LobbyMember>]>>,
}

/// How many batches are kept for sockets that fall behind (five seconds'
/// worth when a batch is cut every 10 ms); one further behind is sent the
/// whole lobby instead.
pub(crate) const KEEP_BATCHES: usize = 512;

/// The most bytes of batches kept.
const KEEP_BYTES: usize = 4 << 20;

/// What a socket behind is to be sent: the batches after the one it had,
/// or the whole lobby; and the number of the last batch that covers.
pub(crate) struct CatchUp {
    /// The last batch this covers.
    pub(crate) to: u64,
    /// The frames, as one write.
    pub(crate) bytes: Arc<[u8]>,
}

/// Changes gathered for the next lobby message.
#[derive(Default)]
struct LobbyBatch {
    added: Vec<(String, Box<RawValue>)>,
    gone: Vec<(String, Option<String>)>,
    /// The pools' JSON, when their counts changed.
    pools: Option<Box<RawValue>>,
}

/// How long lobby changes are gathered before they are cut into a batch.
/// Short, because a batch costs no write of its own: the fan-out's next
/// visit to a socket carries every batch it has not had, as one write.
pub const LOBBY_BATCH: std::time::Duration = std::time::Duration::from_millis(10);

/// The least time between the starts of two rounds of the fan-out: a
/// socket is written at most this often (40 times a second), however fast
/// changes come. A round that takes longer (a crowded lobby) is followed
/// by the next at once.
pub const LOBBY_ROUND: std::time::Duration = std::time::Duration::from_millis(25);

impl LobbyHub {
    /// An empty lobby.
    pub(crate) fn new() -> LobbyHub {
        LobbyHub {
            members: Mutex::new(Members::default()),
            next: AtomicU64::new(0),
            pending: Mutex::new(LobbyBatch::default()),
            view: Mutex::new(View {
                seeks: vec![],
                pools: no_pools(),
                head: 0,
                frames: std::collections::VecDeque::new(),
                bytes: 0,
            }),
            head: AtomicU64::new(0),
            fresh: Arc::new(tokio::sync::Notify::new()),
            held: Mutex::new(HashMap::new()),
        }
    }

    /// A socket joins the lobby's fan-out: answers its number and the
    /// whole lobby as a frame, to be its first message (the fan-out sends
    /// it the batches cut after).
    pub(crate) fn join(&self, out: Arc<crate::wire::Outbox>) -> (u64, Vec<u8>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (head, whole) = match self.view.lock() {
            Ok(v) => (v.head, whole(&v)),
            Err(_) => (0, String::new()),
        };
        if let Ok(mut m) = self.members.lock() {
            m.list = None;
            m.by_id.insert(
                id,
                Arc::new(LobbyMember {
                    out,
                    sent: AtomicU64::new(head),
                }),
            );
        }
        (id, crate::wire::frame(crate::wire::TEXT, whole.as_bytes()))
    }

    /// A socket leaves.
    pub(crate) fn leave(&self, id: u64) {
        if let Ok(mut m) = self.members.lock() {
            m.list = None;
            m.by_id.remove(&id);
        }
    }

    /// Every socket now.
    pub(crate) fn members(&self) -> Arc<[Arc<LobbyMember>]> {
        let Ok(mut m) = self.members.lock() else {
            return Arc::new([]);
        };
        if let Some(list) = &m.list {
            return list.clone();
        }
        let list: Arc<[Arc<LobbyMember>]> = m.by_id.values().cloned().collect();
        m.list = Some(list.clone());
        list
    }

    /// The number of the last batch cut.
    pub(crate) fn head(&self) -> u64 {
        self.head.load(Ordering::Acquire)
    }

    /// Sets the lobby as the store has it (at start, and now and then to
    /// mend any change missed): the open seeks' id and JSON, oldest first.
    pub(crate) fn seed(&self, seeks: Vec<(String, Box<RawValue>)>) {
        if let Ok(mut v) = self.view.lock() {
            v.seeks = seeks;
        }
    }

    /// Sets the pools' JSON; a change goes out with the next batch.
    pub(crate) fn set_pools(&self, pools: Box<RawValue>) {
        let changed = self.view.lock().is_ok_and(|mut v| {
            let changed = v.pools.get() != pools.get();
            v.pools.clone_from(&pools);
            changed
        });
        if changed {
            if let Ok(mut p) = self.pending.lock() {
                p.pools = Some(pools);
            }
        }
    }

    /// Notes a change, sent with the next batch.
    pub(crate) fn changed(&self, change: &crate::store::LobbyNotice) {
        if let Ok(mut p) = self.pending.lock() {
            match change {
                crate::store::LobbyNotice::Added { id, view } => {
                    // Made by an instance of this server: JSON; one that
                    // is not is dropped rather than sent on.
                    if let Ok(view) = RawValue::from_string(view.clone()) {
                        p.added.push((id.clone(), view));
                    }
                }
                crate::store::LobbyNotice::Gone { id, game } => {
                    p.gone.push((id.clone(), game.clone()))
                }
            }
        }
    }

    /// Cuts the changes gathered since the last cut, if there were any,
    /// into the next batch (one message, `{"type": "lobby", "added": [seek,
    /// …], "gone": [{"id", "game"}, …]}`, with `"pools"` when their counts
    /// changed) and tells the fan-out; answers whether it did.
    pub(crate) fn cut(&self) -> bool {
        let batch = match self.pending.lock() {
            Ok(mut p) if !p.added.is_empty() || !p.gone.is_empty() || p.pools.is_some() => {
                std::mem::take(&mut *p)
            }
            _ => return false,
        };
        let text = LobbyOut::Lobby {
            added: batch.added.iter().map(|(_, view)| &**view).collect(),
            gone: batch
                .gone
                .iter()
                .map(|(id, game)| Gone {
                    id,
                    game: game.as_deref(),
                })
                .collect(),
            pools: batch.pools.as_deref(),
        }
        .to_json();
        let frame: Arc<[u8]> = crate::wire::frame(crate::wire::TEXT, text.as_bytes()).into();
        let Ok(mut v) = self.view.lock() else {
            return false;
        };
        for (id, view) in batch.added {
            if !v.seeks.iter().any(|(i, _)| *i == id) {
                v.seeks.push((id, view));
            }
        }
        v.seeks
            .retain(|(i, _)| !batch.gone.iter().any(|(g, _)| g == i));
        v.bytes += frame.len();
        v.frames.push_back(frame);
        while v.frames.len() > KEEP_BATCHES || (v.bytes > KEEP_BYTES && v.frames.len() > 1) {
            if let Some(f) = v.frames.pop_front() {
                v.bytes -= f.len();
            }
        }
        v.head += 1;
        self.head.store(v.head, Ordering::Release);
        drop(v);
        self.fresh.notify_one();
        true
    }

    /// What a socket that has had the batches up to `sent` is to be sent
    /// now: the batches after it, as one write, or the whole lobby when
    /// some of them are no longer kept; `None` when it has them all.
    pub(crate) fn since(&self, sent: u64) -> Option<CatchUp> {
        let v = self.view.lock().ok()?;
        if sent >= v.head {
            return None;
        }
        let behind = usize::try_from(v.head - sent).unwrap_or(usize::MAX);
        let bytes: Arc<[u8]> = if behind <= v.frames.len() {
            let mut out = Vec::new();
            for f in v.frames.range(v.frames.len() - behind..) {
                out.extend_from_slice(f);
            }
            out.into()
        } else {
            crate::wire::frame(crate::wire::TEXT, whole(&v).as_bytes()).into()
        };
        Some(CatchUp { to: v.head, bytes })
    }
}

/// The whole lobby as one message: `{"type": "seeks", "seeks": […],
/// "pools": […]}`.
fn whole(v: &View) -> String {
    LobbyOut::Seeks {
        seeks: v.seeks.iter().map(|(_, view)| &**view).collect(),
        pools: &v.pools,
    }
    .to_json()
}

/// The pools before their first count: none.
fn no_pools() -> Box<RawValue> {
    RawValue::from_string("[]".into()).unwrap_or_default()
}
