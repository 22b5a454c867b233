-- a Hydra table may open every response window (the Hydra's upkeep, each triggered
-- ability), not only counter and prevent. Part of the game's set-up, so replays need it.
ALTER TABLE hydra_games ADD COLUMN all_windows INTEGER NOT NULL DEFAULT 0;

-- Battle the Horde and Defeat a God tables: like the Hydra's, a game is its seed and set-up
-- plus its action log, replayed through the engine; nothing else about the board is stored.
CREATE TABLE challenge_games (
    game_id         INTEGER PRIMARY KEY,
    guild_id        BIGINT,
    channel_id      BIGINT NOT NULL,
    message_id      BIGINT,
    deck            TEXT NOT NULL,
    difficulty      INTEGER NOT NULL,
    seed            BIGINT NOT NULL,
    language        TEXT NOT NULL DEFAULT 'en',
    window_seconds  INTEGER NOT NULL DEFAULT 20,
    all_windows     INTEGER NOT NULL DEFAULT 0,
    status          TEXT NOT NULL DEFAULT 'lobby',
    outcome         TEXT,
    created_by      BIGINT NOT NULL,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
);

CREATE INDEX challenge_games_status ON challenge_games (status, game_id);

CREATE TABLE challenge_seats (
    game_id  INTEGER NOT NULL REFERENCES challenge_games (game_id),
    seat     INTEGER NOT NULL,
    user_id  BIGINT NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

CREATE TABLE challenge_actions (
    game_id   INTEGER NOT NULL REFERENCES challenge_games (game_id),
    seq       INTEGER NOT NULL,
    line      TEXT NOT NULL,
    actor_id  BIGINT,
    at        TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
