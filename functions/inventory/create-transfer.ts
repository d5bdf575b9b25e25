import { transferStock } from '../../shared/inventory/stock-operations';
import { openOrderQuantitiesSql } from '../../shared/orders/open-order-quantities';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { InventoryTransfer, TransferCreate } from '../../shared/inventory/schemas/inventory';

export const route = defineRoute({
  id: 'inventory.transfers.create',
  method: 'POST',
  path: '/v1/inventory/transfers',
  tag: 'Inventory',
  summary: 'Transfer stock between locations',
  description:
    'Posts two transfer transactions sharing a group_id: out of from_location_id (FIFO draw) and into to_location_id, which receives the drawn layers at their own unit costs. Refused with 422 insufficient_stock when the source lacks the quantity. The new layers carry exactly the cents that left, so a transfer posts nothing unless it settles negative stock at the destination (that part to inventory_adjustments, dated occurred_at); occurred_at in a closed period is 422 period_closed.',
  scopes: ['products:write'],
  body: TransferCreate,
  response: InventoryTransfer,
  successStatus: 201,
  errors: ['insufficient_stock', 'product_not_stockable', 'period_closed'],
  handler: (ctx, { body }) => transferStock(ctx.db, ctx, body, openOrderQuantitiesSql),
});

export const handler = lambdaHandler(route, idempotency);
