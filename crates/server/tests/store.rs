//! The store's promises, checked on both backends: the same scenario runs on
//! SQLite (in memory and on a file) and on PostgreSQL (a fresh database; the
//! test says it is skipped when no server is configured).

mod common;

use agon_server::dice::{Die, Drawn};
use agon_server::model::{InviteSeats, Kind, Mode, Seat, Status};
use agon_server::store::{
    Commit, GameRow, JobKind, ListCursor, ListQuery, Notice, Store, StoreError,
};
use std::time::Duration;

/// Runs a scenario on SQLite in memory, SQLite on a file, and PostgreSQL.
macro_rules! on_both {
    ($name:ident) => {
        mod $name {
            #[tokio::test]
            async fn sqlite_in_memory() {
                super::$name(agon_server::store::Store::in_memory().unwrap()).await;
            }
            #[tokio::test]
            async fn sqlite_file() {
                let dir = std::env::temp_dir().join(format!(
                    "agon-store-{}-{}",
                    stringify!($name),
                    std::process::id()
                ));
                let _ = std::fs::remove_dir_all(&dir);
                super::$name(agon_server::store::Store::open(&dir).unwrap()).await;
                let _ = std::fs::remove_dir_all(&dir);
            }
            #[tokio::test]
            async fn postgres() {
                if let Some(store) = super::common::pg_store(stringify!($name)).await {
                    super::$name(store).await;
                }
            }
        }
    };
}

fn row(id: &str) -> GameRow {
    GameRow {
        id: id.into(),
        kind: Kind::Urgammon,
        settings: "[Match 7]".into(),
        mode: Mode::Friend,
        level: Some(7),
        engine_seat: None,
        token0: Some("a".repeat(64)),
        token1: None,
        start_position: None,
        status: Status::Ongoing,
        created_at: 100,
        updated_at: 100,
        revision: 0,
        reason: None,
        rematch: None,
        score: Some([0, 0]),
        accounts: [None, None],
        rated: false,
        pair_first: None,
        rating_change: None,
        pair_score: None,
        clock: Some(agon_server::clock::Clock {
            base_ms: 60_000,
            increment_ms: 2_000,
            remaining_ms: [59_000, 60_000],
            since_ms: 1_000,
            first_move_ms: 30_000,
            days: 0,
        }),
        clock_owner: Some("i1".into()),
        moved: 1,
        // An offer waiting is kept with the game.
        offer: Some(agon_server::model::Offer {
            kind: agon_server::model::OfferKind::Takeback,
            seat: Seat::Second,
        }),
    }
}

fn toks(t: &[&str]) -> Vec<String> {
    t.iter().map(|s| (*s).to_string()).collect()
}

fn die(die: Die, seq: usize, value: u8) -> Drawn {
    Drawn { die, seq, value }
}

fn commit(from: i64, keep: usize, append: &[&str], dice: Vec<Drawn>) -> Commit {
    Commit {
        from_revision: from,
        keep,
        append: toks(append),
        dice,
        status: Status::Ongoing,
        reason: None,
        score: Some([0, 0]),
        clock: None,
        clock_owner: None,
        moved: 3,
        offer: None,
    }
}

async fn round_trip(store: Store) {
    let r = row("g1");
    store
        .create(agon_server::store::NewRecord {
            row: r.clone(),
            tokens: toks(&["start:3-1"]),
            dice: vec![die(Die::Opening, 0, 31)],
            invite: Some(("code".into(), InviteSeats::One(Seat::Second))),
        })
        .await
        .unwrap();
    let loaded = store.load("g1").await.unwrap().unwrap();
    assert_eq!(loaded.row, r);
    assert_eq!(loaded.tokens, toks(&["start:3-1"]));
    assert_eq!(loaded.dice, vec![die(Die::Opening, 0, 31)]);
    assert!(store.load("nope").await.unwrap().is_none());
    let listed = first_ten(&store).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].1, 1, "the token count");
    assert_eq!(listed[0].0.score, Some([0, 0]));
    // A change carries the match score to the row, and a list reads it.
    let mut c = commit(0, 1, &["P-1a"], vec![]);
    c.score = Some([3, 12]);
    store.commit("g1", c).await.unwrap();
    assert_eq!(
        store.load("g1").await.unwrap().unwrap().row.score,
        Some([3, 12])
    );
    let listed = first_ten(&store).await;
    assert_eq!(listed[0].0.score, Some([3, 12]));
    // A Ringo game has none.
    let mut ringo = row("g2");
    (ringo.kind, ringo.score) = (Kind::Ringo, None);
    store
        .create(agon_server::store::NewRecord {
            row: ringo,
            tokens: vec![],
            dice: vec![],
            invite: None,
        })
        .await
        .unwrap();
    assert_eq!(store.load("g2").await.unwrap().unwrap().row.score, None);
}
on_both!(round_trip);

