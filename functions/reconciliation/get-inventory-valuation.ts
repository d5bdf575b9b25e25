import { todayUtc } from '../../shared/dates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { inventoryValuation } from '../../shared/inventory/inventory-valuation';
import { InventoryValuation, InventoryValuationQuery } from '../../shared/inventory/schemas/inventory-valuation';
import { entityScopedParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'reconciliation.inventory_valuation',
  method: 'GET',
  path: '/v1/entities/{entity_id}/reconciliation/inventory-valuation',
  tag: 'Reports',
  summary: 'Inventory valuation per product and location, as of a date',
  description:
    "Quantity on hand and value per product and location at the end of as_of_date (default today, UTC), from the FIFO cost layers: each layer carries its value in cents, a movement takes effect on its occurred_at, and a past date is rebuilt from today's layers and balances by taking back the movements that occurred after it (the cents they drew, the units they moved). totals.value equals inventory_account_balance, the inventory asset account on that date, to the cent: every movement posts its value change on its date. Units beyond the layers (negative stock) count in quantity_on_hand at no value. Products and locations with neither stock nor value are left out. Items come in pages of limit (default 100, up to 1000) by product_id, then location_id: pass next_cursor as starting_after for the next page, or as ending_before to page backwards (not both: 400 on ending_before); a cursor is opaque and belongs to its entity and mode (another's, or a malformed one, is a 400 on its parameter). totals and inventory_account_balance cover every item on every page.",
  scopes: ['accounting:read', 'migration:read'],
  scopeMatch: 'any',
  params: entityScopedParams,
  query: InventoryValuationQuery,
  response: InventoryValuation,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return inventoryValuation(ctx.db, ctx, { ...query, as_of_date: query.as_of_date ?? todayUtc() });
  },
});

export const handler = lambdaHandler(route);
