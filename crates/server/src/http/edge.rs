//! The edge of the app, around every request:
//!
//! - **CSRF**: the API takes only `application/json` bodies (415 otherwise),
//!   and a request that changes state, or a WebSocket upgrade, from another
//!   origin is refused (403) unless that origin is allowed by a flag.
//! - **One error shape**: every 4xx and 5xx of the API, axum's own rejections
//!   included (413, 405, a bad path, a failed WebSocket upgrade), is
//!   `{"error": …}`; an unknown page outside the API is an HTML 404 page.
//! - **Host**: a request for a host name this server does not serve is
//!   refused (421), against DNS rebinding: a page of `evil.example`, whose
//!   name an attacker points at 127.0.0.1, sends `Host: evil.example`. IP
//!   addresses and `localhost` are always served (no name to rebind), and
//!   so are the `--public-url`'s host and the `--allow-host`s.
//! - **Headers**: a content security policy without inline script, no
//!   framing, no sniffing, no referrer; `Cache-Control: no-store` on every
//!   API answer that sets no cache policy of its own (several carry a seat
//!   token or an invite code, which no cache may keep); HSTS when the request
//!   came over HTTPS through a trusted proxy.

use crate::http::error::{ErrorBody, ErrorCode};
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;

/// The policy for every page: scripts, styles and connections only from this
/// server. Styles allow inline attributes (the boards set positions with
/// them); scripts never run inline.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/// Whether a request's `Origin` (if any) may change state here: the same
/// host as the request, or one of the allowed origins. Requests without an
/// `Origin` (programs, not browsers) pass.
fn origin_allowed(req: &Request, allowed: &[String]) -> bool {
    let Some(origin) = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
    else {
        return true;
    };
    if allowed.iter().any(|a| a.trim_end_matches('/') == origin) {
        return true;
    }
    // HTTP/2 names the host in the request's authority, not in `Host`.
    let host = requested_authority(req);
    let origin_host = origin.split_once("://").map(|(_, h)| h);
    matches!((host, origin_host), (Some(h), Some(o)) if h.eq_ignore_ascii_case(o))
}

/// The authority a request names, port and all: its `Host`, or, over
/// HTTP/2, its URI's authority.
fn requested_authority(req: &Request) -> Option<String> {
    req.headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| req.uri().authority().map(|a| a.as_str().to_string()))
}

/// The host a request names (its `Host`, or an HTTP/2 authority), without
/// the port; `None` when it names none.
fn requested_host(req: &Request) -> Option<String> {
    let raw = requested_authority(req)?;
    let raw = raw.trim();
    let host = if let Some(rest) = raw.strip_prefix('[') {
        // [::1]:8080
        format!("[{}]", rest.split(']').next().unwrap_or(""))
    } else {
        raw.rsplit_once(':')
            .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
            .map_or(raw, |(h, _)| h)
            .to_string()
    };
    Some(host.trim_end_matches('.').to_ascii_lowercase())
}

/// Whether this server answers to `host`: an IP address, `localhost` (and
/// names under it, which resolve only to this machine), or an allowed name.
pub(crate) fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.parse::<std::net::IpAddr>().is_ok()
        || host == "localhost"
        || host.ends_with(".localhost")
        || allowed
            .iter()
            .any(|a| a == "*" || a.trim_end_matches('.').eq_ignore_ascii_case(host))
}

/// The host of a URL such as `https://agon.example.org:8443/`, lower-cased.
pub fn host_of_url(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    let host = if authority.starts_with('[') {
        authority.split(']').next().map(|h| format!("{h}]"))?
    } else {
        authority.split(':').next()?.to_string()
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Whether the request came over HTTPS: said by a trusted proxy's
/// `X-Forwarded-Proto` (this server itself speaks plain HTTP).
fn came_over_https(req: &Request, trusted: &[std::net::IpAddr]) -> bool {
    over_https(req.extensions(), req.headers(), trusted)
}

/// [`came_over_https`] from a request's parts.
pub(crate) fn over_https(
    extensions: &axum::http::Extensions,
    headers: &axum::http::HeaderMap,
    trusted: &[std::net::IpAddr],
) -> bool {
    let peer = extensions
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip());
    peer.is_some_and(|p| trusted.contains(&p))
        && headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
}

fn json_error(status: StatusCode, code: ErrorCode, message: String) -> Response {
    (
        status,
        Json(ErrorBody {
            error: message,
            code,
            at: None,
            until_ms: None,
            reason: None,
        }),
    )
        .into_response()
}

/// The code of an error answer that the handlers did not make themselves.
fn code_of(status: StatusCode) -> ErrorCode {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::BodyTooLarge,
        StatusCode::METHOD_NOT_ALLOWED => ErrorCode::MethodNotAllowed,
        StatusCode::NOT_FOUND => ErrorCode::RouteNotFound,
        StatusCode::TOO_MANY_REQUESTS => ErrorCode::RateLimited,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ErrorCode::JsonOnly,
        StatusCode::BAD_REQUEST | StatusCode::UNPROCESSABLE_ENTITY => ErrorCode::BadJson,
        StatusCode::MISDIRECTED_REQUEST => ErrorCode::ForeignHost,
        s if s.is_server_error() => ErrorCode::Internal,
        _ => ErrorCode::BadRequest,
    }
}

