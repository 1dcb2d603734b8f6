//! `POST /api/games/{id}/action`: a player's typed action. Moves are only
//! moves of the game; the server alone draws dice.

use super::{parse_json, token_from};
use crate::http::error::ApiError;
use crate::http::error::ErrorCode;
use crate::http::signed::Viewer;
use crate::model::OfferKind;
use crate::session::SessionView;
use crate::session::{Action, Mode};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::Json;
use serde::{Deserialize, Serialize};

/// The kinds of action.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
pub enum ActionKind {
    /// Play `move`.
    Move,
    /// Urgammon: roll the chance die.
    Roll,
    /// Urgammon: roll the verdict die.
    Verdict,
    /// Take back your last decision.
    Undo,
    /// Give up the game (Ringo) or match (Urgammon).
    Resign,
    /// Urgammon: start the next game after a game has ended.
    Next,
    /// After the end: a new game with the same settings and the seats swapped.
    Rematch,
    /// End a game between two people before both have moved (no result).
    Abort,
    /// Ask the other player to take back your last decision (against the
    /// computer or on one screen: taken back at once, as `undo`).
    TakebackOffer,
    /// Take back as the other player asked.
    TakebackAccept,
    /// Refuse the other player's takeback.
    TakebackDecline,
    /// After the end: offer the other player a rematch (the computer, or a
    /// game on one screen, accepts at once, as `rematch`).
    RematchOffer,
    /// Accept the other player's rematch: the new game is made.
    RematchAccept,
    /// Refuse the other player's rematch.
    RematchDecline,
    /// Claim the win: the opponent of a live game has been gone 60 s.
    Claim,
}

/// The request body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    #[serde(rename = "type")]
    kind: ActionKind,
    #[serde(default)]
    r#move: Option<String>,
    /// Refuse the action (409) unless the game is at this revision.
    #[serde(default)]
    expect_revision: Option<i64>,
    /// The network lag the client measures (half its round trip), in
    /// milliseconds: credited to its clock, up to the bound.
    #[serde(default)]
    lag_ms: Option<u32>,
}

/// The answer.
#[derive(Serialize)]
pub struct ActionAnswer {
    /// The game's state after the action.
    pub state: SessionView,
    /// The seats the token holds.
    pub you: Vec<u8>,
    /// For `rematch`: the new game's id (your token works there too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<String>,
    /// For `rematch` of a friend game whose other seat was never taken: that
    /// seat's invite code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// `POST /api/games/{id}/action`.
pub async fn act(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    viewer: Viewer,
    body: Bytes,
) -> Result<Json<ActionAnswer>, ApiError> {
    let req: ActionRequest = parse_json(&body)?;
    let token = token_from(&headers);
    if req.kind == ActionKind::Rematch {
        return rematch(&app, &id, &headers, &viewer, req.expect_revision).await;
    }
    let (slot, seats) = app
        .games()
        .slot_and_seats(&id, token.as_deref(), viewer.account_id())
        .await?;
    let mode = slot.session.lock().await.mode();
    let action = match req.kind {
        ActionKind::Move => Action::Move(
            req.r#move
                .filter(|m| !m.is_empty() && m.len() <= 32)
                .ok_or_else(|| {
                    ApiError::BadRequest(
                        ErrorCode::MoveMissing,
                        "a move action needs a \"move\" in notation".into(),
                    )
                })?,
        ),
        ActionKind::Roll => Action::Roll,
        ActionKind::Verdict => Action::Verdict,
        ActionKind::Undo => Action::Undo,
        ActionKind::Resign => Action::Resign,
        ActionKind::Next => Action::Next,
        ActionKind::Abort => Action::Abort,
        // Against the computer or on one screen nobody need agree.
        ActionKind::TakebackOffer if mode != Mode::Friend => Action::Undo,
        ActionKind::RematchOffer if mode != Mode::Friend => {
            return rematch(&app, &id, &headers, &viewer, req.expect_revision).await
        }
        ActionKind::TakebackOffer => {
            takebacks_allowed(&app, &slot).await?;
            Action::Offer(OfferKind::Takeback)
        }
        ActionKind::TakebackAccept => Action::Accept(OfferKind::Takeback),
        ActionKind::TakebackDecline => Action::Decline(OfferKind::Takeback),
        ActionKind::RematchOffer => Action::Offer(OfferKind::Rematch),
        ActionKind::RematchDecline => Action::Decline(OfferKind::Rematch),
        ActionKind::RematchAccept => {
            if seats.is_empty() {
                return Err(ApiError::Forbidden(
                    ErrorCode::NotAPlayer,
                    "only the players can answer an offer".into(),
                ));
            }
            slot.session
                .lock()
                .await
                .answerable(&seats, OfferKind::Rematch)
                .map_err(crate::games::GameError::from)?;
            return rematch(&app, &id, &headers, &viewer, req.expect_revision).await;
        }
        ActionKind::Claim => {
            // The opponent of a player holding one seat.
            let absent_ms = match seats.as_slice() {
                [seat] => app.games().absence(&slot, 1 - seat).await?.unwrap_or(0),
                _ => 0,
            };
            Action::Claim {
                absent_ms,
                needed_ms: app.options().claim_after.as_millis() as i64,
            }
        }
        ActionKind::Rematch => {
            return rematch(&app, &id, &headers, &viewer, req.expect_revision).await
        }
    };
    let lag = i64::from(req.lag_ms.unwrap_or(0));
    let (state, you) = app
        .games()
        .apply(&slot, &seats, &action, req.expect_revision, lag)
        .await?;
    Ok(Json(ActionAnswer {
        state,
        you,
        rematch: None,
        invite: None,
    }))
}

/// A rated game's takebacks need both players to allow them (a setting of
/// each account, on by default).
async fn takebacks_allowed(app: &AppState, slot: &crate::hub::Slot) -> Result<(), ApiError> {
    let (rated, accounts) = {
        let s = slot.session.lock().await;
        (s.row.rated, s.row.accounts.clone())
    };
    if !rated {
        return Ok(());
    }
    for a in accounts.iter().flatten() {
        let settings = app
            .store()
            .account(a.id)
            .await?
            .and_then(|acc| acc.settings);
        let allows = super::account_data::allows_takebacks(settings.as_deref());
        if !allows {
            return Err(ApiError::Conflict(
                ErrorCode::TakebacksOff,
                "takebacks in this rated game are off: both players must allow them in their settings"
                    .into(),
            ));
        }
    }
    Ok(())
}

/// The rematch of a finished game (the games service's rematcher), as
/// the action's answer.
async fn rematch(
    app: &AppState,
    id: &str,
    headers: &HeaderMap,
    viewer: &Viewer,
    expect_revision: Option<i64>,
) -> Result<Json<ActionAnswer>, ApiError> {
    let made = app
        .games()
        .rematch(
            id,
            token_from(headers).as_deref(),
            viewer.account_id(),
            expect_revision,
        )
        .await?;
    Ok(Json(ActionAnswer {
        state: made.state,
        you: made.you,
        rematch: Some(made.game),
        invite: made.invite,
    }))
}
