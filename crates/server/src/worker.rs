//! `agon worker`: takes engine jobs from the PostgreSQL queue and does them,
//! so web instances started with `--engine-threads 0` do no engine work.
//!
//! - **Moves.** The worker loads the game; if it is still at the job's
//!   revision and the engine is to act, it computes the engine's decision
//!   and finishes the job with it (an [`EngineReply`]). It commits nothing:
//!   the web instance that queued the job plays the reply through the
//!   game's door, with the revision check, like any other change (a stale
//!   reply is dropped there), and queues the next job when the engine acts
//!   again (an Urgammon roll, then a move).
//! - **Reviews** are computed, stored and announced, with progress.
//! - **Analyses and rollouts** answer the request waiting on a web instance.
//! - **Leases.** A job is held for a lease the worker renews while it works;
//!   a worker killed mid-job loses nothing: the lease runs out and another
//!   worker takes the job again.
//! - On Ctrl-C or SIGTERM the worker takes no new job and finishes the ones
//!   it holds.
//! - **Watched** like the web instances: with `--metrics-bind ADDR`, `GET
//!   /metrics` (Prometheus's text format: jobs ended by kind and outcome,
//!   jobs in hand, the queue, the engine's time, the build) and `GET
//!   /health` (200 `ok` while it takes jobs and reaches the database, 503
//!   `stopping` or `no-database`) on that address.

use crate::games::{EngineReply, GameError};
use crate::session::Session;
use crate::store::{Job, JobKind, Notice, Store};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A job taken this many times without finishing is given up: it is likely
/// what kills its workers.
const MAX_ATTEMPTS: i32 = 5;

/// The payload of a move job queued again after failing: `fallback N`, the
/// Nth time; it plays at level 1.
const FALLBACK: &str = "fallback";

/// How many times a move job has fallen back already (0: never).
fn fallback_round(payload: &str) -> u32 {
    payload
        .strip_prefix(FALLBACK)
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// The worker's settings (the flags of `agon worker`).
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// The PostgreSQL URL.
    pub database: String,
    /// Jobs done at once.
    pub threads: usize,
    /// How long a job is held without a renewal before another worker may
    /// take it.
    pub lease: Duration,
    /// The pause before the engine's next action in a game, so people can
    /// follow it (the web app's `--engine-delay`).
    pub engine_delay: Duration,
    /// The worker's name in the queue (host and process id by default).
    pub name: String,
    /// Where to serve `GET /metrics` and `GET /health`, if anywhere.
    pub metrics_bind: Option<std::net::SocketAddr>,
}

/// Runs a worker until Ctrl-C or SIGTERM.
///
/// # Errors
/// The database cannot be reached.
pub async fn run(config: WorkerConfig) -> Result<(), Box<dyn std::error::Error>> {
    // The stop's handlers first: a SIGTERM during start-up stops it cleanly.
    let signal = crate::signal::shutdown_signal();
    let store = Store::connect(&config.database).await?;
    if !store.is_shared() {
        return Err("agon worker needs a PostgreSQL database".into());
    }
    let threads = config.threads.max(1);
    println!(
        "Agon worker {} is taking engine jobs ({threads} at once)",
        config.name
    );
    tracing::info!(worker = %config.name, threads, "worker started");
    let stopping = Arc::new(AtomicBool::new(false));
    if let Some(addr) = config.metrics_bind {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot serve the worker's metrics on {addr}: {e}"))?;
        tracing::info!(%addr, "metrics and health served");
        let router = status_router(store.clone(), config.name.clone(), stopping.clone());
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, router).await {
                tracing::warn!(error = %e, "the worker's metrics stopped");
            }
        });
    }
    let mut tasks = vec![];
    for i in 0..threads {
        let (store, config, stopping) = (store.clone(), config.clone(), stopping.clone());
        tasks.push(tokio::spawn(async move {
            take_jobs(&store, &config, &stopping, i).await;
        }));
    }
    signal.await;
    tracing::info!("stopping: finishing the jobs in hand");
    stopping.store(true, Ordering::SeqCst);
    for t in tasks {
        let _ = t.await;
    }
    Ok(())
}

/// `GET /health`'s answer.
#[derive(serde::Serialize)]
struct WorkerHealth {
    /// `ok`, `stopping` or `no-database`.
    status: &'static str,
    /// The worker's name in the queue.
    worker: String,
    /// Jobs due and waiting, and held by workers (all of them).
    queue: Option<crate::store::QueueDepth>,
}

