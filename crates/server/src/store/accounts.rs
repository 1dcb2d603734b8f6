//! What the store keeps about accounts: the account, its sign-in sessions
//! and its recovery codes, every secret as a hash. One interface for both
//! backends, documented once here, as [`Backend`](super::backend::Backend) is.

use super::error::Stored;
use crate::model::Seat;

/// An account as stored. A deleted account has no name and no password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The account's number, never shown.
    pub id: i64,
    /// The name as its owner wrote it; `None` once deleted.
    pub name: Option<String>,
    /// The password's Argon2id hash (a PHC string); `None` once deleted.
    pub password_hash: Option<String>,
    /// Creation time, seconds since the epoch.
    pub created_at: i64,
    /// The player's settings as JSON (language, sounds, ...), if saved.
    pub settings: Option<String>,
}

/// A sign-in session as stored: the SHA-256 of its cookie's id, never the
/// id itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignIn {
    /// The SHA-256 of the session id, in hex.
    pub id_hash: String,
    /// Whose session.
    pub account: i64,
    /// The browser and system, from its User-Agent, shortened.
    pub device: String,
    /// When it began.
    pub created_at: i64,
    /// When it was last used (to the minute).
    pub last_seen: i64,
}

/// A new account as it is first stored.
pub struct NewAccount {
    /// The name as written.
    pub name: String,
    /// The name as compared: lower case.
    pub key: String,
    /// The password's Argon2id hash.
    pub password_hash: String,
    /// The SHA-256 of each recovery code.
    pub recovery: Vec<String>,
    /// Creation time.
    pub created_at: i64,
}

/// The account of one seat of a game, as a game's row holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatAccount {
    /// The account's number.
    pub id: i64,
    /// Its name; `None` once the account was deleted.
    pub name: Option<String>,
}

/// A passkey as stored: public data only (its id, public key and counters,
/// in hex).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PasskeyRow {
    /// The credential id, in hex.
    pub id: String,
    /// Whose.
    pub account: i64,
    /// The encoded public key and extensions, in hex.
    pub static_state: String,
    /// The encoded counters and flags, in hex.
    pub dynamic_state: String,
    /// When it was added.
    pub created_at: i64,
    /// When it last signed in.
    pub last_used: Option<i64>,
}

/// What every store keeps about accounts.
#[async_trait::async_trait]
pub trait AccountBackend: Send + Sync {
    /// Stores a new account with its recovery codes; `None` when the name
    /// (ignoring case) is taken.
    async fn create_account(&self, new: NewAccount) -> Stored<Option<i64>>;

    /// The live account whose name is `key` (lower case).
    async fn account_by_key(&self, key: &str) -> Stored<Option<Account>>;

    /// An account by its number, deleted or not.
    async fn account(&self, id: i64) -> Stored<Option<Account>>;

    /// Stores a sign-in session.
    async fn create_sign_in(&self, s: SignIn) -> Stored<()>;

    /// The session with this id hash and its live account, when it was used
    /// after `not_before`; a session idle longer is ended. Marks it seen at
    /// `now` when it was last seen more than a minute before.
    async fn sign_in(
        &self,
        id_hash: &str,
        now: i64,
        not_before: i64,
    ) -> Stored<Option<(Account, SignIn)>>;

    /// An account's sessions, most recently seen first.
    async fn sign_ins(&self, account: i64) -> Stored<Vec<SignIn>>;

    /// Ends one of an account's sessions; false when it has no such session.
    async fn end_sign_in(&self, account: i64, id_hash: &str) -> Stored<bool>;

    /// Ends every session of an account but `keep`; returns how many ended.
    async fn end_sign_ins(&self, account: i64, keep: Option<String>) -> Stored<usize>;

    /// Replaces an account's password hash.
    async fn set_password(&self, account: i64, password_hash: String) -> Stored<()>;

    /// Marks a recovery code used; false when the account has no unused
    /// code with this hash (a code works once).
    async fn use_recovery_code(&self, account: i64, code_hash: &str) -> Stored<bool>;

    /// Replaces every recovery code of an account.
    async fn set_recovery_codes(&self, account: i64, hashes: Vec<String>) -> Stored<()>;

    /// How many unused recovery codes an account has.
    async fn recovery_codes_left(&self, account: i64) -> Stored<usize>;

    /// Saves an account's settings (JSON).
    async fn set_settings(&self, account: i64, settings: String) -> Stored<()>;

    /// Deletes an account: its name, password, sessions and recovery codes
    /// go; its games stay, their seats showing a deleted player.
    async fn delete_account(&self, account: i64, now: i64) -> Stored<()>;

    /// The account's passkey user handle (hex), set to `candidate` if it
    /// had none.
    async fn passkey_user(&self, account: i64, candidate: String) -> Stored<String>;

    /// Stores a new passkey.
    async fn add_passkey(&self, p: PasskeyRow) -> Stored<()>;

    /// An account's passkeys, oldest first.
    async fn passkeys(&self, account: i64) -> Stored<Vec<PasskeyRow>>;

    /// A passkey by its id (hex), with its live account and that account's
    /// passkey user handle (hex).
    async fn passkey(&self, id: &str) -> Stored<Option<(PasskeyRow, Account, String)>>;

    /// Saves a passkey's counters after a sign-in.
    async fn touch_passkey(&self, id: &str, dynamic_state: String, now: i64) -> Stored<()>;

    /// Removes one of an account's passkeys; false when it has no such one.
    async fn delete_passkey(&self, account: i64, id: &str) -> Stored<bool>;

    /// Keeps a passkey ceremony's state (hex) under its challenge (hex)
    /// until `expires_at`; drops the expired ones.
    async fn put_ceremony(
        &self,
        challenge: String,
        kind: &'static str,
        state: String,
        expires_at: i64,
    ) -> Stored<()>;

    /// Takes (removes) the live ceremony of this kind under a challenge.
    async fn take_ceremony(
        &self,
        challenge: &str,
        kind: &'static str,
        now: i64,
    ) -> Stored<Option<String>>;

    /// Remembers that a browser (the hash of its device cookie) signed in to
    /// an account.
    async fn remember_device(&self, device_hash: String, account: i64, now: i64) -> Stored<()>;

    /// Whether a browser signed in to an account before.
    async fn knows_device(&self, device_hash: &str, account: i64) -> Stored<bool>;

    /// Gives a game's seat to an account, from the game's revision; returns
    /// the next revision. [`StoreError::Stale`](super::error::StoreError::Stale)
    /// when the game has moved on.
    async fn set_seat_account(
        &self,
        game: &str,
        from_revision: i64,
        seat: Seat,
        account: i64,
    ) -> Stored<i64>;
}
