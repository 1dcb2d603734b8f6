//! The PostgreSQL store, shared by every `agon serve` and `agon worker` of a
//! site. Each change of a game is one transaction that checks the game's
//! revision and announces the change with `pg_notify` (sent when, and only
//! if, the transaction commits). A dedicated connection `LISTEN`s and turns
//! the announcements into [`Notice`]s; when it is lost it is made again and
//! a [`Notice::Resync`] says that notices may have been missed.
//!
//! The engine queue (the `jobs` table, `queue.rs`): a worker takes the oldest due job
//! with `FOR UPDATE SKIP LOCKED` and a lease, renews the lease while it
//! computes, and a job whose lease ran out is due again.

use super::{now, Commit, GameRow, ListQuery, Loaded, Notice, StoreError};
use super::{COLUMNS, N_COLUMNS};
use crate::dice::{Die, Drawn};
use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio_postgres::{AsyncMessage, NoTls, Row};

mod queue;

refinery::embed_migrations!("migrations/postgres");

/// The channel that announces changed games: `ID REVISION` or
/// `ID REVISION seats`.
const GAMES: &str = "agon_games";
/// The channel that announces the queue's events: `queued`,
/// `progress JOB DONE TOTAL GAME`, `done JOB GAME`.
const JOBS: &str = "agon_jobs";

/// Appends record tokens (`$2` their places, `$3` the tokens).
const INSERT_TOKENS: &str = "INSERT INTO tokens (game_id, seq, token)
     SELECT $1, s, t FROM UNNEST($2::bigint[], $3::text[]) AS u(s, t)";

/// Adds dice to the ledger; a die already drawn keeps its value.
const INSERT_DICE: &str = "INSERT INTO dice (game_id, die, seq, value)
     SELECT $1, d, s, v FROM UNNEST($2::text[], $3::bigint[], $4::smallint[]) AS u(d, s, v)
     ON CONFLICT DO NOTHING";

/// Announces a payload on a channel when the transaction commits.
const NOTIFY: &str = "SELECT pg_notify($1, $2)";

/// Connections one process keeps at most.
const POOL_SIZE: usize = 16;

/// The key of the advisory lock held while migrating, so that instances
/// started together migrate one after the other.
const MIGRATION_LOCK: i64 = 0x6167_6f6e;

/// The PostgreSQL store. Cloning it gives another handle to the same pool.
#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
    notices: broadcast::Sender<Notice>,
    commits: Arc<AtomicUsize>,
}

/// Marks used every unused code of a game for the same seat code (0, 1,
/// or 2 for both), so that only the newest link of a seat can take it.
const REVOKE_INVITES: &str = "UPDATE invites SET used = TRUE
     WHERE game_id = $1 AND NOT used AND seat = $2";

