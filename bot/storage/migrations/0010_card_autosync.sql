-- Cards always current. Released migrations are never edited; add a new file instead.

-- The running bot's scheduled card sync: when it last tried and last succeeded, so "at most once a day"
-- and the back-off after failures hold across restarts. One row (id 1).
CREATE TABLE card_sync_state (
    id            INTEGER PRIMARY KEY,
    last_attempt  TEXT,
    last_success  TEXT,
    last_error    TEXT,
    failures      INTEGER NOT NULL DEFAULT 0
);

-- A registered deck whose verdict changed when new card data arrived (a new ban, a card now known):
-- its owner is told once (notified_at set after the private notice), and /deck list shows it until
-- the deck is registered again. problems: JSON [[key, card]] of the problems new in the verdict.
CREATE TABLE deck_verdict_changes (
    deck_id      INTEGER PRIMARY KEY,
    old_status   TEXT NOT NULL,
    new_status   TEXT NOT NULL,
    problems     TEXT NOT NULL,
    changed_at   TEXT NOT NULL,
    notified_at  TEXT
);

-- The language a user last used with /deck (Discord tells it only during an interaction), for notices
-- sent later in a private message.
CREATE TABLE user_languages (
    user_id      BIGINT PRIMARY KEY,
    language     TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
