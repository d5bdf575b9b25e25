import { createOrder } from '../../shared/orders/create-order';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { Order } from '../../shared/orders/schemas/order';
import { OrderCreate } from '../../shared/orders/schemas/order-requests';
import { ORDER_EXPAND } from './expand';
import { asBatchRecord } from '../../shared/migration/batches';

export const route = defineRoute({
  id: 'orders.create',
  method: 'POST',
  path: '/v1/orders',
  tag: 'Orders',
  summary: 'Create an order (quote, sales order, invoice, return or purchase order)',
  description:
    "Documents are created as draft with their lines in one transaction. account_id is a customer account for quotes, sales orders, invoices and returns and a vendor for purchase orders (404 on that field otherwise; 422 party_archived for an archived one). location_id defaults to the default location. order_number is gap-free per entity and document type (QT-, SO-, INV-, RMA-, PO-). Without sell_rate a line is priced from the catalog: the active regular pricing policy without a level for this account (or for every account) whose min_quantity the quantity reaches, account-specific first, then the highest tier; else the list price. Purchase order lines take the vendor cost of the product-vendor relationship, else the product cost. A kit on a sales document brings its component lines (kit_parent_line_id), priced on the kit line. tax_exempt defaults to the account's. With migration_batch_id (an open import batch of this entity) the document keeps the batch id and gets imported_at; a live document of the same type with the same source_platform + external_order_id answers 409 external_id_taken with existing_id, so an import re-run can skip what is in.",
  scopes: ['orders:write'],
  body: OrderCreate,
  response: Order,
  successStatus: 201,
  expand: ORDER_EXPAND,
  errors: ['party_archived', 'external_id_taken', 'migration_batch_closed'],
  handler: async (ctx, { body }) => {
    const order = await createOrder(ctx.db, ctx, await asBatchRecord(ctx.db, ctx.entityId, body, 'source_platform'));
    await ctx.events.record('order.created', order);
    return order;
  },
});

export const handler = lambdaHandler(route, idempotency);
