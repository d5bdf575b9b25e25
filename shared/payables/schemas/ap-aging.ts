/** AP aging (E23): open vendor bill balances per vendor in buckets by due date, as of a date. */
import { param, queryParams } from '../../schemas/parameters';
import * as z from 'zod/mini';
import { id, isoDate } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

const bucketMembers = () => ({
  current: z.number().check(z.describe('Balances not yet due on as_of_date (due_date on or after it).')),
  days_1_30: z.number().check(z.describe('Balances 1 to 30 days past due_date.')),
  days_31_60: z.number().check(z.describe('Balances 31 to 60 days past due_date.')),
  days_61_90: z.number().check(z.describe('Balances 61 to 90 days past due_date.')),
  days_over_90: z.number().check(z.describe('Balances more than 90 days past due_date.')),
  total: z.number().check(z.describe('The sum of the five buckets.')),
});

const ApAgingVendor = z
  .object({ id: id().check(z.describe('The vendor.')), name: z.string(), ...bucketMembers() })
  .register(z.globalRegistry, { id: 'ApAgingVendor', description: "One vendor's open bill balances as of the date, in buckets by due date." });

const ApAgingTotals = z
  .object(bucketMembers())
  .register(z.globalRegistry, { id: 'ApAgingTotals', description: 'The buckets summed over every vendor; total is the grand total.' });

export const ApAging = z
  .object({
    object: z.literal('ap_aging'),
    livemode: livemode(),
    as_of_date: isoDate(),
    vendors: z.array(ApAgingVendor).check(z.describe('Vendors with an open balance on as_of_date, by name.')),
    totals: ApAgingTotals,
    accounts_payable_balance: z
      .number()
      .check(z.describe('The accounts payable control account balance (credits minus debits) posted on or before as_of_date; equal to totals.total.')),
  })
  .register(z.globalRegistry, {
    id: 'ApAging',
    description:
      'Open vendor bill balances as they stood on as_of_date, rebuilt from the bill and AP payment history, per vendor in buckets by days past due_date.',
  });
export type ApAging = z.infer<typeof ApAging>;

export const ApAgingQuery = queryParams({
  as_of_date: param.date(
    'The date of the snapshot (default today, UTC): bills posted on or before it, payments applied on or before it and not voided by then.',
  ),
});
