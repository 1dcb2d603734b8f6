-- The order in which rated games were rated, and when (issue 75): a cheat
-- mark replays every rated game of a kind in that order without the marked
-- player's, and an unmark replays them all again, so the ratings and the
-- opponents' changes are restored exactly. Games rated before this
-- migration take their order and time from their rating history.
-- Only adds: an instance of the previous release serves beside it.
ALTER TABLE games ADD COLUMN IF NOT EXISTS rated_seq BIGINT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS rated_at BIGINT;
CREATE SEQUENCE IF NOT EXISTS rated_order;
UPDATE games g SET rated_seq = o.n, rated_at = o.at
FROM (SELECT game_id, MIN(at) AS at, row_number() OVER (ORDER BY MIN(at), game_id) AS n
      FROM rating_history GROUP BY game_id) o
WHERE g.id = o.game_id AND g.rating_change0 IS NOT NULL;
SELECT setval('rated_order', COALESCE((SELECT MAX(rated_seq) FROM games), 0) + 1, false);
CREATE INDEX IF NOT EXISTS games_rated ON games (kind, rated_seq) WHERE rated_seq IS NOT NULL;
