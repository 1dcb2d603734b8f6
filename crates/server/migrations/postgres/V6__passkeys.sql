-- Passkeys (issue 59): each account's WebAuthn user handle (random, the
-- same for all its passkeys), and each passkey's id and encoded public key
-- and counters (no secret: a passkey's private key never leaves the
-- authenticator).
ALTER TABLE accounts ADD COLUMN IF NOT EXISTS passkey_user TEXT;
CREATE TABLE IF NOT EXISTS passkeys (
    cred_id TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    static_state TEXT NOT NULL,
    dynamic_state TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_used BIGINT
);
CREATE INDEX IF NOT EXISTS passkeys_account ON passkeys(account_id);
