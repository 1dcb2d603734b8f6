//! Puzzles over HTTP: `GET /api/puzzles` (what there is, and the player's
//! puzzle ratings), `GET /api/puzzles/next`, `GET /api/puzzles/{id}` and
//! `POST /api/puzzles/{id}/attempt`. A puzzle is sent without its solution;
//! a try answers it.

use super::parse_json;
use crate::http::error::{ApiError, ErrorCode};
use crate::http::limits::Client;
use crate::http::signed::Viewer;
use crate::puzzles::{self, TryError};
use crate::state::AppState;
use crate::store::RatingRow;
use agon_ai::puzzle::{Goal, Puzzle, PuzzleGame};
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::Json;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};

/// A puzzle rating as the API shows it (and as a browser keeps it).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerRating {
    /// The rating (1500 to start).
    pub rating: f64,
    /// Its deviation (350 to start).
    pub deviation: f64,
    /// Its volatility (0.06 to start).
    pub volatility: f64,
    /// Rated tries.
    #[serde(default)]
    pub attempts: u32,
}

impl PlayerRating {
    fn of(r: RatingRow) -> PlayerRating {
        PlayerRating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            attempts: r.games,
        }
    }

    /// The row, when every figure is one Glicko-2 can hold.
    fn row(self) -> Option<RatingRow> {
        let fits = (100.0..=4000.0).contains(&self.rating)
            && (10.0..=350.0).contains(&self.deviation)
            && (0.01..=0.2).contains(&self.volatility);
        fits.then_some(RatingRow {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
            games: self.attempts,
        })
    }
}

/// A puzzle as sent to solve: everything but the answer.
#[derive(Serialize)]
pub struct PuzzleView {
    id: String,
    game: PuzzleGame,
    rules: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    setup: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<String>,
    to_act: String,
    /// The main theme.
    theme: String,
    themes: Vec<String>,
    /// The puzzle's own rating.
    rating: u32,
    goal: Goal,
    /// Ringo: plies to the win with the right move.
    #[serde(skip_serializing_if = "Option::is_none")]
    plies: Option<u16>,
    /// The player's puzzle rating in this game (signed in).
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<PlayerRating>,
}

fn view(p: &Puzzle, player: Option<PlayerRating>) -> PuzzleView {
    PuzzleView {
        id: p.id.clone(),
        game: p.game,
        rules: p.rules.clone(),
        position: p.position.clone(),
        setup: p.setup.clone(),
        record: p.record.clone(),
        to_act: p.to_act.clone(),
        theme: p.themes.first().cloned().unwrap_or_default(),
        themes: p.themes.clone(),
        rating: p.rating,
        goal: p.goal,
        plies: p.plies,
        player,
    }
}

fn bad_query(what: String) -> ApiError {
    ApiError::BadRequest(ErrorCode::BadQuery, what)
}

fn game_of(text: Option<&str>) -> Result<PuzzleGame, ApiError> {
    let text = text.ok_or_else(|| bad_query("game is required: ringo or urgammon".into()))?;
    text.parse().map_err(bad_query)
}

/// One game's set.
#[derive(Serialize)]
pub struct GameSet {
    game: PuzzleGame,
    count: usize,
    themes: BTreeMap<&'static str, usize>,
    /// The puzzle of the day: the same for everyone all day (UTC), another
    /// the next.
    daily: Option<String>,
}

/// The puzzle of day `day` (days since the epoch) of a game: the set's
/// puzzles taken in a fixed stride, so neighbouring days differ in theme.
fn daily(game: PuzzleGame, day: i64) -> Option<String> {
    let ids: Vec<&str> = puzzles::all()
        .iter()
        .filter(|p| p.game == game)
        .map(|p| p.id.as_str())
        .collect();
    if ids.is_empty() {
        return None;
    }
    // 7919 is prime: coprime with any set smaller than it, so every puzzle
    // comes round before one repeats.
    let n = ids.len() as i64;
    Some(ids[(day * 7919).rem_euclid(n) as usize].to_string())
}

/// `GET /api/puzzles`.
#[derive(Serialize)]
pub struct Sets {
    games: Vec<GameSet>,
    /// The signed-in player's puzzle rating per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<BTreeMap<&'static str, PlayerRating>>,
}