impl PgStore {
    /// Connects, migrates the schema, and starts listening.
    ///
    /// # Errors
    /// The URL is not a PostgreSQL URL, the server cannot be reached, or the
    /// migration failed.
    pub async fn connect(url: &str) -> Result<PgStore, StoreError> {
        let config: tokio_postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Postgres(format!("not a PostgreSQL URL ({url}): {e}")))?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .wait_timeout(Some(Duration::from_secs(10)))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(|e| StoreError::Postgres(format!("connection pool: {e}")))?;
        let mut client = pool.get().await?;
        client
            .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        let migrated = migrations::runner()
            .run_async(&mut **client)
            .await
            .map_err(|e| StoreError::Postgres(format!("schema migration failed: {e}")));
        client
            .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
            .await?;
        migrated?;
        drop(client);
        let (notices, _) = broadcast::channel(4096);
        // Wait until the listening connection listens, so that no change
        // made after this returns goes unheard.
        let (ready, listening) = tokio::sync::oneshot::channel();
        tokio::spawn(listen(config, notices.clone(), ready));
        tokio::time::timeout(Duration::from_secs(10), listening)
            .await
            .map_err(|_| StoreError::Postgres("could not LISTEN within 10 s".into()))?
            .map_err(|_| StoreError::Postgres("could not LISTEN".into()))?;
        Ok(PgStore {
            pool,
            notices,
            commits: Arc::new(AtomicUsize::new(0)),
        })
    }

    /// The backend's name.
    pub fn backend(&self) -> &'static str {
        "postgres"
    }

    /// Other processes' (and this one's) changes, as announced.
    pub fn notices(&self) -> broadcast::Receiver<Notice> {
        self.notices.subscribe()
    }

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        Ok(self.pool.get().await?)
    }

    /// Creates a game with its first tokens, dice and invite.
    ///
    /// # Errors
    /// The write failed; nothing was stored.
    pub async fn create(
        &self,
        row: GameRow,
        tokens: Vec<String>,
        dice: Vec<Drawn>,
        invite: Option<(String, u8)>,
    ) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute(
            "INSERT INTO games (id, kind, settings, mode, level, engine_seat, token0, token1,
                start_position, status, created_at, updated_at, revision, reason, rematch,
                score_light, score_dark)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
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

    /// Writes one accepted change, checking the revision, and announces it.
    /// The statements go out together (pipelined: one round trip), inside
    /// one transaction that is committed only if the revision check passed.
    ///
    /// # Errors
    /// [`StoreError::Stale`] when the game is no longer at `from_revision`;
    /// otherwise the write failed. Either way nothing was changed.
    pub async fn commit(&self, id: &str, c: Commit) -> Result<i64, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let next = c.from_revision + 1;
        let update = tx
            .prepare_cached(
                "UPDATE games SET status = $2, reason = $3, revision = $4, updated_at = $5,
                    score_light = $7, score_dark = $8
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
        let update_params: [&(dyn tokio_postgres::types::ToSql + Sync); 8] = [
            &id,
            &status,
            &c.reason,
            &next,
            &at,
            &c.from_revision,
            &light,
            &dark,
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

    /// Adds dice missing from a game's ledger.
    ///
    /// # Errors
    /// The write failed; nothing was stored.
    pub async fn add_dice(&self, id: &str, dice: Vec<Drawn>) -> Result<(), StoreError> {
        let client = self.client().await?;
        insert_dice(&client, id, &dice).await
    }

    /// Adds a one-time code for `seat` (2: both).
    ///
    /// # Errors
    /// The write failed.
    pub async fn add_invite(
        &self,
        id: &str,
        code_hash: String,
        seat: u8,
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

    /// Uses a one-time code: the first claim wins (the code's row is locked
    /// and marked used in one statement), and the change of seat token is
    /// announced.
    ///
    /// # Errors
    /// The write failed; nothing was changed.
    pub async fn claim_invite(
        &self,
        id: &str,
        code_hash: String,
        token_hash: String,
    ) -> Result<Option<u8>, StoreError> {
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
        let Some(seat) = seat.and_then(|s| u8::try_from(s).ok()) else {
            return Ok(None);
        };
        // The seat has a new holder: an older link of it no longer works.
        tx.execute(REVOKE_INVITES, &[&id, &i16::from(seat)]).await?;
        let revision: i64 = tx
            .query_one(
                "UPDATE games SET
                    token0 = CASE WHEN $2 IN (0, 2) THEN $3 ELSE token0 END,
                    token1 = CASE WHEN $2 IN (1, 2) THEN $3 ELSE token1 END
                 WHERE id = $1 RETURNING revision",
                &[&id, &i32::from(seat), &token_hash],
            )
            .await?
            .get(0);
        notify(&tx, GAMES, &format!("{id} {revision} seats")).await?;
        tx.commit().await?;
        Ok(Some(seat))
    }

    /// Links a finished game to its rematch.
    ///
    /// # Errors
    /// [`StoreError::Stale`] when the game is no longer at `from_revision`.
    pub async fn set_rematch(
        &self,
        id: &str,
        from_revision: i64,
        rematch: String,
    ) -> Result<i64, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let next = from_revision + 1;
        let changed = tx
            .execute(
                "UPDATE games SET rematch = $2, revision = $3 WHERE id = $1 AND revision = $4",
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

    /// Loads a game's row, tokens and dice ledger in one statement (one
    /// snapshot, so the three agree; one round trip, since every instance
    /// reloads a game each time another one changes it).
    ///
    /// # Errors
    /// The read failed.
    pub async fn load(&self, id: &str) -> Result<Option<Loaded>, StoreError> {
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

    /// The most recently changed games, newest first, with their token counts.
    ///
    /// # Errors
    /// The read failed.
    pub async fn list(&self, query: &ListQuery) -> Result<Vec<(GameRow, usize)>, StoreError> {
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
                     WHERE ($2 OR g.id = ANY($3))
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
                ],
            )
            .await?;
        rows.iter()
            .map(|r| Ok((row_from(r)?, r.get::<_, i64>(N_COLUMNS) as usize)))
            .collect()
    }

    /// A game's stored review.
    ///
    /// # Errors
    /// The read failed.
    pub async fn review(&self, id: &str) -> Result<Option<(i64, String)>, StoreError> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                "SELECT revision, body FROM reviews WHERE game_id = $1",
                &[&id],
            )
            .await?
            .map(|r| (r.get(0), r.get(1))))
    }

    /// Stores (or replaces) a game's review.
    ///
    /// # Errors
    /// The write failed.
    pub async fn save_review(
        &self,
        id: &str,
        revision: i64,
        body: String,
    ) -> Result<(), StoreError> {
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

    /// Changes this process committed (each its own transaction).
    pub fn commit_stats(&self) -> (usize, usize) {
        let n = self.commits.load(Ordering::Relaxed);
        (n, n)
    }
}

