import { adjustStock } from '../../shared/inventory/stock-operations';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { AdjustmentCreate, InventoryTransaction } from '../../shared/inventory/schemas/inventory';

export const route = defineRoute({
  id: 'inventory.adjustments.create',
  method: 'POST',
  path: '/v1/inventory/adjustments',
  tag: 'Inventory',
  summary: 'Adjust stock',
  description:
    'Posts an immutable adjust transaction. A negative quantity draws FIFO layers (oldest first) and is refused with 422 insufficient_stock when it would take on hand below zero, unless allow_negative is true (units beyond the layers are then costed at the product cost, else the latest layer cost).',
  scopes: ['products:write'],
  body: AdjustmentCreate,
  response: InventoryTransaction,
  successStatus: 201,
  errors: ['insufficient_stock', 'product_not_stockable'],
  handler: (ctx, { body }) => adjustStock(ctx.db, ctx.entityId, ctx.events, body),
});

export const handler = lambdaHandler(route, idempotency);
