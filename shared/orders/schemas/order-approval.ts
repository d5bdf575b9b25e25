/** Order approval rules (E9, sales and purchase orders) and the approve / reject request bodies. */
import * as z from 'zod/mini';
import { decimalInput } from '../../money';
import { id, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const APPROVAL_DOCUMENT_TYPES = ['sales_order', 'purchase_order'] as const;

export const OrderApprovalRule = z
  .object({
    id: id(),
    object: z.literal('order_approval_rule'),
    livemode: livemode(),
    entity_id: id(),
    document_type: z
      .enum(APPROVAL_DOCUMENT_TYPES)
      .check(
        z.describe('What the rule routes: sales orders (by customer account and/or sales channel) or purchase orders (by vendor, or every purchase order).'),
      ),
    account_id: z.nullable(id()).check(z.describe('The customer account whose sales orders this rule routes; null when the rule is per channel only.')),
    sales_channel_id: z
      .nullable(id())
      .check(z.describe("The sales channel (the integrator's id, as sent on orders) whose sales orders this rule routes; null when per customer only.")),
    vendor_id: z
      .nullable(id())
      .check(
        z.describe(
          'Purchase order rules: the vendor whose purchase orders this rule routes; null routes every purchase order. Always null on sales order rules.',
        ),
      ),
    threshold_amount: z
      .number()
      .check(
        z.describe('A sales order confirmed (or a purchase order submitted or confirmed) with order_total strictly over this amount is held for approval.'),
      ),
    approver_user_id: id().check(z.describe('The user who approves or rejects the orders this rule holds.')),
    is_active: z.boolean().check(z.describe('Inactive rules route nothing.')),
    created_by_user_id: z.nullable(id()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'OrderApprovalRule' });
export type OrderApprovalRule = z.infer<typeof OrderApprovalRule>;

export const OrderApprovalRuleCreate = z.strictObject({
  document_type: z
    .optional(z.enum(APPROVAL_DOCUMENT_TYPES))
    .check(
      z.describe(
        'sales_order (default) or purchase_order. A purchase order rule takes vendor_id (or nothing: every purchase order) and no account_id or sales_channel_id.',
      ),
    ),
  vendor_id: z
    .optional(z.nullable(id()))
    .check(z.describe('Purchase order rules: a vendor of the entity; left out or null, the rule routes every purchase order.')),
  account_id: z
    .optional(z.nullable(id()))
    .check(
      z.describe('A customer account of the entity. At least one of account_id and sales_channel_id; both narrows the rule to that customer in that channel.'),
    ),
  sales_channel_id: z.optional(z.nullable(id())).check(z.describe('The sales channel id the integrator puts on orders (sales_channel_id).')),
  threshold_amount: decimalInput({ scale: 2, min: 0 }).check(z.describe('2 decimals, at least 0.')),
  approver_user_id: id().check(z.describe('An active user of the entity.')),
  is_active: z.optional(z.boolean()).check(z.describe('Defaults to true.')),
});
export type OrderApprovalRuleCreate = z.infer<typeof OrderApprovalRuleCreate>;

export const OrderApprovalRuleUpdate = z.strictObject({
  vendor_id: z.optional(z.nullable(id())).check(z.describe('Purchase order rules only.')),
  account_id: z.optional(z.nullable(id())),
  sales_channel_id: z.optional(z.nullable(id())),
  threshold_amount: z.optional(decimalInput({ scale: 2, min: 0 })),
  approver_user_id: z.optional(id()),
  is_active: z.optional(z.boolean()),
});
export type OrderApprovalRuleUpdate = z.infer<typeof OrderApprovalRuleUpdate>;

export const OrderRejection = z.strictObject({
  reason: z.string().check(z.trim(), z.minLength(1), z.maxLength(1000), z.describe('Why the order is rejected; kept as rejection_reason.')),
});
export type OrderRejection = z.infer<typeof OrderRejection>;
