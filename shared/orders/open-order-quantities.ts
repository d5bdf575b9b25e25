/**
 * Committed and on-order stock per (product, location), computed from open order lines: the one
 * definition behind inventory balances, the reorder report and kit availability (never stored).
 *
 * Open = order_status confirmed, partially_fulfilled or on_hold, not deleted, and not held for
 * approval (an approval rule's hold commits nothing until the order is approved). Each line counts its
 * unshipped (or, on a purchase order, unreceived) quantity: quantity − quantity_fulfilled.
 * - committed: lines of sales orders, and of invoices created directly (they ship their own goods).
 *   A kit's component lines count, the kit's own line does not (the components are what leave);
 *   quotes, returns, drafts, purchase orders and invoices billing a sales order never count.
 * - on_order: lines of purchase orders (quantity_fulfilled is the quantity received).
 * - Drop-ship lines (is_drop_ship, on a sales line or a kit's line, or on a drop-ship purchase
 *   order) count in neither: the vendor ships straight to the customer, so no stock leaves or arrives.
 * The location is the order's location_id, else the entity's default location.
 * Inventory reports these figures and composes this query into its own (it takes it as a parameter:
 * shared/inventory/open-order-quantities.ts).
 */
import type { OpenOrderQuantitiesSql } from '../inventory/open-order-quantities';
import { defaultLocationJoinSql } from '../inventory/locations';

/** Order statuses whose lines commit or expect stock. */
const OPEN_ORDER_STATUSES = ['confirmed', 'partially_fulfilled', 'on_hold'] as const;

/**
 * SQL selecting (product_id, location_id, committed, on_order) for entity `$1`, one row per pair
 * with any open quantity. `productIds` names a uuid[] parameter (e.g. '$2') to restrict products,
 * `locationId` a uuid parameter to restrict the location; `perProduct` groups by product only
 * (location_id is then the filter's, or null), one aggregation for entity-wide reports.
 * `productColumn` names an outer query's column (e.g. 'p.id') for a LATERAL subquery: one product's
 * lines through order_lines_product, so a report page reads only the lines of its own products.
 */
export const openOrderQuantitiesSql: OpenOrderQuantitiesSql = (options = {}) => {
  const products = options.productColumn
    ? `AND l.product_id = ${options.productColumn}`
    : options.productIds
      ? `AND l.product_id = ANY(${options.productIds}::uuid[])`
      : '';
  const location = options.locationId ? `AND coalesce(o.location_id, dl.id) = ${options.locationId}::uuid` : '';
  const locationColumn = options.perProduct ? `${options.locationId ? `${options.locationId}::uuid` : 'NULL::uuid'}` : 'coalesce(o.location_id, dl.id)';
  // The default location matters only to a location column or filter: without either, the join is
  // left out (a page of the reorder report plans it with one relation less).
  const defaultLocation = options.perProduct && !options.locationId ? '' : defaultLocationJoinSql('dl', 'o.location_id', 'o.entity_id');
  return `SELECT l.product_id, ${locationColumn} AS location_id,
      coalesce(sum(l.quantity - l.quantity_fulfilled) FILTER (WHERE o.document_type <> 'purchase_order'), 0) AS committed,
      coalesce(sum(l.quantity - l.quantity_fulfilled) FILTER (WHERE o.document_type = 'purchase_order'), 0) AS on_order
    FROM orders o
    JOIN order_lines l ON l.entity_id = o.entity_id AND l.order_id = o.id
    ${defaultLocation}
    LEFT JOIN order_lines kp ON kp.entity_id = l.entity_id AND kp.id = l.kit_parent_line_id
    WHERE o.entity_id = $1 AND o.deleted_at IS NULL AND o.order_status IN (${OPEN_ORDER_STATUSES.map((s) => `'${s}'`).join(', ')})
      AND (o.document_type IN ('sales_order', 'purchase_order') OR (o.document_type = 'invoice' AND o.converted_from_id IS NULL))
      AND NOT (o.order_status = 'on_hold' AND o.hold_type = 'approval')
      AND l.quantity > l.quantity_fulfilled ${products} ${location}
      AND NOT l.is_drop_ship AND NOT coalesce(kp.is_drop_ship, false)
      AND NOT EXISTS (SELECT 1 FROM order_lines c WHERE c.entity_id = l.entity_id AND c.kit_parent_line_id = l.id)
    GROUP BY l.product_id${options.perProduct ? '' : ', coalesce(o.location_id, dl.id)'}`;
};
