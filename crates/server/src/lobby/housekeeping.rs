//! The lobby's own loop: each batch of changes written to every lobby
//! socket, and every second the housekeeping (the seeks held here kept
//! open, lapsed ones removed, the pools paired and their counts noted, the
//! lobby in memory mended from the store now and then).

use super::{pools, socket, SEEK_TTL_MS};
use crate::clock::now_ms;
use crate::games::AppState;
use crate::store::LobbyNotice;

impl AppState {
    /// The pools' counts, for the lobby's sockets.
    async fn note_pools(&self) {
        if let Ok(Ok(json)) = self.pools().await.map(|p| serde_json::to_string(&p)) {
            self.inner.lobby.set_pools(json);
        }
    }

    /// The lobby's view in memory from the store: the open seeks and the
    /// pools.
    async fn seed_lobby(&self) {
        self.note_pools().await;
        if let Ok(seeks) = self.seeks().await {
            let seeks = seeks
                .iter()
                .filter_map(|s| Some((s.id.clone(), serde_json::to_string(s).ok()?)))
                .collect();
            self.inner.lobby.seed(seeks);
        }
    }

    /// The lobby's housekeeping, every second: the seeks held here stay
    /// open, lapsed ones go, the pools are paired and their counts noted.
    pub(crate) async fn lobby_tick(&self) {
        let now = now_ms();
        self.note_pools().await;
        let held: Vec<String> = self
            .inner
            .lobby
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

/// Starts the lobby's loop (once per app): batches go out every
/// [`crate::hub::LOBBY_BATCH`], the housekeeping runs every second.
pub fn start(app: &AppState) {
    if app
        .inner
        .lobby
        .started
        .swap(true, std::sync::atomic::Ordering::SeqCst)
    {
        return;
    }
    // The pools at once (nobody waiting yet), so the first socket has them.
    if let Ok(Ok(json)) = pools::pool_views(|_| 0).map(|p| serde_json::to_string(&p)) {
        app.inner.lobby.set_pools(json);
    }
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let weak = std::sync::Arc::downgrade(&app.inner);
    runtime.spawn(async move {
        let mut tick = tokio::time::interval(crate::hub::LOBBY_BATCH);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
        let (mut last, mut seeded) = (0, 0);
        loop {
            tick.tick().await;
            let Some(inner) = weak.upgrade() else { return };
            let app = AppState { inner };
            // The lobby in memory, from the store: at start, then every 30 s
            // to mend a change missed (another instance's, lost in transit).
            if now_ms() - seeded >= 30_000 {
                seeded = now_ms();
                app.seed_lobby().await;
            }
            if let Some(msg) = app.inner.lobby.batch() {
                socket::fan_out(&app, msg).await;
            }
            let now = now_ms();
            if now - last >= 1_000 {
                last = now;
                app.lobby_tick().await;
            }
        }
    });
}
