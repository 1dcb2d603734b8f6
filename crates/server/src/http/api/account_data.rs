//! The account's own data: its settings, which follow it to every device,
//! and the download of everything it holds.

use super::account_answers::Done;
use super::parse_json;
use crate::http::error::{ApiError, ErrorCode};
use crate::http::signed::Viewer;
use crate::model::Seat;
use crate::state::AppState;
use crate::store::accounts::Account;
use crate::store::ListQuery;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

/// The saved settings as JSON (`{}` when none).
pub(super) fn saved_settings(a: &Account) -> serde_json::Value {
    a.settings
        .as_deref()
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or_else(|| serde_json::Value::Object(serde_json::Map::new()))
}

/// The account in the data download.
#[derive(Serialize)]
struct ExportedAccount {
    name: Option<String>,
    created_at: i64,
    settings: serde_json::Value,
}

/// A session in the data download.
#[derive(Serialize)]
struct ExportedSession {
    device: String,
    created_at: i64,
    last_seen: i64,
}

/// The data download.
#[derive(Serialize)]
struct Export {
    account: ExportedAccount,
    sessions: Vec<ExportedSession>,
    games: Vec<ExportedGame>,
}

/// The settings an account keeps, each checked.
#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lang: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sound: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    animation: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    flip: Option<bool>,
    /// Allow takebacks in rated games (both players must).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    takebacks: Option<bool>,
    /// Show the games' chat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    chat: Option<bool>,
    /// Whom challenges are taken from: everyone, followed, rated, nobody.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    challenges: Option<crate::accounts::ChallengePolicy>,
    /// The lessons done, per game (their ids).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    learn: Option<std::collections::BTreeMap<String, Vec<String>>>,
}

/// `PUT /api/account/settings {"lang"?, "sound"?, "animation"?, "flip"?,
/// "takebacks"?, "chat"?, "challenges"?, "learn"?}`:
/// the settings follow the account to every device.
pub async fn put_settings(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Json<Done>, ApiError> {
    let (a, _) = viewer.require()?;
    let s: Settings = parse_json(&body)?;
    if let Some(l) = &s.lang {
        if !["en", "pl", "fr"].contains(&l.as_str()) {
            return Err(ApiError::BadRequest(
                ErrorCode::BadJson,
                format!("unknown language '{l}': en, pl or fr"),
            ));
        }
    }
    if let Some(learn) = &s.learn {
        let fits = learn.iter().all(|(game, ids)| {
            crate::model::Kind::ALL.iter().any(|k| k.name() == game)
                && ids.len() <= 100
                && ids.iter().all(|id| {
                    (1..=40).contains(&id.len())
                        && id
                            .bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                })
        });
        if !fits {
            return Err(ApiError::BadRequest(
                ErrorCode::BadJson,
                "learn is {\"ringo\"|\"urgammon\": [lesson ids]}: at most 100 ids of 1 to 40 letters, digits and dashes".into(),
            ));
        }
    }
    let text = serde_json::to_string(&s).map_err(|e| ApiError::Internal(e.to_string()))?;
    app.accounts().save_settings(a.id, text).await?;
    Ok(Json(Done { ok: true }))
}

/// One game in the data download.
#[derive(Serialize)]
struct ExportedGame {
    id: String,
    game: crate::model::Kind,
    settings: String,
    mode: crate::model::Mode,
    status: crate::model::Status,
    seats: Vec<Seat>,
    created_at: i64,
    updated_at: i64,
    record: String,
}

/// `GET /api/account/export`: the account and every game it holds a seat
/// in, as a JSON download.
pub async fn export(State(app): State<AppState>, viewer: Viewer) -> Result<Response, ApiError> {
    let (a, _) = viewer.require()?;
    let mut games = vec![];
    let mut after = None;
    loop {
        let rows = app
            .store()
            .list(&ListQuery {
                limit: 100,
                ids: None,
                after: after.clone(),
                account: Some(a.id),
            })
            .await?;
        for (row, _) in &rows {
            // Read from the store, which holds every acknowledged change:
            // loading each game as a live one would fill memory with a
            // whole history and wake the computer in games it is to move.
            let Some(loaded) = app.store().load(&row.id).await? else {
                continue;
            };
            let session = crate::session::Session::from_stored(loaded)
                .map_err(|e| ApiError::Internal(e.to_string()))?;
            games.push(ExportedGame {
                id: row.id.clone(),
                game: row.kind,
                settings: row.settings.clone(),
                mode: row.mode,
                status: session.status(),
                seats: session.seats_of(Some(a.id)),
                created_at: row.created_at,
                updated_at: row.updated_at,
                record: session.record(),
            });
        }
        if rows.len() < 100 {
            break;
        }
        after = rows.last().map(|(r, _)| crate::store::ListCursor::of(r));
    }
    let sessions: Vec<_> = app
        .accounts()
        .sessions(a.id)
        .await?
        .into_iter()
        .map(|s| ExportedSession {
            device: s.device,
            created_at: s.created_at,
            last_seen: s.last_seen,
        })
        .collect();
    let body = Export {
        account: ExportedAccount {
            name: a.name.clone(),
            created_at: a.created_at,
            settings: saved_settings(a),
        },
        sessions,
        games,
    };
    let body = serde_json::to_string(&body).map_err(|e| ApiError::Internal(e.to_string()))?;
    let file = format!(
        "attachment; filename=\"agon-{}.json\"",
        a.name.as_deref().unwrap_or("account")
    );
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (header::CONTENT_DISPOSITION, file),
        ],
        body,
    )
        .into_response())
}
