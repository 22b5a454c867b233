-- the numbers of the action language (HEAD for the Hydra, permanents for the Horde and the
-- God) are fixed for the life of a game. Tables saved before this migration keep numbering by position
-- (their stored logs were written that way); every new table is created with stable_ids = 1.
ALTER TABLE hydra_games ADD COLUMN stable_ids INTEGER NOT NULL DEFAULT 0;
ALTER TABLE challenge_games ADD COLUMN stable_ids INTEGER NOT NULL DEFAULT 0;

-- server-wide events for every challenge deck, not only the Hydra. An event names its deck;
-- its tables are hydra_games for the Hydra and challenge_games for the Horde and the God, and the
-- "heads" column holds the deck's difficulty (the Hydra's starting heads).
ALTER TABLE hydra_events ADD COLUMN deck TEXT NOT NULL DEFAULT 'hydra';
