-- The schema as it stood when migrations began. Every statement is
-- IF NOT EXISTS so that a database made before migrations adopts it as is;
-- the store adds the three columns that very old databases lack.
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    mode TEXT NOT NULL,
    level INTEGER,
    engine_seat INTEGER,
    token0 TEXT,
    token1 TEXT,
    start_position TEXT,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0,
    reason TEXT,
    rematch TEXT
);
CREATE TABLE IF NOT EXISTS tokens (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated_at);
CREATE TABLE IF NOT EXISTS dice (
    game_id TEXT NOT NULL REFERENCES games(id),
    die TEXT NOT NULL,
    seq INTEGER NOT NULL,
    value INTEGER NOT NULL,
    PRIMARY KEY (game_id, die, seq)
);
CREATE TABLE IF NOT EXISTS reviews (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    revision INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS invites (
    game_id TEXT NOT NULL REFERENCES games(id),
    code TEXT NOT NULL,
    seat INTEGER NOT NULL,
    used INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, code)
);
