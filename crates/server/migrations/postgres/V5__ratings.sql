-- Ratings (issue 59): Glicko-2 per account and game, its history, and what
-- a rated game is: rated at creation; a Ringo pair's second game names the
-- first; the rating change of each seat once the game (or pair) is rated.
ALTER TABLE games ADD COLUMN IF NOT EXISTS rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN IF NOT EXISTS pair_first TEXT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS rating_change0 DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN IF NOT EXISTS rating_change1 DOUBLE PRECISION;
CREATE TABLE IF NOT EXISTS ratings (
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (account_id, game)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(game, rating);
CREATE TABLE IF NOT EXISTS rating_history (
    account_id BIGINT NOT NULL REFERENCES accounts(id),
    game TEXT NOT NULL,
    at BIGINT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    game_id TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rating_history_account ON rating_history(account_id, game, at);
