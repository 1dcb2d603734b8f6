//! Per-client rate limits, with `tower_governor`: one limiter for creating
//! games, one for actions. A client is its peer address, or, behind a
//! reverse proxy named with `--trust-proxy`, the address the proxy puts last
//! in `X-Forwarded-For`; requests without one (tests driving the router
//! directly) share one key.

use crate::state::AppState;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{Extensions, HeaderMap, Request};
use axum::routing::MethodRouter;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::KeyExtractor;
use tower_governor::{GovernorError, GovernorLayer};

/// The client of a request: its peer IP address, or the forwarded one when
/// the peer is a trusted proxy.
#[derive(Clone, Debug, Default)]
pub struct ClientIp {
    /// Proxies whose `X-Forwarded-For` is believed.
    pub trusted: Arc<Vec<IpAddr>>,
}

impl ClientIp {
    /// The client of a request with these extensions and headers.
    pub fn of(&self, extensions: &Extensions, headers: &HeaderMap) -> IpAddr {
        let peer = extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |c| c.0.ip());
        if !self.trusted.contains(&peer) {
            return peer;
        }
        // The last address is the one our proxy saw; earlier ones are the
        // client's word.
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|a| a.trim().parse::<IpAddr>().ok())
            .next_back();
        forwarded.unwrap_or(peer)
    }
}

impl KeyExtractor for ClientIp {
    type Key = IpAddr;

    fn extract<T>(&self, req: &Request<T>) -> Result<IpAddr, GovernorError> {
        Ok(self.of(req.extensions(), req.headers()))
    }
}

/// The client of a request, as a handler's argument: its address, or the
/// one a trusted proxy forwarded.
pub struct Client(pub IpAddr);

impl FromRequestParts<AppState> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &AppState,
    ) -> Result<Client, Self::Rejection> {
        let trusted = ClientIp {
            trusted: Arc::new(app.options().trusted_proxies.clone()),
        };
        Ok(Client(trusted.of(&parts.extensions, &parts.headers)))
    }
}

/// A limiter's settings.
pub type Limiter = Arc<
    GovernorConfig<ClientIp, governor::middleware::NoOpMiddleware<governor::clock::QuantaInstant>>,
>;

/// A limiter that lets `count` requests through per `period` on average,
/// in bursts of up to `burst`; `None` when `count` is 0 (no limit).
pub fn limiter(count: u32, period: Duration, burst: u32, client: &ClientIp) -> Option<Limiter> {
    if count == 0 {
        return None;
    }
    GovernorConfigBuilder::default()
        .period(period / count)
        .burst_size(burst.max(1))
        .key_extractor(client.clone())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn request(peer: &str, forwarded: Option<&str>) -> Request<()> {
        let mut req = Request::builder();
        if let Some(f) = forwarded {
            req = req.header("x-forwarded-for", f);
        }
        let mut req = req.body(()).unwrap();
        req.extensions_mut()
            .insert(ConnectInfo::<SocketAddr>(peer.parse().unwrap()));
        req
    }

    #[test]
    fn only_a_trusted_proxy_names_the_client() {
        let trusted = ClientIp {
            trusted: Arc::new(vec!["127.0.0.1".parse().unwrap()]),
        };
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let key = |c: &ClientIp, r| c.extract(&r).unwrap();
        assert_eq!(
            key(&trusted, request("127.0.0.1:5", Some("1.2.3.4, 9.9.9.9"))),
            ip("9.9.9.9")
        );
        assert_eq!(
            key(&trusted, request("127.0.0.1:5", Some("junk"))),
            ip("127.0.0.1")
        );
        assert_eq!(
            key(&trusted, request("10.0.0.2:5", Some("9.9.9.9"))),
            ip("10.0.0.2"),
            "an untrusted peer cannot pick its key"
        );
        assert_eq!(
            key(
                &ClientIp::default(),
                request("127.0.0.1:5", Some("9.9.9.9"))
            ),
            ip("127.0.0.1")
        );
    }
}
