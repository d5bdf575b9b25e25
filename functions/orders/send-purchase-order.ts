import { sendPurchaseOrder } from '../../shared/orders/purchase-orders';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';
import { PurchaseOrderSend } from '../../shared/orders/schemas/purchase-order-send';

export const route = defineRoute({
  id: 'orders.send',
  method: 'POST',
  path: '/v1/orders/{id}/send',
  tag: 'Purchasing',
  summary: 'Send a purchase order to its vendor',
  description:
    "Records that the purchase order went to its vendor: sent_at now and sent_to the body's email, else the vendor's email (400 parameter_missing naming email when neither exists). A draft is committed by sending it (order_status confirmed); a confirmed or partially received purchase order may be sent again, which records the new time and address and keeps its status. A purchase order without lines is 400 parameter_invalid. A draft or confirmed purchase order whose order_total is strictly over the threshold of an active purchase order approval rule and that no approval covers (never approved, or approved at a lower total) is 409 po_approval_required with order_total, approval_rule_id and threshold_amount: submit it (POST /v1/orders/{id}/submit) and have it approved first. Any other document or status (on hold, fully received, cancelled) is 409 order_invalid_transition with current_status. The API delivers no mail itself: the purchase_order.sent event carries the order, sent_to and message for your mailer.",
  scopes: ['purchasing:write'],
  params: idParams,
  body: PurchaseOrderSend,
  response: Order,
  errors: ['order_invalid_transition', 'po_approval_required'],
  handler: async (ctx, { params, body }) => {
    const { order, previousOrder } = await sendPurchaseOrder(ctx.db, ctx.entityId, params.id, body ?? {});
    await ctx.events.record('purchase_order.sent', { ...order, message: body?.message ?? null }, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
