-- Registered decks: one row per (server, user, deck name). The raw list is the truth; the
-- resolved cards (English names, JSON) and the verdict are derived from it and rewritten when the
-- server's ruleset or the card data (cards_version) changes. Card names, not foreign keys: a card
-- import replaces the cards table.
CREATE TABLE decks (
    deck_id        INTEGER PRIMARY KEY,
    guild_id       BIGINT NOT NULL,
    user_id        BIGINT NOT NULL,
    name           TEXT NOT NULL,
    name_key       TEXT NOT NULL,
    raw_list       TEXT NOT NULL,
    commanders     TEXT NOT NULL,
    resolved       TEXT NOT NULL,
    ruleset        TEXT NOT NULL,
    status         TEXT NOT NULL,
    verdict        TEXT NOT NULL,
    cards_version  TEXT NOT NULL,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    UNIQUE (guild_id, user_id, name_key)
);

CREATE INDEX decks_guild ON decks (guild_id, user_id);