/// The ten most recently changed games, with their token counts.
async fn first_ten(store: &Store) -> Vec<(GameRow, usize)> {
    store
        .list(&ListQuery {
            limit: 10,
            ..Default::default()
        })
        .await
        .unwrap()
}

/// The ids `query` lists, in order.
async fn listed(store: &Store, query: ListQuery) -> Vec<String> {
    store
        .list(&query)
        .await
        .unwrap()
        .into_iter()
        .map(|(r, _)| r.id)
        .collect()
}

async fn lists_pages_and_a_players_own_games(store: Store) {
    // (id, updated_at, created_at): two games share both times, so the id
    // breaks the tie, and the order is total.
    for (id, updated, created) in [
        ("ga", 100, 100),
        ("gb", 200, 100),
        ("gc", 200, 150),
        ("gd", 200, 150),
        ("ge", 50, 50),
    ] {
        let mut r = row(id);
        r.updated_at = updated;
        r.created_at = created;
        store
            .create(agon_server::store::NewRecord {
                row: r,
                tokens: toks(&["a"]),
                dice: vec![],
                invite: None,
            })
            .await
            .unwrap();
    }
    let all = listed(
        &store,
        ListQuery {
            limit: 10,
            ..Default::default()
        },
    )
    .await;
    assert_eq!(all, ["gd", "gc", "gb", "ga", "ge"]);
    // Pages of two, each starting after the last game of the one before:
    // every game once, none skipped at the ties.
    let mut paged = vec![];
    let mut after = None;
    loop {
        let page = store
            .list(&ListQuery {
                limit: 2,
                ids: None,
                after: after.clone(),
                ..Default::default()
            })
            .await
            .unwrap();
        paged.extend(page.iter().map(|(r, _)| r.id.clone()));
        if page.len() < 2 {
            break;
        }
        after = Some(ListCursor::of(&page.last().unwrap().0));
    }
    assert_eq!(paged, all);
    // A player's own games, in the same order; unknown ids are left out,
    // and no ids list nothing.
    let own = |ids: &[&str]| ListQuery {
        limit: 10,
        ids: Some(ids.iter().map(|s| (*s).to_string()).collect()),
        after: None,
        ..Default::default()
    };
    assert_eq!(
        listed(&store, own(&["ge", "gb", "nope"])).await,
        ["gb", "ge"]
    );
    assert!(listed(&store, own(&[])).await.is_empty());
    // The cursor's text round-trips, and junk is refused.
    let c = ListCursor::of(&row("gc"));
    assert_eq!(c.to_string().parse::<ListCursor>(), Ok(c));
    for bad in ["", "1.2", "x.2.ga", "1.2.g a", "1.2.", "1.2.ga'--"] {
        assert!(bad.parse::<ListCursor>().is_err(), "{bad}");
    }
}
on_both!(lists_pages_and_a_players_own_games);

async fn revisions_refuse_stale_writes(store: Store) {
    store
        .create(agon_server::store::NewRecord {
            row: row("g2"),
            tokens: toks(&["a"]),
            dice: vec![],
            invite: None,
        })
        .await
        .unwrap();
    let next = store
        .commit(
            "g2",
            commit(0, 1, &["b", "c"], vec![die(Die::Chance, 0, 4)]),
        )
        .await
        .unwrap();
    assert_eq!(next, 1);
    // A second writer that saw revision 0 is refused, and changes nothing.
    let stale = store.commit("g2", commit(0, 1, &["x"], vec![])).await;
    assert!(
        matches!(stale, Err(StoreError::Stale(1))),
        "{stale:?} should be Stale(1)"
    );
    let loaded = store.load("g2").await.unwrap().unwrap();
    assert_eq!(loaded.tokens, toks(&["a", "b", "c"]));
    assert_eq!(loaded.row.revision, 1);
    // Undo keeps a prefix; the ledger keeps every die (Undo cannot reroll).
    let next = store
        .commit("g2", commit(1, 1, &["d"], vec![die(Die::Chance, 0, 2)]))
        .await
        .unwrap();
    assert_eq!(next, 2);
    let loaded = store.load("g2").await.unwrap().unwrap();
    assert_eq!(loaded.tokens, toks(&["a", "d"]));
    assert_eq!(
        loaded.dice,
        vec![die(Die::Chance, 0, 4)],
        "a die once drawn keeps its value"
    );
    // A change of an unknown game is stale too.
    assert!(matches!(
        store.commit("none", commit(0, 0, &["x"], vec![])).await,
        Err(StoreError::Stale(-1))
    ));
}
on_both!(revisions_refuse_stale_writes);

