//! `/api/account/…`: sign-up, sign-in and out, the account page's data,
//! recovery, password change, deletion, the data download, and claiming
//! the seats a browser holds. Every answer that starts a session sets the
//! `HttpOnly` session cookie; the session id never appears in a body.

use super::account_answers::{Claimed, Done, SignedIn};
use super::parse_json;
use crate::accounts::passwords::MAX_LEN;
use crate::games::players;
use crate::games::players::MAX_CLAIMS;
use crate::http::error::{ApiError, ErrorCode};
use crate::http::signed::{clear_cookie, started_answer, Viewer};
use crate::state::AppState;
use crate::store::accounts::Account;
use crate::store::SeatAccount;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

/// A seat this browser holds: a game and its seat token.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeldSeat {
    game: String,
    token: String,
}

/// `signup` and `login`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
    /// The seats this browser holds, to become the account's.
    #[serde(default)]
    seats: Vec<HeldSeat>,
}

/// The answer to a sign-up.
#[derive(Serialize)]
pub struct SignedUp {
    /// The name as written.
    pub name: String,
    /// Ten one-time codes that reset the password: shown once, stored
    /// hashed.
    pub recovery_codes: Vec<String>,
    /// The games whose seats became the account's.
    pub claimed: Vec<Claimed>,
}

/// One of the account's sessions, for the account page.
#[derive(Serialize)]
pub struct SessionEntry {
    /// The session's handle (the hash of its id: it cannot sign anyone in).
    pub id: String,
    /// The browser and system in English ("Firefox on Linux").
    pub device: String,
    /// The browser alone ("Firefox"), for a page that says it in its own
    /// language.
    pub browser: String,
    /// The system alone ("Linux"), when known.
    pub system: Option<String>,
    /// When it began.
    pub created_at: i64,
    /// When it was last used.
    pub last_seen: i64,
    /// This is the session asking.
    pub current: bool,
}

/// `GET /api/account`.
#[derive(Serialize)]
pub struct AccountAnswer {
    /// The name as written.
    pub name: String,
    /// When the account was made.
    pub created_at: i64,
    /// Unused recovery codes left.
    pub recovery_codes_left: usize,
    /// The account's sessions, most recently used first.
    pub sessions: Vec<SessionEntry>,
    /// The saved settings (language, sounds, animation, board flip).
    pub settings: serde_json::Value,
    /// The account's passkeys.
    pub passkeys: Vec<super::passkeys::PasskeyEntry>,
    /// Her rating in each game, as her profile shows it (the lobby reads
    /// it for the seeks she may take).
    pub ratings: std::collections::BTreeMap<&'static str, super::users::RatingView>,
    /// She is a moderator (the page links the moderation page).
    pub moderator: bool,
    /// Until when a moderator muted her chat, while she is muted
    /// (milliseconds since the epoch).
    pub muted_until: Option<i64>,
    /// Why she is muted, in the moderator's words, while she is.
    pub muted_reason: Option<String>,
    /// The warnings and mutes moderators gave her that she has not been
    /// shown yet, with their reasons: each is answered once.
    pub notices: Vec<crate::safety::ActionView>,
    /// Her pause from the lobby, while she is in one: `{"until_ms",
    /// "abandoned"}` (the live games she abandoned in a row).
    pub paused: Option<crate::lobby::Pause>,
}

fn too_long(what: &str, s: &str, max: usize) -> Result<(), ApiError> {
    if s.chars().count() > max {
        return Err(ApiError::BadRequest(
            ErrorCode::BadJson,
            format!("{what} is too long (at most {max} characters)"),
        ));
    }
    Ok(())
}

/// Makes the seats of `held` the account's: each token's seats in its game.
async fn claim(
    app: &AppState,
    account: &Account,
    held: &[HeldSeat],
) -> Result<Vec<Claimed>, ApiError> {
    if held.len() > MAX_CLAIMS {
        return Err(ApiError::BadRequest(
            ErrorCode::BadJson,
            format!("at most {MAX_CLAIMS} seats at once"),
        ));
    }
    let mine = SeatAccount {
        id: account.id,
        name: account.name.clone(),
    };
    let mut claimed = vec![];
    for h in held {
        if !crate::store::is_game_id(&h.game) || h.token.len() > 128 {
            continue;
        }
        let seats = players::claim_seats(app.games(), &h.game, &h.token, &mine).await?;
        if !seats.is_empty() {
            claimed.push(Claimed {
                game: h.game.clone(),
                seats,
            });
        }
    }
    Ok(claimed)
}

