import { approveOrder } from '../../shared/orders/order-approvals';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';

export const route = defineRoute({
  id: 'orders.approve',
  method: 'POST',
  path: '/v1/orders/{id}/approve',
  tag: 'Orders',
  summary: 'Approve a sales or purchase order held for approval',
  description:
    "A sales order an approval rule held (on_hold, hold_type approval) becomes confirmed: the hold is lifted, approved_by and approved_at are recorded, and from now on its lines count as committed stock. A purchase order held for approval (POST /v1/orders/{id}/submit or /confirm) becomes confirmed the same way, its lines editable again, and the approval covers its current order_total (it can be sent; if it later grows past that total it needs approval again). Only the order's approver_user_id (the API key's user) or a user with the orders.approve permission may approve (403 insufficient_permissions naming the permission). Any other status, or a hold that is not an approval hold, is 409 order_invalid_transition with current_status (reason not_pending_approval). Emits order.approved.",
  scopes: ['orders:write'],
  params: idParams,
  response: Order,
  errors: ['order_invalid_transition', 'insufficient_permissions'],
  handler: async (ctx, { params }) => {
    const { order, previousOrder } = await approveOrder(ctx.db, ctx, params.id);
    await ctx.events.record('order.approved', order, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
