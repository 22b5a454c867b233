-- Tournaments (docs/rules/RULES.md, T1–T3): entrants, rounds of pods linked to pod games, finished
-- games with their democratic vote (T3) and prize figures (T2), and the organisers' audit log.
CREATE TABLE tournaments (
    tournament_id      INTEGER PRIMARY KEY,
    guild_id           BIGINT NOT NULL,
    channel_id         BIGINT,
    name               TEXT NOT NULL,
    scoring            TEXT NOT NULL,
    win_points         INTEGER NOT NULL,
    draw_points        INTEGER NOT NULL,
    survival_points    INTEGER NOT NULL,
    vote_points        INTEGER NOT NULL,
    elimination_points INTEGER NOT NULL,
    rounds             INTEGER NOT NULL,
    remainder_size     INTEGER NOT NULL DEFAULT 3,
    vote_minutes       INTEGER NOT NULL DEFAULT 10,
    seed               BIGINT NOT NULL,
    current_round      INTEGER NOT NULL DEFAULT 0,
    status             TEXT NOT NULL DEFAULT 'open',
    created_by         BIGINT,
    created_at         TEXT NOT NULL
);

CREATE INDEX tournaments_guild ON tournaments (guild_id, status);

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    user_id       BIGINT NOT NULL,
    name          TEXT NOT NULL,
    joined_round  INTEGER NOT NULL,
    dropped_round INTEGER,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_pods (
    pod_id        INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    round_number  INTEGER NOT NULL,
    table_number  INTEGER NOT NULL,
    game_id       BIGINT,
    UNIQUE (tournament_id, round_number, table_number)
);

CREATE TABLE tournament_pod_seats (
    pod_id  INTEGER NOT NULL REFERENCES tournament_pods (pod_id),
    seat    INTEGER NOT NULL,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (pod_id, seat),
    UNIQUE (pod_id, user_id)
);

-- One row per finished pod game of a tournament; game_id is the pod tracker's game id.
CREATE TABLE tournament_games (
    game_id        BIGINT PRIMARY KEY,
    tournament_id  INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    round_number   INTEGER NOT NULL,
    channel_id     BIGINT,
    draw           INTEGER NOT NULL DEFAULT 0,
    stopped        INTEGER NOT NULL DEFAULT 0,
    finished_at    TEXT NOT NULL,
    vote_deadline  TEXT,
    vote_closed_at TEXT,
    vote_message_id BIGINT
);

CREATE INDEX tournament_games_open_votes ON tournament_games (vote_closed_at, vote_deadline);

CREATE TABLE tournament_game_players (
    game_id         BIGINT NOT NULL REFERENCES tournament_games (game_id),
    user_id         BIGINT NOT NULL,
    seat            INTEGER NOT NULL,
    survived        INTEGER NOT NULL,
    eliminations    INTEGER NOT NULL DEFAULT 0,
    combat_damage   INTEGER NOT NULL DEFAULT 0,
    commander_kills INTEGER NOT NULL DEFAULT 0,
    commander_mana  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);

-- One vote per voter and game (T3); a changed vote replaces the row.
CREATE TABLE tournament_votes (
    game_id  BIGINT NOT NULL REFERENCES tournament_games (game_id),
    voter_id BIGINT NOT NULL,
    votee_id BIGINT NOT NULL,
    cast_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, voter_id)
);

-- T2 "most mana in pool at once": a player's report, counted once another player at the table confirms.
-- game_id is the pod game's id; the report may come while the game is still running.
CREATE TABLE tournament_mana_reports (
    report_id    INTEGER PRIMARY KEY,
    game_id      BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    amount       INTEGER NOT NULL,
    confirmed_by BIGINT,
    reported_at  TEXT NOT NULL
);

-- Audit log of organisers' corrections: who changed whose points, by how much, and why.
CREATE TABLE tournament_corrections (
    correction_id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    user_id       BIGINT NOT NULL,
    points        INTEGER NOT NULL,
    reason        TEXT NOT NULL,
    by_user_id    BIGINT NOT NULL,
    created_at    TEXT NOT NULL
);

-- Per-server tournament options: whether organisers may see who voted for whom (off by default).
CREATE TABLE tournament_guild_settings (
    guild_id                   BIGINT PRIMARY KEY,
    reveal_votes_to_organisers INTEGER NOT NULL DEFAULT 0
);
