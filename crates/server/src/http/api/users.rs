//! Players in public: `GET /api/users/{name}` (a profile: ratings with their
//! history, results per rule set and seat, games in progress, recent games)
//! and `GET /api/leaderboard/{game}`.

use super::list::ListEntry;
use crate::http::error::{ApiError, ErrorCode};
use crate::http::signed::Viewer;
use crate::model::Seat;
use crate::model::{Kind, Outcome, Status};
use crate::ratings::provisional;
use crate::state::AppState;
use crate::store::ratings::HistoryPoint;
use crate::store::Relation;
use crate::store::{ListCursor, ListQuery, RatingRow};
use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;
use std::collections::BTreeMap;

/// How many of a player's games a profile reads at most (its tallies and
/// lists; the newest first).
const PROFILE_GAMES: usize = 1_000;
/// The leaderboard's length.
const LEADERBOARD: usize = 100;

/// A rating as shown.
#[derive(Serialize)]
pub struct RatingView {
    /// The rating, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    /// Deviation over 110: shown with `?`, left off the leaderboard.
    pub provisional: bool,
    /// Rated games (a Ringo pair or an Urgammon match counts once).
    pub games: u32,
}

/// An account's rating in each game, by the game's name (a game never
/// rated: the starting rating, provisional): a profile's, and the signed-in
/// player's own in `GET /api/account`.
///
/// # Errors
/// The store failed.
pub async fn ratings_of(
    app: &AppState,
    account: i64,
) -> Result<BTreeMap<&'static str, RatingView>, ApiError> {
    let rated = app.store().ratings_of(account).await?;
    Ok(Kind::ALL
        .into_iter()
        .map(|kind| {
            let row = rated
                .iter()
                .find(|(k, _)| *k == kind)
                .map_or(RatingRow::NEW, |(_, r)| *r);
            (kind.name(), RatingView::of(&row))
        })
        .collect())
}

impl RatingView {
    fn of(r: &RatingRow) -> RatingView {
        RatingView {
            rating: r.rating.round() as i64,
            deviation: r.deviation.round() as i64,
            provisional: provisional(r),
            games: r.games,
        }
    }
}

/// One point of a rating's history.
#[derive(Serialize)]
pub struct HistoryView {
    /// When.
    pub at: i64,
    /// The rating after, rounded.
    pub rating: i64,
    /// The game that changed it.
    pub game: String,
}

/// Results under one rule set, from one seat.
#[derive(Serialize, Default)]
pub struct Tally {
    /// Which game.
    pub game: Option<Kind>,
    /// The rule set: a Ringo rules string, or an Urgammon match header.
    pub settings: String,
    /// The seat's side (`attackers`, `light`, …).
    pub seat: &'static str,
    /// Games won.
    pub won: u32,
    /// Games lost.
    pub lost: u32,
    /// Games drawn.
    pub drawn: u32,
    /// Games aborted (no result: neither won nor lost).
    pub aborted: u32,
}

/// `GET /api/users/{name}`.
#[derive(Serialize)]
pub struct Profile {
    /// The name as written.
    pub name: String,
    /// When the account was made.
    pub created_at: i64,
    /// Each game's rating (1500? for a game never played rated).
    pub ratings: BTreeMap<&'static str, RatingView>,
    /// Each game's rating history, oldest first.
    pub history: BTreeMap<&'static str, Vec<HistoryView>>,
    /// Finished games' results per rule set and seat.
    pub results: Vec<Tally>,
    /// Games in progress.
    pub playing: Vec<ListEntry>,
    /// Games, newest first (at most 1,000).
    pub games: Vec<ListEntry>,
    /// She has a page of the site open now.
    pub online: bool,
    /// How many players follow her.
    pub followers: i64,
    /// The viewer follows her (false for a viewer not signed in).
    pub following: bool,
    /// Whom she takes challenges from: `everyone`, `followed`, `rated`
    /// (rated ones only) or `nobody`.
    pub challenges: crate::accounts::ChallengePolicy,
    /// A moderator marked her for cheating: her ratings are off the
    /// leaderboards.
    pub marked: bool,
    /// Her tournaments, newest first (10 at most): each with her place and
    /// score (`GET /api/tournaments/{id}` has the rest).
    pub tournaments: Vec<crate::tournaments::Placing>,
}

fn not_found(name: &str) -> ApiError {
    ApiError::Missing(
        ErrorCode::UserNotFound,
        format!(
            "no player named '{}'",
            name.chars().take(40).collect::<String>()
        ),
    )
}

/// A player's rating history in each game, as her profile's charts draw it.
async fn history_of(
    app: &AppState,
    account: i64,
) -> Result<BTreeMap<&'static str, Vec<HistoryView>>, ApiError> {
    let mut history = BTreeMap::new();
    for kind in Kind::ALL {
        let points: Vec<HistoryPoint> = app.store().rating_history(account, kind).await?;
        history.insert(
            kind.name(),
            points
                .into_iter()
                .map(|p| HistoryView {
                    at: p.at,
                    rating: p.rating.round() as i64,
                    game: p.game,
                })
                .collect(),
        );
    }
    Ok(history)
}

