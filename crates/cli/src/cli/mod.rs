//! The clap types of the `agon` command: every subcommand, flag and default,
//! one file per command group. Commands import these; these import no
//! command (the arguments' logic, such as loading a record, is in
//! `commands/`).

mod bench;
mod puzzles;
mod ringo;
mod serve;
mod swiss;
mod tournament;
mod urgammon;
mod values;

pub(crate) use bench::*;
pub(crate) use puzzles::*;
pub(crate) use ringo::*;
pub(crate) use serve::*;
pub(crate) use swiss::*;
pub(crate) use tournament::*;
pub(crate) use urgammon::*;
pub(crate) use values::*;

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
#[command(
    name = "agon",
    version = agon_server::build::VERSION,
    about = "Play and study Ringo and Urgammon"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Which log lines to write on stderr: a level (error, warn, info, debug,
    /// trace) or per-crate directives such as `info,agon_server=debug`.
    #[arg(long, global = true, env = "AGON_LOG_LEVEL", default_value = "info", value_parser = parse_log_filter)]
    pub(crate) log_level: tracing_subscriber::EnvFilter,
    /// How log lines are written: text for people, json (one object per
    /// line) for log collectors.
    #[arg(long, global = true, env = "AGON_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
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
        use std::io::IsTerminal;
        let builder = tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            // Colour codes only for a person at a terminal, never in a file.
            .with_ansi(std::io::stderr().is_terminal())
            .with_env_filter(
                self.log_level.clone().add_directive(
                    // refinery says at ERROR that an applied migration is not in
                    // this binary: routine beside a newer release's `expand_`
                    // schema, which `store::schema::check` vets (refusing any
                    // other, with the reason) and notes at INFO. ERROR means
                    // someone must act.
                    "refinery_core::traits::missing=off"
                        .parse()
                        .expect("a valid directive"),
                ),
            );
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
    Serve(Box<ServeArgs>),
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
    /// Puzzles: make the set the web app ships, or check it.
    #[command(subcommand)]
    Puzzles(PuzzlesCmd),
    /// An engine worker: takes engine jobs (the computer's moves, reviews,
    /// analyses) from the PostgreSQL queue, for web instances started with
    /// --engine-threads 0.
    Worker(WorkerArgs),
    /// A consistent copy of a serving instance's SQLite database, safe while
    /// it serves (for PostgreSQL, see docs/deploy.md's pg_dump recipe).
    Backup(BackupArgs),
    /// Brings the database's schema up to date and exits (`serve` does it
    /// too at start): for operators who migrate as a step of their own.
    Migrate(MigrateArgs),
    /// Moderation from the command line: `agon mod grant NAME` makes the
    /// first moderator (with the serve's --data or --database, while it runs).
    #[command(subcommand)]
    Mod(ModCmd),
    /// The Swiss pairing engine on its own: `agon swiss pair --dutch IN.trf
    /// -p OUT` pairs a TRF(x) file's next round as bbpPairings does.
    #[command(subcommand)]
    Swiss(SwissCmd),
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
