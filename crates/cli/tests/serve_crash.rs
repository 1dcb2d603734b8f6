//! The crash test: kill `agon serve` in the middle of a game, restart it on the
//! same data directory, and check that no acknowledged move is lost.

mod common;

use common::http;

use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Starts the server with no engine delay and no rate limit (eight games are
/// played flat out from one address).
fn start(data: &std::path::Path) -> (Child, u16) {
    common::start_serve(data, &["--engine-delay-ms", "0", "--rate-limit", "0"])
}

/// How many games are played at once, so the server's writer commits their
/// moves in shared batches (group commit) when it is killed.
const GAMES: usize = 8;

#[test]
fn no_acknowledged_move_is_lost_when_the_server_is_killed() {
    let data = std::env::temp_dir().join(format!("agon-crash-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let (mut server, port) = start(&data);
    let games = common::local_games(port, "classic,repetition=draw", GAMES);

    // Play moves as fast as possible in every game at once, recording each one
    // the server acknowledged; kill the server while it is doing so.
    let moves = common::random_ringo_moves("classic,repetition=draw", 300, 7);
    let acked: Vec<Arc<Mutex<Vec<String>>>> =
        (0..GAMES).map(|_| Arc::new(Mutex::new(vec![]))).collect();
    let players: Vec<_> = games
        .iter()
        .zip(&acked)
        .map(|((id, token), acked)| {
            let (acked, id, token, moves) =
                (acked.clone(), id.clone(), token.clone(), moves.clone());
            std::thread::spawn(move || {
                for m in moves {
                    let body = format!(r#"{{"type":"move","move":"{m}"}}"#);
                    match http(
                        port,
                        "POST",
                        &format!("/api/games/{id}/action"),
                        Some(&token),
                        &body,
                    ) {
                        Ok((200, _)) => acked.lock().unwrap().push(m),
                        // No answer, or a cut-off one: the server is gone.
                        Ok((0, _)) | Err(_) => return,
                        Ok((status, body)) => panic!("{m}: {status} {body}"),
                    }
                }
            })
        })
        .collect();
    // Kill once some moves are in, mid-stream.
    let total = || acked.iter().map(|a| a.lock().unwrap().len()).sum::<usize>();
    for _ in 0..1000 {
        if total() >= 15 * GAMES {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    server.kill().unwrap(); // SIGKILL: no shutdown, no flush
    server.wait().unwrap();
    for p in players {
        p.join().unwrap();
    }
    assert!(
        total() >= 15 * GAMES,
        "moves were played before the kill: {}",
        total()
    );

    // Restart on the same data: in every game, every acknowledged move is there,
    // in order (one more may be there too, if it was stored but its answer was
    // lost).
    let (mut server, port) = start(&data);
    for ((id, token), acked) in games.iter().zip(&acked) {
        let acked = acked.lock().unwrap().clone();
        let history = common::history(port, id, token);
        assert!(
            history.len() >= acked.len() && history.len() <= acked.len() + 1,
            "{} vs {}",
            history.len(),
            acked.len()
        );
        assert_eq!(&history[..acked.len()], &acked[..]);
        assert_eq!(&history[..], &moves[..history.len()]);
        // And the game goes on.
        let next = &moves[history.len()];
        let (status, body) = http(
            port,
            "POST",
            &format!("/api/games/{id}/action"),
            Some(token),
            &format!(r#"{{"type":"move","move":"{next}"}}"#),
        )
        .unwrap();
        assert_eq!(status, 200, "{body}");
    }
    server.kill().unwrap();
    server.wait().unwrap();
    std::fs::remove_dir_all(&data).ok();
}

/// The seat's time left in a game's state.
fn left(body: &str, seat: usize) -> i64 {
    let v: serde_json::Value = serde_json::from_str(body).unwrap();
    v["state"]["clock"]["remaining_ms"][seat].as_i64().unwrap()
}

#[test]
fn a_restart_costs_a_live_game_no_time() {
    let data = std::env::temp_dir().join(format!("agon-restart-clock-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let (mut server, port) = start(&data);
    let (status, body) = http(
        port,
        "POST",
        "/api/games",
        None,
        r#"{"game":"ringo","opponent":"friend","side":"attackers","clock":{"base_secs":20,"increment_secs":0}}"#,
    )
    .unwrap();
    assert_eq!(status, 201, "{body}");
    let g: serde_json::Value = serde_json::from_str(&body).unwrap();
    let id = g["id"].as_str().unwrap().to_string();
    let tokens = [g["token"].as_str().unwrap().to_string(), {
        let (status, body) = http(
            port,
            "POST",
            &format!("/api/games/{id}/join"),
            None,
            &format!(r#"{{"invite":"{}"}}"#, g["invite"].as_str().unwrap()),
        )
        .unwrap();
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<serde_json::Value>(&body).unwrap()["token"]
            .as_str()
            .unwrap()
            .to_string()
    }];
    let moves = common::random_ringo_moves("classic", 3, 5);
    for (i, m) in moves.iter().take(2).enumerate() {
        let (status, body) = http(
            port,
            "POST",
            &format!("/api/games/{id}/action"),
            Some(&tokens[i]),
            &format!(r#"{{"type":"move","move":"{m}"}}"#),
        )
        .unwrap();
        assert_eq!(status, 200, "{body}");
    }
    // The attackers' clock runs; the server is killed and stays down 4 s.
    let (_, body) = http(port, "GET", &format!("/api/games/{id}"), None, "").unwrap();
    let before = left(&body, 0);
    server.kill().unwrap();
    let _ = server.wait();
    std::thread::sleep(Duration::from_secs(4));
    let (mut server, port) = start(&data);
    // The restarted server takes the clock over within its first second.
    std::thread::sleep(Duration::from_millis(1_500));
    let (_, body) = http(port, "GET", &format!("/api/games/{id}"), None, "").unwrap();
    let after = left(&body, 0);
    // At most the last second before the kill (the heartbeat's) and the
    // second and a half since the restart; never the four seconds down.
    assert!(
        before - after < 3_000,
        "charged {} ms across a 4 s restart: {body}",
        before - after
    );
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["state"]["clock"]["running"], 0, "{body}");
    // And the game goes on.
    let (status, body) = http(
        port,
        "POST",
        &format!("/api/games/{id}/action"),
        Some(&tokens[0]),
        &format!(r#"{{"type":"move","move":"{}"}}"#, moves[2]),
    )
    .unwrap();
    assert_eq!(status, 200, "{body}");
    server.kill().unwrap();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&data);
}
