//! `agon bench arena`: an arena of many simulated players over the real
//! HTTP API and sockets: each player keeps her site socket open (online, as
//! a page of Agon makes her) and the arena's own socket (as its page does),
//! which pushes the standings to every player and tells her when she is
//! paired. Every bout is an Urgammon match to 1 that its second seat
//! resigns after a short think. Measured: from a bout's end (the
//! resignation sent) to each of its two players being told her next game
//! (the pairing latency the arena promises); each standings push, from the
//! server counting it to each socket receiving it; the arena's page read
//! over HTTP while it runs; the server's writes to disk (the store's write
//! load); the bouts played.

use super::load::{rss_mib, start_server, summary, until_interrupted, Latency};
use crate::cli::ArenaBench;
use anyhow::{bail, Context, Result};
use futures_util::StreamExt;
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `agon bench arena`'s report.
#[derive(Serialize)]
pub struct ArenaReport {
    /// Players in the arena (each signed up, online and entered).
    pub players: usize,
    /// Seconds the arena was played.
    pub seconds: f64,
    /// Bouts ended (resigned) during the run.
    pub bouts: usize,
    /// From a bout's end to each of its players seeing her next game, in
    /// milliseconds (her site socket told her; her tournaments read).
    pub pairing_ms: Latency,
    /// From the moment both players of a new bout were free (the later of
    /// their last bouts' ends) to each being told of it: the pairing's own
    /// latency, without the wait for an opponent that the arena's rules
    /// make (never the same two again at once).
    pub pairing_when_possible_ms: Latency,
    /// Each standings push, from the server counting it (the view's
    /// `now_ms`) to each player's socket receiving it, in milliseconds.
    pub standings_push_ms: Latency,
    /// Standings pushes received, over every socket.
    pub standings_pushes: usize,
    /// Reading the arena's page (`GET /api/tournaments/{id}`) while it
    /// runs.
    pub standings_ms: Latency,
    /// The server's writes to disk while the arena was played (its store:
    /// the SQLite file and its log), in MiB per second.
    pub store_write_mib_per_s: Option<f64>,
    /// The same, per bout played, in KiB.
    pub store_write_kib_per_bout: Option<f64>,
    /// Requests refused or failed.
    pub request_errors: usize,
    /// Sockets that failed.
    pub socket_errors: usize,
    /// The server's resident memory at the end, in MiB.
    pub server_rss_mib: Option<f64>,
}

/// Runs the benchmark.
///
/// # Errors
/// The server cannot be started or reached.
pub fn run(b: &ArenaBench) -> Result<ArenaReport> {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let (server, base) = start_server(600)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let pid = server.child.id();
    let mut report = until_interrupted(&runtime, drive(b, &base, pid))?;
    report.server_rss_mib = rss_mib(pid);
    Ok(report)
}

/// The bytes a process has written to storage so far (Linux).
fn written_bytes(pid: u32) -> Option<u64> {
    std::fs::read_to_string(format!("/proc/{pid}/io"))
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("write_bytes:"))?
        .trim()
        .parse()
        .ok()
}

/// Milliseconds since the epoch, as the server's `now_ms` (one machine,
/// one clock).
fn wall_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64() * 1000.0)
        .unwrap_or(0.0)
}

/// What the players share: when each bout ended, the latencies, the errors.
#[derive(Default)]
struct Shared {
    ended: Mutex<HashMap<String, Instant>>,
    pairing: Mutex<Vec<f64>>,
    possible: Mutex<Vec<f64>>,
    free_since: Mutex<HashMap<String, Instant>>,
    pushes: Mutex<Vec<f64>>,
    errors: AtomicUsize,
    socket_errors: AtomicUsize,
    bouts: AtomicUsize,
}

async fn send(
    client: &reqwest::Client,
    method: reqwest::Method,
    url: &str,
    cookie: &str,
    body: Option<Value>,
) -> Result<(u16, Value)> {
    let mut req = client
        .request(method, url)
        .header("cookie", cookie)
        .header("content-type", "application/json");
    if let Some(b) = body {
        req = req.body(b.to_string());
    }
    let res = req.send().await?;
    let status = res.status().as_u16();
    let bytes = res.bytes().await?;
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Ok((status, v))
}

