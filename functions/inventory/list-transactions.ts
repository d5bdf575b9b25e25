import { onFirstUse } from '../../shared/schemas/lazy';
import { listTransactions } from '../../shared/inventory/inventory-transactions';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { filter, listEnvelope, listQuery } from '../../shared/schemas/list';
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
    product_id: filter.id(),
    location_id: filter.id(),
    transaction_type: filter.oneOf(TRANSACTION_TYPES),
    reference_type: filter.text({ min: 1, max: 40 }),
    reference_id: filter.id(),
    group_id: filter.id('The rows of one transfer or kit build.'),
  }),
  response: onFirstUse(() => listEnvelope(InventoryTransaction)),
  list: true,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listTransactions(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before });
  },
});

export const handler = lambdaHandler(route);
