//! Per-client rate limits, with `tower_governor`: one limiter for creating
//! games, one for actions. A client is its peer address; requests without
//! one (tests driving the router directly) share one key.

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::routing::MethodRouter;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;
use tower_governor::{GovernorError, GovernorLayer};

/// The client of a request: its peer IP address.
#[derive(Clone, Copy, Debug)]
pub struct ClientIp;

impl KeyExtractor for ClientIp {
    type Key = IpAddr;

    fn extract<T>(&self, req: &Request<T>) -> Result<IpAddr, GovernorError> {
        Ok(req
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |c| c.0.ip()))
    }
}

/// A limiter's settings.
pub type Limiter = Arc<
    GovernorConfig<ClientIp, governor::middleware::NoOpMiddleware<governor::clock::QuantaInstant>>,
>;

/// A limiter that lets `count` requests through per `period` on average,
/// in bursts of up to `burst`; `None` when `count` is 0 (no limit).
pub fn limiter(count: u32, period: Duration, burst: u32) -> Option<Limiter> {
    if count == 0 {
        return None;
    }
    GovernorConfigBuilder::default()
        .period(period / count)
        .burst_size(burst.max(1))
        .key_extractor(ClientIp)
        .finish()
        .map(Arc::new)
}

/// Puts a limiter (if any) on a route's handlers.
pub fn limited<S: Clone + Send + Sync + 'static>(
    route: MethodRouter<S>,
    limiter: &Option<Limiter>,
) -> MethodRouter<S> {
    match limiter {
        Some(l) => route.layer(GovernorLayer::<ClientIp, _, Body>::new(l.clone())),
        None => route,
    }
}
