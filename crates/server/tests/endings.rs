//! Every way a game ends, through the HTTP API and the WebSocket, each
//! through the one finisher: a win by the rules, a resignation, a flag, an
//! abort by a player, an abort by the server's first-move wait, a claim,
//! correspondence days run out. For each: the stored result, the rating
//! (changed, or not), both profiles' tallies, the games list's outcome per
//! seat, the final state a socket was pushed, and a rated pair's second
//! game where one is due (never after an abort). The same on PostgreSQL
//! with `AGON_TEST_STORE=postgres`.

mod common;

use agon_server::store::Store;
use agon_server::{app, AppState, Options};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;

/// Where a table's store lives, so that it can be opened again.
enum Place {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Place {
    async fn open(&self) -> Store {
        match self {
            Place::Sqlite(dir) => Store::open(dir).unwrap(),
            Place::Postgres(url) => Store::connect(url).await.unwrap(),
        }
    }

    /// Moves a game's clock back: its turn began `ms` earlier.
    async fn shift_clock(&self, id: &str, ms: i64) {
        let shifted = |clock: String| {
            let mut c: Value = serde_json::from_str(&clock).unwrap();
            c["since_ms"] = json!(c["since_ms"].as_i64().unwrap() - ms);
            c.to_string()
        };
        match self {
            Place::Sqlite(dir) => {
                let db = rusqlite::Connection::open(dir.join("agon.db")).unwrap();
                let clock: String = db
                    .query_row("SELECT clock FROM games WHERE id = ?1", [id], |r| r.get(0))
                    .unwrap();
                db.execute(
                    "UPDATE games SET clock = ?1 WHERE id = ?2",
                    (shifted(clock), id),
                )
                .unwrap();
            }
            Place::Postgres(url) => {
                let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                    .await
                    .unwrap();
                tokio::spawn(connection);
                let row = client
                    .query_one("SELECT clock FROM games WHERE id = $1", &[&id])
                    .await
                    .unwrap();
                let clock: String = row.get(0);
                client
                    .execute(
                        "UPDATE games SET clock = $1 WHERE id = $2",
                        &[&shifted(clock), &id],
                    )
                    .await
                    .unwrap();
            }
        }
    }
}

/// Two players at a server: ala and olek, each signed in.
struct Table {
    place: Place,
    options: Options,
    state: AppState,
    app: axum::Router,
    host: String,
    cookies: [String; 2],
}

impl Table {
    async fn new(test: &str, options: Options) -> Table {
        let place = if std::env::var("AGON_TEST_STORE").as_deref() == Ok("postgres") {
            let admin = common::pg_admin_url().expect("AGON_TEST_DATABASE_URL");
            Place::Postgres(common::pg_database(&admin, test).await)
        } else {
            let dir = std::env::temp_dir().join(format!(
                "agon-endings-{test}-{}-{}",
                std::process::id(),
                rand_suffix()
            ));
            let _ = std::fs::remove_dir_all(&dir);
            Place::Sqlite(dir)
        };
        let state = AppState::with_options(place.open().await, options.clone());
        let app = app(state.clone());
        let host = common::serve(app.clone()).await;
        let cookies = [
            common::signup(&app, "ala").await,
            common::signup(&app, "olek").await,
        ];
        Table {
            place,
            options,
            state,
            app,
            host,
            cookies,
        }
    }

    /// The server stops (its loops through the state's handle) and starts
    /// again on the same store.
    async fn restart(&mut self) {
        self.state.stop().await;
        self.state = AppState::with_options(self.place.open().await, self.options.clone());
        self.app = app(self.state.clone());
        self.host = common::serve(self.app.clone()).await;
    }

    async fn send(
        &self,
        method: &str,
        uri: &str,
        who: Option<usize>,
        body: Option<Value>,
    ) -> (u16, Value) {
        match who {
            Some(w) => common::as_account(&self.app, &self.cookies[w], method, uri, body).await,
            None => {
                let body = body.map(|b| b.to_string());
                let (status, v) = common::call(&self.app, method, uri, None, body.as_deref()).await;
                (status.as_u16(), v)
            }
        }
    }

