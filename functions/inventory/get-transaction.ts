import { getTransaction } from '../../shared/inventory/inventory-transactions';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { InventoryTransaction } from '../../shared/inventory/schemas/inventory';

export const route = defineRoute({
  id: 'inventory.transactions.get',
  method: 'GET',
  path: '/v1/inventory/transactions/{id}',
  tag: 'Inventory',
  summary: 'Retrieve an inventory transaction',
  scopes: ['products:read'],
  params: idParams,
  response: InventoryTransaction,
  handler: (ctx, { params }) => getTransaction(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
