import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { listBills } from '../../shared/payables/vendor-bills';
import { VENDOR_BILL_STATUSES, VendorBill } from '../../shared/payables/schemas/vendor-bill';
import { VENDOR_BILL_EXPAND } from './expand';

export const route = defineRoute({
  id: 'vendor_bills.list',
  method: 'GET',
  path: '/v1/vendor-bills',
  tag: 'Vendor bills',
  summary: 'List vendor bills',
  description:
    "E22. Newest first, cursor-paginated (limit at most 100). Filters: vendor_id, status (void is accepted for voided, as the spec's filter list words it), created_gte and created_lte (timestamps, inclusive), due_date_lte (a date: today's date lists the bills due or overdue). expand[] takes the data. prefix.",
  scopes: ['purchasing:read'],
  query: listQuery({
    vendor_id: param.id("This vendor's bills."),
    status: param.oneOf(VENDOR_BILL_STATUSES, 'Bills in this status; void is the same as voided.', { aliases: { void: 'voided' } }),
    created_gte: param.timestamp('Created at or after this instant.'),
    created_lte: param.timestamp('Created at or before this instant.'),
    due_date_lte: param.date('Due on or before this date.'),
  }),
  response: listEnvelope(VendorBill),
  list: true,
  expand: VENDOR_BILL_EXPAND,
  handler: (ctx, { query }) =>
    listBills(
      ctx.db,
      ctx.entityId,
      {
        vendor_id: query.vendor_id,
        status: query.status,
        created_gte: query.created_gte,
        created_lte: query.created_lte,
        due_date_lte: query.due_date_lte,
      },
      query,
    ),
});

export const handler = lambdaHandler(route);
