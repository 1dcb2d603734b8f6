//! Passkeys over HTTP: adding one to the signed-in account, signing in with
//! one, listing and removing them. The ceremonies' JSON is WebAuthn's own
//! (`PublicKeyCredential.parseCreationOptionsFromJSON`, `toJSON()`).

use super::account_answers::{Done, SignedIn};
use crate::accounts::passkeys::Site;
use crate::http::error::{ApiError, ErrorCode};
use crate::http::signed::{started_answer, Viewer};
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// The site a request addresses, for its passkeys.
fn site(headers: &HeaderMap, viewer: &Viewer) -> Result<Site, ApiError> {
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    Ok(Site::of(host, viewer.https)?)
}

/// JSON made by the WebAuthn library, answered as is.
fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// One passkey of the account page.
#[derive(Serialize)]
pub struct PasskeyEntry {
    /// Its id (hex).
    pub id: String,
    /// When it was added.
    pub created_at: i64,
    /// When it last signed in.
    pub last_used: Option<i64>,
}

/// `POST /api/account/passkeys/options`: the options for
/// `navigator.credentials.create` (signed in).
pub async fn add_options(
    State(app): State<AppState>,
    headers: HeaderMap,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    let (a, _) = viewer.require()?;
    let site = site(&headers, &viewer)?;
    Ok(json(
        StatusCode::OK,
        app.accounts().begin_passkey(a, &site).await?,
    ))
}

/// `POST /api/account/passkeys` with the new credential's JSON: 201.
pub async fn add(
    State(app): State<AppState>,
    headers: HeaderMap,
    viewer: Viewer,
    body: Bytes,
) -> Result<(StatusCode, Json<PasskeyEntry>), ApiError> {
    let (a, _) = viewer.require()?;
    let site = site(&headers, &viewer)?;
    let row = app.accounts().add_passkey(a, &site, &body).await?;
    Ok((
        StatusCode::CREATED,
        Json(PasskeyEntry {
            id: row.id,
            created_at: row.created_at,
            last_used: row.last_used,
        }),
    ))
}

/// The account's passkeys, for `GET /api/account`.
pub async fn list(app: &AppState, account: i64) -> Result<Vec<PasskeyEntry>, ApiError> {
    Ok(app
        .accounts()
        .passkeys_of(account)
        .await?
        .into_iter()
        .map(|p| PasskeyEntry {
            id: p.id,
            created_at: p.created_at,
            last_used: p.last_used,
        })
        .collect())
}

/// `DELETE /api/account/passkeys/{id}`.
pub async fn remove(
    State(app): State<AppState>,
    Path(id): Path<String>,
    viewer: Viewer,
) -> Result<Json<Done>, ApiError> {
    let (a, _) = viewer.require()?;
    if id.len() > 2048 || !app.accounts().remove_passkey(a.id, &id).await? {
        return Err(ApiError::Missing(
            ErrorCode::PasskeyNotFound,
            "no passkey of yours with this id".into(),
        ));
    }
    Ok(Json(Done { ok: true }))
}

/// `POST /api/account/passkey-login/options`: the options for
/// `navigator.credentials.get`.
pub async fn sign_in_options(
    State(app): State<AppState>,
    headers: HeaderMap,
    viewer: Viewer,
) -> Result<Response, ApiError> {
    let site = site(&headers, &viewer)?;
    Ok(json(
        StatusCode::OK,
        app.accounts().begin_passkey_sign_in(&site).await?,
    ))
}

/// `POST /api/account/passkey-login` with the assertion's JSON: 200 and a
/// fresh session cookie.
pub async fn sign_in(
    State(app): State<AppState>,
    headers: HeaderMap,
    viewer: Viewer,
    body: Bytes,
) -> Result<Response, ApiError> {
    let site = site(&headers, &viewer)?;
    let started = app
        .accounts()
        .sign_in_with_passkey(&site, &body, &viewer.device)
        .await?;
    if let Some((a, s)) = &viewer.signed_in {
        app.accounts().end(a.id, &s.id_hash).await?;
    }
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