/// The worker's own address: `GET /metrics` and `GET /health`.
fn status_router(store: Store, name: String, stopping: Arc<AtomicBool>) -> axum::Router {
    use axum::http::{header, StatusCode};
    use axum::response::IntoResponse;
    use axum::routing::get;
    let metrics_store = store.clone();
    axum::Router::new()
        .route(
            "/metrics",
            get(move || {
                let store = metrics_store.clone();
                async move {
                    let engine = store
                        .queue_depth()
                        .await
                        .map(|q| (q.waiting as i64, q.running as i64))
                        .unwrap_or((-1, -1));
                    let levels = crate::metrics::Levels {
                        engine,
                        ..crate::metrics::Levels::default()
                    };
                    (
                        [(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)],
                        crate::metrics::render(&levels),
                    )
                        .into_response()
                }
            }),
        )
        .route(
            "/health",
            get(move || {
                let (store, name, stopping) = (store.clone(), name.clone(), stopping.clone());
                async move {
                    let queue = store.queue_depth().await.ok();
                    let status = if stopping.load(Ordering::SeqCst) {
                        "stopping"
                    } else if queue.is_none() {
                        "no-database"
                    } else {
                        "ok"
                    };
                    let code = if status == "ok" {
                        StatusCode::OK
                    } else {
                        StatusCode::SERVICE_UNAVAILABLE
                    };
                    let health = WorkerHealth {
                        status,
                        worker: name,
                        queue,
                    };
                    (code, axum::Json(health)).into_response()
                }
            }),
        )
}

/// One lane of the worker: take a job, do it, repeat; sleep until a job is
/// queued (or a second passes) when there is none.
async fn take_jobs(store: &Store, config: &WorkerConfig, stopping: &AtomicBool, lane: usize) {
    let mut notices = store.notices();
    let name = format!("{}/{lane}", config.name);
    while !stopping.load(Ordering::SeqCst) {
        match store.take(&name, config.lease).await {
            Ok(Some(job)) => do_job(store, config, &name, job).await,
            Ok(None) => wait_for_work(&mut notices).await,
            Err(e) => {
                tracing::warn!(error = %e, "could not take a job");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Waits for a job to be queued, a second at most (jobs due later, and
/// leases that run out, are not announced).
async fn wait_for_work(notices: &mut Option<tokio::sync::broadcast::Receiver<Notice>>) {
    let wait = async {
        match notices {
            Some(n) => loop {
                match n.recv().await {
                    Ok(Notice::Queued) | Err(_) => break,
                    Ok(_) => {}
                }
            },
            None => std::future::pending().await,
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), wait).await;
}

/// Does one job while renewing its lease, and records how it ended (in
/// the log and the metrics).
async fn do_job(store: &Store, config: &WorkerConfig, name: &str, job: Job) {
    let kind = job.kind.name();
    crate::metrics::worker_busy(1);
    let outcome = work(store, config, name, job).await;
    crate::metrics::worker_busy(-1);
    crate::metrics::worker_job(kind, outcome);
}

/// A job that failed more than [`MAX_ATTEMPTS`] times: a move is queued
/// again at the cheapest level, after a pause that doubles each time (up
/// to five minutes), so a game never waits for ever on a move that kills
/// its workers; any other job ends, failed.
async fn give_up(store: &Store, job: &Job) -> &'static str {
    if job.kind == JobKind::Move {
        let round = fallback_round(&job.payload) + 1;
        let delay = Duration::from_secs(1 << round.min(8)).min(Duration::from_secs(300));
        tracing::error!(
            job = job.id,
            game = job.game.as_deref().unwrap_or("-"),
            round,
            "move job failed {MAX_ATTEMPTS} times: retrying at level 1"
        );
        if let Err(e) = store.retry(job, format!("{FALLBACK} {round}"), delay).await {
            tracing::error!(job = job.id, error = %e, "could not queue a move again");
        }
        return "given-up";
    }
    tracing::error!(job = job.id, kind = job.kind.name(), "job given up");
    let _ = store
        .finish(job, Err(format!("given up after {MAX_ATTEMPTS} attempts")))
        .await;
    "given-up"
}

/// Renews `job`'s lease every third of it while the job is worked on; a
/// lease lost (another worker took the job) sets `lost`, which stops a
/// search in flight. Abort the task when the work ends.
fn keep_lease(
    store: &Store,
    config: &WorkerConfig,
    name: &str,
    job: &Job,
    lost: Arc<AtomicBool>,
) -> tokio::task::JoinHandle<()> {
    let (store, name, id, lease) = (store.clone(), name.to_string(), job.id, config.lease);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(lease / 3).await;
            match store.renew(id, &name, lease).await {
                Ok(true) => {}
                Ok(false) => {
                    lost.store(true, Ordering::SeqCst);
                    return;
                }
                Err(e) => tracing::warn!(error = %e, "could not renew a lease"),
            }
        }
    })
}

/// [`do_job`]'s work: how it ended (`ok`, `failed`, `lost`, `given-up`).
async fn work(store: &Store, config: &WorkerConfig, name: &str, job: Job) -> &'static str {
    let started = std::time::Instant::now();
    if job.attempts > MAX_ATTEMPTS {
        return give_up(store, &job).await;
    }
    // Renew the lease while working; if it is lost (this worker was too
    // slow and another took the job), stop a search in flight.
    let lost = Arc::new(AtomicBool::new(false));
    let renewal = keep_lease(store, config, name, &job, lost.clone());
    let outcome = match job.kind {
        JobKind::Move => engine_move(store, &job, lost.clone()).await,
        JobKind::Review => review(store, &job).await,
        JobKind::Analyze => {
            let payload = job.payload.clone();
            blocking(move || crate::kinds::analyze_json(payload.as_bytes())).await
        }
        JobKind::Rollout => {
            let payload = job.payload.clone();
            blocking(move || crate::kinds::rollout_json(payload.as_bytes())).await
        }
    };
    renewal.abort();
    if lost.load(Ordering::SeqCst) {
        return "lost"; // another worker holds it now
    }
    tracing::debug!(
        job = job.id,
        kind = job.kind.name(),
        game = job.game.as_deref().unwrap_or("-"),
        ms = started.elapsed().as_millis() as u64,
        ok = outcome.is_ok(),
        "job done"
    );
    let result = outcome.map_err(|e| e.to_string());
    let ended = if result.is_ok() { "ok" } else { "failed" };
    if let Err(e) = &result {
        tracing::error!(job = job.id, kind = job.kind.name(), error = %e, "job failed");
    }
    if let Err(e) = store.finish(&job, result).await {
        tracing::error!(job = job.id, error = %e, "could not finish a job");
    }
    ended
}

