-- Up Migration

-- AP aging as of an earlier date adds back the payment applications dated after it. A bill's
-- last_applied_on (the date of its latest live application; null while it has none) says which
-- bills have any, so the report looks up the applications of those bills alone instead of reading
-- every application dated after the date (a year back, a year of payments). Kept by the AP
-- payments writer on every application and void, like paid_off_on.
ALTER TABLE vendor_bills ADD COLUMN last_applied_on date;
UPDATE vendor_bills b SET last_applied_on = a.last_applied_on
  FROM (SELECT entity_id, bill_id, max(applied_on) AS last_applied_on FROM ap_payment_applications
         WHERE voided_on IS NULL GROUP BY entity_id, bill_id) a
 WHERE a.entity_id = b.entity_id AND a.bill_id = b.id;
CREATE INDEX vendor_bills_last_applied ON vendor_bills (entity_id, last_applied_on) INCLUDE (bill_date) WHERE journal_entry_id IS NOT NULL;

-- Down Migration
DROP INDEX vendor_bills_last_applied;
ALTER TABLE vendor_bills DROP COLUMN last_applied_on;
