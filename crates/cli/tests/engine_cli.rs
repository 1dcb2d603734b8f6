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
    // Level 5 searches to depth 2 (docs/engine.md).
    let v = json(&agon(&["ringo", "analyze", "--level", "5"]));
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
fn hint_shows_the_engines_best_move_in_terminal_play() {
    // Against the engine: a legal best move, a score for the side to move,
    // and the line; the game goes on after it.
    let out = agon_with_input(
        &["ringo", "play", "--rules", "globe", "--vs", "engine:1"],
        b"hint\nquit\n",
    );
    let line = out
        .lines()
        .find(|l| l.contains("Engine analysis (1 s, depth "))
        .unwrap_or_else(|| panic!("no hint in {out}"));
    let best = line
        .split("best ")
        .nth(1)
        .unwrap()
        .split(';')
        .next()
        .unwrap();
    let start = ringo::Game::new("globe".parse().unwrap());
    assert!(
        start.legal_notations().contains(&best.to_string()),
        "{line}"
    );
    assert!(line.contains("for the attackers."), "{line}");
    assert!(out.contains("  Line: "), "{out}");
    // Between two people, where the search proves the end: one attacker in
    // F and one next to it.
    let out = agon_with_input(
        &[
            "ringo",
            "play",
            "--rules",
            "classic",
            "--position",
            "......../......../......../......../......../.A.D.... 1 a",
        ],
        b"hint\nquit\n",
    );
    assert!(
        out.contains("best b1-F; the attackers win in 1 ply (proven)."),
        "{out}"
    );
    assert!(out.contains("moves, hint, undo"), "{out}");
}

/// Runs `agon tournament ringo` with these arguments.
fn tournament_ringo(args: &[&str]) -> std::process::Output {
    let mut all = vec!["tournament", "ringo"];
    all.extend_from_slice(args);
    agon(&all)
}

