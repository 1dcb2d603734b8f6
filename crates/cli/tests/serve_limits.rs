//! `agon serve` against slow and greedy clients, over real sockets: header
//! and idle timeouts, the connection cap, the WebSocket caps.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

struct Server {
    child: Child,
    port: u16,
    data: std::path::PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data);
    }
}

fn start(extra: &[&str]) -> Server {
    let data = std::env::temp_dir().join(format!(
        "agon-limits-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let (child, port) = common::start_serve(&data, extra);
    Server { child, port, data }
}

/// Tells the data directories of tests running at once apart.
static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A whole GET on a fresh connection: the status, or None if it failed.
fn get(port: u16, path: &str) -> Option<u16> {
    get_on(TcpStream::connect(("127.0.0.1", port)).ok()?, path)
}

/// A whole GET on a connection just opened: the status, or None.
fn get_on(mut s: TcpStream, path: &str) -> Option<u16> {
    s.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    text.split(' ').nth(1)?.parse().ok()
}

/// Creates a game of two people at one screen; returns its id.
async fn new_local_game(port: u16) -> String {
    let v: serde_json::Value = serde_json::from_slice(
        &{
            // reqwest is built with TLS (for Web Push): its provider first.
            agon_server::push::install_tls();
            reqwest::Client::new()
        }
        .post(format!("http://127.0.0.1:{port}/api/games"))
        .header("content-type", "application/json")
        .body(r#"{"game":"ringo","opponent":"local"}"#)
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap(),
    )
    .unwrap();
    v["id"].as_str().unwrap().to_string()
}

/// Whether the server closed this connection within `within`.
fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 512];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue, // a 408 or the like, then the close
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn slow_and_idle_connections_are_closed_and_cannot_starve_others() {
    let server = start(&["--header-timeout-secs", "1", "--max-connections", "64"]);
    // Partial headers, never finished: closed after the header timeout.
    let mut slow = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    slow.write_all(b"GET /api/games HTTP/1.1\r\nHost: loc")
        .unwrap();
    let t = Instant::now();
    assert!(
        closed_within(&mut slow, Duration::from_secs(5)),
        "a slow client is cut off"
    );
    assert!(
        t.elapsed() < Duration::from_secs(4),
        "after about the timeout: {:?}",
        t.elapsed()
    );
    // A kept-alive connection that stays idle is closed too.
    let mut idle = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    idle.write_all(b"GET /api/meta HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .unwrap();
    let mut first = [0u8; 64];
    idle.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    assert!(
        idle.read(&mut first).unwrap() > 0,
        "the request is answered"
    );
    assert!(
        closed_within(&mut idle, Duration::from_secs(5)),
        "then the idle connection is closed"
    );
    // Fill every connection slot with half-open connections: a normal request
    // waits, but is served once the timeout frees them.
    let hogs: Vec<TcpStream> = (0..64)
        .map(|_| {
            let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
            let _ = s.write_all(b"GET / HTTP/1.1\r\n");
            s
        })
        .collect();
    let t = Instant::now();
    assert_eq!(
        get(server.port, "/api/meta"),
        Some(200),
        "served after the hogs time out"
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    drop(hogs);
    assert_eq!(get(server.port, "/api/meta"), Some(200));
}

#[test]
fn websockets_are_capped_per_game_and_in_all() {
    let server = start(&["--max-sockets-per-game", "2", "--max-sockets", "3"]);
    let port = server.port;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let mut ids = vec![];
        for _ in 0..2 {
            ids.push(new_local_game(port).await);
        }
        let url = |id: &str| format!("ws://127.0.0.1:{port}/api/games/{id}/ws");
        let a1 = tokio_tungstenite::connect_async(url(&ids[0]))
            .await
            .unwrap();
        let a2 = tokio_tungstenite::connect_async(url(&ids[0]))
            .await
            .unwrap();
        // A third on the same game is refused, with a JSON 503.
        match tokio_tungstenite::connect_async(url(&ids[0])).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
                assert_eq!(res.status().as_u16(), 503);
                let body =
                    String::from_utf8_lossy(res.body().as_deref().unwrap_or_default()).to_string();
                assert!(body.contains("too many live connections"), "{body}");
            }
            other => panic!(
                "the third socket on a game was accepted: {:?}",
                other.map(|_| ())
            ),
        }
        let b1 = tokio_tungstenite::connect_async(url(&ids[1]))
            .await
            .unwrap();
        assert!(
            tokio_tungstenite::connect_async(url(&ids[1]))
                .await
                .is_err(),
            "at most three in all"
        );
        // Closing one frees its place, once the server has seen it close
        // (retried for a while: a loaded machine may take longer than a
        // fixed pause).
        drop(a1);
        let t = Instant::now();
        let again = loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            match tokio_tungstenite::connect_async(url(&ids[1])).await {
                Ok(s) => break Some(s),
                Err(_) if t.elapsed() < Duration::from_secs(10) => continue,
                Err(_) => break None,
            }
        };
        assert!(again.is_some(), "a freed place can be used");
        drop((a2, b1, again));
    });
}

