import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { createVendorReturn } from '../../shared/payables/vendor-returns';
import { VendorReturn, VendorReturnCreate } from '../../shared/payables/schemas/vendor-return';

export const route = defineRoute({
  id: 'orders.vendor_returns.create',
  method: 'POST',
  path: '/v1/orders/{id}/vendor-returns',
  tag: 'Purchasing',
  summary: 'Return received goods of a purchase order to the vendor',
  description:
    "Returns received units of purchase order lines to the vendor (another entity's or mode's order, or a document that is not a purchase order, is 404; an archived one 409 order_archived). Each line takes at most its units received less what earlier vendor returns took: 422 vendor_return_exceeds_received naming lines[i].quantity, with details line_id, quantity_received, quantity_returned, quantity_requested and returnable. Drop-ship lines and products without stock are 400 on lines[i].line_id. The units leave lines[i].location_id (default location_id, then the purchase order's location) in a vendor_return inventory transaction drawing the FIFO layers (422 insufficient_stock when the location holds fewer). The purchase order's received quantities and status stay as they are (what was received stays received and billable). The return issues a vendor credit (source_type vendor_return, source_id the return's id) of quantity × the line's unit cost, which posts debit vendor_returns_receivable, credit vendor_credits; the return's own entry, dated returned_at (422 period_closed naming returned_at when that period is closed), debits cost_of_goods_sold the credit amount (applying the credit credits it back), credits inventory the FIFO cost and puts the difference on purchase_price_variance. Emits vendor_return.created, vendor_credit.created and the inventory events.",
  scopes: ['purchasing:write'],
  params: idParams,
  body: VendorReturnCreate,
  response: VendorReturn,
  successStatus: 201,
  errors: ['order_archived', 'vendor_return_exceeds_received', 'insufficient_stock', 'party_archived', 'period_closed'],
  handler: (ctx, { params, body }) => createVendorReturn(ctx.db, ctx, params.id, body),
});

export const handler = lambdaHandler(route, idempotency);
