//! What an operator watches: counters and latency histograms in
//! Prometheus's text format, served on their own address (`agon serve
//! --metrics-bind ADDR`, never on the public one).
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
    store_changes: Gauge,
    store_commits: Gauge,
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
        store_changes: Gauge::default(),
        store_commits: Gauge::default(),
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
    m
});

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
    m.store_changes.set(n(levels.store.0));
    m.store_commits.set(n(levels.store.1));
    let mut out = String::new();
    if prometheus_client::encoding::text::encode(&mut out, &m.registry).is_err() {
        out.clear();
    }
    out
}
