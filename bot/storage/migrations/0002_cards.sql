-- Card database. One row per card: the English name, a few columns to search by, and the
-- whole card as Scryfall-shaped JSON (Card.to_scryfall()). An import fills cards_new and swaps it in
-- within one transaction (bot/storage/cards.py keeps the same column list for cards_new), so readers
-- see the old card set or the new one, never a mix. Other tables store card NAMES, not foreign keys
-- to this table: an import drops and replaces it.
CREATE TABLE cards (
    name               TEXT PRIMARY KEY,
    layout             TEXT NOT NULL,
    type_line          TEXT NOT NULL,
    color_identity     TEXT NOT NULL,
    commander_legality TEXT NOT NULL,
    name_ja            TEXT,
    name_zh_hans       TEXT,
    name_zh_hant       TEXT,
    data               TEXT NOT NULL
);

-- Where the current card data came from: one row per successful import, the newest is current.
CREATE TABLE card_imports (
    sequence    INTEGER PRIMARY KEY,
    source      TEXT NOT NULL,
    format      TEXT NOT NULL,
    card_count  INTEGER NOT NULL,
    imported_at TEXT NOT NULL
);
