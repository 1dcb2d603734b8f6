//! The clap types of the `agon` command: every subcommand, flag and default.

use crate::commands::bench::ServeBench;
use crate::commands::ringo::game as ringo_game;
use crate::commands::tournament::ringo::RingoArgs;
use agon_ai::Level;
use anyhow::Result;
use clap::{Parser, Subcommand};

/// `agon serve`'s default data directory (the SQLite file, and the
/// tablebases below).
pub(crate) const DATA: &str = "agon-data";

/// Where every command looks for the Ringo endgame tablebases by default and
/// `agon ringo tablebase build` writes them: the `tablebases` folder of
/// `agon serve`'s default data directory ([`DATA`]). Until 2026-11-26 the
/// CLI commands used `./tablebases` while `serve` read `agon-data/tablebases`,
/// so tables built as the README showed were never seen by the web app.
pub(crate) const TABLEBASES: &str = "agon-data/tablebases";

#[derive(Parser)]
#[command(name = "agon", version, about = "Play and study Ringo and Urgammon")]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Which log lines to write on stderr: a level (error, warn, info, debug,
    /// trace) or per-crate directives such as `info,agon_server=debug`.
    #[arg(long, global = true, default_value = "info", value_parser = parse_log_filter)]
    pub(crate) log_level: tracing_subscriber::EnvFilter,
    /// How log lines are written: text for people, json (one object per
    /// line) for log collectors.
    #[arg(long, global = true, value_enum, default_value_t = LogFormat::Text)]
    pub(crate) log_format: LogFormat,
}

/// The log line format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogFormat {
    /// One readable line per event.
    Text,
    /// One JSON object per event.
    Json,
}

/// A `--log-level` filter, refused with tracing's own explanation. A single
/// word must be a level: tracing would read `loud` as "everything from a
/// crate called loud" and log nothing, silently.
fn parse_log_filter(text: &str) -> Result<tracing_subscriber::EnvFilter, String> {
    if !text.contains(['=', ',', ':', '[']) {
        text.parse::<tracing_subscriber::filter::LevelFilter>()
            .map_err(|_| {
                format!("'{text}' is not a level: use off, error, warn, info, debug or trace")
            })?;
    }
    tracing_subscriber::EnvFilter::builder()
        .parse(text)
        .map_err(|e| e.to_string())
}

impl Cli {
    /// Sends the log (the server's requests and errors, the engines' thinking
    /// at trace level) to stderr, in the chosen format.
    pub(crate) fn init_logging(&self) {
        let builder = tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_env_filter(self.log_level.clone());
        // Another subscriber already set (in tests) is not an error.
        let _ = match self.log_format {
            LogFormat::Text => builder.try_init(),
            LogFormat::Json => builder.json().try_init(),
        };
    }
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Run the web app: play both games in the browser, stored in SQLite.
    Serve(ServeArgs),
    /// Ringo: legal moves, perft, the board, terminal play.
    #[command(subcommand)]
    Ringo(RingoCmd),
    /// Urgammon: the state after a record, terminal match play, replays.
    #[command(subcommand)]
    Urgammon(UrgammonCmd),
    /// The engine protocol on stdin/stdout (see docs/engine-protocol.md).
    Engine,
    /// Engine-against-engine matches with statistics.
    #[command(subcommand)]
    Tournament(TournamentCmd),
    /// Tune an evaluation by self-play.
    #[command(subcommand)]
    Tune(TuneCmd),
    /// Speed benchmarks (median of several runs, one core).
    #[command(subcommand)]
    Bench(BenchCmd),
    /// The Ringo balance lab: each rule set at each strength, the same player
    /// in both seats; the attackers' win rate with its 95% interval.
    Balance(BalanceArgs),
    /// An engine worker: takes engine jobs (the computer's moves, reviews,
    /// analyses) from the PostgreSQL queue, for web instances started with
    /// --engine-threads 0.
    Worker(WorkerArgs),
}

