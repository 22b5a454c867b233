-- Server-wide Hydra events. An event gathers entrants (in groups that sit together),
-- seats them at tables, each table being one ordinary Hydra game (hydra_games, migration 0005), and
-- ends with awards written in one transaction. Everything the bot needs after a restart is here.
CREATE TABLE hydra_events (
    event_id                INTEGER PRIMARY KEY,
    guild_id                BIGINT NOT NULL,
    channel_id              BIGINT NOT NULL,
    message_id              BIGINT,
    leaderboard_message_id  BIGINT,
    results_message_id      BIGINT,
    scheduled_event_id      BIGINT,
    name                    TEXT NOT NULL,
    starts_at               TEXT NOT NULL,
    heads                   INTEGER NOT NULL,
    table_size              INTEGER NOT NULL,
    grace_minutes           INTEGER NOT NULL,
    language                TEXT NOT NULL,
    status                  TEXT NOT NULL,
    created_by              BIGINT NOT NULL,
    created_at              TEXT NOT NULL,
    began_at                TEXT,
    ended_at                TEXT,
    updated_at              TEXT NOT NULL
);

CREATE INDEX hydra_events_guild ON hydra_events (guild_id, status);

CREATE TABLE hydra_event_entrants (
    event_id    INTEGER NOT NULL REFERENCES hydra_events (event_id),
    user_id     BIGINT NOT NULL,
    name        TEXT NOT NULL,
    group_id    INTEGER NOT NULL,
    joined_seq  INTEGER NOT NULL,
    state       TEXT NOT NULL,
    table_no    INTEGER,
    checked_in  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, user_id)
);

CREATE TABLE hydra_event_tables (
    event_id      INTEGER NOT NULL REFERENCES hydra_events (event_id),
    table_no      INTEGER NOT NULL,
    game_id       BIGINT NOT NULL UNIQUE,
    thread_id     BIGINT,
    started_at    TEXT NOT NULL,
    grace_checked INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (event_id, table_no)
);

CREATE TABLE hydra_event_awards (
    event_id      INTEGER NOT NULL REFERENCES hydra_events (event_id),
    user_id       BIGINT NOT NULL,
    table_no      INTEGER NOT NULL,
    role_id       BIGINT,
    role_granted  INTEGER NOT NULL DEFAULT 0,
    awarded_at    TEXT NOT NULL,
    PRIMARY KEY (event_id, user_id)
);
