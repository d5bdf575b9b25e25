import * as z from 'zod';
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
    code: z.string().describe('Account number, unique within the entity (case-insensitive).'),
    name: z.string(),
    description: z.string().nullable(),
    type: z.enum(GL_ACCOUNT_TYPES),
    subtype: z.enum(ALL_GL_ACCOUNT_SUBTYPES as [GlAccountSubtype, ...GlAccountSubtype[]]),
    normal_balance: z.enum(['debit', 'credit']).describe('Debit for assets and expenses, credit for liabilities, equity and revenue.'),
    system_key: z
      .enum(SYSTEM_ACCOUNT_KEYS)
      .nullable()
      .describe('Set on the accounts every entity gets; other modules post to them by this key. System accounts cannot be deactivated, retyped or deleted.'),
    is_bank: z.boolean().describe('Whether this is a bank account (subtype bank); bank accounts appear in the cash balance report.'),
    bank_account_id: id().nullable().describe('The bank account this GL account represents; set exactly when is_bank is true.'),
    is_active: z.boolean(),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'GlAccount' });
export type GlAccount = z.infer<typeof GlAccount>;

const subtype = () => z.enum(ALL_GL_ACCOUNT_SUBTYPES as [GlAccountSubtype, ...GlAccountSubtype[]]);

export const GlAccountCreate = z.strictObject({
  code: z.string().trim().min(1).max(20).describe('Unique within the entity (case-insensitive).'),
  name: z.string().trim().min(1).max(200),
  description: optionalText(1000),
  type: z.enum(GL_ACCOUNT_TYPES),
  subtype: subtype()
    .optional()
    .describe(
      'Must belong to the type; defaults to its first subtype. accounts_receivable, accounts_payable and retained_earnings belong to the system accounts.',
    ),
  is_active: z.boolean().optional().describe('Defaults to true.'),
  metadata: metadata().optional(),
});
export type GlAccountCreate = z.infer<typeof GlAccountCreate>;

export const GlAccountUpdate = z.strictObject({
  code: z.string().trim().min(1).max(20).optional(),
  name: z.string().trim().min(1).max(200).optional(),
  description: optionalText(1000),
  type: z.enum(GL_ACCOUNT_TYPES).optional().describe('Only while the account has no postings; never on system accounts.'),
  subtype: subtype().optional().describe('Within the type; moving into or out of bank only while the account has no postings; never on system accounts.'),
  is_active: z.boolean().optional().describe('System accounts cannot be deactivated.'),
  metadata: metadata().optional(),
});
export type GlAccountUpdate = z.infer<typeof GlAccountUpdate>;
