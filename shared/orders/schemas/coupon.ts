import * as z from 'zod';
import { decimalInput } from '../../money';
import { id, metadata, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

const code = () =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,50}$/, 'must be 1 to 50 letters, digits, hyphens or underscores')
    .describe('Unique within the entity, case-insensitive (SAVE10 and save10 are the same coupon).');
const limit = () => z.number().int().min(1).max(1_000_000_000);

export const Coupon = z
  .object({
    id: id(),
    object: z.literal('coupon'),
    livemode: livemode(),
    entity_id: id(),
    code: z.string(),
    name: z.string(),
    discount_type: z.enum(['percentage', 'fixed_amount']),
    value: z.number().describe('For percentage 0 to 100 (exclusive of 0); for fixed_amount a currency amount.'),
    valid_from: timestamp().nullable().describe('Not redeemable before this instant; null: from creation.'),
    valid_until: timestamp().nullable().describe('Not redeemable from this instant on; null: never expires.'),
    max_redemptions: z.number().int().nullable().describe('Total redemptions allowed; null: unlimited.'),
    max_redemptions_per_account: z.number().int().nullable().describe('Redemptions allowed per customer account; null: unlimited.'),
    times_redeemed: z.number().int().describe('Maintained by the server: documents that redeemed this coupon and still carry it.'),
    min_order_subtotal: z.number().nullable().describe("The document's subtotal must reach this when the coupon is applied."),
    is_active: z.boolean(),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'Coupon' });
export type Coupon = z.infer<typeof Coupon>;

const window = () => ({
  valid_from: timestamp().nullable().optional(),
  valid_until: timestamp().nullable().optional().describe('Must be after valid_from.'),
  max_redemptions: limit().nullable().optional(),
  max_redemptions_per_account: limit().nullable().optional(),
  min_order_subtotal: decimalInput({ scale: 2, min: 0 }).nullable().optional(),
  is_active: z.boolean().optional(),
  metadata: metadata().optional(),
});

export const CouponCreate = z.strictObject({
  code: code(),
  name: z.string().trim().min(1).max(200).optional().describe('Display label; defaults to the code. It labels the adjustment on documents.'),
  discount_type: z.enum(['percentage', 'fixed_amount']),
  value: decimalInput({ scale: 4, min: 0, exclusiveMin: true }).describe('For percentage up to 100; for fixed_amount a currency amount (2 decimals).'),
  ...window(),
});
export type CouponCreate = z.infer<typeof CouponCreate>;

export const CouponUpdate = z.strictObject({
  code: code().optional(),
  name: z.string().trim().min(1).max(200).optional(),
  discount_type: z.enum(['percentage', 'fixed_amount']).optional(),
  value: decimalInput({ scale: 4, min: 0, exclusiveMin: true }).optional(),
  ...window(),
});
export type CouponUpdate = z.infer<typeof CouponUpdate>;

export const ApplyCoupon = z.strictObject({
  code: z.string().trim().min(1).max(50).describe('The coupon code (case-insensitive).'),
  notes: z.string().trim().max(2000).nullable().optional(),
  created_by_user_id: id().optional().describe('The acting user; defaults to the user of the API key.'),
});
export type ApplyCoupon = z.infer<typeof ApplyCoupon>;
