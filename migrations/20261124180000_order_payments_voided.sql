-- Up Migration

-- orders.amount_voided: what voided payments had applied to the document. payment_status reads it
-- (a document whose payments were all voided, with nothing paid left, is `voided`); it only grows.
ALTER TABLE orders ADD COLUMN amount_voided numeric(19,2) NOT NULL DEFAULT 0 CHECK (amount_voided >= 0);

-- A voided invoice's payment_status is voided (before: the status it had, unpaid).
UPDATE orders SET payment_status = 'voided' WHERE order_status = 'voided';

-- Down Migration

ALTER TABLE orders DROP COLUMN amount_voided;
