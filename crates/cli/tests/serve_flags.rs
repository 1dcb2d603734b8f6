//! `agon serve`'s and `agon worker`'s flags as an operator meets them: each
//! also read from `AGON_<FLAG>`, all in docs/deploy.md's table; the help
//! never shows a secret read from the environment, and a bad push
//! allowance is refused with a clear error before anything starts.

mod common;

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

/// Every `--flag` of a command's help, with the variable it names.
fn flags(command: &str) -> Vec<(String, Option<String>)> {
    let out = agon(&[command, "--help"]);
    let help = String::from_utf8_lossy(&out.stdout).to_string();
    let mut found: Vec<(String, Option<String>)> = vec![];
    for line in help.lines() {
        let t = line.trim_start();
        let t = t.strip_prefix("-h, ").unwrap_or(t);
        if let Some(rest) = t.strip_prefix("--") {
            let flag = rest.split([' ', ',']).next().unwrap().to_string();
            found.push((flag, None));
        } else if let Some(rest) = t.strip_prefix("[env: ") {
            let name = rest.split(['=', ']']).next().unwrap().to_string();
            if let Some(last) = found.last_mut() {
                last.1 = Some(name);
            }
        }
    }
    found.retain(|(f, _)| f != "help" && f != "version");
    found
}

#[test]
fn every_flag_has_its_variable_and_a_row_in_the_deploy_docs() {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/deploy.md"))
            .unwrap();
    for command in ["serve", "worker"] {
        let all = flags(command);
        assert!(all.len() >= 6, "{command}: {all:?}");
        for (flag, env) in all {
            let want = format!("AGON_{}", flag.to_uppercase().replace('-', "_"));
            assert_eq!(env.as_deref(), Some(want.as_str()), "{command} --{flag}");
            let row = format!("| `--{flag}` | `{want}` |");
            assert!(docs.contains(&row), "docs/deploy.md lacks {row}");
        }
    }
}

#[test]
fn a_server_configured_by_its_environment_alone_serves_as_told() {
    let data = std::env::temp_dir().join(format!("agon-env-{}", std::process::id()));
    let port = common::free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .arg("serve")
        .env("AGON_DATA", &data)
        .env("AGON_PORT", port.to_string())
        .env("AGON_BIND", "127.0.0.1")
        .env("AGON_ALLOW_HOST", "agon.example.test,play.example.test")
        .env("AGON_LOG_FORMAT", "json")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    assert!(line.contains(&port.to_string()), "{line}");
    // Both names from the comma-separated variable are served; another is
    // not.
    let ask = |host: &str| {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            s,
            "GET /api/meta HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        let _ = s.read_to_string(&mut answer);
        answer.split(' ').nth(1).unwrap_or_default().to_string()
    };
    assert_eq!(ask("agon.example.test"), "200");
    assert_eq!(ask("play.example.test"), "200");
    assert_eq!(ask("evil.example.test"), "421");
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        data.join("agon.db").exists(),
        "the data folder came from AGON_DATA"
    );
    let _ = std::fs::remove_dir_all(&data);
}

/// A tournament schedule that does not read stops the start before
/// anything is served, naming the line; a missing file names the file.
#[test]
fn a_tournament_schedule_that_does_not_read_stops_the_start_and_says_where() {
    let dir = std::env::temp_dir().join(format!("agon-schedule-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("schedule.txt");
    std::fs::write(
        &bad,
        "# fine\nhourly arena ringo every=60 minutes=30 clock=180+2\nweekly swiss chess every=10080 rounds=5\n",
    )
    .unwrap();
    let data = dir.join("data");
    let out = agon(&[
        "serve",
        "--data",
        data.to_str().unwrap(),
        "--port",
        "0",
        "--tournaments",
        bad.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("line 3"), "{said}");
    assert!(!said.contains("panicked"), "{said}");
    let out = agon(&[
        "serve",
        "--data",
        data.to_str().unwrap(),
        "--tournaments",
        dir.join("none.txt").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("none.txt"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `agon --version` and `GET /api/meta` name the commit the binary was
/// built from (and whether its tree was modified), so a rolling upgrade is
/// checked instance by instance.
#[test]
fn the_version_names_the_commit_it_was_built_from() {
    let version = common::agon_version();
    let head = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let Some(head) = head else {
        assert!(version.contains("(unknown"), "outside git: {version}");
        return;
    };
    assert!(
        version.starts_with(&format!("agon {} ({head}", env!("CARGO_PKG_VERSION"))),
        "{version} (HEAD {head})"
    );
    let data = std::env::temp_dir().join(format!("agon-version-{}", std::process::id()));
    let (mut server, port) = common::start_serve(&data, &[]);
    let (status, body) = common::http(port, "GET", "/api/meta", None, "").unwrap();
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&data);
    assert_eq!(status, 200, "{body}");
    let meta: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(meta["build"]["commit"], head, "{}", meta["build"]);
    assert_eq!(meta["build"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(
        meta["build"]["modified"].as_bool(),
        Some(version.ends_with(", modified)")),
        "{version}"
    );
}
