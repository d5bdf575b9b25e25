import { confirmOrder } from '../../shared/data/order-posting';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/common';
import { Order } from '../../shared/schemas/order';

export const route = defineRoute({
  id: 'orders.confirm',
  method: 'POST',
  path: '/v1/orders/{id}/confirm',
  tag: 'Orders',
  summary: 'Confirm a draft document',
  description:
    'Moves a draft to confirmed. Confirming an invoice posts it to AR in the same transaction: debit accounts_receivable order_total, credit sales_revenue subtotal − discount_total + shipping_total + fee_total, credit sales_tax_payable tax_total (zero lines left out; source_type invoice), dated the order_date (422 period_closed naming order_date when that period is closed); journal_entry_id names the entry and balance_due becomes order_total − amount_paid. Any other status is 409 order_invalid_transition with current_status. Emits order.confirmed.',
  scopes: ['orders:write'],
  params: idParams,
  response: Order,
  errors: ['order_invalid_transition', 'period_closed'],
  handler: async (ctx, { params }) => {
    const { order, previousOrder } = await confirmOrder(ctx.db, ctx, params.id);
    await ctx.events.record('order.confirmed', order, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route);
