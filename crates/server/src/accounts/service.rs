//! The account service: sign-up, sign-in, server-side sessions, recovery
//! codes and deletion, over the store, the password hasher and the
//! throttle.

use super::error::AccountError;
use super::{names, passwords, throttle};
use crate::secrets;
use crate::store::accounts::{Account, NewAccount, SignIn};
use crate::store::Store;
use std::net::IpAddr;

/// How long a session lasts without being used.
pub const IDLE_DAYS: i64 = 30;
/// How many recovery codes an account gets at a time.
pub const RECOVERY_CODES: usize = 10;

/// A new session: the id for the cookie (given once, never stored) and the
/// account it signs in.
pub struct Started {
    /// The account.
    pub account: Account,
    /// The session id for the cookie: 256 random bits in hex.
    pub cookie: String,
}

/// The account service: the store, the password hasher, the throttle.
#[derive(Clone)]
pub struct Accounts {
    pub(super) store: Store,
    pub(super) hasher: passwords::Hasher,
    pub(super) throttle: std::sync::Arc<throttle::Throttle>,
}

/// Ten fresh recovery codes as shown (`abcd-efgh-jkmn`, 60 bits each).
fn recovery_codes() -> Result<Vec<String>, AccountError> {
    (0..RECOVERY_CODES)
        .map(|_| {
            let id = format!("{}{}", secrets::game_id()?, secrets::game_id()?);
            Ok(format!("{}-{}-{}", &id[0..4], &id[4..8], &id[8..12]))
        })
        .collect()
}

/// A recovery code's stored hash: ignoring case, spaces and dashes.
pub fn recovery_hash(code: &str) -> String {
    let plain: String = code
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_lowercase)
        .collect();
    secrets::hash(&plain)
}