/// The middleware: checks on the way in, one error shape and the headers on
/// the way out.
///
/// Why one function of 110 lines: the checks on the way in and the shape of
/// the answer on the way out share the request's id, origin and scheme, in
/// the order a request passes them.
pub async fn edge(State(app): State<AppState>, mut req: Request, next: Next) -> Response {
    let id = request_id(&req);
    req.headers_mut().insert(REQUEST_ID, id.clone());
    let path = req.uri().path().to_string();
    let api = path.starts_with("/api/") || path == "/api";
    let changes_state = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let upgrade = req.headers().contains_key(header::UPGRADE);
    let o = app.options();
    let https = came_over_https(&req, &o.trusted_proxies);
    let foreign_host = requested_host(&req).filter(|h| !host_allowed(h, &o.allowed_hosts));
    let mut res = if let Some(host) = foreign_host {
        json_error(
            StatusCode::MISDIRECTED_REQUEST,
            ErrorCode::ForeignHost,
            format!("this server does not serve the host '{host}' (start it with --public-url or --allow-host to serve a name)"),
        )
    } else if api
        && (changes_state || upgrade)
        && !origin_allowed(&req, &app.options().allowed_origins)
    {
        json_error(
            StatusCode::FORBIDDEN,
            ErrorCode::ForeignOrigin,
            "this request comes from another site; the API only takes requests from its own pages (or origins allowed with --allow-origin)".into(),
        )
    } else if api && takes_body(&req) && !is_json(req.headers()) {
        json_error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorCode::JsonOnly,
            "send JSON: the API takes bodies with content-type application/json only".into(),
        )
    } else {
        next.run(req).await
    };
    let status = res.status();
    if (status.is_client_error() || status.is_server_error()) && !is_json(res.headers()) {
        res = if api {
            let text = axum::body::to_bytes(std::mem::replace(res.body_mut(), Body::empty()), 4096)
                .await
                .ok()
                .map(|b| String::from_utf8_lossy(&b).trim().to_string())
                .filter(|t| !t.is_empty());
            let reason = status.canonical_reason().unwrap_or("error").to_lowercase();
            // The rate limiter's wait, in whole seconds (at least one: a
            // client told 0 would come straight back).
            let wait = res
                .headers()
                .get(header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(1)
                .max(1);
            let message = match (status, text) {
                (StatusCode::PAYLOAD_TOO_LARGE, _) => {
                    format!("the body is too large: at most {} bytes", body_limit(&path))
                }
                (StatusCode::METHOD_NOT_ALLOWED, _) => {
                    format!("{reason}: see docs/api.md for this route's methods")
                }
                (StatusCode::NOT_FOUND, None) => format!("no such route {path}: see docs/api.md"),
                // The limiter's own words say "wait for 0s".
                (StatusCode::TOO_MANY_REQUESTS, _) => {
                    format!("too many requests from your address: try again in {wait} s")
                }
                (_, Some(t)) => format!("{reason}: {t}"),
                (_, None) => reason,
            };
            let mut fresh = json_error(status, code_of(status), message);
            if let Some(allow) = res.headers().get(header::ALLOW) {
                fresh.headers_mut().insert(header::ALLOW, allow.clone());
            }
            if status == StatusCode::TOO_MANY_REQUESTS {
                fresh.headers_mut().insert(header::RETRY_AFTER, wait.into());
            }
            fresh
        } else if status == StatusCode::NOT_FOUND {
            // The app's own page: it shows "not found" in the reader's language.
            (StatusCode::NOT_FOUND, Html(crate::http::assets::INDEX_HTML)).into_response()
        } else {
            res
        };
    }
    let h = res.headers_mut();
    h.insert(REQUEST_ID, id);
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if api && !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if https {
        h.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static("max-age=31536000"),
        );
    }
    res
}

/// The header naming a request in the log and in its answer.
const REQUEST_ID: header::HeaderName = header::HeaderName::from_static("x-request-id");

/// A request's id: the one a proxy sent (`X-Request-Id`, when it is a
/// short plain token: up to 64 letters, digits, `-`, `_`, `.`), so one id
/// follows a request through the proxy's log and ours; otherwise a new one
/// (this process's random prefix and a count).
fn request_id(req: &Request) -> HeaderValue {
    let sent = req.headers().get(REQUEST_ID).filter(|v| {
        let b = v.as_bytes();
        !b.is_empty()
            && b.len() <= 64
            && b.iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
    });
    if let Some(v) = sent {
        return v.clone();
    }
    static PREFIX: std::sync::LazyLock<u32> = std::sync::LazyLock::new(|| {
        let mut b = [0u8; 4];
        let _ = crate::secrets::fill(&mut b);
        u32::from_le_bytes(b)
    });
    static COUNT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    HeaderValue::from_str(&format!("{:08x}-{n:x}", *PREFIX))
        .unwrap_or(HeaderValue::from_static("unknown"))
}

/// Whether a request carries a body the API reads: every POST, PUT and
/// PATCH, and a DELETE that sends one. Such a body must be JSON, so that a
/// plain form or `text/plain` (which another site's page may send without
/// asking) is never read as one.
fn takes_body(req: &Request) -> bool {
    match *req.method() {
        Method::POST | Method::PUT | Method::PATCH => true,
        // An empty body (no length, or length 0) is at its end already.
        Method::DELETE => !axum::body::HttpBody::is_end_stream(req.body()),
        _ => false,
    }
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"))
}

/// The body limit of a path: an import may be as long as the longest
/// record the server exports; every other body is small.
fn body_limit(path: &str) -> usize {
    if path == "/api/import" {
        crate::games::MAX_IMPORT
    } else {
        crate::games::MAX_BODY
    }
}
