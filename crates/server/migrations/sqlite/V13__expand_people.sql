-- Players meeting (issue 74): challenges by name, follows (relations), and who is
-- online on each instance (account_id 0 counts the sockets of players not
-- signed in). Only adds: an instance of the previous release serves beside it.
CREATE TABLE IF NOT EXISTS challenges (
    id TEXT PRIMARY KEY,
    from_account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    to_account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    clock TEXT,
    rated INTEGER NOT NULL,
    seat INTEGER,
    status TEXT NOT NULL,
    game TEXT,
    created_ms INTEGER NOT NULL,
    changed_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_from ON challenges (from_account, changed_ms);
CREATE INDEX IF NOT EXISTS challenges_to ON challenges (to_account, changed_ms);

-- One player's relation to another: she follows her, or blocks her (as
-- lila keeps both in one relation collection).
CREATE TABLE IF NOT EXISTS relations (
    from_account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    to_account INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (from_account, to_account, kind)
);
CREATE INDEX IF NOT EXISTS relations_to ON relations (to_account, kind);

CREATE TABLE IF NOT EXISTS online (
    instance TEXT NOT NULL,
    account_id INTEGER NOT NULL,
    sockets INTEGER NOT NULL,
    PRIMARY KEY (instance, account_id)
);
