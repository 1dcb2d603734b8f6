-- Live play: a game's clock (JSON: base, increment, each side's time left
-- when the current turn began, and when it began), the instance keeping
-- it, and which seats have made their first decision (a bit each; games
-- stored before are past their first moves). Instances note that they are
-- alive; seeks wait in the lobby.
ALTER TABLE games ADD COLUMN clock TEXT;
ALTER TABLE games ADD COLUMN clock_owner TEXT;
ALTER TABLE games ADD COLUMN moved INTEGER NOT NULL DEFAULT 3;
CREATE INDEX games_clocked ON games (status) WHERE clock IS NOT NULL;

CREATE TABLE instances (
    id TEXT PRIMARY KEY,
    seen_ms INTEGER NOT NULL
);

CREATE TABLE seeks (
    id TEXT PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    clock TEXT,
    rated INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    account_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
    rating REAL,
    rating_min REAL,
    rating_max REAL,
    pool TEXT,
    token_hash TEXT NOT NULL,
    game TEXT
);
CREATE INDEX seeks_open ON seeks (expires_ms) WHERE game IS NULL;
