//! `GET /api/games/{id}/ws`, `GET /api/lobby/ws`, `GET /api/site/ws` and
//! `GET /api/tournaments/{id}/ws`: the WebSocket upgrades, counted against the
//! caps (in all, per game, per address) before it is accepted; the socket
//! itself is `crate::ws`.

use crate::http::error::ApiError;
use crate::http::limits::Client;
use crate::hub::ConnectionShare;
use crate::state::AppState;
use crate::ws::{push_updates, SocketCount, MAX_WS_MESSAGE, WS_READ_BUFFER};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::Response;
use axum::Extension;

/// `GET /api/games/{id}/ws`.
pub async fn upgrade(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    viewer: crate::http::signed::Viewer,
    share: Option<Extension<ConnectionShare>>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let slot = app.games().slot(&id).await?;
    // Count the socket now, so a flood of upgrades cannot pass the caps
    // before the first of them is counted.
    let count = SocketCount::take(app.sockets_open(), app.options(), Some(&slot), client)?;
    let account = viewer.account_id();
    let games = app.games().clone();
    Ok(accept(
        app,
        upgrade,
        (count, share),
        move |socket, closing| push_updates(socket, games, slot, closing, account),
    ))
}

/// `GET /api/site/ws`: the socket every page keeps open, counted against
/// the same caps: its player is online while it is open, and it says when
/// her challenges change.
pub async fn site(
    State(app): State<AppState>,
    Client(client): Client,
    viewer: crate::http::signed::Viewer,
    share: Option<Extension<ConnectionShare>>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let count = SocketCount::take(app.sockets_open(), app.options(), None, client)?;
    let account = viewer.account_id();
    let people = app.people().clone();
    Ok(accept(
        app,
        upgrade,
        (count, share),
        move |socket, closing| crate::people::run(socket, people, account, closing),
    ))
}

/// `GET /api/tournaments/{id}/ws`: an event's page keeps it open; it
/// pushes the standings as they change (and the signed-in player's own
/// place), counted against the same caps.
pub async fn tournament(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Client(client): Client,
    viewer: crate::http::signed::Viewer,
    share: Option<Extension<ConnectionShare>>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let following = app.tournaments().follow(&id).await?;
    let count = SocketCount::take(app.sockets_open(), app.options(), None, client)?;
    let account = viewer.account_id();
    Ok(accept(
        app,
        upgrade,
        (count, share),
        move |socket, closing| crate::tournaments::run(socket, following, account, closing),
    ))
}

/// Answers an upgrade, counted (`held`: the socket's count and its share
/// of the connection, given back when it ends), and runs the socket with
/// the server's stop to watch.
fn accept<F, Fut>(
    app: AppState,
    upgrade: WebSocketUpgrade,
    held: (SocketCount, Option<Extension<ConnectionShare>>),
    run: F,
) -> Response
where
    F: FnOnce(axum::extract::ws::WebSocket, tokio::sync::watch::Receiver<bool>) -> Fut
        + Send
        + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    sized(upgrade).on_upgrade(move |socket| async move {
        let closing = app.sockets_open().closing_watch();
        run(socket, closing).await;
        drop(held);
    })
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
/// The upgrade is answered here rather than by axum's WebSocket type: the
/// lobby writes its batches to the upgraded connection through an outbox of
/// its own (`crate::wire`), with the same checks of the request.
pub async fn lobby(
    State(app): State<AppState>,
    Client(client): Client,
    share: Option<Extension<ConnectionShare>>,
    mut request: axum::extract::Request,
) -> Result<Response, ApiError> {
    let accept = upgrade_key(request.headers())?;
    let upgrade = request
        .extensions_mut()
        .remove::<hyper::upgrade::OnUpgrade>()
        .ok_or_else(|| bad_upgrade("this connection cannot be upgraded to a WebSocket"))?;
    let count = SocketCount::take(app.sockets_open(), app.options(), None, client)?;
    tokio::spawn(async move {
        if let Ok(upgraded) = upgrade.await {
            let closing = app.sockets_open().closing_watch();
            let io = hyper_util::rt::TokioIo::new(upgraded);
            crate::lobby::socket::run(io, app.lobby().clone(), closing).await;
        }
        drop((count, share));
    });
    Response::builder()
        .status(axum::http::StatusCode::SWITCHING_PROTOCOLS)
        .header(header::CONNECTION, "upgrade")
        .header(header::UPGRADE, "websocket")
        .header(header::SEC_WEBSOCKET_ACCEPT, accept)
        .body(axum::body::Body::empty())
        .map_err(|e| ApiError::Internal(e.to_string()))
}

fn bad_upgrade(why: &str) -> ApiError {
    ApiError::BadRequest(crate::http::error::ErrorCode::BadRequest, why.to_string())
}

/// The answer's `Sec-WebSocket-Accept` for an upgrade request, after the
/// checks axum's WebSocket type makes (RFC 6455 §4.2.1): `Connection`
/// names `upgrade`, `Upgrade` is `websocket`, the version is 13, a key.
fn upgrade_key(headers: &axum::http::HeaderMap) -> Result<String, ApiError> {
    let is = |name: header::HeaderName, want: &str| {
        headers
            .get(name)
            .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(want.as_bytes()))
    };
    let connection_upgrade = headers
        .get(header::CONNECTION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().contains("upgrade"));
    if !connection_upgrade {
        return Err(bad_upgrade("`Connection` header did not include 'upgrade'"));
    }
    if !is(header::UPGRADE, "websocket") {
        return Err(bad_upgrade("`Upgrade` header did not include 'websocket'"));
    }
    if !is(header::SEC_WEBSOCKET_VERSION, "13") {
        return Err(bad_upgrade(
            "`Sec-WebSocket-Version` header did not include '13'",
        ));
    }
    let key = headers
        .get(header::SEC_WEBSOCKET_KEY)
        .ok_or_else(|| bad_upgrade("`Sec-WebSocket-Key` header missing"))?;
    Ok(tokio_tungstenite::tungstenite::handshake::derive_accept_key(key.as_bytes()))
}
