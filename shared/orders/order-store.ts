/**
 * SQL of order headers and their order-level adjustments: reads and writes that return rows (the
 * wire shapes are built in order-mapping.ts). Lines are in order-line-store.ts.
 */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { formatNumber, nextNumber, takenNumberCte } from '../db/sequences';
import { entityFilters, updateSet } from '../db/sql';
import { ApiError } from '../errors';
import { newId, UUID_PATTERN } from '../ids';
import { defaultLocationIdSql } from '../inventory/locations';
import { keySharedParty } from '../parties/parties';
import type { Order } from './schemas/order';
import type { DocumentType } from './totals';
import { expiredQuoteSql } from './quote-expiry';

const ORDER_NUMBER_PREFIXES: Record<DocumentType, string> = {
  quote: 'QT-',
  sales_order: 'SO-',
  invoice: 'INV-',
  return: 'RMA-',
  purchase_order: 'PO-',
};

/** The next gap-free number of the document type; call it inside the transaction that inserts the document. */
export async function nextOrderNumber(db: Db, entityId: string, documentType: DocumentType): Promise<string> {
  return formatNumber(ORDER_NUMBER_PREFIXES[documentType], await nextNumber(db, entityId, `order:${documentType}`));
}

// ---------------------------------------------------------------------------------------------
// Rows

/** The header's wire columns (alias o). */
export const ORDER_COLUMNS = `o.id, 'order' AS object, o.entity_id, o.order_number, o.document_type, o.order_status, o.payment_status, o.fulfillment_status,
  coalesce(o.customer_account_id, o.vendor_id) AS account_id, o.location_id, o.po_number, o.order_date, o.due_date, o.subtotal, o.discount_total,
  o.shipping_total, o.tax_total, o.fee_total, o.order_total, o.list_price_total, o.pricing_savings, o.amount_paid, o.balance_due, o.tax_exempt,
  o.delivery_option, o.notes, o.internal_notes, o.invoice_number, o.invoice_type, o.is_on_hold, o.hold_type, o.ship_complete, o.source_platform,
  o.external_order_id, o.external_order_number, o.metadata, o.revision_count, o.duplicated_from_id, o.created_by_user_id, o.created_at, o.updated_at,
  o.converted_from_id, o.journal_entry_id, o.hold_reason, o.sent_at, o.sent_to, o.sales_channel_id, o.approval_rule_id, o.approver_user_id,
  o.approval_requested_at, o.approved_by, o.approved_at, o.rejected_by, o.rejected_at, o.rejection_reason, o.source_order_id, o.amount_credited,
  o.migration_batch_id, o.imported_at, o.credit_refunded, o.is_archived, o.archived_at, o.expires_at,
  ${expiredQuoteSql('o')} AS is_expired`;

/** The header's money columns: numeric text in a row, JSON numbers on the wire. */
export const MONEY_FIELDS = [
  'subtotal',
  'discount_total',
  'shipping_total',
  'tax_total',
  'fee_total',
  'order_total',
  'list_price_total',
  'pricing_savings',
  'amount_paid',
  'balance_due',
  'amount_credited',
  'credit_refunded',
] as const;

export type OrderRow = Omit<
  Order,
  (typeof MONEY_FIELDS)[number] | 'amount_due' | 'order_date' | 'due_date' | 'archived_at' | 'expires_at' | 'created_at' | 'updated_at'
> &
  Record<(typeof MONEY_FIELDS)[number], string> & {
    order_date: Date | string;
    due_date: Date | string | null;
    archived_at: Date | string | null;
    expires_at: Date | string | null;
    created_at: Date | string;
    updated_at: Date | string;
  };

