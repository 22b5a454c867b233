-- Pod games: a game is its append-only event log (pod_events); pod_games holds where its
-- board lives and, once finished, a summary for listings. The events are the truth (ARCHITECTURE.md).
CREATE TABLE pod_games (
    game_id        INTEGER PRIMARY KEY,
    guild_id       BIGINT,
    channel_id     BIGINT,
    message_id     BIGINT,
    created_by     BIGINT,
    created_at     TEXT NOT NULL,
    ruleset        TEXT NOT NULL,
    status         TEXT NOT NULL DEFAULT 'open',
    ended          TEXT,
    ended_at       TEXT,
    survivors      TEXT,
    tournament_id  BIGINT,
    round_number   INTEGER
);

CREATE INDEX pod_games_guild ON pod_games (guild_id, game_id);

CREATE TABLE pod_events (
    game_id   INTEGER NOT NULL REFERENCES pod_games (game_id),
    seq       INTEGER NOT NULL,
    kind      TEXT NOT NULL,
    actor_id  BIGINT,
    at        TEXT NOT NULL,
    data      TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
