//! `agon serve`'s log: JSON lines with `--log-format json`, the requests at
//! debug level, and a clear refusal of a bad `--log-level`.

mod common;

use std::io::{Read, Write};
use std::process::Command;

/// Starts `agon serve` on `data` with its log as JSON at `level` on a piped
/// stderr, and waits for its "running" line; returns it and its port.
fn serve_logging_json(data: &std::path::Path, level: &str) -> (std::process::Child, u16) {
    let (child, port, line) =
        common::serve_piped(data, &["--log-format", "json", "--log-level", level], &[]);
    // JSON from the first line: the start line too.
    let banner: serde_json::Value =
        serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON: {line}"));
    assert!(
        banner["message"]
            .as_str()
            .unwrap()
            .contains("Agon is running"),
        "{line}"
    );
    assert_eq!(banner["addr"], format!("127.0.0.1:{port}"));
    (child, port)
}

#[test]
fn the_access_log_shows_each_request_at_info_level() {
    let data = std::env::temp_dir().join(format!("agon-access-{}", std::process::id()));
    let (child, port, _) = common::serve_piped(&data, &["--log-format", "json"], &["--access-log"]);
    // A browser's request, with its user agent.
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "GET /api/meta HTTP/1.1\r\nHost: localhost\r\nUser-Agent: TestBrowser/1.0 (\"quoted\")\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    let log = common::stop_and_read_log(child);
    let _ = std::fs::remove_dir_all(&data);
    let seen = log
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|e| {
            e["span"]["uri"] == "/api/meta"
                && e["fields"]["message"] == "finished processing request"
        });
    let event = seen.unwrap_or_else(|| panic!("no access line at info level in {log}"));
    assert_eq!(event["level"], "INFO");
    assert_eq!(event["fields"]["status"], 200);
    // Who asked: the client's address and its user agent.
    assert_eq!(event["span"]["client"], "127.0.0.1", "{event}");
    assert!(
        event["span"]["user_agent"]
            .as_str()
            .is_some_and(|a| a.contains("TestBrowser/1.0")),
        "{event}"
    );
    assert!(event["span"]["request_id"]
        .as_str()
        .is_some_and(|i| !i.is_empty()));
}

#[test]
fn a_log_written_to_a_file_or_pipe_has_no_colour_codes() {
    let data = std::env::temp_dir().join(format!("agon-logs-plain-{}", std::process::id()));
    let (child, _, line) = common::serve_piped(&data, &[], &[]);
    assert!(line.starts_with("Agon is running"), "{line}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    let log = common::stop_and_read_log(child);
    let _ = std::fs::remove_dir_all(&data);
    assert!(log.contains("listening"), "{log}");
    assert!(
        !log.contains('\u{1b}'),
        "colour codes in a piped log: {log:?}"
    );
}

#[test]
fn json_logs_carry_the_start_and_each_request() {
    let data = std::env::temp_dir().join(format!("agon-logs-{}", std::process::id()));
    let (child, port) = serve_logging_json(&data, "info,tower_http=debug");
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: lb-7f3a.1\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // The proxy's id is kept, and answered.
    assert!(
        answer.to_lowercase().contains("x-request-id: lb-7f3a.1"),
        "{answer}"
    );
    // A request without one (or with one that is not a plain token) gets
    // its own.
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "GET /api/meta HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: <script>\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut other = String::new();
    s.read_to_string(&mut other).unwrap();
    let own = other
        .lines()
        .find_map(|l| {
            l.to_lowercase()
                .strip_prefix("x-request-id: ")
                .map(str::to_string)
        })
        .unwrap_or_else(|| panic!("no request id in {other}"));
    assert!(!own.contains("script") && own.len() > 8, "{own}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    let log = common::stop_and_read_log(child);
    let _ = std::fs::remove_dir_all(&data);
    let events: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|_| panic!("not JSON: {l}")))
        .collect();
    let listening = events
        .iter()
        .find(|e| e["fields"]["message"] == "listening")
        .unwrap_or_else(|| panic!("no start event in {log}"));
    assert_eq!(listening["level"], "INFO");
    assert_eq!(listening["fields"]["addr"], format!("127.0.0.1:{port}"));
    let request = events
        .iter()
        .find(|e| {
            e["span"]["uri"] == "/api/health"
                && e["fields"]["message"] == "finished processing request"
        })
        .unwrap_or_else(|| panic!("no request event in {log}"));
    assert_eq!(request["level"], "DEBUG");
    assert_eq!(request["fields"]["status"], 200);
    assert_eq!(request["span"]["request_id"], "lb-7f3a.1", "{request}");
    assert!(
        events
            .iter()
            .any(|e| e["span"]["uri"] == "/api/meta" && e["span"]["request_id"] == own.as_str()),
        "the generated id is in the log: {log}"
    );
}

