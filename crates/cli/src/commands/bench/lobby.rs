//! `agon bench lobby`: the lobby and the clocks under load. Thousands of
//! lobby sockets stay open while seeks are made and accepted at a steady
//! rate: how long each change takes to reach a socket (from the request
//! that made it), and whether any socket failed. Then clocked games are
//! played over the HTTP API with a think time before each move: how far
//! the time the server charged is from the thinking time the client
//! measured (what is left is the network and the server's own work).

use super::load::{post, start_server, summary, until_interrupted, Latency};
use super::readers::{Asked, Change, Readers};
use crate::cli::LobbyBench;
use anyhow::{bail, Context, Result};
use serde::Serialize;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// `agon bench lobby`'s report.
#[derive(Serialize)]
pub struct LobbyReport {
    /// Lobby sockets that opened.
    pub sockets: usize,
    /// Sockets that failed (refused, closed or broken before the end).
    pub socket_errors: usize,
    /// Seeks made.
    pub seeks_made: usize,
    /// Seeks accepted (each by one request).
    pub seeks_accepted: usize,
    /// Requests refused or failed (making or accepting).
    pub request_errors: usize,
    /// Lobby messages received, over all sockets.
    pub messages: u64,
    /// From the request that made or took a seek to its change reaching a
    /// sampled socket, in milliseconds.
    pub push_ms: Latency,
    /// The requests themselves (make, accept): from sending to the answer.
    pub request_ms: Latency,
    /// Clocked moves timed.
    pub clocked_moves: usize,
    /// |time charged − thinking time measured by the client|, in
    /// milliseconds, per move (no lag reported, so none credited).
    pub clock_error_ms: Latency,
    /// Moves whose charge was below the measured thinking time (a server
    /// that charged less than the client thought).
    pub charged_less: usize,
    /// The server's resident memory at the end, in MiB (a server started
    /// here).
    pub server_rss_mib: Option<f64>,
}

