//! `GET /api/games/{id}/ws` and `GET /api/lobby/ws`: the WebSocket upgrades, counted against the
//! caps (in all, per game, per address) before it is accepted; the socket
//! itself is `crate::ws`.

use crate::games::AppState;
use crate::http::error::ApiError;
use crate::http::limits::Client;
use crate::ws::{push_updates, SocketCount, MAX_WS_MESSAGE, WS_READ_BUFFER};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::response::Response;

/// `GET /api/games/{id}/ws`.
pub async fn upgrade(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    viewer: crate::http::signed::Viewer,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let slot = app.slot(&id).await?;
    // Count the socket now, so a flood of upgrades cannot pass the caps
    // before the first of them is counted.
    let count = SocketCount::take(&app, Some(&slot), client)?;
    let account = viewer.account_id();
    Ok(sized(upgrade).on_upgrade(move |socket| async move {
        let closing = app.inner.closing.subscribe();
        let app = app.clone();
        push_updates(socket, app, slot, closing, account).await;
        drop(count);
    }))
}

/// Small buffers: a client sends at most 4 KiB and each message is sent
/// (and flushed) as it comes, so the default 128 KiB read buffer per socket
/// only cost memory (2,000 sockets on one game: 268 MiB).
fn sized(upgrade: WebSocketUpgrade) -> WebSocketUpgrade {
    upgrade
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(0)
        .max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
}

/// `GET /api/lobby/ws`: the lobby's socket, counted against the same caps.
pub async fn lobby(
    State(app): State<AppState>,
    Client(client): Client,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let count = SocketCount::take(&app, None, client)?;
    Ok(sized(upgrade).on_upgrade(move |socket| async move {
        crate::lobby::socket::run(socket, app).await;
        drop(count);
    }))
}
