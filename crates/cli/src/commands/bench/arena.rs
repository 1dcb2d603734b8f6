//! `agon bench arena`: an arena of many simulated players over the real
//! HTTP API and their site sockets (each player online, as a page of Agon
//! makes her). Every bout is an Urgammon match to 1 that its second seat
//! resigns after a short think; each player waits for her next pairing,
//! which the server tells her through her site socket. Measured: from a
//! bout's end (the resignation's answer) to each of its two players seeing
//! her next game (the pairing latency the arena promises), the standings
//! read (`GET /api/tournaments/{id}`) while the arena runs, and the bouts
//! played.

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
    /// Reading the arena's page (standings, bouts) while it runs.
    pub standings_ms: Latency,
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
    let mut report = until_interrupted(&runtime, drive(b, &base))?;
    report.server_rss_mib = rss_mib(server.child.id());
    Ok(report)
}

/// What the players share: when each bout ended, the latencies, the errors.
#[derive(Default)]
struct Shared {
    ended: Mutex<HashMap<String, Instant>>,
    pairing: Mutex<Vec<f64>>,
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

async fn drive(b: &ArenaBench, base: &str) -> Result<ArenaReport> {
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
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut req = ws_url.as_str().into_client_request()?;
        req.headers_mut().insert("cookie", c.parse()?);
        let (ws, _) = tokio_tungstenite::connect_async(req).await?;
        sockets.push(ws);
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
    let started = Instant::now();
    let until = started + Duration::from_secs_f64(b.seconds);
    let mut tasks = vec![];
    for (i, (cookie, ws)) in cookies.into_iter().zip(sockets).enumerate() {
        let (client, base, id, shared) =
            (client.clone(), base.to_string(), id.clone(), shared.clone());
        let think = Duration::from_millis(b.think_ms);
        tasks.push(tokio::spawn(async move {
            play(i, client, base, id, cookie, ws, shared, think, until).await
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
    let pairing = shared.pairing.lock().map(|p| p.clone()).unwrap_or_default();
    Ok(ArenaReport {
        players: b.players,
        seconds: started.elapsed().as_secs_f64(),
        bouts: shared.bouts.load(Ordering::Relaxed),
        pairing_ms: summary(pairing),
        standings_ms: summary(standings),
        request_errors: shared.errors.load(Ordering::Relaxed),
        socket_errors: shared.socket_errors.load(Ordering::Relaxed),
        server_rss_mib: None,
    })
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One player: joins, then plays each bout she is paired in (the second
/// seat resigns after `think`), and times each pairing from the end of her
/// last bout.
#[allow(clippy::too_many_arguments)]
async fn play(
    i: usize,
    client: reqwest::Client,
    base: String,
    id: String,
    cookie: String,
    mut ws: Socket,
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
        // Her news: told on her socket, or looked at again each second.
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            loop {
                match ws.next().await {
                    Some(Ok(m))
                        if m.is_text() && m.to_text().is_ok_and(|t| t.contains("challenges")) =>
                    {
                        break
                    }
                    Some(Ok(_)) => {}
                    _ => {
                        shared.socket_errors.fetch_add(1, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        break;
                    }
                }
            }
        })
        .await;
        let (s, mine) = send(
            &client,
            reqwest::Method::GET,
            &format!("{base}/api/account/tournaments"),
            &cookie,
            None,
        )
        .await?;
        if s != 200 {
            shared.errors.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let Some(game) = mine["tournaments"]
            .as_array()
            .and_then(|l| l.iter().find_map(|t| t["you"]["game"].as_str()))
            .map(str::to_string)
        else {
            continue;
        };
        if last.as_deref() == Some(game.as_str()) {
            continue;
        }
        // Paired: timed from the end of her last bout.
        if let Some(prev) = &last {
            if let Some(at) = shared.ended.lock().ok().and_then(|e| e.get(prev).copied()) {
                if let Ok(mut p) = shared.pairing.lock() {
                    p.push(at.elapsed().as_secs_f64() * 1000.0);
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
        let second = state["state"]["players"][1]["name"].as_str() == Some(me.as_str());
        if second {
            tokio::time::sleep(think).await;
            // The bout ends during this request: timed from its start, so
            // the latency counted is never less than the real one.
            let sent = Instant::now();
            if let Ok(mut e) = shared.ended.lock() {
                e.insert(game.clone(), sent);
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
