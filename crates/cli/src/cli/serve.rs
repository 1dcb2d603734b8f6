//! `agon serve`, `agon worker` and `agon balance`: their flags.

use super::*;

/// `agon worker`: the shared database and how much to do at once.
#[derive(clap::Args, Debug)]
pub(crate) struct WorkerArgs {
    /// The PostgreSQL database the web instances use
    /// (postgres://user@host:port/db).
    #[arg(long, env = "AGON_DATABASE", hide_env_values = true)]
    pub(crate) database: String,
    /// Jobs done at once (one core each).
    #[arg(long, env = "AGON_THREADS", default_value_t = 2)]
    pub(crate) threads: usize,
    /// Seconds a job stays held without its worker renewing the lease; a
    /// killed worker's job is taken again after this.
    #[arg(long, env = "AGON_LEASE_SECS", default_value_t = 15)]
    pub(crate) lease_secs: u64,
    /// Pause before each engine action, in milliseconds (as agon serve's).
    #[arg(long, env = "AGON_ENGINE_DELAY_MS", default_value_t = 400)]
    pub(crate) engine_delay_ms: u64,
    /// This worker's name in the queue (default: host and process id).
    #[arg(long, env = "AGON_NAME")]
    pub(crate) name: Option<String>,
    /// Ringo endgame tablebases and Urgammon's exact endings for the engine
    /// (built by `agon ringo tablebase build` and `agon urgammon endings
    /// build`); a missing directory means none.
    #[arg(long, env = "AGON_TABLEBASES", default_value = TABLEBASES)]
    pub(crate) tablebases: std::path::PathBuf,
    /// Serve GET /metrics (Prometheus's text format: jobs ended, jobs in
    /// hand, the queue, the engine's time) and GET /health on this address,
    /// for the monitoring on this machine.
    #[arg(long, env = "AGON_METRICS_BIND")]
    pub(crate) metrics_bind: Option<std::net::SocketAddr>,
}

impl WorkerArgs {
    pub(crate) fn config(self) -> agon_server::worker::WorkerConfig {
        use std::time::Duration;
        let name = self.name.unwrap_or_else(|| {
            let host = std::fs::read_to_string("/etc/hostname")
                .map(|h| h.trim().to_string())
                .unwrap_or_else(|_| "worker".into());
            format!("{host}:{}", std::process::id())
        });
        agon_server::worker::WorkerConfig {
            database: self.database,
            threads: self.threads.max(1),
            lease: Duration::from_secs(self.lease_secs.max(1)),
            engine_delay: Duration::from_millis(self.engine_delay_ms),
            name,
            metrics_bind: self.metrics_bind,
        }
    }
}

/// `agon balance`: which rule sets, which players, how many games.
#[derive(clap::Args, Debug)]
pub(crate) struct BalanceArgs {
    /// Rule sets to compare: PRESET[,key=value]... each.
    #[arg(long, num_args = 1.., default_values_t = ["classic".to_string(), "classic,attackers=5".to_string()])]
    pub(crate) rules: Vec<String>,
    /// Players, each playing both seats: level:N, depth:D, nodes:N, time:MS, level10:MS, random, greedy, cautious.
    #[arg(long, num_args = 1.., default_values_t = ["depth:2".to_string(), "depth:4".to_string()])]
    pub(crate) players: Vec<String>,
    /// Games per rule set and player.
    #[arg(long, default_value_t = 100)]
    pub(crate) games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub(crate) threads: usize,
    /// Seed for the openings and the players' randomness.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Write every game to this file as it ends, one JSON object a line.
    #[arg(long)]
    pub(crate) records: Option<std::path::PathBuf>,
    /// Print only the JSON (`{"rows": [...]}`), not the table.
    #[arg(long)]
    pub(crate) json: bool,
    /// Also write the table as Markdown to this file.
    #[arg(long)]
    pub(crate) markdown: Option<std::path::PathBuf>,
    /// Also write a chart (SVG: the attackers' win rate against strength,
    /// one line per rule set) to this file.
    #[arg(long)]
    pub(crate) svg: Option<std::path::PathBuf>,
    /// Play nothing: read the rows an earlier `--json` run printed (such as
    /// docs/balance/results.json) and write the table, the Markdown and the
    /// chart from them, the players in the order the rows list them. Given
    /// several files, each cell (rule set and player) measured in more than
    /// one is pooled: all its games as one row.
    #[arg(long, num_args = 1.., conflicts_with_all = ["rules", "players", "games", "threads", "seed", "records"])]
    pub(crate) from: Vec<std::path::PathBuf>,
}