/// Announces `payload` on `channel` when the transaction commits.
async fn notify(tx: &impl GenericClient, channel: &str, payload: &str) -> Result<(), StoreError> {
    tx.execute(NOTIFY, &[&channel, &payload]).await?;
    Ok(())
}

async fn insert_tokens(
    c: &impl GenericClient,
    id: &str,
    from: usize,
    tokens: &[String],
) -> Result<(), StoreError> {
    let seqs: Vec<i64> = (0..tokens.len()).map(|i| (from + i) as i64).collect();
    c.execute(INSERT_TOKENS, &[&id, &seqs, &tokens]).await?;
    Ok(())
}

/// A game's stored revision (-1 for no such game).
async fn revision_of(c: &impl GenericClient, id: &str) -> Result<i64, StoreError> {
    Ok(
        c.query_opt("SELECT revision FROM games WHERE id = $1", &[&id])
            .await?
            .map_or(-1, |r| r.get::<_, i64>(0)),
    )
}

/// The ledger's columns of some dice, as arrays for `INSERT_DICE`.
fn dice_columns(dice: &[Drawn]) -> (Vec<&'static str>, Vec<i64>, Vec<i16>) {
    (
        dice.iter().map(|d| d.die.name()).collect(),
        dice.iter().map(|d| d.seq as i64).collect(),
        dice.iter().map(|d| i16::from(d.value)).collect(),
    )
}

async fn insert_dice(c: &impl GenericClient, id: &str, dice: &[Drawn]) -> Result<(), StoreError> {
    if dice.is_empty() {
        return Ok(());
    }
    let (dies, seqs, values) = dice_columns(dice);
    c.execute(INSERT_DICE, &[&id, &dies, &seqs, &values])
        .await?;
    Ok(())
}

/// A text column read as one of the model's enums; a word it does not know
/// means a damaged row, reported as an error.
fn parsed<T: std::str::FromStr>(r: &Row, column: usize) -> Result<T, StoreError>
where
    T::Err: std::fmt::Display,
{
    let text: &str = r.get(column);
    text.parse()
        .map_err(|e| StoreError::Postgres(format!("damaged row: column {column}: {e}")))
}

fn row_from(r: &Row) -> Result<GameRow, StoreError> {
    let small = |i: usize| {
        r.get::<_, Option<i16>>(i)
            .and_then(|v| u8::try_from(v).ok())
    };
    let score = |i: usize| {
        r.get::<_, Option<i32>>(i)
            .and_then(|v| u32::try_from(v).ok())
    };
    Ok(GameRow {
        id: r.get(0),
        kind: parsed(r, 1)?,
        settings: r.get(2),
        mode: parsed(r, 3)?,
        level: small(4),
        engine_seat: small(5),
        token0: r.get(6),
        token1: r.get(7),
        start_position: r.get(8),
        status: parsed(r, 9)?,
        created_at: r.get(10),
        updated_at: r.get(11),
        revision: r.get(12),
        reason: r.get(13),
        rematch: r.get(14),
        score: match (score(15), score(16)) {
            (Some(light), Some(dark)) => Some([light, dark]),
            _ => None,
        },
    })
}

