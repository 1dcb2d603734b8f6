//! Passkeys (WebAuthn), a second way to sign in, by `webauthn_rp` (pure
//! Rust: nothing to install). A signed-in player adds a passkey; later, on
//! a browser that holds it, she signs in with it alone (a discoverable
//! credential: no name to type).
//!
//! The ceremonies' challenges are kept in this instance's memory for five
//! minutes: a ceremony begins and ends on the same instance (behind a proxy
//! that spreads requests, the page retries on a refusal).

use super::AccountError;
use std::sync::Mutex;
use webauthn_rp::bin::{Decode, Encode};
use webauthn_rp::request::auth::AuthenticationVerificationOptions;
use webauthn_rp::request::register::{
    CredProtect, Nickname, PublicKeyCredentialUserEntity, RegistrationVerificationOptions,
    UserHandle64, Username,
};
use webauthn_rp::request::{
    AsciiDomain, FixedCapHashSet, InsertResult, PublicKeyCredentialDescriptor, RpId,
};
use webauthn_rp::response::register::{CompressedPubKey, DynamicState, StaticState};
use webauthn_rp::response::AuthTransports;
use webauthn_rp::response::CredentialId;
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

/// Ceremonies in flight at most, each kind (older expired ones make room).
const CEREMONIES: usize = 10_000;

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

/// The ceremonies in flight.
pub struct Passkeys {
    registering: Mutex<FixedCapHashSet<RegistrationServerState<64>>>,
    signing_in: Mutex<FixedCapHashSet<DiscoverableAuthenticationServerState>>,
}

impl Default for Passkeys {
    fn default() -> Passkeys {
        Passkeys {
            registering: Mutex::new(FixedCapHashSet::new(CEREMONIES)),
            signing_in: Mutex::new(FixedCapHashSet::new(CEREMONIES)),
        }
    }
}

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
    /// Too many ceremonies at once.
    pub fn begin_register(
        &self,
        site: &Site,
        name: &str,
        user: &[u8],
        existing: &[Vec<u8>],
    ) -> Result<String, AccountError> {
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
        let json =
            serde_json::to_string(&client).map_err(|e| AccountError::Internal(e.to_string()))?;
        let mut set = self.registering.lock().unwrap_or_else(|e| e.into_inner());
        match set.insert_or_replace_all_expired(server) {
            InsertResult::Success => Ok(json),
            _ => Err(AccountError::Busy),
        }
    }

    /// Ends adding a passkey: checks the browser's answer against the
    /// ceremony begun for it and the account's handle `user`.
    ///
    /// # Errors
    /// The answer is malformed, for no ceremony of ours, for another
    /// account, or fails the WebAuthn checks.
    pub fn finish_register(
        &self,
        site: &Site,
        user: &[u8],
        body: &[u8],
    ) -> Result<StoredPasskey, AccountError> {
        let registration = Registration::from_json_relaxed(body)
            .map_err(|e| refused(&format!("the passkey's answer: {e}")))?;
        let challenge = registration
            .challenge_relaxed()
            .map_err(|_| refused("the challenge"))?;
        let server = self
            .registering
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take(&challenge)
            .ok_or_else(|| refused("no such passkey ceremony (it may have expired): try again"))?;
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
    /// Too many ceremonies at once.
    pub fn begin_sign_in(&self, site: &Site) -> Result<String, AccountError> {
        let (server, client) = DiscoverableCredentialRequestOptions::passkey(&site.rp_id)
            .start_ceremony()
            .map_err(|_| refused("the options"))?;
        let json =
            serde_json::to_string(&client).map_err(|e| AccountError::Internal(e.to_string()))?;
        let mut set = self.signing_in.lock().unwrap_or_else(|e| e.into_inner());
        match set.insert_or_replace_all_expired(server) {
            InsertResult::Success => Ok(json),
            _ => Err(AccountError::Busy),
        }
    }

    /// Reads a sign-in answer: the credential id and user handle it names,
    /// for the caller to find the stored passkey.
    ///
    /// # Errors
    /// The answer is malformed.
    pub fn read_sign_in(body: &[u8]) -> Result<(Vec<u8>, Vec<u8>), AccountError> {
        let auth = DiscoverableAuthentication64::from_json_relaxed(body)
            .map_err(|_| AccountError::BadCredentials)?;
        let user = auth
            .response()
            .user_handle()
            .encode()
            .map_err(|_| AccountError::BadCredentials)?
            .to_vec();
        Ok((auth.raw_id().as_ref().to_vec(), user))
    }

    /// Ends a sign-in with a passkey: checks the answer with the stored
    /// passkey `stored` of the account whose handle is `user`; returns the
    /// passkey's new dynamic state.
    ///
    /// # Errors
    /// No ceremony of ours, or the signature or counters do not verify:
    /// [`AccountError::BadCredentials`].
    pub fn finish_sign_in(
        &self,
        site: &Site,
        body: &[u8],
        user: &[u8],
        stored: &StoredPasskey,
    ) -> Result<Vec<u8>, AccountError> {
        fn bad<E>(_: E) -> AccountError {
            AccountError::BadCredentials
        }
        let auth = DiscoverableAuthentication64::from_json_relaxed(body).map_err(bad)?;
        let challenge = auth.challenge_relaxed().map_err(bad)?;
        let server = self
            .signing_in
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take(&challenge)
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

/// Bytes as lower-case hex, as the store keeps them.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex back to bytes; `None` for anything else.
pub fn from_hex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 || s.len() > 4096 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}