/// `agon serve`: where to listen, and every limit of the web app.
#[derive(clap::Args, Debug)]
pub(crate) struct ServeArgs {
    /// Data directory (the database is agon.db inside it).
    #[arg(long, env = "AGON_DATA", default_value = DATA)]
    pub(crate) data: std::path::PathBuf,
    /// Ringo endgame tablebases and Urgammon's exact endings the engine,
    /// analysis and review use (built by `agon ringo tablebase build` and
    /// `agon urgammon endings build`); default: DATA/tablebases. A missing
    /// directory means none.
    #[arg(long, env = "AGON_TABLEBASES")]
    pub(crate) tablebases: Option<std::path::PathBuf>,
    /// A PostgreSQL database shared by several instances
    /// (postgres://user@host:port/db) instead of the SQLite file in --data.
    #[arg(long, env = "AGON_DATABASE", hide_env_values = true)]
    pub(crate) database: Option<String>,
    /// Port to listen on.
    #[arg(long, env = "AGON_PORT", default_value_t = 8080)]
    pub(crate) port: u16,
    /// Address to bind.
    #[arg(long, env = "AGON_BIND", default_value = "127.0.0.1")]
    pub(crate) bind: std::net::IpAddr,
    /// Engine computations allowed at once; 0 leaves every engine job to
    /// `agon worker`s (needs --database).
    #[arg(long, env = "AGON_ENGINE_THREADS", default_value_t = 2)]
    pub(crate) engine_threads: usize,
    /// Pause before each engine action, in milliseconds.
    #[arg(long, env = "AGON_ENGINE_DELAY_MS", default_value_t = 400)]
    pub(crate) engine_delay_ms: u64,
    /// Another origin allowed to change state (CSRF check), e.g.
    /// https://agon.example.org; repeat for more.
    #[arg(
        long = "allow-origin",
        env = "AGON_ALLOW_ORIGIN",
        value_delimiter = ','
    )]
    pub(crate) allow_origin: Vec<String>,
    /// A reverse proxy in front of this server (e.g. 127.0.0.1): its
    /// X-Forwarded-For names the client for the rate limits; repeat for more.
    #[arg(long = "trust-proxy", env = "AGON_TRUST_PROXY", value_delimiter = ',')]
    pub(crate) trust_proxy: Vec<std::net::IpAddr>,
    /// Actions (moves, joins, seat links) per second per client address,
    /// bursts of twice that; 0 turns the limit off.
    #[arg(long, env = "AGON_RATE_LIMIT", default_value_t = 20)]
    pub(crate) rate_limit: u32,
    /// Games created or imported per minute per client address; 0 turns the
    /// limit off.
    #[arg(long, env = "AGON_CREATE_LIMIT", default_value_t = 30)]
    pub(crate) create_limit: u32,
    /// Sign-ups, sign-ins and recoveries per minute per client address
    /// (besides the lock-out after 10 failures); 0 turns the limit off.
    #[arg(long, env = "AGON_ACCOUNT_LIMIT", default_value_t = 30)]
    pub(crate) account_limit: u32,
    /// Open connections at most; more wait to be accepted.
    #[arg(long, env = "AGON_MAX_CONNECTIONS", default_value_t = 10_000)]
    pub(crate) max_connections: usize,
    /// Open connections at most from one client address (a --trust-proxy
    /// excepted): more are answered 503 and closed; 0 turns the cap off.
    #[arg(long, env = "AGON_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 256)]
    pub(crate) max_connections_per_address: usize,
    /// Seconds a connection may take to send a request's headers, or stay
    /// idle between requests.
    #[arg(long, env = "AGON_HEADER_TIMEOUT_SECS", default_value_t = 10)]
    pub(crate) header_timeout_secs: u64,
    /// Seconds a request may go unanswered: past them its client gets 503
    /// `timeout` (what it asked may still be done) while the server
    /// finishes it; 0 for no deadline.
    #[arg(long, env = "AGON_REQUEST_TIMEOUT_SECS", default_value_t = 30)]
    pub(crate) request_timeout_secs: u64,
    /// WebSockets open at most, in all.
    #[arg(long, env = "AGON_MAX_SOCKETS", default_value_t = 20_000)]
    pub(crate) max_sockets: usize,
    /// WebSockets open at most on one game.
    #[arg(long, env = "AGON_MAX_SOCKETS_PER_GAME", default_value_t = 5_000)]
    pub(crate) max_sockets_per_game: usize,
    /// WebSockets open at most from one client address; 0 turns the cap off.
    #[arg(long, env = "AGON_MAX_SOCKETS_PER_ADDRESS", default_value_t = 1_000)]
    pub(crate) max_sockets_per_address: usize,
    /// The address people reach this server at behind a proxy, e.g.
    /// https://agon.example.org: its host is one the server answers to (IP
    /// addresses and localhost always are; others are refused, against DNS
    /// rebinding).
    #[arg(long, env = "AGON_PUBLIC_URL")]
    pub(crate) public_url: Option<String>,
    /// Another host name the server answers to (see --public-url); repeat
    /// for more; `*` for any.
    #[arg(long = "allow-host", env = "AGON_ALLOW_HOST", value_delimiter = ',')]
    pub(crate) allow_host: Vec<String>,
    /// Analyses, rollouts and reviews one client may have queued or running
    /// at once; more are refused with 429.
    #[arg(long, env = "AGON_ANALYSIS_PER_CLIENT", default_value_t = 2)]
    pub(crate) analysis_per_client: usize,
    /// Seconds after which an unused game (no socket, no engine work) leaves
    /// memory; it is reloaded from the store when asked for.
    #[arg(long, env = "AGON_EVICT_AFTER_SECS", default_value_t = 600)]
    pub(crate) evict_after_secs: u64,
    /// Seconds a live (clocked) game waits for each side's first move
    /// before the server aborts it.
    #[arg(long, env = "AGON_FIRST_MOVE_SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub(crate) first_move_secs: u64,
    /// Seconds the opponent of a live game between people must have been
    /// gone (no page open) before the win may be claimed.
    #[arg(long, env = "AGON_CLAIM_AFTER_SECS", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) claim_after_secs: u64,
    /// The contact push services see in this server's Web Push requests
    /// (`mailto:` or `https:`); by default the public URL, if given.
    #[arg(long, env = "AGON_PUSH_CONTACT")]
    pub(crate) push_contact: Option<String>,
    /// Tests only: accept Web Push endpoints on plain `http://` and on IP
    /// address literals (a test's own push service). It lifts no address
    /// check: a test on this machine also needs `--push-allow-network`.
    /// Without it, only `https://` endpoints on host names are taken.
    #[arg(long, env = "AGON_PUSH_INSECURE_ENDPOINTS")]
    pub(crate) push_insecure_endpoints: bool,
    /// A network (`10.1.0.0/16`) the server may push to besides public
    /// unicast addresses: a push service inside your own network. Every
    /// other private, loopback, link-local, CGNAT or metadata address is
    /// refused when the endpoint's name is looked up. Repeatable.
    #[arg(
        long = "push-allow-network",
        env = "AGON_PUSH_ALLOW_NETWORK",
        value_delimiter = ',',
        value_name = "CIDR"
    )]
    pub(crate) push_allow_network: Vec<agon_server::push::IpNet>,
    /// Ports a Web Push endpoint may name besides 443: a list (`8443,9443`)
    /// or `any`.
    #[arg(
        long,
        env = "AGON_PUSH_ALLOW_PORTS",
        value_name = "PORTS",
        default_value = "443"
    )]
    pub(crate) push_allow_ports: agon_server::push::Ports,
    /// Answer a push service's host name with this address instead of
    /// looking it up (`NAME=ADDRESS`, like curl's `--resolve`); the address
    /// is checked like a lookup's. Repeatable.
    #[arg(
        long = "push-resolve",
        env = "AGON_PUSH_RESOLVE",
        value_delimiter = ',',
        value_name = "NAME=ADDRESS"
    )]
    pub(crate) push_resolve: Vec<agon_server::push::Pinned>,
    /// Password hashes (Argon2id: sign-ups, sign-ins, password changes)
    /// computed at once; more wait their turn. By default half the cores,
    /// at least one, so that a burst of sign-ins leaves the rest to games.
    #[arg(long, env = "AGON_PASSWORD_HASHES", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub(crate) password_hashes: Option<u64>,
    /// Seconds a stopping server (Ctrl-C, SIGTERM) goes on serving while
    /// /api/health answers 503 `stopping`, before it stops accepting: set it
    /// to your load balancer's health-check interval, so it moves away first.
    #[arg(long, env = "AGON_DRAIN_SECS", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=300))]
    pub(crate) drain_secs: u64,
    /// Serve GET /metrics (Prometheus's text format: requests and their
    /// latency by route, commits, sign-ins, pushes, games ended, sockets,
    /// the engine queue) on this address, apart from the public one:
    /// `127.0.0.1:9100`, for the monitoring on this machine.
    #[arg(long, env = "AGON_METRICS_BIND", value_name = "ADDR")]
    pub(crate) metrics_bind: Option<std::net::SocketAddr>,
    /// Log every request's answer at info level (client address, method,
    /// path without query values, status, time, request id, user agent): an
    /// access log, in the log's format.
    #[arg(long, env = "AGON_ACCESS_LOG")]
    pub(crate) access_log: bool,
    /// The operator's schedule of tournaments: a file with one event a line
    /// (an hourly Ringo arena, a daily Urgammon one, a weekly Swiss…; see
    /// docs/tournaments.md), each made ahead of its start.
    #[arg(long, env = "AGON_TOURNAMENTS", value_name = "FILE")]
    pub(crate) tournaments: Option<std::path::PathBuf>,
}

