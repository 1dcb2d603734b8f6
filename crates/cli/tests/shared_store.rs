//! Several instances on one PostgreSQL store (issue 20's acceptance test): a
//! real PostgreSQL, two `agon serve` instances on different ports and an
//! `agon worker`, started from docs/deploy.md's steps 2 and 3 as written
//! (read from the file; only the ports replaced).
//!
//! - A friend game is created on instance A, joined and played on B and A in
//!   turn, watched over a WebSocket on each: every move reaches both.
//! - A game against the computer on instances with `--engine-threads 0` gets
//!   its replies from the worker.
//! - Killing A mid-game and going on on B loses no acknowledged move.
//! - Killing the worker mid-job and starting another completes the reply.
//!
//! Skipped (with a line saying so) when `AGON_TEST_DATABASE_URL` is not set;
//! `./test.sh` starts a throwaway PostgreSQL and sets it.

mod common;

use futures_util::StreamExt;
use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The revision of a friend game once its invite is used: the seat
/// changing hands is a change of the game like any other.
const JOINED: i64 = 1;

/// A child process killed when dropped, so a failing test leaves none behind.
struct Proc(Child, bool);

impl Proc {
    /// A process stopped with SIGTERM, so that it stops its own children
    /// (nginx's workers).
    fn graceful(child: Child) -> Proc {
        Proc(child, true)
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if self.1 {
            let _ = Command::new("kill")
                .args(["-TERM", &self.0.id().to_string()])
                .status();
        } else {
            let _ = self.0.kill();
        }
        let _ = self.0.wait();
    }
}

/// Starts `agon serve` on the shared database, with no engine of its own.
fn serve(db: &str, data: &std::path::Path) -> (Proc, String) {
    let (child, port) = common::start_serve(
        data,
        &[
            "--database",
            db,
            "--engine-threads",
            "0",
            "--engine-delay-ms",
            "0",
            "--rate-limit",
            "0",
            "--create-limit",
            "0",
        ],
    );
    (Proc(child, false), format!("127.0.0.1:{port}"))
}

/// Starts `agon worker` and waits for its first line.
fn worker(db: &str) -> Proc {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args([
            "worker",
            "--database",
            db,
            "--threads",
            "1",
            "--lease-secs",
            "2",
            "--engine-delay-ms",
            "0",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("agon worker starts");
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("Agon worker"), "{line}");
    Proc(child, false)
}

/// The command lines of docs/deploy.md's step `step` ("2." the web
/// instances, "3." the workers) that start with `agon {what}`, as written.
fn documented(step: &str, what: &str) -> Vec<Vec<String>> {
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/deploy.md"))
            .unwrap();
    let from = docs
        .find(&format!("\n{step} "))
        .unwrap_or_else(|| panic!("docs/deploy.md has a step {step}"));
    let block = &docs[from..];
    let block = &block[block.find("```sh").expect("its sh block") + 5..];
    let block = &block[..block.find("```").unwrap()];
    let lines: Vec<Vec<String>> = block
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with(&format!("agon {what} ")))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    assert!(!lines.is_empty(), "step {step} starts agon {what}");
    lines
}

/// Runs a documented command line as written, but for its `--port` (a
/// free one instead: the machine may be using 8081), with `AGON_DATABASE`
/// and `env` in its environment (the test's own settings, which a command
/// line would override) and its own folder as the working directory.
fn run_documented(
    line: &[String],
    db: &str,
    env: &[(&str, &str)],
    cwd: &std::path::Path,
) -> (Child, Option<u16>) {
    let mut args = line[1..].to_vec();
    let mut port = None;
    if let Some(i) = args.iter().position(|a| a == "--port") {
        let free = common::free_port();
        args[i + 1] = free.to_string();
        port = Some(free);
    }
    assert!(
        !args.iter().any(|a| a == "--database"),
        "the docs never put the database on a command line: {line:?}"
    );
    std::fs::create_dir_all(cwd).unwrap();
    let child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(&args)
        .env("AGON_DATABASE", db)
        .envs(env.iter().copied())
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .spawn()
        .expect("agon starts");
    (child, port)
}

/// Waits for a started process's first line, which must say `says`.
fn first_line(child: &mut Child, says: &str) {
    use std::io::BufRead;
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains(says), "{line}");
}

/// docs/deploy.md's step 2, instance `i` (0 or 1), as written but for its
/// port; the test's speed settings from the environment.
fn documented_serve(i: usize, db: &str, dir: &std::path::Path) -> (Proc, String) {
    let lines = documented("2.", "serve");
    let (mut child, port) = run_documented(
        &lines[i],
        db,
        &[
            ("AGON_ENGINE_DELAY_MS", "0"),
            ("AGON_RATE_LIMIT", "0"),
            ("AGON_CREATE_LIMIT", "0"),
        ],
        dir,
    );
    first_line(&mut child, "Agon is running");
    (
        Proc(child, false),
        format!("127.0.0.1:{}", port.expect("a documented port")),
    )
}

/// docs/deploy.md's step 3, its first worker, as written; a short lease so
/// a killed worker's job goes to the next one soon.
fn documented_worker(db: &str, dir: &std::path::Path) -> Proc {
    let lines = documented("3.", "worker");
    let (mut child, _) = run_documented(
        &lines[0],
        db,
        &[("AGON_ENGINE_DELAY_MS", "0"), ("AGON_LEASE_SECS", "2")],
        dir,
    );
    first_line(&mut child, "Agon worker");
    Proc(child, false)
}

