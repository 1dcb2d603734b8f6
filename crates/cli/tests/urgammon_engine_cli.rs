//! The Urgammon engine's command-line contract, run as a real process:
//! `analyze`, `rollout`, `met`, `train`, `tournament urgammon`, `bench
//! urgammon-eval` and `play --vs engine`.

mod common;

use common::{agon, agon_with_input, json};
use serde_json::Value;

/// "Decide": light rolled 1 and may move (2a-3a, 4a-5, P-1a) or roll the
/// verdict die (YES: 2a-7 or 4a-9).
const DECIDE: &str = "start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1";

fn sum_outcomes(o: &Value) -> f64 {
    [
        "win1", "win2", "win3", "win4", "loss1", "loss2", "loss3", "loss4", "draw",
    ]
    .iter()
    .map(|k| o[k].as_f64().unwrap())
    .sum()
}

#[test]
fn analyze_a_decision_lists_every_option_best_first() {
    for level in ["10", "7", "3"] {
        let v = json(&agon(&[
            "urgammon", "analyze", "--record", DECIDE, "--level", level,
        ]));
        assert_eq!(v["phase"], "decide");
        assert_eq!(v["to_act"], "light");
        assert_eq!(v["objective"], "points");
        let options = v["options"].as_array().unwrap();
        let mut names: Vec<&str> = options
            .iter()
            .map(|o| o["option"].as_str().unwrap())
            .collect();
        assert_eq!(v["best"], options[0]["option"]);
        names.sort_unstable();
        assert_eq!(names, ["2a-3a", "4a-5", "P-1a", "verdict"]);
        for pair in options.windows(2) {
            assert!(pair[0]["equity"].as_f64() >= pair[1]["equity"].as_f64());
        }
        for o in options {
            assert!((sum_outcomes(&o["outcomes"]) - 1.0).abs() < 1e-3);
            let win = o["win"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&win));
        }
    }
}

#[test]
fn analyze_in_phase_roll_evaluates_the_position() {
    let v = json(&agon(&[
        "urgammon",
        "analyze",
        "--record",
        "start:1-2 P-1a",
    ]));
    assert_eq!(v["phase"], "roll");
    assert_eq!(v["to_act"], "dark");
    assert_eq!(v["best"], Value::Null);
    assert_eq!(v["options"], serde_json::json!([]));
    assert!((sum_outcomes(&v["outcomes"]) - 1.0).abs() < 1e-3);
    let (win, loss) = (
        v["win"].as_f64().unwrap(),
        v["outcomes"]["loss"].as_f64().unwrap(),
    );
    assert!(
        win > 0.2 && win < 0.8 && loss > 0.2,
        "an early position is open: {v}"
    );
    // Before the opening roll: light's view of the game.
    let v = json(&agon(&["urgammon", "analyze", "--record", ""]));
    assert_eq!(v["phase"], "opening");
    assert_eq!(v["perspective"], "light");
}

#[test]
fn analyze_for_a_match_reports_match_winning_chances() {
    let ahead = json(&agon(&[
        "urgammon",
        "analyze",
        "--record",
        DECIDE,
        "--match-to",
        "7",
        "--score",
        "6-0",
    ]));
    let behind = json(&agon(&[
        "urgammon",
        "analyze",
        "--record",
        DECIDE,
        "--match-to",
        "7",
        "--score",
        "0-6",
    ]));
    assert_eq!(ahead["objective"], "match");
    assert_eq!(ahead["match"]["score"]["light"], 6);
    let (a, b) = (
        ahead["mwc"].as_f64().unwrap(),
        behind["mwc"].as_f64().unwrap(),
    );
    assert!(a > 0.8 && b < 0.2, "6-0 up {a}, 0-6 down {b}");
    for o in ahead["options"].as_array().unwrap() {
        assert!(o["mwc"].is_number());
    }
    // A match record carries its own score.
    let record = "urgammon match to=3 draw=replay\nstart:1-2 P-1a";
    let v = json(&agon(&["urgammon", "analyze", "--record", record]));
    assert_eq!(v["match"]["to"], 3);
}