#[test]
fn bench_serve_drives_games_and_reports_latency() {
    let out = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args([
            "bench",
            "serve",
            "--games",
            "4",
            "--rate",
            "5",
            "--seconds",
            "1.5",
            "--spectators",
            "4",
            "--stored",
            "3",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["errors"], 0, "{v}");
    assert!(
        v["acked"].as_u64().unwrap() >= 12,
        "4 games × 5 moves/s × 1.5 s: {v}"
    );
    for key in ["p50", "p90", "p99", "max"] {
        assert!(v["latency_ms"][key].as_f64().unwrap() > 0.0, "{key}: {v}");
    }
    assert!(
        v["push_ms"]["samples"].as_u64().unwrap() > 0,
        "spectators timed the pushes: {v}"
    );
    assert!(v["server_rss_mib"].as_f64().unwrap() > 1.0, "{v}");
    assert_eq!(v["games_in_memory"], 7, "stored and played games: {v}");
    assert!(v["store"]["commits"].as_u64().unwrap() <= v["store"]["changes"].as_u64().unwrap());
    // A server that is not there: a clear error, exit 1 or 2, no panic.
    let out = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args([
            "bench",
            "serve",
            "--games",
            "1",
            "--seconds",
            "1",
            "--url",
            "http://127.0.0.1:9",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

/// A benchmark interrupted mid-run (Ctrl-C, SIGTERM) stops the server it
/// started and removes that server's data directory: a long run's
/// directory held hundreds of MiB, and interrupted runs used to leave them
/// in /tmp.
#[test]
fn an_interrupted_bench_leaves_no_server_and_no_data_behind() {
    use std::io::BufRead;
    for signal in ["-INT", "-TERM"] {
        let mut bench = Command::new(env!("CARGO_BIN_EXE_agon"))
            .args([
                "bench",
                "lobby",
                "--sockets",
                "20",
                "--seconds",
                "600",
                "--clocked-moves",
                "0",
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pid = bench.id();
        let prefix = format!("agon-bench-serve-{pid}-");
        let data_dirs = || -> Vec<std::path::PathBuf> {
            std::fs::read_dir(std::env::temp_dir())
                .unwrap()
                .filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
                .map(|e| e.path())
                .collect()
        };
        // The seeks have begun once the sockets are open.
        let mut err = std::io::BufReader::new(bench.stderr.take().unwrap());
        let mut line = String::new();
        while !line.contains("lobby sockets open") {
            line.clear();
            assert!(
                err.read_line(&mut line).unwrap() > 0,
                "the bench ended early"
            );
        }
        let dirs = data_dirs();
        assert_eq!(dirs.len(), 1, "the started server's data: {dirs:?}");
        // The server, found by its data directory (an orphan too).
        let server = || {
            let out = Command::new("pgrep")
                .args(["-f", &dirs[0].to_string_lossy()])
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).trim().to_string()
        };
        assert!(!server().is_empty(), "the bench's server runs");
        assert!(Command::new("kill")
            .args([signal, &pid.to_string()])
            .status()
            .unwrap()
            .success());
        let status = bench.wait().unwrap();
        // The rest of the bench's output (a server left running would hold
        // the pipe open: not waited for past a few seconds).
        let (send, receive) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = err.read_to_string(&mut rest);
            let _ = send.send(rest);
        });
        let rest = receive
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_default();
        let left = server();
        if !left.is_empty() {
            let _ = Command::new("kill").args(["-KILL", &left]).status();
            let _ = std::fs::remove_dir_all(&dirs[0]);
        }
        assert!(left.is_empty(), "{signal}: the server is stopped");
        assert!(
            data_dirs().is_empty(),
            "{signal}: the data directory is removed"
        );
        assert_eq!(status.code(), Some(2), "{signal}: an error's code: {rest}");
        assert!(rest.contains("interrupted"), "{signal}: {rest}");
        assert!(!rest.contains("panicked"), "{signal}: {rest}");
    }
}

/// SIGTERM closes every open WebSocket (a game's, the lobby's) with 1012
/// ("service restart") before the process exits, so each page reconnects
/// instead of seeing a dropped line. The upgraded sockets outlive their HTTP connections, so the server
/// must wait for them, not only for the connections (a CI run once exited
/// before a socket had sent its close frame).
#[test]
fn sigterm_closes_every_socket_with_a_reconnect_hint() {
    use futures_util::StreamExt;
    let mut server = start(&[]);
    let port = server.port;
    let pid = server.child.id();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let codes = runtime.block_on(async move {
        let id = new_local_game(port).await;
        let mut sockets = vec![];
        for _ in 0..12 {
            let (mut s, _) = tokio_tungstenite::connect_async(format!(
                "ws://127.0.0.1:{port}/api/games/{id}/ws"
            ))
            .await
            .unwrap();
            let _ = s.next().await; // the state
            sockets.push(s);
        }
        // The lobby's sockets too (they write through an outbox of their
        // own, not the game sockets' type).
        for _ in 0..3 {
            let (mut s, _) =
                tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}/api/lobby/ws"))
                    .await
                    .unwrap();
            let _ = s.next().await; // the whole lobby
            sockets.push(s);
        }
        let status = Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let mut codes = vec![];
        for mut s in sockets {
            let mut code = None;
            while let Ok(Some(Ok(msg))) =
                tokio::time::timeout(Duration::from_secs(10), s.next()).await
            {
                if let tokio_tungstenite::tungstenite::Message::Close(Some(frame)) = msg {
                    code = Some(u16::from(frame.code));
                    break;
                }
            }
            codes.push(code);
        }
        codes
    });
    assert!(
        codes.iter().all(|c| *c == Some(1012)),
        "every socket closed with 1012: {codes:?}"
    );
    let exited = server.child.wait().unwrap();
    assert!(exited.success(), "the server stops cleanly: {exited:?}");
}

#[test]
fn websockets_count_against_their_addresss_share_of_connections() {
    // Sockets themselves may be many (1,000 per address): the connection
    // share (4 here, 256 by default) must still hold, upgraded or not.
    let server = start(&["--max-connections-per-address", "4"]);
    let port = server.port;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let id = new_local_game(port).await;
        let game = format!("ws://127.0.0.1:{port}/api/games/{id}/ws");
        let lobby = format!("ws://127.0.0.1:{port}/api/lobby/ws");
        let mut open = vec![];
        for url in [&game, &lobby, &game, &lobby] {
            let (s, _) = tokio_tungstenite::connect_async(url).await.unwrap();
            open.push(s);
        }
        // A fifth socket, or any request, from the same address: 503.
        match tokio_tungstenite::connect_async(&game).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(res)) => {
                assert_eq!(res.status().as_u16(), 503);
            }
            Err(e) => {
                // The server may close before the client has read its
                // answer: refused either way.
                eprintln!("the fifth socket was refused: {e}");
            }
            Ok(_) => panic!("a fifth socket from one address was accepted"),
        }
        assert_ne!(
            get(port, "/api/meta"),
            Some(200),
            "the address has its share"
        );
        // Another address is not locked out.
        let other =
            tokio::task::spawn_blocking(move || get_from([127, 0, 0, 2], port, "/api/meta"));
        assert_eq!(other.await.unwrap(), Some(200));
        // A socket closed gives its place back.
        drop(open.pop());
        let t = Instant::now();
        while get(port, "/api/meta") != Some(200) {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "the place never came back"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        drop(open);
    });
}

