import * as z from 'zod/mini';
import { PERIOD_STATUSES } from '../period-status';
import { id, isoDate, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const AccountingPeriod = z
  .object({
    id: id(),
    object: z.literal('accounting_period'),
    livemode: livemode(),
    entity_id: id(),
    period_name: z.string(),
    fiscal_year: z.number().check(z.int(), z.describe('The fiscal year the period belongs to, named by the calendar year the fiscal year ends in.')),
    start_date: isoDate(),
    end_date: isoDate(),
    status: z.enum(PERIOD_STATUSES).check(z.describe('Only open periods accept postings.')),
    close_requested_by: z.nullable(id()),
    close_requested_at: z.nullable(timestamp()),
    close_approved_by: z.nullable(id()),
    close_approved_at: z.nullable(timestamp()),
    closed_by: z.nullable(id()),
    closed_at: z.nullable(timestamp()),
    reopened_by: z.nullable(id()),
    reopened_at: z.nullable(timestamp()),
    reopen_reason: z.nullable(z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'AccountingPeriod' });
export type AccountingPeriod = z.infer<typeof AccountingPeriod>;

export const AccountingPeriodCreate = z
  .strictObject({
    period_name: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    start_date: isoDate(),
    end_date: isoDate().check(z.describe('On or after start_date; the period may not overlap another.')),
    fiscal_year: z.optional(z.number().check(z.int(), z.gte(1900), z.lte(9999))).check(z.describe("Defaults to end_date's year.")),
  })
  .check(z.refine((body) => body.end_date >= body.start_date, { path: ['end_date'], message: 'must be on or after start_date' }));
export type AccountingPeriodCreate = z.infer<typeof AccountingPeriodCreate>;

export const FiscalYearCreate = z.strictObject({
  fiscal_year: z.number().check(z.int(), z.gte(1900), z.lte(9999), z.describe('Named by the calendar year it ends in.')),
  start_month: z.optional(z.number().check(z.int(), z.gte(1), z.lte(12))).check(z.describe('First month of the fiscal year, 1 (January, the default) to 12.')),
});
export type FiscalYearCreate = z.infer<typeof FiscalYearCreate>;

export const PeriodReopen = z.strictObject({
  reason: z.string().check(z.trim(), z.minLength(1), z.maxLength(1000), z.describe('Why the period is reopened; kept in reopen_reason.')),
});

export const periodList = z.object({ data: z.array(AccountingPeriod) });
