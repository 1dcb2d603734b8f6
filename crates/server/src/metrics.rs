//! What an operator watches: counters and latency histograms in
//! Prometheus's text format (0.0.4: what `promtool check metrics` reads,
//! and what every Prometheus scrapes), served on their own address (`agon
//! serve --metrics-bind ADDR`, never on the public one). Every family has
//! its help and its type; what only counts up is a counter.
//!
//! One registry for the process (`prometheus-client`), written to where
//! things happen (a request answered, a commit, a sign-in, a push, a game's
//! end) through the functions below; the levels (games in memory, sockets,
//! the engine queue, the store's commit counts) are read from the state
//! when scraped.

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::registry::Registry;
use std::sync::LazyLock;
use std::time::Duration;

/// A request's labels: its method, its route as declared (`/api/games/{id}`,
/// never the id itself, so the series stay few) and its status.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Route {
    method: String,
    route: String,
    status: u16,
}

/// A request's route and method, for the latency histogram.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteOnly {
    method: String,
    route: String,
}

/// What came of something: `ok`, `refused`, `sent`, …
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Outcome {
    outcome: String,
}

/// A step of a change's way to disk in the SQLite store.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StoreStep {
    step: &'static str,
}

/// Why a game ended.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct Ending {
    reason: String,
}

/// A family of histograms, each made with the latency buckets.
type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// Buckets from 0.25 ms to about 8 s, doubling: a request, a commit and an
/// engine job each fall well inside.
fn latency() -> Histogram {
    Histogram::new(exponential_buckets(0.000_25, 2.0, 16))
}

/// Buckets from 16 µs to about 1 s, doubling: a store's steps take from
/// microseconds (a write) to the disk's worst stalls (an fsync).
fn fine_latency() -> Histogram {
    Histogram::new(exponential_buckets(0.000_016, 2.0, 17))
}

struct Metrics {
    registry: Registry,
    requests: Family<Route, Counter>,
    request_seconds: Histograms<RouteOnly>,
    commit_seconds: Histogram,
    store_step_seconds: Histograms<StoreStep>,
    engine_job_seconds: Histogram,
    sign_ins: Family<Outcome, Counter>,
    pushes: Family<Outcome, Counter>,
    games_ended: Family<Ending, Counter>,
    games_in_memory: Gauge,
    sockets: Gauge,
    lobby_sockets: Gauge,
    engine_waiting: Gauge,
    engine_running: Gauge,
    store_changes: Counter,
    store_commits: Counter,
    build_info: Family<BuildLabels, Gauge>,
    worker_jobs: Family<WorkerJob, Counter>,
    worker_busy: Gauge,
    swiss_rounds: Family<Outcome, Counter>,
}

/// A worker's job: its kind and how it ended.
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct WorkerJob {
    kind: &'static str,
    outcome: &'static str,
}

/// The build's labels (see [`crate::build`]).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct BuildLabels {
    version: &'static str,
    commit: &'static str,
    modified: &'static str,
}