async fn blocking<T: Send + 'static, E: Send + 'static>(
    work: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> Result<T, GameError>
where
    GameError: From<E>,
{
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| GameError::Internal(format!("engine task: {e}")))?
        .map_err(GameError::from)
}

async fn load(store: &Store, job: &Job) -> Result<Option<Session>, GameError> {
    let Some(id) = job.game.as_deref() else {
        return Ok(None);
    };
    match store.load(id).await? {
        Some(loaded) => Ok(Some(Session::from_stored(loaded)?)),
        None => Ok(None),
    }
}

/// The engine's decision in a game, if the game is still where the job
/// found it: the job's result, which the instance plays through the door.
async fn engine_move(store: &Store, job: &Job, stop: Arc<AtomicBool>) -> Result<String, GameError> {
    let Some(session) = load(store, job).await? else {
        return Ok("no such game".into());
    };
    if session.revision() != job.revision || !session.engine_to_act() {
        return Ok("stale: dropped".into());
    }
    let snapshot = session.clone();
    // A move that failed before is made at the cheapest level.
    let level = (fallback_round(&job.payload) > 0).then_some(1);
    let Some(action) = blocking(move || {
        Ok::<_, GameError>(crate::kinds::engine_action_at(&snapshot, level, stop))
    })
    .await?
    else {
        return Ok("no action".into());
    };
    let reply = EngineReply::of(&action)
        .ok_or_else(|| GameError::Internal(format!("the engine chose {action:?}")))?;
    serde_json::to_string(&reply).map_err(|e| GameError::Internal(e.to_string()))
}

/// A finished game's review: computed with progress, stored, announced.
async fn review(store: &Store, job: &Job) -> Result<String, GameError> {
    let Some(session) = load(store, job).await? else {
        return Ok("no such game".into());
    };
    if store.review(&session.row.id).await?.is_some() || !session.is_over() {
        return Ok("nothing to do".into());
    }
    // Progress goes from the engine's thread to the queue, at most a few
    // times a second.
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, usize)>();
    let forward = {
        let (store, job) = (store.clone(), job.clone());
        tokio::spawn(async move {
            let mut last = std::time::Instant::now();
            while let Some((done, total)) = rx.recv().await {
                if last.elapsed() >= Duration::from_millis(250) || done == total {
                    last = std::time::Instant::now();
                    let _ = store.progress(&job, done, total).await;
                }
            }
        })
    };
    let rules = session.rules.clone();
    let body = blocking(move || {
        crate::kinds::review_json(&rules, &|done, total| {
            let _ = tx.send((done, total));
        })
    })
    .await?;
    let _ = forward.await;
    store
        .save_review(&session.row.id, session.revision(), body)
        .await?;
    Ok("stored".into())
}
