-- How current each import's card data is: the newest release date the data gives (YYYY-MM-DD), so a
-- card the data does not know can be reported as possibly newer than it ("cards up to 2022-04-29").
-- NULL for imports made before this column existed (their date is then the bundled data's, or unknown).
ALTER TABLE card_imports ADD COLUMN data_date TEXT;