/// `agon worker`: the shared database and how much to do at once.
#[derive(clap::Args, Debug)]
pub(crate) struct WorkerArgs {
    /// The PostgreSQL database the web instances use
    /// (postgres://user@host:port/db).
    #[arg(long, env = "AGON_DATABASE")]
    pub(crate) database: String,
    /// Jobs done at once (one core each).
    #[arg(long, default_value_t = 2)]
    pub(crate) threads: usize,
    /// Seconds a job stays held without its worker renewing the lease; a
    /// killed worker's job is taken again after this.
    #[arg(long, default_value_t = 15)]
    pub(crate) lease_secs: u64,
    /// Pause before each engine action, in milliseconds (as agon serve's).
    #[arg(long, default_value_t = 400)]
    pub(crate) engine_delay_ms: u64,
    /// This worker's name in the queue (default: host and process id).
    #[arg(long)]
    pub(crate) name: Option<String>,
    /// Ringo endgame tablebases for the engine (built by `agon ringo
    /// tablebase build`); a missing directory means none.
    #[arg(long, default_value = TABLEBASES)]
    pub(crate) tablebases: std::path::PathBuf,
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
    #[arg(long, default_value = DATA)]
    pub(crate) data: std::path::PathBuf,
    /// Ringo endgame tablebases the engine, analysis and review use (built
    /// by `agon ringo tablebase build`); default: DATA/tablebases. A missing
    /// directory means none.
    #[arg(long)]
    pub(crate) tablebases: Option<std::path::PathBuf>,
    /// A PostgreSQL database shared by several instances
    /// (postgres://user@host:port/db) instead of the SQLite file in --data.
    #[arg(long, env = "AGON_DATABASE")]
    pub(crate) database: Option<String>,
    /// Port to listen on.
    #[arg(long, default_value_t = 8080)]
    pub(crate) port: u16,
    /// Address to bind.
    #[arg(long, default_value = "127.0.0.1")]
    pub(crate) bind: std::net::IpAddr,
    /// Engine computations allowed at once; 0 leaves every engine job to
    /// `agon worker`s (needs --database).
    #[arg(long, default_value_t = 2)]
    pub(crate) engine_threads: usize,
    /// Pause before each engine action, in milliseconds.
    #[arg(long, default_value_t = 400)]
    pub(crate) engine_delay_ms: u64,
    /// Another origin allowed to change state (CSRF check), e.g.
    /// https://agon.example.org; repeat for more.
    #[arg(long = "allow-origin")]
    pub(crate) allow_origin: Vec<String>,
    /// A reverse proxy in front of this server (e.g. 127.0.0.1): its
    /// X-Forwarded-For names the client for the rate limits; repeat for more.
    #[arg(long = "trust-proxy")]
    pub(crate) trust_proxy: Vec<std::net::IpAddr>,
    /// Actions (moves, joins, seat links) per second per client address,
    /// bursts of twice that; 0 turns the limit off.
    #[arg(long, default_value_t = 20)]
    pub(crate) rate_limit: u32,
    /// Games created or imported per minute per client address; 0 turns the
    /// limit off.
    #[arg(long, default_value_t = 30)]
    pub(crate) create_limit: u32,
    /// Open connections at most; more wait to be accepted.
    #[arg(long, default_value_t = 10_000)]
    pub(crate) max_connections: usize,
    /// Open connections at most from one client address (a --trust-proxy
    /// excepted): more are answered 503 and closed; 0 turns the cap off.
    #[arg(long, default_value_t = 256)]
    pub(crate) max_connections_per_address: usize,
    /// Seconds a connection may take to send a request's headers, or stay
    /// idle between requests.
    #[arg(long, default_value_t = 10)]
    pub(crate) header_timeout_secs: u64,
    /// WebSockets open at most, in all.
    #[arg(long, default_value_t = 20_000)]
    pub(crate) max_sockets: usize,
    /// WebSockets open at most on one game.
    #[arg(long, default_value_t = 5_000)]
    pub(crate) max_sockets_per_game: usize,
    /// WebSockets open at most from one client address; 0 turns the cap off.
    #[arg(long, default_value_t = 1_000)]
    pub(crate) max_sockets_per_address: usize,
    /// The address people reach this server at behind a proxy, e.g.
    /// https://agon.example.org: its host is one the server answers to (IP
    /// addresses and localhost always are; others are refused, against DNS
    /// rebinding).
    #[arg(long)]
    pub(crate) public_url: Option<String>,
    /// Another host name the server answers to (see --public-url); repeat
    /// for more; `*` for any.
    #[arg(long = "allow-host")]
    pub(crate) allow_host: Vec<String>,
    /// Analyses, rollouts and reviews one client may have queued or running
    /// at once; more are refused with 429.
    #[arg(long, default_value_t = 2)]
    pub(crate) analysis_per_client: usize,
    /// Seconds after which an unused game (no socket, no engine work) leaves
    /// memory; it is reloaded from the store when asked for.
    #[arg(long, default_value_t = 600)]
    pub(crate) evict_after_secs: u64,
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
            options: agon_server::Options {
                engine_threads: self.engine_threads,
                engine_delay: Duration::from_millis(self.engine_delay_ms),
                allowed_origins: self.allow_origin,
                trusted_proxies: self.trust_proxy,
                rate_limit: self.rate_limit,
                create_limit: self.create_limit,
                max_connections: self.max_connections,
                max_connections_per_address: self.max_connections_per_address,
                header_timeout: Duration::from_secs(self.header_timeout_secs.max(1)),
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
            },
        }
    }
}

