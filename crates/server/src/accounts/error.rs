//! Why an account request was refused: the one error the account service
//! speaks, which `http/error.rs` turns into statuses and codes.

use crate::secrets;
use crate::store::StoreError;

/// Why an account request was refused.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The name breaks the naming rules.
    #[error("{0}")]
    BadName(String),
    /// The password is too short, too long or too common.
    #[error("{0}")]
    WeakPassword(String),
    /// The name is taken (ignoring case).
    #[error("this name is taken: choose another")]
    NameTaken,
    /// The name, password or recovery code is wrong: one answer for all, so
    /// that nobody learns which names exist.
    #[error("wrong name or password")]
    BadCredentials,
    /// The name or the recovery code is wrong (or the code was used): one
    /// answer for all, as for a sign-in.
    #[error("wrong name or recovery code (each code works once)")]
    BadRecovery,
    /// Too many failed sign-ins: wait this many seconds.
    #[error("too many failed sign-ins: try again in {0} seconds")]
    Throttled(u64),
    /// No valid session cookie.
    #[error("you are not signed in")]
    NotSignedIn,
    /// A passkey ceremony on a site addressed by an IP address.
    #[error(
        "passkeys need the site's name, not an IP address: open Agon as localhost or by its domain"
    )]
    PasskeyNeedsName,
    /// A passkey answer that does not verify, in words.
    #[error("{0}")]
    PasskeyRefused(String),
    /// No secret could be drawn.
    #[error("the server cannot make a secret right now; try again")]
    NoSecret,
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Something that should not happen.
    #[error("{0}")]
    Internal(String),
}

impl From<secrets::NoSecret> for AccountError {
    fn from(_: secrets::NoSecret) -> AccountError {
        AccountError::NoSecret
    }
}
