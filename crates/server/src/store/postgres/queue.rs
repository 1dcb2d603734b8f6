//! The engine queue in PostgreSQL: the `jobs` table. A worker takes the
//! oldest due job with `FOR UPDATE SKIP LOCKED` and a lease it renews while
//! it works; a job whose lease ran out (its worker died) is due again.

use super::{notify, PgStore, JOBS};
use crate::store::{Job, JobKind, JobState, QueueDepth, StoreError};
use std::time::Duration;
use tokio_postgres::Row;

impl PgStore {
    /// Queues a job due after `delay`; `None` when the same move or review
    /// job is already queued (or done). A move job that was given up (by a
    /// worker from before moves fell back to level 1) is queued again, at
    /// level 1, so that its game goes on.
    ///
    /// # Errors
    /// The write failed.
    pub async fn enqueue(
        &self,
        kind: JobKind,
        game: Option<&str>,
        revision: i64,
        payload: String,
        delay: Duration,
    ) -> Result<Option<i64>, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let id = tx
            .query_opt(
                "INSERT INTO jobs (kind, game_id, revision, payload, run_after)
                 VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))
                 ON CONFLICT (kind, game_id, revision) WHERE kind IN ('move', 'review')
                 DO UPDATE SET finished = FALSE, attempts = 0, error = NULL,
                    payload = 'fallback 1', leased_until = NULL, worker = NULL,
                    run_after = EXCLUDED.run_after
                 WHERE jobs.kind = 'move' AND jobs.finished AND jobs.result IS NULL
                 RETURNING id",
                &[
                    &kind.name(),
                    &game,
                    &revision,
                    &payload,
                    &delay.as_secs_f64(),
                ],
            )
            .await?
            .map(|r| r.get::<_, i64>(0));
        if id.is_some() {
            notify(&tx, JOBS, "queued").await?;
        }
        tx.commit().await?;
        Ok(id)
    }

    /// Takes the oldest due job, skipping the ones other workers are
    /// locking right now, with a lease.
    ///
    /// # Errors
    /// The read failed.
    pub async fn take(&self, worker: &str, lease: Duration) -> Result<Option<Job>, StoreError> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "UPDATE jobs SET leased_until = now() + make_interval(secs => $2),
                        worker = $1, attempts = attempts + 1
                 WHERE id = (
                     SELECT id FROM jobs
                     WHERE NOT finished AND run_after <= now()
                       AND (leased_until IS NULL OR leased_until < now())
                     ORDER BY run_after, id
                     FOR UPDATE SKIP LOCKED
                     LIMIT 1)
                 RETURNING id, kind, game_id, revision, payload, attempts",
                &[&worker, &lease.as_secs_f64()],
            )
            .await?;
        Ok(row.and_then(|r| {
            Some(Job {
                id: r.get(0),
                kind: JobKind::from_name(r.get::<_, &str>(1))?,
                game: r.get(2),
                revision: r.get(3),
                payload: r.get(4),
                attempts: r.get(5),
            })
        }))
    }

    /// Extends a lease; false when the job is another worker's now.
    ///
    /// # Errors
    /// The write failed.
    pub async fn renew(&self, job: i64, worker: &str, lease: Duration) -> Result<bool, StoreError> {
        let client = self.client().await?;
        let n = client
            .execute(
                "UPDATE jobs SET leased_until = now() + make_interval(secs => $3)
                 WHERE id = $1 AND worker = $2 AND NOT finished",
                &[&job, &worker, &lease.as_secs_f64()],
            )
            .await?;
        Ok(n == 1)
    }

    /// Records and announces a job's progress.
    ///
    /// # Errors
    /// The write failed.
    pub async fn progress(&self, job: &Job, done: usize, total: usize) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute(
            "UPDATE jobs SET done = $2, total = $3 WHERE id = $1",
            &[&job.id, &(done as i32), &(total as i32)],
        )
        .await?;
        let game = job.game.as_deref().unwrap_or("-");
        notify(
            &tx,
            JOBS,
            &format!("progress {} {done} {total} {game}", job.id),
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Finishes a job and announces it. A failed review job is removed, so
    /// that asking again queues it afresh.
    ///
    /// # Errors
    /// The write failed.
    pub async fn finish(
        &self,
        job: &Job,
        result: Result<String, String>,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        if job.kind == JobKind::Review && result.is_err() {
            tx.execute("DELETE FROM jobs WHERE id = $1", &[&job.id])
                .await?;
        } else {
            let (ok, err) = match result {
                Ok(r) => (Some(r), None),
                Err(e) => (None, Some(e)),
            };
            tx.execute(
                "UPDATE jobs SET finished = TRUE, leased_until = NULL, result = $2, error = $3
                 WHERE id = $1",
                &[&job.id, &ok, &err],
            )
            .await?;
        }
        // Finished jobs are kept a while for whoever waits on their result.
        tx.execute(
            "DELETE FROM jobs WHERE finished AND created_at < now() - interval '10 minutes'",
            &[],
        )
        .await?;
        let game = job.game.as_deref().unwrap_or("-");
        notify(&tx, JOBS, &format!("done {} {game}", job.id)).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Queues a job again from its first attempt, with a new payload, due
    /// after `delay`, and announces it.
    ///
    /// # Errors
    /// The write failed.
    pub async fn retry(
        &self,
        job: &Job,
        payload: String,
        delay: Duration,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute(
            "UPDATE jobs SET payload = $2, attempts = 0, leased_until = NULL, worker = NULL,
                    run_after = now() + make_interval(secs => $3)
             WHERE id = $1",
            &[&job.id, &payload, &delay.as_secs_f64()],
        )
        .await?;
        notify(&tx, JOBS, "queued").await?;
        tx.commit().await?;
        Ok(())
    }

    /// Where a job stands.
    ///
    /// # Errors
    /// The read failed.
    pub async fn job(&self, id: i64) -> Result<Option<JobState>, StoreError> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                "SELECT done, total, finished, result, error FROM jobs WHERE id = $1",
                &[&id],
            )
            .await?
            .map(|r| job_state(&r)))
    }

    /// A game's unfinished review job.
    ///
    /// # Errors
    /// The read failed.
    pub async fn review_job(&self, game: &str) -> Result<Option<(i64, JobState)>, StoreError> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                "SELECT done, total, finished, result, error, id FROM jobs
                 WHERE kind = 'review' AND game_id = $1 AND NOT finished
                 ORDER BY id DESC LIMIT 1",
                &[&game],
            )
            .await?
            .map(|r| (r.get::<_, i64>(5), job_state(&r))))
    }

    /// Jobs waiting and running.
    ///
    /// # Errors
    /// The read failed.
    pub async fn queue_depth(&self) -> Result<QueueDepth, StoreError> {
        let client = self.client().await?;
        let r = client
            .query_one(
                "SELECT
                   COUNT(*) FILTER (WHERE leased_until IS NULL OR leased_until < now()),
                   COUNT(*) FILTER (WHERE leased_until >= now())
                 FROM jobs WHERE NOT finished AND run_after <= now()",
                &[],
            )
            .await?;
        Ok(QueueDepth {
            waiting: r.get::<_, i64>(0) as usize,
            running: r.get::<_, i64>(1) as usize,
        })
    }
}

fn job_state(r: &Row) -> JobState {
    JobState {
        done: r.get::<_, i32>(0).max(0) as usize,
        total: r.get::<_, i32>(1).max(0) as usize,
        finished: r.get(2),
        result: r.get(3),
        error: r.get(4),
    }
}
