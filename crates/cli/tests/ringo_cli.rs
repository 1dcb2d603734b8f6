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
