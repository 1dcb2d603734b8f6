//! Tables built with the defaults are the tables everything else uses: run
//! from one working directory with no `--dir`, `--tablebases` or `--data`,
//! `agon ringo tablebase build` writes where `agon ringo analyze` and `agon
//! serve` (its analysis board) read, and the server says at start what it
//! found. Until 2026-11-26 the build wrote `./tablebases` while `serve` read
//! `agon-data/tablebases`, so the README's recipe gave the web app nothing.

mod common;

use common::{agon_in, free_port, http, stop_and_read_log, WorkDir};
use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Stdio};

/// The small board's two attackers against one defender, a forced win for
/// the attackers that the 2v1 table holds.
const RULES: &str = "classic,rings=5";
const POSITION: &str = "......../......../..A...../......../..D....A 0 d";

/// Runs `agon serve` in `dir` with its default data directory, makes
/// `request` once it is up, stops it, and returns the answer and the log.
fn serve_in(dir: &Path, request: Option<&str>) -> (Option<(u16, String)>, String) {
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .current_dir(dir)
        .args(["serve", "--port", &port.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("agon serve starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("Agon is running"), "{line}");
    let answer = request.map(|body| http(port, "POST", "/api/analyze", None, body).unwrap());
    (answer, stop_and_read_log(child))
}

#[test]
fn tables_built_with_the_defaults_are_used_by_analyze_and_serve() {
    let work = WorkDir::new("tb-defaults");
    // No tables yet: the server says so, and how to build them.
    let (_, log) = serve_in(&work.0, None);
    assert!(
        log.contains("no Ringo endgame tablebases here")
            && log.contains("agon ringo tablebase build"),
        "{log}"
    );

    let built = agon_in(
        &work.0,
        &[
            "ringo",
            "tablebase",
            "build",
            "--rules",
            RULES,
            "--attackers",
            "2",
            "--defenders",
            "1",
        ],
    );
    assert!(built.status.success(), "{built:?}");
    assert!(work
        .0
        .join("agon-data/tablebases/ringo-classic_rings_5-2v1.tb")
        .is_file());

    // The CLI's analysis finds them without being told where.
    let analyzed = agon_in(
        &work.0,
        &[
            "ringo",
            "analyze",
            "--rules",
            RULES,
            "--position",
            POSITION,
            "--depth",
            "2",
        ],
    );
    assert!(analyzed.status.success(), "{analyzed:?}");
    let v: serde_json::Value = serde_json::from_slice(&analyzed.stdout).unwrap();
    assert_eq!(v["tablebase"]["result"], "attackers", "{v}");

    // So does the web app's analysis board, and its log says what it found.
    let body =
        serde_json::json!({"game": "ringo", "rules": RULES, "position": POSITION, "depth": 2});
    let (answer, log) = serve_in(&work.0, Some(&body.to_string()));
    let (status, text) = answer.unwrap();
    assert_eq!(status, 200, "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["analysis"]["tablebase"]["result"], "attackers", "{v}");
    assert!(log.contains("Ringo endgame tablebases found"), "{log}");
}
