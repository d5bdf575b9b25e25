import { receiveReturn } from '../../shared/orders/order-return-receipts';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { OrderReturnReceipt, OrderReturnReceiptCreate } from '../../shared/orders/schemas/order-returns';

export const route = defineRoute({
  id: 'orders.receive_return',
  method: 'POST',
  path: '/v1/orders/{id}/receive-return',
  tag: 'Orders',
  summary: 'Receive the goods of a confirmed return',
  description:
    "Receives lines of a confirmed (or partially received) return; without lines, everything not yet received. Each unit raises the return line's quantity_fulfilled (received) and the source line's quantity_returned, and the return's fulfillment_status and order_status move (fulfilled when every line is received). A restocked line writes a `return` inventory movement into location_id (default the return's) at the cost the units left at: the FIFO layers of the source's sale_fulfillment draws, first shipped first back (a plain return at the product cost); the ledger gets debit inventory, credit cost_of_goods_sold (source_type order_return) with exactly the cents the new layers add to inventory_value, dated received_date (default today UTC; before the return's own date 400 on received_date; in a closed period 422 period_closed). A line with restock false (damaged) moves no stock and its cost stays in COGS. Name a kit's line; its components come back. 422 order_over_fulfillment beyond a line's unreceived quantity. Emits return.received.",
  scopes: ['orders:write'],
  params: idParams,
  body: OrderReturnReceiptCreate,
  response: OrderReturnReceipt,
  successStatus: 201,
  errors: ['order_invalid_transition', 'order_over_fulfillment', 'period_closed'],
  handler: async (ctx, { params, body }) => {
    const receipt = await receiveReturn(ctx.db, ctx, params.id, body ?? {});
    await ctx.events.record('return.received', receipt);
    return receipt;
  },
});

export const handler = lambdaHandler(route, idempotency);
