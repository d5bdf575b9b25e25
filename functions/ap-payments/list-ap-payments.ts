import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { listApPayments } from '../../shared/payables/ap-payments';
import { ApPayment } from '../../shared/payables/schemas/ap-payment';

export const route = defineRoute({
  id: 'ap_payments.list',
  method: 'GET',
  path: '/v1/ap-payments',
  tag: 'AP payments',
  summary: 'List AP payments',
  description:
    'Newest first, cursor-paginated (limit at most 100). Filters: vendor_id, bill_id (payments applied to that bill), payment_date_gte and payment_date_lte (dates, inclusive).',
  scopes: ['purchasing:read'],
  query: listQuery({
    vendor_id: param.id("This vendor's payments."),
    bill_id: param.id('Payments applied to this vendor bill.'),
    payment_date_gte: param.date('Paid on or after this date.'),
    payment_date_lte: param.date('Paid on or before this date.'),
  }),
  response: listEnvelope(ApPayment),
  list: true,
  handler: (ctx, { query }) =>
    listApPayments(
      ctx.db,
      ctx.entityId,
      { vendor_id: query.vendor_id, bill_id: query.bill_id, payment_date_gte: query.payment_date_gte, payment_date_lte: query.payment_date_lte },
      query,
    ),
});

export const handler = lambdaHandler(route);
