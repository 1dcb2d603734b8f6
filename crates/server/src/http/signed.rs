//! Who asks: the session cookie read, checked and turned into the signed-in
//! account (or none), for every handler that cares.

use super::edge::over_https;
use super::error::ApiError;
use super::limits::ClientIp;
use crate::state::AppState;
use crate::store::accounts::{Account, SignIn};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue};
use std::net::IpAddr;
use std::sync::Arc;

/// The session cookie's name.
pub const COOKIE: &str = "agon_session";

/// The device cookie's name: a random id, set at a browser's first sign-in,
/// whose hash the store keeps with each account signed in from it, so that
/// the throttle on an account's failed sign-ins spares its owner's own
/// browsers.
pub const DEVICE_COOKIE: &str = "agon_device";

/// The browser's cap on a cookie's life (400 days): the server ends a
/// session idle for 30 days whatever the cookie says.
const COOKIE_MAX_AGE: u64 = 400 * 86_400;

/// The request's asker: the account its session cookie signs in (if any),
/// and what the account routes need besides.
pub struct Viewer {
    /// The signed-in account and its session.
    pub signed_in: Option<(Account, SignIn)>,
    /// The request came over HTTPS (the cookie is then `Secure`).
    pub https: bool,
    /// The client's address (a trusted proxy's forwarded one).
    pub address: IpAddr,
    /// The User-Agent, shortened ("Firefox on Linux").
    pub device: String,
    /// The device cookie (64 hex digits), if this browser has one.
    pub device_cookie: Option<String>,
}

impl Viewer {
    /// The signed-in account's number, if any.
    pub fn account_id(&self) -> Option<i64> {
        self.signed_in.as_ref().map(|(a, _)| a.id)
    }

    /// The signed-in account and session, or 401 `not-signed-in`.
    ///
    /// # Errors
    /// Not signed in.
    pub fn require(&self) -> Result<&(Account, SignIn), ApiError> {
        self.signed_in
            .as_ref()
            .ok_or_else(|| crate::accounts::AccountError::NotSignedIn.into())
    }
}

/// The session id a request's `Cookie` header carries, if any.
pub fn cookie_of(headers: &HeaderMap) -> Option<String> {
    named_cookie(headers, COOKIE)
}

/// A cookie's value by name.
fn named_cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim().to_string())
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<Viewer, ApiError> {
        let trusted = &app.options().trusted_proxies;
        let address = ClientIp {
            trusted: Arc::new(trusted.clone()),
        }
        .of(&parts.extensions, &parts.headers);
        let https = over_https(&parts.extensions, &parts.headers, trusted);
        let device = crate::accounts::device(
            parts
                .headers
                .get(header::USER_AGENT)
                .and_then(|v| v.to_str().ok()),
        );
        // Another site's page never gets this far with a state change: the
        // edge refuses a foreign `Origin` (403 `foreign-origin`).
        let signed_in = match cookie_of(&parts.headers) {
            Some(id) => app.accounts().session(&id).await?,
            None => None,
        };
        let device_cookie = named_cookie(&parts.headers, DEVICE_COOKIE)
            .filter(|d| d.len() == 64 && d.bytes().all(|b| b.is_ascii_hexdigit()));
        Ok(Viewer {
            signed_in,
            https,
            address,
            device,
            device_cookie,
        })
    }
}

/// The `Set-Cookie` value that holds a new session.
pub fn set_cookie(id: &str, https: bool) -> HeaderValue {
    let secure = if https { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{COOKIE}={id}; HttpOnly; SameSite=Lax; Path=/; Max-Age={COOKIE_MAX_AGE}{secure}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("agon_session=; Path=/; Max-Age=0"))
}

/// The answer to a sign-in (or sign-up, recovery, passkey): `body`, the
/// new session's cookie, and the device cookie when the browser had none;
/// the store remembers the device for the account.
///
/// # Errors
/// No secret could be drawn, or the store failed.
pub async fn started_answer<T: serde::Serialize>(
    app: &AppState,
    viewer: &Viewer,
    status: axum::http::StatusCode,
    body: T,
    started: &crate::accounts::Started,
) -> Result<axum::response::Response, ApiError> {
    use axum::response::IntoResponse;
    let fresh = match &viewer.device_cookie {
        Some(_) => None,
        None => Some(crate::secrets::long_secret()?),
    };
    let device = viewer.device_cookie.as_ref().or(fresh.as_ref());
    if let Some(d) = device {
        app.accounts()
            .remember_device(d, started.account.id)
            .await?;
    }
    let mut res = (status, axum::Json(body)).into_response();
    res.headers_mut().append(
        header::SET_COOKIE,
        set_cookie(&started.cookie, viewer.https),
    );
    if let Some(d) = fresh {
        let secure = if viewer.https { "; Secure" } else { "" };
        if let Ok(v) = HeaderValue::from_str(&format!(
            "{DEVICE_COOKIE}={d}; HttpOnly; SameSite=Lax; Path=/; Max-Age={COOKIE_MAX_AGE}{secure}"
        )) {
            res.headers_mut().append(header::SET_COOKIE, v);
        }
    }
    Ok(res)
}

/// The `Set-Cookie` value that ends the session in the browser.
pub fn clear_cookie(https: bool) -> HeaderValue {
    HeaderValue::from_static(if https {
        "agon_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0; Secure"
    } else {
        "agon_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_found_among_others_and_flags_follow_https() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; agon_session=abc ; b=2"),
        );
        assert_eq!(cookie_of(&h).as_deref(), Some("abc"));
        let c = set_cookie("x", true);
        let c = c.to_str().unwrap();
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Lax") && c.contains("Path=/"));
        assert!(c.ends_with("; Secure"));
        assert!(!set_cookie("x", false).to_str().unwrap().contains("Secure"));
    }
}
