-- Issue #14: a Hydra table may open every response window (the Hydra's upkeep, each triggered
-- ability), not only counter and prevent. Part of the game's set-up, so replays need it.
ALTER TABLE hydra_games ADD COLUMN all_windows INTEGER NOT NULL DEFAULT 0;
