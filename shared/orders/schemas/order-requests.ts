/** Request bodies of the order routes (and the adjustment answer); the Order object is in order.ts. */
import * as z from 'zod';
import { decimalInput, PRICE_SCALE, QUANTITY_SCALE } from '../../money';
import { id, isoDate, metadata, optionalText, timestamp } from '../../schemas/common';
import { DOCUMENT_TYPES, OrderAdjustment } from './order';

const quantity = () => decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true });
const unitPrice = () => decimalInput({ scale: PRICE_SCALE, min: 0 });
const cents = () => decimalInput({ scale: 2, min: 0 });
const percent = () => decimalInput({ scale: 4, min: 0, max: 100 });

const lineFields = () => ({
  quantity: quantity(),
  sell_rate: unitPrice().optional().describe('Price override per unit; without it the catalog prices the line (pricing policies, else list price).'),
  unit_price: unitPrice().optional().describe('Same as sell_rate; send one of them.'),
  discount_amount: cents().optional().describe('A money discount for the whole line; exclusive with discount_percent.'),
  discount_percent: percent().nullable().optional().describe('A percentage of line_subtotal; exclusive with discount_amount.'),
  tax_rate_id: id().nullable().optional(),
  is_tax_exempt: z.boolean().optional(),
  title: z.string().trim().min(1).max(300).optional().describe("Defaults to the product's name."),
  notes: optionalText(2000),
  product_tax_code: optionalText(50),
  weight: decimalInput({ scale: QUANTITY_SCALE, min: 0 }).nullable().optional(),
  sort_order: z.number().int().min(0).max(1_000_000).optional().describe('Defaults to after the last line.'),
  is_drop_ship: z.boolean().optional(),
  drop_ship_vendor_id: id().nullable().optional(),
  product_vendor_id: id().nullable().optional(),
  unit_of_measure_id: id()
    .nullable()
    .optional()
    .describe('Purchase order lines only (400 elsewhere): the unit the vendor sells in; quantity stays in stock units.'),
});

export const OrderLineCreate = z.strictObject({ product_id: id(), ...lineFields() });
export type OrderLineCreate = z.infer<typeof OrderLineCreate>;

export const OrderLineUpdate = z.strictObject({
  quantity: quantity().optional(),
  sell_rate: unitPrice().optional(),
  unit_price: unitPrice().optional(),
  notes: optionalText(2000),
  discount_amount: cents().optional(),
  discount_percent: percent().nullable().optional(),
  tax_rate_id: id().nullable().optional(),
  is_drop_ship: z.boolean().optional(),
  drop_ship_vendor_id: id().nullable().optional(),
  unit_of_measure_id: id().nullable().optional().describe('Purchase order lines only (400 elsewhere); null clears it.'),
  override: z.boolean().optional().describe('Edit a paid document anyway: needs the orders.revision_override permission; audited.'),
  override_reason: z.string().trim().min(1).max(500).optional(),
});
export type OrderLineUpdate = z.infer<typeof OrderLineUpdate>;

const headerFields = () => ({
  location_id: id().nullable().optional(),
  po_number: optionalText(100),
  order_date: timestamp().optional(),
  due_date: timestamp().nullable().optional(),
  expires_at: timestamp()
    .nullable()
    .optional()
    .describe(
      'Quotes only (400 parameter_invalid on other documents): when the quote lapses; past it the quote cannot be converted or confirmed. null: never.',
    ),
  shipping_total: cents().optional(),
  tax_exempt: z.boolean().optional(),
  delivery_option: z.enum(['ship', 'pick_up', 'local_delivery']).nullable().optional(),
  notes: optionalText(5000),
  internal_notes: optionalText(5000),
  ship_complete: z.boolean().optional(),
  source_platform: optionalText(100),
  external_order_id: optionalText(200),
  external_order_number: optionalText(200),
  metadata: metadata().optional(),
  sales_channel_id: id()
    .nullable()
    .optional()
    .describe('The sales channel the order came through (an id your integration assigns); order approval rules can route by it.'),
});

export const OrderCreate = z.strictObject({
  document_type: z.enum(DOCUMENT_TYPES),
  account_id: id().describe('A customer account for quotes, sales orders, invoices and returns; a vendor for purchase orders.'),
  invoice_type: z.enum(['order', 'manual', 'proforma', 'correction']).optional().describe('Invoices only; defaults to manual.'),
  ...headerFields(),
  lines: z.array(OrderLineCreate).max(500).optional(),
  migration_batch_id: id()
    .optional()
    .describe("An open import batch of this entity: the document keeps it, imported_at is set, and source_platform defaults to the batch's external_source."),
});
export type OrderCreate = z.infer<typeof OrderCreate>;

export const OrderUpdate = z.strictObject({
  account_id: id().optional(),
  ...headerFields(),
});
export type OrderUpdate = z.infer<typeof OrderUpdate>;

export const OrderAdjustmentCreate = z.strictObject({
  name: z.string().trim().min(1).max(200).optional().describe('Display label. Required unless coupon_code is sent.'),
  effect_type: z.enum(['discount', 'fee']).optional().describe('Required unless coupon_code is sent.'),
  discount_type: z.enum(['percentage', 'fixed_amount']).optional().describe('Required unless coupon_code is sent.'),
  value: decimalInput({ scale: 4, min: 0 })
    .optional()
    .describe('For percentage 0 to 100; for fixed_amount a currency amount (2 decimals). Required unless coupon_code is sent.'),
  coupon_code: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .optional()
    .describe(
      'A coupon to apply instead of a manual adjustment (same as POST /v1/orders/{id}/apply-coupon); exclusive with name, effect_type, discount_type and value.',
    ),
  notes: optionalText(2000),
  created_by_user_id: id().optional().describe('The acting user; defaults to the user of the API key.'),
});
export type OrderAdjustmentCreate = z.infer<typeof OrderAdjustmentCreate>;
/** A manual adjustment: the E2 body without coupon_code, its four fields present. */
export type ManualAdjustment = Required<Pick<OrderAdjustmentCreate, 'name' | 'effect_type' | 'discount_type' | 'value'>> &
  Pick<OrderAdjustmentCreate, 'notes' | 'created_by_user_id'>;

export const OrderAdjustmentResult = OrderAdjustment.extend({
  order_total: z.number().describe('The order total after this adjustment.'),
  discount_total: z.number(),
  fee_total: z.number(),
}).meta({ id: 'OrderAdjustmentResult' });

const creditAmount = () => decimalInput({ scale: 2, min: 0, exclusiveMin: true });

export const CreditMemoApply = z.strictObject({
  invoice_id: id().describe("An open (posted, not voided) invoice of the credit memo's customer account."),
  amount: creditAmount().optional().describe("Default: as much as both allow (the credit left, at most the invoice's balance_due)."),
  applied_date: isoDate()
    .optional()
    .describe(
      "The date the application is effective and its entry posts on. Default: today (UTC). Before the credit memo's order_date is 400; in a closed period 422 period_closed.",
    ),
});
export type CreditMemoApply = z.infer<typeof CreditMemoApply>;

export const CreditMemoRefund = z.strictObject({
  bank_account_id: id().describe('The bank_account_id of the bank GL account the refund is paid from.'),
  amount: creditAmount().optional().describe('Default: all the credit left.'),
  refund_date: isoDate().optional().describe('Default: today (UTC); the entry is refused in a closed period.'),
  reason: optionalText(500),
});
export type CreditMemoRefund = z.infer<typeof CreditMemoRefund>;
