import { submitPurchaseOrder } from '../../shared/orders/order-approvals';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';

export const route = defineRoute({
  id: 'orders.submit',
  method: 'POST',
  path: '/v1/orders/{id}/submit',
  tag: 'Purchasing',
  summary: 'Submit a purchase order for approval',
  description:
    "A draft purchase order, or a confirmed one whose order_total grew past the total its approval covered, whose order_total is strictly over the threshold_amount of an active purchase order approval rule (document_type purchase_order, naming its vendor or no vendor; the highest threshold exceeded wins, then the vendor's rule) is held for approval: order_status on_hold, is_on_hold true, hold_type approval, approval_rule_id and approver_user_id set. While it waits its lines are locked (line_editability reasons po_pending_approval_edit_locked; line and amount edits are 409 order_locked with that reason and suggested_action reject_order). POST /v1/orders/{id}/approve (→ confirmed, ready to send) or /reject (→ draft with the reason) decides it, by the rule's approver or a user with the orders.approve permission. Confirming a draft purchase order routes it the same way. A purchase order no active rule routes at its total, or that its approval still covers, needs no approval: 409 order_invalid_transition with reason approval_not_required (send or confirm it directly). Any other document or status is 409 order_invalid_transition with current_status. Emits order.approval_requested.",
  scopes: ['purchasing:write'],
  params: idParams,
  response: Order,
  errors: ['order_invalid_transition'],
  handler: async (ctx, { params }) => {
    const { order, previousOrder } = await submitPurchaseOrder(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('order.approval_requested', order, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
