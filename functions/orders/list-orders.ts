import { onFirstUse } from '../../shared/schemas/lazy';
import { z } from 'zod';
import { listOrders } from '../../shared/orders/order-reads';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { defineRoute } from '../../shared/http/route';
import { id, timestamp } from '../../shared/schemas/common';
import { DOCUMENT_TYPES, Order, ORDER_STATUSES, PAYMENT_STATUSES } from '../../shared/orders/schemas/order';
import { ORDER_EXPAND } from './expand';

export const route = defineRoute({
  id: 'orders.list',
  method: 'GET',
  path: '/v1/orders',
  tag: 'Orders',
  summary: 'List orders of one document type',
  description:
    'document_type is required: one resource holds quotes, sales orders, invoices, returns and purchase orders, and a list always shows one kind. Newest first; deleted orders are left out, archived ones unless archived=true or all. Lines and adjustments come with expand[]=data.lines and expand[]=data.adjustments, the account with expand[]=data.account.',
  scopes: ['orders:read'],
  query: listQuery(
    () => ({
      document_type: z.enum(DOCUMENT_TYPES).describe('Required: the kind of document to list.'),
      order_status: z.enum(ORDER_STATUSES).optional(),
      payment_status: z.enum(PAYMENT_STATUSES).optional(),
      account_id: id().optional().describe('Only documents of this account (vendor, for purchase orders).'),
      external_order_id: z.string().max(200).optional(),
      sales_channel_id: id().optional().describe('Only documents that came through this sales channel.'),
      created_gte: timestamp().optional().describe('Only documents created at or after this time.'),
      created_lte: timestamp().optional().describe('Only documents created at or before this time.'),
      order_date_gte: timestamp().optional().describe('Only documents with order_date at or after this time.'),
      order_date_lte: timestamp().optional().describe('Only documents with order_date at or before this time.'),
      archived: z
        .enum(['false', 'true', 'all'])
        .optional()
        .describe('Archived documents are left out unless asked for: true lists only archived ones, all lists both. Default false.'),
    }),
    { requiresFilter: true, flags: { expired: 'true: only quotes past their expires_at (still draft or confirmed); false: every document but those.' } },
  ),
  response: onFirstUse(() => listEnvelope(Order)),
  list: true,
  expand: ORDER_EXPAND,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listOrders(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before });
  },
});

export const handler = lambdaHandler(route);