/// `POST /api/account/signup {"name", "password", "seats"?}` → 201 with the
/// recovery codes and the session cookie.
pub async fn signup(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: Credentials = parse_json(&body)?;
    too_long("the name", &req.name, 64)?;
    let (started, codes) = app
        .accounts()
        .sign_up(&req.name, req.password, &viewer.device)
        .await?;
    let claimed = claim(&app, &started.account, &req.seats).await?;
    let name = started.account.name.clone().unwrap_or_default();
    started_answer(
        &app,
        &viewer,
        StatusCode::CREATED,
        SignedUp {
            name,
            recovery_codes: codes,
            claimed,
        },
        &started,
    )
    .await
}

/// `POST /api/account/login {"name", "password", "seats"?}` → 200 and a
/// fresh session cookie.
pub async fn login(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: Credentials = parse_json(&body)?;
    too_long("the name", &req.name, 64)?;
    too_long("the password", &req.password, MAX_LEN)?;
    let started = app
        .accounts()
        .sign_in(
            &req.name,
            req.password,
            Some(viewer.address),
            &viewer.device,
            viewer.device_cookie.as_deref(),
        )
        .await;
    crate::metrics::sign_in(match &started {
        Ok(_) => "ok",
        Err(crate::accounts::AccountError::Throttled(_)) => "throttled",
        Err(_) => "refused",
    });
    let started = started?;
    // A session already in this browser ends: the new one replaces it.
    if let Some((a, s)) = &viewer.signed_in {
        app.accounts().end(a.id, &s.id_hash).await?;
    }
    let claimed = claim(&app, &started.account, &req.seats).await?;
    let name = started.account.name.clone().unwrap_or_default();
    started_answer(
        &app,
        &viewer,
        StatusCode::OK,
        SignedIn { name, claimed },
        &started,
    )
    .await
}

/// `POST /api/account/claim {"seats": [...]}`: the seats this browser holds
/// become the signed-in account's.
pub async fn claim_seats(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Json<ClaimAnswer>, ApiError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Req {
        seats: Vec<HeldSeat>,
    }
    let (account, _) = viewer.require()?;
    let req: Req = parse_json(&body)?;
    let claimed = claim(&app, account, &req.seats).await?;
    Ok(Json(ClaimAnswer { claimed }))
}

/// `logout-all`'s answer.
#[derive(Serialize)]
pub struct Ended {
    /// Always true.
    pub ok: bool,
    /// How many sessions ended.
    pub ended: usize,
}

/// `claim`'s answer.
#[derive(Serialize)]
pub struct ClaimAnswer {
    /// The games whose seats became the account's.
    pub claimed: Vec<Claimed>,
}

/// A new set of recovery codes.
#[derive(Serialize)]
pub struct Codes {
    /// Ten one-time codes, shown once.
    pub recovery_codes: Vec<String>,
}

/// `POST /api/account/logout`: ends this session.
pub async fn logout(State(app): State<AppState>, viewer: Viewer) -> Result<Response, ApiError> {
    if let Some((a, s)) = &viewer.signed_in {
        app.accounts().end(a.id, &s.id_hash).await?;
    }
    Ok((
        [(header::SET_COOKIE, clear_cookie(viewer.https))],
        Json(Done { ok: true }),
    )
        .into_response())
}

/// `POST /api/account/logout-all`: ends every session of the account, this
/// one included.
pub async fn logout_all(State(app): State<AppState>, viewer: Viewer) -> Result<Response, ApiError> {
    let (a, _) = viewer.require()?;
    let ended = app.accounts().end_all(a.id, None).await?;
    Ok((
        [(header::SET_COOKIE, clear_cookie(viewer.https))],
        Json(Ended { ok: true, ended }),
    )
        .into_response())
}

