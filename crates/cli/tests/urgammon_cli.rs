//! The `agon urgammon` command-line contract, run as a real process.

mod common;

use common::{agon, agon_with_input};

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

fn legal(record: &str) -> Value {
    let out = agon(&["urgammon", "legal", "--record", record]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    serde_json::from_str(&text).unwrap()
}

#[track_caller]
fn assert_bad(record: &str, needle: &str) {
    let out = agon(&["urgammon", "legal", "--record", record]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "{err:?} should contain {needle:?}");
}

#[test]
fn phases_through_the_example_opening() {
    let v = legal("");
    assert_eq!(v["phase"], "opening");
    assert_eq!(v["to_act"], Value::Null);
    assert_eq!(v["value"], Value::Null);
    let v = legal("start:3-3");
    assert_eq!(v["phase"], "opening");
    let v = legal("start:3-3 start:2-3");
    assert_eq!(
        (v["phase"].clone(), v["to_act"].clone(), v["value"].clone()),
        (json!("move"), json!("light"), json!(2))
    );
    assert_eq!(v["moves"], json!(["P-2a"]));
    assert_eq!(v["promoted_moves"], json!([]));
    let v = legal("start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a");
    assert_eq!(
        (v["phase"].clone(), v["to_act"].clone()),
        (json!("roll"), json!("light"))
    );
    assert_eq!(v["moves"], json!([]));
    // r1: steps and an entry; YES (5) would allow 2a-7 too, so light decides.
    let v = legal("start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1");
    assert_eq!(v["phase"], "decide");
    assert_eq!(v["promoted_moves"], json!(["2a-7", "4a-9"]));
    assert_eq!(v["moves"], json!(["2a-3a", "4a-5", "P-1a"]));
    let v = legal("start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1 2a-3a");
    assert_eq!(
        (v["phase"].clone(), v["to_act"].clone()),
        (json!("roll"), json!("dark"))
    );
    assert_eq!(v["last_turn"], false);
    assert_eq!(v["result"], Value::Null);
}

#[test]
fn decide_and_verdict_phases() {
    // Light's pawns all in play: r1 leaves a step and YES allows chariot entry.
    let rec = "start:1-2 P-1a r2 P-2b r2 P-2a r1 2b-3b r3 P-3a r4 3b-7";
    let v = legal(&format!("{rec} r1"));
    assert_eq!(v["phase"], "decide");
    assert_eq!(v["value"], 1);
    assert_eq!(v["moves"], json!(["3a-4a"]));
    // Dark's pawn on 7 can be captured by light's pawn from 2a.
    assert_eq!(v["promoted_moves"], json!(["1a-6", "2ax7", "3a-8", "C-5"]));
    let v = legal(&format!("{rec} r1 v+"));
    assert_eq!(
        (v["phase"].clone(), v["value"].clone()),
        (json!("move"), json!(5))
    );
    assert_eq!(v["moves"], json!(["1a-6", "2ax7", "3a-8", "C-5"]));
    assert_eq!(v["promoted_moves"], json!([]));
    let v = legal(&format!("{rec} r1 v-"));
    assert_eq!(
        (v["phase"].clone(), v["to_act"].clone()),
        (json!("roll"), json!("dark"))
    );
    // "A move is written with x exactly when it captures"
    let v = legal(&format!("{rec} r1 v+ 2ax7"));
    assert_eq!(v["to_act"], "dark");
    assert_eq!(v["dark"]["waiting"]["P"], 3);
    assert_bad(&format!("{rec} r1 v+ 2a-7"), "captures; write 2ax7");
    assert_bad(&format!("{rec} r1 v+ 1ax6"), "captures nothing; write 1a-6");
}

#[test]
fn illegal_tokens_exit_2_with_index_token_and_reason() {
    assert_bad("r3", "token 0 ('r3')");
    assert_bad("r3", "opening roll");
    assert_bad("start:2-3 P-3a", "token 1 ('P-3a')");
    assert_bad("start:2-3 P-3a", "legal: P-2a");
    assert_bad("start:2-3 v+", "may not be rolled");
    assert_bad("start:2-3 P-2a P-3b", "must roll the chance die");
    assert_bad("start:2-5", "1 to 4");
    assert_bad("start:2-3 P-2a r7", "r1, r2, r3 or r4");
    assert_bad("start:2-3 Q-2a", "not a house or a piece letter");
    assert_bad("start:2-3 P-2ax", "not a house");
    assert_bad("urgammon match to=0", "use 1 to 99");
}

#[test]
fn match_records_report_the_score() {
    let v = legal("urgammon match to=3 draw=end stake=5\nstart:2-3 P-2a");
    assert_eq!(v["match"]["to"], 3);
    assert_eq!(v["match"]["score"], json!({"light": 0, "dark": 0}));
    assert_eq!(v["match"]["over"], false);
    assert_eq!(v["to_act"], "dark");
}

#[test]
fn replay_steps_through_a_record() {
    let dir = std::env::temp_dir().join(format!("agon-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, "start:3-3 start:2-3 P-2a r3 P-3b r4 P-4a r1 2a-3a\n").unwrap();
    let out = agon_with_input(
        &["urgammon", "replay", "--record", file.to_str().unwrap()],
        b"n\nn\nn\nb\n9\nq\n",
    );
    assert!(out.contains("token 3/9: P-2a"), "{out}");
    assert!(out.contains("token 2/9: start:2-3"), "{out}");
    assert!(out.contains("token 9/9: 2a-3a"), "{out}");
    let out = agon(&["urgammon", "replay", "--record", "/nonexistent/file"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_a_match_at_the_terminal() {
    // Answer every prompt with "1" (the first listed move); with a fixed seed the
    // match is reproducible, and it must end at the target with a payout.
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args([
            "urgammon", "play", "--seed", "5", "--to", "1", "--stake", "10",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        for _ in 0..4000 {
            if stdin.write_all(b"1\n").is_err() {
                break;
            }
        }
    });
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    feeder.join().unwrap();
    assert!(
        out.contains("Opening roll: light"),
        "{}",
        &out[..out.len().min(2000)]
    );
    assert!(
        out.contains("waiting: P"),
        "the board shows counts by piece type"
    );
    // Before any piece moves, each side has 7 × 17 steps to go.
    assert!(
        out.contains("palace: P0 C0 H0   to go: 119"),
        "the board shows the race count"
    );
    assert!(
        out.contains("Match over"),
        "{}",
        &out[out.len().saturating_sub(3000)..]
    );
    assert!(
        out.contains("pays") || out.contains("draw"),
        "{}",
        &out[out.len().saturating_sub(1000)..]
    );
    assert!(out.contains("Record:\nurgammon match to=1 draw=replay stake=10"));
    let bad = agon(&["urgammon", "play", "--stake", "lots"]);
    assert_eq!(bad.status.code(), Some(2));
    let bad = agon(&["urgammon", "play", "--draw", "maybe"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// A whole game played by a fixed rule (the first legal move, cycling dice,
/// the verdict die only when forced), as a record.
fn finished_game() -> Vec<String> {
    let mut game = urgammon::Game::new();
    let faces = [1, 2, 3, 4, 2, 1, 3];
    let mut i = 0;
    while !game.is_over() {
        let state = *game.state();
        let token = match state.phase() {
            urgammon::Phase::Opening => urgammon::Token::Start(1, 2),
            urgammon::Phase::Roll => {
                i += 1;
                urgammon::Token::Roll(faces[i % faces.len()])
            }
            urgammon::Phase::Verdict => {
                i += 1;
                urgammon::Token::Verdict(i % 2 == 0)
            }
            _ => urgammon::Token::Move(state.moves()[0]),
        };
        game.apply(token).unwrap();
    }
    game.token_texts().to_vec()
}

#[test]
fn the_last_token_of_a_game_shows_its_end() {
    let tokens = finished_game();
    let record = tokens.join(" ");
    // Rules page, section 5: the game is over when a side has borne off all
    // seven pieces (or the compensation turn is played); `legal` shows that
    // end, not the next game's opening.
    let v = legal(&record);
    assert_eq!(v["phase"], "over", "{v}");
    assert_eq!(v["to_act"], Value::Null);
    assert_eq!(v["moves"], json!([]));
    assert!(v["result"]["points"].as_u64().unwrap() >= 1, "{v}");
    assert!(v["result"]["kind"].is_string(), "{v}");
    let before = legal(&tokens[..tokens.len() - 1].join(" "));
    assert_ne!(before["phase"], "over");
    assert_eq!(before["result"], Value::Null);
    // In a match: that game's end, with the score, until the next game's first token.
    let v = legal(&format!("urgammon match to=99 draw=replay\n{record}"));
    assert_eq!(v["phase"], "over");
    assert_eq!(v["match"]["games"], 1);
    let points = v["result"]["points"].as_u64().unwrap();
    let winner = v["result"]["winner"]
        .as_str()
        .unwrap_or("light")
        .to_string();
    assert_eq!(v["match"]["score"][&winner], points);
    let v = legal(&format!(
        "urgammon match to=99 draw=replay\n{record}\nstart:2-1"
    ));
    assert_eq!(v["phase"], "move");
    assert_eq!(v["match"]["games"], 2);
    assert_eq!(v["to_act"], "dark");
    // A token after the end that is not an opening roll is refused.
    assert_bad(&format!("{record} r1"), "token");
}
