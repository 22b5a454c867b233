-- A table's rules version (bot.domain.challenge.decks): every table stored before this migration
-- replays its action log with the rules it was played with (1); new tables are created with the
-- current version. Part of the game's set-up, like the seed.
ALTER TABLE hydra_games ADD COLUMN rules INTEGER NOT NULL DEFAULT 1;
ALTER TABLE challenge_games ADD COLUMN rules INTEGER NOT NULL DEFAULT 1;
-- The God's multiplayer house rule: the players' shared life total starts at 20 per player (0: the
-- printed 20, whatever their number).
ALTER TABLE challenge_games ADD COLUMN life_per_player INTEGER NOT NULL DEFAULT 0;
-- The Hero cards each player of the Horde or the God starts with (a JSON list of card names).
ALTER TABLE challenge_seats ADD COLUMN heroes TEXT NOT NULL DEFAULT '[]';
