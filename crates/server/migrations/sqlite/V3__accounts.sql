-- Accounts (issue 59). A deleted account keeps its row, without name,
-- password or anything else, so that its games show "deleted player".
CREATE TABLE accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT,
    name_key TEXT UNIQUE,
    password_hash TEXT,
    created_at INTEGER NOT NULL,
    deleted_at INTEGER,
    settings TEXT
);
-- Sign-in sessions: the SHA-256 of the cookie's 256-bit id, never the id.
CREATE TABLE account_sessions (
    id_hash TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    device TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_seen INTEGER NOT NULL
);
CREATE INDEX account_sessions_account ON account_sessions(account_id);
-- One-time recovery codes, hashed.
CREATE TABLE recovery_codes (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    code_hash TEXT NOT NULL,
    used INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, code_hash)
);
-- The account that holds each seat, once claimed.
ALTER TABLE games ADD COLUMN account0 INTEGER REFERENCES accounts(id);
ALTER TABLE games ADD COLUMN account1 INTEGER REFERENCES accounts(id);
CREATE INDEX games_account0 ON games(account0);
CREATE INDEX games_account1 ON games(account1);
