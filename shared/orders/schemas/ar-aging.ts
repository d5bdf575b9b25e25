/** AR aging: open invoice balances per customer account in buckets, and unapplied customer credit, as of a date. */
import * as z from 'zod/mini';
import { param, queryParams } from '../../schemas/parameters';
import { id, isoDate } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';
import { AGING_BUCKETS } from '../ar-aging';

const bucketMembers = () => ({
  current: z.number().check(z.describe('Balances not yet past the aging date on as_of_date (due_date basis: due on or after it).')),
  days_1_30: z.number().check(z.describe('Balances 1 to 30 days past the aging date.')),
  days_31_60: z.number().check(z.describe('Balances 31 to 60 days past the aging date.')),
  days_61_90: z.number().check(z.describe('Balances 61 to 90 days past the aging date.')),
  days_over_90: z.number().check(z.describe('Balances more than 90 days past the aging date.')),
  total: z.number().check(z.describe('The sum of the five buckets.')),
});

const ArAgingInvoice = z
  .object({
    id: id().check(z.describe('The invoice (an order of document_type invoice).')),
    invoice_number: z.nullable(z.string()),
    invoice_date: isoDate().check(z.describe('The UTC date of order_date: the date its AR entry is dated.')),
    due_date: z.nullable(isoDate()).check(z.describe('The UTC date of due_date; null when the invoice has none (it ages from invoice_date).')),
    days_past: z
      .number()
      .check(z.int(), z.describe('Days from the aging date (due_date, or invoice_date with aging_basis invoice_date) to as_of_date; 0 or less is current.')),
    bucket: z.enum(AGING_BUCKETS),
    balance_due: z.number().check(z.describe('The balance on as_of_date.')),
  })
  .register(z.globalRegistry, { id: 'ArAgingInvoice', description: 'An invoice open on as_of_date, with its balance then and its bucket.' });

const ArAgingCustomer = z
  .object({
    id: id().check(z.describe('The customer account.')),
    name: z.string(),
    ...bucketMembers(),
    unapplied_credits: z
      .number()
      .check(
        z.describe(
          "The customer's money not applied to an invoice on as_of_date: unapplied payments, sales-order deposits and credit-memo credit left. Not in the buckets.",
        ),
      ),
    invoices: z.optional(z.array(ArAgingInvoice)).check(z.describe('With expand[]=customers.invoices: the open invoices behind the buckets, oldest first.')),
  })
  .register(z.globalRegistry, {
    id: 'ArAgingCustomer',
    description: "One customer account's open invoice balances on the date, in buckets, and its unapplied credit.",
  });

const ArAgingTotals = z.object(bucketMembers()).register(z.globalRegistry, {
  id: 'ArAgingTotals',
  description: 'The buckets summed over every customer (every page, not only this one); total is the grand total.',
});

export const ArAging = z
  .object({
    object: z.literal('ar_aging'),
    livemode: livemode(),
    as_of_date: isoDate(),
    aging_basis: z.enum(['due_date', 'invoice_date']),
    customers: z
      .array(ArAgingCustomer)
      .check(z.describe('This page of the customer accounts with an open balance or unapplied credit on as_of_date, by name, then id.')),
    has_more: z.boolean().check(z.describe('Whether more customers exist in the direction of paging.')),
    next_cursor: z
      .nullable(id())
      .check(z.describe('Pass as starting_after for the next page (as ending_before, when paging backwards); null when no customers are left that way.')),
    totals: ArAgingTotals,
    unapplied_credits: z.number().check(z.describe('Σ unapplied_credits of every customer (every page); equal to customer_credits_balance.')),
    accounts_receivable_balance: z
      .number()
      .check(z.describe('The accounts receivable control account balance (debits minus credits) posted on or before as_of_date; equal to totals.total.')),
    customer_credits_balance: z
      .number()
      .check(
        z.describe(
          'The customer deposits and credits control account balance (credits minus debits) posted on or before as_of_date; equal to unapplied_credits.',
        ),
      ),
  })
  .register(z.globalRegistry, {
    id: 'ArAging',
    description:
      'Open invoice balances as they stood on as_of_date, rebuilt from the invoice, payment and credit-memo history, per customer account in buckets, with the unapplied customer credit beside them.',
  });
export type ArAging = z.infer<typeof ArAging>;

export const ArAgingQuery = queryParams({
  as_of_date: param.date('The date of the snapshot (default today, UTC).'),
  aging_basis: param.oneOf(
    ['due_date', 'invoice_date'] as const,
    'What the buckets count days from: due_date (default; an invoice without one ages from its date) or invoice_date.',
    { default: 'due_date' },
  ),
  limit: param.int({ min: 1, max: 500 }, 'Customers per page, 1 to 500.', { default: 100 }),
  starting_after: param.id('A customer account id from the previous page (same as_of_date and aging_basis): the customers after it.'),
  ending_before: param.id('A customer account id: the customers before it (paging backwards); not with starting_after.'),
});
