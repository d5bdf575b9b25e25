/** Vendor credits (E16): the resource, its application events and the request bodies. */
import * as z from 'zod/mini';
import { decimalInput } from '../../money';

/** Vendor credit amounts carry 4 decimals (the spec's resource). */
const CREDIT_SCALE = 4;
import { id, isoDate, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const VENDOR_CREDIT_STATUSES = ['open', 'partially_applied', 'applied', 'voided', 'expired'] as const;
export type VendorCreditStatus = (typeof VENDOR_CREDIT_STATUSES)[number];

const fourDecimals = () => z.string().check(z.regex(/^-?\d+\.\d{4}$/));

export const VendorCreditApplication = z
  .object({
    id: id(),
    object: z.literal('vendor_credit_application'),
    livemode: livemode(),
    vendor_credit_id: id(),
    ap_payment_id: id().check(z.describe('The AP payment that applied the credit.')),
    bill_id: id().check(z.describe('The vendor bill the credit offset.')),
    bill_number: z.string(),
    amount: fourDecimals().check(z.describe('How much of the credit went to the bill (4 decimals).')),
    applied_on: isoDate().check(z.describe("The AP payment's date.")),
    status: z.enum(['applied', 'voided']).check(z.describe('voided when the AP payment was voided: the amount went back to remaining_amount.')),
    voided_on: z.nullable(isoDate()),
    created_at: timestamp(),
  })
  .register(z.globalRegistry, {
    id: 'VendorCreditApplication',
    description: 'One application event of a vendor credit: which bill it offset, how much and when.',
  });
export type VendorCreditApplication = z.infer<typeof VendorCreditApplication>;

export const VendorCredit = z
  .object({
    id: id(),
    object: z.literal('vendor_credit'),
    livemode: livemode(),
    entity_id: id(),
    vendor_id: id(),
    credit_number: z.string().check(z.describe('Sequential per entity and gap-free (VC-000001).')),
    amount: fourDecimals().check(z.describe('Total issued: a numeric string with 4 decimals.')),
    remaining_amount: fourDecimals().check(
      z.describe('Unapplied balance, 4 decimals: amount − applied − voided_amount − forfeited_amount. 0.0000 once applied in full, voided or expired.'),
    ),
    voided_amount: fourDecimals().check(z.describe('The unapplied balance a void took (0.0000 unless voided).')),
    forfeited_amount: fourDecimals().check(z.describe('The balance forfeited at expiry (0.0000 unless expired).')),
    source_type: z.string().check(z.describe('Free text; common values manual, vendor_return, price_adjustment, rebate, duplicate_payment, other.')),
    source_id: z.nullable(id()).check(z.describe('The vendor bill of a price_adjustment; the vendor return of a vendor_return; else null.')),
    status: z
      .enum(VENDOR_CREDIT_STATUSES)
      .check(
        z.describe(
          'open (nothing applied) → partially_applied → applied (remaining 0) as AP payments spend it, and back when a payment is voided; voided (its unapplied balance cancelled); expired (the expiry job forfeited the balance after expires_at).',
        ),
      ),
    credit_date: isoDate().check(z.describe('The date of the issuance journal entry.')),
    expires_at: z.nullable(timestamp()).check(z.describe('The remaining balance is forfeited after this instant; null means the credit never expires.')),
    currency: z.string(),
    memo: z.nullable(z.string()),
    metadata: z.record(z.string(), z.string()),
    created_by_user_id: z.nullable(id()),
    journal_entry_id: z.nullable(id()).check(z.describe('Issuance: debit vendor_returns_receivable, credit vendor_credits.')),
    voided_by: z.nullable(id()),
    voided_at: z.nullable(timestamp()),
    void_reason: z.nullable(z.string()),
    void_journal_entry_id: z.nullable(id()),
    expired_at: z.nullable(timestamp()),
    expiry_journal_entry_id: z.nullable(id()),
    vendor: z.optional(z.unknown()).check(z.describe('With expand[]=vendor.')),
    source: z
      .optional(z.unknown())
      .check(z.describe('With expand[]=source: the vendor bill (price_adjustment) or vendor return (vendor_return); null otherwise.')),
    applications: z.optional(z.array(VendorCreditApplication)).check(z.describe('With expand[]=applications: the application events, oldest first.')),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, {
    id: 'VendorCredit',
    description: 'A credit from a vendor, applied to its bills through AP payments (amounts are 4-decimal strings).',
  });
export type VendorCredit = z.infer<typeof VendorCredit>;

export const VendorCreditCreate = z.strictObject({
  vendor_id: id().check(z.describe('A vendor of the entity that is not archived.')),
  amount: decimalInput({ scale: CREDIT_SCALE, min: 0.01 }).check(
    z.describe(
      'At least 0.01, up to 4 decimals; 12.5 and "12.5000" alike. The ledger posts it rounded to cents, and AP payments apply whole cents of the remaining amount.',
    ),
  ),
  source_type: z
    .optional(z.string().check(z.regex(/^[a-z][a-z0-9_]{0,49}$/, 'must be lower snake case, at most 50 characters')))
    .check(
      z.describe(
        'Free text, default manual; common values manual, vendor_return, price_adjustment, rebate, duplicate_payment, other. price_adjustment needs source_id: a posted bill of the vendor.',
      ),
    ),
  source_id: z
    .optional(z.nullable(id()))
    .check(z.describe('price_adjustment: the vendor bill adjusted (required); other types: an id of your own, kept as sent.')),
  credit_date: z.optional(isoDate()).check(z.describe('Date of the issuance entry; defaults to today (UTC). A closed period is 422 period_closed.')),
  expires_at: z.optional(z.nullable(timestamp())).check(z.describe('After this instant the expiry job forfeits the remaining balance; must be in the future.')),
  memo: optionalText(1000),
  metadata: z.optional(metadata()),
});
export type VendorCreditCreate = z.infer<typeof VendorCreditCreate>;

export const VendorCreditVoid = z.strictObject({
  reason: optionalText(1000).check(z.describe('Why the credit is voided; kept as void_reason.')),
});