/// Runs the benchmark.
///
/// # Errors
/// The server cannot be started or reached.
pub fn run(b: &LobbyBench) -> Result<LobbyReport> {
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let (server, base) = match &b.url {
        Some(u) => (None, u.trim_end_matches('/').to_string()),
        None => {
            let (s, u) = start_server(600)?;
            (Some(s), u)
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let mut report = until_interrupted(&runtime, drive(b, &base))?;
    report.server_rss_mib = server
        .as_ref()
        .and_then(|s| super::load::rss_mib(s.child.id()));
    Ok(report)
}

async fn drive(b: &LobbyBench, base: &str) -> Result<LobbyReport> {
    let client = reqwest::Client::new();
    let asked: Arc<Asked> = Arc::new(Asked::default());
    let readers = Readers::start(asked.clone())?;
    let (opened, failed) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let ws_url = format!("{}/api/lobby/ws", base.replacen("http", "ws", 1));
    let hand = readers.hand();
    // Open the sockets a few hundred at a time; one thread reads them all.
    let gate = Arc::new(tokio::sync::Semaphore::new(256));
    for i in 0..b.sockets {
        let sampled = i % b.sample_every.max(1) == 0;
        let (url, opened, failed, gate, hand) = (
            ws_url.clone(),
            opened.clone(),
            failed.clone(),
            gate.clone(),
            hand.clone(),
        );
        tokio::spawn(async move {
            let _permit = gate.acquire_owned().await;
            let added = match tokio::time::timeout(Duration::from_secs(30), raw_upgrade(&url)).await
            {
                Ok(Ok(stream)) => stream
                    .into_std()
                    .map_err(anyhow::Error::from)
                    .and_then(|stream| hand.add(stream, sampled))
                    .is_ok(),
                _ => false,
            };
            let count = if added { &opened } else { &failed };
            count.fetch_add(1, Ordering::Relaxed);
        });
    }
    let started = Instant::now();
    while opened.load(Ordering::Relaxed) + failed.load(Ordering::Relaxed) < b.sockets {
        if started.elapsed() > Duration::from_secs(300) {
            bail!("the sockets did not open in five minutes");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let open_at_start = opened.load(Ordering::Relaxed);
    eprintln!(
        "{open_at_start} lobby sockets open in {:.1} s; seeks for {} s",
        started.elapsed().as_secs_f64(),
        b.seconds
    );
    // Seeks at a steady rate, each accepted half a second later.
    let (made, accepted, request_errors) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicUsize::new(0)),
    );
    let answered = Arc::new(Mutex::new(vec![]));
    let every = Duration::from_secs_f64(1.0 / b.seeks_per_s.max(0.1));
    let deadline = Instant::now() + Duration::from_secs_f64(b.seconds);
    let mut next = Instant::now();
    let mut tasks = vec![];
    while next < deadline {
        tokio::time::sleep_until(next.into()).await;
        next += every;
        let (client, base, asked, made, accepted, errors, answered) = (
            client.clone(),
            base.to_string(),
            asked.clone(),
            made.clone(),
            accepted.clone(),
            request_errors.clone(),
            answered.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let t0 = Instant::now();
            let body = json!({"game": "ringo", "clock": {"base_secs": 180, "increment_secs": 2}});
            let Ok((201, v)) = post(&client, &format!("{base}/api/seeks"), None, &body).await
            else {
                errors.fetch_add(1, Ordering::Relaxed);
                return;
            };
            made.fetch_add(1, Ordering::Relaxed);
            if let Ok(mut a) = answered.lock() {
                a.push(t0.elapsed().as_secs_f64() * 1000.0);
            }
            let id = v["id"].as_str().unwrap_or_default().to_string();
            if let Ok(mut a) = asked.lock() {
                a.ask(&id, Change::Made, t0);
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
            let t1 = Instant::now();
            if let Ok(mut a) = asked.lock() {
                a.ask(&id, Change::Gone, t1);
            }
            match post(
                &client,
                &format!("{base}/api/seeks/{id}/accept"),
                None,
                &json!({}),
            )
            .await
            {
                Ok((201, _)) => {
                    accepted.fetch_add(1, Ordering::Relaxed);
                    if let Ok(mut a) = answered.lock() {
                        a.push(t1.elapsed().as_secs_f64() * 1000.0);
                    }
                }
                _ => {
                    errors.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    // The last changes have a moment to arrive.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let seen = readers.finish();
    let (clock_errors, charged_less) = clocked(&client, base, b).await?;
    Ok(LobbyReport {
        sockets: open_at_start,
        socket_errors: failed.load(Ordering::Relaxed) + seen.failed,
        seeks_made: made.load(Ordering::Relaxed),
        seeks_accepted: accepted.load(Ordering::Relaxed),
        request_errors: request_errors.load(Ordering::Relaxed),
        messages: seen.messages,
        push_ms: summary(seen.pushes),
        request_ms: summary(answered.lock().map(|a| a.clone()).unwrap_or_default()),
        clocked_moves: clock_errors.len(),
        clock_error_ms: summary(clock_errors),
        charged_less,
        server_rss_mib: None,
    })
}

/// A clocked game between two of the bench's seats.
async fn clocked_game(
    client: &reqwest::Client,
    base: &str,
) -> Result<(String, [String; 2], Value)> {
    let body = json!({"game": "ringo", "opponent": "friend", "side": "attackers",
        "clock": {"base_secs": 1800, "increment_secs": 1}});
    let (st, g) = post(client, &format!("{base}/api/games"), None, &body).await?;
    if st != 201 {
        bail!("creating a clocked game: {st} {g}");
    }
    let id = g["id"].as_str().context("game id")?.to_string();
    let (st, j) = post(
        client,
        &format!("{base}/api/games/{id}/join"),
        None,
        &json!({"invite": g["invite"]}),
    )
    .await?;
    if st != 200 {
        bail!("joining a clocked game: {st} {j}");
    }
    let tokens = [
        g["token"].as_str().context("token")?.to_string(),
        j["token"].as_str().context("token")?.to_string(),
    ];
    let bytes = client
        .get(format!("{base}/api/games/{id}"))
        .send()
        .await?
        .bytes()
        .await?;
    let v: Value = serde_json::from_slice(&bytes)?;
    Ok((id, tokens, v["state"].clone()))
}

/// Plays clocked games until `b.clocked_moves` moves were timed: before
/// each move a think time (20 to 220 ms); the charge is read from the
/// clocks before and after. Answers each move's |charge − think| and how
/// many charges were below the think time.
async fn clocked(
    client: &reqwest::Client,
    base: &str,
    b: &LobbyBench,
) -> Result<(Vec<f64>, usize)> {
    if b.clocked_moves == 0 {
        return Ok((vec![], 0));
    }
    let timed = Arc::new(Mutex::new(vec![]));
    let less = Arc::new(AtomicUsize::new(0));
    let mut players = vec![];
    for g in 0..b.clocked_games.max(1) {
        let (client, base, timed, less, want) = (
            client.clone(),
            base.to_string(),
            timed.clone(),
            less.clone(),
            b.clocked_moves,
        );
        players.push(tokio::spawn(async move {
            let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ (g as u64 + 1);
            let mut rand = move || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            loop {
                if timed.lock().map_or(true, |t| t.len() >= want) {
                    return Ok::<(), anyhow::Error>(());
                }
                let (id, tokens, mut state) = clocked_game(&client, &base).await?;
                let mut heard = Instant::now();
                while state["over"] == false {
                    let seat = state["seat_to_act"].as_u64().context("seat")? as usize;
                    let moves = state["moves"].as_array().context("moves")?;
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[(rand() % moves.len() as u64) as usize].clone();
                    let running = state["clock"]["running"].as_u64() == Some(seat as u64);
                    let before = state["clock"]["remaining_ms"][seat].as_i64();
                    let think = Duration::from_millis(20 + rand() % 200);
                    tokio::time::sleep_until((heard + think).into()).await;
                    let thought = heard.elapsed().as_secs_f64() * 1000.0;
                    let body =
                        json!({"type": "move", "move": mv, "expect_revision": state["revision"]});
                    let (st, v) = post(
                        &client,
                        &format!("{base}/api/games/{id}/action"),
                        Some(&tokens[seat]),
                        &body,
                    )
                    .await?;
                    heard = Instant::now();
                    if st != 200 {
                        bail!("a clocked move: {st} {v}");
                    }
                    state = v["state"].clone();
                    let after = state["clock"]["remaining_ms"][seat].as_i64();
                    let inc = state["clock"]["increment_ms"].as_i64().unwrap_or(0);
                    if let (true, Some(b), Some(a), false) =
                        (running, before, after, state["over"] == true)
                    {
                        let charged = (b - (a - inc)) as f64;
                        if charged < thought {
                            less.fetch_add(1, Ordering::Relaxed);
                        }
                        let mut t = timed.lock().map_err(|_| anyhow::anyhow!("lock"))?;
                        if t.len() >= want {
                            return Ok(());
                        }
                        t.push((charged - thought).abs());
                    }
                }
            }
        }));
    }
    for p in players {
        p.await??;
    }
    let t = timed.lock().map_err(|_| anyhow::anyhow!("lock"))?.clone();
    Ok((t, less.load(Ordering::Relaxed)))
}

/// Opens a WebSocket by hand: the upgrade request, then the `101` answer;
/// the stream is the socket's frames from then on.
async fn raw_upgrade(url: &str) -> Result<tokio::net::TcpStream> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("ws://").context("a ws:// address")?;
    let (host, path) = rest.split_once('/').context("a path")?;
    let mut stream = tokio::net::TcpStream::connect(host).await?;
    let request = format!(
        "GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await?;
    let mut head = vec![];
    let mut byte = [0u8; 1];
    // The answer's head, a byte at a time (once per socket), so no frame
    // after it is read here.
    while !head.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).await? == 0 || head.len() > 4096 {
            bail!("the upgrade was not answered");
        }
        head.push(byte[0]);
    }
    if !head.starts_with(b"HTTP/1.1 101") {
        bail!(
            "the upgrade was refused: {}",
            String::from_utf8_lossy(&head)
        );
    }
    Ok(stream)
}
