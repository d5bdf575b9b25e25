import { adjustStock } from '../../shared/inventory/stock-operations';
import { openOrderQuantitiesSql } from '../../shared/orders/open-order-quantities';
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
    "Posts an immutable adjust transaction. A negative quantity draws FIFO layers (oldest first) and is refused with 422 insufficient_stock when it would take on hand below zero, unless allow_negative is true (units beyond the layers are then costed at the product cost, else the latest layer cost, and are worth 0 in inventory_value until a receipt settles them). It posts a journal entry (source_type inventory_adjustment, source_id the transaction) dated occurred_at (its UTC date; default today): inventory moves by exactly the change of inventory_value in cents (a draw takes its layers' cents in proportion, a positive adjustment adds quantity × unit_cost rounded to the cent), against inventory_adjustments (Inventory Shrinkage and Adjustments). In a closed period: 422 period_closed on occurred_at.",
  scopes: ['products:write'],
  body: AdjustmentCreate,
  response: InventoryTransaction,
  successStatus: 201,
  errors: ['insufficient_stock', 'product_not_stockable', 'period_closed'],
  handler: (ctx, { body }) => adjustStock(ctx.db, ctx, body, openOrderQuantitiesSql),
});

export const handler = lambdaHandler(route, idempotency);
