-- The order in which rated games were rated, and when (issue 75): a cheat
-- mark replays every rated game of a kind in that order without the marked
-- player's, and an unmark replays them all again, so the ratings and the
-- opponents' changes are restored exactly. Games rated before this
-- migration take their order and time from their rating history.
-- Only adds: an instance of the previous release serves beside it.
ALTER TABLE games ADD COLUMN rated_seq INTEGER;
ALTER TABLE games ADD COLUMN rated_at INTEGER;
UPDATE games SET
    rated_seq = (SELECT MIN(h.rowid) FROM rating_history h WHERE h.game_id = games.id),
    rated_at = (SELECT MIN(h.at) FROM rating_history h WHERE h.game_id = games.id)
WHERE rating_change0 IS NOT NULL;
CREATE INDEX IF NOT EXISTS games_rated ON games (kind, rated_seq) WHERE rated_seq IS NOT NULL;
