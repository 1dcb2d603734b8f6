//! # The Agon web app
//!
//! An axum server: a REST API to create games and act in them, a WebSocket that
//! pushes every change to players and spectators, an SQLite store that keeps
//! every accepted token, and the browser front end, embedded in the binary.
//!
//! - Every move is checked by the rules crates; each seat has a secret token, and
//!   a request without the token of the seat to act cannot act.
//! - Dice are rolled here, with the operating system's secure generator, and
//!   stored like any other token.
//! - A token is stored (one transaction, WAL, `synchronous=FULL`) before the
//!   answer or any broadcast goes out, so an acknowledged move survives a crash.
//! - The engine thinks in `spawn_blocking` behind a semaphore, so the app stays
//!   responsive.
//!
//! [`app`] builds the router, so tests drive it without a socket.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod error;
pub mod live;
pub mod store;
pub mod views;

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use error::ApiError;
use live::{Action, Dice, Kind, Live};
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::{GameRow, Store};
use tokio::sync::{broadcast, Semaphore};

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// The largest WebSocket message accepted from a client, in bytes.
pub const MAX_WS_MESSAGE: usize = 4 * 1024;

/// Server settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// The data directory; the database is `agon.db` inside it.
    pub data: PathBuf,
    /// The address to listen on.
    pub addr: SocketAddr,
    /// How many engine computations may run at once.
    pub engine_threads: usize,
    /// A pause before each engine action, so people can follow the game.
    pub engine_delay: Duration,
}

/// The shared state of the app.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    store: Mutex<Store>,
    games: Mutex<HashMap<String, Arc<Slot>>>,
    engine: Arc<Semaphore>,
    engine_delay: Duration,
}

/// One game's place in memory: the live state, its broadcast channel, and
/// whether an engine task is running for it.
struct Slot {
    live: tokio::sync::Mutex<Live>,
    tx: broadcast::Sender<Arc<str>>,
    engine_running: AtomicBool,
}

impl Slot {
    fn new(live: Live) -> Arc<Slot> {
        Arc::new(Slot {
            live: tokio::sync::Mutex::new(live),
            tx: broadcast::channel(64).0,
            engine_running: AtomicBool::new(false),
        })
    }
}

/// Dice from the operating system's secure generator.
pub struct OsDice;

impl OsDice {
    fn below6() -> u8 {
        // Rejection sampling over bytes: 252 = 42 × 6, so every face is equally likely.
        loop {
            let mut b = [0u8; 1];
            if getrandom::fill(&mut b).is_err() {
                continue;
            }
            if b[0] < 252 {
                return b[0] % 6;
            }
        }
    }
}

impl Dice for OsDice {
    fn chance(&mut self) -> u8 {
        urgammon::CHANCE_FACES[OsDice::below6() as usize]
    }
    fn verdict(&mut self) -> bool {
        OsDice::below6() < urgammon::VERDICT_YES_FACES
    }
}

/// A fresh secret: 128 random bits in hex.
fn secret() -> String {
    let mut b = [0u8; 16];
    // If the OS generator fails, fall back to time and address entropy rather
    // than panicking; this never happens on a working system.
    if getrandom::fill(&mut b).is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        b = t.to_le_bytes();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A short public game id: 10 characters of base 32.
fn game_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut b = [0u8; 10];
    let _ = getrandom::fill(&mut b);
    b.iter()
        .map(|x| ALPHABET[(*x % 32) as usize] as char)
        .collect()
}

impl AppState {
    /// A state over a store.
    pub fn new(store: Store, engine_threads: usize, engine_delay: Duration) -> AppState {
        AppState {
            inner: Arc::new(Inner {
                store: Mutex::new(store),
                games: Mutex::new(HashMap::new()),
                engine: Arc::new(Semaphore::new(engine_threads.max(1))),
                engine_delay,
            }),
        }
    }

