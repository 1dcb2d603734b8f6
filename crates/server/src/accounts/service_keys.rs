//! The account service's passkey side: adding a passkey to a signed-in
//! account, signing in with one, listing and removing them.

use super::error::AccountError;
use super::passkeys::{
    from_hex, new_user_handle, Begun, Passkeys, Site, StoredPasskey, REGISTER, SIGN_IN,
};
use super::service::{Accounts, Started};
use crate::secrets::hex as to_hex;
use crate::store::accounts::{Account, PasskeyRow};

impl Accounts {
    /// The account's passkey user handle, made at its first passkey.
    async fn user_handle(&self, account: i64) -> Result<Vec<u8>, AccountError> {
        let hex = self
            .store
            .passkey_user(account, to_hex(&new_user_handle()))
            .await?;
        from_hex(&hex).ok_or_else(|| AccountError::Internal("a damaged passkey handle".into()))
    }

    /// Begins adding a passkey: the options for the browser, as JSON.
    ///
    /// # Errors
    /// The ceremony cannot begin (see [`Passkeys`]), or the store failed.
    pub async fn begin_passkey(
        &self,
        account: &Account,
        site: &Site,
    ) -> Result<String, AccountError> {
        let user = self.user_handle(account.id).await?;
        let existing: Vec<Vec<u8>> = self
            .store
            .passkeys(account.id)
            .await?
            .iter()
            .filter_map(|p| from_hex(&p.id))
            .collect();
        let begun = Passkeys::begin_register(
            site,
            account.name.as_deref().unwrap_or("player"),
            &user,
            &existing,
        )?;
        self.keep(begun, REGISTER).await
    }

    /// Keeps a ceremony's state in the store; answers its options.
    async fn keep(&self, b: Begun, kind: &'static str) -> Result<String, AccountError> {
        self.store
            .put_ceremony(b.challenge, kind, b.state, b.expires_at)
            .await?;
        Ok(b.json)
    }

    /// Ends adding a passkey with the browser's answer; stores it.
    ///
    /// # Errors
    /// The answer does not verify, or the store failed.
    pub async fn add_passkey(
        &self,
        account: &Account,
        site: &Site,
        body: &[u8],
    ) -> Result<PasskeyRow, AccountError> {
        let user = self.user_handle(account.id).await?;
        let challenge = Passkeys::registration_challenge(body)?;
        let state = self
            .store
            .take_ceremony(&challenge, REGISTER, crate::store::now())
            .await?
            .ok_or_else(|| {
                AccountError::PasskeyRefused(
                    "no such passkey ceremony (it may have expired): try again".into(),
                )
            })?;
        let key = Passkeys::finish_register(site, &user, body, &state)?;
        let row = PasskeyRow {
            id: to_hex(&key.id),
            account: account.id,
            static_state: to_hex(&key.static_state),
            dynamic_state: to_hex(&key.dynamic_state),
            created_at: crate::store::now(),
            last_used: None,
        };
        self.store.add_passkey(row.clone()).await?;
        Ok(row)
    }

    /// Begins a sign-in with a passkey: the options for the browser.
    ///
    /// # Errors
    /// The ceremony cannot begin (see [`Passkeys`]), or the store failed.
    pub async fn begin_passkey_sign_in(&self, site: &Site) -> Result<String, AccountError> {
        let begun = Passkeys::begin_sign_in(site)?;
        self.keep(begun, SIGN_IN).await
    }

    /// Signs in with a passkey's answer: a fresh session.
    ///
    /// # Errors
    /// An unknown passkey, one of another account, or an answer that does
    /// not verify: all [`AccountError::BadCredentials`].
    pub async fn sign_in_with_passkey(
        &self,
        site: &Site,
        body: &[u8],
        device: &str,
    ) -> Result<Started, AccountError> {
        let (id, user, challenge) = Passkeys::read_sign_in(body)?;
        // The ceremony is used up whatever comes next.
        let state = self
            .store
            .take_ceremony(&challenge, SIGN_IN, crate::store::now())
            .await?
            .ok_or(AccountError::BadCredentials)?;
        let (row, account, handle) = self
            .store
            .passkey(&to_hex(&id))
            .await?
            .ok_or(AccountError::BadCredentials)?;
        if handle != to_hex(&user) {
            return Err(AccountError::BadCredentials);
        }
        let stored = StoredPasskey {
            id,
            static_state: from_hex(&row.static_state).ok_or(AccountError::BadCredentials)?,
            dynamic_state: from_hex(&row.dynamic_state).ok_or(AccountError::BadCredentials)?,
        };
        let dynamic = Passkeys::finish_sign_in(site, body, &user, &stored, &state)?;
        self.store
            .touch_passkey(&row.id, to_hex(&dynamic), crate::store::now())
            .await?;
        self.start(account, device).await
    }

    /// An account's passkeys.
    ///
    /// # Errors
    /// The store failed.
    pub async fn passkeys_of(&self, account: i64) -> Result<Vec<PasskeyRow>, AccountError> {
        Ok(self.store.passkeys(account).await?)
    }

    /// Removes one of an account's passkeys.
    ///
    /// # Errors
    /// The store failed.
    pub async fn remove_passkey(&self, account: i64, id: &str) -> Result<bool, AccountError> {
        Ok(self.store.delete_passkey(account, id).await?)
    }
}
