//! Passkeys (WebAuthn), a second way to sign in, by `webauthn_rp` (pure
//! Rust: nothing to install). A signed-in player adds a passkey; later, on
//! a browser that holds it, she signs in with it alone (a discoverable
//! credential: no name to type).
//!
//! A ceremony's state waits in the store under its challenge for five
//! minutes, so it may begin on one instance and end on another (behind a
//! proxy that spreads requests); it is taken once.

use super::error::AccountError;
use webauthn_rp::bin::{Decode, Encode};
use webauthn_rp::request::auth::AuthenticationVerificationOptions;
use webauthn_rp::request::register::{
    CredProtect, Nickname, PublicKeyCredentialUserEntity, RegistrationVerificationOptions,
    UserHandle64, Username,
};
use webauthn_rp::request::{AsciiDomain, PublicKeyCredentialDescriptor, RpId, TimedCeremony};
use webauthn_rp::response::register::{CompressedPubKey, DynamicState, StaticState};
use webauthn_rp::response::AuthTransports;
use webauthn_rp::response::{CredentialId, SentChallenge};
use webauthn_rp::{
    AuthenticatedCredential, DiscoverableAuthentication64, DiscoverableAuthenticationServerState,
    DiscoverableCredentialRequestOptions, PublicKeyCredentialCreationOptions, Registration,
    RegistrationServerState,
};

/// The stored public key's shape (the decoded static state's).
type StoredKey = CompressedPubKey<[u8; 32], [u8; 32], [u8; 48], Vec<u8>>;

/// A user handle from its stored bytes.
fn user_handle(bytes: &[u8]) -> Option<UserHandle64> {
    UserHandle64::decode(<[u8; 64]>::try_from(bytes).ok()?).ok()
}

/// Where a passkey ceremony runs: the site's name (the WebAuthn "RP ID":
/// the request's host without its port; never an IP address) and the page's
/// origin.
pub struct Site {
    rp_id: RpId,
    origin: String,
}

impl Site {
    /// The site a request addresses: `host` (its `Host`, port included) over
    /// HTTPS or not.
    ///
    /// # Errors
    /// [`AccountError::PasskeyNeedsName`]: the host is an IP address (no
    /// browser makes a passkey for one).
    pub fn of(host: &str, https: bool) -> Result<Site, AccountError> {
        let name = host
            .rsplit_once(':')
            .filter(|(_, port)| port.bytes().all(|b| b.is_ascii_digit()))
            .map_or(host, |(name, _)| name)
            .to_ascii_lowercase();
        if name.parse::<std::net::IpAddr>().is_ok() || name.starts_with('[') {
            return Err(AccountError::PasskeyNeedsName);
        }
        let domain = AsciiDomain::try_from(name).map_err(|_| AccountError::PasskeyNeedsName)?;
        Ok(Site {
            rp_id: RpId::Domain(domain),
            origin: format!("{}://{host}", if https { "https" } else { "http" }),
        })
    }
}

/// A passkey as stored: its id, and its public key and counters encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredPasskey {
    /// The credential id.
    pub id: Vec<u8>,
    /// Its static state (the public key, extensions), encoded.
    pub static_state: Vec<u8>,
    /// Its dynamic state (the signature counter, backup flags), encoded.
    pub dynamic_state: Vec<u8>,
}

/// A ceremony begun: the options for the browser, and what the store
/// keeps until it ends.
pub struct Begun {
    /// The options for the browser, as JSON.
    pub json: String,
    /// The challenge sent, in hex: the ceremony's key.
    pub challenge: String,
    /// The ceremony's state, encoded, in hex.
    pub state: String,
    /// When it expires, seconds since the epoch.
    pub expires_at: i64,
}

/// The two kinds of ceremony, as the store names them.
pub const REGISTER: &str = "register";
/// A sign-in ceremony.
pub const SIGN_IN: &str = "sign-in";

/// A sent challenge as the store's key.
fn challenge_key(c: SentChallenge) -> String {
    format!("{:032x}", c.0)
}

