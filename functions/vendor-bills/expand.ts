import type { ExpandSpec } from '../../shared/http/expand';
import { productDemand } from '../../shared/inventory/product-demand';
import { PRODUCT_COLUMNS, withDemand, type ProductRow } from '../../shared/catalog/products';
import { journalEntriesByIds } from '../../shared/ledger/journal-entries';
import { getOrder } from '../../shared/orders/order-reads';
import { loadParties } from '../../shared/parties/parties';
import { linesOfBills } from '../../shared/payables/vendor-bills';
import { paymentsOfBills } from '../../shared/payables/ap-payments';

type Bill = Record<string, unknown> & {
  id: string;
  entity_id: string;
  vendor_id: string;
  po_id: string | null;
  journal_entry_id: string | null;
  void_journal_entry_id: string | null;
};
type Line = Record<string, unknown> & { product_id: string | null };

/** What a vendor bill can expand (E21; data.-prefixed on E22). One query per kind per page. */
export const VENDOR_BILL_EXPAND: ExpandSpec = {
  lines: async ({ db }, parents) => {
    const bills = parents as Bill[];
    const byBill = await linesOfBills(
      db,
      bills[0].entity_id,
      bills.map((bill) => bill.id),
    );
    for (const bill of bills) bill.lines = byBill.get(bill.id) ?? [];
  },
  'lines.product': async ({ db }, parents) => {
    const lines = parents as Line[];
    const ids = [...new Set(lines.map((line) => line.product_id).filter((id): id is string => id !== null))];
    const rows = ids.length ? await db.query<ProductRow>(`SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.id = ANY($1::uuid[])`, [ids]) : [];
    const products = rows.length ? await withDemand(db, rows[0].entity_id, rows, productDemand) : [];
    const byId = new Map(products.map((product) => [product.id, product]));
    for (const line of lines) line.product = line.product_id ? (byId.get(line.product_id) ?? null) : null;
  },
  // The AP payments applied to each bill (voided ones too, with status voided), oldest first.
  payments: async ({ db }, parents) => {
    const bills = parents as Bill[];
    const byBill = await paymentsOfBills(
      db,
      bills[0].entity_id,
      bills.map((bill) => bill.id),
    );
    for (const bill of bills) bill.payments = byBill.get(bill.id) ?? [];
  },
  gl_entries: async ({ db }, parents) => {
    const bills = parents as Bill[];
    const ids = bills.flatMap((bill) => [bill.journal_entry_id, bill.void_journal_entry_id].filter((id): id is string => id !== null));
    const entries = await journalEntriesByIds(db, bills[0].entity_id, ids);
    for (const bill of bills) bill.gl_entries = entries.filter((entry) => entry.source_id === bill.id);
  },
  vendor: async ({ db }, parents) => {
    const bills = parents as Bill[];
    const vendors = await loadParties(db, 'vendor', [...new Set(bills.map((bill) => bill.vendor_id))]);
    const byId = new Map(vendors.map((vendor) => [vendor.id, vendor]));
    for (const bill of bills) bill.vendor = byId.get(bill.vendor_id) ?? null;
  },
  purchase_order: async ({ db }, parents) => {
    const bills = parents as Bill[];
    for (const bill of bills) bill.purchase_order = bill.po_id ? await getOrder(db, bill.entity_id, bill.po_id) : null;
  },
};