export interface AdjustmentRow {
  id: string;
  entity_id: string;
  order_id: string;
  name: string;
  effect_type: 'discount' | 'fee';
  discount_type: 'percentage' | 'fixed_amount';
  value: string;
  amount: string;
  notes: string | null;
  created_by_user_id: string;
  coupon_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const ADJUSTMENT_COLUMNS = `a.id, a.entity_id, a.order_id, a.name, a.effect_type, a.discount_type, a.value, a.amount, a.notes, a.created_by_user_id,
  a.coupon_id, a.created_at, a.updated_at`;

// ---------------------------------------------------------------------------------------------
// Reads

export interface LoadOptions {
  /** FOR UPDATE, for a write: an archived document is then 409 order_archived, unless allowArchived. */
  lock?: boolean;
  /** A write an archived document still takes (unarchiving it, duplicating it). */
  allowArchived?: boolean;
  param?: string;
  code?: 'not_found' | 'order_not_found';
}

/** The live order's header (FOR UPDATE with lock); a malformed or unknown id is 404 on options.param. */
export async function orderRow(db: Db, entityId: string, orderId: string, options: LoadOptions = {}): Promise<OrderRow> {
  const row = UUID_PATTERN.test(orderId)
    ? await db.maybeOne<OrderRow>(
        `SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.entity_id = $1 AND o.id = $2 AND o.deleted_at IS NULL ${options.lock ? 'FOR UPDATE' : ''}`,
        [entityId, orderId],
      )
    : null;
  if (!row) throw new ApiError(options.code ?? 'not_found', { param: options.param ?? 'id', hint: 'No such order in this entity.' });
  if (options.lock && row.is_archived && !options.allowArchived) throw archivedError(options.param);
  return row;
}

/** 409 order_archived: an archived document is read-only until unarchived. */
export function archivedError(param = 'id'): ApiError {
  return new ApiError('order_archived', { param, details: { suggested_action: 'unarchive_order' } });
}

/**
 * The columns of the header as recalculation reads it (alias o): the wire columns and, not on the
 * wire but counted by payment_status, amount_refunded and amount_voided.
 */
export const CURRENT_ORDER_COLUMNS = `${ORDER_COLUMNS}, o.amount_refunded, o.amount_voided`;
export type CurrentOrderRow = OrderRow & { amount_refunded: string; amount_voided: string };

/** E17: the order by uuid or by order_number, within the entity. */
export async function findOrderIdByReference(db: Db, entityId: string, reference: string): Promise<string> {
  // Lower-cased like every id the schemas accept (shared/schemas/common.ts id()).
  if (UUID_PATTERN.test(reference)) return reference.toLowerCase();
  const row = await db.maybeOne<{ id: string }>('SELECT id FROM orders WHERE entity_id = $1 AND upper(order_number) = upper($2) AND deleted_at IS NULL', [
    entityId,
    reference,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such order in this entity.' });
  return row.id;
}

export interface OrderFilters {
  document_type: DocumentType;
  order_status?: string;
  payment_status?: string;
  account_id?: string;
  external_order_id?: string;
  sales_channel_id?: string;
  created_gte?: string;
  created_lte?: string;
  order_date_gte?: string;
  order_date_lte?: string;
  /** Archived documents are left out unless asked for: 'true' lists only them, 'all' both. */
  archived?: 'true' | 'false' | 'all';
  /** Quotes past expires_at (true) or not (false). */
  expired?: boolean;
}

export async function orderRowsPage(db: Db, entityId: string, filters: OrderFilters, page: PageRequest): Promise<Page<OrderRow & { id: string }>> {
  const { where, params, add } = entityFilters('o', entityId);
  where.push('o.deleted_at IS NULL');
  add((n) => `o.document_type = ${n}`, filters.document_type);
  add((n) => `o.order_status = ${n}`, filters.order_status);
  add((n) => `o.payment_status = ${n}`, filters.payment_status);
  add((n) => `coalesce(o.customer_account_id, o.vendor_id) = ${n}`, filters.account_id);
  add((n) => `o.external_order_id = ${n}`, filters.external_order_id);
  add((n) => `o.sales_channel_id = ${n}`, filters.sales_channel_id);
  add((n) => `o.created_at >= ${n}`, filters.created_gte);
  add((n) => `o.created_at <= ${n}`, filters.created_lte);
  add((n) => `o.order_date >= ${n}`, filters.order_date_gte);
  add((n) => `o.order_date <= ${n}`, filters.order_date_lte);
  if (filters.archived !== 'all') where.push(filters.archived === 'true' ? 'o.is_archived' : 'NOT o.is_archived');
  const expired = expiredQuoteSql('o');
  if (filters.expired !== undefined) where.push(filters.expired ? expired : `NOT ${expired}`);
  return keysetPage<OrderRow & { id: string }>(db, { table: 'orders', alias: 'o', select: ORDER_COLUMNS, where, params }, page);
}

export async function adjustmentRows(db: Db, entityId: string, orderIds: string[]): Promise<AdjustmentRow[]> {
  return db.query<AdjustmentRow>(
    `SELECT ${ADJUSTMENT_COLUMNS} FROM order_adjustments a WHERE a.entity_id = $1 AND a.order_id = ANY($2::uuid[]) ORDER BY a.created_at, a.id`,
    [entityId, orderIds],
  );
}

// ---------------------------------------------------------------------------------------------
// What a header names: its party (customer account, or vendor on a purchase order) and location

/** The party exists in the entity and is not archived; locked (KEY SHARE) until the transaction ends. */
export async function checkParty(db: Db, entityId: string, documentType: string, partyId: string): Promise<{ tax_exempt: boolean }> {
  const kind = documentType === 'purchase_order' ? 'vendor' : 'account';
  const party = await keySharedParty(db, kind, entityId, partyId);
  if (!party) {
    throw new ApiError('not_found', {
      param: 'account_id',
      hint: kind === 'vendor' ? 'No such vendor in this entity (purchase orders name a vendor).' : 'No such customer account in this entity.',
    });
  }
  if (party.is_archived) throw new ApiError('party_archived', { param: 'account_id' });
  return party;
}

// ---------------------------------------------------------------------------------------------
// Writes

function externalTaken(error: unknown): never {
  if (isUniqueViolation(error, 'orders_external_unique')) {
    throw new ApiError('external_id_taken', {
      param: 'external_order_id',
      hint: 'Another live order of this document type already has this source_platform and external_order_id.',
    });
  }
  throw error;
}

/**
 * A new document whose (document type, source_platform, external_order_id) a live order already
 * has is a 409 naming it (existing_id), so an import re-run can skip it. Checked before the insert:
 * a unique violation would abort the transaction before the existing id could be read.
 */
export async function refuseTakenExternalOrderId(
  db: Db,
  entityId: string,
  order: { document_type: DocumentType; source_platform?: string | null; external_order_id?: string | null },
): Promise<void> {
  if (order.external_order_id == null) return;
  const existing = await db.maybeOne<{ id: string }>(
    `SELECT id FROM orders WHERE entity_id = $1 AND document_type = $2 AND coalesce(source_platform, '') = coalesce($3, '') AND external_order_id = $4
       AND deleted_at IS NULL`,
    [entityId, order.document_type, order.source_platform ?? null, order.external_order_id],
  );
  if (existing) {
    throw new ApiError('external_id_taken', {
      param: 'external_order_id',
      hint: 'Another live order of this document type already has this source_platform and external_order_id (existing_id).',
      details: { existing_id: existing.id },
    });
  }
}

/** A new header's location_id: the entity's default location (null when it has none), read by the INSERT itself. */
export const DEFAULT_LOCATION = Symbol('the default location');

/** A new header; order_date null means now. */
export interface NewOrder {
  id: string;
  document_type: DocumentType;
  customer_account_id: string | null;
  vendor_id: string | null;
  location_id: string | null | typeof DEFAULT_LOCATION;
  po_number: string | null;
  order_date: string | null;
  due_date: string | null;
  shipping_total: string;
  tax_exempt: boolean;
  delivery_option: string | null;
  notes: string | null;
  internal_notes: string | null;
  invoice_type: string | null;
  ship_complete: boolean;
  source_platform: string | null;
  external_order_id: string | null;
  external_order_number: string | null;
  metadata: Record<string, unknown>;
  created_by_user_id: string;
  sales_channel_id: string | null;
  /** An order created in an import batch (checked open by the caller) and when. */
  migration_batch_id?: string | null;
  imported_at?: string | null;
  /** Quotes: when the quote lapses. */
  expires_at?: string | null;
}

/**
 * Inserts the header with the next gap-free number of its document type (an invoice's
 * invoice_number too), taken by the same statement: a refusal rolls the counter back with it.
 * Returns the inserted row's `returning` columns (alias o), when asked.
 */
export async function insertOrder<Row = void>(db: Db, entityId: string, order: NewOrder, returning?: string): Promise<Row> {
  // $7 is null with DEFAULT_LOCATION.
  const location = order.location_id === DEFAULT_LOCATION ? `coalesce($7::uuid, ${defaultLocationIdSql('$2')})` : '$7';
  try {
    const [row] = await db.query<Row>(
      `WITH ${takenNumberCte('$2', '$16', '$3')}
       INSERT INTO orders AS o (id, entity_id, order_number, document_type, customer_account_id, vendor_id, location_id, po_number, order_date, due_date,
         shipping_total, tax_exempt, delivery_option, notes, internal_notes, invoice_number, invoice_type, ship_complete, source_platform,
         external_order_id, external_order_number, metadata, created_by_user_id, sales_channel_id, migration_batch_id, imported_at, expires_at)
       VALUES ($1, $2, (SELECT value FROM taken_number), $4, $5, $6, ${location}, $8, coalesce($9::timestamptz, now()), $10, $11, $12, $13, $14, $15,
         CASE WHEN $4::text = 'invoice' THEN (SELECT value FROM taken_number) END, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27)
       ${returning ? `RETURNING ${returning}` : ''}`,
      [
        order.id,
        entityId,
        ORDER_NUMBER_PREFIXES[order.document_type],
        order.document_type,
        order.customer_account_id,
        order.vendor_id,
        order.location_id === DEFAULT_LOCATION ? null : order.location_id,
        order.po_number,
        order.order_date,
        order.due_date,
        order.shipping_total,
        order.tax_exempt,
        order.delivery_option,
        order.notes,
        order.internal_notes,
        `order:${order.document_type}`,
        order.invoice_type,
        order.ship_complete,
        order.source_platform,
        order.external_order_id,
        order.external_order_number,
        order.metadata,
        order.created_by_user_id,
        order.sales_channel_id,
        order.migration_batch_id ?? null,
        order.imported_at ?? null,
        order.expires_at ?? null,
      ],
    );
    return row;
  } catch (error) {
    externalTaken(error);
  }
}

/**
 * Sets the patch members that are among `columns` (and updated_at); false when the patch changes
 * nothing, in which case nothing is written.
 */
export async function updateOrderColumns(
  db: Db,
  entityId: string,
  orderId: string,
  patch: Record<string, unknown>,
  columns: readonly string[],
): Promise<boolean> {
  const params: unknown[] = [entityId, orderId];
  const set = updateSet(patch, columns, params);
  if (!set) return false;
  try {
    await db.query(`UPDATE orders ${set} WHERE entity_id = $1 AND id = $2`, params);
  } catch (error) {
    externalTaken(error);
  }
  return true;
}

/** A copy of the header as a new draft (E15): a fresh id, number and created_at; no totals, payments or provenance but duplicated_from_id. */
export async function insertDuplicateOrder(db: Db, entityId: string, sourceId: string, copy: { id: string; number: string; userId: string }): Promise<void> {
  await db.query(
    `INSERT INTO orders (id, entity_id, order_number, document_type, customer_account_id, vendor_id, location_id, po_number, tax_exempt,
       delivery_option, notes, internal_notes, invoice_number, invoice_type, ship_complete, metadata, duplicated_from_id, created_by_user_id, sales_channel_id)
     SELECT $3, entity_id, $4, document_type, customer_account_id, vendor_id, location_id, po_number, tax_exempt, delivery_option, notes, internal_notes,
       CASE WHEN document_type = 'invoice' THEN $4 END, invoice_type, ship_complete, metadata, id, $5, sales_channel_id
     FROM orders WHERE entity_id = $1 AND id = $2`,
    [entityId, sourceId, copy.id, copy.number, copy.userId],
  );
}

/** Marks the header changed (a change to its lines or adjustments). */
export async function touchOrder(db: Db, entityId: string, orderId: string): Promise<void> {
  await db.query('UPDATE orders SET updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, orderId]);
}

export async function softDeleteOrder(db: Db, entityId: string, orderId: string): Promise<void> {
  await db.query('UPDATE orders SET deleted_at = now(), updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, orderId]);
}

/** A paid document edited with override: counts the revision on the header and records what changed. */
export async function recordRevision(
  db: Db,
  entityId: string,
  revision: { orderId: string; lineId: string; userId: string; keyId: string; reason: string | null; lockReason: string; changes: Record<string, unknown> },
): Promise<void> {
  const { revision_count } = await db.one<{ revision_count: number }>(
    'UPDATE orders SET revision_count = revision_count + 1, updated_at = now() WHERE entity_id = $1 AND id = $2 RETURNING revision_count',
    [entityId, revision.orderId],
  );
  await db.query(
    `INSERT INTO order_revisions (id, entity_id, order_id, line_id, user_id, api_key_id, reason, lock_reason, changes, revision_number)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      newId(),
      entityId,
      revision.orderId,
      revision.lineId,
      revision.userId,
      revision.keyId,
      revision.reason,
      revision.lockReason,
      revision.changes,
      revision_count,
    ],
  );
}

/** The order a line's drop_ship_po_id names (deleted or not), for the details of a refused edit. */
export async function linkedPurchaseOrder(db: Db, entityId: string, poId: string) {
  return db.maybeOne<{ id: string; order_number: string; order_status: string }>(
    'SELECT id, order_number, order_status FROM orders WHERE entity_id = $1 AND id = $2',
    [entityId, poId],
  );
}
