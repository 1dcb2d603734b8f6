-- Safety between strangers (issue 75; blocks are relations, made with
-- the people tables): reports with the evidence
-- the server attached, moderators, what moderators did, and sanctions (chat mutes, bans from
-- rated play).
-- Only adds: an instance of the previous release serves beside it.
CREATE TABLE IF NOT EXISTS reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- NULL: the server itself (a rating that jumped).
    reporter INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
    target INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    body TEXT NOT NULL,
    game TEXT,
    evidence TEXT NOT NULL,
    status TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    closed_ms INTEGER,
    closed_by INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS reports_one_open ON reports (reporter, target) WHERE status = 'open';
CREATE UNIQUE INDEX IF NOT EXISTS reports_server_open ON reports (target, reason)
    WHERE status = 'open' AND reporter IS NULL;
CREATE INDEX IF NOT EXISTS reports_status ON reports (status, created_ms);

CREATE TABLE IF NOT EXISTS moderators (
    account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
    granted_ms INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS mod_actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    moderator INTEGER,
    target INTEGER NOT NULL,
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    until_ms INTEGER,
    report INTEGER,
    created_ms INTEGER NOT NULL,
    seen INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS mod_actions_target ON mod_actions (target, created_ms);

-- What a moderator put on a player for a time: a chat mute, a ban from
-- rated play.
CREATE TABLE IF NOT EXISTS sanctions (
    account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    until_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, kind)
);

-- A chat line with a listed word is kept (shown to its writer, counted on
-- her record) but hidden from everyone else.
ALTER TABLE chat ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