async fn racing_writers_cannot_both_append(store: Store) {
    store
        .create(agon_server::store::NewRecord {
            row: row("g3"),
            tokens: vec![],
            dice: vec![],
            invite: None,
        })
        .await
        .unwrap();
    // Twenty writers race from the same revision: exactly one wins.
    let tries = (0..20).map(|i| {
        let store = store.clone();
        tokio::spawn(async move {
            store
                .commit("g3", commit(0, 0, &[&format!("m{i}")], vec![]))
                .await
        })
    });
    let results = futures_join(tries).await;
    let won = results.iter().filter(|r| r.is_ok()).count();
    assert_eq!(won, 1, "{results:?}");
    assert!(results
        .iter()
        .all(|r| r.is_ok() || matches!(r, Err(StoreError::Stale(_)))));
    let loaded = store.load("g3").await.unwrap().unwrap();
    assert_eq!(loaded.tokens.len(), 1);
    assert_eq!(loaded.row.revision, 1);
}
on_both!(racing_writers_cannot_both_append);

async fn futures_join(
    handles: impl Iterator<Item = tokio::task::JoinHandle<Result<i64, StoreError>>>,
) -> Vec<Result<i64, StoreError>> {
    let mut out = vec![];
    for h in handles.collect::<Vec<_>>() {
        out.push(h.await.unwrap());
    }
    out
}

async fn invites_are_used_once(store: Store) {
    store
        .create(agon_server::store::NewRecord {
            row: row("g4"),
            tokens: vec![],
            dice: vec![],
            invite: Some(("c1".into(), InviteSeats::One(Seat::Second))),
        })
        .await
        .unwrap();
    store
        .add_invite("g4", "c2".into(), InviteSeats::Both)
        .await
        .unwrap();
    assert_eq!(
        store
            .claim_invite("g4", "c1".into(), "t1".into())
            .await
            .unwrap(),
        Some((InviteSeats::One(Seat::Second), 1)),
        "the seat, and the game's revision, which rises as with every change"
    );
    assert_eq!(
        store
            .claim_invite("g4", "c1".into(), "t9".into())
            .await
            .unwrap(),
        None,
        "a used code"
    );
    assert_eq!(
        store
            .claim_invite("g4", "zz".into(), "t9".into())
            .await
            .unwrap(),
        None,
        "an unknown code"
    );
    let r = store.load("g4").await.unwrap().unwrap().row;
    assert_eq!(r.token1.as_deref(), Some("t1"));
    assert_eq!(
        store
            .claim_invite("g4", "c2".into(), "t2".into())
            .await
            .unwrap(),
        Some((InviteSeats::Both, 2))
    );
    let r = store.load("g4").await.unwrap().unwrap().row;
    assert_eq!(
        (r.token0.as_deref(), r.token1.as_deref()),
        (Some("t2"), Some("t2"))
    );
}
on_both!(invites_are_used_once);

async fn rematch_and_review(store: Store) {
    store
        .create(agon_server::store::NewRecord {
            row: row("g5"),
            tokens: vec![],
            dice: vec![],
            invite: None,
        })
        .await
        .unwrap();
    assert_eq!(store.set_rematch("g5", 0, "g6".into()).await.unwrap(), 1);
    assert!(matches!(
        store.set_rematch("g5", 0, "g7".into()).await,
        Err(StoreError::Stale(_))
    ));
    assert_eq!(
        store
            .load("g5")
            .await
            .unwrap()
            .unwrap()
            .row
            .rematch
            .as_deref(),
        Some("g6")
    );
    assert!(store.review("g5").await.unwrap().is_none());
    store.save_review("g5", 1, "{}".into()).await.unwrap();
    store
        .save_review("g5", 1, "{\"a\":1}".into())
        .await
        .unwrap();
    assert_eq!(
        store.review("g5").await.unwrap(),
        Some((1, "{\"a\":1}".to_string()))
    );
    store
        .add_dice("g5", vec![die(Die::Verdict, 2, 1)])
        .await
        .unwrap();
    assert_eq!(
        store.load("g5").await.unwrap().unwrap().dice,
        vec![die(Die::Verdict, 2, 1)]
    );
}
on_both!(rematch_and_review);

