//! Standings pushed live: an event's page keeps a socket open
//! (`GET /api/tournaments/{id}/ws`), and each event followed on this
//! instance has one feed that counts it when it changes here (at once,
//! then at most every [`gap`]: longer for a larger event) and every
//! [`RECOUNT`] besides (a change made on another instance), and hands the
//! new view to every socket as one text made once: the leaders
//! ([`PUSHED_LINES`]) and the newest bouts ([`PUSHED_BOUTS`]), so a push
//! stays small however large the event. Each socket adds its player's own
//! place (her line, her game) when that changed, and her new game at once
//! when this instance pairs her. A slow socket skips to the newest view (a
//! watch, not a queue), so one reader can never hold the others back.

use super::counted::{Counted, Latest, Published};
use super::service::{Inner, TournamentError, Tournaments};
use super::views::{TournamentView, You, PUSHED_BOUTS, PUSHED_LINES};
use crate::hub::{closed, say_restarting, Heard};
use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// How often a followed event is counted again though nothing here said it
/// changed: a change made on another instance shows within this (and the
/// count's own second).
pub const RECOUNT: Duration = Duration::from_secs(1);

/// The least time between two views of one event: a busy arena's many
/// changes go out together.
pub const GAP: Duration = Duration::from_millis(200);

/// The time between two views of an event of `entrants`: [`GAP`], and a
/// millisecond more per entrant (a thousand: 1.2 s), at most 2 s.
pub fn gap(entrants: usize) -> Duration {
    (GAP + Duration::from_millis(entrants as u64)).min(Duration::from_secs(2))
}

/// What a tournament's socket (`GET /api/tournaments/{id}/ws`, opened by
/// its page) sends: the event as everyone sees it whenever it changes (one
/// text made once for every socket), and the signed-in player's own place
/// whenever that changes.
#[derive(serde::Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum TournamentOut<'a> {
    /// The event: what `GET /api/tournaments/{id}` answers, without `you`.
    View {
        /// The event.
        view: &'a TournamentView,
    },
    /// The signed-in player's place (`you` of `GET /api/tournaments/{id}`).
    You {
        /// Her place.
        you: &'a You,
    },
    /// The answer to a ping.
    Pong,
    /// A message the socket does not take.
    Error {
        /// Why.
        error: &'static str,
    },
}

impl TournamentOut<'_> {
    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A socket's hold on an event's feed.
pub struct Following {
    id: String,
    latest: watch::Receiver<Option<Arc<Published>>>,
    placed: Option<broadcast::Receiver<(String, i64, String)>>,
}

/// The next pairing made here, of any event; never, once the channel is
/// gone (the socket goes on with its counts).
async fn recv_placed(
    placed: &mut Option<broadcast::Receiver<(String, i64, String)>>,
) -> Option<(String, i64, String)> {
    let Some(rx) = placed else {
        return std::future::pending().await;
    };
    match rx.recv().await {
        Ok(p) => Some(p),
        // Missed some: the next count tells her.
        Err(broadcast::error::RecvError::Lagged(_)) => None,
        Err(broadcast::error::RecvError::Closed) => {
            *placed = None;
            None
        }
    }
}

impl Tournaments {
    /// Follows an event: its feed (started here if none is), whose first
    /// view comes at once.
    ///
    /// # Errors
    /// No such event, the store.
    pub async fn follow(&self, id: &str) -> Result<Following, TournamentError> {
        self.row(id).await?;
        let Ok(mut feeds) = self.inner.feeds.lock() else {
            return Err(TournamentError::Broken("the feeds are broken".into()));
        };
        let placed = Some(self.inner.placed.subscribe());
        if let Some(latest) = feeds.get(id) {
            return Ok(Following {
                id: id.to_string(),
                latest: latest.subscribe(),
                placed,
            });
        }
        let latest = Arc::new(watch::channel(None).0);
        let following = Following {
            id: id.to_string(),
            latest: latest.subscribe(),
            placed,
        };
        feeds.insert(id.to_string(), latest.clone());
        let games = self.inner.people.games();
        games.spawn(feed(
            Arc::downgrade(&self.inner),
            id.to_string(),
            latest,
            self.changes(),
            games.stopping(),
        ));
        Ok(following)
    }
}

