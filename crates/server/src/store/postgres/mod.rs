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

use super::error::StoreError;
use super::list::ListQuery;
use super::rows::{now, Commit, GameRow, Loaded, Notice};
use super::rows::{COLUMNS, N_COLUMNS};
use crate::dice::{Die, Drawn};
use crate::model::Seat;
use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;
use tokio_postgres::{AsyncMessage, NoTls, Row};

mod accounts;
mod backend;
mod live;
mod people;
mod puzzles;
mod queue;
mod ratings;
mod safety;
mod talk;
mod tournaments;

refinery::embed_migrations!("migrations/postgres");

/// The channel that announces changed games: `ID REVISION` or
/// `ID REVISION seats`.
const GAMES: &str = "agon_games";
/// The channel that announces the queue's events: `queued`,
/// `progress JOB DONE TOTAL GAME`, `done JOB GAME`.
const JOBS: &str = "agon_jobs";

/// The channel of the lobby's changes (seeks made and gone).
const LOBBY: &str = "agon_lobby";

/// The channel of new chat lines, `GAME ID`, and of players' sockets
/// opened or closed, `presence GAME`.
const CHAT: &str = "agon_chat";

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
            .map_err(|e| StoreError::Postgres(format!("not a PostgreSQL URL: {e}")))?;
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
        let migrated = migrate(&mut client).await;
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

    async fn client(&self) -> Result<deadpool_postgres::Object, StoreError> {
        Ok(self.pool.get().await?)
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
pub(super) fn parsed<T: std::str::FromStr>(r: &Row, column: usize) -> Result<T, StoreError>
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
        engine_seat: r.get::<_, Option<i16>>(5).and_then(Seat::from_number),
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
        accounts: [17, 18].map(|i| {
            r.get::<_, Option<i64>>(i)
                .map(|id| super::accounts::SeatAccount {
                    id,
                    name: r.get(i + 2),
                })
        }),
        rated: r.get(21),
        pair_first: r.get(22),
        rating_change: match (r.get::<_, Option<f64>>(23), r.get::<_, Option<f64>>(24)) {
            (Some(a), Some(b)) => Some([a, b]),
            _ => None,
        },
        pair_score: match (r.get::<_, Option<f64>>(25), r.get::<_, Option<f64>>(26)) {
            (Some(a), Some(b)) => Some([a, b]),
            _ => None,
        },
        clock: r
            .get::<_, Option<&str>>(27)
            .and_then(|t| serde_json::from_str(t).ok()),
        clock_owner: r.get(28),
        moved: u8::try_from(r.get::<_, i16>(29)).unwrap_or(3),
        offer: crate::model::Offer::parse(r.get::<_, Option<&str>>(30)),
    })
}

/// A clock as its column holds it (JSON).
fn clock_text(clock: Option<&crate::clock::Clock>) -> Option<String> {
    clock.and_then(|c| serde_json::to_string(c).ok())
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
        (LOBBY, _) => crate::store::live::LobbyNotice::parse(payload).map(Notice::Lobby),
        (CHAT, ["people", account]) => Some(Notice::Person {
            account: account.parse().ok()?,
        }),
        (CHAT, ["presence", game]) => Some(Notice::Presence {
            game: (*game).to_string(),
        }),
        (CHAT, [game, id]) => Some(Notice::Chat {
            game: (*game).to_string(),
            id: id.parse().ok()?,
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
                    .batch_execute(&format!(
                        "LISTEN {GAMES}; LISTEN {JOBS}; LISTEN {LOBBY}; LISTEN {CHAT}"
                    ))
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

/// Brings the schema up to date, after checking that any migration newer
/// than this binary is compatible with it (`crate::store::schema`).
async fn migrate(client: &mut deadpool_postgres::Object) -> Result<(), StoreError> {
    let runner = migrations::runner().set_abort_missing(false);
    let known = crate::store::schema::known(&runner);
    let has_history: bool = client
        .query_one(
            "SELECT to_regclass('refinery_schema_history') IS NOT NULL",
            &[],
        )
        .await?
        .get(0);
    let applied: Vec<(i64, String)> = if has_history {
        client
            .query(
                "SELECT version::BIGINT, name FROM refinery_schema_history",
                &[],
            )
            .await?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect()
    } else {
        vec![]
    };
    crate::store::schema::check(&known, &applied).map_err(StoreError::Postgres)?;
    runner
        .run_async(&mut ***client)
        .await
        .map(|_| ())
        .map_err(|e| StoreError::Postgres(format!("schema migration failed: {e}")))
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
