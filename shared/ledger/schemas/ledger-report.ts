import { param, queryParams } from '../../schemas/parameters';
import * as z from 'zod/mini';
import { GL_ACCOUNT_TYPES } from './gl-account';
import { id, isoDate } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const CashBalance = z
  .object({
    object: z.literal('cash_balance'),
    livemode: livemode(),
    as_of_date: isoDate(),
    accounts: z.array(
      z.object({
        bank_account_id: id(),
        account_name: z.string(),
        gl_balance: z.number().check(z.describe('Debits minus credits posted to the bank GL account on or before as_of_date.')),
      }),
    ),
    total_gl_balance: z.number(),
  })
  .register(z.globalRegistry, { id: 'CashBalance' });
export type CashBalance = z.infer<typeof CashBalance>;

export const TrialBalance = z
  .object({
    object: z.literal('trial_balance'),
    livemode: livemode(),
    as_of_date: isoDate(),
    fiscal_year_start: isoDate().check(
      z.describe('Revenue and expense accounts show activity from this date; earlier profit or loss is in retained earnings.'),
    ),
    accounts: z.array(
      z.object({
        account_id: id(),
        code: z.string(),
        name: z.string(),
        type: z.enum(GL_ACCOUNT_TYPES),
        debit_balance: z.number(),
        credit_balance: z.number(),
      }),
    ),
    total_debits: z.number(),
    total_credits: z.number().check(z.describe('Always equal to total_debits.')),
  })
  .register(z.globalRegistry, { id: 'TrialBalance' });
export type TrialBalance = z.infer<typeof TrialBalance>;

export const asOfQuery = queryParams({
  as_of_date: param.date('Balances include postings dated on or before this date; defaults to today (UTC).'),
});
