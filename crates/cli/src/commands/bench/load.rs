//! What the web app's load benchmarks share: a server started for the run,
//! latency summaries, and a JSON `POST`.

use anyhow::{bail, Context, Result};
use serde::Serialize;
use serde_json::Value;
use std::io::BufRead;

/// A server started for the run: killed when dropped.
pub(crate) struct Started {
    pub(crate) child: std::process::Child,
    data: std::path::PathBuf,
}

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

/// Runs a benchmark's work on `runtime` until it ends or is interrupted
/// (Ctrl-C, SIGTERM). Interrupted, it answers an error, so the caller's
/// [`Started`] is dropped: the server is stopped and its data directory
/// removed (hundreds of MiB after a long run), where the signal's default
/// would have left both behind.
///
/// # Errors
/// The work's error, or the interruption.
pub(crate) fn until_interrupted<T>(
    runtime: &tokio::runtime::Runtime,
    work: impl std::future::Future<Output = Result<T>>,
) -> Result<T> {
    runtime.block_on(async {
        tokio::select! {
            r = work => r,
            () = agon_server::signal::shutdown_signal() => bail!("interrupted"),
        }
    })
}

/// Starts `agon serve` on a free port with a fresh data directory, with the
/// per-client limits off: the rate limits and the per-address caps on
/// connections and sockets (every game and spectator of the run comes from
/// this one client).
pub(crate) fn start_server(evict_after_secs: u64) -> Result<(Started, String)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let data = std::env::temp_dir().join(format!("agon-bench-serve-{}-{port}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let mut child = std::process::Command::new(std::env::current_exe()?)
        .args(["serve", "--data"])
        .arg(&data)
        .args([
            "--port",
            &port.to_string(),
            "--engine-delay-ms",
            "0",
            "--rate-limit",
            "0",
            "--create-limit",
            "0",
            "--account-limit",
            "0",
            "--max-connections-per-address",
            "0",
            "--max-sockets-per-address",
            "0",
            "--evict-after-secs",
            &evict_after_secs.to_string(),
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .context("starting agon serve")?;
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().context("server output")?).read_line(&mut line)?;
    if !line.contains("Agon is running") {
        let _ = child.kill();
        bail!("the server did not start: {line}");
    }
    Ok((Started { child, data }, format!("http://127.0.0.1:{port}")))
}

/// The resident memory of a process, in MiB (Linux).
pub(crate) fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// p50, p90, p99, p99.9, max and mean of a sample, in milliseconds.
pub(crate) fn summary(mut ms: Vec<f64>) -> Latency {
    if ms.is_empty() {
        return Latency::default();
    }
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() as f64 * q).ceil() as usize).clamp(1, ms.len()) - 1];
    let round = |x: f64| Some((x * 100.0).round() / 100.0);
    Latency {
        samples: ms.len(),
        p50: round(at(0.50)),
        p90: round(at(0.90)),
        p99: round(at(0.99)),
        p99_9: round(at(0.999)),
        max: round(ms[ms.len() - 1]),
        mean: round(ms.iter().sum::<f64>() / ms.len() as f64),
    }
}

/// Latencies in milliseconds: quantiles, the worst and the mean (only
/// `samples` when there were none).
#[derive(Serialize, Default)]
pub struct Latency {
    /// How many were measured.
    pub samples: usize,
    /// The median.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p50: Option<f64>,
    /// The 90th percentile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p90: Option<f64>,
    /// The 99th percentile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p99: Option<f64>,
    /// The 99.9th percentile (the slowest one in a thousand: a long run's
    /// stalls show here before they reach p99).
    #[serde(rename = "p99.9", skip_serializing_if = "Option::is_none")]
    pub p99_9: Option<f64>,
    /// The slowest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// The mean.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
}

pub(crate) async fn post(
    client: &reqwest::Client,
    url: &str,
    token: Option<&str>,
    body: &impl Serialize,
) -> Result<(u16, Value)> {
    let mut req = client
        .post(url)
        .header("content-type", "application/json")
        .body(serde_json::to_string(body)?);
    if let Some(t) = token {
        req = req.header("x-agon-token", t);
    }
    let res = req.send().await?;
    let status = res.status().as_u16();
    let bytes = res.bytes().await?;
    Ok((
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    ))
}
