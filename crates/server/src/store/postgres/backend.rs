//! PostgreSQL as a [`Backend`]: the games, the announcements of every
//! change to the other instances, and the engine queue.

use super::queue::job_state;
use super::*;
use crate::model::InviteSeats;
use crate::store::backend::Backend;
use crate::store::error::Stored;
use crate::store::rows::{Job, JobKind, JobState, NewJob, NewRecord, QueueDepth};

#[async_trait::async_trait]
impl Backend for PgStore {
    fn is_shared(&self) -> bool {
        true
    }

    fn notices(&self) -> Option<broadcast::Receiver<Notice>> {
        Some(self.notices.subscribe())
    }

    fn backend(&self) -> &'static str {
        "postgres"
    }

    async fn create(&self, new: NewRecord) -> Stored<()> {
        let (row, tokens, dice, invite) = (new.row, new.tokens, new.dice, new.invite);
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute(
            "INSERT INTO games (id, kind, settings, mode, level, engine_seat, token0, token1,
                start_position, status, created_at, updated_at, revision, reason, rematch,
                score_light, score_dark, account0, account1, rated, pair_first, clock,
                clock_owner, moved, offer)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                $18, $19, $20, $21, $22, $23, $24, $25)",
            &[
                &row.id,
                &row.kind.name(),
                &row.settings,
                &row.mode.name(),
                &row.level.map(i16::from),
                &row.engine_seat.map(i16::from),
                &row.token0,
                &row.token1,
                &row.start_position,
                &row.status.name(),
                &row.created_at,
                &row.updated_at,
                &row.revision,
                &row.reason,
                &row.rematch,
                &score_column(row.score, 0),
                &score_column(row.score, 1),
                &row.accounts[0].as_ref().map(|a| a.id),
                &row.accounts[1].as_ref().map(|a| a.id),
                &row.rated,
                &row.pair_first,
                &clock_text(row.clock.as_ref()),
                &row.clock_owner,
                &i16::from(row.moved),
                &row.offer.map(crate::model::Offer::text),
            ],
        )
        .await?;
        insert_tokens(&tx, &row.id, 0, &tokens).await?;
        insert_dice(&tx, &row.id, &dice).await?;
        if let Some((code, seat)) = invite {
            tx.execute(
                "INSERT INTO invites (game_id, code, seat) VALUES ($1, $2, $3)",
                &[&row.id, &code, &i16::from(seat)],
            )
            .await?;
        }
        tx.commit().await?;
        self.commits.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    async fn commit(&self, id: &str, c: Commit) -> Result<i64, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let next = c.from_revision + 1;
        let update = tx
            .prepare_cached(
                "UPDATE games SET status = $2, reason = $3, revision = $4, updated_at = $5,
                    score_light = $7, score_dark = $8, clock = $9, clock_owner = $10, moved = $11,
                    offer = $12
                 WHERE id = $1 AND revision = $6",
            )
            .await?;
        let delete = tx
            .prepare_cached("DELETE FROM tokens WHERE game_id = $1 AND seq >= $2")
            .await?;
        let (tokens, dice, note) = (
            tx.prepare_cached(INSERT_TOKENS).await?,
            tx.prepare_cached(INSERT_DICE).await?,
            tx.prepare_cached(NOTIFY).await?,
        );
        let seqs: Vec<i64> = (0..c.append.len()).map(|i| (c.keep + i) as i64).collect();
        let (dies, dice_seqs, values) = dice_columns(&c.dice);
        let payload = format!("{id} {next}");
        let (status, at, keep) = (c.status.name(), now(), c.keep as i64);
        let (light, dark) = (score_column(c.score, 0), score_column(c.score, 1));
        let (clock, moved) = (clock_text(c.clock.as_ref()), i16::from(c.moved));
        let offer = c.offer.map(crate::model::Offer::text);
        let update_params: [&(dyn tokio_postgres::types::ToSql + Sync); 12] = [
            &id,
            &status,
            &c.reason,
            &next,
            &at,
            &c.from_revision,
            &light,
            &dark,
            &clock,
            &c.clock_owner,
            &moved,
            &offer,
        ];
        let delete_params: [&(dyn tokio_postgres::types::ToSql + Sync); 2] = [&id, &keep];
        let token_params: [&(dyn tokio_postgres::types::ToSql + Sync); 3] = [&id, &seqs, &c.append];
        let dice_params: [&(dyn tokio_postgres::types::ToSql + Sync); 4] =
            [&id, &dies, &dice_seqs, &values];
        let note_params: [&(dyn tokio_postgres::types::ToSql + Sync); 2] = [&GAMES, &payload];
        // The row lock makes a second writer wait at the UPDATE; when the
        // first commits, the second's UPDATE changes nothing, and the whole
        // transaction is rolled back below.
        let written = tokio::try_join!(
            tx.execute(&update, &update_params),
            tx.execute(&delete, &delete_params),
            tx.execute(&tokens, &token_params),
            tx.execute(&dice, &dice_params),
            tx.execute(&note, &note_params),
        );
        match written {
            Ok((1, ..)) => {}
            Ok(_) => {
                tx.rollback().await?;
                return Err(StoreError::Stale(revision_of(&client, id).await?));
            }
            // A statement after the revision check failed (another writer's
            // tokens at these places, no such game): if the game moved on,
            // that is why.
            Err(e) => {
                // Rolled back as it is dropped; the same connection asks
                // (another one may not be free: this one is held).
                drop(tx);
                let at = revision_of(&client, id).await?;
                if at != c.from_revision {
                    return Err(StoreError::Stale(at));
                }
                return Err(e.into());
            }
        }
        tx.commit().await?;
        self.commits.fetch_add(1, Ordering::Relaxed);
        Ok(next)
    }

    async fn add_dice(&self, id: &str, dice: Vec<Drawn>) -> Result<(), StoreError> {
        let client = self.client().await?;
        insert_dice(&client, id, &dice).await
    }

    async fn add_invite(
        &self,
        id: &str,
        code_hash: String,
        seat: InviteSeats,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        // A new link for a seat is the only one that works: older unused
        // links of that seat are revoked.
        tx.execute(REVOKE_INVITES, &[&id, &i16::from(seat)]).await?;
        tx.execute(
            "INSERT INTO invites (game_id, code, seat) VALUES ($1, $2, $3)",
            &[&id, &code_hash, &i16::from(seat)],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn claim_invite(
        &self,
        id: &str,
        code: String,
        token: String,
    ) -> Stored<Option<(InviteSeats, i64)>> {
        let (code_hash, token_hash) = (code, token);
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let seat = tx
            .query_opt(
                "UPDATE invites SET used = TRUE
                 WHERE game_id = $1 AND code = $2 AND NOT used RETURNING seat",
                &[&id, &code_hash],
            )
            .await?
            .map(|r| r.get::<_, i16>(0));
        let Some(seat) = seat.and_then(InviteSeats::from_number) else {
            return Ok(None);
        };
        // The seat has a new holder: an older link of it no longer works.
        tx.execute(REVOKE_INVITES, &[&id, &i16::from(seat)]).await?;
        let revision: i64 = tx
            .query_one(
                "UPDATE games SET
                    token0 = CASE WHEN $2 IN (0, 2) THEN $3 ELSE token0 END,
                    token1 = CASE WHEN $2 IN (1, 2) THEN $3 ELSE token1 END,
                    revision = revision + 1
                 WHERE id = $1 RETURNING revision",
                &[&id, &i32::from(seat.number()), &token_hash],
            )
            .await?
            .get(0);
        notify(&tx, GAMES, &format!("{id} {revision} seats")).await?;
        tx.commit().await?;
        Ok(Some((seat, revision)))
    }

    async fn set_rematch(&self, id: &str, from_revision: i64, rematch: String) -> Stored<i64> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let next = from_revision + 1;
        let changed = tx
            .execute(
                "UPDATE games SET rematch = $2, revision = $3, offer = NULL WHERE id = $1 AND revision = $4",
                &[&id, &rematch, &next, &from_revision],
            )
            .await?;
        if changed == 0 {
            return Err(StoreError::Stale(from_revision));
        }
        notify(&tx, GAMES, &format!("{id} {next}")).await?;
        tx.commit().await?;
        Ok(next)
    }

    async fn load(&self, id: &str) -> Result<Option<Loaded>, StoreError> {
        let client = self.client().await?;
        let load = client
            .prepare_cached(&format!(
                "SELECT {COLUMNS},
                    ARRAY(SELECT token FROM tokens t WHERE t.game_id = g.id ORDER BY seq),
                    ARRAY(SELECT die FROM dice d WHERE d.game_id = g.id ORDER BY die, seq),
                    ARRAY(SELECT seq FROM dice d WHERE d.game_id = g.id ORDER BY die, seq),
                    ARRAY(SELECT value FROM dice d WHERE d.game_id = g.id ORDER BY die, seq)
                 FROM games g WHERE id = $1"
            ))
            .await?;
        let Some(r) = client.query_opt(&load, &[&id]).await? else {
            return Ok(None);
        };
        let row = row_from(&r)?;
        let tokens: Vec<String> = r.get(N_COLUMNS);
        let (dies, seqs, values): (Vec<String>, Vec<i64>, Vec<i16>) = (
            r.get(N_COLUMNS + 1),
            r.get(N_COLUMNS + 2),
            r.get(N_COLUMNS + 3),
        );
        let dice = dies
            .iter()
            .zip(seqs)
            .zip(values)
            .filter_map(|((die, seq), value)| {
                Some(Drawn {
                    die: Die::from_name(die)?,
                    seq: usize::try_from(seq).ok()?,
                    value: u8::try_from(value).ok()?,
                })
            })
            .collect();
        Ok(Some(Loaded { row, tokens, dice }))
    }

    async fn list(&self, query: &ListQuery) -> Result<Vec<(GameRow, usize)>, StoreError> {
        let client = self.client().await?;
        let limit = query.limit as i64;
        let no_ids: Vec<String> = vec![];
        let ids = query.ids.as_ref().unwrap_or(&no_ids);
        if query.ids.is_some() && ids.is_empty() {
            return Ok(vec![]);
        }
        let (after_u, after_c, after_id) = match &query.after {
            Some(c) => (c.updated_at, c.created_at, c.id.as_str()),
            None => (i64::MAX, i64::MAX, ""),
        };
        // One statement for every query: the filters that do not apply
        // are switched off by their own parameters.
        let rows = client
            .query(
                &format!(
                    "SELECT {COLUMNS}, (SELECT COUNT(*) FROM tokens t WHERE t.game_id = g.id)
                     FROM games g
                     WHERE (($2 AND $8::bigint IS NULL) OR g.id = ANY($3)
                            OR g.account0 = $8 OR g.account1 = $8)
                       AND ($4 OR (updated_at, created_at, g.id) < ($5, $6, $7))
                     ORDER BY updated_at DESC, created_at DESC, g.id DESC LIMIT $1"
                ),
                &[
                    &limit,
                    &query.ids.is_none(),
                    ids,
                    &query.after.is_none(),
                    &after_u,
                    &after_c,
                    &after_id,
                    &query.account,
                ],
            )
            .await?;
        rows.iter()
            .map(|r| Ok((row_from(r)?, r.get::<_, i64>(N_COLUMNS) as usize)))
            .collect()
    }

    async fn review(&self, id: &str) -> Result<Option<(i64, String)>, StoreError> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                "SELECT revision, body FROM reviews WHERE game_id = $1",
                &[&id],
            )
            .await?
            .map(|r| (r.get(0), r.get(1))))
    }

    async fn save_review(&self, id: &str, revision: i64, body: String) -> Result<(), StoreError> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO reviews (game_id, revision, body, created_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game_id) DO UPDATE
                 SET revision = EXCLUDED.revision, body = EXCLUDED.body, created_at = EXCLUDED.created_at",
                &[&id, &revision, &body, &now()],
            )
            .await?;
        Ok(())
    }

    fn commit_stats(&self) -> (usize, usize) {
        let n = self.commits.load(Ordering::Relaxed);
        (n, n)
    }

    async fn enqueue(&self, job: NewJob<'_>) -> Stored<Option<i64>> {
        let (kind, game, revision) = (job.kind, job.game, job.revision);
        let (payload, delay) = (job.payload, job.delay);
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

    async fn take(&self, worker: &str, lease: Duration) -> Result<Option<Job>, StoreError> {
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

    async fn renew(&self, job: i64, worker: &str, lease: Duration) -> Result<bool, StoreError> {
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

    async fn progress(&self, job: &Job, done: usize, total: usize) -> Result<(), StoreError> {
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

    async fn finish(&self, job: &Job, result: Result<String, String>) -> Result<(), StoreError> {
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

    async fn retry(&self, job: &Job, payload: String, delay: Duration) -> Result<(), StoreError> {
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

    async fn job(&self, id: i64) -> Result<Option<JobState>, StoreError> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                "SELECT done, total, finished, result, error FROM jobs WHERE id = $1",
                &[&id],
            )
            .await?
            .map(|r| job_state(&r)))
    }

    async fn move_job(&self, game: &str, revision: i64) -> Result<Option<i64>, StoreError> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                "SELECT id FROM jobs WHERE kind = 'move' AND game_id = $1 AND revision = $2",
                &[&game, &revision],
            )
            .await?
            .map(|r| r.get::<_, i64>(0)))
    }

    async fn review_job(&self, game: &str) -> Result<Option<(i64, JobState)>, StoreError> {
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

    async fn queue_depth(&self) -> Result<QueueDepth, StoreError> {
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
