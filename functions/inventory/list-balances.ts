import { listBalances } from '../../shared/inventory/inventory-balances';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { InventoryBalance } from '../../shared/inventory/schemas/inventory';

export const route = defineRoute({
  id: 'inventory.balances.list',
  method: 'GET',
  path: '/v1/inventory/balances',
  tag: 'Inventory',
  summary: 'List inventory balances',
  description: 'Newest first (a balance is created by the first movement of its product at its location). Filters combine with AND.',
  scopes: ['products:read'],
  query: listQuery({ product_id: param.id(), location_id: param.id(), stock_status: param.oneOf(['in_stock', 'low_stock', 'out_of_stock']) }),
  response: listEnvelope(InventoryBalance),
  list: true,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listBalances(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before });
  },
});

export const handler = lambdaHandler(route);
