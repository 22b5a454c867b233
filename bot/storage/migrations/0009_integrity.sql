-- Trustworthy games.
-- Event logs: one event per (game, seq), stated as a named unique index as well as by the primary key,
-- so a second writer that raced the first is rejected and retries on the fresh log (bot/services/pods.py).
CREATE UNIQUE INDEX IF NOT EXISTS pod_events_game_seq ON pod_events (game_id, seq);
CREATE UNIQUE INDEX IF NOT EXISTS hydra_actions_game_seq ON hydra_actions (game_id, seq);

-- Recovery after a crash: the last event each pod board shows. On start the bot edits every board
-- whose shown_seq lags its log (bot/services/reconcile.py). Boards of finished games count as shown.
ALTER TABLE pod_games ADD COLUMN shown_seq INTEGER;
UPDATE pod_games SET shown_seq = (SELECT MAX(seq) FROM pod_events WHERE pod_events.game_id = pod_games.game_id)
    WHERE status = 'finished';

-- When a closed democratic vote's result was shown to its table; a vote closed but never shown is
-- shown on start. Votes closed before this migration count as shown.
ALTER TABLE tournament_games ADD COLUMN announced_at TEXT;
UPDATE tournament_games SET announced_at = vote_closed_at WHERE vote_closed_at IS NOT NULL;

-- Members' data rights: when the bot left a server. Its data is deleted after the retention period
-- ([privacy] retention_days); coming back before then cancels the deletion.
CREATE TABLE guild_departures (
    guild_id  BIGINT PRIMARY KEY,
    left_at   TEXT NOT NULL
);
