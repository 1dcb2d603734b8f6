//! The HTTP API: games (create, list, read, record, replay, import), actions,
//! seats (invites and seat links), and the rules' metadata. Every request is
//! parsed into domain types here, at the edge; every answer is a typed struct.

pub mod account;
pub mod account_answers;
pub mod account_data;
pub mod actions;
pub mod analysis;
pub mod games;
pub mod import;
pub mod list;
pub mod passkeys;
pub mod people;
pub mod puzzles;
pub mod review;
pub mod safety;
pub mod seats;
pub mod seeks;
pub mod talk;
pub mod tournaments;
pub mod users;

use crate::http::error::ApiError;
use crate::http::error::ErrorCode;
use axum::http::HeaderMap;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The header that carries a seat token.
pub const TOKEN_HEADER: &str = "x-agon-token";

/// The seat token of a request: only ever the `x-agon-token` header, never
/// the URL (URLs end up in logs, histories and referrers).
pub(crate) fn token_from(headers: &HeaderMap) -> Option<String> {
    headers
        .get(TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// Reads a JSON body into a request type, with a message a person can act on.
pub(crate) fn parse_json<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(ErrorCode::BadJson, format!("invalid JSON: {e}")))
}

/// One Ringo preset with its option values.
#[derive(Serialize)]
pub struct PresetMeta {
    /// The preset's name.
    pub name: &'static str,
    /// Every option's value under it.
    pub options: BTreeMap<&'static str, String>,
}

/// One Ringo option with its values.
#[derive(Serialize)]
pub struct OptionMeta {
    /// The key.
    pub key: &'static str,
    /// The values it takes.
    pub values: &'static [&'static str],
}

/// Ringo's presets and options.
#[derive(Serialize)]
pub struct RingoMeta {
    /// The presets.
    pub presets: Vec<PresetMeta>,
    /// The options.
    pub options: Vec<OptionMeta>,
    /// The Rules lab's most even set, as a rules string: the one quick
    /// pairing's even pools play, offered first for a seek.
    pub even_rules: &'static str,
}