#[test]
fn bad_analysis_input_exits_2() {
    for args in [
        vec!["urgammon", "analyze", "--record", "start:1-2 P-9z"],
        vec!["urgammon", "analyze", "--record", DECIDE, "--score", "1-2"],
        vec![
            "urgammon",
            "analyze",
            "--record",
            DECIDE,
            "--match-to",
            "7",
            "--score",
            "7-1",
        ],
        vec![
            "urgammon",
            "analyze",
            "--record",
            DECIDE,
            "--match-to",
            "7",
            "--score",
            "x",
        ],
        vec!["urgammon", "analyze", "--record", DECIDE, "--match-to", "0"],
        vec!["urgammon", "analyze", "--record", DECIDE, "--level", "11"],
        vec![
            "urgammon",
            "rollout",
            "--record",
            "start:1-2 P-1a",
            "--games",
            "0",
        ],
        vec!["urgammon", "met", "--to", "0"],
        vec!["urgammon", "met", "--draw", "maybe"],
    ] {
        let out = agon(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn rollout_reports_means_intervals_and_a_progress_bar() {
    let out = agon(&[
        "urgammon",
        "rollout",
        "--record",
        DECIDE,
        "--games",
        "60",
        "--threads",
        "2",
    ]);
    let v = json(&out);
    assert_eq!(v["games"], 60);
    assert_eq!(v["perspective"], "light");
    let mean = v["mean_points"].as_f64().unwrap();
    let ci = v["mean_points_95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= mean && mean <= ci[1].as_f64().unwrap());
    let dist = &v["outcomes"];
    assert!((sum_outcomes(dist) - 1.0).abs() < 1e-3);
    let win = v["win"].as_f64().unwrap();
    let wins: f64 = ["win1", "win2", "win3", "win4"]
        .iter()
        .map(|k| dist[k].as_f64().unwrap())
        .sum();
    assert!((win - wins).abs() < 1e-3);
    assert!(String::from_utf8_lossy(&out.stderr).contains("60/60"));
    // The same seed gives the same rollout.
    let again = json(&agon(&[
        "urgammon",
        "rollout",
        "--record",
        DECIDE,
        "--games",
        "60",
        "--threads",
        "2",
    ]));
    assert_eq!(again["outcomes"], v["outcomes"]);
    let out = agon(&[
        "urgammon",
        "rollout",
        "--record",
        "start:1-2 P-1a r1 P-1b",
        "--games",
        "1",
    ]);
    assert!(out.status.success());
}

#[test]
fn match_equity_table() {
    let v = json(&agon(&["urgammon", "met", "--to", "7", "--json"]));
    let t = v["table"].as_array().unwrap();
    assert_eq!(t.len(), 7);
    let at = |a: usize, b: usize| t[a][b].as_f64().unwrap();
    for a in 0..7 {
        assert!((at(a, a) - 0.5).abs() < 1e-3);
        for b in 0..7 {
            assert!((at(a, b) + at(b, a) - 1.0).abs() < 2e-3);
            if b > a {
                assert!(at(a, b) > 0.5, "needing fewer points is better");
            }
        }
    }
    let text = agon(&["urgammon", "met", "--to", "7"]);
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.starts_with("Match equity table, match to 7"));
    assert_eq!(text.lines().filter(|l| l.contains('%')).count(), 8);
}

#[test]
fn training_checkpoints_and_resumes() {
    let dir = std::env::temp_dir().join(format!("agon-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_file = dir.join("net.bin");
    let log = dir.join("log.jsonl");
    let path = out_file.to_str().unwrap();
    let args = |games: &str, resume: bool| {
        let mut a = vec![
            "urgammon",
            "train",
            "--games",
            games,
            "--out",
            path,
            "--checkpoint-every",
            "10",
            "--probe",
            "4",
            "--log",
            log.to_str().unwrap(),
        ];
        if resume {
            a.push("--resume");
        }
        a.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let run = |a: Vec<String>| agon(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let out = run(args("20", false));
    let v = json(&out);
    assert_eq!(v["games"], 20);
    assert_eq!(v["checkpoints"].as_array().unwrap().len(), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("20/20"));
    // Without --resume an existing file is never overwritten.
    let out = run(args("30", false));
    assert_eq!(out.status.code(), Some(2));
    let v = json(&run(args("30", true)));
    assert_eq!(v["games"], 30);
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 3);
    // A broken file is a clear error.
    std::fs::write(&out_file, b"garbage").unwrap();
    let out = run(args("40", true));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an Urgammon network file"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tournament_urgammon_games_and_matches() {
    let out = agon(&[
        "tournament",
        "urgammon",
        "--a",
        "level:7",
        "--b",
        "random",
        "--games",
        "20",
        "--threads",
        "2",
    ]);
    let v = json(&out);
    assert_eq!(v["games"], 20);
    assert!(v["wins"].as_u64().unwrap() >= 15, "{v}");
    assert!(v["points_per_game"].as_f64().unwrap() > 0.0);
    assert_eq!(v["a_as_light"]["played"], 10);
    assert!(String::from_utf8_lossy(&out.stderr).contains("20/20"));
    let v = json(&agon(&[
        "tournament",
        "urgammon",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "2",
        "--match-to",
        "3",
    ]));
    assert_eq!(v["matches"], 2);
    assert!(v["games_played"].as_u64().unwrap() >= 2);
    for bad in [["--a", "level:0"], ["--a", "best"]] {
        let out = agon(&["tournament", "urgammon", bad[0], bad[1], "--b", "random"]);
        assert_eq!(out.status.code(), Some(2));
    }
}

#[test]
fn bench_urgammon_eval_reports_speed() {
    let v = json(&agon(&[
        "bench",
        "urgammon-eval",
        "--runs",
        "1",
        "--decisions",
        "3",
    ]));
    assert!(v["evaluations_per_second"].as_f64().unwrap() > 0.0);
    assert_eq!(v["level10_decisions"], 3);
}

#[test]
fn play_against_the_engine_with_hints() {
    // The human (light) always answers "hint", then the first listed option.
    let mut input = String::new();
    for _ in 0..300 {
        input.push_str("hint\n1\n");
    }
    let text = agon_with_input(
        &[
            "urgammon", "play", "--vs", "engine:6", "--seed", "4", "--to", "1",
        ],
        input.as_bytes(),
    );
    assert!(text.contains("the engine (level 6) plays dark"), "{text}");
    assert!(text.contains("Engine analysis (level 10"), "{text}");
    assert!(text.contains("dark (engine) plays"), "{text}");
    assert!(text.contains("Match over"), "{text}");
    let out = agon(&["urgammon", "play", "--vs", "engine:11"]);
    assert_eq!(out.status.code(), Some(2));
    let out = agon(&["urgammon", "play", "--vs", "engine", "--side", "blue"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn typing_roll_or_a_die_says_the_program_rolls() {
    // A player who types "roll" (or picks a die) at the move prompt is told
    // that the dice are the program's, and is asked again; the match goes on.
    // "roll" used to be read as a bad roll token ("a chance roll is r1, r2,
    // r3 or r4"), which invited the player to choose the die.
    let mut input = String::new();
    for _ in 0..300 {
        input.push_str("roll\nr4\n1\n");
    }
    let text = agon_with_input(
        &[
            "urgammon", "play", "--vs", "engine:2", "--seed", "7", "--to", "1",
        ],
        input.as_bytes(),
    );
    assert!(
        text.contains("Dice are rolled by the program; type a move."),
        "{text}"
    );
    assert!(!text.contains("a chance roll is"), "{text}");
    assert!(text.contains("Match over"), "{text}");
}
