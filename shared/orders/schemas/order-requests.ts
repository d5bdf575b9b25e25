/** Request bodies of the order routes (and the adjustment answer); the Order object is in order.ts. */
import * as z from 'zod/mini';
import { decimalInput, PRICE_SCALE, QUANTITY_SCALE } from '../../money';
import { id, isoDate, metadata, optionalText, timestamp } from '../../schemas/common';
import { DOCUMENT_TYPES, OrderAdjustment } from './order';

const quantity = () => decimalInput({ scale: QUANTITY_SCALE, min: 0, exclusiveMin: true });
const unitPrice = () => decimalInput({ scale: PRICE_SCALE, min: 0 });
const cents = () => decimalInput({ scale: 2, min: 0 });
const percent = () => decimalInput({ scale: 4, min: 0, max: 100 });

const lineFields = () => ({
  quantity: quantity(),
  sell_rate: z.optional(unitPrice()).check(z.describe('Price override per unit; without it the catalog prices the line (pricing policies, else list price).')),
  unit_price: z.optional(unitPrice()).check(z.describe('Same as sell_rate; send one of them.')),
  discount_amount: z.optional(cents()).check(z.describe('A money discount for the whole line; exclusive with discount_percent.')),
  discount_percent: z.optional(z.nullable(percent())).check(z.describe('A percentage of line_subtotal; exclusive with discount_amount.')),
  tax_rate_id: z.optional(z.nullable(id())),
  is_tax_exempt: z.optional(z.boolean()),
  title: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(300))).check(z.describe("Defaults to the product's name.")),
  notes: optionalText(2000),
  product_tax_code: optionalText(50),
  weight: z.optional(z.nullable(decimalInput({ scale: QUANTITY_SCALE, min: 0 }))),
  sort_order: z.optional(z.number().check(z.int(), z.gte(0), z.lte(1_000_000))).check(z.describe('Defaults to after the last line.')),
  is_drop_ship: z.optional(z.boolean()),
  drop_ship_vendor_id: z.optional(z.nullable(id())),
  product_vendor_id: z.optional(z.nullable(id())),
  unit_of_measure_id: z
    .optional(z.nullable(id()))
    .check(z.describe('Purchase order lines only (400 elsewhere): the unit the vendor sells in; quantity stays in stock units.')),
});

export const OrderLineCreate = z.strictObject({ product_id: id(), ...lineFields() });
export type OrderLineCreate = z.infer<typeof OrderLineCreate>;

export const OrderLineUpdate = z.strictObject({
  quantity: z.optional(quantity()),
  sell_rate: z.optional(unitPrice()),
  unit_price: z.optional(unitPrice()),
  notes: optionalText(2000),
  discount_amount: z.optional(cents()),
  discount_percent: z.optional(z.nullable(percent())),
  tax_rate_id: z.optional(z.nullable(id())),
  is_drop_ship: z.optional(z.boolean()),
  drop_ship_vendor_id: z.optional(z.nullable(id())),
  unit_of_measure_id: z.optional(z.nullable(id())).check(z.describe('Purchase order lines only (400 elsewhere); null clears it.')),
  override: z.optional(z.boolean()).check(z.describe('Edit a paid document anyway: needs the orders.revision_override permission; audited.')),
  override_reason: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(500))),
});
export type OrderLineUpdate = z.infer<typeof OrderLineUpdate>;

const headerFields = () => ({
  location_id: z.optional(z.nullable(id())),
  po_number: optionalText(100),
  order_date: z.optional(timestamp()),
  due_date: z.optional(z.nullable(timestamp())),
  expires_at: z
    .optional(z.nullable(timestamp()))
    .check(
      z.describe(
        'Quotes only (400 parameter_invalid on other documents): when the quote lapses; past it the quote cannot be converted or confirmed. null: never.',
      ),
    ),
  shipping_total: z.optional(cents()),
  tax_exempt: z.optional(z.boolean()),
  delivery_option: z.optional(z.nullable(z.enum(['ship', 'pick_up', 'local_delivery']))),
  notes: optionalText(5000),
  internal_notes: optionalText(5000),
  ship_complete: z.optional(z.boolean()),
  source_platform: optionalText(100),
  external_order_id: optionalText(200),
  external_order_number: optionalText(200),
  metadata: z.optional(metadata()),
  sales_channel_id: z
    .optional(z.nullable(id()))
    .check(z.describe('The sales channel the order came through (an id your integration assigns); order approval rules can route by it.')),
});