    /// A rated friend game made by ala (seat 0) and joined by olek.
    async fn rated(&self, body: Value) -> String {
        let mut body = body;
        body["opponent"] = json!("friend");
        body["rated"] = json!(true);
        let (s, g) = self.send("POST", "/api/games", Some(0), Some(body)).await;
        assert_eq!(s, 201, "{g}");
        let id = g["id"].as_str().unwrap().to_string();
        let (s, j) = self
            .send(
                "POST",
                &format!("/api/games/{id}/join"),
                Some(1),
                Some(json!({"invite": g["invite"]})),
            )
            .await;
        assert_eq!(s, 200, "{j}");
        id
    }

    async fn state_of(&self, id: &str) -> Value {
        let (s, v) = self
            .send("GET", &format!("/api/games/{id}"), None, None)
            .await;
        assert_eq!(s, 200, "{v}");
        v["state"].clone()
    }

    /// The seat's player takes an action; its answer's state.
    async fn act(&self, id: &str, seat: usize, action: Value) -> Value {
        let who = self.player_of(id, seat).await;
        let (s, v) = self
            .send(
                "POST",
                &format!("/api/games/{id}/action"),
                Some(who),
                Some(action),
            )
            .await;
        assert_eq!(s, 200, "{v}");
        v["state"].clone()
    }

    /// Which of the two players holds `seat` of game `id`.
    async fn player_of(&self, id: &str, seat: usize) -> usize {
        let s = self.state_of(id).await;
        usize::from(s["players"][seat]["name"] != "ala")
    }

    /// The side to act plays the first legal Ringo move.
    async fn ringo_move(&self, id: &str) -> Value {
        let s = self.state_of(id).await;
        let seat = s["seat_to_act"].as_u64().unwrap() as usize;
        let m = s["moves"][0].clone();
        self.act(id, seat, json!({"type": "move", "move": m})).await
    }

    /// A spectator's socket on a game.
    async fn watch(
        &self,
        id: &str,
    ) -> tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>
    {
        let (ws, _) =
            tokio_tungstenite::connect_async(format!("ws://{}/api/games/{id}/ws", self.host))
                .await
                .expect("the game's socket opens");
        ws
    }

