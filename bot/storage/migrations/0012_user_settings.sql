-- Per-member settings that follow a person across servers: the language they chose with /config my-language.
CREATE TABLE user_settings (
    user_id    BIGINT PRIMARY KEY,
    language   TEXT,
    updated_at TEXT NOT NULL
);
