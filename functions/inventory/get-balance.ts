import { getBalance } from '../../shared/inventory/inventory-balances';
import { openOrderQuantitiesSql } from '../../shared/orders/open-order-quantities';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { InventoryBalance } from '../../shared/inventory/schemas/inventory';

export const route = defineRoute({
  id: 'inventory.balances.get',
  method: 'GET',
  path: '/v1/inventory/balances/{id}',
  tag: 'Inventory',
  summary: 'Retrieve an inventory balance',
  description:
    "One product at one location. Demand fields follow the 2026-09-22 semantics: fulfilled sales plus posted build_consume draws, each physical decrement counted once for the product it drew; current_demand_units counts committed-but-unshipped customer demand only. inventory_value is the cents of the open FIFO layers: a layer is worth quantity × unit cost rounded half away from zero to the cent when it opens, a draw takes the layer's cents in proportion to the units it takes (the last units take what is left), and a transferred or built layer carries exactly the cents that left its source; units beyond the layers (negative stock) are worth 0. Every movement posts exactly the change it makes, so the inventory asset account equals the sum of inventory_value over all balances, to the cent.",
  scopes: ['products:read'],
  params: idParams,
  response: InventoryBalance,
  handler: (ctx, { params }) => getBalance(ctx.db, ctx.entityId, params.id, openOrderQuantitiesSql),
});

export const handler = lambdaHandler(route);
