/** Customer payments, their applications to documents, and bank deposits of undeposited receipts. */
import * as z from 'zod/mini';
import { decimalInput } from '../../money';
import { id, isoDate, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';
import { param } from '../../schemas/parameters';

const PAYMENT_METHODS = ['check', 'cash', 'card', 'ach', 'other'] as const;
const PAYMENT_STATUSES = ['pending', 'undeposited', 'deposited', 'voided', 'failed'] as const;

export const PaymentApplication = z.object({
  id: id(),
  order_id: id(),
  amount_applied: z.number(),
});
export type PaymentApplication = z.infer<typeof PaymentApplication>;

export const Payment = z
  .object({
    id: id(),
    object: z.literal('payment'),
    livemode: livemode(),
    entity_id: id(),
    account_id: id().check(z.describe('The paying customer account.')),
    amount: z.number(),
    unapplied_amount: z.number().check(z.describe('What no application uses: unapplied customer credit.')),
    payment_method: z.enum(PAYMENT_METHODS),
    payment_date: isoDate(),
    check_number: z.nullable(z.string()),
    check_date: z.nullable(isoDate()),
    external_reference: z.nullable(z.string()),
    notes: z.nullable(z.string()),
    status: z
      .enum(PAYMENT_STATUSES)
      .check(
        z.describe(
          'pending (an ACH debit not cleared yet: nothing posted), undeposited (in undeposited funds) until a bank deposit takes it, then deposited; voided (reversed before deposit) or failed (an ACH return).',
        ),
      ),
    order_id: z.nullable(id()).check(z.describe('The document of a single-document payment; null on multi-invoice payments.')),
    journal_entry_id: z.nullable(id()).check(z.describe('The receipt entry; null while an ACH payment is pending and after it failed.')),
    deposit_id: z.nullable(id()),
    amount_refunded: z.number().check(z.describe('What refunds gave back; the payment can refund amount minus this.')),
    cleared_at: z.nullable(timestamp()).check(z.describe('When a pending ACH payment cleared.')),
    voided_at: z.nullable(timestamp()),
    failed_at: z.nullable(timestamp()).check(z.describe('When a pending ACH payment failed (was returned).')),
    failure_reason: z.nullable(z.string()),
    applied_count: z.number().check(z.int()),
    applications: z.array(PaymentApplication),
    created_by_user_id: z.nullable(id()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'Payment' });
export type Payment = z.infer<typeof Payment>;

const money = () => decimalInput({ scale: 2, min: 0, exclusiveMin: true });

const receiptFields = () => ({
  payment_method: z.optional(z.enum(PAYMENT_METHODS)).check(z.describe('Defaults to check when check_number is given, else other.')),
  payment_date: z.optional(isoDate()).check(z.describe('Defaults to today (UTC).')),
  check_number: optionalText(50),
  check_date: z.optional(z.nullable(isoDate())),
  external_reference: optionalText(200),
  notes: optionalText(2000),
});

export const OrderPaymentCreate = z.strictObject({
  amount: money().check(z.describe('At most what the document accepts (its balance_due); more is 422 order_not_payable.')),
  ...receiptFields(),
});
export type OrderPaymentCreate = z.infer<typeof OrderPaymentCreate>;

export const ApplicationInput = z.strictObject({ order_id: id(), amount_applied: money() });
export type ApplicationInput = z.infer<typeof ApplicationInput>;

/** When a payment's money is applied to invoices: the date its entry is posted on. */
const appliedDate = () =>
  z
    .optional(isoDate())
    .check(
      z.describe(
        "The date the application is effective and its entry posts on. Default: today (UTC). Before the payment's payment_date is 400; in a closed period 422 period_closed.",
      ),
    );

export const MultiInvoicePaymentCreate = z.strictObject({
  account_id: id(),
  amount: money(),
  auto_apply: z.optional(z.boolean()).check(z.describe("Apply the amount oldest-first over the account's open invoices; exclusive with applications.")),
  route_unapplied: z
    .optional(z.literal('credit'))
    .check(z.describe('credit: a remainder not applied stays on the payment as unapplied customer credit. Required when anything is left unapplied.')),
  applications: z.optional(z.array(ApplicationInput).check(z.maxLength(500))),
  applied_date: z
    .optional(isoDate())
    .check(
      z.describe(
        'The date the applications take effect. Default: payment_date (applied as received). A later date posts the receipt to customer_credits on payment_date and moves the applied part to accounts_receivable on applied_date. Before payment_date is 400; in a closed period 422 period_closed; not with an ach payment (its applications take effect when it clears).',
      ),
    ),
  ...receiptFields(),
});
export type MultiInvoicePaymentCreate = z.infer<typeof MultiInvoicePaymentCreate>;

export const MultiInvoicePaymentResult = z
  .object({
    data: z.object({
      id: id(),
      entity_id: id(),
      amount: z.number(),
      payment_method: z.enum(PAYMENT_METHODS),
      status: z.enum(PAYMENT_STATUSES),
      journal_entry_id: z.nullable(id()),
      applied_count: z.number().check(z.int()),
      applications: z.array(PaymentApplication),
    }),
    idempotent_replay: z.boolean().check(z.describe('true when this response is the replay of an earlier request with the same Idempotency-Key.')),
  })
  .register(z.globalRegistry, { id: 'MultiInvoicePaymentResult' });

export const PaymentApply = z.strictObject({
  applications: z.array(ApplicationInput).check(z.minLength(1), z.maxLength(500)),
  account_id: z.optional(id()).check(z.describe("When given, must be the payment's account.")),
  applied_date: appliedDate(),
});
export type PaymentApply = z.infer<typeof PaymentApply>;

export const PaymentCreditApply = z.strictObject({
  invoice_id: id().check(z.describe("An open (posted, not voided) invoice of the payment's customer account.")),
  amount: z.optional(money()).check(z.describe("Default: as much as both allow (the payment's unapplied_amount, at most the invoice's balance_due).")),
  applied_date: appliedDate(),
});
export type PaymentCreditApply = z.infer<typeof PaymentCreditApply>;

/** The filters of the payment list (fields, for the route's query object). */
export const paymentListFilters = { account_id: param.id(), status: param.oneOf(PAYMENT_STATUSES) };

export const Deposit = z
  .object({
    id: id(),
    object: z.literal('deposit'),
    livemode: livemode(),
    entity_id: id(),
    status: z.literal('posted'),
    total_amount: z.number(),
    line_count: z.number().check(z.int()),
    bank_account_id: id(),
    gl_account_id: id(),
    deposit_date: isoDate(),
    memo: z.nullable(z.string()),
    journal_entry_id: id(),
    payment_ids: z.array(id()),
    lines: z
      .array(z.object({ id: id(), payment_id: id(), amount: z.number().check(z.describe("The receipt's amount net of refunds made before the deposit.")) }))
      .check(z.describe('One line per deposited receipt, in deposit order.')),
    payments: z.optional(z.array(Payment)).check(z.describe('With expand[]=payments (data.payments on lists): the deposited payments, in deposit order.')),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'Deposit' });
export type Deposit = z.infer<typeof Deposit>;

const paymentIds = () => z.array(id()).check(z.minLength(1), z.maxLength(500));

export const DepositPreviewRequest = z.strictObject({ payment_ids: paymentIds() });
export const DepositPreview = z
  .object({ total_amount: z.number(), line_count: z.number().check(z.int()) })
  .register(z.globalRegistry, { id: 'DepositPreview' });

export const DepositCreate = z.strictObject({
  bank_account_id: id().check(z.describe('The bank_account_id of a bank GL account.')),
  deposit_date: isoDate(),
  payment_ids: paymentIds(),
  memo: optionalText(500),
});
export type DepositCreate = z.infer<typeof DepositCreate>;