#[test]
fn a_draining_server_says_stopping_while_it_still_serves() {
    let mut server = start(&["--drain-secs", "2"]);
    let port = server.port;
    assert_eq!(get(port, "/api/health"), Some(200));
    let _ = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status();
    let t = Instant::now();
    // The load balancer's check sees 503 at once; players are still served.
    let mut saw = None;
    while t.elapsed() < Duration::from_millis(1_500) {
        saw = get(port, "/api/health");
        if saw == Some(503) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(saw, Some(503), "health while draining");
    assert_eq!(
        get(port, "/api/meta"),
        Some(200),
        "still serving while draining"
    );
    // Then it stops, after the drain.
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(t.elapsed() < Duration::from_secs(15), "it never stopped");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    assert!(
        t.elapsed() >= Duration::from_secs(2),
        "stopped before the drain ended"
    );
}

/// A whole GET on a fresh connection from `local`, a loopback address of
/// the client's choosing (127.0.0.2 is another client than 127.0.0.1).
fn get_from(local: [u8; 4], port: u16, path: &str) -> Option<u16> {
    let socket = std::net::SocketAddr::from((local, 0));
    get_on(socket2_connect(socket, port)?, path)
}

/// A TCP connection to the server's port from a chosen local address.
fn socket2_connect(local: std::net::SocketAddr, port: u16) -> Option<TcpStream> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .ok()?;
    runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().ok()?;
        socket.bind(local).ok()?;
        let stream = socket
            .connect(std::net::SocketAddr::from(([127, 0, 0, 1], port)))
            .await
            .ok()?;
        let std = stream.into_std().ok()?;
        std.set_nonblocking(false).ok()?;
        Some(std)
    })
}

