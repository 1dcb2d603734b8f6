//! Helpers shared by the CLI tests: run `agon` and read its JSON.
#![allow(dead_code)]

use serde_json::Value;
use std::io::{Read, Write};
use std::process::{Command, Output};

/// Runs `agon` with arguments and returns its output.
pub fn agon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(args)
        .output()
        .expect("agon runs")
}

/// The one-line JSON object a successful command printed.
pub fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(
        text.lines().count(),
        1,
        "one JSON object on one line: {text}"
    );
    serde_json::from_str(&text).unwrap()
}

/// Runs `agon` with arguments, writes `input` to its stdin, closes it, and
/// returns what it printed on stdout.
pub fn agon_with_input(args: &[&str], input: &[u8]) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("agon runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("agon reads its input");
    String::from_utf8(child.wait_with_output().expect("agon ends").stdout).expect("UTF-8 output")
}

/// A TCP port nobody listens on now, below the kernel's ephemeral range
/// (32768–60999 on Linux). A port the OS hands out for `:0` comes from that
/// range, which every outgoing connection of every test also draws from:
/// between this check and the server's bind, a client socket of another test
/// could take it ("Address already in use" on a busy CI machine). Below it,
/// only another test's pick could collide, and picks are random.
pub fn free_port() -> u16 {
    use std::hash::{BuildHasher, RandomState};
    let seed = RandomState::new();
    for attempt in 0u64..1000 {
        let port = 20_000 + (seed.hash_one(attempt) % 12_000) as u16;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free local port between 20000 and 32000")
}

/// Starts `agon serve` on a free port with `data` as its data directory and
/// the extra flags, and waits for its "running" line; returns it and its port.
pub fn start_serve(data: &std::path::Path, extra: &[&str]) -> (std::process::Child, u16) {
    use std::io::BufRead;
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args([
            "serve",
            "--data",
            data.to_str().unwrap(),
            "--port",
            &port.to_string(),
        ])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("agon serve starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().expect("stdout is piped"))
        .read_line(&mut line)
        .expect("agon serve prints its address");
    assert!(line.contains("Agon is running"), "{line}");
    (child, port)
}

/// The moves of a seeded random legal Ringo game under `rules`, at most `n`.
pub fn random_ringo_moves(rules: &str, n: usize, seed: u64) -> Vec<String> {
    let mut game = ringo::Game::new(rules.parse().unwrap());
    let mut seed = seed;
    let mut out = vec![];
    while !game.is_over() && out.len() < n {
        let legal = game.legal_moves();
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let m = legal[(seed >> 33) as usize % legal.len()];
        out.push(m.to_notation(&legal));
        game.play_unchecked(m);
    }
    out
}

/// A minimal HTTP/1.1 client: returns (status, body).
pub fn http(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> std::io::Result<(u16, String)> {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
    let auth = token
        .map(|t| format!("x-agon-token: {t}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n{auth}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut response = String::new();
    s.read_to_string(&mut response)?;
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok((status, body))
}

/// Stops a server started with its stderr piped and returns what it logged.
pub fn stop_and_read_log(mut child: std::process::Child) -> String {
    child.kill().unwrap();
    let mut log = String::new();
    child
        .stderr
        .take()
        .expect("stderr is piped")
        .read_to_string(&mut log)
        .unwrap();
    let _ = child.wait();
    log
}

/// `n` Ringo games under `rules` for two people at one screen, made on the
/// server at `port`: each one's id and seat token.
pub fn local_games(port: u16, rules: &str, n: usize) -> Vec<(String, String)> {
    (0..n)
        .map(|_| {
            let body = format!(r#"{{"game":"ringo","rules":"{rules}","opponent":"local"}}"#);
            let (status, body) = http(port, "POST", "/api/games", None, &body).unwrap();
            assert_eq!(status, 201, "{body}");
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            let text = |k: &str| v[k].as_str().unwrap().to_string();
            (text("id"), text("token"))
        })
        .collect()
}

/// Plays move `m` in game `id` with seat token `token`: the answer.
pub fn play_move(port: u16, id: &str, token: &str, m: &str) -> (u16, String) {
    let body = format!(r#"{{"type":"move","move":"{m}"}}"#);
    http(
        port,
        "POST",
        &format!("/api/games/{id}/action"),
        Some(token),
        &body,
    )
    .unwrap()
}

/// The moves played in game `id`, read with `token`.
pub fn history(port: u16, id: &str, token: &str) -> Vec<String> {
    let (status, body) = http(port, "GET", &format!("/api/games/{id}"), Some(token), "").unwrap();
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    v["state"]["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// Starts `agon GLOBAL… serve --data DATA --port P SERVE…` with its stdout
/// and stderr piped, and reads its first line: the child, its port and that
/// line.
pub fn serve_piped(
    data: &std::path::Path,
    global: &[&str],
    serve: &[&str],
) -> (std::process::Child, u16, String) {
    use std::io::BufRead;
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(global)
        .args(["serve", "--data", data.to_str().unwrap()])
        .args(["--port", &port.to_string()])
        .args(serve)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, port, line)
}

/// What `agon --version` prints.
pub fn agon_version() -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_agon"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `promtool check metrics` (Prometheus's own checker, Debian's
/// `prometheus`) on a scrape: every family with its help and type; skipped
/// only where promtool is missing outside `./test.sh` (which installs it).
pub fn promtool_checks(body: &str) {
    use std::io::Write;
    let Ok(mut child) = Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
    else {
        assert!(
            std::env::var_os("AGON_REQUIRE_ALL").is_none(),
            "promtool is missing, and ./test.sh (AGON_REQUIRE_ALL) runs every check"
        );
        eprintln!("promtool is missing: the scrape was not checked by it");
        return;
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(body.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "promtool: {}{}\n{body}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A fresh working directory for one test (`agon-TAG-PID` in the temporary
/// folder), removed at the end.
pub struct WorkDir(pub std::path::PathBuf);

impl WorkDir {
    /// Makes it afresh.
    pub fn new(tag: &str) -> WorkDir {
        let p = std::env::temp_dir().join(format!("agon-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        WorkDir(p)
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `agon` in `dir` (its defaults, such as `agon-data`, are there).
pub fn agon_in(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agon"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("agon runs")
}
