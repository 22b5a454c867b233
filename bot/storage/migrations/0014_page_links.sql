-- Secret links to the live web pages (bot/web): one per resource (a pod game, a tournament, a Hydra event).
-- The token is the only thing that opens a page; revoking replaces the row, so the old link answers 404.
-- Stored as given (not hashed) so the organiser can be shown the same link again: anyone who can read
-- this file can already read the games themselves.
CREATE TABLE page_links (
    kind        TEXT    NOT NULL,            -- pod | tournament | hydra_event
    resource_id INTEGER NOT NULL,
    token       TEXT    NOT NULL UNIQUE,
    guild_id    BIGINT,
    created_by  BIGINT,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (kind, resource_id)
);