/// The rules, start position and moves that set up a Ringo game, or a whole
/// saved record (as the web app's "Download record" writes it).
#[derive(clap::Args)]
pub(crate) struct RingoGameArgs {
    /// Rules: PRESET[,key=value]... e.g. classic,attackers=6
    #[arg(long, default_value = "classic")]
    pub(crate) rules: String,
    /// Start position (section 8 notation); default: the rules' start.
    #[arg(long)]
    pub(crate) position: Option<String>,
    /// Moves to play first, separated by spaces (after --record's or --file's moves).
    #[arg(long)]
    pub(crate) moves: Option<String>,
    /// A whole game record instead of --rules and --position: the rules, an
    /// optional start position, the moves, and maybe a last `resign:SIDE`.
    #[arg(long, conflicts_with_all = ["rules", "position", "file"])]
    pub(crate) record: Option<String>,
    /// The same record from a file, such as the web app's download (`-`: standard input).
    #[arg(long, conflicts_with_all = ["rules", "position"])]
    pub(crate) file: Option<std::path::PathBuf>,
}

impl RingoGameArgs {
    /// The game these options set up.
    pub(crate) fn load(&self) -> Result<ringo::Game> {
        Ok(self.load_saved()?.0)
    }

    /// The game, and the side that resigned it when the record says so.
    pub(crate) fn load_saved(&self) -> Result<(ringo::Game, Option<ringo::Side>)> {
        let record = match (&self.record, &self.file) {
            (Some(text), _) => Some(text.clone()),
            (None, Some(path)) => Some(crate::commands::read_file(path)?),
            (None, None) => None,
        };
        match record {
            Some(text) => ringo_game::load_saved(&text, self.moves.as_deref()),
            None => Ok((
                ringo_game::load(&self.rules, self.position.as_deref(), self.moves.as_deref())?,
                None,
            )),
        }
    }
}

/// An Urgammon record: as text (`--record`) or from a file (`--file`).
#[derive(clap::Args)]
pub(crate) struct UrgammonRecordArgs {
    /// The record: game tokens on one line, or a match record (header line
    /// first); a last `resign:SIDE` is read too.
    #[arg(long, conflicts_with = "file")]
    pub(crate) record: Option<String>,
    /// The same record from a file, such as the web app's download (`-`: standard input).
    #[arg(long)]
    pub(crate) file: Option<std::path::PathBuf>,
}

