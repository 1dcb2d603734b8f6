-- The shared store: the same tables as the SQLite store. A change of a game
-- is one transaction that checks the game's revision; (game_id, seq) is the
-- tokens' key, so two instances racing for one game cannot both append.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    settings TEXT NOT NULL,
    mode TEXT NOT NULL,
    level SMALLINT,
    engine_seat SMALLINT,
    token0 TEXT,
    token1 TEXT,
    start_position TEXT,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    revision BIGINT NOT NULL DEFAULT 0,
    reason TEXT,
    rematch TEXT
);
CREATE TABLE tokens (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX games_updated ON games(updated_at);
CREATE TABLE dice (
    game_id TEXT NOT NULL REFERENCES games(id),
    die TEXT NOT NULL,
    seq BIGINT NOT NULL,
    value SMALLINT NOT NULL,
    PRIMARY KEY (game_id, die, seq)
);
CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    revision BIGINT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE invites (
    game_id TEXT NOT NULL REFERENCES games(id),
    code TEXT NOT NULL,
    seat SMALLINT NOT NULL,
    used BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (game_id, code)
);