/// `GET /api/puzzles`: each game's puzzles and themes and its puzzle of the
/// day (`daily`), and (signed in) the player's puzzle ratings.
pub async fn sets(State(app): State<AppState>, viewer: Viewer) -> Result<Json<Sets>, ApiError> {
    let games = PuzzleGame::ALL
        .into_iter()
        .map(|game| GameSet {
            game,
            count: puzzles::all().iter().filter(|p| p.game == game).count(),
            themes: puzzles::themes(game),
            daily: daily(game, crate::clock::now_ms().div_euclid(86_400_000)),
        })
        .collect();
    let player = match viewer.account_id() {
        None => None,
        Some(id) => {
            let mut m = BTreeMap::new();
            for g in PuzzleGame::ALL {
                m.insert(
                    g.name(),
                    PlayerRating::of(app.store().puzzle_rating(id, g.name()).await?),
                );
            }
            Some(m)
        }
    };
    Ok(Json(Sets { games, player }))
}

/// `GET /api/puzzles/next`'s parameters.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextParams {
    game: Option<String>,
    theme: Option<String>,
    rating: Option<String>,
    after: Option<String>,
    exclude: Option<String>,
}

/// The most ids `exclude` takes.
const MAX_EXCLUDE: usize = 200;

/// `GET /api/puzzles/next?game=ringo|urgammon[&theme=…][&rating=1500]
/// [&after=ID][&exclude=ID,ID…]`: a puzzle near the player's rating (signed
/// in: the account's, and never one it tried while others are left;
/// otherwise `rating`, and not those in `exclude`), not `after`.
pub async fn next(
    State(app): State<AppState>,
    viewer: Viewer,
    params: Result<Query<NextParams>, QueryRejection>,
) -> Result<Json<PuzzleView>, ApiError> {
    let Query(q) = params.map_err(|e| bad_query(e.body_text()))?;
    let game = game_of(q.game.as_deref())?;
    let themes = puzzles::themes(game);
    if let Some(t) = &q.theme {
        if !themes.contains_key(t.as_str()) {
            let known: Vec<&str> = themes.keys().copied().collect();
            return Err(ApiError::Missing(
                ErrorCode::NoPuzzle,
                format!(
                    "no {} puzzle has the theme '{}': {}",
                    game.name(),
                    t.chars().take(40).collect::<String>(),
                    known.join(", ")
                ),
            ));
        }
    }
    let rating = match &q.rating {
        None => None,
        Some(r) => Some(
            r.trim()
                .parse::<f64>()
                .ok()
                .filter(|r| (100.0..=4000.0).contains(r))
                .ok_or_else(|| {
                    bad_query(format!(
                        "rating must be a number from 100 to 4000, not '{}'",
                        r.chars().take(40).collect::<String>()
                    ))
                })?,
        ),
    };
    let mut tried: HashSet<String> = HashSet::new();
    if let Some(list) = &q.exclude {
        let ids: Vec<&str> = list.split(',').filter(|s| !s.is_empty()).collect();
        if ids.len() > MAX_EXCLUDE || ids.iter().any(|id| id.len() > 40) {
            return Err(bad_query(format!(
                "exclude takes at most {MAX_EXCLUDE} puzzle ids"
            )));
        }
        tried.extend(ids.into_iter().map(String::from));
    }
    let mut player = None;
    if let Some(account) = viewer.account_id() {
        tried.extend(app.store().puzzles_tried(account, game.name()).await?);
        player = Some(PlayerRating::of(
            app.store().puzzle_rating(account, game.name()).await?,
        ));
    }
    let at = player
        .map(|p| p.rating)
        .or(rating)
        .unwrap_or(RatingRow::NEW.rating);
    let p = puzzles::next(game, q.theme.as_deref(), at, &tried, q.after.as_deref()).ok_or_else(
        || ApiError::Missing(ErrorCode::NoPuzzle, format!("no {} puzzles", game.name())),
    )?;
    Ok(Json(view(p, player)))
}

fn find(id: &str) -> Result<&'static Puzzle, ApiError> {
    puzzles::by_id(id).ok_or_else(|| {
        ApiError::Missing(
            ErrorCode::NoSuchPuzzle,
            format!("no puzzle '{}'", id.chars().take(40).collect::<String>()),
        )
    })
}

/// `GET /api/puzzles/{id}`: one puzzle, to solve (a link to it).
pub async fn one(
    State(app): State<AppState>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Json<PuzzleView>, ApiError> {
    let p = find(&id)?;
    let player = match viewer.account_id() {
        Some(a) => Some(PlayerRating::of(
            app.store().puzzle_rating(a, p.game.name()).await?,
        )),
        None => None,
    };
    Ok(Json(view(p, player)))
}

/// `POST /api/puzzles/{id}/attempt`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptRequest {
    moves: Vec<String>,
    /// Not signed in: the browser's puzzle rating, to be rated.
    #[serde(default)]
    player: Option<PlayerRating>,
}

