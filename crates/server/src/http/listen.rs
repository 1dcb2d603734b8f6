//! The listening socket, with bounds:
//!
//! - at most `max_connections` connections open (more wait in the kernel's
//!   queue), and at most `max_connections_per_address` from one client
//!   address (trusted proxies excepted), so one address cannot take every
//!   slot: a connection past its address's share is answered 503 and closed.
//!   A WebSocket keeps its connection's place until it closes, though the
//!   HTTP connection under it ends at the upgrade;
//! - hyper's header-read timeout for a request begun but not finished, and an
//!   idle timeout of the same length for every connection with no request in
//!   flight, whatever it sent: nothing at all, half a preface, an HTTP/2
//!   prior-knowledge preface, or a kept-alive connection gone quiet.
//!
//! On Ctrl-C or SIGTERM the server drains for `--drain-secs` (serving every
//! request while `/api/health` answers 503, so a load balancer moves away),
//! then stops accepting, lets requests in flight finish and every WebSocket
//! send its close frame (up to ten seconds in all), and exits.

use crate::hub::{ConnectionShare, PerAddress};
use crate::state::AppState;
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::service::TowerToHyperService;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tower::{Service, ServiceExt};

/// What a connection past its address's share is told before it is closed.
const TOO_MANY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 10\r\n\
Content-Type: application/json\r\nContent-Length: 96\r\nConnection: close\r\n\r\n\
{\"error\":\"too many connections from your address; try again soon\",\"code\":\"too-many-connections\"}";

/// A connection's requests in flight and when it last began or ended one,
/// for the idle timeout.
struct Activity {
    opened: Instant,
    in_flight: AtomicUsize,
    /// Milliseconds after `opened`.
    last: AtomicU64,
}

impl Activity {
    fn new() -> Arc<Activity> {
        Arc::new(Activity {
            opened: Instant::now(),
            in_flight: AtomicUsize::new(0),
            last: AtomicU64::new(0),
        })
    }

    fn touch(&self) {
        let ms = u64::try_from(self.opened.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last.store(ms, Ordering::SeqCst);
    }

    /// Resolves once the connection has had no request in flight for
    /// `timeout`.
    async fn idle_for(&self, timeout: Duration) {
        loop {
            let quiet = self
                .opened
                .elapsed()
                .saturating_sub(Duration::from_millis(self.last.load(Ordering::SeqCst)));
            if self.in_flight.load(Ordering::SeqCst) > 0 {
                tokio::time::sleep(timeout).await;
            } else if quiet >= timeout {
                return;
            } else {
                tokio::time::sleep(timeout - quiet).await;
            }
        }
    }
}

/// Counts a request in flight until its answer's head is ready.
struct InFlight(Arc<Activity>);

impl InFlight {
    fn begin(a: &Arc<Activity>) -> InFlight {
        a.in_flight.fetch_add(1, Ordering::SeqCst);
        a.touch();
        InFlight(a.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Connections the kernel queues for the accept loop: the most Linux allows
/// by default (`net.core.somaxconn`), so that a burst of connections (a
/// flood, or a busy minute) is queued rather than dropped and retried a
/// second later.
const BACKLOG: u32 = 4096;

/// The listening socket on `addr`, with a deep accept queue.
///
/// # Errors
/// The address cannot be bound.
pub(crate) fn bind(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// Serves `router` on `listener` until a shutdown signal.
///
/// # Errors
/// The listener fails.
///
/// Why one function of 115 lines: the accept loop and each connection's
/// task share its caps (the open connections, each address's share) and
/// timeouts, set once before the loop; split, they would be passed about.
pub async fn run(listener: TcpListener, router: Router, app: &AppState) -> std::io::Result<()> {
    let o = app.options().clone();
    let slots = Arc::new(Semaphore::new(o.max_connections.max(1)));
    let per_address = PerAddress::new(o.max_connections_per_address, o.trusted_proxies.clone());
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut make = router.into_make_service_with_connect_info::<SocketAddr>();
    // On the signal, drain first (health answers 503 `stopping` while every
    // request is still served, so a load balancer moves away), then stop.
    let shutdown = {
        let (app, drain) = (app.clone(), o.drain);
        // Installed now, before the first connection is taken.
        let signal = crate::signal::shutdown_signal();
        async move {
            signal.await;
            if !drain.is_zero() {
                app.drain();
                tracing::info!(
                    seconds = drain.as_secs_f64(),
                    "draining: health says stopping"
                );
                tokio::time::sleep(drain).await;
            }
        }
    };
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
        let Some(address) = per_address.take(peer.ip()) else {
            // Past its share: say so if the socket takes it at once, close.
            let _ = stream.try_write(TOO_MANY);
            drop(permit);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let Ok(service) = make.call(peer).await;
        let activity = Activity::new();
        // Each request carries the connection's place: a WebSocket it
        // upgrades to keeps it (see `ConnectionShare`).
        let share = ConnectionShare::new(address);
        let service = {
            let activity = activity.clone();
            let share = share.clone();
            ServiceExt::<hyper::Request<hyper::body::Incoming>>::map_request(
                service,
                move |mut req: hyper::Request<hyper::body::Incoming>| {
                    req.extensions_mut().insert(share.clone());
                    req
                },
            )
            .map_future(move |answer| {
                let busy = InFlight::begin(&activity);
                async move {
                    let answer = answer.await;
                    drop(busy);
                    answer
                }
            })
        };
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
                // Nothing asked for that long (not even a first byte): end
                // it, and drop it if it will not end by itself.
                () = activity.idle_for(header_timeout) => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(header_timeout, conn.as_mut()).await;
                }
            }
            drop(share);
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
