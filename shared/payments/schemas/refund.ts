/** Refunds of customer payments, and the bodies of the payment void, clear and fail operations. */
import * as z from 'zod/mini';
import { decimalInput } from '../../money';
import { id, isoDate, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

const RefundLine = z.object({
  id: id(),
  order_id: z.nullable(id()).check(z.describe("The document the refund took back from; null for the payment's unapplied customer credit.")),
  credit_amount: z.number().check(z.describe("Customer credit given back (debit accounts receivable): the document's amount_paid fell by it.")),
  allowance_amount: z
    .number()
    .check(z.describe('The sale reduced (invoices only): debit sales revenue and, pro rata, sales tax payable; amount_paid unchanged.')),
});

export const Refund = z
  .object({
    id: id(),
    object: z.literal('refund'),
    livemode: livemode(),
    entity_id: id(),
    payment_id: id(),
    amount: z.number(),
    reason: z.nullable(z.string()),
    refund_date: isoDate(),
    cash_gl_account_id: id().check(z.describe("Where the money left from: undeposited funds, or the bank account of the payment's deposit.")),
    journal_entry_id: id(),
    lines: z.array(RefundLine),
    created_by_user_id: z.nullable(id()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'Refund' });
export type Refund = z.infer<typeof Refund>;

export const RefundCreate = z.strictObject({
  amount: z
    .optional(decimalInput({ scale: 2, min: 0, exclusiveMin: true }))
    .check(z.describe('Defaults to everything not yet refunded; more than that is 422 refund_exceeds_refundable.')),
  reason: optionalText(500),
  refund_date: z.optional(isoDate()).check(z.describe('Defaults to today (UTC); not before the payment (or its deposit).')),
});
export type RefundCreate = z.infer<typeof RefundCreate>;

export const PaymentClear = z.strictObject({
  cleared_date: z
    .optional(isoDate())
    .check(z.describe('The date the ACH funds settled and the receipt posts; defaults to today (UTC); not before payment_date.')),
});
export type PaymentClear = z.infer<typeof PaymentClear>;

export const PaymentFail = z.strictObject({
  failure_reason: optionalText(500).check(z.describe('The ACH return reason (for example R01 insufficient funds).')),
});
export type PaymentFail = z.infer<typeof PaymentFail>;