/// Urgammon's match settings.
#[derive(Serialize)]
pub struct UrgammonMeta {
    /// The values of `draw`.
    pub draw: [&'static str; 2],
    /// The chance die's six faces (1, 1, 2, 2, 3, 4), so a page weighs a
    /// game's rolls against the rules' own odds.
    pub chance_faces: [u8; 6],
    /// How many of the verdict die's six faces say YES.
    pub verdict_yes_faces: u8,
}

/// `GET /api/meta`.
#[derive(Serialize)]
pub struct Meta {
    /// Ringo.
    pub ringo: RingoMeta,
    /// Urgammon.
    pub urgammon: UrgammonMeta,
    /// Which build answers (its version, commit, and whether its tree was
    /// modified): a rolling upgrade is checked instance by instance.
    pub build: crate::build::Build,
}

/// `GET /api/health`.
#[derive(Serialize)]
pub struct Health {
    /// `ok` while the store answers; `stopping` (with 503) once the server
    /// is shutting down.
    pub status: &'static str,
    /// The store's kind: `sqlite` or `postgres`.
    pub backend: &'static str,
    /// Engine jobs waiting for a worker and running (PostgreSQL; zeros on
    /// SQLite, where the engine runs in the server).
    pub queue: crate::store::QueueDepth,
    /// Games held in memory now.
    pub games_in_memory: usize,
    /// WebSockets open now.
    pub sockets: usize,
    /// The store's writer: changes committed and commits made (each one
    /// fsync); their ratio is how many changes shared one.
    pub store: StoreHealth,
}

/// The store's part of the health report.
#[derive(Serialize)]
pub struct StoreHealth {
    /// Changes committed.
    pub changes: usize,
    /// Commits (batches) made for them.
    pub commits: usize,
    /// Where a change's time went since the store opened (SQLite only).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub timings: Option<crate::store::StoreTimings>,
}

/// `GET /metrics` (on `--metrics-bind` only): every metric in Prometheus's
/// text format, the levels read now.
pub async fn metrics(
    axum::extract::State(app): axum::extract::State<crate::state::AppState>,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let engine = app
        .store()
        .queue_depth()
        .await
        .map(|q| (q.waiting as i64, q.running as i64))
        .unwrap_or((-1, -1));
    let levels = crate::metrics::Levels {
        games_in_memory: app.games().slots_in_memory().len(),
        sockets: app.sockets(),
        lobby_sockets: app.lobby().hub().members().len(),
        engine,
        store: app.store().commit_stats(),
    };
    (
        [(
            axum::http::header::CONTENT_TYPE,
            crate::metrics::CONTENT_TYPE,
        )],
        crate::metrics::render(&levels),
    )
        .into_response()
}

/// `GET /api/health`: the store answers a read, and the counts above; 503
/// while the server stops, so a proxy stops sending it requests.
pub async fn health(
    axum::extract::State(app): axum::extract::State<crate::state::AppState>,
) -> Result<(axum::http::StatusCode, Json<Health>), ApiError> {
    app.store()
        .list(&crate::store::ListQuery {
            limit: 1,
            ..Default::default()
        })
        .await?;
    let queue = app.store().queue_depth().await?;
    let (changes, commits) = app.store().commit_stats();
    let (code, status) = if app.closing() {
        (axum::http::StatusCode::SERVICE_UNAVAILABLE, "stopping")
    } else {
        (axum::http::StatusCode::OK, "ok")
    };
    Ok((
        code,
        Json(Health {
            status,
            backend: app.store().backend(),
            queue,
            games_in_memory: app.games().games_in_memory(),
            sockets: app.sockets(),
            store: StoreHealth {
                changes,
                commits,
                timings: app.store().timings(),
            },
        }),
    ))
}

/// Options and presets of both games, for the home page and the rules page.
pub async fn meta() -> Json<Meta> {
    let presets = ringo::Preset::ALL
        .iter()
        .map(|p| PresetMeta {
            name: p.name(),
            options: p.rules().options().into_iter().collect(),
        })
        .collect();
    let options = ringo::OPTIONS
        .iter()
        .map(|(k, v)| OptionMeta { key: k, values: v })
        .collect();
    Json(Meta {
        ringo: RingoMeta {
            presets,
            options,
            even_rules: crate::lobby::EVEN_RULES,
        },
        urgammon: UrgammonMeta {
            draw: urgammon::DrawRule::ALL.map(urgammon::DrawRule::name),
            chance_faces: urgammon::CHANCE_FACES,
            verdict_yes_faces: urgammon::VERDICT_YES_FACES,
        },
        build: crate::build::BUILD,
    })
}

/// The balance lab's committed results (`docs/balance/results.json`, made by
/// `agon balance --json`), for the Rules lab page.
const BALANCE: &str = include_str!("../../../../../docs/balance/results.json");
/// The near-even rule sets played again at the strongest strength
/// (`docs/balance/candidates.json`, another `agon balance --json` run).
const BALANCE_CHECKS: &str = include_str!("../../../../../docs/balance/candidates.json");
/// Further checks at other strengths: level 10 against itself, first on the
/// most even set (`docs/balance/level10.json`), then on sliding sets given
/// something for the attackers (`level10-more.json`,
/// `level10-neutral-limit.json`, and `level10-two-helps-pooled.json`: the
/// 30 games of `level10-two-helps.json` and the 100 that played the
/// candidate again, `level10-two-helps-more.json`, pooled by `agon balance
/// --from`; `level10-capture-from-neutral-pooled.json` likewise), one file
/// per `agon balance` run.
const BALANCE_MORE_CHECKS: &[&str] = &[
    include_str!("../../../../../docs/balance/level10.json"),
    include_str!("../../../../../docs/balance/level10-more.json"),
    include_str!("../../../../../docs/balance/level10-neutral-limit.json"),
    include_str!("../../../../../docs/balance/level10-two-helps-pooled.json"),
    include_str!("../../../../../docs/balance/level10-capture-from-neutral-pooled.json"),
];

/// `GET /api/balance`'s answer: the results as `agon balance --json` printed
/// them, and each rule set's verdict (`agon_ai::ringo::balance::verdicts`,
/// the one definition of "balanced" the page and the docs' table share).
#[derive(serde::Serialize, serde::Deserialize)]
struct BalanceAnswer {
    command: String,
    rows: Vec<agon_ai::ringo::balance::Row>,
    /// The runs whose rows `agon balance --from A B` pooled into these.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sources: Vec<String>,
    /// How many of the strongest strengths each verdict pools.
    #[serde(default)]
    pooled: usize,
    #[serde(default)]
    verdicts: Vec<agon_ai::ringo::balance::Verdict>,
    /// The check run's rows and verdicts (absent from the files themselves).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    checks: Option<Box<BalanceAnswer>>,
    /// Further check runs, each like `checks` (absent from the files).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    more_checks: Vec<BalanceAnswer>,
}

/// A results file with its verdicts filled in.
fn with_verdicts(json: &str) -> serde_json::Result<BalanceAnswer> {
    let mut a: BalanceAnswer = serde_json::from_str(json)?;
    a.pooled = agon_ai::ringo::balance::POOLED;
    a.verdicts = agon_ai::ringo::balance::verdicts(&a.rows);
    Ok(a)
}

/// The answer, made once: the file is built into the binary, so it is the
/// same for every request. Were the file not `agon balance --json`'s (a
/// test reads it, so the tests would fail first), the rows are served as
/// they are, without verdicts, and the log says why.
pub(crate) fn balance_answer() -> &'static str {
    static ANSWER: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ANSWER.get_or_init(|| {
        let answer = with_verdicts(BALANCE).and_then(|mut a| {
            a.checks = Some(Box::new(with_verdicts(BALANCE_CHECKS)?));
            a.more_checks = BALANCE_MORE_CHECKS
                .iter()
                .map(|json| with_verdicts(json))
                .collect::<serde_json::Result<_>>()?;
            serde_json::to_string(&a)
        });
        answer.unwrap_or_else(|e| {
            tracing::error!(error = %e, "docs/balance/results.json: served without verdicts");
            BALANCE.to_string()
        })
    })
}

/// `GET /api/balance`: `{"command", "rows": [...], "pooled", "verdicts":
/// [...], "checks": {...}, "more_checks": [...]}`: the rows as `agon
/// balance --json` printed them, the command that made them, each rule
/// set's verdict, and the same for the runs that played the near-even sets
/// again.
/// The answer is built into the binary, so it carries an ETag: the home
/// page reads it on every visit, and a browser that holds it gets `304`.
pub async fn balance(headers: axum::http::HeaderMap) -> axum::response::Response {
    crate::http::assets::validated(&headers, "application/json", balance_answer())
}
