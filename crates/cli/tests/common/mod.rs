//! Helpers shared by the CLI tests: run `agon` and read its JSON.
#![allow(dead_code)]

use serde_json::Value;
use std::process::{Command, Output};

/// Runs `agon` with arguments and returns its output.
pub fn agon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(args)
        .output()
        .expect("agon runs")
}

/// The one-line JSON object a successful command printed.
pub fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(
        text.lines().count(),
        1,
        "one JSON object on one line: {text}"
    );
    serde_json::from_str(&text).unwrap()
}
