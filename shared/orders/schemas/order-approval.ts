/** Order approval rules (E9, sales and purchase orders) and the approve / reject request bodies. */
import * as z from 'zod';
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
      .describe('What the rule routes: sales orders (by customer account and/or sales channel) or purchase orders (by vendor, or every purchase order).'),
    account_id: id().nullable().describe('The customer account whose sales orders this rule routes; null when the rule is per channel only.'),
    sales_channel_id: id()
      .nullable()
      .describe("The sales channel (the integrator's id, as sent on orders) whose sales orders this rule routes; null when per customer only."),
    vendor_id: id()
      .nullable()
      .describe('Purchase order rules: the vendor whose purchase orders this rule routes; null routes every purchase order. Always null on sales order rules.'),
    threshold_amount: z
      .number()
      .describe('A sales order confirmed (or a purchase order submitted or confirmed) with order_total strictly over this amount is held for approval.'),
    approver_user_id: id().describe('The user who approves or rejects the orders this rule holds.'),
    is_active: z.boolean().describe('Inactive rules route nothing.'),
    created_by_user_id: id().nullable(),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .meta({ id: 'OrderApprovalRule' });
export type OrderApprovalRule = z.infer<typeof OrderApprovalRule>;

export const OrderApprovalRuleCreate = z.strictObject({
  document_type: z
    .enum(APPROVAL_DOCUMENT_TYPES)
    .optional()
    .describe(
      'sales_order (default) or purchase_order. A purchase order rule takes vendor_id (or nothing: every purchase order) and no account_id or sales_channel_id.',
    ),
  vendor_id: id().nullable().optional().describe('Purchase order rules: a vendor of the entity; left out or null, the rule routes every purchase order.'),
  account_id: id()
    .nullable()
    .optional()
    .describe('A customer account of the entity. At least one of account_id and sales_channel_id; both narrows the rule to that customer in that channel.'),
  sales_channel_id: id().nullable().optional().describe('The sales channel id the integrator puts on orders (sales_channel_id).'),
  threshold_amount: decimalInput({ scale: 2, min: 0 }).describe('2 decimals, at least 0.'),
  approver_user_id: id().describe('An active user of the entity.'),
  is_active: z.boolean().optional().describe('Defaults to true.'),
});
export type OrderApprovalRuleCreate = z.infer<typeof OrderApprovalRuleCreate>;

export const OrderApprovalRuleUpdate = z.strictObject({
  vendor_id: id().nullable().optional().describe('Purchase order rules only.'),
  account_id: id().nullable().optional(),
  sales_channel_id: id().nullable().optional(),
  threshold_amount: decimalInput({ scale: 2, min: 0 }).optional(),
  approver_user_id: id().optional(),
  is_active: z.boolean().optional(),
});
export type OrderApprovalRuleUpdate = z.infer<typeof OrderApprovalRuleUpdate>;

export const OrderRejection = z.strictObject({
  reason: z.string().trim().min(1).max(1000).describe('Why the order is rejected; kept as rejection_reason.'),
});
export type OrderRejection = z.infer<typeof OrderRejection>;