static METRICS: LazyLock<Metrics> = LazyLock::new(|| {
    let mut m = Metrics {
        registry: Registry::with_prefix("agon"),
        requests: Family::default(),
        request_seconds: Family::new_with_constructor(latency),
        commit_seconds: latency(),
        store_step_seconds: Family::new_with_constructor(fine_latency),
        engine_job_seconds: latency(),
        sign_ins: Family::default(),
        pushes: Family::default(),
        games_ended: Family::default(),
        games_in_memory: Gauge::default(),
        sockets: Gauge::default(),
        lobby_sockets: Gauge::default(),
        engine_waiting: Gauge::default(),
        engine_running: Gauge::default(),
        store_changes: Counter::default(),
        store_commits: Counter::default(),
        build_info: Family::default(),
        worker_jobs: Family::default(),
        worker_busy: Gauge::default(),
        swiss_rounds: Family::default(),
    };
    m.registry.register(
        "http_requests",
        "HTTP requests answered, by method, route and status",
        m.requests.clone(),
    );
    m.registry.register(
        "http_request_seconds",
        "Time to answer an HTTP request, by method and route",
        m.request_seconds.clone(),
    );
    m.registry.register(
        "commit_seconds",
        "Time to commit a change of a game to the store (fsync included)",
        m.commit_seconds.clone(),
    );
    m.registry.register(
        "store_step_seconds",
        "Where a change's time goes in the SQLite store, by step: wait (for the writer), write (statements and commit), fsync (of the write-ahead log), checkpoint (log into database, off the path of any change), ack (arrival at the store to answer)",
        m.store_step_seconds.clone(),
    );
    m.registry.register(
        "engine_job_seconds",
        "Time the computer took to decide a move in a game",
        m.engine_job_seconds.clone(),
    );
    m.registry.register(
        "sign_ins",
        "Sign-ins with a password, by outcome (ok, refused, throttled)",
        m.sign_ins.clone(),
    );
    m.registry.register(
        "pushes",
        "Web Push messages, by outcome (sent, gone, refused, failed)",
        m.pushes.clone(),
    );
    m.registry.register(
        "games_ended",
        "Games ended, by reason (time is a clock's flag)",
        m.games_ended.clone(),
    );
    m.registry.register(
        "games_in_memory",
        "Games held in memory",
        m.games_in_memory.clone(),
    );
    m.registry
        .register("sockets", "Game WebSockets open", m.sockets.clone());
    m.registry.register(
        "lobby_sockets",
        "Lobby WebSockets open",
        m.lobby_sockets.clone(),
    );
    m.registry.register(
        "engine_jobs_waiting",
        "Engine jobs waiting for a worker (PostgreSQL)",
        m.engine_waiting.clone(),
    );
    m.registry.register(
        "engine_jobs_running",
        "Engine jobs being worked on (PostgreSQL)",
        m.engine_running.clone(),
    );
    m.registry.register(
        "store_changes",
        "Changes committed by this instance's store writer since it started",
        m.store_changes.clone(),
    );
    m.registry.register(
        "store_commits",
        "Commits (each one fsync) made for them",
        m.store_commits.clone(),
    );
    m.build_info
        .get_or_create(&BuildLabels {
            version: crate::build::PACKAGE,
            commit: crate::build::COMMIT,
            modified: if crate::build::MODIFIED {
                "true"
            } else {
                "false"
            },
        })
        .set(1);
    m.registry.register(
        "worker_jobs",
        "Engine jobs this agon worker ended, by kind and outcome (ok, failed, lost: another worker took it, given-up)",
        m.worker_jobs.clone(),
    );
    m.registry.register(
        "worker_busy",
        "Engine jobs this agon worker holds now",
        m.worker_busy.clone(),
    );
    m.registry.register(
        "swiss_rounds",
        "Swiss rounds paired, by outcome (best: the Dutch system's best pairing; limited: a bracket's search stopped at its step bound, so the pairing may be worse than the rules' best)",
        m.swiss_rounds.clone(),
    );
    m.registry.register(
        "build_info",
        "The build serving: its version, commit and whether its tree was modified (always 1)",
        m.build_info.clone(),
    );
    m
});

