//! Upgrades and rollbacks under the schema policy of docs/deploy.md
//! (expand, then contract): an instance of this release starts and serves
//! beside a database a newer release has migrated, when every newer
//! migration is an `expand_` one, and refuses with a clear error when one
//! is not. The newer release is played by writing its migration as refinery
//! would (its history row and its change), exactly what its binary would
//! leave behind. `agon migrate` is the step of its own.

mod common;

use std::process::Command;

/// Records a migration of a newer release in a SQLite database, with its
/// change.
fn newer_migration(db: &std::path::Path, version: i64, name: &str, change: &str) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch(change).unwrap();
    conn.execute(
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum) VALUES (?1, ?2, '2027-01-01T00:00:00Z', '0')",
        rusqlite::params![version, name],
    )
    .unwrap();
}

fn agon(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(args)
        .env_remove("AGON_DATABASE")
        .output()
        .unwrap()
}

#[test]
fn this_release_serves_beside_a_newer_compatible_schema_and_refuses_an_incompatible_one() {
    let data = std::env::temp_dir().join(format!("agon-upgrade-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let dir = data.to_str().unwrap();
    // The operator's own step.
    let out = agon(&["migrate", "--data", dir]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("is up to date"));
    // A newer release adds a column (expand): this one still serves.
    newer_migration(
        &data.join("agon.db"),
        900,
        "expand_games_seen_at",
        "ALTER TABLE games ADD COLUMN seen_at INTEGER",
    );
    let (mut server, port) = common::start_serve(&data, &["--rate-limit", "0"]);
    let games = common::local_games(port, "classic", 1);
    let m = &common::random_ringo_moves("classic", 1, 5)[0];
    let (status, body) = common::play_move(port, &games[0].0, &games[0].1, m);
    assert_eq!(status, 200, "{body}");
    server.kill().unwrap();
    server.wait().unwrap();
    let out = agon(&["migrate", "--data", dir]);
    assert!(out.status.success());
    // Routine: nothing logged at ERROR (someone must act), the newer
    // compatible schema noted at INFO.
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!said.contains("ERROR"), "{said}");
    assert!(
        said.contains("compatible (expand_) migrations only"),
        "{said}"
    );
    // Then it drops something (contract): this release refuses to start,
    // and says why and what to do.
    newer_migration(
        &data.join("agon.db"),
        901,
        "drop_games_seen_at",
        "ALTER TABLE games DROP COLUMN seen_at",
    );
    for args in [
        vec!["serve", "--data", dir, "--port", "0"],
        vec!["migrate", "--data", dir],
    ] {
        let out = agon(&args);
        assert!(
            !out.status.success(),
            "{args:?} started beside a contract migration"
        );
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("V901__drop_games_seen_at") && said.contains("expand_"),
            "{args:?}: {said}"
        );
    }
    let _ = std::fs::remove_dir_all(&data);
}