    fn with_store<T>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T, rusqlite::Error>,
    ) -> Result<T, ApiError> {
        let mut store = self
            .inner
            .store
            .lock()
            .map_err(|_| ApiError::Internal("store lock poisoned".into()))?;
        Ok(f(&mut store)?)
    }

    /// The slot of a game, loading it from the store when needed. A game loaded
    /// after a restart whose turn is the engine's starts the engine again.
    fn slot(&self, id: &str) -> Result<Arc<Slot>, ApiError> {
        if let Some(slot) = self.games_lock()?.get(id) {
            return Ok(slot.clone());
        }
        let (row, tokens) = self
            .with_store(|s| s.load(id))?
            .ok_or_else(|| ApiError::NotFound(id.to_string()))?;
        let live = Live::from_stored(row, tokens)?;
        let slot = {
            let mut games = self.games_lock()?;
            games
                .entry(id.to_string())
                .or_insert_with(|| Slot::new(live))
                .clone()
        };
        self.kick_engine(slot.clone());
        Ok(slot)
    }

    fn games_lock(
        &self,
    ) -> Result<std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>>, ApiError> {
        self.inner
            .games
            .lock()
            .map_err(|_| ApiError::Internal("games lock poisoned".into()))
    }

    /// Starts the engine task for a game if it is the engine's turn.
    fn kick_engine(&self, slot: Arc<Slot>) {
        if slot.engine_running.swap(true, Ordering::SeqCst) {
            return;
        }
        let app = self.clone();
        tokio::spawn(async move {
            loop {
                let acted = match app.engine_step(&slot).await {
                    Ok(acted) => acted,
                    Err(e) => {
                        eprintln!("engine: {e}");
                        false
                    }
                };
                if !acted {
                    break;
                }
            }
            slot.engine_running.store(false, Ordering::SeqCst);
        });
    }

    /// One engine action, if it is the engine's turn. Returns true if it acted.
    async fn engine_step(&self, slot: &Arc<Slot>) -> Result<bool, ApiError> {
        let (snapshot, version) = {
            let live = slot.live.lock().await;
            if live.row.mode != "engine"
                || live.is_over()
                || live.seat_to_act() != live.row.engine_seat
            {
                return Ok(false);
            }
            (live.clone(), live.tokens.len())
        };
        tokio::time::sleep(self.inner.engine_delay).await;
        let permit = self
            .inner
            .engine
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| ApiError::Internal("engine pool closed".into()))?;
        let action = tokio::task::spawn_blocking(move || engine_action(&snapshot))
            .await
            .map_err(|e| ApiError::Internal(format!("engine task: {e}")))?;
        drop(permit);
        let Some(action) = action else {
            return Ok(false);
        };
        let mut live = slot.live.lock().await;
        if live.tokens.len() != version {
            return Ok(true); // the game moved on (an undo); look again
        }
        let Some(seat) = live.row.engine_seat else {
            return Ok(false);
        };
        let mut next = live.clone();
        let new = next.act(seat, &action, &mut OsDice)?;
        let status = next.status();
        let from = live.tokens.len();
        let id = live.row.id.clone();
        self.with_store(|s| s.append(&id, from, &new, &status))?;
        *live = next;
        let _ = slot.tx.send(Arc::from(live.view().to_string()));
        Ok(true)
    }
}

