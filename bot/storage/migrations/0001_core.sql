-- Core tables: per-server settings. Released migrations are never edited; add a new file instead.
CREATE TABLE guild_settings (
    guild_id          BIGINT PRIMARY KEY,
    ruleset           TEXT,
    locale            TEXT,
    pod_threads       INTEGER NOT NULL DEFAULT 0,
    organiser_role_id BIGINT,
    winner_role_id    BIGINT,
    updated_at        TEXT NOT NULL
);
