-- The match score of an Urgammon game, for the games list (light's, dark's);
-- NULL for Ringo, and for a match stored before this, until its next change.
ALTER TABLE games ADD COLUMN IF NOT EXISTS score_light INTEGER;
ALTER TABLE games ADD COLUMN IF NOT EXISTS score_dark INTEGER;