async fn call(
    client: &reqwest::Client,
    method: &str,
    url: String,
    token: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = client.request(method.parse().unwrap(), url);
    if let Some(t) = token {
        req = req.header("x-agon-token", t);
    }
    if let Some(b) = body {
        req = req
            .header("content-type", "application/json")
            .body(b.to_string());
    }
    let res = req.send().await.expect("the instance answers");
    let status = res.status().as_u16();
    let text = res.text().await.unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// `POST /api/games/{id}/action` on an instance with a seat token.
async fn post_action(
    client: &reqwest::Client,
    addr: &str,
    id: &str,
    token: &str,
    body: Value,
) -> (u16, Value) {
    let url = format!("http://{addr}/api/games/{id}/action");
    call(client, "POST", url, Some(token), Some(body)).await
}

/// `GET /api/games/{id}` on an instance.
async fn get_game(client: &reqwest::Client, addr: &str, id: &str) -> (u16, Value) {
    call(
        client,
        "GET",
        format!("http://{addr}/api/games/{id}"),
        None,
        None,
    )
    .await
}

/// A classic Ringo friend game created on `create_on` (the creator takes
/// the attackers) and joined on `join_on`: its id, the attackers' and the
/// defenders' tokens, and the (now used) invite code.
async fn friend_game(
    client: &reqwest::Client,
    create_on: &str,
    join_on: &str,
) -> (String, [String; 2], String) {
    let (status, g) = call(
        client,
        "POST",
        format!("http://{create_on}/api/games"),
        None,
        Some(
            json!({"game": "ringo", "rules": "classic", "opponent": "friend", "side": "attackers"}),
        ),
    )
    .await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let invite = g["invite"].as_str().unwrap().to_string();
    let (status, joined) = call(
        client,
        "POST",
        format!("http://{join_on}/api/games/{id}/join"),
        None,
        Some(json!({ "invite": invite })),
    )
    .await;
    assert_eq!(status, 200, "{joined}");
    let token = |v: &Value| v["token"].as_str().unwrap().to_string();
    (id, [token(&g), token(&joined)], invite)
}

/// A Ringo game against the computer at `level`, created on an instance:
/// its id and the attackers' token.
async fn engine_game(client: &reqwest::Client, addr: &str, level: u8) -> (String, String) {
    let (status, e) = call(
        client,
        "POST",
        format!("http://{addr}/api/games"),
        None,
        Some(json!({"game": "ringo", "rules": "classic", "opponent": "engine", "level": level, "side": "attackers"})),
    )
    .await;
    assert_eq!(status, 201, "{e}");
    let text = |k: &str| e[k].as_str().unwrap().to_string();
    (text("id"), text("token"))
}

/// Plays the `turn`-th human move of an engine game on `addr`.
async fn human_move(
    client: &reqwest::Client,
    addr: &str,
    (id, token): &(String, String),
    game: &mut ringo::Game,
    turn: usize,
) {
    let legal = game.legal_moves();
    let m = legal[turn % legal.len()].to_notation(&legal);
    let (status, v) =
        post_action(client, addr, id, token, json!({"type": "move", "move": m})).await;
    assert_eq!(status, 200, "{v}");
    game.play_text(&m).unwrap();
}

/// Waits (up to `secs`) until the game stored behind `addr` reaches
/// `revision`, and plays its last move (the computer's reply) on `game`.
async fn await_reply(
    client: &reqwest::Client,
    addr: &str,
    id: &str,
    revision: i64,
    game: &mut ringo::Game,
    secs: u64,
) {
    let mut reply = None;
    eventually(secs, "the computer's reply", async || {
        let (_, v) = get_game(client, addr, id).await;
        reply = v["state"]["history"]
            .as_array()
            .and_then(|m| m.last().cloned());
        v["state"]["revision"].as_i64() == Some(revision)
    })
    .await;
    game.play_text(reply.unwrap().as_str().unwrap()).unwrap();
}

/// Watches a game's WebSocket, keeping every revision pushed.
async fn watch(addr: &str, id: &str) -> Arc<Mutex<Vec<i64>>> {
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
            .await
            .expect("the socket opens");
    let seen = Arc::new(Mutex::new(vec![]));
    let out = seen.clone();
    tokio::spawn(async move {
        while let Some(Ok(msg)) = socket.next().await {
            if let Ok(text) = msg.to_text() {
                if let Ok(v) = serde_json::from_str::<Value>(text) {
                    if v["type"] == "state" {
                        if let Some(r) = v["state"]["revision"].as_i64() {
                            out.lock().unwrap().push(r);
                        }
                    }
                }
            }
        }
    });
    seen
}

/// Starts nginx with docs/deploy/nginx.conf in front of the two instances
/// (its ports and paths replaced by this test's), or `None` when nginx is not
/// installed (`./test.sh` installs it).
fn nginx(a: &str, b: &str, dir: &std::path::Path) -> Option<(Proc, String)> {
    let bin = ["/usr/sbin/nginx", "/usr/bin/nginx"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())?;
    let port = common::free_port();
    let conf = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/deploy/nginx.conf"
    ))
    .expect("docs/deploy/nginx.conf");
    std::fs::create_dir_all(dir).unwrap();
    let conf = conf
        .replace("127.0.0.1:8081", a)
        .replace("127.0.0.1:8082", b)
        .replace("listen 8080", &format!("listen 127.0.0.1:{port}"))
        .replace("/tmp/agon-nginx", &dir.join("nginx").to_string_lossy());
    let file = dir.join("nginx.conf");
    std::fs::write(&file, conf).unwrap();
    // Its output goes to a file: a worker that outlived the test would
    // otherwise hold the test's output open.
    let log = std::fs::File::create(dir.join("nginx.log")).unwrap();
    let child = Command::new(bin)
        .args(["-c", file.to_str().unwrap(), "-g", "daemon off;"])
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("nginx starts");
    let until = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < until, "nginx did not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    Some((Proc::graceful(child), format!("127.0.0.1:{port}")))
}

