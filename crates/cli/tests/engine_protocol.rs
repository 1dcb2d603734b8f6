//! The engine protocol, driven line by line as a GUI would.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, Command, Stdio};

struct Session {
    stdin: ChildStdin,
    lines: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl Session {
    fn start() -> (Session, std::process::Child) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        (Session { stdin, lines }, child)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`; returns them all.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = vec![];
        for line in self.lines.by_ref() {
            let line = line.unwrap();
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
        panic!("no line starting with {prefix}: {seen:?}");
    }
}

#[test]
fn set_up_search_and_stop() {
    let (mut s, mut child) = Session::start();
    s.send("agon");
    assert!(s
        .until("agonok")
        .iter()
        .any(|l| l.starts_with("id name Agon")));
    s.send("rules globe");
    s.until("ok");
    s.send("position start moves b6-b5 b1-c1");
    s.until("ok");
    s.send("legal");
    assert!(s.until("legal")[0].contains("b5-b4"));
    s.send("go depth 5");
    let out = s.until("bestmove");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 5 score")),
        "{out:?}"
    );
    // A proven win is reported as such.
    s.send("rules classic");
    s.until("ok");
    s.send("position ......../......../......../......../......../..A..D.. 1 a");
    s.until("ok");
    s.send("go depth 3");
    let out = s.until("bestmove");
    assert!(
        out.iter().any(|l| l == "info proven attackers 1"),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "bestmove c1-F");
    // An infinite search stops on request, with a move.
    s.send("position start");
    s.until("ok");
    s.send("go infinite");
    s.send("isready");
    s.until("readyok");
    s.send("position start");
    assert!(s.until("error").last().unwrap().contains("busy"));
    s.send("stop");
    let out = s.until("bestmove");
    assert!(!out.last().unwrap().ends_with("none"));
    s.send("quit");
    assert!(child.wait().unwrap().success());
}

#[test]
fn malformed_commands_get_error_lines() {
    let (mut s, mut child) = Session::start();
    for bad in [
        "bogus",
        "rules chess",
        "position nonsense",
        "position start moves b6-b4",
        "go depth x",
        "go sideways 3",
        "game chess",
        "record r9",
        "go depth",
        "go level 0",
        "go level 11",
        "go level ten",
        "go level 3 seed -1",
        "go level 3 seed",
        "go seed 5 depth 2",
    ] {
        s.send(bad);
        let line = s.until("error").pop().unwrap();
        assert!(line.starts_with("error "), "{bad}: {line}");
    }
    s.send(&"x".repeat(10_000));
    assert!(s.until("error").pop().unwrap().contains("too long"));
    // Urgammon: the decision in a record.
    s.send("game urgammon");
    s.until("ok");
    s.send("record start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1");
    s.until("ok");
    s.send("go");
    let lines = s.until("bestmove");
    let best = lines.last().unwrap().clone();
    // The analysis comes first: one line per option, then the evaluation.
    let options: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info option "))
        .collect();
    assert_eq!(options.len(), 4, "{lines:?}");
    assert!(options[0].starts_with(&format!("info option {}", &best["bestmove ".len()..])));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info eval light plies 2 equity ")));
    s.send("match 7 3-5");
    s.until("ok");
    s.send("go level 8");
    let lines = s.until("bestmove");
    assert!(lines
        .iter()
        .all(|l| !l.starts_with("info option") || l.contains(" mwc ")));
    s.send("match 7 7-1");
    assert!(s.until("error").pop().unwrap().contains("already reached"));
    s.send("match off");
    s.until("ok");
    assert!(
        [
            "bestmove 2a-3a",
            "bestmove 4a-5",
            "bestmove P-1a",
            "bestmove verdict"
        ]
        .contains(&best.as_str()),
        "{best}"
    );
    s.send("isready");
    s.until("readyok");
    drop(s);
    assert!(
        child.wait().unwrap().success(),
        "end of input ends the engine cleanly"
    );
}

#[test]
fn end_of_input_stops_an_unbounded_search_at_once() {
    // `go` with no limit searches until stopped; closing stdin must stop it.
    let start = std::time::Instant::now();
    let out = common::agon_with_input(&["engine"], b"go\n");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(5),
        "the engine exited {:?} after its input ended",
        start.elapsed()
    );
    assert!(
        out.contains("bestmove"),
        "the stopped search reports: {out}"
    );
}

#[test]
fn a_line_that_is_not_utf8_gets_an_error_and_the_session_goes_on() {
    let out = common::agon_with_input(&["engine"], b"isready\n\xff\xfe go\nisready\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        ["readyok", "error line is not UTF-8", "readyok"],
        "{out}"
    );
}

/// The `info depth` line's `pv`, and the `bestmove`.
fn pv_and_best(lines: &[String]) -> (String, String) {
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth "))
        .unwrap_or_else(|| panic!("no info depth line: {lines:?}"));
    let pv = info.split(" pv ").nth(1).unwrap_or("").to_string();
    let best = lines.last().unwrap()["bestmove ".len()..].to_string();
    (pv, best)
}

#[test]
fn go_level_plays_as_the_level_does_in_games() {
    let (mut s, mut child) = Session::start();
    s.send("rules classic");
    s.until("ok");
    s.send("position start");
    s.until("ok");
    // Level 1's noise (±1500) picks nearly any move; the seed fixes which.
    let mut chosen = std::collections::BTreeSet::new();
    for seed in 1..=12 {
        s.send(&format!("go level 1 seed {seed}"));
        let lines = s.until("bestmove");
        let (pv, best) = pv_and_best(&lines);
        assert_eq!(
            pv, best,
            "the noisy levels report the chosen move: {lines:?}"
        );
        assert!(lines[0].starts_with("info depth 1 score "), "{lines:?}");
        chosen.insert(best);
    }
    assert!(
        chosen.len() >= 4,
        "level 1 plays as level 1 does, not the depth-1 best move: {chosen:?}"
    );
    s.send("go level 1 seed 5");
    let again = pv_and_best(&s.until("bestmove")).1;
    s.send("go level 1 seed 5");
    assert_eq!(pv_and_best(&s.until("bestmove")).1, again, "a seed repeats");
    // Level 10 reads the opponent first: nothing to read at the start.
    s.send("go level 10 movetime 200");
    let lines = s.until("bestmove");
    assert_eq!(
        lines[0], "info reading moves 0 evidence 0.00 fallible false",
        "{lines:?}"
    );
    assert!(lines[1].starts_with("info depth "), "{lines:?}");
    // Twenty moves of `greedy`'s `globe` defenders (game 5 of the recorded
    // games, docs/engine-results/globe--level:10--greedy--attackers.sees-repetitions.records.jsonl):
    // read as a one-move-lookahead player (evidence 16.65, the threshold is
    // 8), so level 10 plays for the likely reply and reports no single search.
    s.send("rules globe");
    s.until("ok");
    s.send(
        "position start moves b6-b5 d1-d2 f6-f5 b1-c1 h6-a6 d2-f2 f5-f4 f2-h2 b5-a5 c1-a1 \
         a5-a4 a1-d1 a4-a3 h2-g2 a6-a5 g2-c2 a3-a2 c2-g2 a2-a1 g2-c2 \
         d6-d5 c2-b2 g6-h6 b2-b1 a5-a4 b1-c1 d5-e5 h1-h2 h6-a6 c1-c2 \
         a6-a5 f1-g1 a4-a3 c2-e2 a5-a4 e2-f2 f4-g4 h2-h1 c6-c5 f2-h2",
    );
    s.until("ok");
    s.send("go level 10 movetime 300");
    let lines = s.until("bestmove");
    assert!(
        lines[0].starts_with("info reading moves 20 evidence ")
            && lines[0].ends_with(" fallible true"),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth ")),
        "{lines:?}"
    );
    s.send("legal");
    let legal = s.until("legal").pop().unwrap();
    let best = lines.last().unwrap()["bestmove ".len()..].to_string();
    assert!(legal.split(' ').any(|m| m == best), "{best} in {legal}");
    s.send("quit");
    assert!(child.wait().unwrap().success());
}
