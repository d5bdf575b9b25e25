import * as z from 'zod/mini';
import { decimalInput } from '../../money';
import { id, metadata, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

const code = () =>
  z
    .string()
    .check(
      z.trim(),
      z.regex(/^[A-Za-z0-9_-]{1,50}$/, 'must be 1 to 50 letters, digits, hyphens or underscores'),
      z.describe('Unique within the entity, case-insensitive (SAVE10 and save10 are the same coupon).'),
    );
const limit = () => z.number().check(z.int(), z.gte(1), z.lte(1_000_000_000));

export const Coupon = z
  .object({
    id: id(),
    object: z.literal('coupon'),
    livemode: livemode(),
    entity_id: id(),
    code: z.string(),
    name: z.string(),
    discount_type: z.enum(['percentage', 'fixed_amount']),
    value: z.number().check(z.describe('For percentage 0 to 100 (exclusive of 0); for fixed_amount a currency amount.')),
    valid_from: z.nullable(timestamp()).check(z.describe('Not redeemable before this instant; null: from creation.')),
    valid_until: z.nullable(timestamp()).check(z.describe('Not redeemable from this instant on; null: never expires.')),
    max_redemptions: z.nullable(z.number().check(z.int())).check(z.describe('Total redemptions allowed; null: unlimited.')),
    max_redemptions_per_account: z.nullable(z.number().check(z.int())).check(z.describe('Redemptions allowed per customer account; null: unlimited.')),
    times_redeemed: z.number().check(z.int(), z.describe('Maintained by the server: documents that redeemed this coupon and still carry it.')),
    min_order_subtotal: z.nullable(z.number()).check(z.describe("The document's subtotal must reach this when the coupon is applied.")),
    is_active: z.boolean(),
    metadata: z.record(z.string(), z.string()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'Coupon' });
export type Coupon = z.infer<typeof Coupon>;

const window = () => ({
  valid_from: z.optional(z.nullable(timestamp())),
  valid_until: z.optional(z.nullable(timestamp())).check(z.describe('Must be after valid_from.')),
  max_redemptions: z.optional(z.nullable(limit())),
  max_redemptions_per_account: z.optional(z.nullable(limit())),
  min_order_subtotal: z.optional(z.nullable(decimalInput({ scale: 2, min: 0 }))),
  is_active: z.optional(z.boolean()),
  metadata: z.optional(metadata()),
});

export const CouponCreate = z.strictObject({
  code: code(),
  name: z
    .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200)))
    .check(z.describe('Display label; defaults to the code. It labels the adjustment on documents.')),
  discount_type: z.enum(['percentage', 'fixed_amount']),
  value: decimalInput({ scale: 4, min: 0, exclusiveMin: true }).check(z.describe('For percentage up to 100; for fixed_amount a currency amount (2 decimals).')),
  ...window(),
});
export type CouponCreate = z.infer<typeof CouponCreate>;

export const CouponUpdate = z.strictObject({
  code: z.optional(code()),
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
  discount_type: z.optional(z.enum(['percentage', 'fixed_amount'])),
  value: z.optional(decimalInput({ scale: 4, min: 0, exclusiveMin: true })),
  ...window(),
});
export type CouponUpdate = z.infer<typeof CouponUpdate>;

export const ApplyCoupon = z.strictObject({
  code: z.string().check(z.trim(), z.minLength(1), z.maxLength(50), z.describe('The coupon code (case-insensitive).')),
  notes: z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(2000)))),
  created_by_user_id: z.optional(id()).check(z.describe('The acting user; defaults to the user of the API key.')),
});
export type ApplyCoupon = z.infer<typeof ApplyCoupon>;
