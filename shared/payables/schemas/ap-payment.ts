/** AP payments (POST /v1/ap-payments): paying vendor bills with cash and vendor credits. */
import * as z from 'zod/mini';
import { decimalInput, MONEY_SCALE } from '../../money';
import { id, isoDate, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

const AP_PAYMENT_METHODS = ['check', 'ach', 'wire', 'card'] as const;

const ApPaymentApplication = z
  .object({
    id: id(),
    object: z.literal('ap_payment_application'),
    livemode: livemode(),
    bill_id: id(),
    bill_number: z.string(),
    vendor_credit_id: z.nullable(id()).check(z.describe('null: paid in cash from the bank account; else the vendor credit that offset the bill.')),
    amount: z.number(),
    applied_on: isoDate(),
    voided_on: z.nullable(isoDate()).check(z.describe('The date of the void reversal when the payment was voided.')),
  })
  .register(z.globalRegistry, { id: 'ApPaymentApplication', description: 'One amount an AP payment put on one bill, in cash or from one vendor credit.' });

export const ApPayment = z
  .object({
    id: id(),
    object: z.literal('ap_payment'),
    livemode: livemode(),
    entity_id: id(),
    payment_number: z.string().check(z.describe('Sequential per entity and gap-free (APP-000001).')),
    vendor_id: id(),
    bank_account_id: z.nullable(id()).check(z.describe('The bank_account_id of the bank GL account paid from; null when vendor credits paid everything.')),
    method: z.enum(AP_PAYMENT_METHODS),
    reference: z.nullable(z.string()).check(z.describe('Check number, ACH trace or wire reference.')),
    payment_date: isoDate(),
    amount: z.number().check(z.describe('Cash paid from the bank account (the bank is credited this).')),
    credit_total: z.number().check(z.describe('Vendor credits applied by this payment.')),
    total_applied: z.number().check(z.describe('amount + credit_total: what the bills were reduced by.')),
    status: z.enum(['posted', 'voided']),
    currency: z.string(),
    memo: z.nullable(z.string()),
    metadata: z.record(z.string(), z.string()),
    applications: z.array(ApPaymentApplication).check(z.describe('Per bill: the vendor credit amounts (applied first) and the cash.')),
    vendor_credit_ids: z.array(id()).check(z.describe('The vendor credits this payment applied.')),
    created_by_user_id: z.nullable(id()),
    journal_entry_id: z.nullable(id()),
    voided_by: z.nullable(id()),
    voided_at: z.nullable(timestamp()),
    void_date: z.nullable(isoDate()),
    void_reason: z.nullable(z.string()),
    void_journal_entry_id: z.nullable(id()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'ApPayment', description: "A payment of one vendor's bills from a bank account, with vendor credits applied first." });
export type ApPayment = z.infer<typeof ApPayment>;

export const ApPaymentCreate = z.strictObject({
  bills: z
    .array(
      z.strictObject({
        bill_id: id().check(z.describe('An open or partially_paid bill of the vendor.')),
        amount: decimalInput({ scale: MONEY_SCALE, min: 0, exclusiveMin: true }).check(
          z.describe("What the bill's balance_due goes down by (credits first, then cash); at most its balance_due."),
        ),
      }),
    )
    .check(z.minLength(1), z.maxLength(100), z.describe('The bills paid, 1 to 100, each at most once, all of one vendor.')),
  vendor_credit_ids: z
    .optional(z.array(id()).check(z.maxLength(50)))
    .check(
      z.describe('Vendor credits of the same vendor applied first, in the order given, to the bills in their order; what they do not cover is paid in cash.'),
    ),
  bank_account_id: z.optional(id()).check(z.describe('The bank_account_id of a bank GL account; required unless the credits cover every bill amount.')),
  method: z.enum(AP_PAYMENT_METHODS),
  reference: optionalText(100),
  payment_date: z
    .optional(isoDate())
    .check(z.describe('Defaults to today (UTC); not before any bill date nor any credit date. A closed period is 422 period_closed.')),
  memo: optionalText(1000),
  metadata: z.optional(metadata()),
});
export type ApPaymentCreate = z.infer<typeof ApPaymentCreate>;

export const ApPaymentVoid = z.strictObject({
  reason: optionalText(1000).check(z.describe('Why the payment is voided; kept as void_reason.')),
});
