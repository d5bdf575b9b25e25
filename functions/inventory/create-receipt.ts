import { receiveStock } from '../../shared/inventory/stock-operations';
import { openOrderQuantitiesSql } from '../../shared/orders/open-order-quantities';
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
    'Posts an immutable receive transaction and opens a FIFO cost layer at unit_cost. While the balance is negative, the first units received settle the shortfall and only the rest open a layer. source_migration true marks a migrated row (reference_type source_migration) for the relink tool. The receipt posts a journal entry (source_type inventory_receipt, source_id the transaction) dated occurred_at (its UTC date; default today): debit inventory with the cents its layer adds to inventory_value (quantity × unit_cost rounded half away from zero to the cent), credit opening_balance_equity with the same; stock bought from a vendor is received on its purchase order instead (POST /v1/orders/{id}/receipts, credit received_not_billed). Units that settle negative stock open no layer: their cost goes to inventory_adjustments. In a closed period: 422 period_closed on occurred_at.',
  scopes: ['products:write'],
  body: ReceiptCreate,
  response: InventoryTransaction,
  successStatus: 201,
  errors: ['product_not_stockable', 'period_closed'],
  handler: (ctx, { body }) => receiveStock(ctx.db, ctx, body, openOrderQuantitiesSql),
});

export const handler = lambdaHandler(route, idempotency);
