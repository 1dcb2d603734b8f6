//! The SQLite store's accounts: each call on the writer thread or a reader.

use super::SqliteStore;
use crate::model::Seat;
use crate::store::accounts::{Account, AccountBackend, NewAccount, PasskeyRow, SignIn};
use crate::store::error::{StoreError, Stored};
use rusqlite::{params, Connection, OptionalExtension};

const ACCOUNT: &str = "SELECT id, name, password_hash, created_at, settings FROM accounts";

fn account_from(r: &rusqlite::Row<'_>) -> Result<Account, rusqlite::Error> {
    Ok(Account {
        id: r.get(0)?,
        name: r.get(1)?,
        password_hash: r.get(2)?,
        created_at: r.get(3)?,
        settings: r.get(4)?,
    })
}

fn sign_in_from(r: &rusqlite::Row<'_>, at: usize) -> Result<SignIn, rusqlite::Error> {
    Ok(SignIn {
        id_hash: r.get(at)?,
        account: r.get(at + 1)?,
        device: r.get(at + 2)?,
        created_at: r.get(at + 3)?,
        last_seen: r.get(at + 4)?,
    })
}

const PASSKEY: &str =
    "SELECT cred_id, account_id, static_state, dynamic_state, created_at, last_used
     FROM passkeys";

fn passkey_from(r: &rusqlite::Row<'_>) -> Result<PasskeyRow, rusqlite::Error> {
    Ok(PasskeyRow {
        id: r.get(0)?,
        account: r.get(1)?,
        static_state: r.get(2)?,
        dynamic_state: r.get(3)?,
        created_at: r.get(4)?,
        last_used: r.get(5)?,
    })
}

fn insert_codes(c: &Connection, account: i64, hashes: &[String]) -> Result<(), rusqlite::Error> {
    let mut insert = c.prepare_cached(
        "INSERT OR IGNORE INTO recovery_codes (account_id, code_hash) VALUES (?1, ?2)",
    )?;
    for h in hashes {
        insert.execute(params![account, h])?;
    }
    Ok(())
}

#[async_trait::async_trait]
impl AccountBackend for SqliteStore {
    async fn create_account(&self, new: NewAccount) -> Stored<Option<i64>> {
        self.write(move |c| {
            let taken: bool = c.query_row(
                "SELECT EXISTS (SELECT 1 FROM accounts WHERE name_key = ?1)",
                params![new.key],
                |r| r.get(0),
            )?;
            if taken {
                return Ok(None);
            }
            c.execute(
                "INSERT INTO accounts (name, name_key, password_hash, created_at)
                 VALUES (?1, ?2, ?3, ?4)",
                params![new.name, new.key, new.password_hash, new.created_at],
            )?;
            let id = c.last_insert_rowid();
            insert_codes(c, id, &new.recovery)?;
            Ok(Some(id))
        })
        .await
    }

    async fn account_by_key(&self, key: &str) -> Stored<Option<Account>> {
        let key = key.to_string();
        self.read(move |c| {
            c.query_row(
                &format!("{ACCOUNT} WHERE name_key = ?1 AND deleted_at IS NULL"),
                params![key],
                account_from,
            )
            .optional()
        })
        .await
    }

    async fn account(&self, id: i64) -> Stored<Option<Account>> {
        self.read(move |c| {
            c.query_row(
                &format!("{ACCOUNT} WHERE id = ?1"),
                params![id],
                account_from,
            )
            .optional()
        })
        .await
    }

    async fn create_sign_in(&self, s: SignIn) -> Stored<()> {
        self.write(move |c| {
            c.execute(
                "INSERT INTO account_sessions (id_hash, account_id, device, created_at, last_seen)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![s.id_hash, s.account, s.device, s.created_at, s.last_seen],
            )?;
            Ok(())
        })
        .await
    }

    async fn sign_in(
        &self,
        id_hash: &str,
        now: i64,
        not_before: i64,
    ) -> Stored<Option<(Account, SignIn)>> {
        let id_hash = id_hash.to_string();
        let found = {
            let id_hash = id_hash.clone();
            self.read(move |c| {
                c.query_row(
                    "SELECT a.id, a.name, a.password_hash, a.created_at, a.settings,
                            s.id_hash, s.account_id, s.device, s.created_at, s.last_seen
                     FROM account_sessions s JOIN accounts a ON a.id = s.account_id
                     WHERE s.id_hash = ?1 AND a.deleted_at IS NULL",
                    params![id_hash],
                    |r| Ok((account_from(r)?, sign_in_from(r, 5)?)),
                )
                .optional()
            })
            .await?
        };
        let Some((account, mut s)) = found else {
            return Ok(None);
        };
        if s.last_seen < not_before {
            self.write(move |c| {
                c.execute(
                    "DELETE FROM account_sessions WHERE id_hash = ?1",
                    params![id_hash],
                )?;
                Ok(())
            })
            .await?;
            return Ok(None);
        }
        if now - s.last_seen > 60 {
            s.last_seen = now;
            self.write(move |c| {
                c.execute(
                    "UPDATE account_sessions SET last_seen = ?2 WHERE id_hash = ?1",
                    params![id_hash, now],
                )?;
                Ok(())
            })
            .await?;
        }
        Ok(Some((account, s)))
    }

