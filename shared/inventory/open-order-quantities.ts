/**
 * Committed and on-order stock come from open order lines, which the orders capability owns
 * (shared/orders/open-order-quantities.ts defines them). Inventory may not import orders, so every
 * inventory function that reports them takes the owner's query from its caller (a route, or orders
 * and payables as they move stock) and composes it as a subquery: the reorder report filters and
 * pages on it in SQL, so an answer computed apart from the query would not do.
 */

/** Options of the owner's query; see openOrderQuantitiesSql in shared/orders/open-order-quantities.ts. */
interface OpenOrderQuantitiesOptions {
  productIds?: string;
  productColumn?: string;
  locationId?: string;
  perProduct?: boolean;
}

/** SQL selecting (product_id, location_id, committed, on_order) of entity `$1`'s open order lines. */
export type OpenOrderQuantitiesSql = (options?: OpenOrderQuantitiesOptions) => string;
