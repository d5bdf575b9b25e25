import { receivePurchaseOrder } from '../../shared/orders/purchase-receipts';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { PurchaseReceipt, PurchaseReceiptCreate } from '../../shared/orders/schemas/purchase-orders';

export const route = defineRoute({
  id: 'orders.receipts.create',
  method: 'POST',
  path: '/v1/orders/{id}/receipts',
  tag: 'Purchasing',
  summary: 'Receive goods of a purchase order',
  description:
    "Receives lines of a confirmed or partially received purchase order (409 order_invalid_transition otherwise, with current_status). Each line's quantity_fulfilled counts the units received and received_floor follows it (the line's quantity can no longer go below it). Receiving more than a line's quantity not yet received is refused: 422 order_over_receipt naming lines[i].quantity, with details.remaining. Stocked lines write a receive inventory transaction at location_id (default the purchase order's) with a FIFO layer at unit_cost (default the line's), and stock events fire as for any receipt. Drop-ship lines (from POST /v1/orders/{id}/drop-ship-purchase-orders) put nothing on hand: they mark their sales line fulfilled by the same units and move that sales order's fulfillment. One GL entry dated received_at (422 period_closed naming received_at when that period is closed): debit inventory (stocked lines) and cost_of_goods_sold (drop-ship lines), credit received_not_billed. The purchase order becomes partially_fulfilled (partly received) or fulfilled (fully received). Emits purchase_order.received.",
  scopes: ['purchasing:write'],
  params: idParams,
  body: PurchaseReceiptCreate,
  response: PurchaseReceipt,
  successStatus: 201,
  errors: ['order_invalid_transition', 'order_over_receipt', 'period_closed'],
  handler: async (ctx, { params, body }) => {
    const { receipt } = await receivePurchaseOrder(ctx.db, ctx, params.id, body);
    await ctx.events.record('purchase_order.received', receipt);
    return receipt;
  },
});

export const handler = lambdaHandler(route, idempotency);