/// One side's match score as its column holds it (`INTEGER`).
fn score_column(score: Option<[u32; 2]>, side: usize) -> Option<i32> {
    score.and_then(|s| i32::try_from(s[side]).ok())
}

/// Turns one announcement into a notice.
fn notice(channel: &str, payload: &str) -> Option<Notice> {
    let words: Vec<&str> = payload.split(' ').collect();
    let game = |w: Option<&&str>| w.filter(|g| **g != "-").map(|g| (*g).to_string());
    match (channel, words.as_slice()) {
        (GAMES, [id, rev, rest @ ..]) => Some(Notice::Game {
            id: (*id).to_string(),
            revision: rev.parse().ok()?,
            seats: rest.first() == Some(&"seats"),
        }),
        (JOBS, ["queued"]) => Some(Notice::Queued),
        (JOBS, ["progress", job, done, total, rest @ ..]) => Some(Notice::Progress {
            job: job.parse().ok()?,
            done: done.parse().ok()?,
            total: total.parse().ok()?,
            game: game(rest.first()),
        }),
        (JOBS, ["done", job, rest @ ..]) => Some(Notice::Done {
            job: job.parse().ok()?,
            game: game(rest.first()),
        }),
        _ => None,
    }
}

/// Listens for announcements on a connection of its own, forever: when the
/// connection is lost it waits a moment, connects again and says
/// [`Notice::Resync`].
async fn listen(
    config: tokio_postgres::Config,
    out: broadcast::Sender<Notice>,
    ready: tokio::sync::oneshot::Sender<()>,
) {
    let mut ready = Some(ready);
    loop {
        match config.connect(NoTls).await {
            Ok((client, mut connection)) => {
                let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    let mut messages =
                        futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
                    while let Some(Ok(message)) = messages.next().await {
                        if let AsyncMessage::Notification(n) = message {
                            if tx.send(n).is_err() {
                                break;
                            }
                        }
                    }
                });
                let listening = client
                    .batch_execute(&format!("LISTEN {GAMES}; LISTEN {JOBS}"))
                    .await;
                if listening.is_ok() {
                    match ready.take() {
                        Some(ready) => {
                            let _ = ready.send(());
                        }
                        None => {
                            let _ = out.send(Notice::Resync);
                        }
                    }
                    while let Some(n) = rx.recv().await {
                        if let Some(notice) = notice(n.channel(), n.payload()) {
                            let _ = out.send(notice);
                        }
                    }
                }
                driver.abort();
                tracing::warn!("lost the PostgreSQL connection that listens; reconnecting");
            }
            Err(e) => tracing::warn!(error = %e, "cannot connect to PostgreSQL to listen"),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn announcements_parse() {
        assert_eq!(
            notice(GAMES, "abc 7"),
            Some(Notice::Game {
                id: "abc".into(),
                revision: 7,
                seats: false
            })
        );
        assert_eq!(
            notice(GAMES, "abc 7 seats"),
            Some(Notice::Game {
                id: "abc".into(),
                revision: 7,
                seats: true
            })
        );
        assert_eq!(notice(JOBS, "queued"), Some(Notice::Queued));
        assert_eq!(
            notice(JOBS, "progress 4 1 9 g1"),
            Some(Notice::Progress {
                job: 4,
                game: Some("g1".into()),
                done: 1,
                total: 9
            })
        );
        assert_eq!(
            notice(JOBS, "done 4 -"),
            Some(Notice::Done { job: 4, game: None })
        );
        assert_eq!(notice(GAMES, "abc x"), None);
        assert_eq!(notice(JOBS, "bogus"), None);
        assert_eq!(notice("other", "abc 1"), None);
    }
}
