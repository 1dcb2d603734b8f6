//! The engine queue in PostgreSQL: the `jobs` table. A worker takes the
//! oldest due job with `FOR UPDATE SKIP LOCKED` and a lease it renews while
//! it works; a job whose lease ran out (its worker died) is due again. The
//! queue's calls are in `backend.rs`, with the rest of the store's.

use crate::store::rows::JobState;
use tokio_postgres::Row;

/// A job's state from its row (`done, total, finished, result, error`).
pub(super) fn job_state(r: &Row) -> JobState {
    JobState {
        done: r.get::<_, i32>(0).max(0) as usize,
        total: r.get::<_, i32>(1).max(0) as usize,
        finished: r.get(2),
        result: r.get(3),
        error: r.get(4),
    }
}
