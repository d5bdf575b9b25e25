/**
 * The one error type of the API and its closed catalog of codes.
 *
 * Every failure a client can see is an ApiError carrying a code from ERROR_CATALOG. The catalog
 * decides the envelope's `type` (the broad class) and a default hint; `error` is the code itself,
 * or a documented family key (errorKey below). The OpenAPI document
 * lists it verbatim, so a code that is not here cannot be thrown. It knows nothing of HTTP: the
 * status of each code is the edge's business (shared/http/error-status.ts).
 */

import { errorDocUrl } from './public-url';

export const ERROR_TYPES = [
  'validation_error',
  'permission_error',
  'not_found',
  'conflict',
  'rate_limit',
  'internal',
  'expand_error',
  'not_implemented', // a type of the spec's envelope; no code in the catalog uses it
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

interface CatalogEntry {
  type: ErrorType;
  /**
   * The envelope's `error` when it is not the code itself: a documented family key, used only
   * where one answer serves every member better than the precise code (the 401 family
   * `authentication_failed`: a client re-authenticates whatever the reason, and `code` says it).
   */
  family?: string;
  hint: string;
}

const entry = (type: ErrorType, hint: string): CatalogEntry => ({ type, hint });
const familyEntry = (type: ErrorType, family: string, hint: string): CatalogEntry => ({ type, family, hint });

export const ERROR_CATALOG = {
  // 400: the request itself is wrong
  invalid_json: entry('validation_error', 'The request body is not valid JSON.'),
  parameter_missing: entry('validation_error', 'A required parameter is missing.'),
  parameter_invalid: entry('validation_error', 'A parameter has an invalid value.'),
  parameter_unknown: entry('validation_error', 'The request contains a parameter this endpoint does not accept.'),
  idempotency_key_invalid: entry('validation_error', 'The Idempotency-Key header must be 1 to 255 printable characters.'),
  dry_run_not_supported: entry(
    'validation_error',
    'This endpoint cannot be dry-run: its work reaches beyond the database transaction (a card processor call, a workflow start). Send it without dry_run.',
  ),
  batch_too_large: entry(
    'validation_error',
    'A batch holds at most 100 operations and its answer at most 5 MB; nothing of it was run or kept. Send it in smaller batches.',
  ),
  batch_reference_invalid: entry('validation_error', 'A $ops[n] reference names an operation that failed, comes later in the batch, or has no such field.'),
  batch_operation_not_allowed: entry(
    'validation_error',
    'This operation cannot run in a batch: only POST, PATCH and DELETE of routes whose work stays in the database transaction, without dry_run of their own.',
  ),
  dry_run_idempotency_key: entry(
    'validation_error',
    'A dry run takes no Idempotency-Key: it keeps nothing, so there is nothing to replay. Send the key with the real request only.',
  ),
  expand_error: entry('expand_error', 'This expand value is not allowed for this resource.'),
  webhook_url_insecure: entry('validation_error', 'A webhook endpoint URL must use https (http is allowed only for hosts on the local or sandbox allowlist).'),
  webhook_url_forbidden_address: entry(
    'validation_error',
    'The webhook endpoint URL is, or resolves to, an address the API never calls: loopback, private, link-local, carrier-grade NAT, cloud metadata, multicast, reserved or unspecified.',
  ),
  webhook_url_unresolvable: entry('validation_error', 'The host of the webhook endpoint URL does not resolve to any address.'),
  // 401: who is calling cannot be established
  api_key_missing: familyEntry('permission_error', 'authentication_failed', 'Send your API key as `Authorization: Bearer <key>`.'),
  api_key_malformed: familyEntry('permission_error', 'authentication_failed', 'The API key is not of the form bo_<live|test>_ent_<entity_code>_<secret>.'),
  api_key_invalid: familyEntry('permission_error', 'authentication_failed', 'The API key is not recognised.'),
  api_key_revoked: familyEntry('permission_error', 'authentication_failed', 'The API key has been revoked.'),
  api_key_expired: familyEntry('permission_error', 'authentication_failed', 'The API key has expired; use the key that replaced it.'),
  api_key_mode_not_allowed: familyEntry('permission_error', 'authentication_failed', 'This server accepts test-mode keys only.'),
  // 403: known caller, not allowed
  insufficient_scope: entry('permission_error', 'The API key lacks the scope this endpoint requires.'),
  insufficient_permissions: entry('permission_error', 'The user behind this API key lacks the permission this action requires.'),
  segregation_of_duties: entry('permission_error', 'The user who requested this action cannot also approve it.'),
  // 404
  not_found: entry('not_found', 'No such record in this entity.'),
  route_not_found: entry('not_found', 'No endpoint has this path.'),
  method_not_allowed: entry(
    'validation_error',
    "The path exists, but not with this method: the Allow header and the envelope's allow member list the methods it has.",
  ),
  order_not_found: entry('not_found', 'No such order in this entity (an order of another entity is never found).'),
  coupon_not_found: entry('not_found', 'No coupon of this entity has this code.'),
  relink_source_not_found: entry('not_found', 'The source_id is not an order of this entity; nothing was written for this item.'),
  relink_transaction_not_found: entry(
    'not_found',
    'No migrated inventory transaction (reference_type source_migration) of this entity carries this external id.',
  ),
  snapshot_not_found: entry('not_found', 'No cutover snapshot of this entity has this snapshot_id.'),
  // 409: state conflicts
  relink_duplicate_external_id: entry(
    'conflict',
    'This external id appears more than once in the request; every occurrence was rejected and nothing was written for it. Send each external id once.',
  ),
  entity_frozen: entry(
    'conflict',
    'The entity is frozen for a migration cutover: only keys with migration:admin may write until it is unfrozen. Reads continue.',
  ),
  entity_already_frozen: entry('conflict', 'The entity is already frozen for cutover; unfreeze it first to issue a new freeze token.'),
  entity_not_frozen: entry('conflict', 'The entity is not frozen: freeze it (POST .../migration/cutover/freeze) first.'),
  freeze_token_mismatch: entry('conflict', "The freeze_token is not the entity's current freeze token."),
  location_name_taken: entry('conflict', 'Another location of this entity already has this name.'),
  location_is_default: entry(
    'conflict',
    'The default location cannot be deleted or deactivated while other locations exist; make another location the default first.',
  ),
  location_in_use: entry('conflict', 'Inventory or documents reference this location; deactivate it (is_active false) instead of deleting it.'),
  manufacturer_name_taken: entry('conflict', 'Another manufacturer of this entity already has this name.'),
  manufacturer_in_use: entry('conflict', 'Products still reference this manufacturer; reassign or clear the manufacturer on those products first.'),
  uom_abbreviation_taken: entry('conflict', 'Another unit of measure of this entity already has this abbreviation.'),
  uom_in_use: entry('conflict', 'This unit of measure is assigned to products, purchase order lines or inventory transactions; reassign them first.'),
  uom_is_base: entry('conflict', 'The base unit of a type cannot be deleted while other units of that type exist.'),
  product_sku_taken: entry('conflict', 'Another product of this entity already has this SKU.'),
  product_in_use: entry('conflict', 'The product is referenced by kits, pricing policies or inventory transactions; deactivate it (is_active false) instead.'),
  external_id_taken: entry(
    'conflict',
    'Another record of this type in this entity already has this external_source and external_id; existing_id names it, so an import re-run can skip it.',
  ),
  migration_batch_closed: entry('conflict', 'The migration batch is completed or rolled back (current_status) and takes no more records; open a new batch.'),
  account_number_taken: entry('conflict', 'Another record of this entity already has this account_number.'),
  option_name_taken: entry('conflict', 'The product already has an option with this name.'),
  product_vendor_exists: entry('conflict', 'This vendor is already linked to the product; update that relationship instead.'),
  kit_component_exists: entry('conflict', 'This product is already a component of the kit; change that component instead.'),
  kit_component_limit: entry('conflict', 'The kit already has the maximum number of components; remove one first.'),
  kit_component_last: entry('conflict', 'A kit keeps at least one component; add the replacement first, or deactivate the kit.'),
  pricing_level_name_taken: entry('conflict', 'Another pricing level of this entity already has this name.'),
  pricing_tier_exists: entry('conflict', 'An active pricing policy already prices this product for the same level, account, pricing_type and min_quantity.'),
  tag_name_taken: entry('conflict', 'Another tag of this entity already has this name.'),
  api_key_already_revoked: entry('conflict', 'This API key is already revoked.'),
  gl_account_code_taken: entry('conflict', 'Another GL account of this entity already has this code.'),
  gl_account_is_system: entry('conflict', 'System accounts cannot be deactivated, retyped or deleted; other modules post to them.'),
  gl_account_in_use: entry('conflict', 'The GL account has postings, drafts or recurring templates referring to it; deactivate it (is_active false) instead.'),
  journal_entry_not_draft: entry('conflict', 'Only draft journal entries can be changed, deleted or posted; correct a posted entry by reversing it.'),
  journal_entry_not_reversible: entry('conflict', 'Only a posted entry that is not itself a reversal can be reversed, and only once.'),
  period_overlap: entry('conflict', 'The dates overlap another accounting period of this entity.'),
  period_invalid_transition: entry(
    'conflict',
    'The period is not in a status that allows this move (open → close_requested → closed; reopen from close_requested or closed).',
  ),
  order_not_deletable: entry('conflict', 'Only draft orders and quotes without payments can be deleted; use POST /v1/orders/{id}/cancel instead.'),
  order_locked: entry(
    'conflict',
    'The document is cancelled, voided, fulfilled, posted or paid, or a purchase order awaiting approval; follow suggested_action (create_return, revise_order, reject_order) instead of editing it.',
  ),
  dropship_po_issued_blocks_line_edit: entry(
    'conflict',
    'A drop-ship purchase order was issued for this line; its quantity and drop-ship fields follow that purchase order (see linked_purchase_order).',
  ),
  line_not_editable: entry('conflict', "This line cannot be changed this way (a kit component follows its kit's line)."),
  webhook_endpoint_disabled: entry('conflict', 'This webhook endpoint is disabled; enable it first.'),
  coupon_code_taken: entry('conflict', 'Another coupon of this entity already has this code (codes are case-insensitive).'),
  coupon_in_use: entry('conflict', 'Documents carry this coupon; deactivate it (is_active false) instead of deleting it.'),
  coupon_already_applied: entry('conflict', 'This coupon is already applied to this document.'),
  tax_rate_name_taken: entry('conflict', 'Another tax rate of this entity already has this name.'),
  tax_rate_in_use: entry('conflict', 'Order lines use this tax rate; deactivate it (is_active false) instead of deleting it.'),
  idempotency_key_in_use: entry('conflict', 'A request with this Idempotency-Key is still being processed; retry after the delay in Retry-After.'),
  // 412, 413, 414, 415, 431
  precondition_failed: entry('conflict', 'The resource has changed since the ETag in If-Match was issued; fetch it again.'),
  request_too_large: entry('validation_error', 'The request body is too large.'),
  uri_too_long: entry('validation_error', 'The request URL is longer than 8,192 bytes; send long filters in fewer or shorter parameters.'),
  headers_too_large: entry('validation_error', 'The request headers are larger than 16 KB together.'),
  unsupported_media_type: entry('validation_error', 'Send request bodies as application/json.'),
  // 422: well-formed but not processable
  idempotency_key_reused: entry('validation_error', 'This Idempotency-Key was used with different parameters; use a new key for a new request.'),
  insufficient_stock: entry(
    'validation_error',
    'Not enough stock on hand at this location; receive stock first, or send allow_negative true on an adjustment.',
  ),
  product_not_stockable: entry('validation_error', 'Only simple and kit products carry inventory; services and bundles are not stocked.'),
  resource_type_unavailable: entry('validation_error', 'Tags cannot be attached to this resource type yet: its resources are not served by this API version.'),
  journal_entry_unbalanced: entry(
    'validation_error',
    'A posted entry needs at least one debit and one credit line, and its debits must equal its credits to the cent.',
  ),
  gl_account_inactive: entry('validation_error', 'The GL account is inactive; reactivate it or post to another account.'),
  gl_account_control: entry(
    'validation_error',
    'Accounts receivable and payable are control accounts posted only by their documents (invoices, payments, bills), never by manual entries.',
  ),
  period_closed: entry(
    'validation_error',
    'The entry date falls in an accounting period that is closed or awaiting close approval; reopen it or post on another date.',
  ),
  order_invalid_transition: entry(
    'conflict',
    "The order's current status (current_status) does not allow this operation; check details.reason and the order lifecycle.",
  ),
  order_over_fulfillment: entry('validation_error', 'A line cannot ship more than its quantity not yet fulfilled (details.remaining).'),
  return_quantity_exceeded: entry(
    'validation_error',
    'A return cannot take back more of a source line than is returnable: what shipped, less what live returns already take back (details.returnable).',
  ),
  order_over_receipt: entry(
    'validation_error',
    'A purchase order line cannot receive more than its quantity not yet received (details.remaining); raise the line quantity first.',
  ),
  no_drop_ship_lines: entry(
    'validation_error',
    'The sales order has no line marked is_drop_ship with units left to ship and no live drop-ship purchase order.',
  ),
  drop_ship_vendor_missing: entry(
    'validation_error',
    'A drop-ship line has no drop_ship_vendor_id and its product no preferred vendor (details.line_id); set one on the line.',
  ),
  line_drop_shipped: entry(
    'validation_error',
    'This line has a live drop-ship purchase order (details.linked_purchase_order): the vendor ships it, and receiving that purchase order fulfils the line.',
  ),
  order_not_adjustable: entry(
    'validation_error',
    'Adjustments apply to open orders only (draft, confirmed, partially fulfilled, on hold, awaiting ACH clearance); cancelled, voided, fulfilled and posted documents refuse them.',
  ),
  party_archived: entry('validation_error', 'The account or vendor is archived; unarchive it or use another for new documents.'),
  reorder_point_follows_demand: entry(
    'validation_error',
    "The product's reorder_point_mode is demand: its reorder point follows demand × lead time. Send reorder_point_mode manual with it to set it yourself.",
  ),
  quote_expired: entry(
    'validation_error',
    'The quote is past its expires_at: an expired quote cannot be converted or confirmed. Move expires_at later (PATCH) or duplicate it.',
  ),
  order_archived: entry(
    'conflict',
    'The document is archived and read-only: unarchive it (POST /v1/orders/{id}/unarchive) before changing it, paying it or refunding it.',
  ),
  credit_not_available: entry(
    'validation_error',
    'The credit memo has no credit left to apply or refund (details.available_credit), or the document is not a confirmed credit memo.',
  ),
  order_not_archivable: entry(
    'validation_error',
    'Only closed documents are archived: cancelled, voided or fulfilled ones, expired quotes and posted invoices and credit memos with nothing left owing.',
  ),
  coupon_inactive: entry('validation_error', 'This coupon is inactive.'),
  coupon_not_yet_valid: entry('validation_error', 'This coupon cannot be redeemed before its valid_from.'),
  coupon_expired: entry('validation_error', 'This coupon expired at its valid_until.'),
  coupon_usage_limit_reached: entry('validation_error', 'This coupon was redeemed as often as it allows, in total or by this customer account (see limit).'),
  coupon_minimum_not_met: entry('validation_error', "The document's subtotal is below the coupon's min_order_subtotal."),
  coupon_not_applicable: entry('validation_error', 'Coupons apply to quotes, sales orders and invoices only.'),
  approver_user_inactive: entry('validation_error', 'The approver is a deactivated user; name an active user of the entity.'),
  approval_rule_in_use: entry('conflict', 'Orders were routed by this approval rule; deactivate it (is_active false) instead of deleting it.'),
  vendor_invoice_number_taken: entry(
    'conflict',
    'Another bill of this vendor that is not voided already records this vendor invoice number; existing_bill_id names it.',
  ),
  vendor_bill_invalid_transition: entry('conflict', "The vendor bill's status does not allow this action; current_status says where it is."),
  vendor_bill_empty: entry('validation_error', 'The vendor bill has no lines or a total of 0: there is nothing to submit or post.'),
  vendor_bill_has_payments: entry('conflict', 'AP payments are applied to this vendor bill: void those payments first (payment_ids lists them).'),
  vendor_bill_not_payable: entry('validation_error', "This vendor bill takes no payment: only an open or partially paid bill of the payment's vendor is paid."),
  vendor_bill_overpayment: entry('validation_error', "The amount exceeds the vendor bill's balance_due (see balance_due); a bill is never overpaid."),
  vendor_credit_not_applicable: entry(
    'validation_error',
    'This vendor credit cannot be applied: it has no remaining amount, is voided or expired, or belongs to another vendor.',
  ),
  vendor_credit_invalid_transition: entry('conflict', "The vendor credit's status does not allow this action; current_status says where it is."),
  ap_payment_invalid_transition: entry('conflict', 'This AP payment is already voided.'),
  bill_quantity_exceeds_received: entry(
    'validation_error',
    'Three-way match: a purchase order line is billed at most what it received less what other bills already bill (see received_quantity, billed_quantity, requested_quantity).',
  ),
  vendor_return_exceeds_received: entry(
    'validation_error',
    'A purchase order line returns to the vendor at most what it received less what earlier vendor returns took (see line_id, quantity_received, quantity_returned, quantity_requested, returnable).',
  ),
  purchase_order_nothing_to_bill: entry(
    'validation_error',
    'No line of this purchase order has received units that are not on a bill yet; receive the goods first.',
  ),
  purchase_order_vendor_mismatch: entry('validation_error', "A bill from a purchase order is the purchase order's vendor's (see po_vendor_id)."),
  payment_term_in_use: entry('conflict', 'Vendor bills use these payment terms; they cannot be deleted (see references).'),
  po_approval_required: entry(
    'conflict',
    'This purchase order is over an approval threshold and not approved: submit it for approval and have it approved before sending it.',
  ),
  line_quantity_below_floor: entry(
    'validation_error',
    'The quantity cannot go below what was already fulfilled, returned or received on this line (see floor).',
  ),
  // Payments and deposits
  order_not_payable: entry('validation_error', 'The payment would overpay the document (see payable_amount).'),
  payment_already_applied: entry('conflict', 'The payment is already applied.'),
  payment_already_deposited: entry('conflict', 'The payment is already deposited.'),
  refund_exceeds_refundable: entry('validation_error', 'A refund cannot exceed what the payment has not refunded yet (see refundable_amount).'),
  payment_deposited: entry('conflict', 'A deposited payment cannot be voided; refund it instead (POST /v1/payments/{payment_id}/refunds).'),
  payment_refunded: entry('conflict', 'The payment has refunds: it cannot be voided, and a fully refunded payment has nothing to deposit.'),
  payment_voided: entry('conflict', 'The payment was voided or its ACH debit failed; nothing more can be done with it (see current_status).'),
  payment_pending_clearance: entry(
    'conflict',
    'The ACH payment has not cleared yet: clear it (POST /v1/payments/{payment_id}/clear) or record its failure (/fail) first.',
  ),
  payment_not_pending: entry('conflict', 'Only a pending ACH payment can be cleared or failed (see current_status).'),
  // Account payment methods (raw credentials are refused by the handler stack on every route)
  raw_card_data_refused: entry(
    'validation_error',
    'Card numbers and security codes are never accepted; collect them with the payment processor client library and attach the resulting setup intent.',
  ),
  raw_bank_data_refused: entry(
    'validation_error',
    'Bank account and routing numbers are never accepted; collect them with the payment processor client library and attach the resulting setup intent.',
  ),
  setup_intent_not_succeeded: entry(
    'validation_error',
    'The setup intent has not succeeded yet (see setup_intent_status); confirm it with the processor client library first.',
  ),
  payment_method_already_attached: entry('conflict', 'This setup intent or processor payment method is already saved on an account.'),
  payment_method_inactive: entry('conflict', 'The payment method was removed (is_active false); attach a new one instead.'),
  setup_intent_unexpected_state: entry(
    'conflict',
    'The setup intent was already confirmed (see setup_intent_status); create a new setup intent to save another method.',
  ),
  test_mode_required: entry('permission_error', 'Test helpers stand in for the processor client library in test mode only: call them with a bo_test_ key.'),
  // The database could not serve the request now (shared/db/database.ts): nothing was changed unless the hint says otherwise.
  resource_locked: entry(
    'conflict',
    'Another request is changing a record this request needs, and it did not finish within the lock timeout; nothing was changed. Retry after the delay in Retry-After.',
  ),
  service_unavailable: entry(
    'internal',
    'The database could not serve this request in time (a lost connection, a timeout or a busy pool); nothing was changed. Retry after the delay in Retry-After.',
  ),
  // 429, 500
  rate_limit_exceeded: entry('rate_limit', 'Too many requests; retry after the delay in Retry-After.'),
  internal_error: entry('internal', 'Something went wrong on our side; quote the request_id to support.'),
} as const satisfies Record<string, CatalogEntry>;

/** The envelope's `error`: the precise code, or its documented family key where it has one. */
export function errorKey(code: ErrorCode): string {
  const entry: CatalogEntry = ERROR_CATALOG[code];
  return entry.family ?? code;
}

export type ErrorCode = keyof typeof ERROR_CATALOG;

export interface ApiErrorOptions {
  hint?: string;
  param?: string;
  required?: string;
  /** Extra envelope members a code documents (e.g. `references`, `current_status`). */
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly options: ApiErrorOptions;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.hint ?? ERROR_CATALOG[code].hint, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.options = options;
  }

  /** The error envelope of the spec's Errors part. */
  toEnvelope(requestId: string): ErrorEnvelope {
    const { type, hint } = ERROR_CATALOG[this.code];
    const error = errorKey(this.code);
    // Documented extras first: they can add members but never overwrite the envelope's own.
    return {
      ...this.options.details,
      error,
      code: this.code,
      type,
      hint: this.options.hint ?? hint,
      ...(this.options.param !== undefined && { param: this.options.param }),
      ...(this.options.required !== undefined && { required: this.options.required }),
      doc_url: errorDocUrl(this.code),
      request_id: requestId,
    };
  }
}

export interface ErrorEnvelope {
  error: string;
  code: string;
  type: ErrorType;
  hint: string;
  param?: string;
  required?: string;
  /** The code's entry on the reference page (<root>/docs#error-<code>). */
  doc_url: string;
  request_id: string;
  [extra: string]: unknown;
}

export const notFound = (param = 'id') => new ApiError('not_found', { param });
