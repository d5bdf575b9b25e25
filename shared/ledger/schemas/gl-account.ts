import * as z from 'zod/mini';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const GL_ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
export type GlAccountType = (typeof GL_ACCOUNT_TYPES)[number];

/** Detail types within each account type (as in QuickBooks Online), the first being the default. */
export const GL_ACCOUNT_SUBTYPES = {
  asset: ['other_current_asset', 'bank', 'accounts_receivable', 'inventory', 'fixed_asset', 'other_asset'],
  liability: ['other_current_liability', 'accounts_payable', 'credit_card', 'long_term_liability'],
  equity: ['owners_equity', 'retained_earnings', 'opening_balance_equity'],
  revenue: ['income', 'other_income'],
  expense: ['expense', 'cost_of_goods_sold', 'other_expense'],
} as const satisfies Record<GlAccountType, readonly string[]>;
export const ALL_GL_ACCOUNT_SUBTYPES = Object.values(GL_ACCOUNT_SUBTYPES).flat();
export type GlAccountSubtype = (typeof ALL_GL_ACCOUNT_SUBTYPES)[number];

/** Subtypes only the system accounts carry: the control accounts their sub-ledgers tie to, and the one retained earnings. */
export const RESERVED_SUBTYPES: readonly string[] = ['accounts_receivable', 'accounts_payable', 'retained_earnings'];

const SYSTEM_ACCOUNT_KEYS = [
  'bank',
  'undeposited_funds',
  'accounts_receivable',
  'inventory',
  'vendor_returns_receivable',
  'accounts_payable',
  'received_not_billed',
  'customer_credits',
  'vendor_credits',
  'sales_tax_payable',
  'opening_balance_equity',
  'retained_earnings',
  'sales_revenue',
  'cost_of_goods_sold',
  'purchase_price_variance',
  'inventory_adjustments',
] as const;
export type SystemAccountKey = (typeof SYSTEM_ACCOUNT_KEYS)[number];

export const GlAccount = z
  .object({
    id: id(),
    object: z.literal('gl_account'),
    livemode: livemode(),
    entity_id: id(),
    code: z.string().check(z.describe('Account number, unique within the entity (case-insensitive).')),
    name: z.string(),
    description: z.nullable(z.string()),
    type: z.enum(GL_ACCOUNT_TYPES),
    subtype: z.enum(ALL_GL_ACCOUNT_SUBTYPES as [GlAccountSubtype, ...GlAccountSubtype[]]),
    normal_balance: z.enum(['debit', 'credit']).check(z.describe('Debit for assets and expenses, credit for liabilities, equity and revenue.')),
    system_key: z
      .nullable(z.enum(SYSTEM_ACCOUNT_KEYS))
      .check(
        z.describe('Set on the accounts every entity gets; other modules post to them by this key. System accounts cannot be deactivated, retyped or deleted.'),
      ),
    is_bank: z.boolean().check(z.describe('Whether this is a bank account (subtype bank); bank accounts appear in the cash balance report.')),
    bank_account_id: z.nullable(id()).check(z.describe('The bank account this GL account represents; set exactly when is_bank is true.')),
    is_active: z.boolean(),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'GlAccount' });
export type GlAccount = z.infer<typeof GlAccount>;

const subtype = () => z.enum(ALL_GL_ACCOUNT_SUBTYPES as [GlAccountSubtype, ...GlAccountSubtype[]]);

export const GlAccountCreate = z.strictObject({
  code: z.string().check(z.trim(), z.minLength(1), z.maxLength(20), z.describe('Unique within the entity (case-insensitive).')),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  description: optionalText(1000),
  type: z.enum(GL_ACCOUNT_TYPES),
  subtype: z
    .optional(subtype())
    .check(
      z.describe(
        'Must belong to the type; defaults to its first subtype. accounts_receivable, accounts_payable and retained_earnings belong to the system accounts.',
      ),
    ),
  is_active: z.optional(z.boolean()).check(z.describe('Defaults to true.')),
  metadata: z.optional(metadata()),
});
export type GlAccountCreate = z.infer<typeof GlAccountCreate>;

export const GlAccountUpdate = z.strictObject({
  code: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(20))),
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  description: optionalText(1000),
  type: z.optional(z.enum(GL_ACCOUNT_TYPES)).check(z.describe('Only while the account has no postings; never on system accounts.')),
  subtype: z
    .optional(subtype())
    .check(z.describe('Within the type; moving into or out of bank only while the account has no postings; never on system accounts.')),
  is_active: z.optional(z.boolean()).check(z.describe('System accounts cannot be deactivated.')),
  metadata: z.optional(metadata()),
});
export type GlAccountUpdate = z.infer<typeof GlAccountUpdate>;
