//! `POST /api/import`: a record as a new game, played on at one screen,
//! against the computer or with a friend.

use super::games::{create_game, seating, Created, NewGame};
use super::parse_json;
use crate::http::error::ErrorCode;
use crate::http::error::{ApiError, RecordAt};
use crate::kinds::Imported;
use crate::session::{split_resignation, Kind};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportRequest {
    game: String,
    record: String,
    /// As for creation: `local` (the default), `engine` or `friend`.
    #[serde(default)]
    opponent: Option<String>,
    /// As for creation: the computer's level.
    #[serde(default)]
    level: Option<Value>,
    /// As for creation: the importer's side (default: the side to act).
    #[serde(default)]
    side: Option<String>,
}

/// `POST /api/import`: a record as a new same-screen game: a Ringo game
/// record, or an Urgammon game or match record, either possibly ending with
/// `resign:SIDE`.
pub async fn import(
    State(app): State<AppState>,
    viewer: crate::http::signed::Viewer,
    body: Bytes,
) -> Result<(StatusCode, Json<Created>), ApiError> {
    let req: ImportRequest = parse_json(&body)?;
    let kind: Kind = req.game.parse()?;
    let bad =
        |e: String| ApiError::BadRequest(ErrorCode::BadRecord, format!("invalid record: {e}"));
    // A token that cannot be read: where, besides the English words.
    let bad_at = |e: String, index: usize, token: &str| {
        ApiError::BadRecordAt(
            format!("invalid record: {e}"),
            RecordAt {
                index,
                token: token.to_string(),
            },
        )
    };
    let saved = agon_views::Saved::split(&req.record);
    let resign = saved
        .resigned
        .map(|side| format!("{}{side}", agon_views::RESIGN));
    let text = saved.record;
    let Imported {
        settings,
        start,
        mut tokens,
        to_act,
    } = crate::kinds::of(kind)
        .import(text)
        .map_err(|e| match e.at {
            Some((index, token)) => bad_at(e.message, index, &token),
            None => bad(e.message),
        })?;
    tokens.extend(resign);
    // The limit counts the game's tokens; a resignation may come on top.
    let (played, _) = split_resignation(kind, &tokens).map_err(bad)?;
    if played.len() > crate::games::MAX_TOKENS {
        return Err(bad(format!(
            "{} tokens: the server keeps records of at most {} tokens",
            played.len(),
            crate::games::MAX_TOKENS
        )));
    }
    let (mode, my_seat, level) = seating(
        kind,
        req.opponent.as_deref().unwrap_or("local"),
        req.side.as_deref(),
        req.level.as_ref(),
    )?;
    // The importer goes on with the side to act, unless she says.
    let my_seat = match req.side {
        Some(_) => my_seat,
        None => to_act.unwrap_or(crate::model::Seat::First),
    };
    let g = NewGame {
        kind,
        settings,
        start,
        mode,
        level,
        my_seat,
        tokens,
        rated: false,
        clock: None,
        first_move_ms: app.games().first_move_ms(),
    };
    Ok((
        StatusCode::CREATED,
        Json(create_game(&app, g, &viewer).await?),
    ))
}