/// A ceremony begun: its options for the browser as JSON, and its server
/// state as the store keeps it.
fn begun<S, C>(server: &S, client: &C) -> Result<Begun, AccountError>
where
    S: TimedCeremony + for<'a> Encode<Output<'a> = Vec<u8>> + 'static,
    C: serde::Serialize,
{
    let json = serde_json::to_string(client).map_err(|e| AccountError::Internal(e.to_string()))?;
    let state = server.encode().map_err(|_| refused("the ceremony"))?;
    Ok(Begun {
        json,
        challenge: challenge_key(server.sent_challenge()),
        state: crate::secrets::hex(&state),
        expires_at: server
            .expiration()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64),
    })
}

/// The passkey ceremonies: functions of their inputs (a ceremony's state
/// is the store's, between its two halves).
pub struct Passkeys;

fn refused(what: &str) -> AccountError {
    AccountError::PasskeyRefused(what.to_string())
}

/// A new user handle for an account's passkeys: 64 random bytes.
pub fn new_user_handle() -> Vec<u8> {
    UserHandle64::new()
        .encode()
        .map(|b| b.to_vec())
        .unwrap_or_default()
}

impl Passkeys {
    /// Begins adding a passkey to the account `name` whose passkeys' user
    /// handle is `user` and which has passkeys `existing` already: the
    /// options for `navigator.credentials.create`, as JSON.
    ///
    /// # Errors
    /// The account's handle or name cannot be used, or the ceremony cannot
    /// be encoded.
    pub fn begin_register(
        site: &Site,
        name: &str,
        user: &[u8],
        existing: &[Vec<u8>],
    ) -> Result<Begun, AccountError> {
        let user = user_handle(user).ok_or_else(|| refused("the account's passkey handle"))?;
        let username = Username::try_from(name).map_err(|_| refused("the name"))?;
        let nickname = Nickname::try_from(name).map_err(|_| refused("the name"))?;
        let exclude = existing
            .iter()
            .filter_map(|id| {
                Some(PublicKeyCredentialDescriptor {
                    id: CredentialId::<Vec<u8>>::decode(id.clone()).ok()?,
                    transports: AuthTransports::decode(0).ok()?,
                })
            })
            .collect();
        let entity = PublicKeyCredentialUserEntity {
            name: username,
            id: &user,
            display_name: Some(nickname),
        };
        let mut options = PublicKeyCredentialCreationOptions::passkey(&site.rp_id, entity, exclude);
        // Not the credProtect extension: an authenticator without it (a
        // CTAP 2.0 key, Chromium's virtual one) refused to make a passkey at
        // all when it was enforced; the passkey still requires user
        // verification at every sign-in.
        options.extensions.cred_protect = CredProtect::None;
        let (server, client) = options
            .start_ceremony()
            .map_err(|_| refused("the options"))?;
        begun(&server, &client)
    }

    /// The store's key of the ceremony a registration answers.
    ///
    /// # Errors
    /// The answer is malformed.
    pub fn registration_challenge(body: &[u8]) -> Result<String, AccountError> {
        let registration = Registration::from_json_relaxed(body)
            .map_err(|e| refused(&format!("the passkey's answer: {e}")))?;
        registration
            .challenge_relaxed()
            .map(challenge_key)
            .map_err(|_| refused("the challenge"))
    }

    /// Ends adding a passkey: checks the browser's answer against the
    /// ceremony begun for it and the account's handle `user`.
    ///
    /// # Errors
    /// The answer is malformed, for no ceremony of ours, for another
    /// account, or fails the WebAuthn checks.
    pub fn finish_register(
        site: &Site,
        user: &[u8],
        body: &[u8],
        state: &str,
    ) -> Result<StoredPasskey, AccountError> {
        let registration = Registration::from_json_relaxed(body)
            .map_err(|e| refused(&format!("the passkey's answer: {e}")))?;
        let server = from_hex(state)
            .and_then(|b| RegistrationServerState::<64>::decode(b.as_slice()).ok())
            .ok_or_else(|| refused("the ceremony"))?;
        let origins = [site.origin.as_str()];
        let options = RegistrationVerificationOptions::<&str, &str> {
            allowed_origins: &origins,
            ..RegistrationVerificationOptions::default()
        };
        let cred = server
            .verify(&site.rp_id, &registration, &options)
            .map_err(|e| refused(&format!("the passkey did not verify: {e}")))?;
        if cred.user_id().encode().ok().as_ref().map(|b| &b[..]) != Some(user) {
            return Err(refused("the passkey is for another account"));
        }
        Ok(StoredPasskey {
            id: cred.id().as_ref().to_vec(),
            static_state: cred
                .static_state()
                .encode()
                .map_err(|_| refused("the passkey's key"))?,
            dynamic_state: cred
                .dynamic_state()
                .encode()
                .map_err(|_| refused("the passkey's state"))?
                .to_vec(),
        })
    }

