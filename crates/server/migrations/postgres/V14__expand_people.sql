-- Players meeting (issue 74): challenges by name, follows, and who is
-- online on each instance (account_id 0 counts the sockets of players not
-- signed in). Only adds: an instance of the previous release serves beside it.
CREATE TABLE IF NOT EXISTS challenges (
    id TEXT PRIMARY KEY,
    from_account BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    to_account BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    clock TEXT,
    rated BOOLEAN NOT NULL,
    seat SMALLINT,
    status TEXT NOT NULL,
    game TEXT,
    created_ms BIGINT NOT NULL,
    changed_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_from ON challenges (from_account, changed_ms);
CREATE INDEX IF NOT EXISTS challenges_to ON challenges (to_account, changed_ms);

CREATE TABLE IF NOT EXISTS follows (
    follower BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    followed BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX IF NOT EXISTS follows_followed ON follows (followed);

CREATE TABLE IF NOT EXISTS online (
    instance TEXT NOT NULL,
    account_id BIGINT NOT NULL,
    sockets BIGINT NOT NULL,
    PRIMARY KEY (instance, account_id)
);
