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
    starts_ms BIGINT NOT NULL,
    ends_ms BIGINT,
    round BIGINT NOT NULL DEFAULT 0,
    created_by BIGINT REFERENCES accounts(id) ON DELETE SET NULL,
    created_ms BIGINT NOT NULL,
    schedule TEXT,
    pairer TEXT,
    pairer_until_ms BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX IF NOT EXISTS tournaments_schedule ON tournaments (schedule) WHERE schedule IS NOT NULL;
CREATE INDEX IF NOT EXISTS tournaments_status ON tournaments (status, starts_ms);

CREATE TABLE IF NOT EXISTS tournament_entrants (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    joined_ms BIGINT NOT NULL,
    withdrawn BOOLEAN NOT NULL DEFAULT FALSE,
    rating DOUBLE PRECISION NOT NULL,
    told_ms BIGINT,
    PRIMARY KEY (tournament_id, account_id)
);
CREATE INDEX IF NOT EXISTS tournament_entrants_account ON tournament_entrants (account_id);

CREATE TABLE IF NOT EXISTS tournament_bouts (
    game_id TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round BIGINT NOT NULL,
    account0 BIGINT NOT NULL,
    account1 BIGINT,
    berserk0 BOOLEAN NOT NULL DEFAULT FALSE,
    berserk1 BOOLEAN NOT NULL DEFAULT FALSE,
    score0 DOUBLE PRECISION,
    created_ms BIGINT NOT NULL,
    ended_ms BIGINT
);
CREATE INDEX IF NOT EXISTS tournament_bouts_tournament ON tournament_bouts (tournament_id, created_ms);
