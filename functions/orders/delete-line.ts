import { deleteLine } from '../../shared/orders/delete-line';
import { getLine } from '../../shared/orders/order-reads';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { itemParams } from './update-line';

export const route = defineRoute({
  id: 'orders.items.delete',
  method: 'DELETE',
  path: '/v1/orders/{id}/items/{item_id}',
  tag: 'Orders',
  summary: 'Remove a line item from an order',
  description:
    "Removes the line (a kit's component lines with it) and recalculates the order; on an open order the status follows the remaining lines (deleting the last line not yet fully shipped or received makes the order fulfilled). Refused on a closed document (409 order_locked), on a line with an issued drop-ship purchase order (409 dropship_po_issued_blocks_line_edit), on a kit component line or a line partly fulfilled, returned or received (409 line_not_editable). A deletion that leaves the subtotal below a coupon's min_order_subtotal drops that coupon (its redemption released, event order_adjustment.deleted).",
  scopes: ['orders:write'],
  params: itemParams,
  response: deletedObject('order_line_item'),
  errors: ['order_locked', 'dropship_po_issued_blocks_line_edit', 'line_not_editable'],
  current: (ctx, { params }) => getLine(ctx.db, ctx.entityId, params.id, params.item_id, { lock: true }),
  handler: async (ctx, { params }) => {
    const { line, order, droppedCoupons } = await deleteLine(ctx.db, ctx.entityId, params.id, params.item_id);
    for (const coupon of droppedCoupons) await ctx.events.record('order_adjustment.deleted', coupon);
    await ctx.events.record('order.updated', order);
    return { id: line.id, object: 'order_line_item' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
