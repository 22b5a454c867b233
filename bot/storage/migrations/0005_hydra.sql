-- Face the Hydra. A game is its seed plus its action log (hydra_actions): replaying the
-- actions through the engine rebuilds the state exactly, so nothing else about the board is stored.
-- hydra_games says where the table lives and, once finished, how it ended; hydra_profiles keeps each
-- challenger's record and The Slayer (H13).
CREATE TABLE hydra_games (
    game_id          INTEGER PRIMARY KEY,
    guild_id         BIGINT,
    channel_id       BIGINT,
    message_id       BIGINT,
    turn_message_id  BIGINT,
    created_by       BIGINT NOT NULL,
    created_at       TEXT NOT NULL,
    heads            INTEGER NOT NULL,
    seed             BIGINT NOT NULL,
    language         TEXT NOT NULL DEFAULT 'en',
    window_seconds   INTEGER NOT NULL DEFAULT 20,
    idle_minutes     INTEGER NOT NULL DEFAULT 30,
    status           TEXT NOT NULL DEFAULT 'lobby',
    outcome          TEXT,
    turns            INTEGER,
    heads_severed    INTEGER,
    updated_at       TEXT NOT NULL
);

CREATE INDEX hydra_games_status ON hydra_games (status, game_id);
CREATE INDEX hydra_games_channel ON hydra_games (channel_id, status);

CREATE TABLE hydra_seats (
    game_id  INTEGER NOT NULL REFERENCES hydra_games (game_id),
    seat     INTEGER NOT NULL,
    user_id  BIGINT NOT NULL,
    name     TEXT NOT NULL,
    heroes   TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

CREATE TABLE hydra_actions (
    game_id   INTEGER NOT NULL REFERENCES hydra_games (game_id),
    seq       INTEGER NOT NULL,
    line      TEXT NOT NULL,
    actor_id  BIGINT,
    at        TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE hydra_profiles (
    user_id         BIGINT PRIMARY KEY,
    games           INTEGER NOT NULL DEFAULT 0,
    wins            INTEGER NOT NULL DEFAULT 0,
    heads_severed   INTEGER NOT NULL DEFAULT 0,
    best_win_heads  INTEGER,
    best_win_turns  INTEGER,
    slayer_at       TEXT,
    updated_at      TEXT NOT NULL
);
