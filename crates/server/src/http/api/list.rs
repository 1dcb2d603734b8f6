//! `GET /api/games`: the games list, a page at a time, a player's own
//! games (by id, or her account's), each with who plays it.

use crate::http::error::{ApiError, ErrorCode};
use crate::http::signed::Viewer;
use crate::model::Seat;
use crate::session::{Kind, Mode, PlayerView, Status};
use crate::state::AppState;
use crate::store::{GameRow, ListCursor, ListQuery};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::Json;
use serde::{Deserialize, Serialize};

/// One game of `GET /api/games`.
#[derive(Serialize, Clone)]
pub struct ListEntry {
    id: String,
    game: Kind,
    settings: String,
    mode: Mode,
    level: Option<u8>,
    status: Status,
    reason: Option<String>,
    created_at: i64,
    updated_at: i64,
    tokens: usize,
    revision: i64,
    /// Urgammon: the match score `[light, dark]`; `null` for Ringo (and for
    /// a match stored before scores were, until its next change).
    score: Option<[u32; 2]>,
    /// Who plays each seat.
    players: [PlayerView; 2],
    /// The seats the signed-in account holds (empty when not signed in).
    you: Vec<Seat>,
    /// Rated.
    rated: bool,
    /// Each seat's rating change, once rated.
    rating_change: Option<[f64; 2]>,
    /// What the status means for each seat: `ongoing`, `won`, `lost`,
    /// `drawn` or `aborted` (an aborted game is nobody's win or loss).
    outcome: [crate::model::Outcome; 2],
}

/// `GET /api/games`.
#[derive(Serialize)]
pub struct List {
    games: Vec<ListEntry>,
    /// Where the next page starts (`?after=`), when this page is full and
    /// more games may follow; `null` at the end.
    next: Option<String>,
}

/// The query of `GET /api/games`: `ids` (a player's own games, comma
/// separated), `after` (the `next` of the page before) and `limit`.
#[derive(Deserialize, Default)]
pub struct ListParams {
    ids: Option<String>,
    /// `1`: also the signed-in account's games.
    mine: Option<String>,
    after: Option<String>,
    limit: Option<String>,
}

/// The most games a page (or an `ids` list) has.
pub const LIST_LIMIT: usize = 100;

impl ListEntry {
    /// Whether the game is still in play.
    pub fn ongoing(&self) -> bool {
        self.status == Status::Ongoing
    }

    /// A stored game as the list shows it; `me` the signed-in account.
    pub fn of(r: GameRow, tokens: usize, me: Option<i64>) -> ListEntry {
        ListEntry {
            outcome: Seat::BOTH.map(|s| r.status.outcome_for(r.kind, s)),
            players: Seat::BOTH.map(|s| PlayerView::of(&r, s)),
            you: Seat::BOTH
                .into_iter()
                .filter(|&s| me.is_some() && r.accounts[s.index()].as_ref().map(|a| a.id) == me)
                .collect(),
            rated: r.rated,
            rating_change: r.rating_change,
            id: r.id,
            game: r.kind,
            settings: r.settings,
            mode: r.mode,
            level: r.level,
            status: r.status,
            reason: r.reason,
            created_at: r.created_at,
            updated_at: r.updated_at,
            tokens,
            revision: r.revision,
            score: r.score,
        }
    }
}

impl ListParams {
    /// The store query these parameters ask for, or what is wrong with them.
    fn query(&self) -> Result<ListQuery, ApiError> {
        let bad = |what: String| ApiError::BadRequest(ErrorCode::BadQuery, what);
        let limit = match &self.limit {
            None => LIST_LIMIT,
            Some(s) => s
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=LIST_LIMIT).contains(n))
                .ok_or_else(|| bad(format!("limit must be 1 to {LIST_LIMIT}, not '{s}'")))?,
        };
        let ids = match &self.ids {
            None => None,
            Some(s) => {
                let ids: Vec<String> = s
                    .split(',')
                    .map(str::trim)
                    .filter(|id| !id.is_empty())
                    .map(str::to_string)
                    .collect();
                if ids.len() > LIST_LIMIT {
                    return Err(bad(format!(
                        "at most {LIST_LIMIT} ids at once, not {}",
                        ids.len()
                    )));
                }
                if let Some(id) = ids.iter().find(|id| !crate::store::is_game_id(id)) {
                    return Err(bad(format!("'{id}' is not a game id")));
                }
                Some(ids)
            }
        };
        let after = match &self.after {
            None => None,
            Some(s) => Some(s.parse::<ListCursor>().map_err(|()| {
                bad(format!(
                    "after must be the 'next' of an earlier page, not '{s}'"
                ))
            })?),
        };
        Ok(ListQuery {
            limit,
            ids,
            after,
            account: None,
        })
    }
}

/// `GET /api/games`: the 100 most recently changed games, a page after an
/// earlier one (`?after=`), or the games named (`?ids=`, a player's own).
pub async fn list(
    State(app): State<AppState>,
    viewer: Viewer,
    params: Result<Query<ListParams>, QueryRejection>,
) -> Result<Json<List>, ApiError> {
    let Query(params) =
        params.map_err(|e| ApiError::BadRequest(ErrorCode::BadQuery, e.body_text()))?;
    let mut query = params.query()?;
    let me = viewer.account_id();
    match params.mine.as_deref() {
        None | Some("0") => {}
        Some("1") => {
            query.account = me;
            // Not signed in: only the `ids` given, if any.
            if me.is_none() && query.ids.is_none() {
                query.ids = Some(vec![]);
            }
        }
        Some(other) => {
            return Err(ApiError::BadRequest(
                ErrorCode::BadQuery,
                format!("mine must be 1 or 0, not '{other}'"),
            ))
        }
    }
    let rows = app.store().list(&query).await?;
    // A full page may have more after it; a shorter one is the end.
    let next = (rows.len() == query.limit)
        .then(|| rows.last().map(|(r, _)| ListCursor::of(r).to_string()))
        .flatten();
    let games = rows
        .into_iter()
        .map(|(r, n)| ListEntry::of(r, n, me))
        .collect();
    Ok(Json(List { games, next }))
}
