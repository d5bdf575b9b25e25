/**
 * The event contracts: every event type the API emits, the version of its payload and the schema
 * of `data.object`. The recorder accepts only these types; the webhook dispatcher and the docs
 * read the same list. A change in an object's meaning gets a new version and a changelog entry;
 * every event carries its type's version as `payload_version`, stamped by the outbox from
 * shared/events/payload-versions.ts, which a unit test holds equal to the versions here.
 */
import * as z from 'zod/mini';
import type { EventType } from './types';
import { ApiKey } from '../shared/tenants/schemas/api-key';
import { Location } from '../shared/inventory/schemas/location';
import { Manufacturer } from '../shared/catalog/schemas/manufacturer';
import { AccountingPeriod } from '../shared/ledger/schemas/accounting-period';
import { GlAccount } from '../shared/ledger/schemas/gl-account';
import { JournalEntry } from '../shared/ledger/schemas/journal-entry';
import { RecurringJournalTemplate } from '../shared/ledger/schemas/recurring-journal-entry';
import { InventoryBalance, InventoryTransaction } from '../shared/inventory/schemas/inventory';
import { Account, Vendor } from '../shared/parties/schemas/party';
import { Product } from '../shared/catalog/schemas/product';
import { KitComponent } from '../shared/catalog/schemas/kit';
import { PricingLevel, PricingPolicy } from '../shared/catalog/schemas/pricing';
import { ProductOption } from '../shared/catalog/schemas/product-option';
import { ProductVendor } from '../shared/catalog/schemas/product-vendor';
import { Tag } from '../shared/catalog/schemas/tag';
import { UnitOfMeasure } from '../shared/catalog/schemas/unit-of-measure';
import { Order, OrderAdjustment } from '../shared/orders/schemas/order';
import { OrderFulfillment } from '../shared/orders/schemas/order-lifecycle';
import { OrderReturnReceipt } from '../shared/orders/schemas/order-returns';
import { PurchaseReceipt } from '../shared/orders/schemas/purchase-orders';
import { OrderApprovalRule } from '../shared/orders/schemas/order-approval';
import { Deposit, Payment } from '../shared/payments/schemas/payment';
import { Refund } from '../shared/payments/schemas/refund';
import { AccountPaymentMethod } from '../shared/payments/schemas/payment-method';
import { Coupon } from '../shared/orders/schemas/coupon';
import { TaxRate } from '../shared/orders/schemas/tax-rate';
import { PaymentTerm } from '../shared/payables/schemas/payment-term';
import { WebhookEndpoint } from '../shared/webhooks/schemas/webhook-endpoint';
import { VendorBill } from '../shared/payables/schemas/vendor-bill';
import { VendorCredit } from '../shared/payables/schemas/vendor-credit';
import { VendorReturn } from '../shared/payables/schemas/vendor-return';
import { ApPayment } from '../shared/payables/schemas/ap-payment';
import { DbSnapshot } from '../shared/migration/schemas/cutover';
import { MigrationBatch } from '../shared/migration/schemas/batch';

export interface EventContract {
  version: number;
  description: string;
  object: z.ZodMiniType;
}

