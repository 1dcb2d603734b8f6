//! The PostgreSQL store's accounts, shared by every instance: a session
//! made through one instance is known to all, and ending it ends it for
//! all.

use super::{notify, PgStore, GAMES};
use crate::model::Seat;
use crate::store::accounts::{Account, AccountBackend, NewAccount, PasskeyRow, SignIn};
use crate::store::error::{StoreError, Stored};
use tokio_postgres::Row;

const ACCOUNT: &str = "SELECT id, name, password_hash, created_at, settings FROM accounts";

fn account_from(r: &Row) -> Account {
    Account {
        id: r.get(0),
        name: r.get(1),
        password_hash: r.get(2),
        created_at: r.get(3),
        settings: r.get(4),
    }
}

fn sign_in_from(r: &Row, at: usize) -> SignIn {
    SignIn {
        id_hash: r.get(at),
        account: r.get(at + 1),
        device: r.get(at + 2),
        created_at: r.get(at + 3),
        last_seen: r.get(at + 4),
    }
}

const PASSKEY: &str =
    "SELECT cred_id, account_id, static_state, dynamic_state, created_at, last_used
     FROM passkeys";

fn passkey_from(r: &Row) -> PasskeyRow {
    PasskeyRow {
        id: r.get(0),
        account: r.get(1),
        static_state: r.get(2),
        dynamic_state: r.get(3),
        created_at: r.get(4),
        last_used: r.get(5),
    }
}

const INSERT_CODES: &str = "INSERT INTO recovery_codes (account_id, code_hash)
     SELECT $1, h FROM UNNEST($2::text[]) AS u(h) ON CONFLICT DO NOTHING";