/// What the engine does now: roll when it must roll, else the level's decision.
fn engine_action(live: &Live) -> Option<Action> {
    let level = agon_ai::Level::new(live.row.level.unwrap_or(5));
    let seed = live.tokens.len() as u64 ^ 0x5eed_a90e;
    let mut rng = agon_ai::Rng::new(seed ^ (u64::from(level.get()) << 32));
    match &live.rules {
        live::Rules::Ringo(g) => {
            // The search engine at the game's level; a 4 MB table per move keeps
            // many concurrent games cheap.
            let mut searcher = agon_ai::ringo_search::Searcher::with_weights(
                *g.rules(),
                agon_ai::ringo_eval::WEIGHTS,
                1 << 18,
            );
            let m = agon_ai::ringo_search::level_move(
                &mut searcher,
                g,
                level.get(),
                rng.next_u64(),
                None,
            )?;
            Some(Action::Move(m.to_notation(&g.legal_moves())))
        }
        live::Rules::Urgammon(m) => {
            let state = m.current().state();
            if state.phase() == urgammon::Phase::Roll {
                return Some(Action::Roll);
            }
            let side = state.to_act()?;
            // Decisions maximise the chance to win the match at its score.
            let table =
                agon_ai::urgammon_search::MatchTable::trained(m.settings().to, m.settings().draw);
            let payoff = agon_ai::urgammon_search::Payoff::for_match(
                &table,
                (m.score().light, m.score().dark),
            );
            let spec = agon_ai::urgammon_search::level_spec(level.get());
            match agon_ai::urgammon_search::decide(state, spec, payoff, &mut rng)? {
                agon_ai::urgammon_player::Decision::Verdict => Some(Action::Verdict),
                agon_ai::urgammon_player::Decision::Move(mv) => {
                    Some(Action::Move(mv.notation(side)))
                }
            }
        }
    }
}

/// The router. Tests drive it directly; [`serve`] puts it on a socket.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/new", get(page))
        .route("/games", get(page))
        .route("/rules", get(page))
        .route("/g/{id}", get(page))
        .route("/replay/{id}", get(page))
        .route("/static/{file}", get(static_file))
        .route("/api/meta", get(meta))
        .route("/api/games", post(create_game).get(list_games))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/action", post(act))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/at/{ply}", get(at_ply))
        .route("/api/games/{id}/ws", get(ws))
        .route("/api/import", post(import))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

const INDEX_HTML: &str = include_str!("../static/index.html");
const APP_JS: &str = include_str!("../static/app.js");
const I18N_JS: &str = include_str!("../static/i18n.js");
const STYLE_CSS: &str = include_str!("../static/style.css");

async fn page() -> Html<&'static str> {
    Html(INDEX_HTML)
}

async fn static_file(Path(file): Path<String>) -> Response {
    let (body, mime) = match file.as_str() {
        "app.js" => (APP_JS, "text/javascript; charset=utf-8"),
        "i18n.js" => (I18N_JS, "text/javascript; charset=utf-8"),
        "style.css" => (STYLE_CSS, "text/css; charset=utf-8"),
        _ => return not_found().await.into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

async fn not_found() -> ApiError {
    ApiError::NotFound("that page".into())
}

/// Options and presets of both games, for the home page and the rules page.
async fn meta() -> Json<Value> {
    let presets: Vec<Value> = ringo::Preset::ALL
        .iter()
        .map(|p| {
            let rules = p.rules();
            json!({"name": p.name(), "options": rules.options().into_iter().collect::<HashMap<_, _>>()})
        })
        .collect();
    let options: Vec<Value> = ringo::OPTIONS
        .iter()
        .map(|(k, v)| json!({"key": k, "values": v}))
        .collect();
    Json(
        json!({"ringo": {"presets": presets, "options": options}, "urgammon": {"draw": ["replay", "end"]}}),
    )
}

fn token_from(headers: &HeaderMap, query: &HashMap<String, String>) -> Option<String> {
    headers
        .get("x-agon-token")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .or_else(|| query.get("token").cloned())
}

fn parse_json<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::BadRequest(format!("invalid JSON: {e}")))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    game: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default = "default_opponent")]
    opponent: String,
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    side: Option<String>,
    #[serde(default)]
    to: Option<u32>,
    #[serde(default)]
    draw: Option<String>,
    #[serde(default)]
    stake: Option<String>,
}

fn default_opponent() -> String {
    "engine".into()
}