export const OrderCreate = z.strictObject({
  document_type: z.enum(DOCUMENT_TYPES),
  account_id: id().check(z.describe('A customer account for quotes, sales orders, invoices and returns; a vendor for purchase orders.')),
  invoice_type: z.optional(z.enum(['order', 'manual', 'proforma', 'correction'])).check(z.describe('Invoices only; defaults to manual.')),
  ...headerFields(),
  lines: z.optional(z.array(OrderLineCreate).check(z.maxLength(500))),
  migration_batch_id: z
    .optional(id())
    .check(
      z.describe(
        "An open import batch of this entity: the document keeps it, imported_at is set, and source_platform defaults to the batch's external_source.",
      ),
    ),
});
export type OrderCreate = z.infer<typeof OrderCreate>;

export const OrderUpdate = z.strictObject({
  account_id: z.optional(id()),
  ...headerFields(),
});
export type OrderUpdate = z.infer<typeof OrderUpdate>;

export const OrderAdjustmentCreate = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))).check(z.describe('Display label. Required unless coupon_code is sent.')),
  effect_type: z.optional(z.enum(['discount', 'fee'])).check(z.describe('Required unless coupon_code is sent.')),
  discount_type: z.optional(z.enum(['percentage', 'fixed_amount'])).check(z.describe('Required unless coupon_code is sent.')),
  value: z
    .optional(decimalInput({ scale: 4, min: 0 }))
    .check(z.describe('For percentage 0 to 100; for fixed_amount a currency amount (2 decimals). Required unless coupon_code is sent.')),
  coupon_code: z
    .optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(50)))
    .check(
      z.describe(
        'A coupon to apply instead of a manual adjustment (same as POST /v1/orders/{id}/apply-coupon); exclusive with name, effect_type, discount_type and value.',
      ),
    ),
  notes: optionalText(2000),
  created_by_user_id: z.optional(id()).check(z.describe('The acting user; defaults to the user of the API key.')),
});
export type OrderAdjustmentCreate = z.infer<typeof OrderAdjustmentCreate>;
/** A manual adjustment: the E2 body without coupon_code, its four fields present. */
export type ManualAdjustment = Required<Pick<OrderAdjustmentCreate, 'name' | 'effect_type' | 'discount_type' | 'value'>> &
  Pick<OrderAdjustmentCreate, 'notes' | 'created_by_user_id'>;

export const OrderAdjustmentResult = z
  .extend(OrderAdjustment, {
    order_total: z.number().check(z.describe('The order total after this adjustment.')),
    discount_total: z.number(),
    fee_total: z.number(),
  })
  .register(z.globalRegistry, { id: 'OrderAdjustmentResult' });

const creditAmount = () => decimalInput({ scale: 2, min: 0, exclusiveMin: true });

export const CreditMemoApply = z.strictObject({
  invoice_id: id().check(z.describe("An open (posted, not voided) invoice of the credit memo's customer account.")),
  amount: z.optional(creditAmount()).check(z.describe("Default: as much as both allow (the credit left, at most the invoice's balance_due).")),
  applied_date: z
    .optional(isoDate())
    .check(
      z.describe(
        "The date the application is effective and its entry posts on. Default: today (UTC). Before the credit memo's order_date is 400; in a closed period 422 period_closed.",
      ),
    ),
});
export type CreditMemoApply = z.infer<typeof CreditMemoApply>;

export const CreditMemoRefund = z.strictObject({
  bank_account_id: id().check(z.describe('The bank_account_id of the bank GL account the refund is paid from.')),
  amount: z.optional(creditAmount()).check(z.describe('Default: all the credit left.')),
  refund_date: z.optional(isoDate()).check(z.describe('Default: today (UTC); the entry is refused in a closed period.')),
  reason: optionalText(500),
});
export type CreditMemoRefund = z.infer<typeof CreditMemoRefund>;
