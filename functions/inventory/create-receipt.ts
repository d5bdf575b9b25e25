import { receiveStock } from '../../shared/inventory/stock-operations';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { InventoryTransaction, ReceiptCreate } from '../../shared/inventory/schemas/inventory';

export const route = defineRoute({
  id: 'inventory.receipts.create',
  method: 'POST',
  path: '/v1/inventory/receipts',
  tag: 'Inventory',
  summary: 'Receive stock',
  description:
    'Posts an immutable receive transaction and opens a FIFO cost layer at unit_cost. While the balance is negative, the first units received settle the shortfall and only the rest open a layer. source_migration true marks a migrated row (reference_type source_migration) for the relink tool.',
  scopes: ['products:write'],
  body: ReceiptCreate,
  response: InventoryTransaction,
  successStatus: 201,
  errors: ['product_not_stockable'],
  handler: (ctx, { body }) => receiveStock(ctx.db, ctx.entityId, ctx.events, body),
});

export const handler = lambdaHandler(route, idempotency);
