-- When each live board message was posted, on the bot's clock: Discord caps edits to messages older than one
-- hour (a few per hour per channel), so a board is posted afresh before it gets there, and a restart must
-- still know how old every board is. Keyed by the message: every board kind keeps its own message ids.
CREATE TABLE board_posts (
    message_id  BIGINT  PRIMARY KEY,
    channel_id  BIGINT  NOT NULL,
    posted_at   TEXT    NOT NULL
);
