//! `agon bench signin`: what a sign-in costs (one Argon2id verification, on
//! the server's blocking pool), one at a time and many at once; and the
//! sign-in load `agon bench serve --signins-per-s` sends beside the games.

use super::load::{post, start_server, summary, until_interrupted, Latency};
use anyhow::{bail, Result};
use serde::Serialize;
use std::time::{Duration, Instant};

/// The benchmark's account.
const NAME: &str = "bench-signin";
/// Its password.
const PASSWORD: &str = "a bench password, not a common one";

/// `POST /api/account/signup` and `login`'s body.
#[derive(Serialize)]
struct Credentials<'a> {
    name: &'a str,
    password: &'a str,
}

/// `agon bench signin`'s report.
#[derive(Serialize)]
pub struct SigninReport {
    /// Sign-ins one after the other: the cost of one.
    pub one_ms: Latency,
    /// Sign-ins at once in each round.
    pub concurrent: usize,
    /// Rounds.
    pub rounds: usize,
    /// Every sign-in of the concurrent rounds, from its request to its answer.
    pub concurrent_ms: Latency,
    /// Sign-ins refused or failed.
    pub errors: usize,
    /// The machine's cores (the server hashes at most one password per core
    /// at once).
    pub cores: usize,
}

/// Makes the benchmark's account (or finds it made).
async fn account(client: &reqwest::Client, base: &str) -> Result<()> {
    let body = Credentials {
        name: NAME,
        password: PASSWORD,
    };
    let (status, v) = post(client, &format!("{base}/api/account/signup"), None, &body).await?;
    if status != 201 && status != 409 {
        bail!("signing up: {status} {v}");
    }
    Ok(())
}

/// One sign-in: its latency in milliseconds, or `None` when refused.
async fn sign_in(client: &reqwest::Client, base: &str) -> Option<f64> {
    let t0 = Instant::now();
    let body = Credentials {
        name: NAME,
        password: PASSWORD,
    };
    match post(client, &format!("{base}/api/account/login"), None, &body).await {
        Ok((200, _)) => Some(t0.elapsed().as_secs_f64() * 1000.0),
        _ => None,
    }
}

/// Sends a sign-in every `every` until `deadline`, each on its own task (as
/// people's requests overlap); answers the latencies of those answered 200.
pub(super) async fn load(
    client: &reqwest::Client,
    base: &str,
    every: Duration,
    deadline: Instant,
) -> Vec<f64> {
    if account(client, base).await.is_err() {
        return vec![];
    }
    let mut tasks = vec![];
    let mut next = Instant::now();
    while next < deadline {
        tokio::time::sleep_until(next.into()).await;
        let (client, base) = (client.clone(), base.to_string());
        tasks.push(tokio::spawn(async move { sign_in(&client, &base).await }));
        next += every;
    }
    let mut out = vec![];
    for t in tasks {
        if let Ok(Some(ms)) = t.await {
            out.push(ms);
        }
    }
    out
}

/// Keeps `n` sign-ins in flight until `deadline` (each of `n` workers signs
/// in again as soon as its last one is answered); their latencies in ms.
pub(super) async fn load_at_once(
    client: &reqwest::Client,
    base: &str,
    n: usize,
    deadline: Instant,
) -> Vec<f64> {
    if account(client, base).await.is_err() {
        return vec![];
    }
    let workers: Vec<_> = (0..n)
        .map(|_| {
            let (client, base) = (client.clone(), base.to_string());
            tokio::spawn(async move {
                let mut out = vec![];
                while Instant::now() < deadline {
                    if let Some(ms) = sign_in(&client, &base).await {
                        out.push(ms);
                    }
                }
                out
            })
        })
        .collect();
    let mut out = vec![];
    for w in workers {
        out.extend(w.await.unwrap_or_default());
    }
    out
}

/// Runs the benchmark on a server started for it.
///
/// # Errors
/// The server cannot be started or the account made.
pub fn run(concurrent: usize, rounds: usize, sequential: usize) -> Result<SigninReport> {
    let (_server, base) = start_server(600)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    until_interrupted(&runtime, async {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(256)
            .timeout(Duration::from_secs(60))
            .build()?;
        account(&client, &base).await?;
        let mut errors = 0;
        let mut one = vec![];
        for _ in 0..sequential {
            match sign_in(&client, &base).await {
                Some(ms) => one.push(ms),
                None => errors += 1,
            }
        }
        let mut many = vec![];
        for _ in 0..rounds {
            let tasks: Vec<_> = (0..concurrent)
                .map(|_| {
                    let (client, base) = (client.clone(), base.clone());
                    tokio::spawn(async move { sign_in(&client, &base).await })
                })
                .collect();
            for t in tasks {
                match t.await {
                    Ok(Some(ms)) => many.push(ms),
                    _ => errors += 1,
                }
            }
        }
        Ok(SigninReport {
            one_ms: summary(one),
            concurrent,
            rounds,
            concurrent_ms: summary(many),
            errors,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        })
    })
}
