-- Puzzles (issue 62): each account's Glicko-2 puzzle rating per game, and
-- the puzzles it has tried (only a puzzle's first try is rated; the next
-- puzzle is one not tried yet).
CREATE TABLE IF NOT EXISTS puzzle_ratings (
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts INTEGER NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game)
);
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    puzzle TEXT NOT NULL,
    game TEXT NOT NULL,
    correct BOOLEAN NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, puzzle)
);
