-- Puzzles (issue 62): each account's Glicko-2 puzzle rating per game, and
-- the puzzles it has tried (only a puzzle's first try is rated; the next
-- puzzle is one not tried yet).
CREATE TABLE puzzle_ratings (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    game TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    attempts INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, game)
);
CREATE TABLE puzzle_attempts (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    puzzle TEXT NOT NULL,
    game TEXT NOT NULL,
    correct INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (account_id, puzzle)
);
