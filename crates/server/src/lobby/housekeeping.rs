//! The lobby's own loops: the changes cut into batches, the fan-out's
//! rounds that write them to every lobby socket, and every second the
//! housekeeping (the seeks held here kept open, lapsed ones removed, the
//! pools paired and their counts noted); the lobby in memory is mended
//! from the store now and then.

use super::service::{Lobby, WeakLobby, SEEK_TTL_MS};
use super::{pools, socket};
use crate::clock::now_ms;
use crate::store::LobbyNotice;

impl Lobby {
    /// The pools' counts, for the lobby's sockets.
    async fn note_pools(&self) {
        if let Ok(Ok(json)) = self
            .pools()
            .await
            .map(|p| serde_json::value::to_raw_value(&p))
        {
            self.hub().set_pools(json);
        }
    }

    /// The lobby's view in memory from the store: the open seeks and the
    /// pools.
    pub(super) async fn seed_lobby(&self) {
        self.note_pools().await;
        if let Ok(seeks) = self.seeks().await {
            let seeks = seeks
                .iter()
                .filter_map(|s| Some((s.id.clone(), serde_json::value::to_raw_value(s).ok()?)))
                .collect();
            self.hub().seed(seeks);
        }
    }

    /// The lobby's housekeeping, every second: the seeks held here stay
    /// open, lapsed ones go, the pools are paired and their counts noted.
    pub(crate) async fn lobby_tick(&self) {
        let now = now_ms();
        self.note_pools().await;
        let held: Vec<String> = self
            .hub()
            .held
            .lock()
            .map(|h| h.keys().cloned().collect())
            .unwrap_or_default();
        if !held.is_empty() {
            if let Err(e) = self.store().renew_seeks(held, now + SEEK_TTL_MS).await {
                tracing::warn!(error = %e, "could not keep the held seeks open");
            }
        }
        match self.store().expire_seeks(now).await {
            Ok(gone) => {
                for id in gone {
                    self.lobby_changed(LobbyNotice::Gone { id, game: None });
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not remove lapsed seeks"),
        }
        if let Err(e) = self.pair_pools(now).await {
            tracing::warn!(error = %e, "could not pair the pools");
        }
    }
}

/// Starts the lobby's loops (once, when the lobby is built): changes are cut into a batch
/// every [`crate::hub::LOBBY_BATCH`], the fan-out goes round the sockets
/// whenever a batch was cut (round after round while batches keep coming),
/// and the housekeeping runs every second, in a loop of its own.
pub(super) fn start(app: &Lobby) {
    // The pools at once (nobody waiting yet), so the first socket has them.
    if let Ok(Ok(json)) = pools::pool_views(|_| 0).map(|p| serde_json::value::to_raw_value(&p)) {
        app.hub().set_pools(json);
    }
    let weak = app.downgrade();
    let fresh = app.hub().fresh.clone();
    app.spawn(fan_out_loop(weak.clone(), fresh.clone(), app.stopping()));
    // The cuts apart from the housekeeping: its queries (slow while the
    // store is busy) never hold a change back.
    let cuts = weak.clone();
    let mut stopping = app.stopping();
    app.spawn(async move {
        let mut tick = tokio::time::interval(crate::hub::LOBBY_BATCH);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let mut seeded = 0;
        loop {
            tokio::select! {
                () = stopping.wait() => return,
                _ = tick.tick() => {}
            }
            let Some(app) = cuts.upgrade() else {
                // The fan-out's loop sees it too.
                fresh.notify_one();
                return;
            };
            // The lobby in memory, from the store: at start, then every 30 s
            // to mend a change missed (another instance's, lost in transit).
            // Here, between two cuts: a change that comes meanwhile waits in
            // the next batch and is applied after the store's view.
            if now_ms() - seeded >= 30_000 {
                seeded = now_ms();
                app.seed_lobby().await;
            }
            app.hub().cut();
        }
    });
    let mut stopping = app.stopping();
    app.spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        loop {
            tokio::select! {
                () = stopping.wait() => return,
                _ = tick.tick() => {}
            }
            let Some(app) = weak.upgrade() else { return };
            app.lobby_tick().await;
        }
    });
}

/// The fan-out's loop: a round whenever a batch was cut, and another as
/// soon as [`crate::hub::LOBBY_ROUND`] allows if more were cut meanwhile
/// (the sockets it had passed are behind); sockets left behind busy are
/// tried again a round's time later.
async fn fan_out_loop(
    weak: WeakLobby,
    fresh: std::sync::Arc<tokio::sync::Notify>,
    mut stopping: crate::games::Stopping,
) {
    let mut behind = false;
    let mut last = tokio::time::Instant::now();
    loop {
        let wait = if behind {
            crate::hub::LOBBY_ROUND
        } else {
            std::time::Duration::MAX
        };
        tokio::select! {
            () = stopping.wait() => return,
            () = fresh.notified() => {}
            () = tokio::time::sleep(wait.min(std::time::Duration::from_secs(86_400))) => {}
        }
        let Some(app) = weak.upgrade() else { return };
        loop {
            tokio::time::sleep_until(last + crate::hub::LOBBY_ROUND).await;
            last = tokio::time::Instant::now();
            let head = app.hub().head();
            behind = socket::fan_out(&app).await;
            if app.hub().head() == head {
                break;
            }
        }
    }
}
