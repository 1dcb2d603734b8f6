-- Safety between strangers (issue 75; blocks are relations, made with
-- the people tables): reports with the evidence
-- the server attached, moderators, what moderators did, and sanctions (chat mutes, bans from
-- rated play).
-- Only adds: an instance of the previous release serves beside it.
CREATE TABLE IF NOT EXISTS reports (
    id BIGSERIAL PRIMARY KEY,
    -- NULL: the server itself (a rating that jumped).
    reporter BIGINT REFERENCES accounts(id) ON DELETE CASCADE,
    target BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    body TEXT NOT NULL,
    game TEXT,
    evidence TEXT NOT NULL,
    status TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    closed_ms BIGINT,
    closed_by BIGINT
);
CREATE UNIQUE INDEX IF NOT EXISTS reports_one_open ON reports (reporter, target) WHERE status = 'open';
CREATE UNIQUE INDEX IF NOT EXISTS reports_server_open ON reports (target, reason)
    WHERE status = 'open' AND reporter IS NULL;
CREATE INDEX IF NOT EXISTS reports_status ON reports (status, created_ms);

CREATE TABLE IF NOT EXISTS moderators (
    account_id BIGINT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    granted_ms BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS mod_actions (
    id BIGSERIAL PRIMARY KEY,
    moderator BIGINT,
    target BIGINT NOT NULL,
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    until_ms BIGINT,
    report BIGINT,
    created_ms BIGINT NOT NULL,
    seen BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX IF NOT EXISTS mod_actions_target ON mod_actions (target, created_ms);

-- What a moderator put on a player for a time: a chat mute, a ban from
-- rated play.
CREATE TABLE IF NOT EXISTS sanctions (
    account_id BIGINT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    until_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, kind)
);

-- A chat line with a listed word is kept (shown to its writer, counted on
-- her record) but hidden from everyone else.
ALTER TABLE chat ADD COLUMN IF NOT EXISTS hidden BOOLEAN NOT NULL DEFAULT FALSE;