/// A player's latest games (at most [`PROFILE_GAMES`]), newest first, read
/// a page at a time.
async fn games_of(
    app: &AppState,
    account: i64,
) -> Result<Vec<(crate::store::GameRow, usize)>, ApiError> {
    let mut rows = vec![];
    let mut after = None;
    while rows.len() < PROFILE_GAMES {
        let page = app
            .store()
            .list(&ListQuery {
                limit: 100,
                ids: None,
                after: after.clone(),
                account: Some(account),
            })
            .await?;
        let full = page.len() == 100;
        after = page.last().map(|(r, _)| ListCursor::of(r));
        rows.extend(page);
        if !full {
            break;
        }
    }
    Ok(rows)
}

/// A player's results in her finished games, one tally per game, settings
/// and seat she played.
fn tallies_of(rows: &[(crate::store::GameRow, usize)], account: i64) -> Vec<Tally> {
    let mut tallies: BTreeMap<(&str, String, Seat), Tally> = BTreeMap::new();
    for (r, _) in rows {
        if r.status == Status::Ongoing {
            continue;
        }
        for seat in Seat::BOTH {
            if r.accounts[seat.index()].as_ref().map(|a| a.id) != Some(account) {
                continue;
            }
            let t = tallies
                .entry((r.kind.name(), r.settings.clone(), seat))
                .or_insert_with(|| Tally {
                    game: Some(r.kind),
                    settings: r.settings.clone(),
                    seat: r.kind.seat_name(seat),
                    ..Tally::default()
                });
            match r.status.outcome_for(r.kind, seat) {
                Outcome::Won => t.won += 1,
                Outcome::Lost => t.lost += 1,
                Outcome::Drawn => t.drawn += 1,
                Outcome::Aborted => t.aborted += 1,
                Outcome::Ongoing => {}
            }
        }
    }
    tallies.into_values().collect()
}

/// `GET /api/users/{name}`: a player's profile.
pub async fn profile(
    State(app): State<AppState>,
    Path(name): Path<String>,
    viewer: Viewer,
) -> Result<Json<Profile>, ApiError> {
    let key = crate::accounts::names::check(&name).map_err(|_| not_found(&name))?;
    let account = app
        .store()
        .account_by_key(&key)
        .await?
        .ok_or_else(|| not_found(&name))?;
    let ratings = ratings_of(&app, account.id).await?;
    let history = history_of(&app, account.id).await?;
    let rows = games_of(&app, account.id).await?;
    let tallies = tallies_of(&rows, account.id);
    let me = viewer.account_id();
    let games: Vec<ListEntry> = rows
        .into_iter()
        .map(|(r, n)| ListEntry::of(r, n, me))
        .collect();
    let playing = games.iter().filter(|g| g.ongoing()).cloned().collect();
    let following = match me {
        Some(me) => app
            .store()
            .related(Relation::Follow, me)
            .await?
            .iter()
            .any(|f| f.id == account.id),
        None => false,
    };
    Ok(Json(Profile {
        online: app.people().is_online(account.id).await?,
        followers: app.store().related_to(Relation::Follow, account.id).await?,
        following,
        challenges: crate::accounts::challenge_policy(account.settings.as_deref()),
        marked: crate::safety::marked(app.store(), account.id).await?,
        tournaments: app.tournaments().results_of(account.id).await?,
        name: account.name.unwrap_or_default(),
        created_at: account.created_at,
        ratings,
        history,
        results: tallies,
        playing,
        games,
    }))
}

/// One row of the leaderboard.
#[derive(Serialize)]
pub struct Leader {
    /// 1 for the best.
    pub rank: usize,
    /// The player's name.
    pub name: String,
    /// The rating.
    #[serde(flatten)]
    pub rating: RatingView,
}

/// `GET /api/leaderboard/{game}`.
#[derive(Serialize)]
pub struct Leaderboard {
    /// Which game.
    pub game: Kind,
    /// The best 100 players whose rating is not provisional, best first.
    pub players: Vec<Leader>,
}

/// `GET /api/leaderboard/{game}`.
pub async fn leaderboard(
    State(app): State<AppState>,
    Path(game): Path<String>,
) -> Result<Json<Leaderboard>, ApiError> {
    let kind: Kind = game.parse()?;
    let rows = app
        .store()
        .leaderboard(kind, crate::ratings::PROVISIONAL_DEVIATION, LEADERBOARD)
        .await?;
    Ok(Json(Leaderboard {
        game: kind,
        players: rows
            .into_iter()
            .enumerate()
            .map(|(i, (name, r))| Leader {
                rank: i + 1,
                name,
                rating: RatingView::of(&r),
            })
            .collect(),
    }))
}
