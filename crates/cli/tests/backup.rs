//! `agon backup` as an operator runs it (docs/deploy.md): a copy taken from
//! a serving instance under load, restored as the only file of a new data
//! directory, serves every move acknowledged before the backup began (and
//! none that was never acknowledged).

mod common;

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const GAMES: usize = 6;

fn start(data: &std::path::Path) -> (std::process::Child, u16) {
    common::start_serve(data, &["--engine-delay-ms", "0", "--rate-limit", "0"])
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("agon-backup-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn backup(data: &std::path::Path, file: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(["backup", "--data"])
        .arg(data)
        .arg(file)
        .output()
        .unwrap()
}

#[test]
fn a_backup_taken_under_load_restores_every_acknowledged_move() {
    let (data, restored, out) = (temp("data"), temp("restored"), temp("out"));
    std::fs::create_dir_all(&out).unwrap();
    let file = out.join("agon-backup.db");
    let (mut server, port) = start(&data);
    let games = common::local_games(port, "classic,repetition=draw", GAMES);
    // Every game played flat out, each acknowledged move recorded, until
    // told to stop.
    let moves = common::random_ringo_moves("classic,repetition=draw", 400, 11);
    let stop = Arc::new(AtomicBool::new(false));
    let acked: Vec<Arc<Mutex<usize>>> = (0..GAMES).map(|_| Arc::new(Mutex::new(0))).collect();
    let players: Vec<_> = games
        .iter()
        .zip(&acked)
        .map(|((id, token), acked)| {
            let (acked, id, token, moves, stop) = (
                acked.clone(),
                id.clone(),
                token.clone(),
                moves.clone(),
                stop.clone(),
            );
            std::thread::spawn(move || {
                for m in moves {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let (status, body) = common::play_move(port, &id, &token, &m);
                    assert_eq!(status, 200, "{m}: {body}");
                    *acked.lock().unwrap() += 1;
                }
            })
        })
        .collect();
    let counts = || -> Vec<usize> { acked.iter().map(|a| *a.lock().unwrap()).collect() };
    while counts().iter().sum::<usize>() < 20 * GAMES {
        std::thread::sleep(Duration::from_millis(5));
    }
    // The backup, exactly as docs/deploy.md says, while the moves go on.
    let before = counts();
    let made = backup(&data, &file);
    let after = counts();
    stop.store(true, Ordering::SeqCst);
    for p in players {
        p.join().unwrap();
    }
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let said = String::from_utf8_lossy(&made.stdout);
    assert!(
        said.contains("Backed up") && said.contains("checks out"),
        "{said}"
    );
    // It holds the password hashes: its owner's alone, as agon.db.
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the copy is {mode:o}");
    }
    assert!(
        after.iter().sum::<usize>() > before.iter().sum::<usize>(),
        "moves were acknowledged while the backup ran: {before:?} → {after:?}"
    );
    server.kill().unwrap();
    server.wait().unwrap();
    // The restore: the copy alone, as agon.db of a new data directory.
    std::fs::create_dir_all(&restored).unwrap();
    std::fs::copy(&file, restored.join("agon.db")).unwrap();
    let (mut server, port) = start(&restored);
    for (((id, token), b), a) in games.iter().zip(&before).zip(&after) {
        let history = common::history(port, id, token);
        assert!(
            *b <= history.len() && history.len() <= a + 1,
            "{id}: {} moves restored; {b} acknowledged before the backup, {a} by its end",
            history.len()
        );
        assert_eq!(&history[..], &moves[..history.len()]);
        // And the game goes on from there.
        let (status, body) = common::play_move(port, id, token, &moves[history.len()]);
        assert_eq!(status, 200, "{body}");
    }
    server.kill().unwrap();
    server.wait().unwrap();
    for dir in [&data, &restored, &out] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

#[test]
fn a_backup_never_overwrites_and_says_what_is_missing() {
    let out = temp("refusals");
    std::fs::create_dir_all(&out).unwrap();
    let made = backup(&out.join("nothing-here"), &out.join("b.db"));
    assert!(!made.status.success());
    assert!(
        String::from_utf8_lossy(&made.stderr).contains("no database at"),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let (mut server, _) = start(&out.join("data"));
    std::fs::write(out.join("taken.db"), b"keep me").unwrap();
    let made = backup(&out.join("data"), &out.join("taken.db"));
    assert!(!made.status.success());
    assert!(String::from_utf8_lossy(&made.stderr).contains("exists already"));
    assert_eq!(std::fs::read(out.join("taken.db")).unwrap(), b"keep me");
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&out);
}

/// Kills the server however the test ends.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_served_instance_keeps_every_move_acknowledged_after_a_backup() {
    // A backup's connection, closing, must not take the server's log with
    // it: the server used to drop its own locks on agon.db, so the backup's
    // connection thought itself the last one, checkpointed and deleted the
    // write-ahead log the server went on writing to, and every move after
    // the backup was gone after a crash.
    let (data, out) = (temp("after-data"), temp("after-out"));
    std::fs::create_dir_all(&out).unwrap();
    let (server, port) = start(&data);
    let server = Killed(server);
    let games = common::local_games(port, "classic,repetition=draw", 2);
    let moves = common::random_ringo_moves("classic,repetition=draw", 12, 5);
    for (id, token) in &games {
        for m in &moves[..3] {
            assert_eq!(common::play_move(port, id, token, m).0, 200);
        }
    }
    let made = backup(&data, &out.join("copy.db"));
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    for (id, token) in &games {
        for m in &moves[3..] {
            let (status, body) = common::play_move(port, id, token, m);
            assert_eq!(status, 200, "{m}: {body}");
        }
    }
    assert!(
        data.join("agon.db-wal").exists(),
        "the server's log was deleted under it"
    );
    // A crash (SIGKILL), and the same data directory served again.
    drop(server);
    let (server, port) = start(&data);
    let _server = Killed(server);
    for (id, token) in &games {
        assert_eq!(
            common::history(port, id, token),
            moves,
            "{id}: moves acknowledged after the backup were lost"
        );
    }
    drop(_server);
    for dir in [&data, &out] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