/// Checks the game settings: a Ringo rules string or Urgammon match settings,
/// returned in canonical form.
fn settings_for(kind: Kind, req: &CreateRequest) -> Result<String, ApiError> {
    match kind {
        Kind::Ringo => {
            let rules: ringo::Rules = req
                .rules
                .as_deref()
                .unwrap_or("classic")
                .parse()
                .map_err(|e: ringo::RulesError| ApiError::BadRequest(e.to_string()))?;
            Ok(rules.to_string())
        }
        Kind::Urgammon => {
            let mut header = format!(
                "urgammon match to={} draw={}",
                req.to.unwrap_or(7),
                req.draw.as_deref().unwrap_or("replay")
            );
            if let Some(stake) = req.stake.as_deref().filter(|s| !s.is_empty()) {
                header.push_str(&format!(" stake={stake}"));
            }
            let settings =
                urgammon::MatchSettings::parse_header(&header).map_err(ApiError::BadRequest)?;
            Ok(settings.header())
        }
    }
}

impl AppState {
    /// Creates a game, stores it with its first tokens, and returns its view and
    /// the creator's secrets.
    async fn create(
        &self,
        kind: Kind,
        settings: String,
        start: Option<String>,
        req: &CreateRequest,
        tokens: Vec<String>,
    ) -> Result<Value, ApiError> {
        let seat_names = kind.seat_names();
        let mode = req.opponent.as_str();
        if !matches!(mode, "engine" | "friend" | "local") {
            return Err(ApiError::BadRequest(format!(
                "unknown opponent '{mode}'; use engine, friend or local"
            )));
        }
        let my_seat: u8 = match req.side.as_deref().unwrap_or("random") {
            "random" => {
                let mut b = [0u8; 1];
                let _ = getrandom::fill(&mut b);
                b[0] & 1
            }
            s if s == seat_names[0] => 0,
            s if s == seat_names[1] => 1,
            other => {
                return Err(ApiError::BadRequest(format!(
                    "unknown side '{other}'; use {}, {} or random",
                    seat_names[0], seat_names[1]
                )))
            }
        };
        if let Some(level) = req.level {
            if !(1..=10).contains(&level) {
                return Err(ApiError::BadRequest("the engine level is 1 to 10".into()));
            }
        }
        let mine = secret();
        let (token0, token1, engine_seat, invite) = match mode {
            "engine" => {
                let t = Some(mine.clone());
                if my_seat == 0 {
                    (t, None, Some(1), None)
                } else {
                    (None, t, Some(0), None)
                }
            }
            "friend" => {
                let other = secret();
                if my_seat == 0 {
                    (Some(mine.clone()), Some(other.clone()), None, Some(other))
                } else {
                    (Some(other.clone()), Some(mine.clone()), None, Some(other))
                }
            }
            _ => (Some(mine.clone()), Some(mine.clone()), None, None),
        };
        let now = Store::now();
        let row = GameRow {
            id: game_id(),
            kind: kind.name().into(),
            settings,
            mode: mode.into(),
            level: (mode == "engine").then(|| req.level.unwrap_or(3)),
            engine_seat,
            token0,
            token1,
            start_position: start,
            status: "ongoing".into(),
            created_at: now,
            updated_at: now,
        };
        let mut live = Live::from_stored(row.clone(), tokens).map_err(|e| match e {
            ApiError::Internal(m) => ApiError::BadRequest(m.replace("stored ", "")),
            e => e,
        })?;
        live.auto_tokens(&mut OsDice);
        let mut row = row;
        row.status = live.status();
        live.row.status = row.status.clone();
        let all = live.tokens.clone();
        self.with_store(|s| s.create(&row, &all))?;
        let view = live.view();
        let slot = Slot::new(live);
        self.games_lock()?.insert(row.id.clone(), slot.clone());
        self.kick_engine(slot);
        let you: Vec<u8> = if mode == "local" {
            vec![0, 1]
        } else {
            vec![my_seat]
        };
        Ok(json!({"id": row.id, "token": mine, "invite_token": invite, "you": you, "state": view}))
    }
}

