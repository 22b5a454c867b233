-- Seasons and leagues (docs/players/seasons.md): a season scores the finished pod games of one server while
-- it is open, with the points rule it was opened with. One open season per server at a time, and a name is
-- used once per server (the export and /season standings find a season by it).
CREATE TABLE seasons (
    season_id           INTEGER PRIMARY KEY,
    guild_id            BIGINT NOT NULL,
    name                TEXT NOT NULL,
    win_points          INTEGER NOT NULL,
    survive_points      INTEGER NOT NULL,
    elimination_points  INTEGER NOT NULL,
    min_games           INTEGER NOT NULL,
    league_only         INTEGER NOT NULL DEFAULT 0,
    opened_by           BIGINT,
    opened_at           TEXT NOT NULL,
    closed_by           BIGINT,
    closed_at           TEXT
);

CREATE UNIQUE INDEX seasons_name ON seasons (guild_id, name);
CREATE UNIQUE INDEX seasons_one_open ON seasons (guild_id) WHERE closed_at IS NULL;

-- A pod game scored in a season (a game belongs to at most one), where its result was posted, an organiser's
-- decision on it (accept or void) once there is one, and its state as the domain last judged it (pending,
-- confirmed, disputed, accepted, voided), kept so the standings of a big season are summed in SQL.
CREATE TABLE season_games (
    game_id      INTEGER PRIMARY KEY REFERENCES pod_games (game_id),
    season_id    INTEGER NOT NULL REFERENCES seasons (season_id),
    channel_id   BIGINT,
    message_id   BIGINT,
    finished_at  TEXT,
    decision     TEXT,
    decided_by   BIGINT,
    decided_at   TEXT,
    status       TEXT NOT NULL DEFAULT 'pending'
);

CREATE INDEX season_games_season ON season_games (season_id, status, game_id);

-- Each player's line of a scored game, worked out once from the game's record when it finished, and their
-- answer to it (confirm or dispute; none yet while NULL).
CREATE TABLE season_game_players (
    game_id       INTEGER NOT NULL REFERENCES season_games (game_id),
    user_id       BIGINT NOT NULL,
    name          TEXT NOT NULL,
    seat          INTEGER NOT NULL,
    won           INTEGER NOT NULL,
    survived      INTEGER NOT NULL,
    eliminations  INTEGER NOT NULL,
    points        INTEGER NOT NULL,
    answer        TEXT,
    answered_at   TEXT,
    PRIMARY KEY (game_id, user_id)
);

-- Games started for the league (/pod start league:True): the only ones a league-only season scores.
CREATE TABLE season_league_games (
    game_id    INTEGER PRIMARY KEY REFERENCES pod_games (game_id),
    marked_by  BIGINT,
    marked_at  TEXT NOT NULL
);