    async fn sign_ins(&self, account: i64) -> Stored<Vec<SignIn>> {
        self.read(move |c| {
            let mut stmt = c.prepare(
                "SELECT id_hash, account_id, device, created_at, last_seen FROM account_sessions
                 WHERE account_id = ?1 ORDER BY last_seen DESC, created_at DESC",
            )?;
            let rows = stmt.query_map(params![account], |r| sign_in_from(r, 0))?;
            rows.collect()
        })
        .await
    }

    async fn end_sign_in(&self, account: i64, id_hash: &str) -> Stored<bool> {
        let id_hash = id_hash.to_string();
        self.write(move |c| {
            Ok(c.execute(
                "DELETE FROM account_sessions WHERE account_id = ?1 AND id_hash = ?2",
                params![account, id_hash],
            )? > 0)
        })
        .await
    }

    async fn end_sign_ins(&self, account: i64, keep: Option<String>) -> Stored<usize> {
        self.write(move |c| {
            Ok(c.execute(
                "DELETE FROM account_sessions WHERE account_id = ?1 AND id_hash IS NOT ?2",
                params![account, keep],
            )?)
        })
        .await
    }

    async fn set_password(&self, account: i64, password_hash: String) -> Stored<()> {
        self.write(move |c| {
            c.execute(
                "UPDATE accounts SET password_hash = ?2 WHERE id = ?1 AND deleted_at IS NULL",
                params![account, password_hash],
            )?;
            Ok(())
        })
        .await
    }

    async fn use_recovery_code(&self, account: i64, code_hash: &str) -> Stored<bool> {
        let code_hash = code_hash.to_string();
        self.write(move |c| {
            Ok(c.execute(
                "UPDATE recovery_codes SET used = 1
                 WHERE account_id = ?1 AND code_hash = ?2 AND used = 0",
                params![account, code_hash],
            )? == 1)
        })
        .await
    }

    async fn set_recovery_codes(&self, account: i64, hashes: Vec<String>) -> Stored<()> {
        self.write(move |c| {
            c.execute(
                "DELETE FROM recovery_codes WHERE account_id = ?1",
                params![account],
            )?;
            insert_codes(c, account, &hashes)?;
            Ok(())
        })
        .await
    }

    async fn recovery_codes_left(&self, account: i64) -> Stored<usize> {
        self.read(move |c| {
            c.query_row(
                "SELECT COUNT(*) FROM recovery_codes WHERE account_id = ?1 AND used = 0",
                params![account],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n as usize)
        })
        .await
    }

    async fn set_settings(&self, account: i64, settings: String) -> Stored<()> {
        self.write(move |c| {
            c.execute(
                "UPDATE accounts SET settings = ?2 WHERE id = ?1 AND deleted_at IS NULL",
                params![account, settings],
            )?;
            Ok(())
        })
        .await
    }

    async fn delete_account(&self, account: i64, now: i64) -> Stored<()> {
        self.write(move |c| {
            c.execute(
                "DELETE FROM account_sessions WHERE account_id = ?1",
                params![account],
            )?;
            c.execute(
                "DELETE FROM recovery_codes WHERE account_id = ?1",
                params![account],
            )?;
            c.execute("DELETE FROM passkeys WHERE account_id = ?1", params![account])?;
            c.execute(
                "DELETE FROM known_devices WHERE account_id = ?1",
                params![account],
            )?;
            c.execute(
                "DELETE FROM puzzle_attempts WHERE account_id = ?1",
                params![account],
            )?;
            c.execute(
                "DELETE FROM puzzle_ratings WHERE account_id = ?1",
                params![account],
            )?;
            c.execute(
                "UPDATE accounts SET name = NULL, passkey_user = NULL, name_key = NULL, password_hash = NULL,
                     settings = NULL, deleted_at = ?2
                 WHERE id = ?1",
                params![account, now],
            )?;
            Ok(())
        })
        .await
    }

    async fn passkey_user(&self, account: i64, candidate: String) -> Stored<String> {
        self.write(move |c| {
            c.execute(
                "UPDATE accounts SET passkey_user = COALESCE(passkey_user, ?2) WHERE id = ?1",
                params![account, candidate],
            )?;
            Ok(c.query_row(
                "SELECT passkey_user FROM accounts WHERE id = ?1",
                params![account],
                |r| r.get(0),
            )?)
        })
        .await
    }

    async fn add_passkey(&self, p: PasskeyRow) -> Stored<()> {
        self.write(move |c| {
            c.execute(
                "INSERT INTO passkeys (cred_id, account_id, static_state, dynamic_state, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![p.id, p.account, p.static_state, p.dynamic_state, p.created_at],
            )?;
            Ok(())
        })
        .await
    }