async fn create_game(
    State(app): State<AppState>,
    body: Bytes,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let req: CreateRequest = parse_json(&body)?;
    let kind = Kind::parse(&req.game)?;
    let settings = settings_for(kind, &req)?;
    Ok((
        StatusCode::CREATED,
        Json(app.create(kind, settings, None, &req, vec![]).await?),
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportRequest {
    game: String,
    record: String,
}

/// Imports a record as a new same-screen game: a Ringo game record, or an
/// Urgammon game or match record.
async fn import(
    State(app): State<AppState>,
    body: Bytes,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let req: ImportRequest = parse_json(&body)?;
    let kind = Kind::parse(&req.game)?;
    let bad = |e: String| ApiError::BadRequest(format!("invalid record: {e}"));
    let create = CreateRequest {
        game: req.game.clone(),
        rules: None,
        opponent: "local".into(),
        level: None,
        side: Some(kind.seat_names()[0].into()),
        to: None,
        draw: None,
        stake: None,
    };
    let (settings, start, tokens) = match kind {
        Kind::Ringo => {
            let game = ringo::Game::parse_record(&req.record).map_err(|e| bad(e.to_string()))?;
            let rules = *game.rules();
            let start = (*game.start_position() != ringo::Position::start(&rules))
                .then(|| game.start_position().to_text(rules.rings));
            (rules.to_string(), start, game.move_notations())
        }
        Kind::Urgammon => {
            let text = req.record.trim();
            let m = if text.starts_with("urgammon") {
                urgammon::Match::parse(text).map_err(|e| bad(e.to_string()))?
            } else {
                let mut m = urgammon::Match::new(urgammon::MatchSettings::default());
                for (i, t) in text.split_whitespace().enumerate() {
                    m.apply_text(t)
                        .map_err(|e| bad(format!("token {i} ('{t}'): {e}")))?;
                }
                m
            };
            let tokens: Vec<String> = m
                .finished()
                .iter()
                .chain(std::iter::once(m.current()))
                .flat_map(|g| g.token_texts().to_vec())
                .collect();
            (m.settings().header(), None, tokens)
        }
    };
    Ok((
        StatusCode::CREATED,
        Json(app.create(kind, settings, start, &create, tokens).await?),
    ))
}

async fn list_games(State(app): State<AppState>) -> Result<Json<Value>, ApiError> {
    let rows = app.with_store(|s| s.list(100))?;
    let list: Vec<Value> = rows
        .into_iter()
        .map(|(r, n)| {
            json!({
                "id": r.id, "game": r.kind, "settings": r.settings, "mode": r.mode,
                "level": r.level, "status": r.status, "created_at": r.created_at,
                "updated_at": r.updated_at, "tokens": n,
            })
        })
        .collect();
    Ok(Json(json!({ "games": list })))
}

async fn get_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let slot = app.slot(&id)?;
    let live = slot.live.lock().await;
    let you = live.seats_for(token_from(&headers, &query).as_deref());
    Ok(Json(json!({"state": live.view(), "you": you})))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionRequest {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    r#move: Option<String>,
}

async fn act(
    State(app): State<AppState>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: ActionRequest = parse_json(&body)?;
    let action = match req.kind.as_str() {
        "move" => Action::Move(
            req.r#move
                .filter(|m| !m.is_empty() && m.len() <= 32)
                .ok_or_else(|| {
                    ApiError::BadRequest("a move action needs a \"move\" in notation".into())
                })?,
        ),
        "roll" => Action::Roll,
        "verdict" => Action::Verdict,
        "undo" => Action::Undo,
        other => {
            return Err(ApiError::BadRequest(format!(
                "unknown action '{other}'; use move, roll, verdict or undo"
            )))
        }
    };
    let slot = app.slot(&id)?;
    let mut live = slot.live.lock().await;
    let seats = live.seats_for(token_from(&headers, &query).as_deref());
    if seats.is_empty() {
        return Err(ApiError::Forbidden(
            "this link is for watching: only the players' links can move".into(),
        ));
    }
    let mut next = live.clone();
    match action {
        Action::Undo => {
            let seat = seats[0];
            let keep = next.undo(seat)?;
            let status = next.status();
            app.with_store(|s| s.truncate(&id, keep, &status))?;
        }
        action => {
            // A same-screen token holds both seats: it acts for whoever is to act.
            let seat = match (seats.as_slice(), live.seat_to_act()) {
                ([a, _], Some(s)) if *a != s => s,
                ([a, ..], _) => *a,
                _ => return Err(ApiError::Forbidden("no seat".into())),
            };
            let new = next.act(seat, &action, &mut OsDice)?;
            let status = next.status();
            let from = live.tokens.len();
            app.with_store(|s| s.append(&id, from, &new, &status))?;
        }
    }
    *live = next;
    let view = live.view();
    let _ = slot.tx.send(Arc::from(view.to_string()));
    drop(live);
    app.kick_engine(slot.clone());
    Ok(Json(json!({"state": view, "you": seats})))
}

async fn record(State(app): State<AppState>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let slot = app.slot(&id)?;
    let live = slot.live.lock().await;
    let name = format!(
        "attachment; filename=\"agon-{}-{}.txt\"",
        live.kind().name(),
        live.row.id
    );
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, name),
        ],
        live.record() + "\n",
    )
        .into_response())
}

