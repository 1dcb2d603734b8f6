//! `agon puzzles build` and `check` as a person runs them: a small set is
//! made (each puzzle checked as it is written); a puzzle whose answer was
//! changed is caught by `check`, and a file that does not read is an error,
//! not a panic.

mod common;

use common::{agon, json};

#[test]
fn a_small_set_is_built_and_checked_and_a_changed_answer_is_caught() {
    let dir = std::env::temp_dir().join(format!("agon-puzzles-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let out = agon(&[
        "puzzles",
        "build",
        "--out",
        d,
        "--ringo",
        "6",
        "--ringo-games",
        "0",
        "--games",
        "2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = json(&out);
    assert_eq!(report["ringo"], 18, "six a preset: {report}");
    assert!(report["urgammon"].as_u64().unwrap() > 0, "{report}");
    assert_eq!(report["failed"], serde_json::json!([]));

    // Another answer to the first Ringo puzzle: the check says which. (The
    // set keeps that one puzzle, so the check builds one preset's tables;
    // the whole shipped set's check is the server's unit test.)
    let path = dir.join("ringo.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut set: serde_json::Value = serde_json::from_str(&text).unwrap();
    let p = &mut set["puzzles"][0];
    let rules = p["rules"].as_str().unwrap().to_string();
    let position = p["position"].as_str().unwrap().to_string();
    let legal = json(&agon(&[
        "ringo",
        "legal",
        "--rules",
        &rules,
        "--position",
        &position,
    ]));
    let other = legal["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| **m != p["solution"][0])
        .unwrap()
        .clone();
    p["solution"] = serde_json::json!([other]);
    let id = p["id"].as_str().unwrap().to_string();
    let first = set["puzzles"][0].clone();
    set["puzzles"] = serde_json::json!([first]);
    std::fs::write(&path, set.to_string()).unwrap();
    let out = agon(&["puzzles", "check", "--dir", d]);
    assert_eq!(out.status.code(), Some(2));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["failed"][0][0], serde_json::json!(id), "{report}");

    // A damaged file: an error naming it.
    std::fs::write(&path, &text[..text.len() / 2]).unwrap();
    let out = agon(&["puzzles", "check", "--dir", d]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ringo.json"));
    std::fs::remove_dir_all(&dir).unwrap();
}
