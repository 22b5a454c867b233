-- A late joiner's grace period (to act or press "I'm here" before being dropped as a no-show) runs from
-- when they sat down, not from the table's start: they were dropped seconds after joining. The time an
-- entrant sat down at a table that was already playing; NULL for those seated when their table opened
-- (the table's started_at).
ALTER TABLE hydra_event_entrants ADD COLUMN seated_at TEXT;
