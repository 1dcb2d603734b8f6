-- Players meeting (issue 74): challenges by name, follows, and who is
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

CREATE TABLE IF NOT EXISTS follows (
    follower INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    followed INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX IF NOT EXISTS follows_followed ON follows (followed);

CREATE TABLE IF NOT EXISTS online (
    instance TEXT NOT NULL,
    account_id INTEGER NOT NULL,
    sockets INTEGER NOT NULL,
    PRIMARY KEY (instance, account_id)
);
