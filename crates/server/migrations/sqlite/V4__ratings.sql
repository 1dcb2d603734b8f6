-- Ratings (issue 59): Glicko-2 per account and game, its history, and what
-- a rated game is: rated at creation; a Ringo pair's second game names the
-- first; the rating change of each seat once the game (or pair) is rated.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN pair_first TEXT;
ALTER TABLE games ADD COLUMN rating_change0 REAL;
ALTER TABLE games ADD COLUMN rating_change1 REAL;
CREATE TABLE ratings (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    game TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, game)
);
CREATE INDEX ratings_board ON ratings(game, rating);
CREATE TABLE rating_history (
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    game TEXT NOT NULL,
    at INTEGER NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    game_id TEXT NOT NULL
);
CREATE INDEX rating_history_account ON rating_history(account_id, game, at);
