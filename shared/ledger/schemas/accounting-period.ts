import * as z from 'zod';
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
    fiscal_year: z.number().int().describe('The fiscal year the period belongs to, named by the calendar year the fiscal year ends in.'),
    start_date: isoDate(),
    end_date: isoDate(),
    status: z.enum(PERIOD_STATUSES).describe('Only open periods accept postings.'),
    close_requested_by: id().nullable(),
    close_requested_at: timestamp().nullable(),
    close_approved_by: id().nullable(),
    close_approved_at: timestamp().nullable(),
    closed_by: id().nullable(),
    closed_at: timestamp().nullable(),
    reopened_by: id().nullable(),
    reopened_at: timestamp().nullable(),
    reopen_reason: z.string().nullable(),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'AccountingPeriod' });
export type AccountingPeriod = z.infer<typeof AccountingPeriod>;

export const AccountingPeriodCreate = z
  .strictObject({
    period_name: z.string().trim().min(1).max(100),
    start_date: isoDate(),
    end_date: isoDate().describe('On or after start_date; the period may not overlap another.'),
    fiscal_year: z.number().int().min(1900).max(9999).optional().describe("Defaults to end_date's year."),
  })
  .refine((body) => body.end_date >= body.start_date, { path: ['end_date'], message: 'must be on or after start_date' });
export type AccountingPeriodCreate = z.infer<typeof AccountingPeriodCreate>;

export const FiscalYearCreate = z.strictObject({
  fiscal_year: z.number().int().min(1900).max(9999).describe('Named by the calendar year it ends in.'),
  start_month: z.number().int().min(1).max(12).optional().describe('First month of the fiscal year, 1 (January, the default) to 12.'),
});
export type FiscalYearCreate = z.infer<typeof FiscalYearCreate>;

export const PeriodReopen = z.strictObject({
  reason: z.string().trim().min(1).max(1000).describe('Why the period is reopened; kept in reopen_reason.'),
});

export const periodList = z.object({ data: z.array(AccountingPeriod) });
