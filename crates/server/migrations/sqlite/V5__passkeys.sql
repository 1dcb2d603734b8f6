-- Passkeys (issue 59): each account's WebAuthn user handle (random, the
-- same for all its passkeys), and each passkey's id and encoded public key
-- and counters (no secret: a passkey's private key never leaves the
-- authenticator).
ALTER TABLE accounts ADD COLUMN passkey_user TEXT;
CREATE TABLE passkeys (
    cred_id TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    static_state TEXT NOT NULL,
    dynamic_state TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_used INTEGER
);
CREATE INDEX passkeys_account ON passkeys(account_id);
