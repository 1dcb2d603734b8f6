//! `agon serve`'s and `agon worker`'s flags as an operator meets them: the
//! help never shows a secret read from the environment, and a bad push
//! allowance is refused with a clear error before anything starts.

use std::process::Command;

fn agon(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(args)
        .env(
            "AGON_DATABASE",
            "postgres://agon:hunter2-secret@127.0.0.1/agon",
        )
        .output()
        .unwrap()
}

#[test]
fn the_help_never_prints_the_database_password() {
    for command in [["serve", "--help"], ["worker", "--help"]] {
        let out = agon(&command);
        assert!(out.status.success(), "{command:?}");
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains("AGON_DATABASE"), "{command:?}: {help}");
        assert!(!help.contains("hunter2"), "{command:?} shows the password");
    }
}

#[test]
fn push_allowances_are_checked_when_the_server_starts() {
    for (flag, value) in [
        ("--push-allow-ports", "0"),
        ("--push-allow-ports", "everything"),
        ("--push-allow-network", "10.0.0.0/33"),
        ("--push-allow-network", "localhost"),
        ("--push-resolve", "push.example.test"),
        ("--push-resolve", "push.example.test=localhost"),
    ] {
        let out = agon(&["serve", flag, value]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(flag) && err.contains(value),
            "{flag} {value}: {err}"
        );
    }
}
