//! `agon urgammon endings build|probe` as an operator and a student use
//! them (issue 87): built with the defaults, the tables are where `probe`,
//! `agon serve`'s analysis board and the engine read them; a position they
//! hold is valued exactly, one they do not is said to be unknown, and bad
//! input is refused with a reason.

mod common;

use common::{agon_in, free_port, http, WorkDir};
use serde_json::Value;
use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Light's last pawn waiting against dark's hero waiting: far too long for
/// the look-ahead, held by the `PvH` table.
const FAR: &str =
    "light=off:P,off:P,off:C,off:C,off:C,off:H dark=off:P,off:P,off:P,off:C,off:C,off:C roll=light";

/// Analyses `setup` after `record` on a server started in `dir`.
fn served_analysis(dir: &Path, setup: &str, record: &str) -> (Value, String) {
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
    let body =
        serde_json::json!({"game": "urgammon", "setup": setup, "record": record, "level": 6});
    let (status, answer) = http(port, "POST", "/api/analyze", None, &body.to_string()).unwrap();
    let log = common::stop_and_read_log(child);
    assert_eq!(status, 200, "{answer}");
    let v: Value = serde_json::from_str(&answer).unwrap();
    (v["analysis"].clone(), log)
}

#[test]
fn built_with_the_defaults_the_endings_are_read_by_probe_and_the_web_app() {
    let dir = WorkDir::new("endings-defaults");
    // Before the build: not exact, and the server says how to build them.
    let (before, log) = served_analysis(&dir.0, FAR, "r1");
    assert_eq!(before["exact"], false, "{before}");
    assert!(
        log.contains("agon urgammon endings build"),
        "the log says how to build the endings: {log}"
    );
    let probe = json(&agon_in(
        &dir.0,
        &["urgammon", "endings", "probe", "--setup", FAR],
    ));
    assert_eq!(probe["exact"], false, "{probe}");
    assert_eq!(probe["class"], "PvH");

    let out = agon_in(&dir.0, &["urgammon", "endings", "build", "--class", "PvH"]);
    let summary = json(&out);
    assert_eq!(summary.as_array().unwrap().len(), 1, "{summary}");
    assert_eq!(summary[0]["class"], "PvH");
    assert!(summary[0]["positions"].as_u64().unwrap() > 1000);
    // The progress bar ran to its end.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("entries"), "{err}");
    assert!(dir
        .0
        .join("agon-data/tablebases/urgammon-endings-PvH.tb")
        .exists());

    // Now exact, from light's side, a distribution that sums to one.
    let probe = json(&agon_in(
        &dir.0,
        &["urgammon", "endings", "probe", "--setup", FAR],
    ));
    assert_eq!(probe["exact"], true, "{probe}");
    assert_eq!(probe["perspective"], "light");
    let o = &probe["outcomes"];
    let total: f64 = ["win1", "win2", "win3", "loss1", "loss2", "loss3", "draw"]
        .iter()
        .map(|k| o[k].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-3, "{probe}");
    assert_eq!(o["win4"], 0.0, "no Babylon with six pieces home");
    // At a decision every option is exact, best first.
    let decision = json(&agon_in(
        &dir.0,
        &[
            "urgammon", "endings", "probe", "--setup", FAR, "--record", "r1",
        ],
    ));
    assert_eq!(decision["exact"], true, "{decision}");
    let options = decision["options"].as_array().unwrap();
    assert!(!options.is_empty());
    for w in options.windows(2) {
        assert!(
            w[0]["equity"].as_f64() >= w[1]["equity"].as_f64(),
            "{decision}"
        );
    }
    // The web app's analysis board reads the same tables.
    let (after, log) = served_analysis(&dir.0, FAR, "r1");
    assert!(log.contains("Urgammon endings found"), "{log}");
    assert_eq!(after["exact"], true, "{after}");
    assert_eq!(after["best"], decision["options"][0]["option"], "{after}");

    // At double match point a win is a win: the match-winning chance is
    // the chance to win (a draw replays the game).
    let m = json(&agon_in(
        &dir.0,
        &[
            "urgammon",
            "endings",
            "probe",
            "--setup",
            FAR,
            "--match-to",
            "7",
            "--score",
            "6-6",
        ],
    ));
    assert_eq!(m["objective"], "match");
    let win = m["outcomes"]["win"].as_f64().unwrap();
    let draw = m["outcomes"]["draw"].as_f64().unwrap();
    assert!(
        (m["mwc"].as_f64().unwrap() - (win + draw / 2.0)).abs() < 2e-3,
        "{m}"
    );

    // A damaged table is refused, saying which file and why.
    let path = dir.0.join("agon-data/tablebases/urgammon-endings-PvH.tb");
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let out = agon_in(&dir.0, &["urgammon", "endings", "probe", "--setup", FAR]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("urgammon-endings-PvH.tb") && err.contains("checksum"),
        "{err}"
    );
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let dir = WorkDir::new("endings-hostile");
    for (args, says) in [
        (vec!["build", "--class", "XvP"], "not P, C or H"),
        (vec!["build", "--class", "PPPvP"], "one or two pieces"),
        (vec!["build", "--class", "P"], "LIGHTvDARK"),
        (vec!["build", "--class", "HHvP"], "one or two pieces"),
        (vec!["build", "--threads", "0"], "threads"),
        (vec!["probe", "--setup", "light=zz:P"], "invalid --setup"),
        (vec!["probe", "--setup", FAR, "--record", "r9"], "r9"),
        (
            vec!["probe", "--setup", FAR, "--match-to", "7", "--score", "7-0"],
            "already reached",
        ),
        (
            vec!["probe", "--setup", FAR, "--score", "1-2"],
            "--score needs --match-to",
        ),
    ] {
        let mut full = vec!["urgammon", "endings"];
        full.extend(&args);
        let out = agon_in(&dir.0, &full);
        assert!(!out.status.success(), "{args:?} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // Nothing was written by a refused build.
    assert!(!dir.0.join("agon-data").exists());
}
