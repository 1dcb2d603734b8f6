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

/// Runs `agon` with arguments, writes `input` to its stdin, closes it, and
/// returns what it printed on stdout.
pub fn agon_with_input(args: &[&str], input: &[u8]) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("agon runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("agon reads its input");
    String::from_utf8(child.wait_with_output().expect("agon ends").stdout).expect("UTF-8 output")
}
