/** Vendor credits (E16): the resource, its application events and the request bodies. */
import * as z from 'zod';
import { decimalInput } from '../../money';

/** Vendor credit amounts carry 4 decimals (the spec's resource). */
const CREDIT_SCALE = 4;
import { id, isoDate, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const VENDOR_CREDIT_STATUSES = ['open', 'partially_applied', 'applied', 'voided', 'expired'] as const;
export type VendorCreditStatus = (typeof VENDOR_CREDIT_STATUSES)[number];

const fourDecimals = () => z.string().regex(/^-?\d+\.\d{4}$/);

export const VendorCreditApplication = z
  .object({
    id: id(),
    object: z.literal('vendor_credit_application'),
    livemode: livemode(),
    vendor_credit_id: id(),
    ap_payment_id: id().describe('The AP payment that applied the credit.'),
    bill_id: id().describe('The vendor bill the credit offset.'),
    bill_number: z.string(),
    amount: fourDecimals().describe('How much of the credit went to the bill (4 decimals).'),
    applied_on: isoDate().describe("The AP payment's date."),
    status: z.enum(['applied', 'voided']).describe('voided when the AP payment was voided: the amount went back to remaining_amount.'),
    voided_on: isoDate().nullable(),
    created_at: timestamp(),
  })
  .meta({ id: 'VendorCreditApplication', description: 'One application event of a vendor credit: which bill it offset, how much and when.' });
export type VendorCreditApplication = z.infer<typeof VendorCreditApplication>;

export const VendorCredit = z
  .object({
    id: id(),
    object: z.literal('vendor_credit'),
    livemode: livemode(),
    entity_id: id(),
    vendor_id: id(),
    credit_number: z.string().describe('Sequential per entity and gap-free (VC-000001).'),
    amount: fourDecimals().describe('Total issued: a numeric string with 4 decimals.'),
    remaining_amount: fourDecimals().describe(
      'Unapplied balance, 4 decimals: amount − applied − voided_amount − forfeited_amount. 0.0000 once applied in full, voided or expired.',
    ),
    voided_amount: fourDecimals().describe('The unapplied balance a void took (0.0000 unless voided).'),
    forfeited_amount: fourDecimals().describe('The balance forfeited at expiry (0.0000 unless expired).'),
    source_type: z.string().describe('Free text; common values manual, vendor_return, price_adjustment, rebate, duplicate_payment, other.'),
    source_id: id().nullable().describe('The vendor bill of a price_adjustment; the vendor return of a vendor_return; else null.'),
    status: z
      .enum(VENDOR_CREDIT_STATUSES)
      .describe(
        'open (nothing applied) → partially_applied → applied (remaining 0) as AP payments spend it, and back when a payment is voided; voided (its unapplied balance cancelled); expired (the expiry job forfeited the balance after expires_at).',
      ),
    credit_date: isoDate().describe('The date of the issuance journal entry.'),
    expires_at: timestamp().nullable().describe('The remaining balance is forfeited after this instant; null means the credit never expires.'),
    currency: z.string(),
    memo: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    created_by_user_id: id().nullable(),
    journal_entry_id: id().nullable().describe('Issuance: debit vendor_returns_receivable, credit vendor_credits.'),
    voided_by: id().nullable(),
    voided_at: timestamp().nullable(),
    void_reason: z.string().nullable(),
    void_journal_entry_id: id().nullable(),
    expired_at: timestamp().nullable(),
    expiry_journal_entry_id: id().nullable(),
    vendor: z.unknown().optional().describe('With expand[]=vendor.'),
    source: z.unknown().optional().describe('With expand[]=source: the vendor bill (price_adjustment) or vendor return (vendor_return); null otherwise.'),
    applications: z.array(VendorCreditApplication).optional().describe('With expand[]=applications: the application events, oldest first.'),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'VendorCredit', description: 'A credit from a vendor, applied to its bills through AP payments (amounts are 4-decimal strings).' });
export type VendorCredit = z.infer<typeof VendorCredit>;

export const VendorCreditCreate = z.strictObject({
  vendor_id: id().describe('A vendor of the entity that is not archived.'),
  amount: decimalInput({ scale: CREDIT_SCALE, min: 0.01 }).describe(
    'At least 0.01, up to 4 decimals; 12.5 and "12.5000" alike. The ledger posts it rounded to cents, and AP payments apply whole cents of the remaining amount.',
  ),
  source_type: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,49}$/, 'must be lower snake case, at most 50 characters')
    .optional()
    .describe(
      'Free text, default manual; common values manual, vendor_return, price_adjustment, rebate, duplicate_payment, other. price_adjustment needs source_id: a posted bill of the vendor.',
    ),
  source_id: id().nullable().optional().describe('price_adjustment: the vendor bill adjusted (required); other types: an id of your own, kept as sent.'),
  credit_date: isoDate().optional().describe('Date of the issuance entry; defaults to today (UTC). A closed period is 422 period_closed.'),
  expires_at: timestamp().nullable().optional().describe('After this instant the expiry job forfeits the remaining balance; must be in the future.'),
  memo: optionalText(1000),
  metadata: metadata().optional(),
});
export type VendorCreditCreate = z.infer<typeof VendorCreditCreate>;

export const VendorCreditVoid = z.strictObject({
  reason: optionalText(1000).describe('Why the credit is voided; kept as void_reason.'),
});
