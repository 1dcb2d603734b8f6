//! The HTTP layer: the router, the handlers (`api`), the edge around every
//! request, the rate limits, the listening socket, the built-in files, the
//! WebSocket upgrade, and the one place where an error becomes a status, a
//! code and a JSON body (`error`).

pub mod api;
pub(crate) mod assets;
pub mod codes;
pub(crate) mod deadline;
pub(crate) mod edge;
pub mod error;
pub(crate) mod limits;
pub(crate) mod listen;
mod refused;
pub mod signed;
pub(crate) mod socket;

use crate::games::{MAX_BODY, MAX_IMPORT};
use crate::state::AppState;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;
use std::time::Duration;

/// The router. Tests drive it directly; `agon serve` (the crate's `serve`) puts it
/// on a socket.
///
/// Why one function of 370 lines: it is the API's index, every route beside
/// its method, body limit and rate limit, read top to bottom as docs/api.md
/// is; split by area, a reader would lose which limits apply where.
pub fn app(state: AppState) -> Router {
    // `--access-log`: every request's answer at info level, not debug.
    let access_log = state.options().access_log;
    // The access log names the client as the rate limits do: the peer, or
    // the address a trusted proxy forwarded.
    let clients = crate::http::limits::ClientIp {
        trusted: std::sync::Arc::new(state.options().trusted_proxies.clone()),
    };
    let o = state.options();
    let client = crate::http::limits::ClientIp {
        trusted: Arc::new(o.trusted_proxies.clone()),
    };
    let creating = crate::http::limits::limiter(
        o.create_limit,
        Duration::from_secs(60),
        o.create_limit,
        &client,
    );
    let acting = crate::http::limits::limiter(
        o.rate_limit,
        Duration::from_secs(1),
        o.rate_limit.saturating_mul(2),
        &client,
    );
    let signing = crate::http::limits::limiter(
        o.account_limit,
        Duration::from_secs(60),
        o.account_limit,
        &client,
    );
    state.set_chores(
        creating
            .iter()
            .chain(&acting)
            .chain(&signing)
            .cloned()
            .map(|l| -> crate::state::Chore { Box::new(move || l.limiter().retain_recent()) })
            .collect(),
    );
    let limited = crate::http::limits::limited;
    Router::new()
        .route("/", get(assets::page))
        .route("/new", get(assets::page))
        .route("/games", get(assets::page))
        .route("/rules", get(assets::page))
        .route("/glossary", get(assets::page))
        .route("/learn", get(assets::page))
        .route("/strategy", get(assets::page))
        .route("/learn/{game}/{lesson}", get(assets::page))
        .route("/history", get(assets::page))
        .route("/g/{id}", get(assets::page))
        .route("/replay/{id}", get(assets::page))
        .route("/review/{id}", get(assets::page))
        .route("/analysis", get(assets::page))
        .route("/lab", get(assets::page))
        .route("/static/{*path}", get(assets::static_file))
        .route("/favicon.ico", get(assets::favicon))
        .route("/api/meta", get(api::meta))
        .route("/api/health", get(api::health))
        .route("/api/balance", get(api::balance))
        .route(
            "/api/games",
            limited(post(api::games::create), &creating).get(api::list::list),
        )
        .route("/api/games/{id}", get(api::games::get))
        .route(
            "/api/games/{id}/action",
            limited(post(api::actions::act), &acting),
        )
        .route(
            "/api/games/{id}/join",
            limited(post(api::seats::join), &acting),
        )
        .route(
            "/api/games/{id}/seat-link",
            limited(post(api::seats::seat_link), &acting),
        )
        .route(
            "/api/account",
            get(api::account::get).delete(api::account::delete),
        )
        .route(
            "/api/account/signup",
            limited(post(api::account::signup), &signing),
        )
        .route(
            "/api/account/login",
            limited(post(api::account::login), &signing),
        )
        .route(
            "/api/account/recover",
            limited(post(api::account::recover), &signing),
        )
        .route("/api/account/logout", post(api::account::logout))
        .route("/api/account/logout-all", post(api::account::logout_all))
        .route(
            "/api/account/password",
            limited(post(api::account::change_password), &signing),
        )
        .route(
            "/api/account/recovery-codes",
            limited(post(api::account::new_codes), &signing),
        )
        .route(
            "/api/account/sessions/{id}",
            axum::routing::delete(api::account::end_session),
        )
        .route(
            "/api/account/claim",
            limited(post(api::account::claim_seats), &acting),
        )
        .route(
            "/api/account/settings",
            axum::routing::put(api::account_data::put_settings),
        )
        .route("/api/account/export", get(api::account_data::export))
        .route(
            "/api/account/passkeys/options",
            limited(post(api::passkeys::add_options), &signing),
        )
        .route(
            "/api/account/passkeys",
            limited(post(api::passkeys::add), &signing),
        )
        .route(
            "/api/account/passkeys/{id}",
            axum::routing::delete(api::passkeys::remove),
        )
        .route(
            "/api/account/passkey-login/options",
            limited(post(api::passkeys::sign_in_options), &signing),
        )
        .route(
            "/api/account/passkey-login",
            limited(post(api::passkeys::sign_in), &signing),
        )
        .route("/account", get(assets::page))
        .route("/@/{name}", get(assets::page))
        .route("/leaderboard", get(assets::page))
        .route("/api/users/{name}", get(api::users::profile))
        .route("/api/leaderboard/{game}", get(api::users::leaderboard))
        .route("/api/games/{id}/record", get(api::games::record))
        .route("/api/games/{id}/review", get(api::review::get))
        // Engine work for anyone: limited like actions.
        .route(
            "/api/analyze",
            limited(post(api::analysis::analyze), &acting),
        )
        .route(
            "/api/rollout",
            limited(post(api::analysis::rollout), &acting),
        )
        .route("/api/games/{id}/at/{ply}", get(api::games::at_ply))
        .route("/api/games/{id}/ws", get(crate::http::socket::upgrade))
        .route("/lobby", get(assets::page))
        .route(
            "/api/seeks",
            limited(post(api::seeks::create), &creating).get(api::seeks::list),
        )
        .route(
            "/api/seeks/{id}",
            limited(axum::routing::delete(api::seeks::cancel), &acting),
        )
        .route(
            "/api/seeks/{id}/accept",
            limited(post(api::seeks::accept), &acting),
        )
        .route("/api/pools", get(api::seeks::pools))
        .route(
            "/api/pools/{pool}",
            limited(post(api::seeks::join), &creating),
        )
        .route("/api/lobby/ws", get(crate::http::socket::lobby))
        .route("/api/site/ws", get(crate::http::socket::site))
        .route("/watch", get(assets::page))
        .route("/players", get(assets::page))
        .route(
            "/api/challenges",
            limited(post(api::people::create), &creating).get(api::people::list),
        )
        .route(
            "/api/challenges/{id}/accept",
            limited(post(api::people::accept), &acting),
        )
        .route(
            "/api/challenges/{id}/decline",
            limited(post(api::people::decline), &acting),
        )
        .route(
            "/api/challenges/{id}/cancel",
            limited(post(api::people::cancel), &acting),
        )
        .route("/api/online", get(api::people::online))
        .route("/api/games/live", get(api::people::live))
        .route(
            "/api/users/{name}/follow",
            limited(
                post(api::people::follow).delete(api::people::unfollow),
                &acting,
            ),
        )
        .route("/api/account/following", get(api::people::following))
        .route(
            "/api/users/{name}/block",
            limited(
                post(api::safety::block).delete(api::safety::unblock),
                &acting,
            ),
        )
        .route("/api/account/blocks", get(api::safety::blocks))
        .route(
            "/api/reports",
            limited(post(api::safety::report), &creating),
        )
        .route("/api/mod/reports", get(api::safety::reports))
        .route("/api/mod/log", get(api::safety::log))
        .route("/api/mod/users/{name}", get(api::safety::record))
        .route("/api/mod/actions", limited(post(api::safety::act), &acting))
        .route("/mod", get(assets::page))
        .route(
            "/api/tournaments",
            limited(post(api::tournaments::create), &creating).get(api::tournaments::list),
        )
        .route("/api/tournaments/{id}", get(api::tournaments::one))
        .route(
            "/api/tournaments/{id}/ws",
            get(crate::http::socket::tournament),
        )
        .route(
            "/api/tournaments/{id}/join",
            limited(post(api::tournaments::join), &acting),
        )
        .route(
            "/api/tournaments/{id}/withdraw",
            limited(post(api::tournaments::withdraw), &acting),
        )
        .route(
            "/api/tournaments/{id}/berserk",
            limited(post(api::tournaments::berserk), &acting),
        )
        .route("/api/account/tournaments", get(api::tournaments::mine))
        .route("/api/games/{id}/tournament", get(api::tournaments::of_game))
        .route("/tournaments", get(assets::page))
        .route("/t/{id}", get(assets::page))
        .route(
            "/api/games/{id}/chat",
            get(api::talk::read).merge(limited(post(api::talk::write), &acting)),
        )
        .route("/api/turns", limited(post(api::talk::turns), &acting))
        .route("/api/push/key", get(api::talk::key))
        .route(
            "/api/push/subscriptions",
            limited(
                post(api::talk::subscribe).delete(api::talk::unsubscribe),
                &acting,
            ),
        )
        .route("/puzzles", get(assets::page))
        .route("/puzzles/{id}", get(assets::page))
        .route("/api/puzzles", get(api::puzzles::sets))
        .route("/api/puzzles/next", get(api::puzzles::next))
        .route("/api/puzzles/{id}", get(api::puzzles::one))
        .route(
            "/api/puzzles/{id}/attempt",
            limited(post(api::puzzles::attempt), &acting),
        )
        .route("/sw.js", get(assets::service_worker))
        .route(
            "/api/import",
            limited(post(api::import::import), &creating).layer(DefaultBodyLimit::max(MAX_IMPORT)),
        )
        // Each routed request counted by its route as declared (ids stay
        // out of the series), for `/metrics`.
        .route_layer(axum::middleware::from_fn(counted))
        .fallback(assets::not_found)
        // Every request answered within the deadline (see `deadline`).
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::http::deadline::answer_within,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        // One span per request; the answer is logged at debug level (a busy
        // site would drown its info log; info with --access-log). A 500 is
        // logged at error level (someone must act); another 5xx (503 while
        // draining or busy) is routine, and the access log has it.
        .layer(
            tower_http::trace::TraceLayer::new_for_http()
                // The path only: a query may carry an invite code
                // (`/g/{id}?invite=…`), which the log must not keep.
                .make_span_with(move |req: &axum::http::Request<_>| {
                    let uri = match req.uri().query() {
                        Some(q) => format!("{}?{}", req.uri().path(), redacted_query(q)),
                        None => req.uri().path().to_string(),
                    };
                    // tower-http's own target, so `tower_http=debug` (the
                    // documented way to see requests) still shows them.
                    // The edge set the id: every line of the request has it.
                    let id = req
                        .headers()
                        .get("x-request-id")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or_default();
                    let client = clients.of(req.extensions(), req.headers());
                    // The client's own words: cut short, and written with
                    // `?` so a control character cannot forge a log line.
                    let agent: String = req
                        .headers()
                        .get(axum::http::header::USER_AGENT)
                        .map(|v| String::from_utf8_lossy(v.as_bytes()).chars().take(200).collect())
                        .unwrap_or_default();
                    // A span's level is fixed where it is written: one
                    // for the access log (info), one for debugging.
                    if access_log {
                        tracing::span!(
                            target: "tower_http::trace::make_span",
                            tracing::Level::INFO,
                            "request",
                            request_id = %id,
                            client = %client,
                            method = %req.method(),
                            uri = %uri,
                            version = ?req.version(),
                            user_agent = ?agent,
                        )
                    } else {
                        tracing::span!(
                            target: "tower_http::trace::make_span",
                            tracing::Level::DEBUG,
                            "request",
                            request_id = %id,
                            client = %client,
                            method = %req.method(),
                            uri = %uri,
                            version = ?req.version(),
                            user_agent = ?agent,
                        )
                    }
                })
                .on_failure(
                    |class: tower_http::classify::ServerErrorsFailureClass,
                     latency: std::time::Duration,
                     _: &tracing::Span| {
                        let ms = latency.as_millis() as u64;
                        match class {
                            tower_http::classify::ServerErrorsFailureClass::StatusCode(code)
                                if code != axum::http::StatusCode::INTERNAL_SERVER_ERROR =>
                            {
                                tracing::debug!(status = code.as_u16(), latency_ms = ms, "answered with a 5xx");
                            }
                            class => tracing::error!(classification = %class, latency_ms = ms, "response failed"),
                        }
                    },
                )
                .on_response(
                    tower_http::trace::DefaultOnResponse::new().level(if access_log {
                        tracing::Level::INFO
                    } else {
                        tracing::Level::DEBUG
                    }),
                ),
        )
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            crate::http::edge::edge,
        ))
        // Outermost, so what the edge made of an answer is what is packed:
        // gzip for a client that accepts it (the front end's 254 kB of text
        // comes to about a quarter). Small bodies, images and the sockets'
        // upgrades are left as they are.
        .layer(tower_http::compression::CompressionLayer::new())
        .with_state(state)
}

/// Counts a routed request and its time (see `crate::metrics`).
async fn counted(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let route = req
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or("unmatched", |m| m.as_str())
        // `/api/games/:id/action`: braces in a label value trip simple
        // parsers of the text format.
        .replace('{', ":")
        .replace('}', "");
    let method = req.method().to_string();
    let started = std::time::Instant::now();
    let res = next.run(req).await;
    crate::metrics::request(&method, &route, res.status().as_u16(), started.elapsed());
    res
}

/// A query string with its values hidden (`invite=…&ply=…`): the log says
/// which parameters came, never what they were.
pub(crate) fn redacted_query(query: &str) -> String {
    query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, _)) => format!("{key}=…"),
            None => pair.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_log_keeps_no_query_value() {
        assert_eq!(
            super::redacted_query("invite=s3cret&ply=4"),
            "invite=…&ply=…"
        );
        assert_eq!(super::redacted_query("flag"), "flag");
    }
}