/// Keeps one event's view fresh while any socket follows it.
async fn feed(
    weak: Weak<Inner>,
    id: String,
    latest: Arc<Latest>,
    mut changes: broadcast::Receiver<String>,
    mut stopping: crate::tasks::Stopping,
) {
    let mut last: Option<TournamentView> = None;
    let mut seq = 0;
    let mut wait = GAP;
    loop {
        let Some(inner) = weak.upgrade() else { return };
        {
            // Nobody follows it any more: the feed ends (checked under the
            // lock `follow` subscribes under, so no socket is left behind).
            let Ok(mut feeds) = inner.feeds.lock() else {
                return;
            };
            if latest.receiver_count() == 0 {
                feeds.remove(&id);
                return;
            }
        }
        let t = Tournaments { inner };
        match count(&t, &id).await {
            Ok((mut view, counted)) => {
                view.standings_left = view.standings.len().saturating_sub(PUSHED_LINES);
                view.standings.truncate(PUSHED_LINES);
                view.games.truncate(PUSHED_BOUTS);
                wait = gap(view.players);
                // The same view counted again is not sent again (the
                // server's time aside); the count still goes to the
                // sockets, for each player's own place.
                let same = last.as_ref().is_some_and(|l| {
                    TournamentView {
                        now_ms: l.now_ms,
                        ..view.clone()
                    } == *l
                });
                let kept = latest
                    .borrow()
                    .as_ref()
                    .filter(|_| same)
                    .map(|p| p.text.clone());
                let text = match kept {
                    Some(text) => text,
                    None => {
                        seq += 1;
                        let text = Utf8Bytes::from(TournamentOut::View { view: &view }.to_json());
                        last = Some(view);
                        text
                    }
                };
                latest.send_replace(Some(Arc::new(Published { text, seq, counted })));
            }
            Err(e) => {
                tracing::warn!(tournament = %id, error = %e, "a tournament's view could not be counted")
            }
        }
        drop(t);
        tokio::select! {
            () = stopping.wait() => return,
            () = tokio::time::sleep(wait) => {}
        }
        let recount = tokio::time::sleep(RECOUNT.saturating_sub(wait));
        tokio::pin!(recount);
        loop {
            tokio::select! {
                () = stopping.wait() => return,
                () = &mut recount => break,
                got = changes.recv() => match got {
                    Ok(changed) if changed == id => break,
                    Ok(_) => {}
                    Err(broadcast::error::RecvError::Lagged(_)) => break,
                    Err(broadcast::error::RecvError::Closed) => return,
                },
            }
        }
    }
}

async fn count(
    t: &Tournaments,
    id: &str,
) -> Result<(TournamentView, Arc<Counted>), TournamentError> {
    let row = t.row(id).await?;
    t.view_counted(&row, None).await
}

async fn send(socket: &mut WebSocket, text: Utf8Bytes) -> bool {
    socket.send(Message::Text(text)).await.is_ok()
}

/// Runs one tournament socket: the event's view whenever it changes, and
/// `account`'s place whenever hers does. Closed with 1012 when the server
/// stops, so the page reconnects.
pub(crate) async fn run(
    mut socket: WebSocket,
    mut following: Following,
    account: Option<i64>,
    mut closing: watch::Receiver<bool>,
) {
    let mut told: Option<You> = None;
    let mut sent_seq = 0;
    let mut fresh = true;
    let mut placed = following.placed.take();
    loop {
        if fresh {
            fresh = false;
            let published = following.latest.borrow_and_update().clone();
            if let Some(p) = published {
                if p.seq != sent_seq {
                    if !send(&mut socket, p.text.clone()).await {
                        return;
                    }
                    sent_seq = p.seq;
                }
                if let Some(me) = account {
                    let you = p.counted.you(me);
                    if told.as_ref() != Some(&you) {
                        if !send(
                            &mut socket,
                            TournamentOut::You { you: &you }.to_json().into(),
                        )
                        .await
                        {
                            return;
                        }
                        told = Some(you);
                    }
                }
            }
        }
        tokio::select! {
            got = recv_placed(&mut placed) => {
                // Paired here: told at once, before the next count.
                if let (Some((event, player, game)), Some(me)) = (got, account) {
                    if event == following.id && player == me {
                        let you = You {
                            joined: true,
                            withdrawn: false,
                            game: Some(game),
                            standing: told.as_ref().and_then(|y| y.standing.clone()),
                        };
                        if !send(&mut socket, TournamentOut::You { you: &you }.to_json().into()).await {
                            return;
                        }
                        told = Some(you);
                    }
                }
            }
            () = closed(&mut closing) => {
                say_restarting(&mut socket).await;
                return;
            }
            changed = following.latest.changed() => {
                if changed.is_err() {
                    return;
                }
                fresh = true;
            }
            msg = socket.recv() => {
                let reply = match Heard::of(msg) {
                    Heard::Ping => TournamentOut::Pong,
                    Heard::Gone => return,
                    Heard::Nothing => continue,
                    Heard::Other => TournamentOut::Error {
                        error: "this socket takes only ping",
                    },
                };
                if !send(&mut socket, reply.to_json().into()).await {
                    return;
                }
            }
        }
    }
}
