//! The server's settings: its limits and switches (`Options`, each a flag of
//! `agon serve`) and what `serve` needs besides (`Config`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// The server's limits and switches, each a flag of `agon serve`.
#[derive(Clone, Debug)]
pub struct Options {
    /// How many engine computations may run at once in this process; 0: none
    /// here, every engine job goes to the queue for `agon worker`s (needs the
    /// PostgreSQL store).
    pub engine_threads: usize,
    /// A pause before each engine action, so people can follow the game.
    pub engine_delay: Duration,
    /// Origins besides the server's own that may change state (CSRF check).
    pub allowed_origins: Vec<String>,
    /// Reverse proxies whose `X-Forwarded-For` names the client for the rate
    /// limits.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Actions (moves, joins, seat links) per second per client address,
    /// with bursts of twice that; 0 for no limit.
    pub rate_limit: u32,
    /// Games created (or imported) per minute per client address; 0 for no
    /// limit.
    pub create_limit: u32,
    /// Sign-ups, sign-ins and recoveries per minute per client address; 0
    /// for no limit.
    pub account_limit: u32,
    /// Open connections at most; more wait to be accepted.
    pub max_connections: usize,
    /// Open connections at most from one client address (trusted proxies
    /// excepted), so one address cannot take every slot; 0 for no cap.
    pub max_connections_per_address: usize,
    /// How long a connection may take to send a request's headers, and stay
    /// idle between requests.
    pub header_timeout: Duration,
    /// How long a request may go unanswered: past it the client gets 503
    /// `timeout` while the handler runs on (`crate::http::deadline`);
    /// zero for no deadline.
    pub request_timeout: Duration,
    /// WebSockets open at most, in all.
    pub max_sockets: usize,
    /// WebSockets open at most on one game.
    pub max_sockets_per_game: usize,
    /// WebSockets open at most from one client address; 0 for no cap.
    pub max_sockets_per_address: usize,
    /// Host names this server answers to besides IP addresses and
    /// `localhost` (DNS-rebinding check): the `--public-url`'s host and
    /// `--allow-host`s.
    pub allowed_hosts: Vec<String>,
    /// Engine work (analyses, rollouts, reviews) one client may have queued
    /// or running at once; more is refused with 429.
    pub analysis_per_client: usize,
    /// A game nobody has used for this long, with no socket open and no
    /// engine work, leaves memory (it is reloaded from the store on demand).
    pub evict_after: Duration,
    /// How long a live game waits for each side's first decision before
    /// the server aborts it.
    pub first_move: Duration,
    /// How long the opponent of a live game must have been gone before the
    /// win may be claimed.
    pub claim_after: Duration,
    /// Web Push's settings.
    pub push: crate::push::PushOptions,
    /// Password hashes (Argon2id, for sign-ups, sign-ins and password
    /// changes) run at once; more wait their turn. `None`: half the
    /// cores, at least one, so a burst of sign-ins leaves the other half
    /// to the games.
    pub password_hashes: Option<usize>,
    /// How long a stopping server goes on serving while its health check
    /// answers 503 `stopping`, before it stops accepting: a load balancer's
    /// health-check interval, so it moves away first.
    pub drain: Duration,
    /// Log every request's answer at info level (an access log), not only
    /// at debug level.
    pub access_log: bool,
    /// The operator's schedule of tournaments, as its file's text
    /// (`crate::tournaments::schedule`; `agon serve --tournaments FILE`
    /// checks it before serving). Empty: none.
    pub tournament_schedule: String,
}

impl Options {
    /// The password hashes run at once: as set, or half the cores (at
    /// least one).
    pub fn password_hashes(&self) -> usize {
        self.password_hashes
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() / 2))
            .max(1)
    }
}

impl Default for Options {
    /// The library's defaults: no rate limits (tests and embedded use);
    /// `agon serve` sets its own from its flags.
    fn default() -> Options {
        Options {
            engine_threads: 2,
            engine_delay: Duration::from_millis(400),
            allowed_origins: vec![],
            trusted_proxies: vec![],
            rate_limit: 0,
            create_limit: 0,
            account_limit: 0,
            max_connections: 10_000,
            max_connections_per_address: 256,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_sockets: 20_000,
            max_sockets_per_game: 5_000,
            max_sockets_per_address: 1_000,
            allowed_hosts: vec![],
            analysis_per_client: 2,
            evict_after: Duration::from_secs(600),
            first_move: Duration::from_millis(crate::clock::FIRST_MOVE_MS as u64),
            claim_after: Duration::from_millis(crate::session::CLAIM_AFTER_MS as u64),
            push: crate::push::PushOptions::default(),
            password_hashes: None,
            drain: Duration::ZERO,
            access_log: false,
            tournament_schedule: String::new(),
        }
    }
}

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// The data directory; the database is `agon.db` inside it.
    pub data: PathBuf,
    /// A PostgreSQL URL: the shared store, instead of the file in `data`.
    pub database: Option<String>,
    /// The address to listen on.
    pub addr: SocketAddr,
    /// How many engine computations may run at once.
    pub engine_threads: usize,
    /// A pause before each engine action, so people can follow the game.
    pub engine_delay: Duration,
    /// The other limits and switches.
    pub options: Options,
    /// Print the start line as a JSON object (with `--log-format json`: a
    /// log collector reading the output then meets JSON from the first
    /// line).
    pub json_banner: bool,
    /// Where `GET /metrics` is served (Prometheus's text format), apart from
    /// the public address; `None`: nowhere.
    pub metrics_bind: Option<SocketAddr>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_hashes_take_half_the_cores_at_most_by_default() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(Options::default().password_hashes(), (cores / 2).max(1));
        let set = Options {
            password_hashes: Some(3),
            ..Options::default()
        };
        assert_eq!(set.password_hashes(), 3);
        let zero = Options {
            password_hashes: Some(0),
            ..Options::default()
        };
        assert_eq!(zero.password_hashes(), 1, "never none at all");
    }
}
