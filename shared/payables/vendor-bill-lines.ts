/**
 * The draft-stage line changes of a vendor bill: add, read, update and delete one line. Each locks
 * the bill row first, refuses unless the bill is editable, and recomputes the bill's totals in the
 * same transaction.
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { amount } from '../money';
import { requireProduct } from '../catalog/products';
import { itemLineAmount } from './bill-rules';
import { lockPurchaseOrder, matchRequestedLines, rebillQuantity, requireSameVendor } from './bill-from-po';
import { addBilledQuantities, purchaseOrderOfLine } from '../orders/purchase-order-lines';
import type { VendorBillLine, VendorBillLineCreate, VendorBillLineUpdate } from './schemas/vendor-bill';
import {
  billedUnits,
  checkedLine,
  checkExpenseAccount,
  checkLineFields,
  getBillRow,
  getBillWithLines,
  insertLines,
  LINE_COLUMNS,
  NOT_EDITABLE,
  poRequestOf,
  recalculate,
  requireStatus,
  toLine,
  type LineRow,
  type StoredLineInput,
  type Wire,
  type WireBill,
} from './vendor-bills';

export async function addBillLine(db: Db, entityId: string, billId: string, input: VendorBillLineCreate): Promise<WireBill> {
  const bill = await getBillRow(db, entityId, billId, { lock: true });
  requireStatus(bill, 'edit', NOT_EDITABLE);
  const request = poRequestOf(input, '');
  let line: StoredLineInput;
  if (request) {
    const poId = bill.po_id ?? (await purchaseOrderOfLine(db, entityId, request.po_line_id, 'po_line_id'));
    const purchase = await lockPurchaseOrder(db, entityId, poId, 'po_line_id');
    requireSameVendor(purchase.po, bill.vendor_id, 'po_line_id');
    line = matchRequestedLines(purchase.lines, [{ index: 0, request, prefix: '' }]).get(0)!;
    await addBilledQuantities(db, entityId, billedUnits([line]));
    if (!bill.po_id) await db.query('UPDATE vendor_bills SET po_id = $3 WHERE entity_id = $1 AND id = $2', [entityId, billId, poId]);
  } else {
    line = await checkedLine(db, entityId, input, '');
  }
  const { next } = await db.one<{ next: number }>(
    'SELECT coalesce(max(sort_order) + 1, 0)::int AS next FROM vendor_bill_lines WHERE entity_id = $1 AND bill_id = $2',
    [entityId, billId],
  );
  await insertLines(db, entityId, billId, [line], next);
  await recalculate(db, entityId, billId);
  return getBillWithLines(db, entityId, billId);
}

async function getLineRow(db: Db, entityId: string, billId: string, lineId: string): Promise<LineRow> {
  const row = await db.maybeOne<LineRow>(`SELECT ${LINE_COLUMNS} FROM vendor_bill_lines l WHERE l.entity_id = $1 AND l.bill_id = $2 AND l.id = $3`, [
    entityId,
    billId,
    lineId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'line_id', hint: 'No such line on this vendor bill.' });
  return row;
}

/** One line as the line routes see it (for If-Match); the bill row is locked first, as every line change does. */
export async function getBillLine(db: Db, entityId: string, billId: string, lineId: string): Promise<Wire<VendorBillLine>> {
  await getBillRow(db, entityId, billId, { lock: true });
  return toLine(await getLineRow(db, entityId, billId, lineId));
}

export async function updateBillLine(db: Db, entityId: string, billId: string, lineId: string, patch: VendorBillLineUpdate): Promise<WireBill> {
  const bill = await getBillRow(db, entityId, billId, { lock: true });
  requireStatus(bill, 'edit', NOT_EDITABLE);
  const line = await getLineRow(db, entityId, billId, lineId);
  checkLineFields(line.type, patch, (field) => field, false);
  const merged = {
    account_id: patch.account_id ?? line.account_id,
    amount: patch.amount ?? line.amount,
    product_id: patch.product_id ?? line.product_id,
    quantity: patch.quantity ?? line.quantity,
    unit_cost: patch.unit_cost ?? line.unit_cost,
    description: patch.description === undefined ? line.description : patch.description,
  };
  if (patch.account_id) await checkExpenseAccount(db, entityId, patch.account_id, 'account_id');
  if (patch.product_id) await requireProduct(db, entityId, patch.product_id, { param: 'product_id' });
  if (line.po_line_id && bill.po_id) {
    if (patch.product_id && patch.product_id !== line.product_id) {
      throw new ApiError('parameter_invalid', { param: 'product_id', hint: "This line bills a purchase order line: its product is that line's." });
    }
    if (patch.quantity !== undefined) await rebillQuantity(db, entityId, bill.po_id, line.po_line_id, line.quantity!, patch.quantity);
  }
  const stored = line.type === 'expense' ? merged.amount : itemLineAmount(merged.quantity!, merged.unit_cost!);
  await db.query(
    `UPDATE vendor_bill_lines SET account_id = $4, product_id = $5, quantity = $6, unit_cost = $7, amount = $8, description = $9, updated_at = now()
      WHERE entity_id = $1 AND bill_id = $2 AND id = $3`,
    [entityId, billId, lineId, merged.account_id, merged.product_id, merged.quantity, merged.unit_cost, amount(stored).toString(), merged.description ?? null],
  );
  await recalculate(db, entityId, billId);
  return getBillWithLines(db, entityId, billId);
}

export async function deleteBillLine(db: Db, entityId: string, billId: string, lineId: string): Promise<WireBill> {
  const bill = await getBillRow(db, entityId, billId, { lock: true });
  requireStatus(bill, 'edit', NOT_EDITABLE);
  const line = await getLineRow(db, entityId, billId, lineId);
  if (line.po_line_id && bill.po_id) await rebillQuantity(db, entityId, bill.po_id, line.po_line_id, line.quantity!, '0');
  await db.query('DELETE FROM vendor_bill_lines WHERE entity_id = $1 AND bill_id = $2 AND id = $3', [entityId, billId, lineId]);
  await recalculate(db, entityId, billId);
  return getBillWithLines(db, entityId, billId);
}