async fn drive(b: &ArenaBench, base: &str, pid: u32) -> Result<ArenaReport> {
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(256)
        .build()?;
    // Sign-ups, a few at a time (each is an Argon2id hash).
    eprintln!("signing up {} players …", b.players);
    let mut cookies = vec![];
    let names: Vec<String> = (0..b.players).map(|i| format!("bench{i}")).collect();
    for chunk in names.chunks(16) {
        let made = futures_util::future::join_all(chunk.iter().map(|n| {
            let client = client.clone();
            let url = format!("{base}/api/account/signup");
            let n = n.clone();
            async move {
                let res = client
                    .post(url)
                    .header("content-type", "application/json")
                    .body(json!({"name": n, "password": "correct horse battery"}).to_string())
                    .send()
                    .await?;
                let cookie = res
                    .headers()
                    .get("set-cookie")
                    .and_then(|c| c.to_str().ok())
                    .and_then(|c| c.split(';').next())
                    .map(str::to_string)
                    .context("no session cookie")?;
                anyhow::Ok(cookie)
            }
        }))
        .await;
        for c in made {
            cookies.push(c?);
        }
    }
    let shared = Arc::new(Shared::default());
    // Each player online: her site socket, which also tells her when her
    // tournament news changes.
    eprintln!("opening {} site sockets …", b.players);
    let ws_url = format!("{}/api/site/ws", base.replacen("http", "ws", 1));
    let mut sockets = vec![];
    for c in &cookies {
        sockets.push(connect(&ws_url, c).await?);
    }
    let (s, t) = send(
        &client,
        reqwest::Method::POST,
        &format!("{base}/api/tournaments"),
        &cookies[0],
        Some(json!({"kind": "arena", "game": "urgammon", "to": 1,
            "clock": {"base_secs": 300, "increment_secs": 0}, "minutes": 60, "name": "Bench arena"})),
    )
    .await?;
    if s != 201 {
        bail!("the arena was not made: {s} {t}");
    }
    let id = t["id"].as_str().context("the arena's id")?.to_string();
    eprintln!(
        "{} players join arena {id} and play for {} s …",
        b.players, b.seconds
    );
    // Each player's page of the arena: its socket, read as it comes.
    let event_url = format!("{}/api/tournaments/{id}/ws", base.replacen("http", "ws", 1));
    let mut told = vec![];
    for (c, site) in cookies.iter().zip(sockets) {
        let ws = connect(&event_url, c).await?;
        told.push(listen(site, ws, shared.clone()));
    }
    let written = written_bytes(pid);
    let started = Instant::now();
    let until = started + Duration::from_secs_f64(b.seconds);
    let mut tasks = vec![];
    for (i, (cookie, games)) in cookies.into_iter().zip(told).enumerate() {
        let (client, base, id, shared) =
            (client.clone(), base.to_string(), id.clone(), shared.clone());
        let think = Duration::from_millis(b.think_ms);
        tasks.push(tokio::spawn(async move {
            play(i, client, base, id, cookie, games, shared, think, until).await
        }));
    }
    // The arena's page read while it runs, as its pages poll it.
    let reader = {
        let (client, url) = (client.clone(), format!("{base}/api/tournaments/{id}"));
        tokio::spawn(async move {
            let mut ms = vec![];
            while Instant::now() < until {
                let t0 = Instant::now();
                if client.get(&url).send().await.is_ok() {
                    ms.push(t0.elapsed().as_secs_f64() * 1000.0);
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            ms
        })
    };
    for t in tasks {
        if let Ok(Err(e)) = t.await {
            eprintln!("a player failed: {e}");
            shared.errors.fetch_add(1, Ordering::Relaxed);
        }
    }
    let standings = reader.await.unwrap_or_default();
    let seconds = started.elapsed().as_secs_f64();
    let written = written
        .zip(written_bytes(pid))
        .map(|(a, b)| b.saturating_sub(a) as f64);
    let pairing = shared.pairing.lock().map(|p| p.clone()).unwrap_or_default();
    let pushes = shared.pushes.lock().map(|p| p.clone()).unwrap_or_default();
    let possible = shared
        .possible
        .lock()
        .map(|p| p.clone())
        .unwrap_or_default();
    let bouts = shared.bouts.load(Ordering::Relaxed);
    let round = |x: f64| (x * 100.0).round() / 100.0;
    Ok(ArenaReport {
        players: b.players,
        seconds,
        bouts,
        pairing_ms: summary(pairing),
        pairing_when_possible_ms: summary(possible),
        standings_pushes: pushes.len(),
        standings_push_ms: summary(pushes),
        standings_ms: summary(standings),
        store_write_mib_per_s: written.map(|w| round(w / 1_048_576.0 / seconds)),
        store_write_kib_per_bout: written
            .filter(|_| bouts > 0)
            .map(|w| round(w / 1024.0 / bouts as f64)),
        request_errors: shared.errors.load(Ordering::Relaxed),
        socket_errors: shared.socket_errors.load(Ordering::Relaxed),
        server_rss_mib: None,
    })
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A socket opened as a signed-in page opens it.
async fn connect(url: &str, cookie: &str) -> Result<Socket> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = url.into_client_request()?;
    req.headers_mut().insert("cookie", cookie.parse()?);
    Ok(tokio_tungstenite::connect_async(req).await?.0)
}

/// Reads a player's two sockets as they come (a page never stops reading
/// them, whatever its player does): each standings push timed on arrival,
/// and each game she is told of handed to her player as it comes.
fn listen(
    mut site: Socket,
    mut event: Socket,
    shared: Arc<Shared>,
) -> tokio::sync::mpsc::UnboundedReceiver<(String, Instant)> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move { while let Some(Ok(_)) = site.next().await {} });
    tokio::spawn(async move {
        let mut last: Option<String> = None;
        loop {
            let m = match event.next().await {
                Some(Ok(m)) => m,
                Some(Err(_)) => {
                    shared.socket_errors.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                None => return,
            };
            let Ok(text) = m.to_text() else { continue };
            let Ok(v) = serde_json::from_str::<Value>(text) else {
                continue;
            };
            match v["type"].as_str() {
                Some("view") => {
                    if let Some(at) = v["view"]["now_ms"].as_f64() {
                        if let Ok(mut p) = shared.pushes.lock() {
                            p.push((wall_ms() - at).max(0.0));
                        }
                    }
                }
                Some("you") => {
                    let game = v["you"]["game"].as_str().map(str::to_string);
                    if let Some(g) = &game {
                        if last.as_ref() != Some(g) && tx.send((g.clone(), Instant::now())).is_err()
                        {
                            return;
                        }
                    }
                    last = game;
                }
                _ => {}
            }
        }
    });
    rx
}

/// One player: joins, then plays each bout she is told of (the second
/// seat resigns after `think`), and times each pairing from the end of her
/// last bout to her socket telling her the next.
#[allow(clippy::too_many_arguments)]
async fn play(
    i: usize,
    client: reqwest::Client,
    base: String,
    id: String,
    cookie: String,
    mut games: tokio::sync::mpsc::UnboundedReceiver<(String, Instant)>,
    shared: Arc<Shared>,
    think: Duration,
    until: Instant,
) -> Result<()> {
    let (s, v) = send(
        &client,
        reqwest::Method::POST,
        &format!("{base}/api/tournaments/{id}/join"),
        &cookie,
        None,
    )
    .await?;
    if s != 200 {
        bail!("player {i} could not join: {s} {v}");
    }
    let me = format!("bench{i}");
    let mut last: Option<String> = None;
    while Instant::now() < until {
        let Ok(Some((game, told))) = tokio::time::timeout(
            until.saturating_duration_since(Instant::now()),
            games.recv(),
        )
        .await
        else {
            break;
        };
        // Paired: timed from the end of her last bout.
        if let Some(prev) = &last {
            if let Some(at) = shared.ended.lock().ok().and_then(|e| e.get(prev).copied()) {
                if let Ok(mut p) = shared.pairing.lock() {
                    p.push(told.saturating_duration_since(at).as_secs_f64() * 1000.0);
                }
            }
        }
        last = Some(game.clone());
        // The second seat resigns after a think.
        let (_, state) = send(
            &client,
            reqwest::Method::GET,
            &format!("{base}/api/games/{game}"),
            &cookie,
            None,
        )
        .await?;
        let names = [0, 1].map(|s| {
            state["state"]["players"][s]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        });
        let second = names[1] == me;
        let opponent = names[usize::from(!second)].clone();
        // Timed again from when both were free, if both played before.
        if let Ok(free) = shared.free_since.lock() {
            if let (Some(a), Some(b)) = (free.get(&me), free.get(&opponent)) {
                if let Ok(mut p) = shared.possible.lock() {
                    p.push(told.saturating_duration_since(*a.max(b)).as_secs_f64() * 1000.0);
                }
            }
        }
        if second {
            tokio::time::sleep(think).await;
            // The bout ends during this request: timed from its start, so
            // the latency counted is never less than the real one.
            let sent = Instant::now();
            if let Ok(mut e) = shared.ended.lock() {
                e.insert(game.clone(), sent);
            }
            if let Ok(mut f) = shared.free_since.lock() {
                f.insert(me.clone(), sent);
                f.insert(opponent, sent);
            }
            let (s, _) = send(
                &client,
                reqwest::Method::POST,
                &format!("{base}/api/games/{game}/action"),
                &cookie,
                Some(json!({"type": "resign"})),
            )
            .await?;
            if s == 200 {
                shared.bouts.fetch_add(1, Ordering::Relaxed);
            } else {
                shared.errors.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    Ok(())
}
