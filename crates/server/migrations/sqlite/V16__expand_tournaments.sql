-- Tournaments (issue 76): arenas and Swiss events, who entered, and their
-- bouts (a Ringo pair's first game, an Urgammon match, or a bye) with
-- each result once over; standings are counted from the bouts. `pairer`
-- is the instance that pairs a running event, until `pairer_until_ms`.
-- Only adds: an instance of the previous release serves beside it.
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    spec TEXT NOT NULL,
    status TEXT NOT NULL,
    starts_ms INTEGER NOT NULL,
    ends_ms INTEGER,
    round INTEGER NOT NULL DEFAULT 0,
    created_by INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
    created_ms INTEGER NOT NULL,
    schedule TEXT,
    pairer TEXT,
    pairer_until_ms INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX IF NOT EXISTS tournaments_schedule ON tournaments (schedule) WHERE schedule IS NOT NULL;
CREATE INDEX IF NOT EXISTS tournaments_status ON tournaments (status, starts_ms);

CREATE TABLE IF NOT EXISTS tournament_entrants (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    joined_ms INTEGER NOT NULL,
    withdrawn INTEGER NOT NULL DEFAULT 0,
    rating REAL NOT NULL,
    told_ms INTEGER,
    PRIMARY KEY (tournament_id, account_id)
);
CREATE INDEX IF NOT EXISTS tournament_entrants_account ON tournament_entrants (account_id);

CREATE TABLE IF NOT EXISTS tournament_bouts (
    game_id TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    account0 INTEGER NOT NULL,
    account1 INTEGER,
    berserk0 INTEGER NOT NULL DEFAULT 0,
    berserk1 INTEGER NOT NULL DEFAULT 0,
    score0 REAL,
    created_ms INTEGER NOT NULL,
    ended_ms INTEGER
);
CREATE INDEX IF NOT EXISTS tournament_bouts_tournament ON tournament_bouts (tournament_id, created_ms);
