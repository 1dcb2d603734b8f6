-- A rated Ringo pair's score, on its second game once both are played:
-- each seat's account's points over the pair (1 a win, 0.5 a draw).
ALTER TABLE games ADD COLUMN pair_points0 REAL;
ALTER TABLE games ADD COLUMN pair_points1 REAL;