/// `DELETE /api/account/sessions/{id}`: ends one of the account's sessions
/// (a device listed on the account page).
pub async fn end_session(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> Result<Json<Done>, ApiError> {
    let (a, _) = viewer.require()?;
    if !crate::secrets::is_hash(&id) || !app.accounts().end(a.id, &id).await? {
        return Err(ApiError::Missing(
            ErrorCode::SessionNotFound,
            "no session of yours with this id".into(),
        ));
    }
    Ok(Json(Done { ok: true }))
}

/// `GET /api/account`: 200 with the account when signed in, else 401.
pub async fn get(
    State(app): State<AppState>,
    viewer: Viewer,
) -> Result<Json<AccountAnswer>, ApiError> {
    let (a, current) = viewer.require()?;
    let sessions = app
        .accounts()
        .sessions(a.id)
        .await?
        .into_iter()
        .map(|s| SessionEntry {
            browser: s
                .device
                .split_once(" on ")
                .map_or(s.device.as_str(), |(b, _)| b)
                .to_string(),
            system: s.device.split_once(" on ").map(|(_, o)| o.to_string()),
            current: s.id_hash == current.id_hash,
            id: s.id_hash,
            device: s.device,
            created_at: s.created_at,
            last_seen: s.last_seen,
        })
        .collect();
    let mute = crate::safety::mute(app.store(), a.id).await?;
    Ok(Json(AccountAnswer {
        name: a.name.clone().unwrap_or_default(),
        created_at: a.created_at,
        recovery_codes_left: app.accounts().codes_left(a.id).await?,
        sessions,
        settings: super::account_data::saved_settings(a),
        passkeys: super::passkeys::list(&app, a.id).await?,
        ratings: super::users::ratings_of(&app, a.id).await?,
        moderator: app.safety().is_moderator(a.id).await?,
        muted_until: mute.as_ref().map(|m| m.until_ms),
        muted_reason: mute.map(|m| m.reason),
        notices: app.safety().notices(a.id).await?,
        paused: app.lobby().pause_of(a.id).await?,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PasswordOnly {
    password: String,
}

/// `DELETE /api/account {"password"}`: deletes the account (its games stay,
/// under "deleted player") and ends its sessions.
pub async fn delete(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, ApiError> {
    let (a, _) = viewer.require()?;
    let req: PasswordOnly = parse_json(&body)?;
    too_long("the password", &req.password, MAX_LEN)?;
    crate::flows::delete_account(&app, a, req.password, Some(viewer.address)).await?;
    Ok((
        [(header::SET_COOKIE, clear_cookie(viewer.https))],
        Json(Done { ok: true }),
    )
        .into_response())
}

/// `POST /api/account/password {"current", "password"}`: a new password;
/// every other session ends.
pub async fn change_password(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Json<Done>, ApiError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Req {
        current: String,
        password: String,
    }
    let (a, s) = viewer.require()?;
    let req: Req = parse_json(&body)?;
    too_long("the password", &req.current, MAX_LEN)?;
    app.accounts()
        .change_password(
            a,
            &s.id_hash,
            req.current,
            req.password,
            Some(viewer.address),
        )
        .await?;
    Ok(Json(Done { ok: true }))
}

/// `POST /api/account/recovery-codes {"password"}` → 201 with a new set of
/// ten codes; the old ones stop working.
pub async fn new_codes(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<(StatusCode, Json<Codes>), ApiError> {
    let (a, _) = viewer.require()?;
    let req: PasswordOnly = parse_json(&body)?;
    too_long("the password", &req.password, MAX_LEN)?;
    let name = a.name.clone().unwrap_or_default();
    app.accounts()
        .check_password(
            &name,
            req.password,
            Some(viewer.address),
            viewer.device_cookie.as_deref(),
        )
        .await?;
    let codes = app.accounts().new_codes(a.id).await?;
    Ok((
        StatusCode::CREATED,
        Json(Codes {
            recovery_codes: codes,
        }),
    ))
}

/// `POST /api/account/recover {"name", "code", "password"}`: a new password
/// with a one-time recovery code; every session ends and a new one starts.
pub async fn recover(
    State(app): State<AppState>,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, ApiError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Req {
        name: String,
        code: String,
        password: String,
    }
    let req: Req = parse_json(&body)?;
    too_long("the name", &req.name, 64)?;
    too_long("the code", &req.code, 64)?;
    let started = app
        .accounts()
        .recover(
            &req.name,
            &req.code,
            req.password,
            Some(viewer.address),
            &viewer.device,
        )
        .await?;
    let name = started.account.name.clone().unwrap_or_default();
    started_answer(
        &app,
        &viewer,
        StatusCode::OK,
        SignedIn {
            name,
            claimed: vec![],
        },
        &started,
    )
    .await
}
