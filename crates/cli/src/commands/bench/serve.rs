//! `agon bench serve`: a load generator for the web app. It starts a server
//! (or targets one at `--url`), drives N same-screen Ringo games over the real
//! HTTP API at a fixed rate of moves per game, watches them with K WebSocket
//! spectators, and reports acknowledgement latency, push latency, errors and
//! the server's memory.

use super::load::{post, rss_mib, start_server, summary, until_interrupted, Latency};
use crate::cli::{BenchOpponent, ServeBench};
use anyhow::{bail, Result};
use futures_util::StreamExt;
use serde::Serialize;
use serde_json::Value;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// When each game's recent moves were sent, by the revision they create, so a
/// spectator can time the push that carries them.
type Sent = Vec<Mutex<VecDeque<(i64, Instant)>>>;

/// `agon bench serve`'s report.
#[derive(Serialize)]
pub struct ServeReport {
    /// Games played at once.
    pub games: u32,
    /// Moves per second in each.
    pub rate: f64,
    /// Seconds of play.
    pub seconds: f64,
    /// WebSocket spectators.
    pub spectators: usize,
    /// Moves acknowledged.
    pub acked: usize,
    /// Of those, per second.
    pub acked_per_s: f64,
    /// Moves refused or failed.
    pub errors: usize,
    /// Acknowledgement latency.
    pub latency_ms: Latency,
    /// Push latency to the spectators.
    pub push_ms: Latency,
    /// Games created before the run and left stored.
    pub stored: usize,
    /// The server's games in memory (from `/api/health`).
    pub games_in_memory: Value,
    /// The server's store counters (from `/api/health`): on SQLite also
    /// where a change's time went, the slowest fsync of the write-ahead log
    /// (`fsync_max_ms`) beside the slowest acknowledgement the store gave
    /// (`ack_max_ms`), since the server started.
    pub store: Value,
    /// The started server's resident memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_rss_mib: Option<f64>,
    /// `started` (by the bench) or `given` (`--url`).
    pub server: &'static str,
    /// Instances driven.
    pub instances: usize,
    /// With `--opponent engine`: the computer's replies seen.
    pub engine_replies: usize,
    /// Of those, per second.
    pub engine_replies_per_s: f64,
    /// With `--opponent engine`: from a move's acknowledgement to the
    /// computer's reply being stored.
    pub reply_ms: Latency,
    /// With `--signins-per-s` or `--signins-at-once`: sign-ins answered 200.
    pub signins: usize,
    /// Their latency.
    pub signin_ms: Latency,
}

/// A request body of `POST /api/games`.
#[derive(Serialize)]
struct NewGame<'a> {
    game: &'a str,
    rules: &'a str,
    opponent: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    side: Option<&'a str>,
}

/// A request body of `POST /api/games/{id}/actions`: one move.
#[derive(Serialize)]
struct MoveAction<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    #[serde(rename = "move")]
    mv: &'a str,
}

/// A game being played: its id, token, legal moves and revision.
struct Game {
    id: String,
    token: String,
    moves: Vec<String>,
    revision: i64,
}

async fn new_game(client: &reqwest::Client, base: &str, engine: Option<u8>) -> Result<Game> {
    let body = NewGame {
        game: "ringo",
        rules: "classic,repetition=draw",
        opponent: if engine.is_some() { "engine" } else { "local" },
        level: engine,
        side: engine.map(|_| "attackers"),
    };
    let (status, v) = post(client, &format!("{base}/api/games"), None, &body).await?;
    if status != 201 {
        bail!("creating a game: {status} {v}");
    }
    Ok(Game {
        id: v["id"].as_str().unwrap_or_default().to_string(),
        token: v["token"].as_str().unwrap_or_default().to_string(),
        moves: moves_of(&v["state"]),
        revision: revision_of(&v["state"]).unwrap_or(0),
    })
}

/// A state's revision; a server from before revisions has only `version`,
/// which rises the same way in games without Undo.
fn revision_of(state: &Value) -> Option<i64> {
    state["revision"]
        .as_i64()
        .or_else(|| state["version"].as_i64())
}

fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|m| m.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Runs the benchmark and returns its figures as JSON.
///
/// # Errors
/// The server cannot be started or reached, or the games cannot be created.
pub fn run(b: &ServeBench) -> Result<ServeReport> {
    // Thousands of sockets need more than the usual 1024 open files.
    let _ = rlimit::increase_nofile_limit(u64::MAX);
    let (server, bases) = if b.url.is_empty() {
        let (s, url) = start_server(b.evict_after_secs)?;
        (Some(s), vec![url])
    } else {
        let urls = b.url.iter().map(|u| u.trim_end_matches('/').to_string());
        (None, urls.collect())
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let mut report = until_interrupted(&runtime, drive(b, &bases))?;
    report.server_rss_mib = server.as_ref().and_then(|s| rss_mib(s.child.id()));
    report.server = if server.is_some() { "started" } else { "given" };
    Ok(report)
}

/// Waits until a game's stored revision reaches `want` (the computer's
/// reply), looking every 20 ms; false after 60 s.
async fn wait_revision(client: &reqwest::Client, base: &str, id: &str, want: i64) -> Option<Value> {
    let until = Instant::now() + Duration::from_secs(60);
    while Instant::now() < until {
        if let Ok(r) = client.get(format!("{base}/api/games/{id}")).send().await {
            if let Ok(v) = r
                .bytes()
                .await
                .map_err(anyhow::Error::from)
                .and_then(|b| Ok(serde_json::from_slice::<Value>(&b)?))
            {
                if revision_of(&v["state"]).unwrap_or(-1) >= want {
                    return Some(v);
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

async fn drive(b: &ServeBench, bases: &[String]) -> Result<ServeReport> {
    let n = bases.len();
    let engine = (b.opponent == BenchOpponent::Engine).then_some(b.level);
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(4096)
        .tcp_nodelay(true)
        .timeout(Duration::from_secs(30))
        .build()?;
    for i in 0..b.stored {
        new_game(&client, &bases[i % n], None).await?;
    }
    let mut games = Vec::with_capacity(b.games as usize);
    for g in 0..b.games as usize {
        games.push(new_game(&client, &bases[g % n], engine).await?);
    }
    let sent: Arc<Sent> = Arc::new(
        (0..b.games as usize)
            .map(|_| Mutex::new(VecDeque::new()))
            .collect(),
    );
    let errors = Arc::new(AtomicUsize::new(0));
    let ws_bases: Vec<String> = bases.iter().map(|b| b.replacen("http", "ws", 1)).collect();
    // Spectators connect first, then play starts.
    let mut watchers = vec![];
    let connected = Arc::new(AtomicUsize::new(0));
    let duration = Duration::from_secs_f64(b.seconds.max(0.1));
    for s in 0..b.spectators {
        let g = s % b.games as usize;
        let url = format!("{}/api/games/{}/ws", ws_bases[(s + 1) % n], games[g].id);
        let (sent, errors, connected) = (sent.clone(), errors.clone(), connected.clone());
        watchers.push(tokio::spawn(async move {
            let mut pushes = vec![];
            let Ok((mut ws, _)) = tokio_tungstenite::connect_async(&url).await else {
                errors.fetch_add(1, Ordering::Relaxed);
                return pushes;
            };
            connected.fetch_add(1, Ordering::Relaxed);
            let end = Instant::now() + duration + Duration::from_secs(2);
            while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(end.into(), ws.next()).await {
                let Ok(text) = msg.into_text() else { continue };
                let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else {
                    continue;
                };
                if v["type"] != "state" {
                    continue;
                }
                let revision = revision_of(&v["state"]).unwrap_or(-1);
                let at = sent[g]
                    .lock()
                    .ok()
                    .and_then(|q| q.iter().find(|(r, _)| *r == revision).map(|(_, t)| *t));
                if let Some(t) = at {
                    pushes.push(t.elapsed().as_secs_f64() * 1000.0);
                }
            }
            pushes
        }));
    }
    while connected.load(Ordering::Relaxed) + errors.load(Ordering::Relaxed) < b.spectators {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let start = Instant::now();
    let deadline = start + duration;
    let signins = if b.signins_at_once > 0 {
        let (client, base, n) = (client.clone(), bases[0].clone(), b.signins_at_once);
        Some(tokio::spawn(async move {
            super::signin::load_at_once(&client, &base, n, deadline).await
        }))
    } else {
        (b.signins_per_s > 0.0).then(|| {
            let (client, base) = (client.clone(), bases[0].clone());
            let every = Duration::from_secs_f64(1.0 / b.signins_per_s);
            tokio::spawn(async move { super::signin::load(&client, &base, every, deadline).await })
        })
    };
    let mut players = vec![];
    for (g, mut game) in games.into_iter().enumerate() {
        let (client, bases, sent, errors) =
            (client.clone(), bases.to_vec(), sent.clone(), errors.clone());
        let rate = b.rate;
        players.push(tokio::spawn(async move {
            let mut latencies = vec![];
            let mut replies = vec![];
            let mut turn = g;
            let mut seed =
                0x9e37_79b9_7f4a_7c15u64 ^ (g as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            let mut next_rand = move || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            };
            let interval = (rate > 0.0).then(|| Duration::from_secs_f64(1.0 / rate));
            // Spread the games' moves evenly over the interval.
            let mut next =
                interval.map(|i| start + i.mul_f64((next_rand() % 1000) as f64 / 1000.0));
            loop {
                if let Some(at) = next {
                    if at >= deadline {
                        break;
                    }
                    tokio::time::sleep_until(at.into()).await;
                    next = Some(at + interval.unwrap_or_default());
                } else if Instant::now() >= deadline {
                    break;
                }
                turn += 1;
                let base = &bases[turn % n];
                if game.moves.is_empty() {
                    match new_game(&client, base, engine).await {
                        Ok(fresh) => game = fresh,
                        Err(_) => {
                            errors.fetch_add(1, Ordering::Relaxed);
                            continue;
                        }
                    }
                }
                let m = game.moves[(next_rand() % game.moves.len() as u64) as usize].clone();
                let t0 = Instant::now();
                if let Ok(mut q) = sent[g].lock() {
                    q.push_back((game.revision + 1, t0));
                    if q.len() > 8 {
                        q.pop_front();
                    }
                }
                let url = format!("{base}/api/games/{}/action", game.id);
                match post(
                    &client,
                    &url,
                    Some(&game.token),
                    &MoveAction {
                        kind: "move",
                        mv: &m,
                    },
                )
                .await
                {
                    Ok((200, mut v)) => {
                        latencies.push(t0.elapsed().as_secs_f64() * 1000.0);
                        game.revision = revision_of(&v["state"]).unwrap_or(game.revision + 1);
                        if engine.is_some() && v["state"]["over"] != true {
                            // The computer's reply, stored by whichever
                            // process computes it.
                            let t1 = Instant::now();
                            let other = &bases[(turn + 1) % n];
                            match wait_revision(&client, other, &game.id, game.revision + 1).await {
                                Some(r) => {
                                    replies.push(t1.elapsed().as_secs_f64() * 1000.0);
                                    v = r;
                                    game.revision =
                                        revision_of(&v["state"]).unwrap_or(game.revision + 1);
                                }
                                None => {
                                    errors.fetch_add(1, Ordering::Relaxed);
                                }
                            }
                        }
                        game.moves = if v["state"]["over"] == true {
                            vec![]
                        } else {
                            moves_of(&v["state"])
                        };
                    }
                    _ => {
                        errors.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            (latencies, replies)
        }));
    }
    let mut latencies = vec![];
    let mut replies = vec![];
    for p in players {
        let (l, r) = p.await.unwrap_or_default();
        latencies.extend(l);
        replies.extend(r);
    }
    let elapsed = start.elapsed().as_secs_f64();
    let signin_ms = match signins {
        Some(task) => task.await.unwrap_or_default(),
        None => vec![],
    };
    let mut pushes = vec![];
    for w in watchers {
        pushes.extend(w.await.unwrap_or_default());
    }
    // The server's own count of changes and commits: how many moves shared
    // one fsync.
    let store = match client.get(format!("{}/api/health", bases[0])).send().await {
        Ok(r) => r
            .bytes()
            .await
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .unwrap_or(Value::Null),
        Err(_) => Value::Null,
    };
    let acked = latencies.len();
    Ok(ServeReport {
        games: b.games,
        rate: b.rate,
        seconds: (elapsed * 100.0).round() / 100.0,
        spectators: b.spectators,
        acked,
        acked_per_s: ((acked as f64 / elapsed) * 10.0).round() / 10.0,
        errors: errors.load(Ordering::Relaxed),
        latency_ms: summary(latencies),
        push_ms: summary(pushes),
        stored: b.stored,
        games_in_memory: store["games_in_memory"].clone(),
        store: store["store"].clone(),
        server_rss_mib: None,
        server: "given",
        instances: n,
        engine_replies: replies.len(),
        engine_replies_per_s: ((replies.len() as f64 / elapsed) * 100.0).round() / 100.0,
        reply_ms: summary(replies),
        signins: signin_ms.len(),
        signin_ms: summary(signin_ms),
    })
}
