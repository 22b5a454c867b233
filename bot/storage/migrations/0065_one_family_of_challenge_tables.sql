-- Every challenge deck's tables in one family of SQL tables (bot/storage/challenge.py). Until now the
-- Hydra's tables lived in hydra_games/seats/actions and the Horde's and the God's in
-- challenge_games/seats/actions, each numbering its games from 1, so the same number was one table of
-- each. Every id already given out keeps meaning what it meant: a table is keyed by its kind (the family
-- that numbered it: 'hydra' or 'challenge') and that number, which is what posted messages (custom_ids
-- "hydra:<id>" and "chal:<id>") and events (hydra_event_tables.game_id with the event's deck) name.
-- New tables of every deck take their number from one counter, started above every number either family
-- gave out, so a new number is one table whatever its kind.
--
-- The rows move: they are copied here and deleted from the old tables in the same transaction (a second
-- copy would outlive /privacy delete). The old tables stay, empty, until a later release drops them;
-- processes of the previous version must be stopped before this migration (docs/operators/upgrading.md).
CREATE TABLE challenge_tables (
    kind             TEXT NOT NULL,
    game_id          INTEGER NOT NULL,
    deck             TEXT NOT NULL,
    guild_id         BIGINT,
    channel_id       BIGINT,
    message_id       BIGINT,
    turn_message_id  BIGINT,
    created_by       BIGINT NOT NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    difficulty       INTEGER NOT NULL,
    seed             BIGINT NOT NULL,
    language         TEXT NOT NULL DEFAULT 'en',
    window_seconds   INTEGER NOT NULL DEFAULT 20,
    all_windows      INTEGER NOT NULL DEFAULT 0,
    idle_minutes     INTEGER NOT NULL DEFAULT 30,
    life_per_player  INTEGER NOT NULL DEFAULT 0,
    stable_ids       INTEGER NOT NULL DEFAULT 1,
    rules            INTEGER NOT NULL DEFAULT 1,
    status           TEXT NOT NULL DEFAULT 'lobby',
    outcome          TEXT,
    turns            INTEGER,
    defeated         INTEGER,
    PRIMARY KEY (kind, game_id)
);

CREATE INDEX challenge_tables_status ON challenge_tables (kind, status, game_id);
CREATE INDEX challenge_tables_channel ON challenge_tables (channel_id, status);
CREATE INDEX challenge_tables_creator ON challenge_tables (guild_id, created_by, status);

CREATE TABLE challenge_table_seats (
    kind     TEXT NOT NULL,
    game_id  INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    user_id  BIGINT NOT NULL,
    name     TEXT NOT NULL,
    heroes   TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (kind, game_id, seat),
    UNIQUE (kind, game_id, user_id),
    FOREIGN KEY (kind, game_id) REFERENCES challenge_tables (kind, game_id)
);

CREATE TABLE challenge_table_actions (
    kind      TEXT NOT NULL,
    game_id   INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    line      TEXT NOT NULL,
    actor_id  BIGINT,
    at        TEXT NOT NULL,
    PRIMARY KEY (kind, game_id, seq),
    FOREIGN KEY (kind, game_id) REFERENCES challenge_tables (kind, game_id)
);

-- The next table's number, for every deck (one row). Creating a table raises it in the creating
-- transaction, so two processes sharing a PostgreSQL database never take the same number.
CREATE TABLE challenge_table_ids (
    next_id  INTEGER NOT NULL
);

INSERT INTO challenge_table_ids (next_id)
SELECT MAX(highest) + 1 FROM (SELECT COALESCE(MAX(game_id), 0) AS highest FROM hydra_games
                              UNION ALL SELECT COALESCE(MAX(game_id), 0) AS highest FROM challenge_games) AS given;

INSERT INTO challenge_tables (kind, game_id, deck, guild_id, channel_id, message_id, turn_message_id, created_by,
                              created_at, updated_at, difficulty, seed, language, window_seconds, all_windows,
                              idle_minutes, life_per_player, stable_ids, rules, status, outcome, turns, defeated)
SELECT 'hydra', game_id, 'hydra', guild_id, channel_id, message_id, turn_message_id, created_by, created_at,
       updated_at, heads, seed, language, window_seconds, all_windows, idle_minutes, 0, stable_ids, rules, status,
       outcome, turns, heads_severed
FROM hydra_games;

INSERT INTO challenge_tables (kind, game_id, deck, guild_id, channel_id, message_id, turn_message_id, created_by,
                              created_at, updated_at, difficulty, seed, language, window_seconds, all_windows,
                              idle_minutes, life_per_player, stable_ids, rules, status, outcome, turns, defeated)
SELECT 'challenge', game_id, deck, guild_id, channel_id, message_id, NULL, created_by, created_at, updated_at,
       difficulty, seed, language, window_seconds, all_windows, 30, life_per_player, stable_ids, rules, status,
       outcome, NULL, NULL
FROM challenge_games;

INSERT INTO challenge_table_seats (kind, game_id, seat, user_id, name, heroes)
SELECT 'hydra', game_id, seat, user_id, name, heroes FROM hydra_seats;

INSERT INTO challenge_table_seats (kind, game_id, seat, user_id, name, heroes)
SELECT 'challenge', game_id, seat, user_id, name, heroes FROM challenge_seats;

INSERT INTO challenge_table_actions (kind, game_id, seq, line, actor_id, at)
SELECT 'hydra', game_id, seq, line, actor_id, at FROM hydra_actions;

INSERT INTO challenge_table_actions (kind, game_id, seq, line, actor_id, at)
SELECT 'challenge', game_id, seq, line, actor_id, at FROM challenge_actions;

DELETE FROM hydra_actions;
DELETE FROM hydra_seats;
DELETE FROM hydra_games;
DELETE FROM challenge_actions;
DELETE FROM challenge_seats;
DELETE FROM challenge_games;
