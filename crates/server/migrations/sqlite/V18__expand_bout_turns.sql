-- The turns a tournament bout's games took (issue 86): a bout ended before
-- each side had moved is void, a berserk win earns its point only after a
-- few moves each, and a quick draw scores nothing, as on lichess. Bouts
-- ended before this migration have none and are scored as before.
-- Only adds: an instance of the previous release serves beside it.
ALTER TABLE tournament_bouts ADD COLUMN turns INTEGER;
