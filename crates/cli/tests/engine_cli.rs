//! `agon ringo analyze`, `agon ringo play --vs engine`, `agon tournament` and
//! `agon tune`, run as real processes.

mod common;

use common::json;
use common::{agon, agon_with_input};

#[test]
fn analyze_reports_best_score_proof_and_pv() {
    let v = json(&agon(&[
        "ringo", "analyze", "--rules", "classic", "--depth", "5",
    ]));
    for key in ["best", "score", "proven", "pv", "depth", "nodes", "nps"] {
        assert!(v.get(key).is_some(), "{key} in {v}");
    }
    assert_eq!(v["depth"], 5);
    assert_eq!(v["pv"][0], v["best"]);
    let v = json(&agon(&[
        "ringo",
        "analyze",
        "--rules",
        "classic",
        "--position",
        "......../......../......../......../......../..A..D.. 1 a",
        "--depth",
        "3",
    ]));
    assert_eq!(v["best"], "c1-F");
    assert_eq!(
        v["proven"],
        serde_json::json!({"winner": "attackers", "plies": 1})
    );
    let v = json(&agon(&[
        "ringo", "analyze", "--rules", "globe", "--moves", "b6-b5", "--nodes", "20000",
    ]));
    assert!(v["nodes"].as_u64().unwrap() < 40_000);
    let v = json(&agon(&["ringo", "analyze", "--level", "3"]));
    assert_eq!(v["depth"], 2);
    for (args, needle) in [
        (vec!["ringo", "analyze", "--level", "11"], "11"),
        (vec!["ringo", "analyze", "--depth", "0"], "0"),
        (vec!["ringo", "analyze", "--moves", "b6-b3"], "index 0"),
        (
            vec![
                "ringo",
                "analyze",
                "--position",
                "......../......../......../......../......../..D..... 1 a",
            ],
            "game is over",
        ),
    ] {
        let out = agon(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(needle),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn play_against_the_engine() {
    let out = agon_with_input(
        &["ringo", "play", "--vs", "engine:2", "--side", "defenders"],
        b"moves\nquit\n",
    );
    assert!(
        out.contains("You play the defenders against the engine at level 2."),
        "{out}"
    );
    assert!(out.contains("The engine plays "), "{out}");
    assert!(out.contains("Record: classic "), "{out}");
    assert_eq!(
        agon(&["ringo", "play", "--vs", "engine:12"]).status.code(),
        Some(2)
    );
    assert_eq!(
        agon(&["ringo", "play", "--vs", "robot"]).status.code(),
        Some(2)
    );
}

#[test]
fn a_small_tournament_reports_statistics() {
    let out = agon(&[
        "tournament",
        "ringo",
        "--a",
        "depth:2",
        "--b",
        "random",
        "--games",
        "4",
        "--threads",
        "2",
    ]);
    let v = json(&out);
    assert_eq!(v["games"], 4);
    assert_eq!(v["a_as_attackers"]["games"], 2);
    assert!(v["elo_95"].as_array().unwrap().len() == 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("4/4"),
        "the progress bar reaches the end"
    );
    let v = json(&agon(&[
        "tournament",
        "ringo",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "6",
        "--sprt",
        "0,200",
    ]));
    assert!(v["sprt"]["llr"].is_number());
    for args in [
        vec!["tournament", "ringo", "--a", "level:0", "--b", "random"],
        vec!["tournament", "ringo", "--a", "random", "--b", "best"],
        vec![
            "tournament",
            "ringo",
            "--a",
            "random",
            "--b",
            "random",
            "--sprt",
            "50,0",
        ],
        vec![
            "tournament",
            "ringo",
            "--a",
            "random",
            "--b",
            "random",
            "--games",
            "0",
        ],
    ] {
        assert_eq!(agon(&args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn tuning_runs_end_to_end() {
    let v = json(&agon(&[
        "tune", "ringo", "--method", "spsa", "--games", "3", "--depth", "1", "--verify", "2",
    ]));
    assert_eq!(v["iterations"], 3);
    assert!(v["weights"]["in_fortress"].is_number());
    let v = json(&agon(&[
        "tune", "ringo", "--method", "texel", "--games", "2", "--epochs", "5", "--verify", "2",
    ]));
    assert!(v["loss_after"].as_f64().unwrap() <= v["loss_before"].as_f64().unwrap() + 1e-6);
    assert_eq!(
        agon(&["tune", "ringo", "--method", "magic"]).status.code(),
        Some(2)
    );
}
