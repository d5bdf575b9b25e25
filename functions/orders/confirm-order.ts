import { confirmOrder } from '../../shared/orders/order-posting';
import { getOrder } from '../../shared/orders/order-reads';
import { applySalesOrderDeposit } from '../../shared/payments/deposit-application';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';

export const route = defineRoute({
  id: 'orders.confirm',
  method: 'POST',
  path: '/v1/orders/{id}/confirm',
  tag: 'Orders',
  summary: 'Confirm a draft document',
  description:
    'Moves a draft to confirmed. Confirming an invoice posts it to AR in the same transaction: debit accounts_receivable order_total, credit sales_revenue subtotal − discount_total + shipping_total + fee_total, credit sales_tax_payable tax_total (zero lines left out; source_type invoice), dated the order_date (422 period_closed naming order_date when that period is closed); journal_entry_id names the entry and balance_due becomes order_total − amount_paid. An invoice converted from a sales order that holds a deposit (payments made against the sales order) takes it when it is posted, as QuickBooks applies a deposit: oldest payment first, up to the invoice balance_due, the application of each payment moving from the sales order to the invoice with an entry debit customer_credits, credit accounts_receivable (source_type payment_application, dated the order_date); the amount_paid of the sales order falls by as much, and order.updated is emitted for it. A sales order whose order_total is strictly over the threshold_amount of an active order approval rule matching its customer account or sales channel is held for approval instead: order_status on_hold, is_on_hold true, hold_type approval, approval_rule_id and approver_user_id set (the highest threshold exceeded wins, then the more specific rule), and order.approval_requested is emitted; POST /v1/orders/{id}/approve or /reject decides it. A draft purchase order is routed the same way by purchase order approval rules (by vendor, or every purchase order; see POST /v1/orders/{id}/submit). Confirming a return checks its quantities again (422 return_quantity_exceeded) and, when it comes from an invoice or has no source, posts its credit memo: debit sales_revenue and sales_tax_payable, credit accounts_receivable for the part applied to the source invoice (up to its balance_due, raising amount_credited on the invoice) and customer_credits for the rest (source_type credit_memo); the rest is customer credit, shown as a negative balance_due on the return. A return from a sales order posts nothing to AR. Any other status is 409 order_invalid_transition with current_status. Emits order.confirmed.',
  scopes: ['orders:write'],
  params: idParams,
  response: Order,
  errors: ['order_invalid_transition', 'period_closed', 'return_quantity_exceeded'],
  handler: async (ctx, { params }) => {
    const confirmed = await confirmOrder(ctx.db, ctx, params.id);
    const { previousOrder, heldForApproval } = confirmed;
    let { order } = confirmed;
    if (heldForApproval) {
      await ctx.events.record('order.approval_requested', order, previousOrder);
      return order;
    }
    // A posted invoice made from a sales order takes that order's deposit (prepayments follow the invoice).
    const deposit = order.document_type === 'invoice' ? await applySalesOrderDeposit(ctx.db, ctx, order.id) : null;
    if (deposit?.salesOrder) {
      const before = order;
      order = await getOrder(ctx.db, ctx.entityId, order.id);
      for (const key of ['amount_paid', 'payment_status', 'balance_due'] as const) {
        if (!(key in previousOrder) && before[key] !== order[key]) Object.assign(previousOrder, { [key]: before[key] });
      }
      const salesOrder = await getOrder(ctx.db, ctx.entityId, deposit.salesOrder.id);
      const moved = Object.entries(deposit.salesOrder.previous).filter(([key, value]) => salesOrder[key as keyof typeof salesOrder] !== value);
      // The sales order keeps showing the deposit as paid (now through its invoice): usually nothing moved.
      if (moved.length) await ctx.events.record('order.updated', salesOrder, Object.fromEntries(moved));
    }
    await ctx.events.record('order.confirmed', order, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