export const EVENT_CATALOG = {
  'location.created': { version: 1, description: 'A location was created.', object: Location },
  'location.updated': { version: 1, description: 'A location changed; previous_attributes holds the old values.', object: Location },
  'location.deleted': { version: 1, description: 'A location was deleted; the object is its last state.', object: Location },
  'manufacturer.created': { version: 1, description: 'A manufacturer was created.', object: Manufacturer },
  'manufacturer.updated': { version: 1, description: 'A manufacturer changed; previous_attributes holds the old values.', object: Manufacturer },
  'manufacturer.deleted': { version: 1, description: 'A manufacturer was deleted; the object is its last state.', object: Manufacturer },
  'unit_of_measure.created': { version: 1, description: 'A unit of measure was created.', object: UnitOfMeasure },
  'unit_of_measure.updated': { version: 1, description: 'A unit of measure changed; previous_attributes holds the old values.', object: UnitOfMeasure },
  'unit_of_measure.deleted': { version: 1, description: 'A unit of measure was deleted; the object is its last state.', object: UnitOfMeasure },
  'product.created': { version: 1, description: 'A product (kits included) was created.', object: Product },
  'product.updated': { version: 1, description: 'A product changed; previous_attributes holds the old values.', object: Product },
  'product.deleted': { version: 1, description: 'A product was deleted; the object is its last state.', object: Product },
  'kit_component.created': { version: 1, description: 'A component was added to an existing kit.', object: KitComponent },
  'kit_component.updated': { version: 1, description: 'A kit component changed; previous_attributes holds the old values.', object: KitComponent },
  'kit_component.deleted': { version: 1, description: 'A component was removed from a kit; the object is its last state.', object: KitComponent },
  'account.created': { version: 1, description: 'A customer account was created.', object: Account },
  'account.updated': { version: 1, description: 'A customer account changed; previous_attributes holds the old values.', object: Account },
  'account.archived': { version: 1, description: 'A customer account was archived.', object: Account },
  'account.unarchived': { version: 1, description: 'An archived customer account was restored.', object: Account },
  'vendor.created': { version: 1, description: 'A vendor was created.', object: Vendor },
  'vendor.updated': { version: 1, description: 'A vendor changed; previous_attributes holds the old values.', object: Vendor },
  'vendor.archived': { version: 1, description: 'A vendor was archived.', object: Vendor },
  'vendor.unarchived': { version: 1, description: 'An archived vendor was restored.', object: Vendor },
  'product_option.created': { version: 1, description: 'An option was added to a product.', object: ProductOption },
  'product_option.deleted': { version: 1, description: 'A product option was deleted; the object is its last state.', object: ProductOption },
  'product_option.reordered': {
    version: 1,
    description: "A product's options were reordered; the object holds product_id and the order sent.",
    object: z.object({ product_id: z.uuid(), order: z.array(z.uuid()) }),
  },
  'product_vendor.created': { version: 1, description: 'A vendor was linked to a product.', object: ProductVendor },
  'product_vendor.updated': {
    version: 1,
    description: 'A product-vendor relationship changed (a demoted preferred vendor is not announced separately).',
    object: ProductVendor,
  },
  'product_vendor.deleted': { version: 1, description: 'A vendor was unlinked from a product.', object: ProductVendor },
  'pricing_level.created': { version: 1, description: 'A pricing level was created.', object: PricingLevel },
  'pricing_policy.created': { version: 1, description: 'A pricing policy was created.', object: PricingPolicy },
  'tag.created': { version: 1, description: 'A tag was created.', object: Tag },
  'tag.attached': {
    version: 1,
    description: 'A tag was attached to a resource; the object is the tag plus resource_type and resource_id.',
    object: z.extend(Tag, { resource_type: z.string(), resource_id: z.uuid() }),
  },
  'tag.detached': {
    version: 1,
    description: 'A tag was detached from a resource.',
    object: z.object({ id: z.uuid(), resource_type: z.string(), resource_id: z.uuid() }),
  },
  'inventory_transaction.created': {
    version: 1,
    description: 'Stock moved: a receipt, adjustment, transfer leg, kit build leg, sale fulfillment or return was posted.',
    object: InventoryTransaction,
  },
  'inventory.low_stock': {
    version: 1,
    description: 'A location balance reached on_hand <= reorder_point. Sent once when the condition starts to hold, not again while it holds.',
    object: InventoryBalance,
  },
  'inventory.out_of_stock': {
    version: 1,
    description: 'A location balance reached on_hand <= 0. Sent once when the condition starts to hold, not again while it holds.',
    object: InventoryBalance,
  },
  'inventory.back_in_stock': {
    version: 1,
    description: 'A balance that was low or out of stock rose above its reorder point (above zero when the product has none).',
    object: InventoryBalance,
  },
  'gl_account.created': { version: 1, description: 'A GL account was added to the chart of accounts.', object: GlAccount },
  'gl_account.updated': { version: 1, description: 'A GL account changed; previous_attributes holds the old values.', object: GlAccount },
  'gl_account.deleted': { version: 1, description: 'An unused GL account was deleted; the object is its last state.', object: GlAccount },
  'journal_entry.created': {
    version: 1,
    description: 'A draft journal entry was saved (manually or by a recurring template awaiting review).',
    object: JournalEntry,
  },
  'journal_entry.updated': { version: 1, description: 'A draft journal entry changed; previous_attributes holds the old values.', object: JournalEntry },
  'journal_entry.deleted': { version: 1, description: 'A draft journal entry was deleted; the object is its last state.', object: JournalEntry },
  'journal_entry.posted': {
    version: 1,
    description: 'A journal entry was posted to the ledger (manually, by a module through the posting service, by a recurring template, or as a reversal).',
    object: JournalEntry,
  },
  'journal_entry.reversed': { version: 1, description: 'A posted journal entry was reversed; reversed_by_id names its reversing entry.', object: JournalEntry },
  'period.created': { version: 1, description: 'An accounting period was created.', object: AccountingPeriod },
  'period.close_requested': {
    version: 1,
    description: 'The close of an accounting period was requested; it refuses postings from now on.',
    object: AccountingPeriod,
  },
  'period.closed': { version: 1, description: 'The close of an accounting period was approved; it is closed.', object: AccountingPeriod },
  'period.reopened': {
    version: 1,
    description: 'A closed (or close-requested) period was reopened; reopen_reason says why, previous_attributes.status what it was.',
    object: AccountingPeriod,
  },
  'recurring_journal_entry_template.created': { version: 1, description: 'A recurring journal entry template was created.', object: RecurringJournalTemplate },
  'recurring_journal_entry_template.updated': {
    version: 1,
    description: 'A recurring journal entry template changed; previous_attributes holds the old values.',
    object: RecurringJournalTemplate,
  },
  'recurring_journal_entry_template.deleted': {
    version: 1,
    description: 'A recurring journal entry template was deleted; the object is its last state.',
    object: RecurringJournalTemplate,
  },
  'webhook_endpoint.disabled': {
    version: 1,
    description:
      'The API disabled a webhook endpoint: it answered 410 Gone (disabled_reason gone), or every attempt to it failed for about three days (failing). Enable it again once it works; events meanwhile are in the events feed.',
    object: WebhookEndpoint,
  },
  'api_key.created': { version: 1, description: 'An API key was created (never with its secret).', object: ApiKey },
  'api_key.revoked': { version: 1, description: 'An API key was revoked.', object: ApiKey },
  'api_key.rolled': {
    version: 1,
    description: 'An API key was replaced; the object is the new key (without secret) and rolled_from the old one.',
    object: z.extend(ApiKey, { rolled_from: ApiKey }),
  },
  'order.created': {
    version: 2,
    description: 'A document (quote, sales order, invoice, return or purchase order) was created, directly or by duplicating another (duplicated_from_id).',
    object: Order,
  },
  'order.updated': {
    version: 2,
    description:
      'An order changed: its header, a line (added, edited, removed) or an adjustment; previous_attributes holds old header values such as totals. Like every order.* event it carries the order without lines and adjustments (GET the order for them).',
    object: Order,
  },
  'order.deleted': { version: 2, description: 'A draft order or a quote was (soft) deleted; the object is its last state.', object: Order },
  'order.confirmed': {
    version: 2,
    description: 'A draft document was confirmed; an invoice is then posted to AR (journal_entry_id).',
    object: Order,
  },
  'order.held': { version: 2, description: 'A sales or purchase order was put on hold (hold_type, hold_reason).', object: Order },
  'order.released': { version: 2, description: 'A hold was released; the order is back to confirmed or partially_fulfilled.', object: Order },
  'order.approval_requested': {
    version: 2,
    description:
      "Confirming a sales order, or confirming or submitting a purchase order, over an approval rule's threshold held it for approval (on_hold, hold_type approval; approval_rule_id and approver_user_id name the rule and approver).",
    object: Order,
  },
  'order.approved': {
    version: 2,
    description: 'A sales or purchase order held for approval was approved (approved_by, approved_at) and is now confirmed.',
    object: Order,
  },
  'order.rejected': {
    version: 2,
    description: 'A sales or purchase order held for approval was rejected (rejected_by, rejected_at, rejection_reason) and is back to draft.',
    object: Order,
  },
  'order_approval_rule.created': { version: 1, description: 'An order approval rule was created.', object: OrderApprovalRule },
  'order_approval_rule.updated': {
    version: 1,
    description: 'An order approval rule changed; previous_attributes holds the old values.',
    object: OrderApprovalRule,
  },
  'order_approval_rule.deleted': { version: 1, description: 'An order approval rule was deleted; the object is its last state.', object: OrderApprovalRule },
  'order.cancelled': { version: 2, description: 'A document was cancelled; its balance_due is 0.', object: Order },
  'order.voided': { version: 2, description: 'A posted invoice was voided: its AR entry reversed, balance_due 0.', object: Order },
  'order.archived': {
    version: 2,
    description:
      'A closed document was archived: hidden from lists unless asked for, read-only, balance_due 0 (purchase orders and quotes keep theirs); previous_attributes holds is_archived, archived_at and the balance_due it had.',
    object: Order,
  },
  'order.unarchived': {
    version: 2,
    description:
      'An archived document was brought back: listed and writable again, balance_due as its status and amounts give; previous_attributes holds is_archived and archived_at.',
    object: Order,
  },
  'order.expired': {
    version: 2,
    description:
      'A quote passed its expires_at while draft or confirmed: is_expired is true, and confirm and convert answer 422 quote_expired. Sent once per lapse by the hourly expiry job (within about an hour; is_expired reads true from the instant itself); a quote revived by moving expires_at later is announced again when it lapses again. Not sent for a quote already converted to a live sales order.',
    object: Order,
  },
  'order.converted': {
    version: 2,
    description: 'A quote became a sales order, or a sales order was invoiced; the object is the new document (converted_from_id names the source).',
    object: Order,
  },
  'order.fulfilled': {
    version: 1,
    description: 'Goods of a sales order or invoice shipped (quantity_fulfilled rose, stock drawn, COGS posted); the object is the fulfillment.',
    object: OrderFulfillment,
  },
  'purchase_order.sent': {
    version: 2,
    description:
      'A purchase order was sent to its vendor (sent_at, sent_to; a draft became confirmed). The API sends no mail itself: deliver it from this event; message is the note for the vendor.',
    object: z.extend(Order, { message: z.nullable(z.string()) }),
  },
  'purchase_order.received': {
    version: 1,
    description:
      'Goods of a purchase order were received: stocked lines wrote receive inventory transactions (FIFO layers at the receipt cost), drop-ship lines fulfilled their sales lines; GL debit inventory or COGS, credit received_not_billed.',
    object: PurchaseReceipt,
  },
  'return.created': {
    version: 2,
    description:
      'A draft return was made from a shipped sales order or a posted invoice (POST /v1/orders/{id}/returns); the object is the return (source_order_id names the source).',
    object: Order,
  },
  'return.received': {
    version: 1,
    description:
      'Goods of a confirmed return came back: quantity_returned rose on the source lines, restocked lines went back into stock at their original cost (debit inventory, credit COGS); the object is the receipt.',
    object: OrderReturnReceipt,
  },
  'order_adjustment.created': {
    version: 1,
    description: 'An order-level discount or fee was added (E2), or a coupon applied (coupon_id set); amount is its money effect.',
    object: OrderAdjustment,
  },
  'order_adjustment.deleted': {
    version: 1,
    description:
      "An order-level discount, fee or coupon was removed from a document, or a coupon was dropped because a line edit left the subtotal below its min_order_subtotal; the object is its last state (a coupon's redemption is released).",
    object: OrderAdjustment,
  },
  'coupon.created': { version: 1, description: 'A coupon was created.', object: Coupon },
  'coupon.updated': { version: 1, description: 'A coupon changed (not its redemptions); previous_attributes holds the old values.', object: Coupon },
  'coupon.deleted': { version: 1, description: 'A coupon no document carries was deleted; the object is its last state.', object: Coupon },
  'tax_rate.created': { version: 1, description: 'A tax rate was created.', object: TaxRate },
  'tax_rate.updated': {
    version: 1,
    description: 'A tax rate changed; previous_attributes holds the old values. Lines keep the rate they were given.',
    object: TaxRate,
  },
  'tax_rate.deleted': { version: 1, description: 'A tax rate no line uses was deleted; the object is its last state.', object: TaxRate },
  'payment.created': {
    version: 1,
    description:
      'A customer payment was received (against one document, or applied to several invoices); it posted debit undeposited funds, credit AR (an ACH payment is status pending and posts when it clears).',
    object: Payment,
  },
  'payment.applied': { version: 1, description: 'An unallocated payment was applied to invoices (E8); the object carries its applications.', object: Payment },
  'payment.refunded': {
    version: 1,
    description: 'A payment was refunded in full or in part (amount_refunded); refund.created carries the refund and how it split.',
    object: Payment,
  },
  'refund.created': {
    version: 1,
    description: 'A refund of a payment was posted: customer credit given back (debit AR) and invoice allowances (debit revenue and tax), credit cash.',
    object: Refund,
  },
  'payment.voided': {
    version: 1,
    description: 'An undeposited payment was voided: its receipt entry reversed, the documents it paid owe that amount again.',
    object: Payment,
  },
  'payment.cleared': {
    version: 1,
    description: 'A pending ACH payment cleared: the receipt posted, its documents paid and back to their previous order_status.',
    object: Payment,
  },
  'payment.failed': {
    version: 1,
    description: 'A pending ACH payment failed (was returned): nothing posted, its documents back to their previous order_status, unpaid by it.',
    object: Payment,
  },
  'payment_method.attached': {
    version: 1,
    description: 'A confirmed card or ACH method was saved on an account (tokens and display details only).',
    object: AccountPaymentMethod,
  },
  'payment_method.updated': {
    version: 1,
    description: "An account's default payment method moved (set, demoted or promoted); previous_attributes holds the old values.",
    object: AccountPaymentMethod,
  },
  'payment_method.detached': {
    version: 1,
    description: 'A payment method was removed: detached at the processor, kept with is_active false.',
    object: AccountPaymentMethod,
  },
  'deposit.created': {
    version: 1,
    description: 'Undeposited receipts were deposited to a bank account (E4); it posted debit bank, credit undeposited funds.',
    object: Deposit,
  },
  'payment_term.created': { version: 1, description: 'Payment terms were created (POST /v1/payment-terms).', object: PaymentTerm },
  'payment_term.updated': { version: 1, description: 'Payment terms changed; previous_attributes holds the old values.', object: PaymentTerm },
  'payment_term.deleted': { version: 1, description: 'Payment terms no bill named were deleted; the object is their last state.', object: PaymentTerm },
  'vendor_bill.created': { version: 1, description: 'A vendor bill was created (draft), with its lines.', object: VendorBill },
  'vendor_bill.updated': {
    version: 1,
    description: 'A vendor bill or one of its lines changed; previous_attributes holds the old header values (the object carries the lines).',
    object: VendorBill,
  },
  'vendor_bill.submitted': { version: 1, description: 'A draft or rejected vendor bill was submitted for approval (pending_approval).', object: VendorBill },
  'vendor_bill.approved': { version: 1, description: 'A vendor bill was approved (approved_by, approved_at); it can now be posted.', object: VendorBill },
  'vendor_bill.rejected': {
    version: 1,
    description: 'A vendor bill was rejected (rejected_by, rejected_at, rejection_reason); it is editable and can be submitted again.',
    object: VendorBill,
  },
  'vendor_bill.posted': {
    version: 1,
    description:
      'A vendor bill was posted (E13): status open, its AP journal entry written (journal_entry_id); skip_permission_check says whether the migration carve-out was used.',
    object: VendorBill,
  },
  'migration.snapshot_taken': {
    version: 1,
    description:
      'A cutover snapshot started with POST .../migration/cutover/snapshot is complete (status available, percent_progress 100). dev_stub says whether it was the stub branch (no real snapshot).',
    object: DbSnapshot,
  },
  'migration.snapshot_failed': {
    version: 1,
    description: 'A cutover snapshot failed (status failed); failure_reason says why. Take a new one with the same freeze token.',
    object: DbSnapshot,
  },
  'vendor_bill.voided': {
    version: 1,
    description: 'A vendor bill was voided; a posted one had its AP entry reversed (void_journal_entry_id).',
    object: VendorBill,
  },
  'vendor_bill.paid': {
    version: 1,
    description: 'An AP payment (cash and vendor credits) brought a vendor bill to balance_due 0: status paid.',
    object: VendorBill,
  },
  'vendor_credit.created': {
    version: 1,
    description: 'A vendor credit was issued (manual, price adjustment, vendor return, ...); it posted debit vendor_returns_receivable, credit vendor_credits.',
    object: VendorCredit,
  },
  'vendor_credit.applied': {
    version: 1,
    description: 'An AP payment applied part or all of a vendor credit to bills; remaining_amount and status show what is left.',
    object: VendorCredit,
  },
  'vendor_credit.voided': { version: 1, description: "A vendor credit's unapplied balance was voided (voided_amount).", object: VendorCredit },
  'vendor_credit.expired': {
    version: 1,
    description: 'The expiry job forfeited the remaining balance of a vendor credit past expires_at (forfeited_amount).',
    object: VendorCredit,
  },
  'vendor_return.created': {
    version: 1,
    description:
      'Received goods of a purchase order went back to the vendor: vendor_return inventory transactions at FIFO cost, a vendor credit (source_type vendor_return) issued, GL debit cost_of_goods_sold, credit inventory, the difference on purchase_price_variance.',
    object: VendorReturn,
  },
  'ap_payment.created': {
    version: 1,
    description: 'Vendor bills were paid: vendor credits applied first, the rest in cash from a bank account (debit accounts payable, credit the bank).',
    object: ApPayment,
  },
  'ap_payment.voided': {
    version: 1,
    description: "An AP payment was voided: its entry reversed, the bills' balances and the credits' remaining amounts restored.",
    object: ApPayment,
  },
  'migration.batch_created': { version: 1, description: 'An import batch was opened; records created with its id join it.', object: MigrationBatch },
  'migration.batch_completed': { version: 1, description: 'An import batch was completed: it takes no more records.', object: MigrationBatch },
  'migration.batch_rolled_back': {
    version: 1,
    description:
      'An import batch was rolled back: removed_counts holds what rollbacks removed, counts what the batch still holds (records something references; the rollback response lists them with reasons). No per-record deleted events are sent.',
    object: MigrationBatch,
  },
} as const satisfies Record<EventType, EventContract>;
