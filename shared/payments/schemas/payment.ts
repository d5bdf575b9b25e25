/** Customer payments, their applications to documents, and bank deposits of undeposited receipts. */
import * as z from 'zod';
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
    account_id: id().describe('The paying customer account.'),
    amount: z.number(),
    unapplied_amount: z.number().describe('What no application uses: unapplied customer credit.'),
    payment_method: z.enum(PAYMENT_METHODS),
    payment_date: isoDate(),
    check_number: z.string().nullable(),
    check_date: isoDate().nullable(),
    external_reference: z.string().nullable(),
    notes: z.string().nullable(),
    status: z
      .enum(PAYMENT_STATUSES)
      .describe(
        'pending (an ACH debit not cleared yet: nothing posted), undeposited (in undeposited funds) until a bank deposit takes it, then deposited; voided (reversed before deposit) or failed (an ACH return).',
      ),
    order_id: id().nullable().describe('The document of a single-document payment; null on multi-invoice payments.'),
    journal_entry_id: id().nullable().describe('The receipt entry; null while an ACH payment is pending and after it failed.'),
    deposit_id: id().nullable(),
    amount_refunded: z.number().describe('What refunds gave back; the payment can refund amount minus this.'),
    cleared_at: timestamp().nullable().describe('When a pending ACH payment cleared.'),
    voided_at: timestamp().nullable(),
    failed_at: timestamp().nullable().describe('When a pending ACH payment failed (was returned).'),
    failure_reason: z.string().nullable(),
    applied_count: z.number().int(),
    applications: z.array(PaymentApplication),
    created_by_user_id: id().nullable(),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof Payment>;

const money = () => decimalInput({ scale: 2, min: 0, exclusiveMin: true });

const receiptFields = () => ({
  payment_method: z.enum(PAYMENT_METHODS).optional().describe('Defaults to check when check_number is given, else other.'),
  payment_date: isoDate().optional().describe('Defaults to today (UTC).'),
  check_number: optionalText(50),
  check_date: isoDate().nullable().optional(),
  external_reference: optionalText(200),
  notes: optionalText(2000),
});

export const OrderPaymentCreate = z.strictObject({
  amount: money().describe('At most what the document accepts (its balance_due); more is 422 order_not_payable.'),
  ...receiptFields(),
});
export type OrderPaymentCreate = z.infer<typeof OrderPaymentCreate>;

export const ApplicationInput = z.strictObject({ order_id: id(), amount_applied: money() });
export type ApplicationInput = z.infer<typeof ApplicationInput>;

/** When a payment's money is applied to invoices: the date its entry is posted on. */
const appliedDate = () =>
  isoDate()
    .optional()
    .describe(
      "The date the application is effective and its entry posts on. Default: today (UTC). Before the payment's payment_date is 400; in a closed period 422 period_closed.",
    );

export const MultiInvoicePaymentCreate = z.strictObject({
  account_id: id(),
  amount: money(),
  auto_apply: z.boolean().optional().describe("Apply the amount oldest-first over the account's open invoices; exclusive with applications."),
  route_unapplied: z
    .literal('credit')
    .optional()
    .describe('credit: a remainder not applied stays on the payment as unapplied customer credit. Required when anything is left unapplied.'),
  applications: z.array(ApplicationInput).max(500).optional(),
  applied_date: isoDate()
    .optional()
    .describe(
      'The date the applications take effect. Default: payment_date (applied as received). A later date posts the receipt to customer_credits on payment_date and moves the applied part to accounts_receivable on applied_date. Before payment_date is 400; in a closed period 422 period_closed; not with an ach payment (its applications take effect when it clears).',
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
      journal_entry_id: id().nullable(),
      applied_count: z.number().int(),
      applications: z.array(PaymentApplication),
    }),
    idempotent_replay: z.boolean().describe('true when this response is the replay of an earlier request with the same Idempotency-Key.'),
  })
  .meta({ id: 'MultiInvoicePaymentResult' });

export const PaymentApply = z.strictObject({
  applications: z.array(ApplicationInput).min(1).max(500),
  account_id: id().optional().describe("When given, must be the payment's account."),
  applied_date: appliedDate(),
});
export type PaymentApply = z.infer<typeof PaymentApply>;

export const PaymentCreditApply = z.strictObject({
  invoice_id: id().describe("An open (posted, not voided) invoice of the payment's customer account."),
  amount: money().optional().describe("Default: as much as both allow (the payment's unapplied_amount, at most the invoice's balance_due)."),
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
    line_count: z.number().int(),
    bank_account_id: id(),
    gl_account_id: id(),
    deposit_date: isoDate(),
    memo: z.string().nullable(),
    journal_entry_id: id(),
    payment_ids: z.array(id()),
    lines: z
      .array(z.object({ id: id(), payment_id: id(), amount: z.number().describe("The receipt's amount net of refunds made before the deposit.") }))
      .describe('One line per deposited receipt, in deposit order.'),
    payments: z.array(Payment).optional().describe('With expand[]=payments (data.payments on lists): the deposited payments, in deposit order.'),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'Deposit' });
export type Deposit = z.infer<typeof Deposit>;

const paymentIds = () => z.array(id()).min(1).max(500);

export const DepositPreviewRequest = z.strictObject({ payment_ids: paymentIds() });
export const DepositPreview = z.object({ total_amount: z.number(), line_count: z.number().int() }).meta({ id: 'DepositPreview' });

export const DepositCreate = z.strictObject({
  bank_account_id: id().describe('The bank_account_id of a bank GL account.'),
  deposit_date: isoDate(),
  payment_ids: paymentIds(),
  memo: optionalText(500),
});
export type DepositCreate = z.infer<typeof DepositCreate>;
