//! # The Agon web app
//!
//! An axum server: a REST API to create games and act in them, a WebSocket that
//! pushes every change to players and spectators, an SQLite store that keeps
//! every accepted change, and the browser front end, embedded in the binary.
//!
//! - A game is a [`session::Session`]: the record's tokens, the rules state,
//!   a revision that rises with every change, and a dice ledger.
//! - Actions are typed (`move`, `roll`, `verdict`, `undo`, `resign`, `next`,
//!   `rematch`); a move is never a die: dice are drawn here, with the operating
//!   system's secure generator, into each game's ledger, so Undo cannot buy a
//!   new roll.
//! - Each seat has a secret token; a friend joins with a one-time invite code.
//! - A change is stored (one transaction, WAL, `synchronous=FULL`) before the
//!   answer or any broadcast goes out, so an acknowledged move survives a crash.
//! - The engine thinks in `spawn_blocking` behind a semaphore; its replies are
//!   tied to the revision they were computed for.
//!
//! [`app()`] builds the router, so tests drive it without a socket.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod accounts;
pub mod build;
pub mod clock;
pub mod dice;
pub mod engine;
pub mod flows;
pub mod games;
pub mod http;
pub mod hub;
pub mod kinds;
pub mod lobby;
pub mod metrics;
pub mod model;
pub mod people;
pub mod protocol;
pub mod push;
pub mod puzzles;
pub mod ratings;
pub mod safety;
pub mod secrets;
pub mod session;
pub mod signal;
pub mod state;
pub mod store;
pub mod tasks;
pub mod text;
pub mod tournaments;
pub mod wire;
pub mod worker;
pub mod ws;

pub use games::{Config, Options, MAX_BODY, MAX_IMPORT, MAX_TOKENS};
pub use http::edge::host_of_url;
pub use http::{api, app, error};
pub use state::AppState;
pub use ws::MAX_WS_MESSAGE;

use store::Store;

/// Runs the app until Ctrl-C or SIGTERM.
///
/// # Errors
/// The data directory or the address cannot be used.
pub async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    // Many sockets need more than the usual 1024 open files.
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    if config.engine_threads == 0 && config.database.is_none() {
        return Err(
            "--engine-threads 0 leaves the engine's work to `agon worker`s, which need \
                    the shared PostgreSQL store: add --database postgres://…"
                .into(),
        );
    }
    let store = match &config.database {
        Some(url) => Store::connect(url).await?,
        None => Store::open(&config.data)?,
    };
    let state = AppState::with_options(
        store,
        Options {
            engine_threads: config.engine_threads,
            engine_delay: config.engine_delay,
            ..config.options.clone()
        },
    );
    let listener = http::listen::bind(config.addr)
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener.local_addr()?;
    if let Some(at) = config.metrics_bind {
        let metrics = tokio::net::TcpListener::bind(at)
            .await
            .map_err(|e| format!("cannot serve metrics on {at}: {e}"))?;
        tracing::info!(addr = %at, "metrics at /metrics");
        let (mut closing, mut stopping) = (state.sockets_open().closing_watch(), state.stopping());
        let router = axum::Router::new()
            .route("/metrics", axum::routing::get(http::api::metrics))
            .with_state(state.clone());
        // One of the state's tasks, so that its stop waits for it too.
        state.spawn(async move {
            let _ = axum::serve(metrics, router)
                .with_graceful_shutdown(async move {
                    tokio::select! {
                        _ = closing.wait_for(|c| *c) => {}
                        () = stopping.wait() => {}
                    }
                })
                .await;
        });
    }
    let db = match &config.database {
        // The URL without its password.
        Some(url) => format!("PostgreSQL {}", redact(url)),
        None => config.data.join("agon.db").display().to_string(),
    };
    // The line people (and the browser tests) wait for stays on stdout; the
    // log gets the same facts as fields.
    let banner = format!("Agon is running at http://{addr} (data in {db})");
    if config.json_banner {
        println!(
            "{}",
            serde_json::json!({"message": banner, "addr": addr.to_string(), "db": db})
        );
    } else {
        println!("{banner}");
    }
    tracing::info!(%addr, %db, "listening");
    http::listen::run(listener, app(state.clone()), &state).await?;
    // The loops end, and whatever they were writing is written.
    state.stop().await;
    Ok(())
}

/// A database URL without its password, for the log.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}{user}{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn passwords_stay_out_of_the_log() {
        assert_eq!(
            super::redact("postgres://agon:secret@db:5432/agon"),
            "postgres://agon@db:5432/agon"
        );
        assert_eq!(super::redact("postgres://db/agon"), "postgres://db/agon");
    }
}
