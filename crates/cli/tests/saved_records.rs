//! A record downloaded from the web app ("Download record", `GET
//! /api/games/{id}/record`) is read by the terminal commands as it is, a
//! resignation included: `agon ringo show|replay|legal|play --file`, `agon
//! urgammon replay|legal|review --file`. The records come from a real
//! `agon serve`, as a player gets them.

mod common;

use common::{agon, agon_with_input, http, json, start_serve};
use std::path::PathBuf;

/// A scratch directory, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let p = std::env::temp_dir().join(format!("agon-saved-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Scratch(p)
    }
    fn file(&self, name: &str, text: &str) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn field(body: &str, key: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(body).unwrap();
    v[key].as_str().unwrap().to_string()
}

/// Plays `moves` in a same-screen game of `game`, resigns if asked, and
/// downloads its record as the page's "Download record" link does.
fn download(port: u16, game: &str, moves: &[&str], resign: bool) -> String {
    let (status, body) = http(
        port,
        "POST",
        "/api/games",
        None,
        &format!(r#"{{"game": "{game}", "opponent": "local"}}"#),
    )
    .unwrap();
    assert_eq!(status, 201, "{body}");
    let (id, token) = (field(&body, "id"), field(&body, "token"));
    let act = |action: &str| {
        let path = format!("/api/games/{id}/action");
        let (status, body) = http(port, "POST", &path, Some(&token), action).unwrap();
        assert_eq!(status, 200, "{action}: {body}");
    };
    for m in moves {
        act(&format!(r#"{{"type": "move", "move": "{m}"}}"#));
    }
    if resign {
        act(r#"{"type": "resign"}"#);
    }
    let (status, record) = http(port, "GET", &format!("/api/games/{id}/record"), None, "").unwrap();
    assert_eq!(status, 200, "{record}");
    record
}

#[test]
fn downloaded_records_replay_at_the_terminal() {
    let dir = Scratch::new("dl");
    let (mut server, port) = start_serve(
        &dir.0.join("data"),
        &["--rate-limit", "0", "--log-level", "warn"],
    );
    let ringo_resigned = download(port, "ringo", &["b6-b5", "b1-b2"], true);
    let ringo_open = download(port, "ringo", &["b6-b5"], false);
    let urgammon_resigned = download(port, "urgammon", &[], true);
    let urgammon_open = download(port, "urgammon", &[], false);
    server.kill().unwrap();
    let _ = server.wait();
    assert_eq!(
        ringo_resigned.trim(),
        "classic b6-b5 b1-b2 resign:attackers"
    );

    // Ringo: the board after the record, ended by the resignation.
    let resigned = dir.file("ringo.txt", &ringo_resigned);
    let out = agon(&["ringo", "show", "--file", &resigned]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Game over: the attackers resigned; the defenders win."),
        "{text}"
    );
    assert!(!text.contains("are to move"), "{text}");
    // Stepped through: forward, back, a jump, an unknown command, the end.
    let text = agon_with_input(
        &["ringo", "replay", "--file", &resigned],
        b"n\nb\n2\nzz\nq\n",
    );
    for line in [
        "--- ply 0/2: (start)",
        "--- ply 1/2: b6-b5",
        "--- ply 2/2: b1-b2",
        "Unknown command 'zz'.",
        "Game over: the attackers resigned",
    ] {
        assert!(text.contains(line), "{line:?} in:\n{text}");
    }
    // --all prints every ply, and the record may come on standard input.
    let text = agon_with_input(
        &["ringo", "replay", "--file", "-"],
        ringo_resigned.as_bytes(),
    );
    assert_eq!(text.matches("--- ply").count(), 3, "{text}");
    let text = String::from_utf8(
        agon(&[
            "ringo",
            "replay",
            "--record",
            ringo_resigned.trim(),
            "--all",
        ])
        .stdout,
    )
    .unwrap();
    assert_eq!(text.matches("--- ply").count(), 3, "{text}");
    // The JSON commands read it too.
    let v = json(&agon(&["ringo", "legal", "--file", &resigned]));
    assert_eq!(v["history"], serde_json::json!(["b6-b5", "b1-b2"]));
    // An unfinished game goes on at the terminal, with --moves or by typing.
    let open = dir.file("open.txt", &ringo_open);
    let v = json(&agon(&[
        "ringo", "legal", "--file", &open, "--moves", "b1-b2",
    ]));
    assert_eq!(v["history"], serde_json::json!(["b6-b5", "b1-b2"]));
    let text = agon_with_input(&["ringo", "play", "--file", &open], b"b1-b2\nquit\n");
    assert!(text.contains("Record: classic b6-b5 b1-b2"), "{text}");
    // A resigned game does not: it is over.
    let out = agon(&["ringo", "play", "--file", &resigned]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("the attackers resigned"));

    // Urgammon: the match record with its resignation.
    let urgammon = dir.file("urgammon.txt", &urgammon_resigned);
    let text = agon_with_input(&["urgammon", "replay", "--file", &urgammon], b"");
    assert!(text.contains("=== Game 1 of 1"), "{text}");
    let text =
        String::from_utf8(agon(&["urgammon", "replay", "--record", &urgammon, "--all"]).stdout)
            .unwrap();
    // Who resigned: the side to act after the opening roll, which the dice chose.
    let loser = urgammon_resigned.trim().rsplit("resign:").next().unwrap();
    let winner = if loser == "light" { "dark" } else { "light" };
    assert!(
        text.contains(&format!(
            "Match over: {loser} resigned; {winner} wins the match."
        )),
        "{text}"
    );
    let v = json(&agon(&["urgammon", "legal", "--file", &urgammon]));
    assert_eq!(v["match"]["to"], 7);
    let v = json(&agon(&["urgammon", "review", "--file", &urgammon]));
    assert!(v.is_object());
    // An unfinished match goes on at the terminal, its opening roll kept.
    let open = dir.file("urgammon-open.txt", &urgammon_open);
    let opening = urgammon_open.lines().nth(1).unwrap().trim();
    assert!(opening.starts_with("start:"), "{urgammon_open}");
    let text = agon_with_input(
        &["urgammon", "play", "--file", &open, "--seed", "5"],
        b"quit
",
    );
    assert!(
        text.contains("=== Game 1 — score light 0 : dark 0 (to 7) ==="),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "Record:\nurgammon match to=7 draw=replay\n{opening}"
        )),
        "{text}"
    );
    let out = agon(&["urgammon", "play", "--file", &urgammon]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("resigned (replay it"));
}

#[test]
fn bad_saved_records_get_clear_errors() {
    let dir = Scratch::new("bad");
    let cases: [(&[&str], &str); 8] = [
        (
            &["ringo", "show", "--record", "classic b6-b5 resign:dark"],
            "attackers or defenders",
        ),
        (
            &[
                "ringo",
                "show",
                "--record",
                "classic resign:attackers b6-b5",
            ],
            "invalid record",
        ),
        (
            &["ringo", "show", "--record", "nonsense b6-b5"],
            "invalid record",
        ),
        (
            &["ringo", "show", "--file", "/nonexistent/record.txt"],
            "cannot read /nonexistent/record.txt",
        ),
        (
            &["ringo", "show", "--record", "classic", "--rules", "globe"],
            "cannot be used with",
        ),
        (
            &[
                "ringo",
                "show",
                "--record",
                "classic b6-b5 resign:defenders",
                "--moves",
                "b1-b2",
            ],
            "ends with a resignation",
        ),
        (
            &[
                "urgammon",
                "legal",
                "--record",
                "start:3-2 resign:attackers",
            ],
            "light or dark",
        ),
        (&["urgammon", "review"], "nothing to review"),
    ];
    for (args, needle) in cases {
        let out = agon(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(needle),
            "{args:?}: {err:?} should say {needle:?}"
        );
    }
    // The record on standard input cannot also carry the typed moves.
    let record = dir.file("r.txt", "classic b6-b5");
    let out = agon(&["ringo", "play", "--file", "-"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("the moves are typed on standard input"));
    assert!(json(&agon(&["ringo", "legal", "--file", &record])).is_object());
}

#[test]
fn the_move_prompts_name_unknown_commands_and_what_undo_took() {
    let text = agon_with_input(
        &["ringo", "play"],
        b"save game.txt\nb6-b5\nundo\nundo\nquit\n",
    );
    assert!(
        text.contains("Unknown command 'save game.txt'. Type a move"),
        "{text}"
    );
    assert!(text.contains("Took back b6-b5."), "{text}");
    assert!(text.contains("Nothing to take back."), "{text}");
    // Against the engine, undo takes the engine's reply too and says both.
    let text = agon_with_input(
        &["ringo", "play", "--vs", "engine:1"],
        b"b6-b5\nundo\nquit\n",
    );
    let took = text
        .lines()
        .find(|l| l.contains("Took back"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(took.starts_with("attackers> Took back b6-b5 "), "{took}");
    assert!(text.ends_with("Record: classic\n"), "{text}");
    // Urgammon: `moves` shows the moves again; a word that is no move is named.
    let text = agon_with_input(&["urgammon", "play", "--seed", "3"], b"moves\nsave\nquit\n");
    assert!(text.contains("Unknown command 'save'."), "{text}");
    assert!(text.matches("1) P-2b").count() >= 3, "{text}");
}