/// The queue is PostgreSQL's: SQLite refuses it with a clear error.
#[tokio::test]
async fn sqlite_has_no_queue() {
    let store = Store::in_memory().unwrap();
    let e = store
        .enqueue(agon_server::store::NewJob {
            kind: JobKind::Move,
            game: Some("g"),
            revision: 0,
            payload: String::new(),
            delay: Duration::ZERO,
        })
        .await
        .unwrap_err();
    assert!(e.to_string().contains("PostgreSQL"), "{e}");
    assert_eq!(store.queue_depth().await.unwrap().waiting, 0);
    assert!(store.notices().is_none());
}

/// A job is taken by one worker at a time, comes back when its lease runs
/// out, and its result and progress are announced.
#[tokio::test]
async fn postgres_queue_leases_and_announces() {
    let Some(store) = common::pg_store("queue").await else {
        return;
    };
    let mut notices = store.notices().unwrap();
    let id = store
        .enqueue(agon_server::store::NewJob {
            kind: JobKind::Move,
            game: Some("g"),
            revision: 3,
            payload: String::new(),
            delay: Duration::ZERO,
        })
        .await
        .unwrap()
        .expect("queued");
    // The same move job again is not queued twice.
    assert_eq!(
        store
            .enqueue(agon_server::store::NewJob {
                kind: JobKind::Move,
                game: Some("g"),
                revision: 3,
                payload: String::new(),
                delay: Duration::ZERO
            })
            .await
            .unwrap(),
        None
    );
    assert_eq!(store.queue_depth().await.unwrap().waiting, 1);
    // Long enough that a loaded machine does not outlast it between two
    // calls, short enough to wait out.
    let lease = Duration::from_millis(1000);
    let job = store.take("w1", lease).await.unwrap().expect("a job");
    assert_eq!(
        (job.id, job.kind, job.game.as_deref(), job.revision),
        (id, JobKind::Move, Some("g"), 3)
    );
    assert!(
        store.take("w2", lease).await.unwrap().is_none(),
        "leased to w1"
    );
    assert_eq!(store.queue_depth().await.unwrap().running, 1);
    // w1 dies: after the lease, w2 gets it (a second attempt).
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let again = store.take("w2", lease).await.unwrap().expect("due again");
    assert_eq!((again.id, again.attempts), (id, 2));
    assert!(
        !store.renew(id, "w1", lease).await.unwrap(),
        "w1's lease is gone"
    );
    assert!(store.renew(id, "w2", lease).await.unwrap());
    store.progress(&again, 2, 5).await.unwrap();
    store.finish(&again, Ok("{\"ok\":1}".into())).await.unwrap();
    let state = store.job(id).await.unwrap().unwrap();
    assert!(state.finished);
    assert_eq!((state.done, state.total), (2, 5));
    assert_eq!(state.result.as_deref(), Some("{\"ok\":1}"));
    // A job due later is not taken early.
    store
        .enqueue(agon_server::store::NewJob {
            kind: JobKind::Analyze,
            game: None,
            revision: 0,
            payload: "{}".into(),
            delay: Duration::from_secs(60),
        })
        .await
        .unwrap();
    assert!(store.take("w3", lease).await.unwrap().is_none());
    // Everything was announced, in order.
    let mut seen = vec![];
    while seen.len() < 4 {
        let n = tokio::time::timeout(Duration::from_secs(5), notices.recv())
            .await
            .expect("a notice in time")
            .unwrap();
        seen.push(n);
    }
    assert_eq!(seen[0], Notice::Queued);
    assert_eq!(
        seen[1],
        Notice::Progress {
            job: id,
            game: Some("g".into()),
            done: 2,
            total: 5
        }
    );
    assert_eq!(
        seen[2],
        Notice::Done {
            job: id,
            game: Some("g".into())
        }
    );
    assert_eq!(seen[3], Notice::Queued);
}

