-- Board presses whose change is stored (bot/storage/press_journal.py): the press's interaction id, written
-- in the same transaction as its event, so that a press recorded in the journal before a crash is applied
-- on restart only when this table does not hold it (never twice). Rows are only needed until the journal
-- that recorded the press has been replayed; a start deletes those older than a day.
CREATE TABLE pod_presses (
    press_id  BIGINT  PRIMARY KEY,
    game_id   INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    at        TEXT    NOT NULL
);
