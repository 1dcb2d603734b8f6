-- Live play: a game's clock (JSON: base, increment, each side's time left
-- when the current turn began, and when it began), the instance keeping
-- it, and which seats have made their first decision (a bit each; games
-- stored before are past their first moves). Instances note that they are
-- alive; seeks wait in the lobby.
ALTER TABLE games ADD COLUMN IF NOT EXISTS clock TEXT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS clock_owner TEXT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS moved SMALLINT NOT NULL DEFAULT 3;
CREATE INDEX IF NOT EXISTS games_clocked ON games (status) WHERE clock IS NOT NULL;

CREATE TABLE IF NOT EXISTS instances (
    id TEXT PRIMARY KEY,
    seen_ms BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS seeks (
    id TEXT PRIMARY KEY,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    clock TEXT,
    rated BOOLEAN NOT NULL,
    seat SMALLINT NOT NULL,
    account_id BIGINT REFERENCES accounts(id) ON DELETE CASCADE,
    rating DOUBLE PRECISION,
    rating_min DOUBLE PRECISION,
    rating_max DOUBLE PRECISION,
    pool TEXT,
    token_hash TEXT NOT NULL,
    game TEXT
);
CREATE INDEX IF NOT EXISTS seeks_open ON seeks (expires_ms) WHERE game IS NULL;
