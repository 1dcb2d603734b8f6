-- A rated Ringo pair's score, on its second game once both are played:
-- each seat's account's points over the pair (1 a win, 0.5 a draw).
ALTER TABLE games ADD COLUMN IF NOT EXISTS pair_points0 DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN IF NOT EXISTS pair_points1 DOUBLE PRECISION;
