import { listBalances } from '../../shared/inventory/inventory-balances';
import { openOrderQuantitiesSql } from '../../shared/orders/open-order-quantities';
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
  description:
    "Newest first (a balance is created by the first movement of its product at its location). Filters combine with AND. inventory_value is the cents of the open FIFO layers: a layer is worth quantity × unit cost rounded half away from zero to the cent when it opens, a draw takes the layer's cents in proportion to the units it takes (the last units take what is left), and a transferred or built layer carries exactly the cents that left its source; units beyond the layers (negative stock) are worth 0. Every movement posts exactly the change it makes, so the inventory asset account equals the sum of inventory_value over all balances, to the cent.",
  scopes: ['products:read'],
  query: listQuery({ product_id: param.id(), location_id: param.id(), stock_status: param.oneOf(['in_stock', 'low_stock', 'out_of_stock']) }),
  response: listEnvelope(InventoryBalance),
  list: true,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listBalances(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before }, openOrderQuantitiesSql);
  },
});

export const handler = lambdaHandler(route);
