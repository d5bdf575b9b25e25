/**
 * Payments' part in rolling back an import batch (shared/migration/batch-rollback.ts): the payments
 * that keep an imported order or account. A reference query selects (target, by_id) for the entity
 * $1 and the target ids $2.
 */
export const PAYMENT_REFERENCES = {
  /** Payments taken on the order. */
  paymentsOfOrders: 'SELECT order_id AS target, id AS by_id FROM payments WHERE entity_id = $1 AND order_id = ANY($2)',
  /** Payments applied to the order. */
  applicationsToOrders: 'SELECT order_id AS target, payment_id AS by_id FROM payment_applications WHERE entity_id = $1 AND order_id = ANY($2)',
  /** Payments of the customer account. */
  paymentsOfAccounts: 'SELECT account_id AS target, id AS by_id FROM payments WHERE entity_id = $1 AND account_id = ANY($2)',
} as const;
