-- Statistics of pod games (bot/storage/stats.py): one row per finished game and one per player of it,
-- written in the same transaction as the game's last event, so the figures never lag or disagree with
-- the games. Older games are summarised from their stored events when the bot starts (idempotent).
-- Figures are per server: every query names guild_id first, and the indexes start with it.
-- counted = 0 for a game stopped before turn 1 (no player rows): kept so the backfill skips it.
-- A member deleted with /privacy delete keeps a negative pseudonym here, named "deleted member".
CREATE TABLE stats_games (
    game_id           INTEGER PRIMARY KEY REFERENCES pod_games (game_id),
    guild_id          BIGINT,
    counted           INTEGER NOT NULL,
    ended_at          TEXT,
    month             TEXT,
    turns             INTEGER NOT NULL,
    duration_seconds  INTEGER,
    ended             TEXT NOT NULL,
    winner_id         BIGINT,
    player_count      INTEGER NOT NULL,
    tournament_id     BIGINT
);

CREATE INDEX stats_games_guild_turns ON stats_games (guild_id, counted, turns);
CREATE INDEX stats_games_guild_month ON stats_games (guild_id, counted, month);

-- The game's turns, length and finish are repeated on each player row: a member's figures are then one
-- index range of this table, without a join. win_streak is the member's run of wins in this server up to
-- and including this game (0 for a game not won), written at the finish from their previous row: the
-- longest streaks are then a MAX per member instead of a window over every game.
CREATE TABLE stats_players (
    game_id           INTEGER NOT NULL REFERENCES stats_games (game_id),
    guild_id          BIGINT,
    user_id           BIGINT NOT NULL,
    name              TEXT NOT NULL,
    seat              INTEGER NOT NULL,
    commander         TEXT,
    partner           TEXT,
    colour_identity   TEXT,
    deck              TEXT,
    place             INTEGER NOT NULL,
    won               INTEGER NOT NULL,
    eliminated_how    TEXT,
    eliminated_by     BIGINT,
    eliminated_turn   INTEGER,
    ended_at          TEXT,
    month             TEXT,
    turns             INTEGER NOT NULL,
    duration_seconds  INTEGER,
    win_streak        INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- Covering indexes: each server-wide figure (games and wins per member, per commander, per colour
-- identity; the longest streaks) is read from one of them alone, in its order, without the table.
CREATE INDEX stats_players_guild_user ON stats_players (guild_id, user_id, ended_at, game_id, won, win_streak);
CREATE INDEX stats_players_guild_commander ON stats_players (guild_id, commander, won);
CREATE INDEX stats_players_guild_partner ON stats_players (guild_id, partner, won);
CREATE INDEX stats_players_guild_identity ON stats_players (guild_id, colour_identity, won);
CREATE INDEX stats_players_guild_eliminated_by ON stats_players (guild_id, eliminated_by);
