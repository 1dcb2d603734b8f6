//! The `agon ringo` command-line contract, run as a real process.

mod common;

use common::json;
use common::{agon, agon_with_input};

use std::process::Output;

#[track_caller]
fn assert_bad_input(out: &Output, needle: &str) {
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        out.stdout.is_empty(),
        "nothing on stdout: {:?}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(needle),
        "stderr {err:?} should contain {needle:?}"
    );
}

#[test]
fn legal_from_the_start() {
    let v = json(&agon(&["ringo", "legal", "--rules", "classic"]));
    assert_eq!(
        v["position"],
        ".AAAAAAA/......../......../......../......../.D.D.D.D 0 a"
    );
    assert_eq!(v["to_move"], "attackers");
    assert_eq!(v["status"], "ongoing");
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(
        moves,
        ["b6-a6", "b6-b5", "c6-c5", "d6-d5", "e6-e5", "f6-f5", "g6-g5", "h6-a6", "h6-h5"]
    );
}

#[test]
fn legal_after_moves_and_from_a_position() {
    let v = json(&agon(&[
        "ringo",
        "legal",
        "--rules",
        "globe",
        "--moves",
        "b6-b5 b1-c1",
    ]));
    assert_eq!(v["to_move"], "attackers");
    assert_eq!(
        v["position"],
        "..AAAAAA/.A....../......../......../......../..DD.D.D 0 a"
    );
    let v = json(&agon(&[
        "ringo",
        "legal",
        "--rules",
        "globe",
        "--position",
        "......../......../......../......../.A.D...A/........ 0 d",
    ]));
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(
        moves.contains(&"d2xa2(b2)") && moves.contains(&"d2xa2(h2)"),
        "{moves:?}"
    );
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    assert_eq!(moves, sorted, "moves are sorted in byte order");
}

#[test]
fn finished_games_and_forced_passes() {
    // Two in F: attackers win, no moves.
    let v = json(&agon(&[
        "ringo",
        "legal",
        "--rules",
        "classic",
        "--position",
        "......../......../......../......../......../..D..... 1 a",
        "--moves",
        "",
    ]));
    assert_eq!(v["status"], "defenders-win"); // only one attacker left
    assert_eq!(v["moves"].as_array().unwrap().len(), 0);
    let v = json(&agon(&[
        "ringo",
        "legal",
        "--rules",
        "classic,fortress-from-neutral=off,capture-from-neutral=off",
        "--position",
        "......../......../......../......../......../AD.....D 1 a",
    ]));
    assert_eq!(v["moves"], serde_json::json!(["pass"]));
    let v = json(&agon(&[
        "ringo",
        "legal",
        "--rules",
        "classic",
        "--position",
        "......../......../......../......../..A...../..D..... 1 a",
        "--moves",
        "c2xF",
    ]));
    assert_eq!(v["status"], "attackers-win");
    assert_eq!(v["moves"], serde_json::json!([]));
}

#[test]
fn repetition_counts_from_the_given_start() {
    let cycle = "b6-a6 b1-c1 a6-b6 c1-b1";
    let v = json(&agon(&[
        "ringo",
        "legal",
        "--rules",
        "classic,repetition=draw",
        "--moves",
        &format!("{cycle} {cycle}"),
    ]));
    assert_eq!(v["status"], "draw");
    assert_eq!(v["reason"], "repetition");
}

#[test]
fn illegal_moves_exit_2_with_index_text_and_reason() {
    let out = agon(&[
        "ringo",
        "legal",
        "--rules",
        "classic",
        "--moves",
        "b6-b5 b1-c1 c6-c4",
    ]);
    assert_bad_input(&out, "index 2");
    assert_bad_input(&out, "c6-c4");
    assert_bad_input(&out, "cannot go to c4");
    let out = agon(&["ringo", "legal", "--moves", "b6-b5 zz"]);
    assert_bad_input(&out, "index 1");
    assert_bad_input(&out, "'zz' is not a move");
    let out = agon(&["ringo", "legal", "--moves", "pass"]);
    assert_bad_input(&out, "may pass only when");
}

