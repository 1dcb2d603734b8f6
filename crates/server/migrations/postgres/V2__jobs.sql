-- The engine queue: engine moves, reviews and analyses wait here for an
-- `agon worker`. A worker takes the oldest due job with FOR UPDATE SKIP
-- LOCKED and holds a lease; a job whose lease ran out (its worker died)
-- is due again.
CREATE TABLE jobs (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    game_id TEXT,
    revision BIGINT NOT NULL DEFAULT 0,
    payload TEXT NOT NULL DEFAULT '',
    run_after TIMESTAMPTZ NOT NULL DEFAULT now(),
    leased_until TIMESTAMPTZ,
    worker TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0,
    total INTEGER NOT NULL DEFAULT 0,
    finished BOOLEAN NOT NULL DEFAULT FALSE,
    result TEXT,
    error TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- One engine-move job per game and revision, one review job per game.
CREATE UNIQUE INDEX jobs_once ON jobs (kind, game_id, revision)
    WHERE kind IN ('move', 'review');
CREATE INDEX jobs_due ON jobs (run_after) WHERE NOT finished;
