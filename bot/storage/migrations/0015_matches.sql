-- Best-of-three matches (docs/rules/RULES.md, G9): each game is an ordinary pod game; a match is its own
-- append-only log of which game is which and who chose to play first. The events are the truth.
CREATE TABLE pod_matches (
    match_id       INTEGER PRIMARY KEY,
    guild_id       BIGINT,
    created_at     TEXT NOT NULL,
    ruleset        TEXT NOT NULL,
    tournament_id  BIGINT,
    round_number   INTEGER
);

CREATE TABLE pod_match_events (
    match_id  INTEGER NOT NULL REFERENCES pod_matches (match_id),
    seq       INTEGER NOT NULL,
    kind      TEXT NOT NULL,
    actor_id  BIGINT,
    at        TEXT NOT NULL,
    data      TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
);

-- The optional sideboard rule of 001 (T1), per server: off unless an admin turns it on.
CREATE TABLE guild_sideboard_rule (
    guild_id    BIGINT PRIMARY KEY,
    enabled     INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT NOT NULL
);

-- 1-vs-1 tournaments of matches (G9): which tournaments pair players into matches instead of pods, and
-- who had the bye in which round (a bye is a 2-0 match win, standard MTG practice).
CREATE TABLE tournament_match_format (
    tournament_id  BIGINT PRIMARY KEY,
    created_at     TEXT NOT NULL
);

CREATE TABLE tournament_match_byes (
    tournament_id  BIGINT NOT NULL,
    round_number   INTEGER NOT NULL,
    user_id        BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, round_number)
);
