//! Seats: joining a friend game with its one-time invite code, and seat
//! links that move a player's seat to another device.

use super::{parse_json, token_from};
use crate::games::players;
use crate::http::error::ApiError;
use crate::http::error::ErrorCode;
use crate::model::{InviteSeats, Seat};
use crate::secrets;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    invite: String,
}

/// The answer to a join: the new seat token.
#[derive(Serialize)]
pub struct Joined {
    /// The seat token: send it as `x-agon-token`.
    pub token: String,
    /// The seats it holds.
    pub you: Vec<Seat>,
    /// The first seat it holds.
    pub seat: Seat,
}

/// `POST /api/games/{id}/join` with `{"invite": CODE}`: the first request
/// with a code gets its seat and a fresh token (a seat link's code hands the
/// seat over: the old token stops working); every later one gets 409.
pub async fn join(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: crate::http::signed::Viewer,
    body: Bytes,
) -> Result<Json<Joined>, ApiError> {
    let req: JoinRequest = parse_json(&body)?;
    let token = secrets::secret()?;
    let signed_in = viewer
        .signed_in
        .as_ref()
        .map(|(a, _)| crate::store::SeatAccount {
            id: a.id,
            name: a.name.clone(),
        });
    let you = players::join(
        app.games(),
        &id,
        req.invite.trim(),
        &token,
        signed_in.as_ref(),
    )
    .await?;
    Ok(Json(Joined {
        token,
        seat: you[0],
        you,
    }))
}

/// The answer to a seat-link request.
#[derive(Serialize)]
pub struct SeatLink {
    /// The one-time code.
    pub code: String,
    /// The link's path: `/g/{id}?invite=CODE`.
    pub url: String,
}

/// `POST /api/games/{id}/seat-link` (with the seat's token): a one-time code
/// that moves this token's seat(s) to whoever opens it; when it is used, this
/// token stops working.
pub async fn seat_link(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<SeatLink>, ApiError> {
    let (_, seats) =
        players::slot_and_seats(app.games(), &id, token_from(&headers).as_deref(), None).await?;
    let seat = match seats.as_slice() {
        [] => {
            return Err(ApiError::Forbidden(
                ErrorCode::NotAPlayer,
                "only a player can move her seat".into(),
            ))
        }
        [s] => InviteSeats::One(*s),
        _ => InviteSeats::Both,
    };
    let code = secrets::secret()?;
    app.store()
        .add_invite(&id, secrets::hash(&code), seat)
        .await?;
    Ok(Json(SeatLink {
        url: format!("/g/{id}?invite={code}"),
        code,
    }))
}
