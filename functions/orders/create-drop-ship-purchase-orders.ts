import * as z from 'zod/mini';
import { createDropShipPurchaseOrders } from '../../shared/orders/drop-ship';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Order } from '../../shared/orders/schemas/order';

export const route = defineRoute({
  id: 'orders.drop_ship_purchase_orders.create',
  method: 'POST',
  path: '/v1/orders/{id}/drop-ship-purchase-orders',
  tag: 'Purchasing',
  summary: 'Issue drop-ship purchase orders for a sales order',
  description:
    "On a confirmed or partially fulfilled sales order (409 order_invalid_transition otherwise): one draft purchase order per vendor over the lines marked is_drop_ship that have units left to ship and no live drop-ship purchase order. The vendor is the line's drop_ship_vendor_id, else the product's preferred vendor (422 drop_ship_vendor_missing with details.line_id when neither exists; 422 party_archived for an archived vendor); the quantity is the units not yet fulfilled; the cost is the product-vendor relationship's vendor_cost, else the product's cost. Each sales line gets drop_ship_po_id, after which its quantity, is_drop_ship and drop_ship_vendor_id are frozen (409 dropship_po_issued_blocks_line_edit); a line whose purchase order was cancelled can be issued again. 422 no_drop_ship_lines when nothing is left to issue. Receiving the purchase order fulfils the sales lines without stock movement (see POST /v1/orders/{id}/receipts). Returns the created purchase orders; emits order.created for each and order.updated for the sales order.",
  scopes: ['purchasing:write'],
  params: idParams,
  response: z.object({ object: z.literal('list'), data: z.array(Order), has_more: z.literal(false) }),
  successStatus: 201,
  errors: ['order_invalid_transition', 'no_drop_ship_lines', 'drop_ship_vendor_missing', 'party_archived'],
  handler: async (ctx, { params }) => {
    const { purchaseOrders, salesOrder } = await createDropShipPurchaseOrders(ctx.db, ctx, params.id);
    for (const purchaseOrder of purchaseOrders) await ctx.events.record('order.created', purchaseOrder);
    await ctx.events.record('order.updated', salesOrder);
    return { object: 'list' as const, data: purchaseOrders, has_more: false as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
