/**
 * Payables' part in rolling back an import batch (shared/migration/batch-rollback.ts): the vendor
 * bills that keep an imported purchase order, product or vendor. A reference query selects
 * (target, by_id) for the entity $1 and the target ids $2.
 */
export const PAYABLES_REFERENCES = {
  /** Bills of the purchase order. */
  billsOfPurchaseOrders: 'SELECT po_id AS target, id AS by_id FROM vendor_bills WHERE entity_id = $1 AND po_id = ANY($2)',
  /** Bill lines of the product. */
  billLinesOfProducts: 'SELECT product_id AS target, bill_id AS by_id FROM vendor_bill_lines WHERE entity_id = $1 AND product_id = ANY($2)',
  /** Bills of the vendor. */
  billsOfVendors: 'SELECT vendor_id AS target, id AS by_id FROM vendor_bills WHERE entity_id = $1 AND vendor_id = ANY($2)',
} as const;