impl UrgammonRecordArgs {
    /// The record's text; empty (the start) when neither option is given.
    pub(crate) fn text(&self) -> Result<String> {
        match (&self.record, &self.file) {
            (Some(text), _) => Ok(text.clone()),
            (None, Some(path)) => crate::commands::read_file(path),
            (None, None) => Ok(String::new()),
        }
    }
}

#[derive(Subcommand)]
pub(crate) enum RingoCmd {
    /// Print the position, side to move, status and sorted legal moves as JSON.
    Legal {
        #[command(flatten)]
        game: RingoGameArgs,
    },
    /// Count leaf nodes at exactly DEPTH plies.
    Perft {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// Also print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Print the board drawing.
    Show {
        #[command(flatten)]
        game: RingoGameArgs,
    },
    /// The engine's best move, score, proof and principal variation, as JSON.
    Analyze {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Search as this playing level (1-10).
        #[arg(long)]
        level: Option<Level>,
        /// Search to this depth.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: Option<u32>,
        /// Search about this many nodes.
        #[arg(long)]
        nodes: Option<u64>,
        /// Search this many milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        /// Endgame tablebases to use (a missing directory means none).
        #[arg(long, default_value = TABLEBASES)]
        tablebases: std::path::PathBuf,
    },
    /// Review a game: each ply's best move, loss and grade, each side's
    /// accuracy and the key moments, as JSON.
    Review {
        #[command(flatten)]
        game: RingoGameArgs,
        /// The fixed search depth of every ply (the same for every ply, so a
        /// review is reproducible).
        #[arg(long, default_value_t = agon_ai::ringo::review::DEPTH, value_parser = clap::value_parser!(u32).range(1..=20))]
        depth: u32,
        /// Endgame tablebases to use (a missing directory means none).
        #[arg(long, default_value = TABLEBASES)]
        tablebases: std::path::PathBuf,
    },
    /// Play many games of A against B and review every one: each player's
    /// mean loss, accuracy and grades (the evidence of docs/review.md).
    ReviewStudy {
        /// Rules: PRESET[,key=value]...
        #[arg(long, default_value = "classic")]
        rules: String,
        #[command(flatten)]
        study: StudyArgs,
        /// Review depth.
        #[arg(long, default_value_t = agon_ai::ringo::review::DEPTH)]
        depth: u32,
    },
    /// Prove who wins from a position (df-pn with a transposition table and
    /// the tablebases), as JSON: {"result", "plies", "nodes", "pv"}.
    Solve {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Positions to expand at most; the result is "unknown" when they run out.
        #[arg(long, default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..))]
        max_nodes: u64,
        /// Threads (the root's moves are shared out).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Directory of tablebases built by `agon ringo tablebase build`
        /// (used when it holds tables of these rules).
        #[arg(long, default_value = TABLEBASES)]
        tablebases: std::path::PathBuf,
    },
    /// Endgame tablebases: build, verify and probe.
    Tablebase {
        #[command(subcommand)]
        cmd: TablebaseCmd,
    },
    /// Two people play at this terminal, or one against the engine (--vs);
    /// --record or --file goes on from a saved game.
    Play {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Play against the engine: engine or engine:LEVEL (1-10, default 5).
        #[arg(long)]
        vs: Option<String>,
        /// Your side against the engine.
        #[arg(long, value_enum, default_value_t = RingoSide::Attackers)]
        side: RingoSide,
    },
    /// Step through a game: its record (--record, --file) or --moves.
    Replay {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Print every step without waiting for commands.
        #[arg(long)]
        all: bool,
    },
}

/// `agon ringo tablebase …`.
#[derive(Subcommand)]
pub(crate) enum TablebaseCmd {
    /// Build every class up to --attackers v --defenders by retrograde
    /// analysis and write them to --dir; prints each class's figures as JSON.
    Build {
        /// Rules: PRESET[,key=value]... (the start count and the repetition
        /// rule do not change the tables).
        #[arg(long, default_value = "classic")]
        rules: String,
        /// Attackers (the fortress included), 2-7.
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=7))]
        attackers: u8,
        /// Defenders, 0-4.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=4))]
        defenders: u8,
        /// Where the tables are written (and read, so only missing ones are built).
        #[arg(long, default_value = TABLEBASES)]
        dir: std::path::PathBuf,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// Check every table in --dir: each entry against its children's, and a
    /// sample against a plain minimax; prints the report as JSON.
    Verify {
        /// Rules: PRESET[,key=value]...
        #[arg(long, default_value = "classic")]
        rules: String,
        /// Where the tables are.
        #[arg(long, default_value = TABLEBASES)]
        dir: std::path::PathBuf,
        /// Positions a class searched by the minimax.
        #[arg(long, default_value_t = 1000)]
        samples: u64,
        /// The minimax's depth in plies (at most 7: no repetition fits).
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=7))]
        depth: u32,
        /// Threads.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
    },
    /// A position's tablebase entry and the winning line, as JSON.
    Probe {
        #[command(flatten)]
        game: RingoGameArgs,
        /// Where the tables are.
        #[arg(long, default_value = TABLEBASES)]
        dir: std::path::PathBuf,
    },
}

