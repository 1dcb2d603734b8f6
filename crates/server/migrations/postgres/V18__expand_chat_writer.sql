-- Who wrote a chat line, by account (issue 85): a block keeps the blocked
-- account's lines from the blocker on every channel, whatever name the
-- writer goes by now. Lines written before this migration have none and
-- are matched by the name they were written under.
-- Only adds: an instance of the previous release serves beside it.
ALTER TABLE chat ADD COLUMN IF NOT EXISTS author_id BIGINT;