#[test]
fn a_bad_log_level_is_refused_before_anything_runs() {
    let out = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(["--log-level", "loud", "ringo", "legal"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--log-level"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(["--log-format", "xml", "ringo", "legal"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values: text, json"));
}

#[test]
fn the_log_keeps_no_invite_code() {
    let data = std::env::temp_dir().join(format!("agon-logs-q-{}", std::process::id()));
    let (child, port) = serve_logging_json(&data, "debug");
    // A friend game's invite link, opened as a browser opens it.
    let (status, body) = common::http(
        port,
        "POST",
        "/api/games",
        None,
        r#"{"game":"ringo","opponent":"friend"}"#,
    )
    .unwrap();
    assert_eq!(status, 201, "{body}");
    let created: serde_json::Value = serde_json::from_str(&body).unwrap();
    let url = created["invite_url"].as_str().unwrap().to_string();
    let code = created["invite"].as_str().unwrap().to_string();
    let (status, _) = common::http(port, "GET", &url, None, "").unwrap();
    assert_eq!(status, 200);
    std::thread::sleep(std::time::Duration::from_millis(200));
    let log = common::stop_and_read_log(child);
    let _ = std::fs::remove_dir_all(&data);
    let path = url.split('?').next().unwrap();
    assert!(
        log.contains(&format!("{path}?invite=…")),
        "the request is logged, its query redacted: {log}"
    );
    assert!(!log.contains(&code), "the invite code is in the log: {log}");
}

/// A health check while the server drains answers 503 `stopping`: routine,
/// so nothing is logged at ERROR (ERROR means someone must act).
#[test]
fn draining_logs_no_error() {
    let data = std::env::temp_dir().join(format!("agon-drain-log-{}", std::process::id()));
    let port = common::free_port();
    // Its stdout kept open: the stop is announced there too.
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args([
            "--log-format",
            "json",
            "serve",
            "--data",
            data.to_str().unwrap(),
        ])
        .args([
            "--port",
            &port.to_string(),
            "--access-log",
            "--drain-secs",
            "3",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    // Serving (its signal handlers are in place once it answers).
    let (status, _) = common::http(port, "GET", "/api/health", None, "").unwrap();
    assert_eq!(status, 200);
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    // Health says `stopping` once the drain has begun.
    let mut stopping = false;
    for _ in 0..100 {
        if let Ok((503, body)) = common::http(port, "GET", "/api/health", None, "") {
            assert!(body.contains("stopping"), "{body}");
            stopping = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    if !stopping {
        let mut log = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut log)
            .unwrap();
        panic!("health never said stopping: {line} {log}");
    }
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    let _ = child.wait();
    drop(out);
    let _ = std::fs::remove_dir_all(&data);
    let errors: Vec<&str> = log
        .lines()
        .filter(|l| {
            serde_json::from_str::<serde_json::Value>(l).is_ok_and(|e| e["level"] == "ERROR")
        })
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert!(
        log.contains("\"status\":503"),
        "the access log has the 503: {log}"
    );
}