    /// Begins a sign-in with a passkey: the options for
    /// `navigator.credentials.get`, as JSON.
    ///
    /// # Errors
    /// The ceremony cannot be encoded.
    pub fn begin_sign_in(site: &Site) -> Result<Begun, AccountError> {
        let (server, client) = DiscoverableCredentialRequestOptions::passkey(&site.rp_id)
            .start_ceremony()
            .map_err(|_| refused("the options"))?;
        begun(&server, &client)
    }

    /// Reads a sign-in answer: the credential id and user handle it names,
    /// for the caller to find the stored passkey.
    ///
    /// # Errors
    /// The answer is malformed.
    pub fn read_sign_in(body: &[u8]) -> Result<(Vec<u8>, Vec<u8>, String), AccountError> {
        let auth = DiscoverableAuthentication64::from_json_relaxed(body)
            .map_err(|_| AccountError::BadCredentials)?;
        let user = auth
            .response()
            .user_handle()
            .encode()
            .map_err(|_| AccountError::BadCredentials)?
            .to_vec();
        let challenge = auth
            .challenge_relaxed()
            .map(challenge_key)
            .map_err(|_| AccountError::BadCredentials)?;
        Ok((auth.raw_id().as_ref().to_vec(), user, challenge))
    }

    /// Ends a sign-in with a passkey: checks the answer with the stored
    /// passkey `stored` of the account whose handle is `user`; returns the
    /// passkey's new dynamic state.
    ///
    /// # Errors
    /// No ceremony of ours, or the signature or counters do not verify:
    /// [`AccountError::BadCredentials`].
    pub fn finish_sign_in(
        site: &Site,
        body: &[u8],
        user: &[u8],
        stored: &StoredPasskey,
        state: &str,
    ) -> Result<Vec<u8>, AccountError> {
        fn bad<E>(_: E) -> AccountError {
            AccountError::BadCredentials
        }
        let auth = DiscoverableAuthentication64::from_json_relaxed(body).map_err(bad)?;
        let server = from_hex(state)
            .and_then(|b| DiscoverableAuthenticationServerState::decode(b.as_slice()).ok())
            .ok_or(AccountError::BadCredentials)?;
        let user = user_handle(user).ok_or(AccountError::BadCredentials)?;
        let static_state =
            StaticState::<StoredKey>::decode(stored.static_state.as_slice()).map_err(bad)?;
        let dynamic_state = DynamicState::decode(
            <[u8; 7]>::try_from(stored.dynamic_state.as_slice())
                .map_err(|_| AccountError::BadCredentials)?,
        )
        .map_err(bad)?;
        let id = CredentialId::<&[u8]>::decode(stored.id.as_slice()).map_err(bad)?;
        let mut cred =
            AuthenticatedCredential::new(id, &user, static_state, dynamic_state).map_err(bad)?;
        let origins = [site.origin.as_str()];
        let options = AuthenticationVerificationOptions::<&str, &str> {
            allowed_origins: &origins,
            ..AuthenticationVerificationOptions::default()
        };
        server
            .verify(&site.rp_id, &auth, &mut cred, &options)
            .map_err(|_| AccountError::BadCredentials)?;
        Ok(cred
            .dynamic_state()
            .encode()
            .map_err(|_| AccountError::BadCredentials)?
            .to_vec())
    }
}

/// Hex back to bytes; `None` for anything else.
pub fn from_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || s.len() > 4096 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}
