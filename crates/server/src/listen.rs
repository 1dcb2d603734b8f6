//! The listening socket, with bounds: at most `max_connections` connections
//! open (more wait in the kernel's queue), and hyper's header-read timeout,
//! which also closes a kept-alive connection that stays idle that long. On
//! Ctrl-C or SIGTERM the server stops accepting, lets requests in flight
//! finish and every WebSocket send its close frame (up to ten seconds in
//! all), and exits.

use crate::app::AppState;
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tower::Service;

/// Serves `router` on `listener` until a shutdown signal.
///
/// # Errors
/// The listener fails.
pub async fn run(listener: TcpListener, router: Router, app: &AppState) -> std::io::Result<()> {
    let o = app.options().clone();
    let slots = Arc::new(Semaphore::new(o.max_connections.max(1)));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut make = router.into_make_service_with_connect_info::<SocketAddr>();
    let shutdown = shutdown_signal();
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            () = &mut shutdown => break,
            p = slots.clone().acquire_owned() => p.map_err(std::io::Error::other)?,
        };
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => break,
            r = listener.accept() => match r {
                Ok(x) => x,
                // Out of file descriptors and the like: wait, then go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let Ok(service) = make.call(peer).await;
        let mut stop = stop_rx.clone();
        let header_timeout = o.header_timeout;
        tokio::spawn(async move {
            let mut builder = auto::Builder::new(TokioExecutor::new());
            builder
                .http1()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = builder.serve_connection_with_upgrades(
                TokioIo::new(stream),
                TowerToHyperService::new(service),
            );
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = stop.changed() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(permit);
        });
    }
    // Stop accepting; close the sockets with a reconnect hint; tell every
    // connection to finish its request (writes in flight complete: a change
    // is acknowledged only once stored) and close.
    app.close();
    let _ = stop_tx.send(true);
    let all = u32::try_from(o.max_connections.max(1)).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        let _ = slots.acquire_many(all).await;
        app.sockets_closed().await;
    })
    .await;
    Ok(())
}

/// Ctrl-C, or SIGTERM on Unix.
pub(crate) async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