/// The game as it was after its first `ply` tokens, for the replay viewer.
async fn at_ply(
    State(app): State<AppState>,
    Path((id, ply)): Path<(String, usize)>,
) -> Result<Json<Value>, ApiError> {
    let slot = app.slot(&id)?;
    let live = slot.live.lock().await;
    let n = ply.min(live.tokens.len());
    let past = Live::from_stored(live.row.clone(), live.tokens[..n].to_vec())?;
    let mut view = past.view();
    view["total"] = Value::from(live.tokens.len());
    view["tokens_all"] = json!(live.tokens);
    Ok(Json(view))
}

async fn ws(
    State(app): State<AppState>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let slot = app.slot(&id)?;
    Ok(upgrade
        .max_message_size(MAX_WS_MESSAGE)
        .max_frame_size(MAX_WS_MESSAGE)
        .on_upgrade(move |socket| push_updates(socket, slot)))
}

/// Sends the state now and after every change. A client that reconnects gets
/// the current state at once, so it catches up. Clients may send `ping`; any
/// other message gets an error message, and changes nothing.
async fn push_updates(mut socket: WebSocket, slot: Arc<Slot>) {
    let mut rx = slot.tx.subscribe();
    let first = slot.live.lock().await.view().to_string();
    if socket
        .send(Message::Text(
            format!("{{\"type\":\"state\",\"state\":{first}}}").into(),
        ))
        .await
        .is_err()
    {
        return;
    }
    loop {
        tokio::select! {
            update = rx.recv() => {
                let text = match update {
                    Ok(state) => format!("{{\"type\":\"state\",\"state\":{state}}}"),
                    // Missed updates: send the current state instead.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let now = slot.live.lock().await.view().to_string();
                        format!("{{\"type\":\"state\",\"state\":{now}}}")
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            msg = socket.recv() => {
                let reply = match msg {
                    Some(Ok(Message::Text(t))) if t.as_str() == "ping" => "{\"type\":\"pong\"}".to_string(),
                    Some(Ok(Message::Close(_))) | None => return,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(_)) => "{\"type\":\"error\",\"error\":\"this socket only pushes updates; send actions to POST /api/games/{id}/action\"}".to_string(),
                    Some(Err(e)) => {
                        let _ = socket.send(Message::Text(format!("{{\"type\":\"error\",\"error\":{}}}", json!(e.to_string())).into())).await;
                        return;
                    }
                };
                if socket.send(Message::Text(reply.into())).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// Runs the app until Ctrl-C.
///
/// # Errors
/// The data directory or the address cannot be used.
pub async fn serve(config: Config) -> Result<(), Box<dyn std::error::Error>> {
    let store = Store::open(&config.data)?;
    let state = AppState::new(store, config.engine_threads, config.engine_delay);
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    println!(
        "Agon is running at http://{} (data in {})",
        listener.local_addr()?,
        config.data.join("agon.db").display()
    );
    axum::serve(listener, app(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
