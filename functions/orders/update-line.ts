import { param, pathParams } from '../../shared/schemas/parameters';
import { getLine } from '../../shared/orders/order-reads';
import { updateLine } from '../../shared/orders/update-line';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { OrderLineItem } from '../../shared/orders/schemas/order';
import { OrderLineUpdate } from '../../shared/orders/schemas/order-requests';

export const itemParams = pathParams({ id: param.id('The order id.'), item_id: param.id('The line item id.') });

export const route = defineRoute({
  id: 'orders.items.update',
  method: 'PATCH',
  path: '/v1/orders/{id}/items/{item_id}',
  tag: 'Orders',
  summary: 'Update an order line item',
  description:
    "E5. Returns the line item; the whole order is recalculated in the same transaction. Without sell_rate (or its alias unit_price) a quantity change re-prices a catalog-priced line. A cancelled, voided, fulfilled or posted document refuses edits with 409 order_locked (suggested_action create_return, or duplicate_order for cancelled and voided ones); a paid document with suggested_action revise_order, unless override true is sent by a user holding orders.revision_override (403 insufficient_permissions otherwise): the edit then proceeds, revision_count increments and the override is audited. A purchase order awaiting approval (submitted, on_hold with hold_type approval) refuses every line edit with 409 order_locked, reason po_pending_approval_edit_locked and suggested_action reject_order, never overridable. On a line with drop_ship_po_id, changing quantity, is_drop_ship or drop_ship_vendor_id is 409 dropship_po_issued_blocks_line_edit with linked_purchase_order, never overridable. The quantity cannot go below what was fulfilled, returned or received (422 line_quantity_below_floor); on an open (confirmed or partially fulfilled) order a quantity change moves order_status and fulfillment_status as a fulfillment or receipt would, e.g. lowering the last open line to what was received completes a purchase order. An edit that leaves the subtotal below a coupon's min_order_subtotal drops that coupon (its redemption released, event order_adjustment.deleted). 404 when the item is not on the order.",
  scopes: ['orders:write'],
  params: itemParams,
  body: OrderLineUpdate,
  response: OrderLineItem,
  errors: ['order_locked', 'dropship_po_issued_blocks_line_edit', 'insufficient_permissions', 'line_quantity_below_floor', 'line_not_editable'],
  current: (ctx, { params }) => getLine(ctx.db, ctx.entityId, params.id, params.item_id, { lock: true }),
  handler: async (ctx, { params, body }) => {
    const result = await updateLine(ctx.db, ctx, params.id, params.item_id, body);
    for (const coupon of result.droppedCoupons) await ctx.events.record('order_adjustment.deleted', coupon);
    await ctx.events.record('order.updated', result.order, result.previousOrder);
    return result.line;
  },
});

export const handler = lambdaHandler(route, idempotency);