/// Waits until `check` holds, up to `secs` seconds.
async fn eventually(secs: u64, what: &str, mut check: impl AsyncFnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < until {
        if check().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("timed out waiting for {what}");
}

/// The seat (0 attackers, 1 defenders) to move after `moves` classic moves.
fn seat_after(moves: &[String]) -> usize {
    let mut game = ringo::Game::new("classic".parse().unwrap());
    for m in moves {
        game.play_text(m).unwrap();
    }
    game.position().to_move().index()
}

/// The test PostgreSQL server's admin URL, or `None` (with a line saying
/// so) when there is none; under `./test.sh` (`AGON_REQUIRE_ALL`) a missing
/// server fails the test instead of skipping it.
fn test_database() -> Option<String> {
    match std::env::var("AGON_TEST_DATABASE_URL") {
        Ok(url) => Some(url),
        Err(_) => {
            assert!(
                std::env::var_os("AGON_REQUIRE_ALL").is_none(),
                "AGON_TEST_DATABASE_URL is not set, and ./test.sh (AGON_REQUIRE_ALL) runs every test"
            );
            eprintln!(
                "skipped: AGON_TEST_DATABASE_URL is not set (./test.sh starts a throwaway PostgreSQL)"
            );
            None
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_that_kills_its_workers_falls_back_and_the_game_goes_on() {
    let Some(admin) = test_database() else { return };
    let db = fresh_database(&admin).await;
    let dir = std::env::temp_dir().join(format!("agon-fallback-{}", std::process::id()));
    let (_a, addr_a) = serve(&db, &dir.join("a"));
    let client = {
        // reqwest is built with TLS (for Web Push): its provider first.
        agon_server::push::install_tls();
        reqwest::Client::new()
    };
    let (pg, connection) = tokio_postgres::connect(&db, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    // The computer (the attackers) moves first: its move job is queued.
    let new_game = async || {
        let (status, e) = call(
            &client,
            "POST",
            format!("http://{addr_a}/api/games"),
            None,
            Some(json!({"game": "ringo", "opponent": "engine", "level": 10, "side": "defenders"})),
        )
        .await;
        assert_eq!(status, 201, "{e}");
        e["id"].as_str().unwrap().to_string()
    };
    let crashed = new_game().await;
    let given_up = new_game().await;
    eventually(10, "both move jobs queued", async || {
        let n: i64 = pg
            .query_one("SELECT COUNT(*) FROM jobs WHERE kind = 'move'", &[])
            .await
            .unwrap()
            .get(0);
        n == 2
    })
    .await;
    // One job has killed five workers already (each take counts an
    // attempt); the other was given up by a worker from before the fallback
    // existed, and stalled its game.
    pg.execute(
        "UPDATE jobs SET attempts = 5 WHERE game_id = $1",
        &[&crashed],
    )
    .await
    .unwrap();
    pg.execute(
        "UPDATE jobs SET attempts = 6, finished = TRUE,
                error = 'given up after 5 attempts' WHERE game_id = $1",
        &[&given_up],
    )
    .await
    .unwrap();
    let _w = worker(&db);
    // The crashed move is made again, at level 1, and the game goes on.
    eventually(30, "the crashed move made at level 1", async || {
        let (_, v) = get_game(&client, &addr_a, &crashed).await;
        v["state"]["revision"].as_i64() == Some(1)
    })
    .await;
    let payload: String = pg
        .query_one("SELECT payload FROM jobs WHERE game_id = $1", &[&crashed])
        .await
        .unwrap()
        .get(0);
    assert_eq!(payload, "fallback 1", "the job fell back to level 1");
    // The stalled game goes on once an instance looks at it afresh.
    let (_b, addr_b) = serve(&db, &dir.join("b"));
    let (status, v) = get_game(&client, &addr_b, &given_up).await;
    assert_eq!(status, 200, "{v}");
    eventually(30, "the stalled game's move", async || {
        let (_, v) = get_game(&client, &addr_b, &given_up).await;
        v["state"]["revision"].as_i64() == Some(1)
    })
    .await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_and_a_worker_share_one_postgres() {
    let Some(admin) = test_database() else { return };
    let db = fresh_database(&admin).await;
    let dir = std::env::temp_dir().join(format!("agon-shared-{}", std::process::id()));
    // Steps 2 and 3 of docs/deploy.md as written (the ports apart).
    let (mut a, addr_a) = documented_serve(0, &db, &dir.join("a"));
    let (mut b, addr_b) = documented_serve(1, &db, &dir.join("b"));
    let mut w1 = documented_worker(&db, &dir.join("w"));
    let client = {
        // reqwest is built with TLS (for Web Push): its provider first.
        agon_server::push::install_tls();
        reqwest::Client::new()
    };
    let api = |addr: &str, path: &str| format!("http://{addr}{path}");

    // A friend game, created on A, joined on B.
    let (id, [attackers, defenders], invite) = friend_game(&client, &addr_a, &addr_b).await;
    // The same invite is used once, whichever instance sees it again.
    let (status, _) = call(
        &client,
        "POST",
        api(&addr_a, &format!("/api/games/{id}/join")),
        None,
        Some(json!({ "invite": invite })),
    )
    .await;
    assert_eq!(status, 409);
    let on_a = watch(&addr_a, &id).await;
    let on_b = watch(&addr_b, &id).await;

    // Played on B and A in turn; every move reaches both watchers.
    let moves = common::random_ringo_moves("classic", 40, 11);
    let tokens = [attackers.as_str(), defenders.as_str()];
    let mut revision = JOINED;
    for (i, m) in moves.iter().take(12).enumerate() {
        let seat = seat_after(&moves[..i]);
        let addr = if i % 2 == 0 { &addr_b } else { &addr_a };
        let (status, v) = post_action(
            &client,
            addr,
            &id,
            tokens[seat],
            json!({"type": "move", "move": m, "expect_revision": revision}),
        )
        .await;
        assert_eq!(status, 200, "move {i} ({m}) on {addr}: {v}");
        revision = v["state"]["revision"].as_i64().unwrap();
        assert_eq!(revision, JOINED + i as i64 + 1);
    }
    for (name, seen) in [("A", &on_a), ("B", &on_b)] {
        eventually(
            10,
            &format!("every move on the watcher of {name}"),
            async || {
                let s = seen.lock().unwrap();
                (JOINED + 1..=revision).all(|r| s.contains(&r))
            },
        )
        .await;
    }
    // A move named from an old revision is refused on either instance.
    let seat = seat_after(&moves[..12]);
    let (status, v) = post_action(
        &client,
        &addr_a,
        &id,
        tokens[seat],
        json!({"type": "move", "move": moves[12], "expect_revision": 3}),
    )
    .await;
    assert_eq!(status, 409, "{v}");
    assert_eq!(v["code"], "stale-revision");

    // Undo and the dice ledger across instances: an Urgammon game on one
    // screen, each action on the other instance than the one before. After
    // an Undo made on B, the same move replayed on A and the roll made on B
    // give the die the ledger drew the first time.
    let (status, u) = call(
        &client,
        "POST",
        api(&addr_a, "/api/games"),
        None,
        Some(json!({"game": "urgammon", "opponent": "local", "to": 1})),
    )
    .await;
    assert_eq!(status, 201, "{u}");
    let uid = u["id"].as_str().unwrap().to_string();
    let utoken = u["token"].as_str().unwrap().to_string();
    let (_, got) = get_game(&client, &addr_b, &uid).await;
    let mut state = got["state"].clone();
    let mut hops = 0usize;
    let mut act = async |state: &Value, mut body: Value| -> Value {
        hops += 1;
        let addr = if hops.is_multiple_of(2) {
            &addr_a
        } else {
            &addr_b
        };
        body["expect_revision"] = state["revision"].clone();
        let (status, v) = post_action(&client, addr, &uid, &utoken, body.clone()).await;
        assert_eq!(status, 200, "{body} on {addr}: {v}");
        v["state"].clone()
    };
    // Play until the first move is followed by the next turn's roll.
    let mut first_move = None;
    loop {
        let phase = state["phase"].as_str().unwrap().to_string();
        let body = match phase.as_str() {
            "roll" => json!({"type": "roll"}),
            "verdict" => json!({"type": "verdict"}),
            _ => {
                let m = state["moves"][0].as_str().unwrap().to_string();
                first_move.get_or_insert((m.clone(), state["tokens"].as_array().unwrap().len()));
                json!({"type": "move", "move": m})
            }
        };
        state = act(&state, body).await;
        if first_move.is_some() && state["phase"] != "roll" {
            break;
        }
    }
    let (m1, at) = first_move.unwrap();
    let rolled = state["tokens"][at + 1].clone();
    state = act(&state, json!({"type": "undo"})).await;
    assert_eq!(
        state["tokens"].as_array().unwrap().len(),
        at,
        "undo cut before the move"
    );
    state = act(&state, json!({"type": "move", "move": m1})).await;
    if state["phase"] == "roll" {
        state = act(&state, json!({"type": "roll"})).await;
    }
    assert_eq!(
        state["tokens"].as_array().unwrap()[at + 1],
        rolled,
        "the ledger gives the same die on the other instance"
    );

    // The deployment recipe: nginx in front of both instances, any instance
    // for any request, WebSockets passed through.
    let proxy = nginx(&addr_a, &addr_b, &dir.join("proxy"));
    if proxy.is_none() {
        assert!(
            std::env::var_os("AGON_REQUIRE_ALL").is_none(),
            "nginx is not installed, and ./test.sh (AGON_REQUIRE_ALL) runs every part of every test"
        );
        eprintln!("nginx is not installed: the proxy part of this test is skipped (./test.sh installs it)");
    }
    let mut proxied = None;
    // Accounts across instances: a session made through the proxy is known
    // to both instances, and signing out on one ends it on the other.
    if let Some((_, px)) = &proxy {
        let res = client
            .post(format!("http://{px}/api/account/signup"))
            .header("content-type", "application/json")
            .body(json!({"name": "ala", "password": "correct horse battery"}).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(res.status().as_u16(), 201);
        // nginx's access log has the request: its client, its path, never
        // a query's values. (nginx writes the line after the answer has
        // gone, so the test may read first: it waits for it.)
        let has_line = |logged: &str| {
            logged.lines().any(|l| {
                l.starts_with("127.0.0.1 ")
                    && l.contains("\"POST /api/account/signup HTTP/1.1\" 201")
            })
        };
        let mut logged = String::new();
        for _ in 0..50 {
            logged = std::fs::read_to_string(dir.join("proxy").join("nginx-access.log"))
                .expect("nginx's access log");
            if has_line(&logged) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert!(has_line(&logged), "{logged}");
        let cookie = res.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_string();
        let me = |addr: String| {
            let (client, cookie) = (client.clone(), cookie.clone());
            async move {
                client
                    .get(format!("http://{addr}/api/account"))
                    .header("cookie", cookie)
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            }
        };
        assert_eq!(me(addr_a.clone()).await, 200, "the session works on A");
        assert_eq!(me(addr_b.clone()).await, 200, "and on B");
        let out = client
            .post(format!("http://{addr_a}/api/account/logout"))
            .header("cookie", &cookie)
            .header("content-type", "application/json")
            .send()
            .await
            .unwrap();
        assert_eq!(out.status().as_u16(), 200);
        assert_eq!(
            me(addr_b.clone()).await,
            401,
            "signed out on A, it is over on B"
        );
        assert_eq!(me(px.clone()).await, 401);
    }
    if let Some((_, px)) = &proxy {
        let (pid, ptokens, _) = friend_game(&client, px, px).await;
        let through_proxy = watch(px, &pid).await;
        for (i, m) in moves.iter().take(6).enumerate() {
            let seat = seat_after(&moves[..i]);
            let (status, v) = post_action(
                &client,
                px,
                &pid,
                &ptokens[seat],
                json!({"type": "move", "move": m, "expect_revision": JOINED + i as i64}),
            )
            .await;
            assert_eq!(status, 200, "move {i} through the proxy: {v}");
        }
        eventually(
            10,
            "every move on the socket through the proxy",
            async || {
                let s = through_proxy.lock().unwrap();
                (JOINED + 1..=JOINED + 6).all(|r| s.contains(&r))
            },
        )
        .await;
        proxied = Some((pid, ptokens));
    }

    // A game against the computer: the instances do no engine work; the
    // worker replies.
    let engine = engine_game(&client, &addr_a, 3).await;
    let engine_watch = watch(&addr_b, &engine.0).await;
    let mut game = ringo::Game::new("classic".parse().unwrap());
    for turn in 0..3 {
        human_move(&client, &addr_a, &engine, &mut game, turn).await;
        let want = (turn as i64 + 1) * 2;
        await_reply(&client, &addr_b, &engine.0, want, &mut game, 30).await;
    }
    eventually(10, "the replies pushed on B", async || {
        let s = engine_watch.lock().unwrap();
        (1..=6).all(|r| s.contains(&r))
    })
    .await;

    // Kill A mid-game (kill -9): B has every move A acknowledged, and the
    // game goes on on B.
    let mut played = 12;
    for (i, m) in moves.iter().enumerate().skip(12).take(4) {
        let seat = seat_after(&moves[..i]);
        let (status, v) = post_action(
            &client,
            &addr_a,
            &id,
            tokens[seat],
            json!({"type": "move", "move": m}),
        )
        .await;
        assert_eq!(status, 200, "{v}");
        played = i + 1;
    }
    a.0.kill().unwrap();
    let _ = a.0.wait();
    let (status, v) = get_game(&client, &addr_b, &id).await;
    assert_eq!(status, 200);
    let stored: Vec<String> = v["state"]["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(stored, moves[..played].to_vec(), "every acknowledged move");
    let seat = seat_after(&moves[..played]);
    let (status, v) = post_action(
        &client,
        &addr_b,
        &id,
        tokens[seat],
        json!({"type": "move", "move": moves[played]}),
    )
    .await;
    assert_eq!(status, 200, "the game goes on on B: {v}");
    // Through the proxy too: nginx sends the requests A cannot take to B.
    if let (Some((_, px)), Some((pid, ptokens))) = (&proxy, &proxied) {
        for (i, m) in moves.iter().enumerate().skip(6).take(4) {
            let seat = seat_after(&moves[..i]);
            let (status, v) = post_action(
                &client,
                px,
                pid,
                &ptokens[seat],
                json!({"type": "move", "move": m, "expect_revision": JOINED + i as i64}),
            )
            .await;
            assert_eq!(status, 200, "move {i} through the proxy with A down: {v}");
        }
    }

    // Kill the worker mid-job: the job returns to the queue after its lease
    // and another worker completes the reply.
    let engine = engine_game(&client, &addr_b, 10).await;
    let eid = engine.0.clone();
    let mut game = ringo::Game::new("classic".parse().unwrap());
    let mut killed_mid_job = false;
    for turn in 0..4 {
        human_move(&client, &addr_b, &engine, &mut game, turn).await;
        let want = (turn as i64 + 1) * 2;
        if !killed_mid_job {
            // Wait until the worker holds the job, then kill it.
            eventually(30, "the worker to take the job", async || {
                let (_, h) = call(&client, "GET", api(&addr_b, "/api/health"), None, None).await;
                h["queue"]["running"].as_i64() == Some(1)
            })
            .await;
            w1.0.kill().unwrap();
            let _ = w1.0.wait();
            let (_, v) = get_game(&client, &addr_b, &eid).await;
            // The reply may have landed just before the kill; then try again
            // on the next move.
            if v["state"]["revision"].as_i64() == Some(want - 1) {
                killed_mid_job = true;
            }
            w1 = worker(&db);
        }
        await_reply(&client, &addr_b, &eid, want, &mut game, 60).await;
        if killed_mid_job {
            break;
        }
    }
    assert!(killed_mid_job, "the worker was never caught mid-job");
    let (_, h) = call(&client, "GET", api(&addr_b, "/api/health"), None, None).await;
    assert_eq!(h["backend"], "postgres", "{h}");

    // Analyses and reviews go through the queue too.
    let (status, v) = call(
        &client,
        "POST",
        api(&addr_b, "/api/analyze"),
        None,
        Some(json!({"game": "ringo", "rules": "classic", "depth": 3})),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert!(v["analysis"].is_object(), "the worker's analysis: {v}");
    let seat = seat_after(&moves[..played + 1]);
    let (status, v) = post_action(
        &client,
        &addr_b,
        &id,
        tokens[seat],
        json!({"type": "resign"}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (status, _) = call(
        &client,
        "GET",
        api(&addr_b, &format!("/api/games/{id}/review")),
        None,
        None,
    )
    .await;
    assert_eq!(status, 202, "the review is queued");
    eventually(60, "the worker's review", async || {
        let (status, _) = call(
            &client,
            "GET",
            api(&addr_b, &format!("/api/games/{id}/review")),
            None,
            None,
        )
        .await;
        status == 200
    })
    .await;

    // Graceful shutdown: SIGTERM closes the sockets with 1012 (reconnect).
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr_b}/api/games/{id}/ws"))
            .await
            .unwrap();
    let _ = socket.next().await; // the state
    let status = Command::new("kill")
        .args(["-TERM", &b.0.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let mut code = None;
    while let Ok(Some(Ok(msg))) = tokio::time::timeout(Duration::from_secs(10), socket.next()).await
    {
        if let tokio_tungstenite::tungstenite::Message::Close(Some(frame)) = msg {
            code = Some(u16::from(frame.code));
            break;
        }
    }
    assert_eq!(code, Some(1012), "closed with a reconnect hint");
    let exited = b.0.wait().unwrap();
    assert!(exited.success(), "B stops cleanly: {exited:?}");
    drop(w1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Creates a database of its own on the test server; returns its URL.
async fn fresh_database(admin: &str) -> String {
    let (client, connection) = tokio_postgres::connect(admin, tokio_postgres::NoTls)
        .await
        .expect("the test PostgreSQL server is reachable");
    tokio::spawn(connection);
    // Tests of this file run at once: a counter keeps two databases made
    // in the same millisecond apart.
    static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let name = format!(
        "agon_shared_{}_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis(),
        MADE.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    );
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap();
    let base = admin.rsplit_once('/').map_or(admin, |(b, _)| b);
    format!("{base}/{name}")
}

/// Runs `agon` with these arguments (no AGON_DATABASE from the environment)
/// and returns its exit code and standard error.
fn agon_fails(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args(args)
        .env_remove("AGON_DATABASE")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_databases_and_worker_settings_are_clear_errors() {
    let dir = std::env::temp_dir().join(format!("agon-bad-db-{}", std::process::id()));
    let serve = ["serve", "--data", dir.to_str().unwrap(), "--port", "0"];
    let nobody = "postgres://agon@127.0.0.1:1/agon";
    // Each: the arguments after `serve …` or `worker`, and what the error says.
    let cases: [(&[&str], &[&str], &str); 6] = [
        // No engine threads and no worker queue to give the work to.
        (&serve, &["--engine-threads", "0"], "--database"),
        (
            &serve,
            &["--database", "mysql://x/y"],
            "not a PostgreSQL URL",
        ),
        // Nobody there.
        (&serve, &["--database", nobody], "PostgreSQL"),
        (&["worker"], &[], "--database"),
        (&["worker"], &["--database", nobody], "PostgreSQL"),
        (
            &["worker"],
            &["--database", "x", "--threads", "many"],
            "--threads",
        ),
    ];
    for (command, args, says) in cases {
        let all: Vec<&str> = command.iter().chain(args).copied().collect();
        let (code, err) = agon_fails(&all);
        assert_eq!(code, Some(2), "{all:?}: {err}");
        assert!(err.contains(says), "{all:?}: {err}");
        assert!(!err.contains("panicked"), "{all:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A clocked friend game made and joined on `addr`, both first moves
/// played there (so its clock runs, kept by that instance): its id, tokens
/// and the moves played.
async fn clocked_game(
    client: &reqwest::Client,
    addr: &str,
    n: u64,
) -> (String, [String; 2], Vec<String>) {
    let (status, g) = call(
        client,
        "POST",
        format!("http://{addr}/api/games"),
        None,
        Some(
            json!({"game": "ringo", "rules": "classic", "opponent": "friend", "side": "attackers",
            "clock": {"base_secs": 60, "increment_secs": 1}}),
        ),
    )
    .await;
    assert_eq!(status, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let (status, j) = call(
        client,
        "POST",
        format!("http://{addr}/api/games/{id}/join"),
        None,
        Some(json!({ "invite": g["invite"] })),
    )
    .await;
    assert_eq!(status, 200, "{j}");
    let tokens = [
        g["token"].as_str().unwrap().to_string(),
        j["token"].as_str().unwrap().to_string(),
    ];
    let moves = common::random_ringo_moves("classic", 3, n);
    for (i, m) in moves.iter().take(2).enumerate() {
        let (status, v) = post_action(
            client,
            addr,
            &id,
            &tokens[i],
            json!({"type": "move", "move": m}),
        )
        .await;
        assert_eq!(status, 200, "{v}");
    }
    (id, tokens, moves)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_an_instance_during_200_clocked_games_loses_none_on_time() {
    let Some(admin) = test_database() else { return };
    let db = fresh_database(&admin).await;
    let dir = std::env::temp_dir().join(format!("agon-clocks-{}", std::process::id()));
    let (mut a, addr_a) = serve(&db, &dir.join("a"));
    let (_b, addr_b) = serve(&db, &dir.join("b"));
    let client = {
        // reqwest is built with TLS (for Web Push): its provider first.
        agon_server::push::install_tls();
        reqwest::Client::new()
    };
    // 200 live games, every clock running and kept by A.
    let mut games = vec![];
    for n in 0..200u64 {
        games.push(clocked_game(&client, &addr_a, n + 1).await);
    }
    // What each clock shows on B just before A dies.
    let mut before = vec![];
    for (id, _, _) in &games {
        // Taken before the request: the clock shown is read after it.
        let asked = Instant::now();
        let (status, v) = get_game(&client, &addr_b, id).await;
        assert_eq!(status, 200);
        assert_eq!(v["state"]["clock"]["running"], 0, "{v}");
        before.push((
            v["state"]["revision"].as_i64().unwrap(),
            v["state"]["clock"]["remaining_ms"][0].as_i64().unwrap(),
            asked,
        ));
    }
    let killed = Instant::now();
    a.0.kill().unwrap();
    let _ = a.0.wait();
    // B takes every clock over within a few seconds (A is dead after 3 s
    // without a heartbeat; B looks every second).
    for (id, _, _) in &games {
        let i = games.iter().position(|g| &g.0 == id).unwrap();
        eventually(15, "B to take the clock over", async || {
            let (_, v) = get_game(&client, &addr_b, id).await;
            v["state"]["revision"].as_i64().unwrap_or(0) > before[i].0
        })
        .await;
    }
    eprintln!(
        "200 clocks taken over {:?} after the kill",
        killed.elapsed()
    );
    for (i, (id, tokens, moves)) in games.iter().enumerate() {
        let (_, v) = get_game(&client, &addr_b, id).await;
        // Taken after the answer: every moment the clock could have run
        // between the two readings lies inside it.
        let between = before[i].2.elapsed().as_millis() as i64;
        let s = &v["state"];
        assert_eq!(s["over"], false, "lost because of the kill: {s}");
        assert_eq!(s["clock"]["running"], 0);
        // Never charged the seconds A was dead (at least the 3 s before it
        // is taken for dead): at most the time between the two readings
        // less those, with a second and a half for A's last beat (however
        // long the test took to read 200 games on a busy machine).
        let now = s["clock"]["remaining_ms"][0].as_i64().unwrap();
        let gap = before[i].1 - now;
        assert!(
            gap <= 1_500 + between - 3_000,
            "charged {gap} ms across the kill ({between} ms between the readings)"
        );
        // And the game goes on from B.
        let (status, v) = post_action(
            &client,
            &addr_b,
            id,
            &tokens[0],
            json!({"type": "move", "move": moves[2]}),
        )
        .await;
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["state"]["clock"]["running"], 1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Kill -9 of the instance keeping a live game's clock: the other
/// instance's sockets are never shown that clock running before it takes
/// the game over. They are told at once that it is paused where its keeper
/// was last seen alive (the keeper missed two heartbeats), and the takeover
/// resumes it from there: the page neither counts down time nobody keeps
/// nor jumps back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_surviving_instance_shows_a_paused_clock_until_it_takes_the_game_over() {
    let Some(admin) = test_database() else { return };
    let db = fresh_database(&admin).await;
    let dir = std::env::temp_dir().join(format!("agon-paused-{}", std::process::id()));
    let (mut a, addr_a) = serve(&db, &dir.join("a"));
    let (_b, addr_b) = serve(&db, &dir.join("b"));
    let client = {
        agon_server::push::install_tls();
        reqwest::Client::new()
    };
    let (id, tokens, moves) = clocked_game(&client, &addr_a, 7).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://{addr_b}/api/games/{id}/ws"))
            .await
            .expect("the socket opens");
    let next_state = async |socket: &mut tokio_tungstenite::WebSocketStream<_>| -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(15), socket.next())
                .await
                .expect("a message in time")
                .expect("the socket is open")
                .expect("no error");
            if let Ok(text) = msg.to_text() {
                let v: Value = serde_json::from_str(text).unwrap_or(Value::Null);
                if v["type"] == "state" {
                    return v["state"].clone();
                }
            }
        }
    };
    let first = next_state(&mut socket).await;
    assert_eq!(first["clock"]["running"], 0, "A keeps it running: {first}");
    assert_eq!(first["clock"].get("paused"), None);
    let revision = first["revision"].as_i64().unwrap();
    a.0.kill().unwrap();
    let _ = a.0.wait();
    let killed = Instant::now();
    let mut before_takeover = vec![];
    let taken = loop {
        let s = next_state(&mut socket).await;
        if s["revision"].as_i64().unwrap() > revision {
            break s;
        }
        before_takeover.push((killed.elapsed(), s));
    };
    for (_, s) in &before_takeover {
        assert_eq!(
            s["clock"]["running"],
            Value::Null,
            "the clock shown running before the takeover: {s}"
        );
    }
    let (when, paused) = before_takeover
        .iter()
        .find(|(_, s)| s["clock"]["paused"] == true)
        .expect("the sockets are told the clock is paused");
    assert!(
        *when < Duration::from_millis(2_500),
        "told {when:?} after the kill"
    );
    // A page opened meanwhile reads it paused too.
    let shown_left = paused["clock"]["remaining_ms"][0].as_i64().unwrap();
    // The takeover resumes it where it was shown paused: no jump back.
    assert_eq!(taken["clock"]["running"], 0, "{taken}");
    assert_eq!(taken["clock"].get("paused"), None);
    let taken_left = taken["clock"]["remaining_ms"][0].as_i64().unwrap();
    assert!(
        (shown_left - taken_left).abs() <= 250,
        "paused at {shown_left} ms, resumed at {taken_left} ms"
    );
    eprintln!("paused {when:?} after the kill at {shown_left} ms; taken over at {taken_left} ms");
    // And the game goes on from B.
    let (status, v) = post_action(
        &client,
        &addr_b,
        &id,
        &tokens[0],
        json!({"type": "move", "move": moves[2]}),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A PostgreSQL client program: on the PATH, or in Debian's
/// /usr/lib/postgresql/VERSION/bin (the newest).
fn pg_tool(name: &str) -> std::path::PathBuf {
    if Command::new(name).arg("--version").output().is_ok() {
        return name.into();
    }
    let mut found: Vec<std::path::PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin").join(name))
        .filter(|p| p.exists())
        .collect();
    found.sort_by_key(|p| {
        p.components()
            .nth(4)
            .and_then(|c| c.as_os_str().to_str()?.parse::<u32>().ok())
    });
    found.pop().unwrap_or_else(|| name.into())
}

/// docs/deploy.md's PostgreSQL backup, run as written (`pg_dump` while an
/// instance serves, `pg_restore` into an empty database): an instance on
/// the restored database serves the game, and play goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pg_dump_recipe_restores_every_game() {
    let Some(admin) = test_database() else { return };
    let db = fresh_database(&admin).await;
    let dir = std::env::temp_dir().join(format!("agon-pgdump-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (serving, addr) = serve(&db, &dir.join("a"));
    agon_server::push::install_tls();
    let client = reqwest::Client::new();
    let (id, tokens, _) = friend_game(&client, &addr, &addr).await;
    let moves = common::random_ringo_moves("classic", 12, 9);
    for (i, m) in moves.iter().take(10).enumerate() {
        let (s, v) = post_action(
            &client,
            &addr,
            &id,
            &tokens[i % 2],
            json!({"type": "move", "move": m}),
        )
        .await;
        assert_eq!(s, 200, "{v}");
    }
    // The recipe, while the instance serves.
    let dump = dir.join("agon.dump");
    let out = Command::new(pg_tool("pg_dump"))
        .arg("--format=custom")
        .arg(format!("--file={}", dump.display()))
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let restored = fresh_database(&admin).await;
    let out = Command::new(pg_tool("pg_restore"))
        .args(["--no-owner", "--exit-on-error"])
        .arg(format!("--dbname={restored}"))
        .arg(&dump)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    drop(serving);
    let (_restored, addr) = serve(&restored, &dir.join("b"));
    let (s, g) = get_game(&client, &addr, &id).await;
    assert_eq!(s, 200, "{g}");
    let history: Vec<&str> = g["state"]["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(
        history,
        moves[..10].iter().map(String::as_str).collect::<Vec<_>>()
    );
    let (s, v) = post_action(
        &client,
        &addr,
        &id,
        &tokens[0],
        json!({"type": "move", "move": moves[10]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rolling upgrade on PostgreSQL under the schema policy: while an
/// instance of this release serves, a newer release applies a compatible
/// (`expand_`) migration; the instance goes on serving, and another of this
/// release still starts beside the newer schema. A contract migration
/// then keeps a new instance of this release from starting, with the
/// reason, while the running one goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_upgrade_keeps_old_instances_serving_beside_a_newer_schema() {
    let Some(admin) = test_database() else { return };
    let db = fresh_database(&admin).await;
    let dir = std::env::temp_dir().join(format!("agon-rolling-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (_a, addr_a) = serve(&db, &dir.join("a"));
    agon_server::push::install_tls();
    let client = reqwest::Client::new();
    let (pg, connection) = tokio_postgres::connect(&db, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    // What the newer release's binary leaves behind: its change and its row.
    let newer = |version: i32, name: &'static str, change: &'static str| {
        let pg = &pg;
        async move {
            pg.batch_execute(change).await.unwrap();
            pg.execute(
                "INSERT INTO refinery_schema_history (version, name, applied_on, checksum) VALUES ($1, $2, '2027-01-01T00:00:00Z', '0')",
                &[&version, &name],
            )
            .await
            .unwrap();
        }
    };
    newer(
        900,
        "expand_games_seen_at",
        "ALTER TABLE games ADD COLUMN seen_at BIGINT",
    )
    .await;
    let moves = common::random_ringo_moves("classic", 4, 13);
    let (id, tokens, _) = friend_game(&client, &addr_a, &addr_a).await;
    let (s, v) = post_action(
        &client,
        &addr_a,
        &id,
        &tokens[0],
        json!({"type": "move", "move": moves[0]}),
    )
    .await;
    assert_eq!(s, 200, "the running instance serves on: {v}");
    // Another instance of this release starts beside the newer schema.
    let (_b, addr_b) = serve(&db, &dir.join("b"));
    let (s, v) = post_action(
        &client,
        &addr_b,
        &id,
        &tokens[1],
        json!({"type": "move", "move": moves[1]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    // A contract migration: a new instance of this release refuses.
    newer(
        901,
        "drop_games_seen_at",
        "ALTER TABLE games DROP COLUMN seen_at",
    )
    .await;
    let out = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args([
            "serve",
            "--database",
            &db,
            "--engine-threads",
            "0",
            "--port",
            "0",
        ])
        .arg("--data")
        .arg(dir.join("c"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("V901__drop_games_seen_at"), "{said}");
    // The running ones go on.
    let (s, v) = post_action(
        &client,
        &addr_a,
        &id,
        &tokens[0],
        json!({"type": "move", "move": moves[2]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `agon worker --metrics-bind`: its health says `ok` and names it; its
/// metrics (which promtool reads without a complaint) count the jobs it
/// ended and name its build.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_serves_its_health_and_metrics() {
    let Some(admin) = test_database() else { return };
    let db = fresh_database(&admin).await;
    let dir = std::env::temp_dir().join(format!("agon-worker-metrics-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (_serving, addr) = serve(&db, &dir.join("a"));
    let port = common::free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_agon"))
        .args([
            "worker",
            "--database",
            &db,
            "--threads",
            "1",
            "--engine-delay-ms",
            "0",
        ])
        .args([
            "--name",
            "w-metrics",
            "--metrics-bind",
            &format!("127.0.0.1:{port}"),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("agon worker starts");
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    let _worker = Proc(child, false);
    let client = reqwest::Client::new();
    let (status, health) = call(
        &client,
        "GET",
        format!("http://127.0.0.1:{port}/health"),
        None,
        None,
    )
    .await;
    assert_eq!(status, 200, "{health}");
    assert_eq!(
        (health["status"].as_str(), health["worker"].as_str()),
        (Some("ok"), Some("w-metrics"))
    );
    // One engine reply, made by the worker.
    let engine = engine_game(&client, &addr, 1).await;
    let mut game = ringo::Game::new("classic".parse().unwrap());
    human_move(&client, &addr, &engine, &mut game, 0).await;
    let metrics = || {
        let client = client.clone();
        async move {
            client
                .get(format!("http://127.0.0.1:{port}/metrics"))
                .send()
                .await
                .unwrap()
                .text()
                .await
                .unwrap()
        }
    };
    eventually(30, "the worker's move counted", async || {
        metrics()
            .await
            .contains("agon_worker_jobs_total{kind=\"move\",outcome=\"ok\"} 1")
    })
    .await;
    let body = metrics().await;
    assert!(body.contains("agon_worker_busy 0"), "{body}");
    assert!(body.contains("agon_build_info{"), "{body}");
    common::promtool_checks(&body);
    drop(out);
    let _ = std::fs::remove_dir_all(&dir);
}