#[test]
fn ten_thousand_silent_connections_lock_nobody_out() {
    // The defaults, but a short header timeout: one address holds at most
    // 256 of the 10,000 slots.
    let server = start(&["--header-timeout-secs", "4"]);
    let port = server.port;
    let t = Instant::now();
    let mut silent = vec![];
    for _ in 0..10_000 {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(s) => silent.push(s),
            Err(e) => panic!("connection {} failed: {e}", silent.len()),
        }
    }
    let opened = t.elapsed();
    // Another client is served at once, though 10,000 connections that say
    // nothing are open.
    let t = Instant::now();
    assert_eq!(get_from([127, 0, 0, 2], port, "/api/meta"), Some(200));
    let served = t.elapsed();
    assert!(served < Duration::from_secs(2), "served after {served:?}");
    // The attacker's own address gets its share, no more: past it, a 503.
    let mut past_share = TcpStream::connect(("127.0.0.1", port)).unwrap();
    past_share
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut answer = String::new();
    let _ = past_share.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer:?}");
    assert!(answer.contains("too-many-connections"), "{answer}");
    // Every silent connection is closed after the header timeout.
    let t = Instant::now();
    let mut still_open = 0;
    for s in &mut silent {
        let left = Duration::from_secs(12)
            .saturating_sub(t.elapsed())
            .max(Duration::from_millis(100));
        if !closed_within(s, left) {
            still_open += 1;
        }
    }
    assert_eq!(still_open, 0, "silent connections left open");
    // And the attacker's address is served again once they are gone.
    drop(silent);
    let t = Instant::now();
    let again = loop {
        match get(port, "/api/meta") {
            Some(200) => break true,
            _ if t.elapsed() < Duration::from_secs(5) => {
                std::thread::sleep(Duration::from_millis(100))
            }
            _ => break false,
        }
    };
    assert!(again, "127.0.0.1 is served again");
    eprintln!(
        "10,000 silent connections opened in {opened:?}; a fresh client served in {served:?}"
    );
}

#[test]
fn an_http2_preface_that_goes_quiet_is_closed() {
    let server = start(&["--header-timeout-secs", "1"]);
    // The prior-knowledge preface and an empty SETTINGS frame, then nothing.
    let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    s.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00")
        .unwrap();
    let t = Instant::now();
    assert!(
        closed_within(&mut s, Duration::from_secs(5)),
        "never closed"
    );
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    // Half a preface, the same.
    let mut s = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    s.write_all(b"PRI * HT").unwrap();
    assert!(
        closed_within(&mut s, Duration::from_secs(5)),
        "never closed"
    );
}

#[test]
fn a_first_move_wait_out_of_range_is_a_clear_error() {
    // The claim's wait too: both are seconds in a range.
    let cases = [
        ("--first-move-secs", ["0", "601", "-3", "soon"]),
        ("--claim-after-secs", ["0", "3601", "-3", "soon"]),
    ];
    for (flag, bads) in cases {
        for bad in bads {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_agon"))
                .args(["serve", &format!("{flag}={bad}")])
                .output()
                .expect("agon runs");
            assert_eq!(
                out.status.code(),
                Some(2),
                "{flag}={bad}: refused by the flag parser"
            );
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(flag), "{bad}: the error names the flag: {err}");
        }
    }
}
