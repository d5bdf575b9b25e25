/**
 * SQL for vendor bills and their lines, and the draft-stage use cases create and update; the line
 * checks, line inserts and the totals recalculation are exported for the line changes
 * (vendor-bill-lines.ts). Every statement also filters by entity; totals are recomputed from the
 * lines in the same transaction as any change to them.
 */
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { formatNumber, nextNumber } from '../db/sequences';
import { entityFilters, updateSet } from '../db/sql';
import { todayUtc } from '../dates';
import { ApiError } from '../errors';
import { previousAttributes } from '../events/outbox';
import { newId } from '../ids';
import { toJsonNumber, QUANTITY_SCALE, toNullableJsonNumber } from '../money';
import { requireProduct } from '../catalog/products';
import { getParty } from '../parties/parties';
import { glAccountState } from '../ledger/ledger-reads';
import { allows, billTotals, dueDateFrom, itemLineAmount, type BillAction } from './bill-rules';
import { linesFromPurchaseOrder, lockPurchaseOrder, matchRequestedLines, requireSameVendor, type PoLineRequest } from './bill-from-po';
import { addBilledQuantities, purchaseOrderOfLine } from '../orders/purchase-order-lines';
import type { VendorBill, VendorBillCreate, VendorBillLine, VendorBillLineCreate, VendorBillStatus, VendorBillUpdate } from './schemas/vendor-bill';

const COLUMNS = `b.id, 'vendor_bill' AS object, b.entity_id, b.vendor_id, b.po_id, b.payment_term_id, b.bill_number, b.vendor_invoice_number, b.status,
  to_char(b.bill_date, 'YYYY-MM-DD') AS bill_date, to_char(b.due_date, 'YYYY-MM-DD') AS due_date, b.subtotal, b.tax_total, b.shipping_total, b.bill_total,
  b.amount_paid, b.bill_total - b.amount_paid AS balance_due, b.currency, b.notes, b.metadata, b.created_by_user_id, b.submitted_by, b.submitted_at,
  b.approved_by, b.approved_at, b.rejected_by, b.rejected_at, b.rejection_reason, b.posted_by, b.posted_at, b.skip_permission_check,
  b.journal_entry_id, b.voided_by, b.voided_at, b.void_journal_entry_id, b.created_at, b.updated_at`;
export const LINE_COLUMNS = `l.id, 'vendor_bill_line' AS object, l.bill_id, l.line_type AS type, l.account_id, l.product_id, l.quantity, l.unit_cost, l.amount,
  l.description, l.po_line_id, l.receipt_cost, l.created_at, l.updated_at`;

type Money = 'subtotal' | 'tax_total' | 'shipping_total' | 'bill_total' | 'amount_paid' | 'balance_due';
export type BillRow = Omit<VendorBill, Money | 'livemode'> & Record<Money, string>;
export type LineRow = Omit<VendorBillLine, 'quantity' | 'unit_cost' | 'amount' | 'receipt_cost' | 'livemode'> & {
  bill_id: string;
  quantity: string | null;
  unit_cost: string | null;
  amount: string;
  receipt_cost: string | null;
};

// livemode is stamped by the handler stack on every response object.
export type Wire<T> = Omit<T, 'livemode'>;

const toBill = (row: BillRow): Wire<VendorBill> => ({
  ...row,
  subtotal: toJsonNumber(row.subtotal),
  tax_total: toJsonNumber(row.tax_total),
  shipping_total: toJsonNumber(row.shipping_total),
  bill_total: toJsonNumber(row.bill_total),
  amount_paid: toJsonNumber(row.amount_paid),
  balance_due: toJsonNumber(row.balance_due),
});

export const toLine = ({ bill_id: _billId, ...row }: LineRow): Wire<VendorBillLine> => ({
  ...row,
  quantity: toNullableJsonNumber(row.quantity, QUANTITY_SCALE),
  unit_cost: toNullableJsonNumber(row.unit_cost, QUANTITY_SCALE),
  amount: toJsonNumber(row.amount),
  receipt_cost: toNullableJsonNumber(row.receipt_cost),
});

export type WireBill = Wire<VendorBill> & { lines?: Wire<VendorBillLine>[] };