/// Changes made through one handle are announced to another process's
/// handle on the same database.
#[tokio::test]
async fn postgres_changes_are_announced_to_every_instance() {
    let Some(admin) = common::pg_admin_url() else {
        eprintln!("skipped: AGON_TEST_DATABASE_URL is not set");
        return;
    };
    let url = common::pg_database(&admin, "announce").await;
    let a = Store::connect(&url).await.unwrap();
    let b = Store::connect(&url).await.unwrap();
    let mut heard = b.notices().unwrap();
    a.create(agon_server::store::NewRecord {
        row: row("g8"),
        tokens: vec![],
        dice: vec![],
        invite: Some(("c".into(), InviteSeats::One(Seat::Second))),
    })
    .await
    .unwrap();
    a.commit("g8", commit(0, 0, &["x"], vec![])).await.unwrap();
    a.claim_invite("g8", "c".into(), "t".into()).await.unwrap();
    // A refused change is not announced.
    let stale = a.commit("g8", commit(0, 0, &["y"], vec![])).await;
    assert!(
        matches!(stale, Err(StoreError::Stale(_))),
        "a write at an old revision is refused: {stale:?}"
    );
    a.commit("g8", commit(2, 1, &["y"], vec![])).await.unwrap();
    let mut seen = vec![];
    while seen.len() < 3 {
        let n = tokio::time::timeout(Duration::from_secs(5), heard.recv())
            .await
            .expect("a notice in time")
            .unwrap();
        seen.push(n);
    }
    let game = |revision, seats| Notice::Game {
        id: "g8".into(),
        revision,
        seats,
    };
    // The invite used is a revision of its own.
    assert_eq!(seen, vec![game(1, false), game(2, true), game(3, false)]);
}

/// A URL that is not PostgreSQL's, or a server that is not there, is a clear
/// error, not a panic.
#[tokio::test]
async fn bad_database_urls_are_clear_errors() {
    let e = Store::connect("mysql://x").await.err().unwrap();
    assert!(e.to_string().contains("storage error"), "{e}");
    let e = Store::connect("postgres://nobody@127.0.0.1:1/none")
        .await
        .err()
        .unwrap();
    assert!(e.to_string().contains("PostgreSQL"), "{e}");
}

/// The SQLite store's write-ahead log does not keep its peak size after a
/// burst (issue 85 saw 193 MB beside an 8.9 MB database): once a checkpoint
/// has copied it all, the writer starts it over and cuts the file back to
/// 16 MiB. A reader holding a transaction open makes the burst pile up in
/// the log; once it lets go, the log shrinks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_write_ahead_log_is_cut_back_after_a_burst() {
    use agon_server::store::{ChatLine, Room};
    const KEPT: u64 = 16 << 20;
    let dir = std::env::temp_dir().join(format!("agon-wal-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::open(&dir).unwrap();
    let wal = dir.join("agon.db-wal");
    let wal_size = || std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    // A reader in the middle of a read: no checkpoint can finish meanwhile.
    let reader = rusqlite::Connection::open(dir.join("agon.db")).unwrap();
    reader
        .execute_batch("BEGIN; SELECT COUNT(*) FROM chat;")
        .unwrap();
    let line = |i: usize| ChatLine {
        id: 0,
        game: "g".into(),
        room: Room::Spectators,
        seat: None,
        name: None,
        text: format!("{i}:{}", "x".repeat(8_000)),
        at_ms: 0,
        hidden: false,
        writer: None,
    };
    // About 24 MB of lines, a hundred at a time (grouped in few commits).
    for chunk in 0..30 {
        futures_util::future::join_all((0..100).map(|i| store.add_chat(line(chunk * 100 + i))))
            .await
            .into_iter()
            .for_each(|r| {
                r.unwrap();
            });
    }
    assert!(
        wal_size() > KEPT,
        "the burst piled up: {} bytes",
        wal_size()
    );
    reader.execute_batch("COMMIT;").unwrap();
    drop(reader);
    // Checkpoints run every second; the next write after one that copied
    // everything starts the log over and cuts it back.
    let until = std::time::Instant::now() + Duration::from_secs(20);
    let mut i = 0;
    while wal_size() > KEPT {
        assert!(
            std::time::Instant::now() < until,
            "the log kept {} bytes",
            wal_size()
        );
        store.add_chat(line(i)).await.unwrap();
        i += 1;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}