#[test]
fn bad_rules_and_positions_exit_2() {
    let start = ".AAAAAAA/......../......../......../......../.D.D.D.D 0 a";
    let cases: [(&[&str], &str); 7] = [
        (
            &["ringo", "legal", "--rules", "chess"],
            "classic, encyclopedia, globe",
        ),
        (
            &["ringo", "legal", "--rules", "classic,slide=maybe"],
            "valid values: on, off",
        ),
        (
            &["ringo", "legal", "--rules", "classic,foo=1"],
            "valid options",
        ),
        (&["ringo", "legal", "--position", "nonsense"], "expected 3"),
        (
            &[
                "ringo",
                "legal",
                "--position",
                start,
                "--rules",
                "classic,rings=5",
            ],
            "expected 5 rings",
        ),
        (&["ringo", "perft", "--depth", "x"], "invalid value"),
        (&["ringo", "nonsense"], "unrecognized subcommand"),
    ];
    for (args, needle) in cases {
        assert_bad_input(&agon(args), needle);
    }
}

#[test]
fn perft_counts_leaf_nodes() {
    let v = json(&agon(&[
        "ringo", "perft", "--rules", "classic", "--depth", "3",
    ]));
    assert_eq!(v["depth"], 3);
    assert_eq!(v["nodes"], 1260);
    let v = json(&agon(&[
        "ringo", "perft", "--rules", "globe", "--depth", "2", "--divide",
    ]));
    assert_eq!(v["nodes"], 108);
    assert_eq!(v["divide"]["b6-b5"], 12);
    // A finished game contributes nothing below it.
    let v = json(&agon(&[
        "ringo",
        "perft",
        "--rules",
        "classic",
        "--position",
        "......../......../......../......../..A...../..D..... 1 a",
        "--depth",
        "2",
    ]));
    // c2-b2 and c2-d2 each leave 4 defender moves; c2xF ends the game.
    assert_eq!(v["nodes"], 8);
}

#[test]
fn show_draws_the_board() {
    let out = agon(&["ringo", "show", "--rules", "classic", "--moves", "b6-a6"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("NZ") && text.contains("F (fortress)"),
        "{text}"
    );
    assert!(
        text.contains("[A]"),
        "the attacker on a6 is in the bracketed NZ column:\n{text}"
    );
    assert!(text.contains("defenders are to move"));
}

#[test]
fn play_in_the_terminal() {
    let text = agon_with_input(
        &[
            "ringo",
            "play",
            "--rules",
            "classic",
            "--position",
            "......../......../......../......../..A...../..D..... 1 a",
        ],
        b"moves\nc2-c0\nc2xF\n",
    );
    assert!(text.contains("c2-b2 c2-d2 c2xF"), "{text}");
    assert!(text.contains("Illegal: 'c2-c0' is not a move"), "{text}");
    assert!(
        text.contains("Game over: the attackers win (two attackers hold the fortress)"),
        "{text}"
    );
    assert!(text.contains("Record: classic ......../"), "{text}");
}

/// A fresh directory for tables, removed at the end.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("agon-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        TempDir(p)
    }
    fn arg(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn tablebases_build_verify_probe_and_solve() {
    let dir = TempDir::new("tb");
    let rules = "classic,rings=5";
    let build = || {
        agon(&[
            "ringo",
            "tablebase",
            "build",
            "--rules",
            rules,
            "--attackers",
            "2",
            "--defenders",
            "1",
            "--dir",
            dir.arg(),
            "--threads",
            "2",
        ])
    };
    let out = build();
    let built = json(&out);
    // The finished build's summary (stderr, no terminal) shows a full bar.
    let err = String::from_utf8_lossy(&out.stderr);
    let steps = 2 * (1640 + 62400);
    assert!(err.contains(&format!("{steps}/{steps} steps in ")), "{err}");
    let classes: Vec<&str> = built
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["material"].as_str().unwrap())
        .collect();
    assert_eq!(classes, ["2v0", "2v1"]);
    assert_eq!(built[1]["positions"], 62400);
    // Built again: nothing to do, the files are read.
    assert_eq!(json(&build()), serde_json::json!([]));
    let v = json(&agon(&[
        "ringo",
        "tablebase",
        "verify",
        "--rules",
        rules,
        "--dir",
        dir.arg(),
        "--samples",
        "50",
    ]));
    assert_eq!(v["checked"], 62400 + 1640);
    assert_eq!(v["inconsistent"], 0);
    assert_eq!(v["disagreements"], 0);
    // A position the table covers: probe and solve answer the same, and the
    // line wins.
    let position = "......../......../..A...../......../..D....A 0 d";
    let probe_cmd = || {
        agon(&[
            "ringo",
            "tablebase",
            "probe",
            "--rules",
            rules,
            "--position",
            position,
            "--dir",
            dir.arg(),
        ])
    };
    let solve_cmd = |tables: &str| {
        agon(&[
            "ringo",
            "solve",
            "--rules",
            rules,
            "--position",
            position,
            "--tablebases",
            tables,
        ])
    };
    let probe = json(&probe_cmd());
    assert_eq!(probe["material"], "2v1");
    assert_eq!(probe["result"], "attackers");
    let plies = probe["plies"].as_u64().unwrap() as usize;
    assert_eq!(probe["pv"].as_array().unwrap().len(), plies);
    let solved = json(&solve_cmd(dir.arg()));
    assert_eq!(solved["result"], "attackers");
    assert_eq!(solved["tablebase"], true);
    assert_eq!(solved["pv"], probe["pv"]);
    let moves: Vec<&str> = solved["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let end = json(&agon(&[
        "ringo",
        "legal",
        "--rules",
        rules,
        "--position",
        position,
        "--moves",
        &moves.join(" "),
    ]));
    assert_eq!(end["status"], "attackers-win");
    // Without the tables the search proves it too.
    let searched = json(&solve_cmd("/nonexistent"));
    assert_eq!(searched["result"], "attackers");
    assert_eq!(searched["tablebase"], false);
    assert!(searched["nodes"].as_u64().unwrap() > 0);
    // A damaged file is refused with its name, not trusted.
    let file = dir.0.join("ringo-classic_rings_5-2v1.tb");
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let out = probe_cmd();
    assert_bad_input(&out, "checksum mismatch");
    assert!(String::from_utf8_lossy(&out.stderr).contains("2v1.tb"));
}

