import { listTransactions } from '../../shared/inventory/inventory-transactions';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { InventoryTransaction, TRANSACTION_TYPES } from '../../shared/inventory/schemas/inventory';

export const route = defineRoute({
  id: 'inventory.transactions.list',
  method: 'GET',
  path: '/v1/inventory/transactions',
  tag: 'Inventory',
  summary: 'List inventory transactions',
  description: 'Newest first. Transactions are immutable; filters combine with AND.',
  scopes: ['products:read'],
  query: listQuery({
    product_id: param.id(),
    location_id: param.id(),
    transaction_type: param.oneOf(TRANSACTION_TYPES),
    reference_type: param.text({ min: 1, max: 40 }),
    reference_id: param.id(),
    group_id: param.id('The rows of one transfer or kit build.'),
  }),
  response: listEnvelope(InventoryTransaction),
  list: true,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listTransactions(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before });
  },
});

export const handler = lambdaHandler(route);
