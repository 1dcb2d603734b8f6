-- Puzzles whose solution was shown to a browser that was not signed in
-- (issue 72): an account's try from the same address soon after is not
-- rated, so the solution cannot be looked up anonymously and then played
-- for rating. `seer` is a hash of the address (of its /64 for IPv6).
CREATE TABLE puzzle_seen (
    puzzle TEXT NOT NULL,
    seer TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (puzzle, seer)
);
CREATE INDEX puzzle_seen_at ON puzzle_seen (at);