/** The bill's row (locked with `lock`, for any change), else 404. */
export async function getBillRow(db: Db, entityId: string, billId: string, options: { lock?: boolean } = {}): Promise<BillRow> {
  const row = await db.maybeOne<BillRow>(`SELECT ${COLUMNS} FROM vendor_bills b WHERE b.entity_id = $1 AND b.id = $2 ${options.lock ? 'FOR UPDATE' : ''}`, [
    entityId,
    billId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such vendor bill in this entity.' });
  return row;
}

export async function getBill(db: Db, entityId: string, billId: string, options: { lock?: boolean } = {}): Promise<WireBill> {
  return toBill(await getBillRow(db, entityId, billId, options));
}

/** The bill with its lines (what the line routes return). */
export async function getBillWithLines(db: Db, entityId: string, billId: string): Promise<WireBill> {
  const bill = await getBill(db, entityId, billId);
  return { ...bill, lines: (await linesOfBills(db, entityId, [billId])).get(billId) ?? [] };
}

/** The lines of several bills in one query, in entry order. */
export async function linesOfBills(db: Db, entityId: string, billIds: string[]): Promise<Map<string, Wire<VendorBillLine>[]>> {
  const rows = await db.query<LineRow>(
    `SELECT ${LINE_COLUMNS} FROM vendor_bill_lines l WHERE l.entity_id = $1 AND l.bill_id = ANY($2::uuid[]) ORDER BY l.sort_order, l.created_at, l.id`,
    [entityId, billIds],
  );
  const byBill = new Map<string, Wire<VendorBillLine>[]>();
  for (const row of rows) byBill.set(row.bill_id, [...(byBill.get(row.bill_id) ?? []), toLine(row)]);
  return byBill;
}

/** 409 vendor_bill_invalid_transition unless the bill's status allows the action. */
export function requireStatus(bill: { status: VendorBillStatus }, action: BillAction, hint: string): void {
  if (allows(action, bill.status)) return;
  throw new ApiError('vendor_bill_invalid_transition', { param: 'id', hint, details: { current_status: bill.status } });
}

export const NOT_EDITABLE = 'Only a draft or rejected bill changes; void a submitted or posted bill and enter a new one.';

/** An active GL account of the entity other than accounts payable (a bill credits AP itself). */
export async function checkExpenseAccount(db: Db, entityId: string, accountId: string, param: string): Promise<void> {
  const account = await glAccountState(db, entityId, accountId);
  if (!account) throw new ApiError('not_found', { param, hint: 'No such GL account in this entity.' });
  if (!account.is_active) throw new ApiError('gl_account_inactive', { param });
  if (account.system_key === 'accounts_payable') {
    throw new ApiError('gl_account_control', { param, hint: 'A bill credits accounts payable itself; debit an expense, asset or cost account.' });
  }
}

async function checkVendor(db: Db, entityId: string, vendorId: string): Promise<{ currency: string }> {
  const vendor = (await getParty(db, 'vendor', entityId, vendorId, { param: 'vendor_id' })) as { currency: string; is_archived: boolean };
  if (vendor.is_archived) throw new ApiError('party_archived', { param: 'vendor_id', hint: 'The vendor is archived; restore it to bill it.' });
  return vendor;
}

async function termDays(db: Db, entityId: string, termId: string): Promise<number> {
  const term = await db.maybeOne<{ net_days: number }>('SELECT net_days FROM payment_terms WHERE entity_id = $1 AND id = $2', [entityId, termId]);
  if (!term) throw new ApiError('not_found', { param: 'payment_term_id', hint: 'No such payment terms in this entity.' });
  return term.net_days;
}

/** 409 vendor_invoice_number_taken naming the vendor's live bill with this number, if any. */
async function checkInvoiceNumber(db: Db, entityId: string, vendorId: string, number: string | null | undefined, exceptId?: string): Promise<void> {
  if (!number) return;
  const existing = await db.maybeOne<{ id: string; bill_number: string }>(
    `SELECT id, bill_number FROM vendor_bills WHERE entity_id = $1 AND vendor_id = $2 AND lower(vendor_invoice_number) = lower($3) AND status <> 'voided'
       AND id IS DISTINCT FROM $4`,
    [entityId, vendorId, number, exceptId ?? null],
  );
  if (existing) {
    throw new ApiError('vendor_invoice_number_taken', {
      param: 'vendor_invoice_number',
      hint: `Bill ${existing.bill_number} (${existing.id}) already records this vendor invoice number.`,
      details: { existing_bill_id: existing.id },
    });
  }
}

/** Concurrent writers of one vendor's invoice number meet the unique index: still a 409, without the id the loser cannot read. */
function billWriteError(error: unknown): never {
  if (isUniqueViolation(error, 'vendor_bills_vendor_invoice_unique')) throw new ApiError('vendor_invoice_number_taken', { param: 'vendor_invoice_number' });
  throw error;
}

export interface StoredLineInput {
  type: 'expense' | 'item';
  account_id: string | null;
  product_id: string | null;
  quantity: string | null;
  unit_cost: string | null;
  amount: string;
  description: string | null;
  po_line_id: string | null;
}

const FIELDS_OF = { expense: ['account_id', 'amount'], item: ['product_id', 'quantity', 'unit_cost'] } as const;

/** 400 on a field of the other line type (parameter_invalid) or a missing field of this one (parameter_missing, with `required`). */
export function checkLineFields(type: 'expense' | 'item', line: Partial<Record<string, unknown>>, param: (field: string) => string, required: boolean): void {
  const other = type === 'expense' ? 'item' : 'expense';
  const foreign = FIELDS_OF[other].find((field) => line[field] !== undefined);
  if (foreign) {
    throw new ApiError('parameter_invalid', {
      param: param(foreign),
      hint: `${foreign} belongs to ${other} lines; a ${type} line takes ${FIELDS_OF[type].join(', ')}.`,
    });
  }
  const missing = required ? FIELDS_OF[type].find((field) => line[field] === undefined) : undefined;
  if (missing) throw new ApiError('parameter_missing', { param: param(missing), hint: `A ${type} line needs ${FIELDS_OF[type].join(', ')}.` });
}

/** `prefix` names where the line sits in the request (lines[2]); '' when the body is the line. */
export async function checkedLine(db: Db, entityId: string, line: VendorBillLineCreate, prefix: string): Promise<StoredLineInput> {
  const param = (field: string) => (prefix ? `${prefix}.${field}` : field);
  checkLineFields(line.type, line, param, true);
  if (line.type === 'expense') {
    await checkExpenseAccount(db, entityId, line.account_id!, param('account_id'));
    return {
      type: 'expense',
      account_id: line.account_id!,
      product_id: null,
      quantity: null,
      unit_cost: null,
      amount: line.amount!,
      description: line.description ?? null,
      po_line_id: null,
    };
  }
  await requireProduct(db, entityId, line.product_id!, { param: param('product_id') });
  return {
    type: 'item',
    account_id: null,
    product_id: line.product_id!,
    quantity: line.quantity!,
    unit_cost: line.unit_cost!,
    amount: itemLineAmount(line.quantity!, line.unit_cost!),
    description: line.description ?? null,
    po_line_id: null,
  };
}

/** An item line that bills a purchase order line: 400 on an expense line that names one. */
export function poRequestOf(line: VendorBillLineCreate, prefix: string): PoLineRequest | null {
  if (line.po_line_id === undefined) return null;
  if (line.type !== 'item') {
    throw new ApiError('parameter_invalid', { param: `${prefix}po_line_id`, hint: 'Only item lines bill a purchase order line.' });
  }
  return { ...line, po_line_id: line.po_line_id };
}

export async function insertLines(db: Db, entityId: string, billId: string, lines: StoredLineInput[], firstSort: number): Promise<void> {
  if (lines.length === 0) return;
  await db.query(
    `INSERT INTO vendor_bill_lines (id, entity_id, bill_id, line_type, account_id, product_id, quantity, unit_cost, amount, description, sort_order, po_line_id)
     SELECT v.id, $1, $2, v.type, v.account_id, v.product_id, v.quantity, v.unit_cost, v.amount, v.description, v.sort_order, v.po_line_id
       FROM jsonb_to_recordset($3::jsonb) AS v(id uuid, type text, account_id uuid, product_id uuid, quantity numeric, unit_cost numeric, amount numeric,
            description text, sort_order int, po_line_id uuid)`,
    [entityId, billId, JSON.stringify(lines.map((line, index) => ({ ...line, id: newId(), sort_order: firstSort + index })))],
  );
}

/** Recomputes subtotal and bill_total from the lines. */
export async function recalculate(db: Db, entityId: string, billId: string): Promise<void> {
  const bill = await db.one<{ tax_total: string; shipping_total: string }>(
    'SELECT tax_total, shipping_total FROM vendor_bills WHERE entity_id = $1 AND id = $2',
    [entityId, billId],
  );
  const amounts = await db.query<{ amount: string }>('SELECT amount FROM vendor_bill_lines WHERE entity_id = $1 AND bill_id = $2', [entityId, billId]);
  const totals = billTotals(
    amounts.map((row) => row.amount),
    bill.tax_total,
    bill.shipping_total,
  );
  await db.query('UPDATE vendor_bills SET subtotal = $3, bill_total = $4, updated_at = now() WHERE entity_id = $1 AND id = $2', [
    entityId,
    billId,
    totals.subtotal,
    totals.bill_total,
  ]);
}

export const billedUnits = (lines: readonly StoredLineInput[]) =>
  lines.flatMap((line) => (line.po_line_id ? [{ po_line_id: line.po_line_id, quantity: line.quantity! }] : []));

export async function createBill(db: Db, actor: { entityId: string; userId: string }, input: VendorBillCreate): Promise<WireBill> {
  const { entityId } = actor;
  // From a purchase order: po_id, or the purchase order of the first line naming a po_line_id.
  const requests = (input.lines ?? []).flatMap((line, index) => {
    const request = poRequestOf(line, `lines[${index}].`);
    return request ? [{ index, request, prefix: `lines[${index}].` }] : [];
  });
  const poId =
    input.po_id ?? (requests.length ? await purchaseOrderOfLine(db, entityId, requests[0].request.po_line_id, `${requests[0].prefix}po_line_id`) : null);
  const purchase = poId ? await lockPurchaseOrder(db, entityId, poId, input.po_id ? 'po_id' : `${requests[0].prefix}po_line_id`) : null;
  const vendorId = input.vendor_id ?? purchase?.po.vendor_id;
  if (!vendorId) throw new ApiError('parameter_missing', { param: 'vendor_id', hint: 'Send vendor_id, or po_id to bill a purchase order.' });
  const vendor = await checkVendor(db, entityId, vendorId);
  if (purchase) requireSameVendor(purchase.po, vendorId, 'vendor_id');
  const billDate = input.bill_date ?? todayUtc();
  const netDays = input.payment_term_id ? await termDays(db, entityId, input.payment_term_id) : 0;
  const dueDate = input.due_date ?? dueDateFrom(billDate, netDays);
  if (dueDate < billDate) throw new ApiError('parameter_invalid', { param: 'due_date', hint: `due_date cannot precede bill_date (${billDate}).` });
  await checkInvoiceNumber(db, entityId, vendorId, input.vendor_invoice_number);
  const lines: StoredLineInput[] = [];
  if (purchase && input.lines === undefined) {
    lines.push(...linesFromPurchaseOrder(purchase.po, purchase.lines));
  } else {
    const matched = purchase ? matchRequestedLines(purchase.lines, requests) : new Map<number, StoredLineInput>();
    for (const [index, line] of (input.lines ?? []).entries()) lines.push(matched.get(index) ?? (await checkedLine(db, entityId, line, `lines[${index}]`)));
  }
  // Taken last, after every check that can refuse: the counter row stays locked until commit.
  const billNumber = formatNumber('BILL-', await nextNumber(db, entityId, 'vendor_bill'));
  const id = newId();
  try {
    await db.query(
      `INSERT INTO vendor_bills (id, entity_id, bill_number, vendor_id, payment_term_id, vendor_invoice_number, bill_date, due_date, tax_total, shipping_total,
         currency, notes, metadata, created_by_user_id, po_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        id,
        entityId,
        billNumber,
        vendorId,
        input.payment_term_id ?? null,
        input.vendor_invoice_number ?? null,
        billDate,
        dueDate,
        input.tax_total ?? '0',
        input.shipping_total ?? '0',
        input.currency ?? vendor.currency,
        input.notes ?? null,
        input.metadata ?? {},
        actor.userId,
        poId,
      ],
    );
  } catch (error) {
    billWriteError(error);
  }
  await insertLines(db, entityId, id, lines, 0);
  await addBilledQuantities(db, entityId, billedUnits(lines));
  await recalculate(db, entityId, id);
  return getBillWithLines(db, entityId, id);
}

const EDITABLE = [
  'vendor_id',
  'vendor_invoice_number',
  'bill_date',
  'due_date',
  'payment_term_id',
  'tax_total',
  'shipping_total',
  'currency',
  'notes',
  'metadata',
] as const;
/** notes and metadata are the integrator's annotations: they change in any status. */
const ANNOTATIONS = new Set(['notes', 'metadata']);

export async function updateBill(db: Db, entityId: string, billId: string, patch: VendorBillUpdate): Promise<{ bill: WireBill; previous: Partial<WireBill> }> {
  const before = toBill(await getBillRow(db, entityId, billId, { lock: true }));
  const changesTerms = Object.keys(patch).some((key) => patch[key as keyof VendorBillUpdate] !== undefined && !ANNOTATIONS.has(key));
  if (changesTerms) requireStatus(before, 'edit', NOT_EDITABLE);
  const vendorId = patch.vendor_id ?? before.vendor_id;
  if (patch.vendor_id && patch.vendor_id !== before.vendor_id) {
    await checkVendor(db, entityId, patch.vendor_id);
    if (before.po_id) requireSameVendor((await lockPurchaseOrder(db, entityId, before.po_id, 'vendor_id')).po, patch.vendor_id, 'vendor_id');
  }
  const invoiceNumber = patch.vendor_invoice_number === undefined ? before.vendor_invoice_number : patch.vendor_invoice_number;
  if (patch.vendor_id !== undefined || patch.vendor_invoice_number !== undefined) await checkInvoiceNumber(db, entityId, vendorId, invoiceNumber, billId);
  const billDate = patch.bill_date ?? before.bill_date;
  const termId = patch.payment_term_id === undefined ? before.payment_term_id : patch.payment_term_id;
  const changes: Record<string, unknown> = { ...patch };
  // New terms or a new bill date move the due date the terms give, unless one is sent.
  if (patch.due_date === undefined && (patch.payment_term_id !== undefined || patch.bill_date !== undefined) && termId) {
    changes.due_date = dueDateFrom(billDate, await termDays(db, entityId, termId));
  } else if (patch.payment_term_id && patch.due_date !== undefined) {
    await termDays(db, entityId, patch.payment_term_id);
  }
  const dueDate = (changes.due_date as string | undefined) ?? before.due_date;
  if (dueDate < billDate) throw new ApiError('parameter_invalid', { param: 'due_date', hint: `due_date cannot precede bill_date (${billDate}).` });
  const params: unknown[] = [entityId, billId];
  const set = updateSet(changes, EDITABLE, params);
  if (!set) return { bill: before, previous: {} };
  try {
    await db.query(`UPDATE vendor_bills ${set} WHERE entity_id = $1 AND id = $2`, params);
  } catch (error) {
    billWriteError(error);
  }
  if (patch.tax_total !== undefined || patch.shipping_total !== undefined) await recalculate(db, entityId, billId);
  const bill = await getBill(db, entityId, billId);
  return { bill, previous: previousAttributes(before, bill) };
}

export interface BillFilters {
  vendor_id?: string;
  status?: VendorBillStatus;
  created_gte?: string;
  created_lte?: string;
  due_date_lte?: string;
}

export async function listBills(db: Db, entityId: string, filters: BillFilters, page: PageRequest): Promise<Page<WireBill>> {
  const { where, params, add } = entityFilters('b', entityId);
  add((n) => `b.vendor_id = ${n}`, filters.vendor_id);
  add((n) => `b.status = ${n}`, filters.status);
  // At the precision the API prints timestamps (milliseconds), so a bill's own created_at bounds include it.
  add((n) => `date_trunc('milliseconds', b.created_at) >= ${n}`, filters.created_gte);
  add((n) => `date_trunc('milliseconds', b.created_at) <= ${n}`, filters.created_lte);
  add((n) => `b.due_date <= ${n}`, filters.due_date_lte);
  const result = await keysetPage<BillRow>(db, { table: 'vendor_bills', alias: 'b', select: COLUMNS, where, params }, page);
  return { ...result, data: result.data.map(toBill) };
}
