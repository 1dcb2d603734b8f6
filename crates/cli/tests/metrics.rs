//! `agon serve --metrics-bind ADDR`: `GET /metrics` in Prometheus's text
//! format on its own address (never on the public one), read by a
//! Prometheus text parser (`prometheus-parse`), with values that move as a
//! game is played and players sign in.

mod common;

use common::http;
use std::collections::HashMap;

/// A scrape: each sample's name and labels (sorted `k=v` pairs) → value
/// (a histogram's count).
fn scrape(port: u16) -> HashMap<String, f64> {
    let (status, body) = http(port, "GET", "/metrics", None, "").unwrap();
    assert_eq!(status, 200, "{body}");
    let lines = body.lines().map(|l| Ok(l.to_string()));
    let parsed = prometheus_parse::Scrape::parse(lines).expect("Prometheus text");
    let mut out = HashMap::new();
    for s in parsed.samples {
        let mut labels: Vec<String> = s.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        labels.sort();
        let value = match s.value {
            prometheus_parse::Value::Counter(v)
            | prometheus_parse::Value::Gauge(v)
            | prometheus_parse::Value::Untyped(v) => v,
            prometheus_parse::Value::Histogram(buckets) => {
                buckets.iter().map(|b| b.count).fold(0.0, f64::max)
            }
            prometheus_parse::Value::Summary(_) => continue,
        };
        out.insert(format!("{}{{{}}}", s.metric, labels.join(",")), value);
    }
    out
}

fn get(m: &HashMap<String, f64>, key: &str) -> f64 {
    m.get(key).copied().unwrap_or(0.0)
}

#[test]
fn metrics_are_served_apart_and_move_as_games_are_played() {
    let data = std::env::temp_dir().join(format!("agon-metrics-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let metrics_port = common::free_port();
    // The flag read from its environment variable, as operators may set it.
    std::env::set_var("AGON_METRICS_BIND", format!("127.0.0.1:{metrics_port}"));
    let (server, port) = common::start_serve(&data, &["--rate-limit", "0"]);
    std::env::remove_var("AGON_METRICS_BIND");
    // Killed however the test ends, so no server outlives it.
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let server = Killed(server);
    // Not on the public address.
    let (status, _) = http(port, "GET", "/metrics", None, "").unwrap();
    assert_ne!(status, 200, "metrics on the public address");
    let before = scrape(metrics_port);
    assert!(
        before.keys().any(|k| k.starts_with("agon_games_in_memory")),
        "{before:?}"
    );
    // A game of five moves; a sign-up, a sign-in and a wrong password.
    let games = common::local_games(port, "classic", 1);
    let (id, token) = (games[0].0.as_str(), games[0].1.as_str());
    for m in common::random_ringo_moves("classic", 5, 3) {
        let (status, body) = common::play_move(port, id, token, &m);
        assert_eq!(status, 200, "{body}");
    }
    let account = r#"{"name":"metrics","password":"correct horse battery"}"#;
    assert_eq!(
        http(port, "POST", "/api/account/signup", None, account)
            .unwrap()
            .0,
        201
    );
    assert_eq!(
        http(port, "POST", "/api/account/login", None, account)
            .unwrap()
            .0,
        200
    );
    let wrong = r#"{"name":"metrics","password":"wrong horse battery"}"#;
    assert_eq!(
        http(port, "POST", "/api/account/login", None, wrong)
            .unwrap()
            .0,
        401
    );
    let after = scrape(metrics_port);
    let moved = |key: &str| get(&after, key) - get(&before, key);
    assert_eq!(
        moved("agon_http_requests_total{method=POST,route=/api/games/:id/action,status=200}"),
        5.0,
        "{after:?}"
    );
    assert!(moved("agon_http_request_seconds{method=POST,route=/api/games/:id/action}") >= 5.0);
    assert!(moved("agon_commit_seconds{}") >= 5.0, "{after:?}");
    assert_eq!(moved("agon_sign_ins_total{outcome=ok}"), 1.0);
    assert_eq!(moved("agon_sign_ins_total{outcome=refused}"), 1.0);
    assert!(get(&after, "agon_games_in_memory{}") >= 1.0);
    // The store's commits count up: a counter (it was a gauge).
    assert!(moved("agon_store_commits_total{}") >= 1.0, "{after:?}");
    // Where each change's time went: its wait for the writer, the write,
    // the fsync of the log, and the acknowledgement, each timed per change
    // or per batch.
    for step in ["wait", "write", "fsync", "ack"] {
        let n = moved(&format!("agon_store_step_seconds{{step={step}}}"));
        assert!(n >= 5.0, "{step}: {n} ({after:?})");
    }
    // Checkpoints run by themselves (every second, on their own
    // connection), and the health route reports the slowest of each step.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let health = loop {
        let (status, body) = http(port, "GET", "/api/health", None, "").unwrap();
        assert_eq!(status, 200, "{body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        if v["store"]["checkpoints"].as_u64().unwrap_or(0) >= 1 {
            break v;
        }
        assert!(std::time::Instant::now() < until, "no checkpoint ran: {v}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    let store = &health["store"];
    assert!(store["fsyncs"].as_u64().unwrap() >= 5, "{store}");
    for key in [
        "fsync_max_ms",
        "checkpoint_max_ms",
        "wait_max_ms",
        "write_max_ms",
        "ack_max_ms",
    ] {
        assert!(store[key].as_f64().is_some(), "{key}: {store}");
    }
    assert!(store["ack_max_ms"].as_f64().unwrap() > 0.0, "{store}");
    assert!(
        get(
            &scrape(metrics_port),
            "agon_store_step_seconds{step=checkpoint}"
        ) >= 1.0
    );
    // The game's id never appears in a series.
    assert!(!after.keys().any(|k| k.contains(id)));
    // Which build serves: its commit, as `agon --version` says it.
    let version = common::agon_version();
    let build = after
        .keys()
        .find(|k| k.starts_with("agon_build_info{"))
        .unwrap_or_else(|| panic!("no agon_build_info: {after:?}"));
    assert!(
        version.contains(&build_commit(build)),
        "{version} / {build}"
    );
    // promtool (Prometheus's own checker, Debian's `prometheus`) reads the
    // whole scrape without a complaint: every family with help and type.
    let (_, body) = http(metrics_port, "GET", "/metrics", None, "").unwrap();
    common::promtool_checks(&body);
    drop(server);
    let _ = std::fs::remove_dir_all(&data);
}

/// The commit label of an `agon_build_info{…}` key.
fn build_commit(key: &str) -> String {
    key.split(['{', ',', '}'])
        .find_map(|kv| kv.strip_prefix("commit="))
        .unwrap_or_default()
        .to_string()
}
