-- Accounts (issue 59). A deleted account keeps its row, without name,
-- password or anything else, so that its games show "deleted player".
CREATE TABLE IF NOT EXISTS accounts (
    id BIGSERIAL PRIMARY KEY,
    name TEXT,
    name_key TEXT UNIQUE,
    password_hash TEXT,
    created_at BIGINT NOT NULL,
    deleted_at BIGINT,
    settings TEXT
);
-- Sign-in sessions: the SHA-256 of the cookie's 256-bit id, never the id.
CREATE TABLE IF NOT EXISTS account_sessions (
    id_hash TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    device TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    last_seen BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS account_sessions_account ON account_sessions(account_id);
-- One-time recovery codes, hashed.
CREATE TABLE IF NOT EXISTS recovery_codes (
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    code_hash TEXT NOT NULL,
    used BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (account_id, code_hash)
);
-- The account that holds each seat, once claimed.
ALTER TABLE games ADD COLUMN IF NOT EXISTS account0 BIGINT REFERENCES accounts(id);
ALTER TABLE games ADD COLUMN IF NOT EXISTS account1 BIGINT REFERENCES accounts(id);
CREATE INDEX IF NOT EXISTS games_account0 ON games(account0);
CREATE INDEX IF NOT EXISTS games_account1 ON games(account1);
