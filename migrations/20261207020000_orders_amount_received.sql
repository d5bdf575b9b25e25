-- Up Migration

-- What a document's own payment applications hold, net of the credit refunds gave back: the payments
-- capability's figure, stored so the orders capability derives amount_paid, payment_status and
-- balance_due from its own table (shared/orders/document-money.ts). A sales order's amount_paid adds
-- what its invoices were paid, so on a sales order the two differ.
ALTER TABLE orders ADD COLUMN amount_received numeric(19,2) NOT NULL DEFAULT 0;

UPDATE orders o SET amount_received =
  coalesce((SELECT sum(a.amount_applied) FROM payment_applications a JOIN payments p ON p.entity_id = a.entity_id AND p.id = a.payment_id
    WHERE a.entity_id = o.entity_id AND a.order_id = o.id AND p.status IN ('undeposited', 'deposited')), 0)
  - coalesce((SELECT sum(r.credit_amount) FROM refund_lines r WHERE r.entity_id = o.entity_id AND r.order_id = o.id), 0);

-- Down Migration
ALTER TABLE orders DROP COLUMN amount_received;