#[async_trait::async_trait]
impl AccountBackend for PgStore {
    async fn create_account(&self, new: NewAccount) -> Stored<Option<i64>> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let row = tx
            .query_opt(
                "INSERT INTO accounts (name, name_key, password_hash, created_at)
                 VALUES ($1, $2, $3, $4) ON CONFLICT (name_key) DO NOTHING RETURNING id",
                &[&new.name, &new.key, &new.password_hash, &new.created_at],
            )
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let id: i64 = row.get(0);
        tx.execute(INSERT_CODES, &[&id, &new.recovery]).await?;
        tx.commit().await?;
        Ok(Some(id))
    }

    async fn account_by_key(&self, key: &str) -> Stored<Option<Account>> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                &format!("{ACCOUNT} WHERE name_key = $1 AND deleted_at IS NULL"),
                &[&key],
            )
            .await?
            .map(|r| account_from(&r)))
    }

    async fn account(&self, id: i64) -> Stored<Option<Account>> {
        let client = self.client().await?;
        Ok(client
            .query_opt(&format!("{ACCOUNT} WHERE id = $1"), &[&id])
            .await?
            .map(|r| account_from(&r)))
    }

    async fn create_sign_in(&self, s: SignIn) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO account_sessions (id_hash, account_id, device, created_at, last_seen)
                 VALUES ($1, $2, $3, $4, $5)",
                &[
                    &s.id_hash,
                    &s.account,
                    &s.device,
                    &s.created_at,
                    &s.last_seen,
                ],
            )
            .await?;
        Ok(())
    }

    async fn sign_in(
        &self,
        id_hash: &str,
        now: i64,
        not_before: i64,
    ) -> Stored<Option<(Account, SignIn)>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT a.id, a.name, a.password_hash, a.created_at, a.settings,
                        s.id_hash, s.account_id, s.device, s.created_at, s.last_seen
                 FROM account_sessions s JOIN accounts a ON a.id = s.account_id
                 WHERE s.id_hash = $1 AND a.deleted_at IS NULL",
                &[&id_hash],
            )
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (account, mut s) = (account_from(&row), sign_in_from(&row, 5));
        if s.last_seen < not_before {
            client
                .execute(
                    "DELETE FROM account_sessions WHERE id_hash = $1",
                    &[&id_hash],
                )
                .await?;
            return Ok(None);
        }
        if now - s.last_seen > 60 {
            s.last_seen = now;
            client
                .execute(
                    "UPDATE account_sessions SET last_seen = $2 WHERE id_hash = $1",
                    &[&id_hash, &now],
                )
                .await?;
        }
        Ok(Some((account, s)))
    }

    async fn sign_ins(&self, account: i64) -> Stored<Vec<SignIn>> {
        let client = self.client().await?;
        Ok(client
            .query(
                "SELECT id_hash, account_id, device, created_at, last_seen FROM account_sessions
                 WHERE account_id = $1 ORDER BY last_seen DESC, created_at DESC",
                &[&account],
            )
            .await?
            .iter()
            .map(|r| sign_in_from(r, 0))
            .collect())
    }

    async fn end_sign_in(&self, account: i64, id_hash: &str) -> Stored<bool> {
        let client = self.client().await?;
        Ok(client
            .execute(
                "DELETE FROM account_sessions WHERE account_id = $1 AND id_hash = $2",
                &[&account, &id_hash],
            )
            .await?
            > 0)
    }

    async fn end_sign_ins(&self, account: i64, keep: Option<String>) -> Stored<usize> {
        let client = self.client().await?;
        Ok(client
            .execute(
                "DELETE FROM account_sessions
                 WHERE account_id = $1 AND id_hash IS DISTINCT FROM $2",
                &[&account, &keep],
            )
            .await? as usize)
    }

    async fn set_password(&self, account: i64, password_hash: String) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE accounts SET password_hash = $2 WHERE id = $1 AND deleted_at IS NULL",
                &[&account, &password_hash],
            )
            .await?;
        Ok(())
    }

    async fn use_recovery_code(&self, account: i64, code_hash: &str) -> Stored<bool> {
        let client = self.client().await?;
        Ok(client
            .execute(
                "UPDATE recovery_codes SET used = TRUE
                 WHERE account_id = $1 AND code_hash = $2 AND NOT used",
                &[&account, &code_hash],
            )
            .await?
            == 1)
    }

    async fn set_recovery_codes(&self, account: i64, hashes: Vec<String>) -> Stored<()> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute(
            "DELETE FROM recovery_codes WHERE account_id = $1",
            &[&account],
        )
        .await?;
        tx.execute(INSERT_CODES, &[&account, &hashes]).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn recovery_codes_left(&self, account: i64) -> Stored<usize> {
        let client = self.client().await?;
        let n: i64 = client
            .query_one(
                "SELECT COUNT(*) FROM recovery_codes WHERE account_id = $1 AND NOT used",
                &[&account],
            )
            .await?
            .get(0);
        Ok(n as usize)
    }

    async fn set_settings(&self, account: i64, settings: String) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE accounts SET settings = $2 WHERE id = $1 AND deleted_at IS NULL",
                &[&account, &settings],
            )
            .await?;
        Ok(())
    }

    async fn delete_account(&self, account: i64, now: i64) -> Stored<()> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        tx.execute(
            "DELETE FROM account_sessions WHERE account_id = $1",
            &[&account],
        )
        .await?;
        tx.execute(
            "DELETE FROM recovery_codes WHERE account_id = $1",
            &[&account],
        )
        .await?;
        tx.execute("DELETE FROM passkeys WHERE account_id = $1", &[&account])
            .await?;
        tx.execute(
            "DELETE FROM known_devices WHERE account_id = $1",
            &[&account],
        )
        .await?;
        for table in ["puzzle_attempts", "puzzle_ratings"] {
            tx.execute(
                &format!("DELETE FROM {table} WHERE account_id = $1"),
                &[&account],
            )
            .await?;
        }
        tx.execute(
            "UPDATE accounts SET name = NULL, passkey_user = NULL, name_key = NULL, password_hash = NULL,
                 settings = NULL, deleted_at = $2
             WHERE id = $1",
            &[&account, &now],
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    async fn passkey_user(&self, account: i64, candidate: String) -> Stored<String> {
        let client = self.client().await?;
        Ok(client
            .query_one(
                "UPDATE accounts SET passkey_user = COALESCE(passkey_user, $2) WHERE id = $1
                 RETURNING passkey_user",
                &[&account, &candidate],
            )
            .await?
            .get(0))
    }

    async fn add_passkey(&self, p: PasskeyRow) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO passkeys (cred_id, account_id, static_state, dynamic_state, created_at)
                 VALUES ($1, $2, $3, $4, $5)",
                &[&p.id, &p.account, &p.static_state, &p.dynamic_state, &p.created_at],
            )
            .await?;
        Ok(())
    }

    async fn passkeys(&self, account: i64) -> Stored<Vec<PasskeyRow>> {
        let client = self.client().await?;
        Ok(client
            .query(
                &format!("{PASSKEY} WHERE account_id = $1 ORDER BY created_at, cred_id"),
                &[&account],
            )
            .await?
            .iter()
            .map(passkey_from)
            .collect())
    }

    async fn passkey(&self, id: &str) -> Stored<Option<(PasskeyRow, Account, String)>> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                "SELECT p.cred_id, p.account_id, p.static_state, p.dynamic_state, p.created_at,
                        p.last_used, a.id, a.name, a.password_hash, a.created_at, a.settings,
                        a.passkey_user
                 FROM passkeys p JOIN accounts a ON a.id = p.account_id
                 WHERE p.cred_id = $1 AND a.deleted_at IS NULL AND a.passkey_user IS NOT NULL",
                &[&id],
            )
            .await?
            .map(|r| {
                let a = Account {
                    id: r.get(6),
                    name: r.get(7),
                    password_hash: r.get(8),
                    created_at: r.get(9),
                    settings: r.get(10),
                };
                (passkey_from(&r), a, r.get(11))
            }))
    }

    async fn touch_passkey(&self, id: &str, dynamic_state: String, now: i64) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "UPDATE passkeys SET dynamic_state = $2, last_used = $3 WHERE cred_id = $1",
                &[&id, &dynamic_state, &now],
            )
            .await?;
        Ok(())
    }

    async fn delete_passkey(&self, account: i64, id: &str) -> Stored<bool> {
        let client = self.client().await?;
        Ok(client
            .execute(
                "DELETE FROM passkeys WHERE account_id = $1 AND cred_id = $2",
                &[&account, &id],
            )
            .await?
            > 0)
    }

    async fn put_ceremony(
        &self,
        challenge: String,
        kind: &'static str,
        state: String,
        expires_at: i64,
    ) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "DELETE FROM passkey_ceremonies WHERE expires_at < $1",
                &[&crate::store::rows::now()],
            )
            .await?;
        client
            .execute(
                "INSERT INTO passkey_ceremonies (challenge, kind, state, expires_at)
                 VALUES ($1, $2, $3, $4)
                 ON CONFLICT (challenge) DO UPDATE SET kind = $2, state = $3, expires_at = $4",
                &[&challenge, &kind, &state, &expires_at],
            )
            .await?;
        Ok(())
    }

    async fn take_ceremony(
        &self,
        challenge: &str,
        kind: &'static str,
        now: i64,
    ) -> Stored<Option<String>> {
        let client = self.client().await?;
        Ok(client
            .query_opt(
                "DELETE FROM passkey_ceremonies WHERE challenge = $1 AND kind = $2
                 RETURNING state, expires_at",
                &[&challenge, &kind],
            )
            .await?
            .filter(|r| r.get::<_, i64>(1) >= now)
            .map(|r| r.get(0)))
    }

    async fn remember_device(&self, device_hash: String, account: i64, now: i64) -> Stored<()> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO known_devices (device_hash, account_id, created_at)
                 VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                &[&device_hash, &account, &now],
            )
            .await?;
        Ok(())
    }

    async fn knows_device(&self, device_hash: &str, account: i64) -> Stored<bool> {
        let client = self.client().await?;
        Ok(client
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM known_devices WHERE device_hash = $1 AND account_id = $2)",
                &[&device_hash, &account],
            )
            .await?
            .get(0))
    }

    async fn set_seat_account(
        &self,
        game: &str,
        from_revision: i64,
        seat: Seat,
        account: i64,
    ) -> Stored<i64> {
        let mut client = self.client().await?;
        let tx = client.transaction().await?;
        let next = from_revision + 1;
        let column = match seat {
            Seat::First => "account0",
            Seat::Second => "account1",
        };
        let changed = tx
            .execute(
                &format!(
                    "UPDATE games SET {column} = $2, revision = $3 WHERE id = $1 AND revision = $4"
                ),
                &[&game, &account, &next, &from_revision],
            )
            .await?;
        if changed == 0 {
            return Err(StoreError::Stale(from_revision));
        }
        notify(&tx, GAMES, &format!("{game} {next}")).await?;
        tx.commit().await?;
        Ok(next)
    }
}
