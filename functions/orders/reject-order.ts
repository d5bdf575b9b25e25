import { rejectOrder } from '../../shared/orders/order-approvals';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';
import { OrderRejection } from '../../shared/orders/schemas/order-approval';

export const route = defineRoute({
  id: 'orders.reject',
  method: 'POST',
  path: '/v1/orders/{id}/reject',
  tag: 'Orders',
  summary: 'Reject a sales or purchase order held for approval',
  description:
    'A sales or purchase order an approval rule held (on_hold, hold_type approval) goes back to draft with rejected_by, rejected_at and rejection_reason (the required reason) recorded; it can be corrected and confirmed again, which routes it again (a purchase order: submit it again). Same deciders as approve (403 insufficient_permissions otherwise). A held order with payments is 409 (reason has_payments); any other status, or a hold that is not an approval hold, is 409 order_invalid_transition with current_status. Emits order.rejected.',
  scopes: ['orders:write'],
  params: idParams,
  body: OrderRejection,
  response: Order,
  errors: ['order_invalid_transition', 'insufficient_permissions'],
  handler: async (ctx, { params, body }) => {
    const { order, previousOrder } = await rejectOrder(ctx.db, ctx, params.id, body.reason);
    await ctx.events.record('order.rejected', order, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
