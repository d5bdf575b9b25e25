import { todayUtc } from '../../shared/dates';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { ArAging, ArAgingQuery } from '../../shared/orders/schemas/ar-aging';
import { AR_AGING_EXPAND, arAging } from './ar-aging-report';

export const route = defineRoute({
  id: 'reconciliation.ar_aging',
  method: 'GET',
  path: '/v1/entities/{entity_id}/reconciliation/ar-aging',
  tag: 'Reports',
  summary: 'AR aging per customer, as of a date',
  description:
    "Open invoice balances per customer account in buckets by days past the aging date (aging_basis due_date, the default: days past due_date, an invoice without one ageing from its date; invoice_date: days since the invoice's date). current: not yet past it; then days_1_30, days_31_60, days_61_90, days_over_90; totals has the same members. as_of_date (default today, UTC) gives the balances as they stood that day, rebuilt from history: invoices dated (order_date) on or before it and not voided, less the payments received on or before it (ACH: cleared on or before it) and the credit-memo applications dated on or before it, net of refunds dated on or before it. An invoice paid after as_of_date is open on it; a payment applied later on an applied_date of its own is unapplied credit until then; a sales order's deposit is credit until the invoice made from the order is dated. totals.total equals accounts_receivable_balance, the accounts receivable control account on that date. unapplied_credits, per customer and in total and outside the buckets, is the customer money not applied to an invoice on that date: unapplied payment money, deposits sales orders hold, and credit-memo credit left (credit memos dated on or before it, less what they applied or refunded by then); the total equals customer_credits_balance, the customer deposits and credits account on that date. Customers with neither an open balance nor credit are left out. customers is paged by name, then id: limit (default 100, up to 500), starting_after or ending_before a customer account id from a page of the same as_of_date and aging_basis (not both: 400 on ending_before; an id that is not a customer of this aging: 400 on its parameter), has_more and next_cursor as in lists; totals, unapplied_credits, accounts_receivable_balance and customer_credits_balance cover every customer on every page. expand[]=customers.invoices lists the open invoices of the page's customers with their balance and bucket.",
  scopes: ['accounting:read', 'migration:read'],
  scopeMatch: 'any',
  params: entityScopedParams,
  query: ArAgingQuery,
  response: ArAging,
  expand: AR_AGING_EXPAND,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return arAging(ctx.db, ctx.entityId, query.as_of_date ?? todayUtc(), query.aging_basis, {
      limit: query.limit,
      starting_after: query.starting_after,
      ending_before: query.ending_before,
    });
  },
});

export const handler = lambdaHandler(route);
