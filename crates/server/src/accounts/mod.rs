//! Accounts: sign-up, sign-in, server-side sessions, recovery codes and
//! deletion. The service below the HTTP layer: it speaks in
//! [`AccountError`]s, which `http/error.rs` turns into statuses and codes.
//!
//! Every secret is stored hashed: passwords with Argon2id (`passwords.rs`),
//! session ids and recovery codes (256 and 60 random bits) with SHA-256.

mod error;
pub mod names;
pub mod passkeys;
pub mod passwords;
mod service;
mod service_keys;
pub mod throttle;

pub use error::AccountError;
pub use service::{
    allows_takebacks, challenge_policy, device, recovery_hash, Accounts, ChallengePolicy, Started,
    IDLE_DAYS, RECOVERY_CODES,
};