/// The store's counts are read from it when scraped; two scrapes at once
/// must not both add the same rise.
static STORE_COUNTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Brings a counter up to `total` (the store's own count since start).
fn count_to(counter: &Counter, total: usize) {
    let total = u64::try_from(total).unwrap_or(u64::MAX);
    let now = counter.get();
    if total > now {
        counter.inc_by(total - now);
    }
}

/// The content type of [`render`]'s text: Prometheus's text format 0.0.4.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// OpenMetrics text (what the registry writes) as Prometheus's text format
/// 0.0.4: a counter's family is named with its `_total`, as its samples
/// are (`# HELP agon_x_total …`, `# TYPE agon_x_total counter`), and the
/// OpenMetrics-only lines (`# UNIT`, `# EOF`) go.
fn prometheus_text(openmetrics: &str) -> String {
    let counters: std::collections::HashSet<&str> = openmetrics
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|l| l.strip_suffix(" counter"))
        .collect();
    let mut out = String::with_capacity(openmetrics.len());
    for line in openmetrics.lines() {
        if line == "# EOF" || line.starts_with("# UNIT ") {
            continue;
        }
        let renamed = ["# HELP ", "# TYPE "].iter().find_map(|p| {
            let rest = line.strip_prefix(p)?;
            let (name, tail) = rest.split_once(' ')?;
            counters
                .contains(name)
                .then(|| format!("{p}{name}_total {tail}"))
        });
        match renamed {
            Some(l) => out.push_str(&l),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Counts a request answered and its time.
pub fn request(method: &str, route: &str, status: u16, took: Duration) {
    let m = &*METRICS;
    m.requests
        .get_or_create(&Route {
            method: method.to_string(),
            route: route.to_string(),
            status,
        })
        .inc();
    m.request_seconds
        .get_or_create(&RouteOnly {
            method: method.to_string(),
            route: route.to_string(),
        })
        .observe(took.as_secs_f64());
}

/// A commit of a game's change and its time.
pub fn commit(took: Duration) {
    METRICS.commit_seconds.observe(took.as_secs_f64());
}

/// One step of a change's way to disk in the SQLite store, and its time.
pub fn store_step(step: &'static str, took: Duration) {
    METRICS
        .store_step_seconds
        .get_or_create(&StoreStep { step })
        .observe(took.as_secs_f64());
}

/// The computer's decision in a game and its time.
pub fn engine_job(took: Duration) {
    METRICS.engine_job_seconds.observe(took.as_secs_f64());
}

/// An `agon worker` ended a job of `kind` with `outcome`.
pub fn worker_job(kind: &'static str, outcome: &'static str) {
    METRICS
        .worker_jobs
        .get_or_create(&WorkerJob { kind, outcome })
        .inc();
}

/// An `agon worker` took a job (`1`) or let one go (`-1`).
pub fn worker_busy(change: i64) {
    METRICS.worker_busy.inc_by(change);
}

/// A Swiss round paired: `best`, or `limited` when a bracket's search
/// stopped at its step bound.
pub fn swiss_round(outcome: &str) {
    METRICS
        .swiss_rounds
        .get_or_create(&Outcome {
            outcome: outcome.to_string(),
        })
        .inc();
}

/// A sign-in with a password and what came of it.
pub fn sign_in(outcome: &str) {
    METRICS
        .sign_ins
        .get_or_create(&Outcome {
            outcome: outcome.to_string(),
        })
        .inc();
}

/// A Web Push and what came of it.
pub fn push(outcome: &str) {
    METRICS
        .pushes
        .get_or_create(&Outcome {
            outcome: outcome.to_string(),
        })
        .inc();
}

/// A game ended, and why.
pub fn game_ended(reason: &str) {
    METRICS
        .games_ended
        .get_or_create(&Ending {
            reason: reason.to_string(),
        })
        .inc();
}

/// The levels read when scraped.
#[derive(Default)]
pub struct Levels {
    /// Games in memory.
    pub games_in_memory: usize,
    /// Game sockets open.
    pub sockets: usize,
    /// Lobby sockets open.
    pub lobby_sockets: usize,
    /// Engine jobs waiting and running.
    pub engine: (i64, i64),
    /// The store writer's changes and commits.
    pub store: (usize, usize),
}

/// Every metric in Prometheus's text format, with the levels as given.
pub fn render(levels: &Levels) -> String {
    let m = &*METRICS;
    let n = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
    m.games_in_memory.set(n(levels.games_in_memory));
    m.sockets.set(n(levels.sockets));
    m.lobby_sockets.set(n(levels.lobby_sockets));
    m.engine_waiting.set(levels.engine.0);
    m.engine_running.set(levels.engine.1);
    {
        let _one = STORE_COUNTS.lock();
        count_to(&m.store_changes, levels.store.0);
        count_to(&m.store_commits, levels.store.1);
    }
    let mut out = String::new();
    if prometheus_client::encoding::text::encode(&mut out, &m.registry).is_err() {
        out.clear();
    }
    prometheus_text(&out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_named_with_their_total_and_openmetrics_lines_go() {
        let om = "# HELP agon_x Things.\n# TYPE agon_x counter\nagon_x_total{a=\"b\"} 3\n# HELP agon_y Level.\n# TYPE agon_y gauge\nagon_y 1\n# UNIT agon_z seconds\n# EOF\n";
        assert_eq!(
            prometheus_text(om),
            "# HELP agon_x_total Things.\n# TYPE agon_x_total counter\nagon_x_total{a=\"b\"} 3\n# HELP agon_y Level.\n# TYPE agon_y gauge\nagon_y 1\n"
        );
    }
}
