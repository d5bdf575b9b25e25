import { archiveOrder } from '../../shared/orders/order-archive';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';

export const route = defineRoute({
  id: 'orders.archive',
  method: 'POST',
  path: '/v1/orders/{id}/archive',
  tag: 'Orders',
  summary: 'Archive a closed document',
  description:
    'Files a closed document away: cancelled, voided or fulfilled documents, posted invoices and returns, expired or converted quotes. An invoice or a return is archived only with balance_due 0 (nothing owed, no credit left to apply or refund); anything else is 422 order_not_archivable with details.reason (not_closed or balance_owing). An archived document is left out of GET /v1/orders unless archived=true or all, is read-only (every write but unarchive is 409 order_archived), and its balance_due is 0 (purchase orders and quotes keep theirs). Archiving an archived document answers it unchanged. Emits order.archived.',
  scopes: ['orders:write'],
  params: idParams,
  response: Order,
  errors: ['order_not_archivable'],
  handler: async (ctx, { params }) => {
    const { order, previousOrder, changed } = await archiveOrder(ctx.db, ctx.entityId, params.id);
    if (changed) await ctx.events.record('order.archived', order, previousOrder);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