#[test]
fn a_small_tournament_reports_statistics() {
    let out = tournament_ringo(&[
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
    // --records writes every game as one JSON line that replays to its end.
    let dir = std::env::temp_dir().join(format!("agon-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.jsonl");
    let v = json(&tournament_ringo(&[
        "--rules",
        "globe",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "4",
        "--records",
        file.to_str().unwrap(),
    ]));
    let text = std::fs::read_to_string(&file).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 4);
    let mut a_wins = 0;
    for g in &games {
        let record = g["record"].as_str().unwrap();
        assert!(record.starts_with("globe "), "{record}");
        let moves = record.split_once(' ').unwrap().1;
        let shown = agon(&["ringo", "legal", "--rules", "globe", "--moves", moves]);
        let state = json(&shown);
        assert_eq!(state["ply"], g["plies"]);
        // A game cut off by the tournament's ply cap has no winner.
        if let Some(winner) = g["winner"].as_str() {
            assert_eq!(state["status"], format!("{winner}-win"));
        }
        let a_attacks = g["a_attacks"].as_bool().unwrap();
        a_wins += usize::from((g["winner"] == "attackers") == a_attacks);
    }
    assert_eq!(v["wins"], a_wins);
    // A file that cannot be created is refused before any game is played.
    let bad = dir.join("missing-dir").join("games.jsonl");
    let out = tournament_ringo(&[
        "--a",
        "random",
        "--b",
        "random",
        "--games",
        "2",
        "--records",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--records"));
    std::fs::remove_dir_all(&dir).ok();
    let v = json(&tournament_ringo(&[
        "--a", "greedy", "--b", "random", "--games", "6", "--sprt", "0,200",
    ]));
    assert!(v["sprt"]["llr"].is_number());
    // --seat: A plays only that side, every game from its own opening.
    for (seat, side) in [
        ("attackers", "a_as_attackers"),
        ("defenders", "a_as_defenders"),
    ] {
        let v = json(&tournament_ringo(&[
            "--a", "depth:1", "--b", "random", "--games", "3", "--seat", seat,
        ]));
        assert_eq!(v[side]["games"], 3, "{seat}");
        assert_eq!(v["games"], 3);
    }
    // time:MS: the search alone, MS milliseconds a move (level 10 without
    // reading its opponent).
    let v = json(&tournament_ringo(&[
        "--a", "time:20", "--b", "random", "--games", "2",
    ]));
    assert_eq!(v["a"], "time:20");
    assert_eq!(v["games"], 2);
    for args in [
        vec!["--a", "random", "--b", "random", "--seat", "fortress"],
        vec!["--a", "time:0", "--b", "random"],
        vec!["--a", "time:", "--b", "random"],
        vec!["--a", "level:0", "--b", "random"],
        vec!["--a", "random", "--b", "best"],
        vec!["--a", "random", "--b", "random", "--sprt", "50,0"],
        vec!["--a", "random", "--b", "random", "--games", "0"],
    ] {
        assert_eq!(tournament_ringo(&args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn tournament_games_start_from_given_openings() {
    let dir = std::env::temp_dir().join(format!("agon-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let file = write(
        "openings.txt",
        "globe b6-a6 d1-c1 a6-a5\n\nglobe ..AAAAAA/......../......../......../......../.D.D.D.D 0 a c6-c5\n",
    );
    let records = dir.join("games.jsonl");
    let v = json(&tournament_ringo(&[
        "--rules",
        "globe",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "4",
        "--openings",
        &file,
        "--records",
        records.to_str().unwrap(),
    ]));
    assert_eq!(v["games"], 4);
    assert_eq!(v["a_as_attackers"]["games"], 2);
    // Games 0 and 1 play the first opening from both seats, 2 and 3 the
    // second (its position string kept in the record).
    let text = std::fs::read_to_string(&records).unwrap();
    for line in text.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let record = g["record"].as_str().unwrap();
        let start = if g["game"].as_u64().unwrap() < 2 {
            "globe b6-a6 d1-c1 a6-a5 "
        } else {
            "globe ..AAAAAA/......../......../......../......../.D.D.D.D 0 a c6-c5 "
        };
        assert!(record.starts_with(start), "{record}");
        assert!(g["plies"].as_u64().unwrap() > 3, "{record}");
    }
    // Hostile files: each refused before any game, naming the line.
    for (name, text, says) in [
        ("empty.txt", "\n  \n", "no opening"),
        ("moves.txt", "globe b6-b9\n", "line 1"),
        (
            "rules.txt",
            "globe b6-a6\nclassic c6-c5\n",
            "line 2: rules classic",
        ),
        ("junk.txt", "{\"record\": 1}\n", "line 1"),
        ("binary.txt", "\u{0}\u{1}\u{2}", "line 1"),
        (
            "over.txt",
            "globe ......../......../......../......../......../A....... 1 a a1-F\n",
            "already over",
        ),
    ] {
        let path = write(name, text);
        let out = tournament_ringo(&[
            "--rules",
            "globe",
            "--a",
            "random",
            "--b",
            "random",
            "--games",
            "2",
            "--openings",
            &path,
        ]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--openings") && err.contains(says),
            "{name}: {err}"
        );
    }
    let missing = dir.join("missing.txt");
    let out = tournament_ringo(&[
        "--a",
        "random",
        "--b",
        "random",
        "--openings",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read --openings"));
    // An endless file is refused at its bound, not read until memory runs out.
    let out = tournament_ringo(&["--a", "random", "--b", "random", "--openings", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("larger than 64 MiB"));
    std::fs::remove_dir_all(&dir).ok();
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

#[test]
fn the_balance_lab_measures_each_rule_set_and_player_and_writes_the_games() {
    let dir = std::env::temp_dir().join(format!("agon-balance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.jsonl");
    let v = json(&agon(&[
        "balance",
        "--rules",
        "classic",
        "globe",
        "--players",
        "random",
        "greedy",
        "--games",
        "6",
        "--threads",
        "2",
        "--json",
        "--records",
        records.to_str().unwrap(),
    ]));
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "2 rule sets × 2 players");
    for row in rows {
        for key in [
            "rules",
            "player",
            "games",
            "attackers_win_rate",
            "ci95",
            "draws",
            "timeouts",
            "mean_plies",
            "balance",
        ] {
            assert!(row.get(key).is_some(), "{key} in {row}");
        }
        assert_eq!(row["games"], 6);
        let (lo, p, hi) = (
            row["ci95"][0].as_f64().unwrap(),
            row["attackers_win_rate"].as_f64().unwrap(),
            row["ci95"][1].as_f64().unwrap(),
        );
        assert!(lo <= p && p <= hi, "{row}");
    }
    let lines = std::fs::read_to_string(&records).unwrap();
    assert_eq!(lines.lines().count(), 24, "every game is written");
    // Bad input: exit 2, the reason named.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(["balance", "--rules", "classic,rings=9", "--games", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid --rules"));
    std::fs::remove_dir_all(&dir).ok();
}

/// The committed chart redrawn from the committed rows: one line per rule
/// set, and no two drawn alike (colour and dash pattern), so a reader can
/// tell every line from the legend (with three dash patterns, 36 styles,
/// the 37th to 40th sets were drawn like the first four).
#[test]
fn every_line_of_the_committed_balance_chart_looks_different() {
    let dir = std::env::temp_dir().join(format!("agon-balance-chart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let results = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/balance/results.json"
    );
    let svg = dir.join("chart.svg");
    let out = agon(&["balance", "--from", results, "--svg", svg.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(results).unwrap()).unwrap();
    let mut rule_sets: Vec<&str> = saved["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rules"].as_str().unwrap())
        .collect();
    rule_sets.dedup();
    let svg = std::fs::read_to_string(&svg).unwrap();
    // Each line's style: the attributes of its <polyline> before the points.
    let styles: Vec<&str> = svg
        .split("<polyline")
        .skip(1)
        .map(|l| l.split(" points=").next().unwrap())
        .collect();
    assert_eq!(styles.len(), rule_sets.len(), "one line per rule set");
    assert!(
        rule_sets.len() >= 40,
        "the scan and the set found even at level 10"
    );
    let distinct: std::collections::HashSet<&str> = styles.iter().copied().collect();
    assert_eq!(
        distinct.len(),
        styles.len(),
        "two lines drawn alike: {styles:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_balance_lab_redraws_its_table_and_chart_from_saved_rows() {
    let dir = std::env::temp_dir().join(format!("agon-balance-from-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("results.json");
    let played = agon(&[
        "balance",
        "--rules",
        "classic",
        "globe",
        "--players",
        "random",
        "greedy",
        "--games",
        "4",
        "--threads",
        "2",
        "--json",
    ]);
    std::fs::write(&saved, &played.stdout).unwrap();
    let (md, svg) = (dir.join("table.md"), dir.join("chart.svg"));
    let out = agon(&[
        "balance",
        "--from",
        saved.to_str().unwrap(),
        "--json",
        "--markdown",
        md.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    // The same rows and the command that played them; nothing is played again.
    assert_eq!(json(&out), json(&played));
    let md = std::fs::read_to_string(&md).unwrap();
    // At a glance first (a line per rule set, a column per player), then every cell.
    assert!(
        md.starts_with("| rules | random | greedy | score, strongest 2 together | |\n"),
        "{md}"
    );
    assert!(md.contains("\n| `globe` | "), "{md}");
    assert!(
        md.contains("| rules | player | games | attackers win |"),
        "{md}"
    );
    assert_eq!(
        md.matches("| `classic` |").count(),
        3,
        "one summary line and two cells"
    );
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(svg.matches("<polyline").count(), 2, "one line per rule set");
    assert!(svg.contains("<title>globe</title>"));
    // Bad input: exit 2 with the reason; nothing is played instead.
    std::fs::write(dir.join("empty.json"), r#"{"command": "x", "rows": []}"#).unwrap();
    std::fs::write(dir.join("junk.json"), "| rules | not json").unwrap();
    for (file, reason) in [
        ("missing.json", "cannot read --from"),
        ("empty.json", "has no rows"),
        ("junk.json", "is not the JSON of `agon balance --json`"),
    ] {
        let out = agon(&["balance", "--from", dir.join(file).to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(reason),
            "{file}"
        );
    }
    // Several saved runs: a cell measured in more than one is pooled (a
    // candidate played again with another seed), the others kept; the
    // command is this one, and the runs' commands are its sources.
    let again = agon(&[
        "balance",
        "--rules",
        "classic",
        "--players",
        "random",
        "--games",
        "6",
        "--seed",
        "2",
        "--json",
    ]);
    let second = dir.join("again.json");
    std::fs::write(&second, &again.stdout).unwrap();
    let out = agon(&[
        "balance",
        "--from",
        saved.to_str().unwrap(),
        second.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pooled = json(&out);
    let (first, again) = (json(&played), json(&again));
    assert!(pooled["command"]
        .as_str()
        .unwrap()
        .starts_with("agon balance --from"));
    assert_eq!(
        pooled["sources"],
        serde_json::json!([first["command"], again["command"]])
    );
    let rows = pooled["rows"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        4,
        "classic and globe, random and greedy: {pooled}"
    );
    let cell = |v: &serde_json::Value, rules: &str, player: &str| {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["rules"] == rules && r["player"] == player)
            .unwrap()
            .clone()
    };
    let both = cell(&pooled, "classic", "random");
    let (a, b) = (
        cell(&first, "classic", "random"),
        cell(&again, "classic", "random"),
    );
    assert_eq!(both["games"], 10);
    assert_eq!(
        both["attackers_wins"].as_u64(),
        Some(a["attackers_wins"].as_u64().unwrap() + b["attackers_wins"].as_u64().unwrap())
    );
    assert_eq!(
        cell(&pooled, "globe", "greedy"),
        cell(&first, "globe", "greedy")
    );
    // One missing file of several refuses the whole, with the reason.
    let out = agon(&[
        "balance",
        "--from",
        saved.to_str().unwrap(),
        dir.join("missing.json").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read --from"));
    let out = agon(&["balance", "--from", saved.to_str().unwrap(), "--games", "3"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--from plays nothing, so --games is refused"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_reader_that_stops_reading_ends_the_output_quietly() {
    // `agon … | head`: the pipe closes before the table is written. Unix
    // tools stop quietly there; `print!` would have panicked.
    for args in [
        vec!["ringo", "show"],
        vec!["ringo", "legal", "--rules", "globe"],
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_agon"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

#[test]
fn reviews_grade_every_ply_and_refuse_bad_records_with_the_token_index() {
    let v = json(&agon(&[
        "ringo",
        "review",
        "--rules",
        "classic",
        "--moves",
        "b6-b5 b1-b2",
        "--depth",
        "3",
    ]));
    assert_eq!(v["plies"].as_array().unwrap().len(), 2);
    for p in v["plies"].as_array().unwrap() {
        if p["played"] == p["best"] {
            assert_eq!(p["loss"], 0.0, "{p}");
        }
    }
    let v = json(&agon(&[
        "urgammon",
        "review",
        "--record",
        "start:2-3 P-2a r2 P-2b r1 v+ 2a-7",
        "--level",
        "4",
    ]));
    assert!(v["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["kind"] == "verdict"));
    for (args, needle) in [
        (vec!["ringo", "review", "--moves", "b6-b5 zz"], "index 1"),
        (
            vec!["urgammon", "review", "--record", "start:2-3 P-2a r9"],
            "token 2",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_agon"))
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(needle),
            "{args:?}"
        );
    }
}
