//! The two engine pools and the bound on analysis work: the computer's moves
//! have a pool of their own, so no analysis, rollout or review ever waits
//! ahead of a game; each client may hold only its share of analyses.

use super::error::GameError;
use super::options::Options;
use std::sync::{Arc, Mutex};
use tokio::sync::Semaphore;

/// Analysis work (analyses, rollouts) queued or running, per client
/// address and in all: one client may hold only its share
/// (`--analysis-per-client`), and the queue as a whole is bounded, so that
/// nobody's flood makes everyone else wait for minutes.
#[derive(Default)]
pub(crate) struct AnalysisLoad {
    per_client: std::collections::HashMap<std::net::IpAddr, usize>,
    total: usize,
}

/// How many analyses may be queued or running in all, per engine thread.
const ANALYSIS_QUEUE_PER_THREAD: usize = 8;

/// One piece of analysis work counted against its client until dropped.
pub(crate) struct AnalysisTicket {
    load: Arc<Mutex<AnalysisLoad>>,
    client: std::net::IpAddr,
}

impl AnalysisTicket {
    /// Counts one more piece of work for `client`, or refuses it: 429 when
    /// the client has its share queued already, 503 when the queue is full.
    pub(super) fn take(
        all: &Arc<Mutex<AnalysisLoad>>,
        o: &Options,
        client: std::net::IpAddr,
    ) -> Result<Self, GameError> {
        let cap = ANALYSIS_QUEUE_PER_THREAD * o.engine_threads.max(1);
        let mut load = all
            .lock()
            .map_err(|_| GameError::Internal("analysis count poisoned".into()))?;
        let mine = load.per_client.get(&client).copied().unwrap_or(0);
        if mine >= o.analysis_per_client.max(1) {
            return Err(GameError::AnalysisLimit {
                held: mine,
                cap: o.analysis_per_client.max(1),
            });
        }
        if load.total >= cap {
            return Err(GameError::EngineBusy);
        }
        load.total += 1;
        *load.per_client.entry(client).or_insert(0) += 1;
        Ok(AnalysisTicket {
            load: all.clone(),
            client,
        })
    }
}

impl Drop for AnalysisTicket {
    fn drop(&mut self) {
        if let Ok(mut load) = self.load.lock() {
            load.total = load.total.saturating_sub(1);
            if let Some(n) = load.per_client.get_mut(&self.client) {
                *n -= 1;
                if *n == 0 {
                    load.per_client.remove(&self.client);
                }
            }
        }
    }
}

/// Runs analysis work (an analysis, a rollout, a review) on a blocking
/// thread once a permit of the analysis pool is free. The computer's moves
/// in games have a pool of their own, so they never wait behind this.
pub(super) async fn run_on<T: Send + 'static>(
    pool: &Arc<Semaphore>,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, GameError> {
    let _permit = pool
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| GameError::Internal("engine pool closed".into()))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| GameError::Internal(format!("engine task: {e}")))
}