/// An option of the decision with its value: an Urgammon option's equity,
/// or a Ringo move's win chance (puzzles from self-play).
#[derive(Serialize)]
pub struct OptionView {
    choice: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    equity: Option<f64>,
    /// The mover's win chance after the move, 0–1.
    #[serde(skip_serializing_if = "Option::is_none")]
    win: Option<f64>,
}

/// What a try was.
#[derive(Serialize)]
pub struct Attempt {
    id: String,
    correct: bool,
    /// The right answer.
    solution: Vec<String>,
    goal: Goal,
    #[serde(skip_serializing_if = "Option::is_none")]
    plies: Option<u16>,
    /// Every option with its value for the decider, best first (Urgammon;
    /// Ringo puzzles from self-play).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    options: Vec<OptionView>,
    /// True when the options' values are exact (every line played out to
    /// the game's end), not the engine's estimate.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    exact: bool,
    /// Whether the try changed a rating (a first try on the account, or a
    /// browser's rating sent along).
    rated: bool,
    /// An account's first try left unrated: the solution was shown to a
    /// browser not signed in at the same address within 30 days.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    seen: bool,
    /// The player's puzzle rating after the try.
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<PlayerRating>,
    /// Its change.
    #[serde(skip_serializing_if = "Option::is_none")]
    change: Option<f64>,
}

/// `POST /api/puzzles/{id}/attempt {"moves": [one move], "player"?}`: right
/// or not, with the solution. Signed in, an account's first try at a puzzle
/// is rated on the account; otherwise a `player` rating sent along comes
/// back rated.
pub async fn attempt(
    State(app): State<AppState>,
    viewer: Viewer,
    Client(client): Client,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Attempt>, ApiError> {
    let p = find(&id)?;
    let req: AttemptRequest = parse_json(&body)?;
    if req.moves.iter().any(|m| m.len() > 24) {
        return Err(ApiError::BadRequest(
            ErrorCode::BadTry,
            "a move is at most 24 characters".into(),
        ));
    }
    let correct = puzzles::judge(p, &req.moves).map_err(|e| match e {
        TryError::Count => ApiError::BadRequest(ErrorCode::BadTry, e.to_string()),
        TryError::Illegal(_) => ApiError::BadRequest(ErrorCode::IllegalMove, e.to_string()),
    })?;
    let trier = match (viewer.account_id(), req.player) {
        (Some(account), _) => puzzles::Trier::Account(account),
        (None, None) => puzzles::Trier::Browser(None),
        (None, Some(sent)) => puzzles::Trier::Browser(Some(sent.row().ok_or_else(|| {
            ApiError::BadRequest(
                ErrorCode::BadJson,
                "player is {rating: 100–4000, deviation: 10–350, volatility: 0.01–0.2, attempts}"
                    .into(),
            )
        })?)),
    };
    let rating = puzzles::rate_try(app.store(), p, correct, trier, &puzzles::seer(client)).await?;
    Ok(Json(Attempt {
        id: p.id.clone(),
        correct,
        solution: p.solution.clone(),
        goal: p.goal,
        plies: p.plies,
        options: p
            .options
            .iter()
            .map(|(choice, value)| OptionView {
                choice: choice.clone(),
                equity: (p.game == PuzzleGame::Urgammon).then_some(*value),
                win: (p.game == PuzzleGame::Ringo).then_some(*value),
            })
            .collect(),
        exact: p.exact,
        rated: rating.rated,
        seen: rating.seen,
        player: rating.player.map(PlayerRating::of),
        change: rating.change,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_puzzle_of_the_day_is_one_of_its_game_and_changes_each_day_until_all_came_round() {
        for game in PuzzleGame::ALL {
            let n = puzzles::all().iter().filter(|p| p.game == game).count();
            let days: Vec<String> = (0..n as i64)
                .filter_map(|d| daily(game, 20_000 + d))
                .collect();
            assert_eq!(days.len(), n);
            assert!(days
                .iter()
                .all(|id| puzzles::by_id(id).is_some_and(|p| p.game == game)));
            let distinct: std::collections::HashSet<&String> = days.iter().collect();
            assert_eq!(
                distinct.len(),
                n,
                "{game:?}: every puzzle once before a repeat"
            );
            assert_eq!(daily(game, 20_000), daily(game, 20_000), "the same all day");
        }
    }
}