    /// A player's profile.
    async fn profile(&self, name: &str) -> Value {
        let (s, v) = self
            .send("GET", &format!("/api/users/{name}"), None, None)
            .await;
        assert_eq!(s, 200, "{v}");
        v
    }
}

impl Drop for Table {
    /// A SQLite table's folder goes with it: the suite leaves nothing in
    /// the temporary directory.
    fn drop(&mut self) {
        if let Place::Sqlite(dir) = &self.place {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::SeqCst)
}

/// What an end should leave.
struct Expected<'a> {
    status: &'a str,
    reason: Option<&'a str>,
    /// Ala's and olek's outcome.
    outcome: [&'a str; 2],
    /// The game (or its pair, or match) was rated by this end.
    rated: bool,
    /// A rated pair's second game opened.
    second: bool,
}

/// Checks one end everywhere it shows: the socket's last state, the
/// stored game, the list's outcomes per seat, both profiles' tallies and
/// ratings, and the pair's second game. Returns the final state.
async fn check_end<S>(t: &Table, ws: &mut S, id: &str, game: &str, want: Expected<'_>) -> Value
where
    S: futures_util::Stream<
            Item = Result<
                tokio_tungstenite::tungstenite::Message,
                tokio_tungstenite::tungstenite::Error,
            >,
        > + Unpin,
{
    // The socket is pushed the ended state (the finisher's work in it).
    let pushed = loop {
        let m = common::next_message(ws, Some("state")).await;
        if m["state"]["over"] == true {
            break m["state"].clone();
        }
    };
    let stored = t.state_of(id).await;
    for s in [&pushed, &stored] {
        assert_eq!(s["over"], true, "{s}");
        // Ringo's state says its status (Urgammon's says its match's
        // winner); the list says it for both.
        if s.get("status").is_some() {
            assert_eq!(s["status"], want.status, "{s}");
        }
        assert_eq!(s["reason"].as_str(), want.reason, "{s}");
        assert_eq!(s["rating_change"].is_array(), want.rated, "{s}");
        assert_eq!(s["rematch"].is_string(), want.second, "{s}");
    }
    assert_eq!(
        pushed["revision"], stored["revision"],
        "the socket has the last word"
    );
    // The list says what it means for each seat.
    let (_, list) = t
        .send("GET", &format!("/api/games?ids={id}"), None, None)
        .await;
    let entry = &list["games"][0];
    assert_eq!(entry["status"], want.status);
    let seat_of = |name: &str| usize::from(stored["players"][1]["name"] == name);
    for (who, name) in ["ala", "olek"].iter().enumerate() {
        assert_eq!(
            entry["outcome"][seat_of(name)],
            want.outcome[who],
            "{name}: {entry}"
        );
        // Her profile counts it where its outcome says: an abort is never
        // a win or a loss.
        let p = t.profile(name).await;
        let rows = p["results"].as_array().unwrap();
        let sum = |column: &str| -> u64 {
            rows.iter()
                .filter(|r| r["game"] == game)
                .map(|r| r[column].as_u64().unwrap())
                .sum()
        };
        let column = match want.outcome[who] {
            "won" => "won",
            "lost" => "lost",
            "drawn" => "drawn",
            _ => "aborted",
        };
        assert!(sum(column) >= 1, "{name}'s {column}: {p}");
        if column == "aborted" {
            assert_eq!(sum("won") + sum("lost") + sum("drawn"), 0, "{name}: {p}");
        }
        assert_eq!(
            p["ratings"][game]["games"].as_u64().unwrap() > 0,
            want.rated,
            "{name}'s rating: {p}"
        );
    }
    if want.second {
        let two = stored["rematch"].as_str().unwrap();
        let second = t.state_of(two).await;
        assert_eq!(second["pair"]["game"], 2, "{second}");
        assert_eq!(second["over"], false);
        assert_eq!(
            second["players"][0]["name"], stored["players"][1]["name"],
            "the seats swap"
        );
        // Its own first-move wait, which cannot end in an abort.
        assert_eq!(second["abortable"], false, "{second}");
        if stored["clock"].is_object() {
            let clock = &second["clock"];
            assert_eq!(clock["running"], Value::Null, "no clock runs: {second}");
            assert!(clock["first_move_deadline_ms"].is_i64(), "{second}");
        }
    }
    stored
}

impl Expected<'static> {
    /// An abort: no result, nothing rated, no pair goes on.
    const ABORTED: Expected<'static> = Expected {
        status: "aborted",
        reason: Some("abort"),
        outcome: ["aborted", "aborted"],
        rated: false,
        second: false,
    };
}

/// A live Ringo game, ala the attackers, a minute each.
fn live_ringo() -> Value {
    json!({"game": "ringo", "side": "attackers", "clock": {"base_secs": 60}})
}

fn options() -> Options {
    Options {
        engine_delay: Duration::ZERO,
        ..Options::default()
    }
}

#[tokio::test]
async fn a_win_by_the_rules_is_rated() {
    let t = Table::new("end_rules", options()).await;
    let id = t
        .rated(json!({"game": "urgammon", "side": "light", "to": 1}))
        .await;
    let mut ws = t.watch(&id).await;
    let mut s = t.state_of(&id).await;
    for _ in 0..2_000 {
        if s["over"] == true {
            break;
        }
        // Between two games of a match nobody is to act: either player
        // starts the next.
        let seat = s["seat_to_act"].as_u64().unwrap_or_else(|| {
            assert_eq!(s["between_games"], true, "nobody to act: {s}");
            0
        }) as usize;
        s = t.act(&id, seat, common::urgammon_step(&s, false)).await;
    }
    let winner = s["match"]["winner"].as_str().expect("the match is won");
    let ala_won = winner == "light";
    let status = if ala_won { "light-wins" } else { "dark-wins" };
    let outcome = if ala_won {
        ["won", "lost"]
    } else {
        ["lost", "won"]
    };
    check_end(
        &t,
        &mut ws,
        &id,
        "urgammon",
        Expected {
            status,
            reason: None,
            outcome,
            rated: true,
            second: false,
        },
    )
    .await;
}

#[tokio::test]
async fn a_resignation_ends_a_pairs_first_game_and_its_second_rates_the_pair() {
    let t = Table::new("end_resign", options()).await;
    let id = t.rated(json!({"game": "ringo", "side": "attackers"})).await;
    let mut ws = t.watch(&id).await;
    t.ringo_move(&id).await;
    t.act(&id, 0, json!({"type": "resign"})).await;
    let one = check_end(
        &t,
        &mut ws,
        &id,
        "ringo",
        Expected {
            status: "defenders-win",
            reason: Some("resignation"),
            outcome: ["lost", "won"],
            rated: false,
            second: true,
        },
    )
    .await;
    // Olek resigns the second: one game each, the pair rated once.
    let two = one["rematch"].as_str().unwrap().to_string();
    let mut ws = t.watch(&two).await;
    let olek_seat = usize::from(t.state_of(&two).await["players"][1]["name"] == "olek");
    t.act(&two, olek_seat, json!({"type": "resign"})).await;
    let status = if olek_seat == 0 {
        "defenders-win"
    } else {
        "attackers-win"
    };
    let end = check_end(
        &t,
        &mut ws,
        &two,
        "ringo",
        Expected {
            status,
            reason: Some("resignation"),
            outcome: ["won", "lost"],
            rated: true,
            second: false,
        },
    )
    .await;
    assert_eq!(end["pair"]["score"], json!([1.0, 1.0]));
}

#[tokio::test]
async fn a_flag_loses_the_game_and_the_pair_goes_on() {
    let t = Table::new("end_flag", options()).await;
    let id = t
        .rated(json!({"game": "ringo", "side": "attackers", "clock": {"base_secs": 1}}))
        .await;
    let mut ws = t.watch(&id).await;
    t.ringo_move(&id).await;
    t.ringo_move(&id).await;
    // The attackers (ala) think for ever.
    check_end(
        &t,
        &mut ws,
        &id,
        "ringo",
        Expected {
            status: "defenders-win",
            reason: Some("time"),
            outcome: ["lost", "won"],
            rated: false,
            second: true,
        },
    )
    .await;
}

#[tokio::test]
async fn an_abort_by_a_player_is_nobodys_win_and_nothing_follows() {
    let t = Table::new("end_abort", options()).await;
    let id = t.rated(live_ringo()).await;
    let mut ws = t.watch(&id).await;
    t.ringo_move(&id).await;
    t.act(&id, 1, json!({"type": "abort"})).await;
    check_end(&t, &mut ws, &id, "ringo", Expected::ABORTED).await;
}

#[tokio::test]
async fn an_abort_by_the_first_move_wait_is_nobodys_win_and_nothing_follows() {
    let t = Table::new(
        "end_first_move",
        Options {
            first_move: Duration::from_millis(400),
            ..options()
        },
    )
    .await;
    let id = t.rated(live_ringo()).await;
    let mut ws = t.watch(&id).await;
    check_end(&t, &mut ws, &id, "ringo", Expected::ABORTED).await;
}

#[tokio::test]
async fn a_pairs_second_game_waits_for_its_first_move_and_is_lost_not_aborted_without_it() {
    let t = Table::new(
        "end_second_wait",
        Options {
            first_move: Duration::from_millis(600),
            ..options()
        },
    )
    .await;
    let id = t.rated(live_ringo()).await;
    t.ringo_move(&id).await;
    t.ringo_move(&id).await;
    let one = t.act(&id, 0, json!({"type": "resign"})).await;
    let two = one["rematch"].as_str().expect("the pair's second game");
    // Nobody's clock runs in the pause and the first-move wait after it.
    let s = t.state_of(two).await;
    let clock = &s["clock"];
    assert_eq!(clock["running"], Value::Null, "{s}");
    assert_eq!(clock["remaining_ms"], json!([60_000, 60_000]), "{s}");
    let deadline = clock["first_move_deadline_ms"].as_i64().unwrap();
    let now = clock["now_ms"].as_i64().unwrap();
    assert!(
        deadline - now > agon_server::games::PAIR_PAUSE_MS,
        "the wait begins after the pause: {s}"
    );
    // The side to act lets its wait pass: it loses this game (the pair has
    // begun, so it is not aborted), and the pair is rated.
    let mut ws = t.watch(two).await;
    let first = s["players"][0]["name"].as_str().unwrap();
    let outcome = if first == "ala" {
        ["lost", "won"]
    } else {
        ["won", "lost"]
    };
    tokio::time::sleep(Duration::from_millis(
        agon_server::games::PAIR_PAUSE_MS as u64,
    ))
    .await;
    let end = check_end(
        &t,
        &mut ws,
        two,
        "ringo",
        Expected {
            status: "defenders-win",
            reason: Some("time"),
            outcome,
            rated: true,
            second: false,
        },
    )
    .await;
    assert!(end["pair"]["score"].is_array(), "{end}");
}

#[tokio::test]
async fn a_claim_wins_against_a_player_gone_long_enough() {
    let t = Table::new(
        "end_claim",
        Options {
            claim_after: Duration::from_secs(1),
            ..options()
        },
    )
    .await;
    let id = t.rated(live_ringo()).await;
    t.ringo_move(&id).await;
    t.ringo_move(&id).await;
    let mut ws = t.watch(&id).await;
    // Nobody has a socket as a player: olek is gone (the game last changed
    // a second or more ago, as the store counts whole seconds).
    tokio::time::sleep(Duration::from_millis(2_200)).await;
    let (s, g) = t.send("GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(s, 200);
    assert!(
        g["away_ms"][1].as_i64().unwrap() >= 1_000,
        "the page is told how long: {g}"
    );
    t.act(&id, 0, json!({"type": "claim"})).await;
    check_end(
        &t,
        &mut ws,
        &id,
        "ringo",
        Expected {
            status: "attackers-win",
            reason: Some("claim"),
            outcome: ["won", "lost"],
            rated: false,
            second: true,
        },
    )
    .await;
}

#[tokio::test]
async fn correspondence_days_run_out_and_the_side_to_act_loses() {
    let mut t = Table::new("end_days", options()).await;
    let id = t
        .rated(json!({"game": "ringo", "side": "attackers", "days": 1}))
        .await;
    t.ringo_move(&id).await;
    t.ringo_move(&id).await;
    // Two days pass while the attackers (ala) think, and the server
    // starts again.
    t.state.stop().await;
    t.place.shift_clock(&id, 2 * 86_400_000).await;
    t.restart().await;
    let mut ws = t.watch(&id).await;
    check_end(
        &t,
        &mut ws,
        &id,
        "ringo",
        Expected {
            status: "defenders-win",
            reason: Some("time"),
            outcome: ["lost", "won"],
            rated: false,
            second: true,
        },
    )
    .await;
    t.state.stop().await;
}

#[tokio::test]
async fn a_match_ended_by_the_verdict_die_is_finished_like_any_other() {
    let t = Table::new("end_verdict", options()).await;
    // The dice are the server's: matches are played (the verdict die rolled
    // whenever it may be) until one ends on a verdict roll.
    for n in 1..=100 {
        let id = t
            .rated(
                json!({"game": "urgammon", "side": "light", "to": 1, "clock": {"base_secs": 600}}),
            )
            .await;
        let mut ws = t.watch(&id).await;
        let mut s = t.state_of(&id).await;
        for _ in 0..2_000 {
            if s["over"] == true {
                break;
            }
            // Between two games of a match nobody is to act: either player
            // starts the next.
            let seat = s["seat_to_act"].as_u64().unwrap_or_else(|| {
                assert_eq!(s["between_games"], true, "nobody to act: {s}");
                0
            }) as usize;
            let step = if s["verdict_allowed"] == true {
                json!({"type": "verdict"})
            } else {
                common::urgammon_step(&s, false)
            };
            s = t.act(&id, seat, step).await;
        }
        let last = s["tokens"].as_array().unwrap().last().unwrap().clone();
        if last != "v-" {
            continue;
        }
        eprintln!("a match ended on the verdict die after {n} matches");
        let ala_won = s["match"]["winner"] == "light";
        let games = t.profile("ala").await["ratings"]["urgammon"]["games"]
            .as_u64()
            .unwrap();
        assert_eq!(games, n, "every match before was rated once");
        let end = check_end(
            &t,
            &mut ws,
            &id,
            "urgammon",
            Expected {
                status: if ala_won { "light-wins" } else { "dark-wins" },
                reason: None,
                outcome: if ala_won {
                    ["won", "lost"]
                } else {
                    ["lost", "won"]
                },
                rated: true,
                second: false,
            },
        )
        .await;
        assert_eq!(end["tokens"].as_array().unwrap().last().unwrap(), "v-");
        return;
    }
    panic!("no match of 100 ended on the verdict die");
}