    async fn passkeys(&self, account: i64) -> Stored<Vec<PasskeyRow>> {
        self.read(move |c| {
            let mut stmt = c.prepare(&format!(
                "{PASSKEY} WHERE account_id = ?1 ORDER BY created_at, cred_id"
            ))?;
            let rows = stmt.query_map(params![account], passkey_from)?;
            rows.collect()
        })
        .await
    }

    async fn passkey(&self, id: &str) -> Stored<Option<(PasskeyRow, Account, String)>> {
        let id = id.to_string();
        self.read(move |c| {
            c.query_row(
                "SELECT p.cred_id, p.account_id, p.static_state, p.dynamic_state, p.created_at,
                        p.last_used, a.id, a.name, a.password_hash, a.created_at, a.settings,
                        a.passkey_user
                 FROM passkeys p JOIN accounts a ON a.id = p.account_id
                 WHERE p.cred_id = ?1 AND a.deleted_at IS NULL AND a.passkey_user IS NOT NULL",
                params![id],
                |r| {
                    let a = Account {
                        id: r.get(6)?,
                        name: r.get(7)?,
                        password_hash: r.get(8)?,
                        created_at: r.get(9)?,
                        settings: r.get(10)?,
                    };
                    Ok((passkey_from(r)?, a, r.get(11)?))
                },
            )
            .optional()
        })
        .await
    }

    async fn touch_passkey(&self, id: &str, dynamic_state: String, now: i64) -> Stored<()> {
        let id = id.to_string();
        self.write(move |c| {
            c.execute(
                "UPDATE passkeys SET dynamic_state = ?2, last_used = ?3 WHERE cred_id = ?1",
                params![id, dynamic_state, now],
            )?;
            Ok(())
        })
        .await
    }

    async fn delete_passkey(&self, account: i64, id: &str) -> Stored<bool> {
        let id = id.to_string();
        self.write(move |c| {
            Ok(c.execute(
                "DELETE FROM passkeys WHERE account_id = ?1 AND cred_id = ?2",
                params![account, id],
            )? > 0)
        })
        .await
    }

    async fn put_ceremony(
        &self,
        challenge: String,
        kind: &'static str,
        state: String,
        expires_at: i64,
    ) -> Stored<()> {
        let now = crate::store::rows::now();
        self.write(move |c| {
            c.execute(
                "DELETE FROM passkey_ceremonies WHERE expires_at < ?1",
                params![now],
            )?;
            c.execute(
                "INSERT OR REPLACE INTO passkey_ceremonies (challenge, kind, state, expires_at)
                 VALUES (?1, ?2, ?3, ?4)",
                params![challenge, kind, state, expires_at],
            )?;
            Ok(())
        })
        .await
    }

    async fn take_ceremony(
        &self,
        challenge: &str,
        kind: &'static str,
        now: i64,
    ) -> Stored<Option<String>> {
        let challenge = challenge.to_string();
        self.write(move |c| {
            let state: Option<String> = c
                .query_row(
                    "DELETE FROM passkey_ceremonies WHERE challenge = ?1 AND kind = ?2
                     RETURNING state, expires_at",
                    params![challenge, kind],
                    |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)),
                )
                .optional()?
                .filter(|(_, expires)| *expires >= now)
                .map(|(s, _)| s);
            Ok(state)
        })
        .await
    }

    async fn remember_device(&self, device_hash: String, account: i64, now: i64) -> Stored<()> {
        self.write(move |c| {
            c.execute(
                "INSERT OR IGNORE INTO known_devices (device_hash, account_id, created_at)
                 VALUES (?1, ?2, ?3)",
                params![device_hash, account, now],
            )?;
            Ok(())
        })
        .await
    }

    async fn knows_device(&self, device_hash: &str, account: i64) -> Stored<bool> {
        let device_hash = device_hash.to_string();
        self.read(move |c| {
            c.query_row(
                "SELECT EXISTS (SELECT 1 FROM known_devices WHERE device_hash = ?1 AND account_id = ?2)",
                params![device_hash, account],
                |r| r.get(0),
            )
        })
        .await
    }

    async fn set_seat_account(
        &self,
        game: &str,
        from_revision: i64,
        seat: Seat,
        account: i64,
    ) -> Stored<i64> {
        let game = game.to_string();
        self.write(move |c| {
            let next = from_revision + 1;
            let column = match seat {
                Seat::First => "account0",
                Seat::Second => "account1",
            };
            let changed = c.execute(
                &format!(
                    "UPDATE games SET {column} = ?2, revision = ?3 WHERE id = ?1 AND revision = ?4"
                ),
                params![game, account, next, from_revision],
            )?;
            if changed == 0 {
                return Err(StoreError::Stale(from_revision));
            }
            Ok(next)
        })
        .await
    }
}