impl ServeArgs {
    pub(crate) fn config(self) -> agon_server::Config {
        use std::time::Duration;
        agon_server::Config {
            data: self.data,
            database: self.database,
            addr: std::net::SocketAddr::new(self.bind, self.port),
            engine_threads: self.engine_threads,
            engine_delay: Duration::from_millis(self.engine_delay_ms),
            json_banner: false,
            metrics_bind: self.metrics_bind,
            options: agon_server::Options {
                engine_threads: self.engine_threads,
                engine_delay: Duration::from_millis(self.engine_delay_ms),
                allowed_origins: self.allow_origin,
                trusted_proxies: self.trust_proxy,
                rate_limit: self.rate_limit,
                create_limit: self.create_limit,
                account_limit: self.account_limit,
                max_connections: self.max_connections,
                max_connections_per_address: self.max_connections_per_address,
                header_timeout: Duration::from_secs(self.header_timeout_secs.max(1)),
                request_timeout: Duration::from_secs(self.request_timeout_secs),
                max_sockets: self.max_sockets,
                max_sockets_per_game: self.max_sockets_per_game,
                max_sockets_per_address: self.max_sockets_per_address,
                allowed_hosts: self
                    .public_url
                    .iter()
                    .filter_map(|u| agon_server::host_of_url(u))
                    .chain(self.allow_host)
                    .collect(),
                analysis_per_client: self.analysis_per_client,
                evict_after: Duration::from_secs(self.evict_after_secs),
                first_move: Duration::from_secs(self.first_move_secs),
                claim_after: Duration::from_secs(self.claim_after_secs),
                push: agon_server::push::PushOptions {
                    insecure_endpoints: self.push_insecure_endpoints,
                    allow_networks: self.push_allow_network,
                    allow_ports: self.push_allow_ports,
                    resolve: self.push_resolve,
                    contact: self.push_contact.or_else(|| self.public_url.clone()),
                },
                password_hashes: self.password_hashes.map(|n| n as usize),
                drain: Duration::from_secs(self.drain_secs),
                access_log: self.access_log,
                tournament_schedule: String::new(),
            },
        }
    }
}