#[test]
fn solve_proves_small_positions_and_says_unknown_when_out_of_nodes() {
    // Two attackers next to the fortress, one to move: one ply.
    let out = agon(&[
        "ringo",
        "solve",
        "--rules",
        "classic",
        "--position",
        "......../......../......../......../......../AA.....D 1 a",
        "--tablebases",
        "/nonexistent",
    ]);
    let v = json(&out);
    assert_eq!(v["result"], "attackers");
    assert_eq!(v["plies"], 1);
    assert_eq!(v["pv"], serde_json::json!(["a1-F"]));
    // The summary on stderr (no terminal) counts the nodes really searched,
    // not the budget: "N/10000000 nodes in 0.0s  attackers".
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("{}/10000000 nodes in ", v["nodes"])),
        "{err}"
    );
    // The start of classic is far beyond 100 nodes.
    let v = json(&agon(&[
        "ringo",
        "solve",
        "--rules",
        "classic",
        "--max-nodes",
        "100",
        "--tablebases",
        "/nonexistent",
    ]));
    assert_eq!(v["result"], "unknown");
    assert_eq!(v["plies"], serde_json::Value::Null);
    assert!(v["nodes"].as_u64().unwrap() >= 100);
    // Threads share out the root's moves and agree.
    let v = json(&agon(&[
        "ringo",
        "solve",
        "--rules",
        "classic,rings=5",
        "--position",
        "......../......../..A...../......../..D....A 0 d",
        "--threads",
        "2",
        "--tablebases",
        "/nonexistent",
    ]));
    assert_eq!(v["result"], "attackers");
}

#[test]
fn solve_and_tablebase_refuse_bad_input() {
    for (args, needle) in [
        (
            vec!["ringo", "solve", "--rules", "chess"],
            "invalid --rules",
        ),
        (
            vec!["ringo", "solve", "--position", "xx"],
            "invalid --position",
        ),
        (vec!["ringo", "solve", "--max-nodes", "0"], "--max-nodes"),
        (vec!["ringo", "solve", "--threads", "0"], "--threads"),
        (
            vec!["ringo", "solve", "--moves", "b6-b1"],
            "move at index 0",
        ),
        (
            vec!["ringo", "tablebase", "build", "--attackers", "9"],
            "--attackers",
        ),
        (
            vec!["ringo", "tablebase", "build", "--defenders", "5"],
            "--defenders",
        ),
        (
            vec!["ringo", "tablebase", "build", "--rules", "x"],
            "invalid --rules",
        ),
        (
            vec!["ringo", "tablebase", "verify", "--depth", "9"],
            "--depth",
        ),
    ] {
        let out = agon(&args);
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let out = agon(&["ringo", "tablebase", "verify", "--dir", "/nonexistent"]);
    assert_bad_input(&out, "no tablebases");
}
