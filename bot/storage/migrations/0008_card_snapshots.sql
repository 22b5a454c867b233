-- Derived card data kept beside the cards: the ready-built name index (and other tables
-- derived from the cards) of one import, so a start reads one row instead of rebuilding from every
-- card's JSON. ``sequence`` is the card_imports.sequence it was built from; ``format`` names what the
-- blob holds and how it is encoded (a row of another format or sequence is ignored and rebuilt).
-- Always derived, never the only copy: deleting the rows costs one slower start.
CREATE TABLE card_snapshots (
    sequence INTEGER NOT NULL,
    format   TEXT NOT NULL,
    data     BLOB NOT NULL,
    PRIMARY KEY (sequence, format)
);
