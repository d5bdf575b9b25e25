-- Up Migration

-- A return's credit applied to its source invoice when its credit memo posts is a credit memo move
-- like every later application, so a document's amount_credited is the sum of its moves
-- (shared/orders/document-money.ts). Existing returns get that move from their amount_credited.
INSERT INTO credit_memo_moves (id, entity_id, credit_memo_id, kind, invoice_id, amount, move_date, journal_entry_id, created_by_user_id, created_at)
SELECT gen_random_uuid(), r.entity_id, r.id, 'application', r.source_order_id, r.amount_credited - coalesce(later.applied, 0), r.order_date::date,
  r.journal_entry_id, r.created_by_user_id, r.updated_at
FROM orders r
LEFT JOIN (SELECT entity_id, credit_memo_id, sum(amount) AS applied FROM credit_memo_moves WHERE kind = 'application' GROUP BY entity_id, credit_memo_id) later
  ON later.entity_id = r.entity_id AND later.credit_memo_id = r.id
WHERE r.document_type = 'return' AND r.journal_entry_id IS NOT NULL AND r.source_order_id IS NOT NULL
  AND r.amount_credited - coalesce(later.applied, 0) > 0;

-- Down Migration
DELETE FROM credit_memo_moves m USING orders r
WHERE m.entity_id = r.entity_id AND m.credit_memo_id = r.id AND m.kind = 'application' AND m.invoice_id = r.source_order_id
  AND m.journal_entry_id = r.journal_entry_id;