/// `agon backup`: where the database is, and where the copy goes.
#[derive(clap::Args, Debug)]
pub(crate) struct BackupArgs {
    /// The data directory of the instance (its database is agon.db inside).
    #[arg(long, env = "AGON_DATA", default_value = DATA)]
    pub(crate) data: std::path::PathBuf,
    /// The backup file to write (it must not exist yet). To restore, put it
    /// in an empty data directory as agon.db and start `agon serve` there.
    pub(crate) file: std::path::PathBuf,
}

/// `agon mod`: moderation from the command line.
#[derive(clap::Subcommand, Debug)]
pub(crate) enum ModCmd {
    /// Makes an account a moderator (the first one: later ones are made by
    /// moderators on the moderation page). Logged like a moderator's action.
    Grant(GrantArgs),
}

/// `agon mod grant`: whom, and which database.
#[derive(clap::Args, Debug)]
pub(crate) struct GrantArgs {
    /// The account's name.
    pub(crate) name: String,
    /// The data directory of a SQLite instance (its database is agon.db).
    #[arg(long, env = "AGON_DATA", default_value = DATA)]
    pub(crate) data: std::path::PathBuf,
    /// A PostgreSQL database instead (postgres://user@host:port/db).
    #[arg(long, env = "AGON_DATABASE", hide_env_values = true)]
    pub(crate) database: Option<String>,
}

/// `agon migrate`: which database.
#[derive(clap::Args, Debug)]
pub(crate) struct MigrateArgs {
    /// The data directory of a SQLite instance (its database is agon.db).
    #[arg(long, env = "AGON_DATA", default_value = DATA)]
    pub(crate) data: std::path::PathBuf,
    /// A PostgreSQL database instead (postgres://user@host:port/db).
    #[arg(long, env = "AGON_DATABASE", hide_env_values = true)]
    pub(crate) database: Option<String>,
}
