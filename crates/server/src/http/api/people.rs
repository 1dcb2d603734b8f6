//! Players meeting: challenges by name (`/api/challenges`), who is online
//! (`GET /api/online`), following a player (`/api/users/{name}/follow`,
//! `GET /api/account/following`) and the games in play now (`GET
//! /api/games/live`). Every route that changes something needs a signed-in
//! player; the lists never name a player who is not signed in.

use super::parse_json;
use super::seeks::{match_target, side, who};
use crate::clock::ClockSettings;
use crate::games::watch;
use crate::games::InPlay;
use crate::http::error::{ApiError, ErrorCode};
use crate::http::signed::Viewer;
use crate::lobby::{ChallengeCursor, ChallengeView, Challenges, Paired, SeekSpec};
use crate::model::Kind;
use crate::state::AppState;
use crate::store::Relation;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /api/challenges`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The challenged player's name.
    user: String,
    game: String,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    to: Option<Value>,
    #[serde(default)]
    clock: Option<ClockSettings>,
    /// Correspondence: days per move, instead of a clock.
    #[serde(default)]
    days: Option<u32>,
    #[serde(default)]
    rated: Option<bool>,
    #[serde(default)]
    side: Option<String>,
}

/// `POST /api/challenges` → 201 the challenge (`{"id", "status": "open",
/// …}`).
pub async fn create(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<(StatusCode, Json<ChallengeView>), ApiError> {
    viewer.require()?;
    let from = who(&viewer).ok_or_else(|| ApiError::Internal("signed in, no account".into()))?;
    let req: ChallengeRequest = parse_json(&body)?;
    let kind: Kind = req.game.parse()?;
    let spec = SeekSpec {
        kind,
        rules: req.rules,
        to: match_target(req.to.as_ref())?,
        clock: super::games::time_control(req.clock, req.days)?,
        rated: req.rated.unwrap_or(false),
        seat: side(kind, req.side.as_deref())?,
        rating_min: None,
        rating_max: None,
    };
    let made = app.lobby().challenge(from, &req.user, spec).await?;
    Ok((StatusCode::CREATED, Json(made)))
}

/// `GET /api/challenges`'s query: where each list's page starts.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ChallengesQuery {
    incoming_before: Option<String>,
    outgoing_before: Option<String>,
}

/// `GET /api/challenges[?incoming_before=&outgoing_before=]` →
/// `{"incoming": [...], "outgoing": [...], "incoming_next"?,
/// "outgoing_next"?}`: each list on its own, a page at a time.
pub async fn list(
    State(app): State<AppState>,
    viewer: Viewer,
    query: Result<Query<ChallengesQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Challenges>, ApiError> {
    let (a, _) = viewer.require()?;
    let Query(q) = query.map_err(|e| {
        ApiError::BadRequest(
            ErrorCode::BadQuery,
            format!("incoming_before and outgoing_before only: {e}"),
        )
    })?;
    let cursor = |c: Option<String>| c.map(|c| c.parse::<ChallengeCursor>()).transpose();
    Ok(Json(
        app.lobby()
            .challenges(a.id, cursor(q.incoming_before)?, cursor(q.outgoing_before)?)
            .await?,
    ))
}

/// `POST /api/challenges/{id}/accept` → 201 `{"game", "token"}`.
pub async fn accept(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> Result<(StatusCode, Json<Paired>), ApiError> {
    viewer.require()?;
    let me = who(&viewer).ok_or_else(|| ApiError::Internal("signed in, no account".into()))?;
    let paired = app.lobby().accept_challenge(&id, me).await?;
    Ok((StatusCode::CREATED, Json(paired)))
}

/// `POST /api/challenges/{id}/decline` → the challenge, declined.
pub async fn decline(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> Result<Json<ChallengeView>, ApiError> {
    let (a, _) = viewer.require()?;
    Ok(Json(app.lobby().drop_challenge(&id, a.id, true).await?))
}

/// `POST /api/challenges/{id}/cancel` → the challenge, cancelled.
pub async fn cancel(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> Result<Json<ChallengeView>, ApiError> {
    let (a, _) = viewer.require()?;
    Ok(Json(app.lobby().drop_challenge(&id, a.id, false).await?))
}

/// `GET /api/online`.
#[derive(Serialize)]
pub struct OnlineAnswer {
    /// Players with a page open: signed-in ones, and pages of players not
    /// signed in.
    pub players: i64,
    /// Live games between two people in play now.
    pub games: usize,
    /// The signed-in players online, by name (never one not signed in).
    pub names: Vec<String>,
}

/// `GET /api/online` → `{"players", "games", "names"}`.
pub async fn online(State(app): State<AppState>) -> Result<Json<OnlineAnswer>, ApiError> {
    let now = app.people().online().await?;
    let games = watch::in_play(app.games(), None).await?.len();
    Ok(Json(OnlineAnswer {
        players: now.names.len() as i64 + now.anonymous,
        games,
        names: now.names,
    }))
}

/// `GET /api/games/live?game=`.
#[derive(Deserialize)]
pub struct LiveQuery {
    #[serde(default)]
    game: Option<String>,
}

/// `GET /api/games/live`.
#[derive(Serialize)]
pub struct LiveAnswer {
    /// The games, highest rated first.
    pub games: Vec<InPlay>,
}

/// `GET /api/games/live?game=ringo|urgammon` → `{"games": [{"id", "game",
/// "players", "spectators", …}]}`.
pub async fn live(
    State(app): State<AppState>,
    Query(q): Query<LiveQuery>,
) -> Result<Json<LiveAnswer>, ApiError> {
    let kind = match q.game.as_deref() {
        None | Some("") | Some("all") => None,
        Some(g) => Some(g.parse::<Kind>()?),
    };
    Ok(Json(LiveAnswer {
        games: watch::in_play(app.games(), kind).await?,
    }))
}

/// The answer to following or unfollowing.
#[derive(Serialize)]
pub struct FollowAnswer {
    /// The player's name.
    pub name: String,
    /// Whether the asker follows her now.
    pub following: bool,
}

/// `POST /api/users/{name}/follow` → `{"name", "following": true}`.
pub async fn follow(
    State(app): State<AppState>,
    Path(name): Path<String>,
    viewer: Viewer,
) -> Result<Json<FollowAnswer>, ApiError> {
    let (a, _) = viewer.require()?;
    let them = app.people().follow(a.id, &name).await?;
    Ok(Json(FollowAnswer {
        name: them.name.unwrap_or(name),
        following: true,
    }))
}

/// `DELETE /api/users/{name}/follow` → `{"name", "following": false}`.
pub async fn unfollow(
    State(app): State<AppState>,
    Path(name): Path<String>,
    viewer: Viewer,
) -> Result<Json<FollowAnswer>, ApiError> {
    let (a, _) = viewer.require()?;
    app.people().unfollow(a.id, &name).await?;
    Ok(Json(FollowAnswer {
        name,
        following: false,
    }))
}

/// A followed player as the follower's home page shows her.
#[derive(Serialize)]
pub struct Followed {
    /// Her name.
    pub name: String,
    /// She has a page open.
    pub online: bool,
    /// Her live games in play now.
    pub games: Vec<InPlay>,
}

/// `GET /api/account/following`.
#[derive(Serialize)]
pub struct FollowingAnswer {
    /// The players followed, by name.
    pub players: Vec<Followed>,
}

/// `GET /api/account/following` → `{"players": [{"name", "online",
/// "games"}]}`: the players one follows, online first.
pub async fn following(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Result<Json<FollowingAnswer>, ApiError> {
    let (a, _) = viewer.require()?;
    let followed = app.store().related(Relation::Follow, a.id).await?;
    let online = app.people().online().await?;
    let in_play = watch::in_play(app.games(), None).await?;
    let mut players: Vec<Followed> = followed
        .into_iter()
        .filter_map(|f| {
            let name = f.name?;
            Some(Followed {
                online: online.ids.contains(&f.id),
                games: in_play
                    .iter()
                    .filter(|g| g.players.iter().any(|p| p.name.as_deref() == Some(&name)))
                    .cloned()
                    .collect(),
                name,
            })
        })
        .collect();
    players.sort_by_key(|p| (!p.online, p.games.is_empty()));
    Ok(Json(FollowingAnswer { players }))
}