/// A short description of the browser and system from a User-Agent, for
/// the list of sessions ("Firefox on Linux").
pub fn device(user_agent: Option<&str>) -> String {
    let ua = user_agent.unwrap_or("");
    let browser = [
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("HeadlessChrome/", "Chromium (headless)"),
        ("Chromium/", "Chromium"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
        ("curl/", "curl"),
    ]
    .iter()
    .find(|(k, _)| ua.contains(k))
    .map_or("a browser", |(_, v)| v);
    let system = [
        ("Android", "Android"),
        ("iPhone", "iOS"),
        ("iPad", "iPadOS"),
        ("Windows", "Windows"),
        ("Mac OS X", "macOS"),
        ("CrOS", "ChromeOS"),
        ("Linux", "Linux"),
    ]
    .iter()
    .find(|(k, _)| ua.contains(k))
    .map(|(_, v)| *v);
    match system {
        Some(s) => format!("{browser} on {s}"),
        None => browser.to_string(),
    }
}

impl Accounts {
    /// The service over a store, hashing `parallel` passwords at most at once.
    pub fn new(store: Store, parallel: usize) -> Accounts {
        Accounts {
            store,
            hasher: passwords::Hasher::new(parallel),
            throttle: std::sync::Arc::default(),
        }
    }

    /// Forgets failed sign-ins that no longer count.
    pub fn sweep(&self) {
        self.throttle.sweep();
    }

    pub(super) async fn start(
        &self,
        account: Account,
        device: &str,
    ) -> Result<Started, AccountError> {
        let cookie = secrets::long_secret()?;
        let now = crate::store::now();
        self.store
            .create_sign_in(SignIn {
                id_hash: secrets::hash(&cookie),
                account: account.id,
                device: device.chars().take(80).collect(),
                created_at: now,
                last_seen: now,
            })
            .await?;
        Ok(Started { account, cookie })
    }

    /// Makes an account and signs it in; returns the session and the
    /// recovery codes, shown once.
    ///
    /// # Errors
    /// A bad or taken name, a weak password, or the store failed.
    pub async fn sign_up(
        &self,
        name: &str,
        password: String,
        device: &str,
    ) -> Result<(Started, Vec<String>), AccountError> {
        let key = names::check(name)?;
        passwords::check(&password, name)?;
        let codes = recovery_codes()?;
        let password_hash = self.hasher.hash(password).await?;
        let id = self
            .store
            .create_account(NewAccount {
                name: name.to_string(),
                key,
                password_hash,
                recovery: codes.iter().map(|c| recovery_hash(c)).collect(),
                created_at: crate::store::now(),
            })
            .await?
            .ok_or(AccountError::NameTaken)?;
        let account = self
            .store
            .account(id)
            .await?
            .ok_or_else(|| AccountError::Internal("the new account vanished".into()))?;
        Ok((self.start(account, device).await?, codes))
    }

    /// Checks a name and password, throttled per name and per address. A
    /// browser that signed in to this account before (its `device`
    /// cookie) is spared the name's throttle, so failures by others never
    /// shut the owner out on her own devices.
    ///
    /// # Errors
    /// Wrong name or password, throttled, or the store failed.
    pub async fn check_password(
        &self,
        name: &str,
        password: String,
        address: Option<IpAddr>,
        device: Option<&str>,
    ) -> Result<Account, AccountError> {
        let key = name.to_ascii_lowercase();
        if let Some(secs) = self.throttle.wait_for_address(address) {
            return Err(AccountError::Throttled(secs));
        }
        // A name that cannot exist is looked up all the same: every wrong
        // answer costs one Argon2 verification.
        let account = match names::check(name) {
            Ok(key) => self.store.account_by_key(&key).await?,
            Err(_) => None,
        };
        if let Some(secs) = self.throttle.wait_for_name(&key) {
            let known = match (&account, device) {
                (Some(a), Some(d)) => self.store.knows_device(&secrets::hash(d), a.id).await?,
                _ => false,
            };
            if !known {
                return Err(AccountError::Throttled(secs));
            }
        }
        let stored = account.as_ref().and_then(|a| a.password_hash.clone());
        let outdated = stored.as_deref().is_some_and(passwords::outdated);
        let again = outdated.then(|| password.clone());
        let ok = self.hasher.verify(password, stored).await?;
        match account {
            Some(a) if ok => {
                // A hash of an earlier setting is made again with today's,
                // now that the password is at hand (once per account).
                // A failure here costs the upgrade, never the sign-in.
                if let Some(password) = again {
                    let made = match self.hasher.hash(password).await {
                        Ok(hash) => self
                            .store
                            .set_password(a.id, hash)
                            .await
                            .map_err(Into::into),
                        Err(e) => Err(e),
                    };
                    if let Err(e) = made {
                        tracing::warn!(error = %e, "a password hash of an earlier setting was not made again");
                    }
                }
                Ok(a)
            }
            _ => {
                self.throttle.fail(&key, address);
                Err(AccountError::BadCredentials)
            }
        }
    }

    /// Signs in with a name and password: a fresh session.
    ///
    /// # Errors
    /// Wrong name or password (one answer for both), throttled, or the store
    /// failed.
    pub async fn sign_in(
        &self,
        name: &str,
        password: String,
        address: Option<IpAddr>,
        device: &str,
        device_cookie: Option<&str>,
    ) -> Result<Started, AccountError> {
        let account = self
            .check_password(name, password, address, device_cookie)
            .await?;
        self.start(account, device).await
    }

    /// Remembers that this browser (its device cookie) signed in to the
    /// account.
    ///
    /// # Errors
    /// The store failed.
    pub async fn remember_device(
        &self,
        device_cookie: &str,
        account: i64,
    ) -> Result<(), AccountError> {
        Ok(self
            .store
            .remember_device(secrets::hash(device_cookie), account, crate::store::now())
            .await?)
    }

    /// The account and session a cookie's session id names, if it is live.
    ///
    /// # Errors
    /// The store failed.
    pub async fn session(&self, cookie: &str) -> Result<Option<(Account, SignIn)>, AccountError> {
        // A session id is 64 hex digits: anything else is not looked up.
        if cookie.len() != 64 || !cookie.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(None);
        }
        let now = crate::store::now();
        Ok(self
            .store
            .sign_in(&secrets::hash(cookie), now, now - IDLE_DAYS * 86_400)
            .await?)
    }

    /// Ends one session of an account (its own, or another in its list).
    ///
    /// # Errors
    /// The store failed.
    pub async fn end(&self, account: i64, id_hash: &str) -> Result<bool, AccountError> {
        Ok(self.store.end_sign_in(account, id_hash).await?)
    }

    /// Ends every session of an account but `keep`.
    ///
    /// # Errors
    /// The store failed.
    pub async fn end_all(&self, account: i64, keep: Option<String>) -> Result<usize, AccountError> {
        Ok(self.store.end_sign_ins(account, keep).await?)
    }

    /// An account's sessions.
    ///
    /// # Errors
    /// The store failed.
    pub async fn sessions(&self, account: i64) -> Result<Vec<SignIn>, AccountError> {
        Ok(self.store.sign_ins(account).await?)
    }

    /// How many unused recovery codes an account has.
    ///
    /// # Errors
    /// The store failed.
    pub async fn codes_left(&self, account: i64) -> Result<usize, AccountError> {
        Ok(self.store.recovery_codes_left(account).await?)
    }

    /// Changes the password, knowing the current one; ends every other
    /// session.
    ///
    /// # Errors
    /// The current password is wrong, the new one weak, or the store failed.
    pub async fn change_password(
        &self,
        account: &Account,
        session_hash: &str,
        current: String,
        new: String,
        address: Option<IpAddr>,
    ) -> Result<(), AccountError> {
        let name = account.name.clone().unwrap_or_default();
        passwords::check(&new, &name)?;
        self.check_password(&name, current, address, None).await?;
        let hash = self.hasher.hash(new).await?;
        self.store.set_password(account.id, hash).await?;
        self.store
            .end_sign_ins(account.id, Some(session_hash.to_string()))
            .await?;
        Ok(())
    }

    /// Sets a new password with a recovery code (which then no longer
    /// works), ends every session and starts a new one.
    ///
    /// # Errors
    /// Wrong name or code (one answer, throttled as sign-ins are), a weak
    /// password, or the store failed.
    pub async fn recover(
        &self,
        name: &str,
        code: &str,
        password: String,
        address: Option<IpAddr>,
        device: &str,
    ) -> Result<Started, AccountError> {
        passwords::check(&password, name)?;
        if let Some(secs) = self.throttle.wait_for_address(address) {
            return Err(AccountError::Throttled(secs));
        }
        let account = match names::check(name) {
            Ok(key) => self.store.account_by_key(&key).await?,
            Err(_) => None,
        };
        let used = match &account {
            Some(a) => {
                self.store
                    .use_recovery_code(a.id, &recovery_hash(code))
                    .await?
            }
            None => false,
        };
        let Some(account) = account.filter(|_| used) else {
            self.throttle.fail_address(address);
            return Err(AccountError::BadRecovery);
        };
        let hash = self.hasher.hash(password).await?;
        self.store.set_password(account.id, hash).await?;
        self.store.end_sign_ins(account.id, None).await?;
        self.start(account, device).await
    }

    /// A new set of recovery codes, replacing the old.
    ///
    /// # Errors
    /// No secret, or the store failed.
    pub async fn new_codes(&self, account: i64) -> Result<Vec<String>, AccountError> {
        let codes = recovery_codes()?;
        self.store
            .set_recovery_codes(account, codes.iter().map(|c| recovery_hash(c)).collect())
            .await?;
        Ok(codes)
    }

    /// Saves the account's settings (JSON, checked by the caller).
    ///
    /// # Errors
    /// The store failed.
    pub async fn save_settings(&self, account: i64, settings: String) -> Result<(), AccountError> {
        Ok(self.store.set_settings(account, settings).await?)
    }

    /// Deletes an account, knowing its password.
    ///
    /// # Errors
    /// The password is wrong, or the store failed.
    pub async fn delete(
        &self,
        account: &Account,
        password: String,
        address: Option<IpAddr>,
    ) -> Result<(), AccountError> {
        let name = account.name.clone().unwrap_or_default();
        self.check_password(&name, password, address, None).await?;
        self.store
            .delete_account(account.id, crate::store::now())
            .await?;
        Ok(())
    }
}

