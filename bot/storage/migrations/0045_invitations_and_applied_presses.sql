-- Invitations to join a Hydra event together (cogs/hydra_events/invitations.py): `/hydra event join
-- friend1:@X` asks X first. They were kept in memory, so a restart forgot every open one and the friends'
-- Accept buttons said "no longer open". Stored now, with the posted message (edited when it expires) and
-- its expiry on the bot's clock, re-armed at start. Keys are random, so a stale button never answers a
-- newer invitation. One open invitation per inviter and event: asking again replaces it.
CREATE TABLE hydra_event_invitations (
    invite_key    BIGINT  PRIMARY KEY,
    event_id      INTEGER NOT NULL,
    inviter_id    BIGINT  NOT NULL,
    inviter_name  TEXT    NOT NULL,
    channel_id    BIGINT,
    message_id    BIGINT,
    asked_at      TEXT    NOT NULL,
    expires_at    TEXT    NOT NULL
);
CREATE INDEX hydra_event_invitations_by_event ON hydra_event_invitations (event_id, inviter_id);

-- The friends an invitation asks, in the order they were named, and whether each has accepted.
CREATE TABLE hydra_event_invited (
    invite_key  BIGINT  NOT NULL,
    seq         INTEGER NOT NULL,
    user_id     BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    accepted    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (invite_key, user_id)
);

-- Presses acknowledged before their change was stored, written to the shared journal first
-- (cogs/_acknowledged.py): a press's interaction id, inserted in the transaction of its change, so that
-- one the journal still holds after a crash is replayed only when this table does not hold it (never
-- twice). Rows are needed only until the journal that recorded the press was replayed; a start deletes
-- those older than a day.
CREATE TABLE applied_presses (
    press_id  BIGINT  PRIMARY KEY,
    at        TEXT    NOT NULL
);
