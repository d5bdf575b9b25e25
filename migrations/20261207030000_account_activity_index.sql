-- Up Migration

-- The account activity report pages one account's lines by (entry_date, id) and sums the lines of
-- the cursor's day: one index serves both, and every use of the (entity, account, date) index it
-- replaces.
CREATE INDEX journal_lines_account_activity ON journal_lines (entity_id, account_id, entry_date, id);
DROP INDEX journal_lines_account_date;

-- Down Migration
CREATE INDEX journal_lines_account_date ON journal_lines (entity_id, account_id, entry_date);
DROP INDEX journal_lines_account_activity;