/// Whether an account's stored settings (the JSON that
/// `PUT /api/account/settings` keeps) allow takebacks in its rated games:
/// on unless turned off; settings that do not read as JSON leave them on.
pub fn allows_takebacks(settings: Option<&str>) -> bool {
    #[derive(serde::Deserialize)]
    struct Takebacks {
        takebacks: Option<bool>,
    }
    settings
        .and_then(|t| serde_json::from_str::<Takebacks>(t).ok())
        .and_then(|s| s.takebacks)
        .unwrap_or(true)
}

/// Whom a player takes challenges from (her setting `challenges`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ChallengePolicy {
    /// Anyone signed in (the default).
    #[default]
    Everyone,
    /// Only the players she follows (none from strangers).
    Followed,
    /// Rated games only (no casual challenges).
    Rated,
    /// Nobody.
    Nobody,
}

/// An account's challenge policy from its stored settings: everyone,
/// unless set; settings that do not read as JSON leave the default.
pub fn challenge_policy(settings: Option<&str>) -> ChallengePolicy {
    #[derive(serde::Deserialize)]
    struct Challenges {
        challenges: Option<ChallengePolicy>,
    }
    settings
        .and_then(|t| serde_json::from_str::<Challenges>(t).ok())
        .and_then(|s| s.challenges)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovery_codes_are_ten_and_read_loosely() {
        let codes = recovery_codes().unwrap();
        assert_eq!(codes.len(), 10);
        assert!(codes
            .iter()
            .all(|c| c.len() == 14 && c.matches('-').count() == 2));
        let c = &codes[0];
        assert_eq!(
            recovery_hash(c),
            recovery_hash(&c.to_uppercase().replace('-', " "))
        );
    }

    #[test]
    fn devices_are_named_plainly() {
        let ua = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36";
        assert_eq!(device(Some(ua)), "Chromium (headless) on Linux");
        assert_eq!(device(None), "a browser");
        assert_eq!(
            device(Some(
                "Mozilla/5.0 (Windows NT 10.0; rv:120.0) Gecko Firefox/120.0"
            )),
            "Firefox on Windows"
        );
    }

    /// Takebacks are on unless an account turned them off.
    #[test]
    fn challenges_come_from_everyone_unless_the_player_says_otherwise() {
        assert_eq!(challenge_policy(None), ChallengePolicy::Everyone);
        assert_eq!(
            challenge_policy(Some("not json")),
            ChallengePolicy::Everyone
        );
        assert_eq!(
            challenge_policy(Some(r#"{"challenges":"followed","lang":"pl"}"#)),
            ChallengePolicy::Followed
        );
        assert_eq!(
            challenge_policy(Some(r#"{"challenges":"nobody"}"#)),
            ChallengePolicy::Nobody
        );
        assert_eq!(
            challenge_policy(Some(r#"{"challenges":"rated"}"#)),
            ChallengePolicy::Rated
        );
    }

    #[test]
    fn takebacks_are_on_unless_turned_off() {
        assert!(allows_takebacks(None));
        assert!(allows_takebacks(Some(r#"{"lang":"fr"}"#)));
        assert!(allows_takebacks(Some("not json")));
        assert!(!allows_takebacks(Some(
            r#"{"takebacks":false,"sound":true}"#
        )));
    }
}
