/** Sales and purchase documents: one order resource, its line items and order-level adjustments. */
import * as z from 'zod/mini';
import { id, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

export const DOCUMENT_TYPES = ['quote', 'sales_order', 'invoice', 'return', 'purchase_order'] as const;
export const ORDER_STATUSES = ['draft', 'confirmed', 'partially_fulfilled', 'fulfilled', 'cancelled', 'voided', 'awaiting_ach_clearance', 'on_hold'] as const;
export const PAYMENT_STATUSES = ['unpaid', 'partially_paid', 'paid', 'overpaid', 'refunded', 'partially_refunded', 'voided'] as const;
const FULFILLMENT_STATUSES = ['unfulfilled', 'partially_fulfilled', 'fulfilled'] as const;

const editability = <T extends z.core.$ZodShape>(extra: T) => z.object({ allowed: z.boolean(), reason: z.nullable(z.string()), ...extra });

const LineEditability = z
  .object({
    qty: editability({ floor: z.number().check(z.describe('The quantity cannot go below this (fulfilled, returned or received).')) }),
    unit_cost: editability({ warn_received_qty: z.nullable(z.number()).check(z.describe('Units already received at the current cost, when any.')) }),
    delete: editability({}),
    notes: editability({}),
  })
  .check(
    z.describe(
      'What may change on this line now, and why not. Reasons: document_cancelled, document_voided, document_fulfilled, document_posted, document_paid, po_pending_approval_edit_locked (a purchase order awaiting approval: every key is locked until it is approved or rejected), dropship_po_issued, kit_component, quantity_fulfilled, quantity_returned, quantity_received.',
    ),
  );

const LineAdjustment = z.object({
  id: id(),
  source_type: z.string().check(z.describe('order_adjustment for an order-level discount.')),
  source_id: id(),
  source_label: z.string(),
  per_unit_amount: z.number(),
  quantity: z.number(),
  line_amount: z.number().check(z.describe("The line's share of the order-level discount; the shares of one discount sum to it exactly.")),
  proration_ratio: z.number(),
  applied_at: timestamp(),
});

export const OrderLineItem = z
  .object({
    id: id(),
    object: z.literal('order_line_item'),
    livemode: livemode(),
    entity_id: id(),
    order_id: id(),
    product_id: id(),
    variant_id: z.nullable(id()),
    product_vendor_id: z.nullable(id()),
    unit_of_measure_id: z
      .nullable(id())
      .check(z.describe('On purchase order lines: the unit the vendor sells in (quantity stays in stock units); null elsewhere.')),
    kit_parent_line_id: z.nullable(id()).check(z.describe("Set on a kit's component lines: they are carried for fulfillment and priced on the kit's line.")),
    sku: z.string(),
    title: z.string(),
    quantity: z.number(),
    quantity_fulfilled: z.number(),
    quantity_returned: z.number(),
    received_floor: z.number(),
    billed_quantity: z
      .number()
      .check(
        z.describe('Purchase order lines: units on vendor bills that are not voided (three-way match: never above the units received). 0 on other documents.'),
      ),
    line_editability: LineEditability,
    sell_rate: z.number().check(z.describe('Price per unit (4 decimals).')),
    unit_price: z.number().check(z.describe('Same as sell_rate.')),
    list_price: z.number(),
    pricing_rule_adjustment: z.number().check(z.describe('list_price − sell_rate, per unit.')),
    coupon_adjustment: z.number(),
    discount_amount: z.number().check(z.describe("The line's own discount, a money amount for the whole line.")),
    discount_percent: z.nullable(z.number()),
    line_subtotal: z.number().check(z.describe('sell_rate × quantity, rounded half away from zero to cents.')),
    tax_rate_id: z.nullable(id()),
    tax_amount: z.number(),
    line_total: z.number().check(z.describe('line_subtotal − discount_amount − coupon_adjustment − order-level discount shares + tax_amount.')),
    unit_cost: z.nullable(z.number()),
    weight: z.nullable(z.number()),
    adjustments: z.array(LineAdjustment),
    is_tax_exempt: z.boolean(),
    product_tax_code: z.nullable(z.string()),
    is_drop_ship: z.boolean(),
    drop_ship_vendor_id: z.nullable(id()),
    drop_ship_po_id: z.nullable(id()),
    notes: z.nullable(z.string()),
    sort_order: z.number().check(z.int()),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'OrderLineItem' });
export type OrderLineItem = z.infer<typeof OrderLineItem>;

export const OrderAdjustment = z
  .object({
    id: id(),
    object: z.literal('order_adjustment'),
    livemode: livemode(),
    entity_id: id(),
    order_id: id(),
    name: z.string(),
    effect_type: z.enum(['discount', 'fee']),
    discount_type: z.enum(['percentage', 'fixed_amount']),
    value: z.number(),
    amount: z.number().check(z.describe('The money effect now: capped at the merchandise left for discounts.')),
    notes: z.nullable(z.string()),
    created_by_user_id: id(),
    coupon_id: z
      .nullable(id())
      .check(z.describe("The coupon this discount redeems (apply-coupon); its line shares are the lines' coupon_adjustment, source_type coupon.")),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, { id: 'OrderAdjustment' });
export type OrderAdjustment = z.infer<typeof OrderAdjustment>;

export const Order = z
  .object({
    id: id(),
    object: z.literal('order'),
    livemode: livemode(),
    entity_id: id(),
    order_number: z.string().check(z.describe('Gap-free per entity and document type: QT-, SO-, INV-, RMA-, PO- then 6 digits.')),
    document_type: z.enum(DOCUMENT_TYPES),
    order_status: z.enum(ORDER_STATUSES),
    payment_status: z
      .enum(PAYMENT_STATUSES)
      .check(
        z.describe(
          'Recomputed on every change of totals or payments: voided when the document is voided, or when its payments were voided leaving nothing paid and no refunds; else overpaid when amount_paid > order_total (whatever the refunds); with refunds, refunded once they gave the whole document back, else partially_refunded; else unpaid (nothing paid), paid (amount_paid = order_total) or partially_paid.',
        ),
      ),
    fulfillment_status: z.enum(FULFILLMENT_STATUSES),
    account_id: id().check(z.describe('A customer account on sales documents, a vendor on purchase orders.')),
    location_id: z.nullable(id()),
    po_number: z.nullable(z.string()),
    order_date: timestamp(),
    due_date: z.nullable(timestamp()),
    expires_at: z
      .nullable(timestamp())
      .check(
        z.describe('Quotes: when the quote lapses (null: never). Past it, an open (draft or confirmed) quote is expired: it cannot be converted or confirmed.'),
      ),
    is_expired: z
      .boolean()
      .check(
        z.describe(
          'A quote past its expires_at, still draft or confirmed (a read-time rule: true from that instant, with no job to wait for). Always false on other documents.',
        ),
      ),
    is_archived: z
      .boolean()
      .check(
        z.describe(
          'Archived (POST /v1/orders/{id}/archive): a closed document filed away, left out of lists unless archived=true or all is asked for, and read-only until unarchived.',
        ),
      ),
    archived_at: z.nullable(timestamp()),
    subtotal: z.number(),
    discount_total: z.number(),
    shipping_total: z.number(),
    tax_total: z.number(),
    fee_total: z.number(),
    order_total: z.number(),
    list_price_total: z
      .number()
      .check(
        z.describe(
          "Display-only: Σ list_price × quantity (each rounded to the cent) over the non-kit lines: a kit's or bundle's line that carries component lines, and those component lines, are left out. list_price_total − pricing_savings = the subtotal of those lines; never part of order_total.",
        ),
      ),
    pricing_savings: z
      .number()
      .check(
        z.describe(
          'Display-only: Σ pricing_rule_adjustment × quantity over the non-kit lines (list_price_total minus their line subtotals), a positive magnitude when lines sell below list price; already inside subtotal through sell_rate, never subtracted from order_total.',
        ),
      ),
    amount_paid: z
      .number()
      .check(
        z.describe(
          'Money received on the document and kept (payments and applied deposits, less refunds). On a sales order: the deposit it still holds plus what its live invoices were paid; what credit memos applied to those invoices is in amount_credited, not here.',
        ),
      ),
    balance_due: z
      .number()
      .check(
        z.describe(
          'Maintained by the server: 0 on draft sales documents, on cancelled orders and on voided or fully-refunded invoices; otherwise order_total − amount_paid (− amount_credited on an invoice credited by returns). A confirmed credit-memo return carries −(its credit not yet applied): customer credit. Never forced on purchase orders and quotes.',
        ),
      ),
    amount_due: z.number().check(z.describe('order_total − amount_paid, rounded to 2 decimals; status-blind; negative when overpaid.')),
    tax_exempt: z.boolean(),
    delivery_option: z.nullable(z.enum(['ship', 'pick_up', 'local_delivery'])),
    notes: z.nullable(z.string()),
    internal_notes: z.nullable(z.string()),
    invoice_number: z.nullable(z.string()),
    invoice_type: z.nullable(z.enum(['order', 'manual', 'proforma', 'correction'])),
    is_on_hold: z.boolean(),
    hold_type: z.nullable(z.string()),
    ship_complete: z.boolean(),
    source_platform: z.nullable(z.string()),
    external_order_id: z.nullable(z.string()),
    external_order_number: z.nullable(z.string()),
    metadata: z.record(z.string(), z.string()),
    revision_count: z.number().check(z.int()),
    duplicated_from_id: z.nullable(id()),
    converted_from_id: z.nullable(id()).check(z.describe('The quote or sales order this document was converted from (POST /v1/orders/{id}/convert).')),
    journal_entry_id: z.nullable(id()).check(z.describe("A posted invoice's AR journal entry (reversed when the invoice is voided).")),
    hold_reason: z.nullable(z.string()),
    sales_channel_id: z
      .nullable(id())
      .check(z.describe('The sales channel the order came through: an id the integrator assigns; approval rules can route by it.')),
    approval_rule_id: z
      .nullable(id())
      .check(
        z.describe('The order approval rule that held this order for approval (a sales order when confirmed; a purchase order when submitted or confirmed).'),
      ),
    approver_user_id: z.nullable(id()).check(z.describe("That rule's approver when the order was routed.")),
    approval_requested_at: z.nullable(timestamp()),
    approved_by: z.nullable(id()),
    approved_at: z.nullable(timestamp()),
    rejected_by: z.nullable(id()).check(z.describe('Who last rejected the order (it went back to draft).')),
    rejected_at: z.nullable(timestamp()),
    rejection_reason: z.nullable(z.string()),
    source_order_id: z
      .nullable(id())
      .check(z.describe('Returns: the shipped sales order or posted invoice the goods came from (POST /v1/orders/{id}/returns); null on a plain return.')),
    amount_credited: z
      .number()
      .check(
        z.describe(
          'Credit memos: on an invoice, the return credits applied to it (they lower balance_due, never amount_due); on a return, the part of its credit applied to invoices: its source invoice when it posted, and others of the account with POST /v1/orders/{id}/apply-credit (the rest, less credit_refunded, is customer credit, shown as a negative balance_due).',
        ),
      ),
    credit_refunded: z
      .number()
      .check(
        z.describe(
          'Returns: the part of the credit memo paid back to the customer (POST /v1/orders/{id}/refund-credit); 0 on other documents. balance_due = −(order_total − amount_credited − credit_refunded) on a confirmed credit memo.',
        ),
      ),
    migration_batch_id: z.nullable(id()).check(z.describe('The import batch the document was created in.')),
    imported_at: z.nullable(timestamp()).check(z.describe('When it was created in an import batch.')),
    sent_at: z.nullable(timestamp()).check(z.describe('Purchase orders: when it was last sent to the vendor (POST /v1/orders/{id}/send).')),
    sent_to: z.nullable(z.string()).check(z.describe('Purchase orders: the address it was last sent to.')),
    created_by_user_id: z.nullable(id()),
    created_at: timestamp(),
    updated_at: timestamp(),
    lines: z.optional(z.array(OrderLineItem)).check(z.describe('Always on a single order; on lists with expand[]=data.lines.')),
    adjustments: z.optional(z.array(OrderAdjustment)).check(z.describe('Always on a single order; on lists with expand[]=data.adjustments.')),
    account: z.optional(z.unknown()).check(z.describe('With expand[]=account: the Account (or Vendor on purchase orders).')),
  })
  .register(z.globalRegistry, { id: 'Order' });
export type Order = z.infer<typeof Order>;