#[derive(Subcommand)]
pub(crate) enum UrgammonCmd {
    /// Print the phase, side to act, legal moves and result after a record, as JSON.
    Legal {
        #[command(flatten)]
        record: UrgammonRecordArgs,
    },
    /// Two people play a match at this terminal; the program rolls the dice.
    /// --record or --file goes on from a saved match.
    Play {
        /// RNG seed for the dice, to reproduce a match.
        #[arg(long)]
        seed: Option<u64>,
        /// Points to win the match (a saved match record keeps its own).
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=99))]
        to: u32,
        /// What a drawn game does: replay (play on) or end (the match is drawn).
        #[arg(long, value_enum, default_value_t = Draw::Replay)]
        draw: Draw,
        /// Amount per point; the loser pays the point difference times this.
        #[arg(long)]
        stake: Option<String>,
        /// Play against the engine: engine or engine:LEVEL (1-10, default 5).
        #[arg(long)]
        vs: Option<String>,
        /// Your side against the engine.
        #[arg(long, value_enum, default_value_t = UrgammonSide::Light)]
        side: UrgammonSide,
        #[command(flatten)]
        record: UrgammonRecordArgs,
    },
    /// The engine's analysis of the decision after a record, as one JSON object.
    Analyze {
        #[command(flatten)]
        record: UrgammonRecordArgs,
        /// Analyse as this playing level (1-10; 10 searches 2 plies).
        #[arg(long, default_value_t = Level::MAX)]
        level: Level,
        /// Decide for a match to this many points (match-winning chance, not points).
        #[arg(long)]
        match_to: Option<u32>,
        /// The match score before this game: light's points, then dark's, e.g. 3-5.
        #[arg(long)]
        score: Option<String>,
    },
    /// Review a game or a match: every decision's loss and grade, each
    /// side's error rate, rating and luck, light's win chance, as JSON.
    Review {
        #[command(flatten)]
        record: UrgammonRecordArgs,
        /// Review as this playing level (10: the network with its full look-ahead).
        #[arg(long, default_value_t = Level::new(agon_ai::urgammon::review::LEVEL))]
        level: Level,
    },
    /// Play many games of A against B for points and review every one:
    /// each player's error rate, rating, grades and luck.
    ReviewStudy {
        #[command(flatten)]
        study: StudyArgs,
        /// Review level.
        #[arg(long, default_value_t = Level::new(agon_ai::urgammon::review::LEVEL))]
        level: Level,
    },
    /// Play the position out many times: mean points, outcome shares, 95% intervals.
    Rollout {
        #[command(flatten)]
        record: UrgammonRecordArgs,
        /// Games to play out.
        #[arg(long, default_value_t = 1000)]
        games: usize,
        /// The level playing both sides (8: the network at 0 plies, fast and strong).
        #[arg(long, default_value_t = Level::new(8))]
        level: Level,
        /// Play the games for a match to this many points.
        #[arg(long)]
        match_to: Option<u32>,
        /// The match score: light's points, then dark's, e.g. 3-5.
        #[arg(long)]
        score: Option<String>,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed for the dice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Accuracy of the network and the heuristic against rollouts on held-out positions.
    Calibrate {
        /// Held-out positions (one from each of this many self-play games).
        #[arg(long, default_value_t = 500)]
        positions: usize,
        /// Rollout games per position.
        #[arg(long, default_value_t = 400)]
        rollouts: usize,
        /// Positions rolled out at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed for the positions and dice (training never uses these games).
        #[arg(long, default_value_t = 2026)]
        seed: u64,
    },
    /// The match equity table: the chance to win a match from each score.
    Met {
        /// Match length.
        #[arg(long, default_value_t = 7)]
        to: u32,
        /// What a drawn game does.
        #[arg(long, value_enum, default_value_t = Draw::Replay)]
        draw: Draw,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Train the evaluation network by TD(λ) self-play (checkpoints, resumable).
    Train {
        /// Games to have played in all (a resumed run counts its earlier games).
        #[arg(long)]
        games: u64,
        /// The weights file, written at every checkpoint.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Continue training the network in --out.
        #[arg(long)]
        resume: bool,
        /// Seed: game N of a run is seeded by (seed, N), so a resumed run plays the same games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// λ of TD(λ).
        #[arg(long, default_value_t = 0.7)]
        lambda: f32,
        /// Learning rate at the start.
        #[arg(long, default_value_t = 0.01)]
        lr: f32,
        /// The learning rate halves after this many games (lr / (1 + games / decay)).
        #[arg(long, default_value_t = 200_000.0)]
        lr_decay: f32,
        /// Games between checkpoints.
        #[arg(long, default_value_t = 5000)]
        checkpoint_every: u64,
        /// Games against greedy at each checkpoint, to watch the progress (0: none).
        #[arg(long, default_value_t = 200)]
        probe: usize,
        /// Append a JSON line per checkpoint to this file.
        #[arg(long)]
        log: Option<std::path::PathBuf>,
    },
    /// Step through a saved game or match record.
    Replay {
        /// The record file, such as the web app's download (`-`: standard input).
        #[arg(long, alias = "file")]
        record: std::path::PathBuf,
        /// Print every step without waiting for commands.
        #[arg(long)]
        all: bool,
    },
}

#[derive(Subcommand)]
pub(crate) enum TournamentCmd {
    /// Ringo: both seats alternately, from varied openings.
    Ringo(RingoArgs),
    /// Urgammon: games (or matches) for points, seats swapped in pairs with shared dice.
    Urgammon {
        /// Player A: level:N, ply:P, blend:P, heuristic:P, noise:X, random or greedy.
        #[arg(long)]
        a: String,
        /// Player B.
        #[arg(long)]
        b: String,
        /// Games (or matches with --match-to) to play.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Play matches to this many points instead of single games.
        #[arg(long)]
        match_to: Option<u32>,
        /// A network file for A (e.g. a training checkpoint) instead of the trained one.
        #[arg(long)]
        net_a: Option<std::path::PathBuf>,
        /// A network file for B.
        #[arg(long)]
        net_b: Option<std::path::PathBuf>,
        /// Games played at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed for the dice and the players' randomness.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(Subcommand)]
pub(crate) enum TuneCmd {
    /// Ringo: self-play positions, a Texel-style fit of the evaluation weights,
    /// and a verification match against the starting weights.
    Ringo {
        /// The method: spsa (on match results) or texel (a fit to game outcomes).
        #[arg(long, value_enum, default_value_t = TuneMethod::Spsa)]
        method: TuneMethod,
        /// Self-play games (texel), or SPSA iterations.
        #[arg(long, default_value_t = 400)]
        games: usize,
        /// Self-play search depth.
        #[arg(long, default_value_t = 2)]
        depth: u32,
        /// Gradient-descent passes.
        #[arg(long, default_value_t = 300)]
        epochs: usize,
        /// Verification games (tuned against starting weights).
        #[arg(long, default_value_t = 100)]
        verify: usize,
        /// Seed for the games.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(Subcommand)]
pub(crate) enum BenchCmd {
    /// Random Ringo games per second and perft nodes per second.
    Ringo {
        /// Rules to play.
        #[arg(long, default_value = "classic")]
        rules: String,
        /// Random games per run.
        #[arg(long, default_value_t = 100_000)]
        games: usize,
        /// Runs; the median is reported.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Perft depth.
        #[arg(long, default_value_t = 7)]
        depth: u32,
        /// RNG seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The web app under load: N games over the real HTTP API at R moves a
    /// second each, K WebSocket spectators; acknowledgement and push latency.
    Serve(ServeBench),
    /// Ringo search: fixed positions to a fixed depth; a deterministic node total and nodes/s.
    RingoSearch {
        /// Search depth.
        #[arg(long, default_value_t = 9)]
        depth: u32,
    },
    /// Urgammon network evaluations per second, and level-10 decision times.
    UrgammonEval {
        /// Runs; the median is reported.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Level-10 decisions to time.
        #[arg(long, default_value_t = 200)]
        decisions: usize,
    },
    /// Random Urgammon games per second.
    Urgammon {
        /// Random games per run.
        #[arg(long, default_value_t = 100_000)]
        games: usize,
        /// Runs; the median is reported.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// RNG seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// Parses `engine` or `engine:LEVEL` into a level (default 5).
pub(crate) fn parse_engine_spec(spec: &str) -> Result<Level> {
    match spec.strip_prefix("engine") {
        Some("") => Ok(Level::new(5)),
        Some(rest) => rest
            .strip_prefix(':')
            .and_then(|l| l.parse().ok())
            .ok_or_else(|| {
                anyhow::anyhow!("invalid --vs '{spec}': use engine or engine:1 … engine:10")
            }),
        None => anyhow::bail!("invalid --vs '{spec}': use engine or engine:LEVEL"),
    }
}

/// A Ringo side, as a flag value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum RingoSide {
    /// The attackers.
    Attackers,
    /// The defenders.
    Defenders,
}

impl From<RingoSide> for ringo::Side {
    fn from(s: RingoSide) -> ringo::Side {
        match s {
            RingoSide::Attackers => ringo::Side::Attackers,
            RingoSide::Defenders => ringo::Side::Defenders,
        }
    }
}

/// An Urgammon side, as a flag value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum UrgammonSide {
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl From<UrgammonSide> for urgammon::Side {
    fn from(s: UrgammonSide) -> urgammon::Side {
        match s {
            UrgammonSide::Light => urgammon::Side::Light,
            UrgammonSide::Dark => urgammon::Side::Dark,
        }
    }
}

/// What a drawn Urgammon game does, as a flag value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Draw {
    /// Play a deciding game.
    Replay,
    /// The match ends drawn.
    End,
}

impl From<Draw> for urgammon::DrawRule {
    fn from(d: Draw) -> urgammon::DrawRule {
        match d {
            Draw::Replay => urgammon::DrawRule::Replay,
            Draw::End => urgammon::DrawRule::End,
        }
    }
}

/// How `agon tune ringo` tunes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TuneMethod {
    /// SPSA on match results.
    Spsa,
    /// A Texel-style fit to game outcomes.
    Texel,
}

/// Who plays a review study, how many games, on how many threads.
#[derive(clap::Args, Debug)]
pub struct StudyArgs {
    /// Player A (as in `agon tournament`).
    #[arg(long, default_value = "level:10")]
    pub a: String,
    /// Player B.
    #[arg(long, default_value = "random")]
    pub b: String,
    /// Games to play and review.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tablebases_default_is_the_one_serve_reads() {
        // `agon serve` reads DATA/tablebases; every other command's default
        // must name the same folder, or tables built with the defaults are
        // never used by the web app.
        assert_eq!(
            std::path::Path::new(TABLEBASES),
            std::path::Path::new(DATA).join("tablebases")
        );
    }
}
