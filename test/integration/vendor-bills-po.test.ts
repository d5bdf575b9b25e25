/**
 * Vendor bills from purchase orders (issue 17, "From a purchase order"): lines from the PO lines,
 * the three-way match, received_not_billed cleared at the receipt cost with the price variance on
 * its own account, billed quantities on the PO, and item lines without a purchase order.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../shared/ids';
import { glBalance } from '../support/cash-fixtures';
import { setupTestApi, type TestApi, type TestEntity } from '../support/harness';
import { entryLines } from '../support/ledger-helpers';
import { payablesWorld, type PayablesWorld } from '../support/payables-fixtures';

const api = setupTestApi();
const BILLS = '/v1/vendor-bills';
let n = 0;

interface PoWorld extends PayablesWorld {
  po: { id: string; order_number: string; lines: { id: string }[] };
  widgetLine: string;
  gadgetLine: string;
  gadget: { id: string };
  receive(lines: { line_id: string; quantity: number; unit_cost?: number | string }[]): Promise<unknown>;
  poLine(lineId: string): Promise<{ quantity_fulfilled: number; billed_quantity: number }>;
  post(
    billId: string,
  ): Promise<{ id: string; journal_entry_id: string | null; void_journal_entry_id: string | null; lines?: { receipt_cost: number | null }[] }>;
}

/** A sent purchase order from the world's vendor: 10 widgets at 3.00 and 5 gadgets at 2.00, arriving at a location. */
async function poWorld(apiClient: TestApi = api): Promise<PoWorld> {
  const w = await payablesWorld(apiClient);
  const location = await apiClient.post(w.owner, '/v1/locations', { name: `Dock ${n++}` });
  const gadget = await apiClient.post(w.owner, '/v1/products', { sku: `GAD-${Date.now().toString(36)}-${n++}`, name: 'Gadget', cost: 2 });
  const po = await apiClient.post(w.owner, '/v1/orders', {
    document_type: 'purchase_order',
    account_id: w.vendor.id,
    location_id: location.id,
    lines: [
      { product_id: w.product.id, quantity: 10, sell_rate: 3 },
      { product_id: gadget.id, quantity: 5, sell_rate: 2 },
    ],
  });
  await apiClient.post(w.owner, `/v1/orders/${po.id}/confirm`, undefined, 200);
  return {
    ...w,
    po,
    gadget,
    widgetLine: po.lines[0].id,
    gadgetLine: po.lines[1].id,
    receive: (lines) => apiClient.post(w.owner, `/v1/orders/${po.id}/receipts`, { lines }),
    poLine: async (lineId) => {
      const order = await apiClient.get(w.owner, `/v1/orders/${po.id}`);
      return order.lines.find((line) => line.id === lineId)!;
    },
    post: async (billId) => {
      await apiClient.post(w.clerk.secret, `${BILLS}/${billId}/submit`, undefined, 200);
      await apiClient.post(w.approver.secret, `${BILLS}/${billId}/approve`, undefined, 200);
      await apiClient.post(w.poster.secret, `${BILLS}/${billId}/post`, {}, 200);
      return apiClient.get(w.owner, `${BILLS}/${billId}`, { 'expand[]': ['lines'] });
    },
  };
}

const postingOf = async (owner: TestEntity, entryId: string | null) =>
  (await entryLines(api, owner, entryId)).lines.filter((line) => line.key).map((line) => [line.key, line.debit, line.credit]);

describe('vendor bills from a purchase order (po_id)', () => {
  it('lines come from the PO lines: after a partial receipt, a bill from po_id bills the received units not billed yet, at the PO unit cost', async () => {
    const w = await poWorld();
    await w.receive([{ line_id: w.widgetLine, quantity: 4 }]);
    const bill = await api.post(w.clerk.secret, BILLS, { po_id: w.po.id, bill_date: '2026-03-02' });
    expect(bill).toMatchObject({ po_id: w.po.id, vendor_id: w.vendor.id, status: 'draft', subtotal: 12, bill_total: 12 });
    // The gadget line received nothing, so it has nothing to bill.
    expect(bill.lines).toEqual([
      expect.objectContaining({ type: 'item', po_line_id: w.widgetLine, product_id: w.product.id, quantity: 4, unit_cost: 3, amount: 12, receipt_cost: null }),
    ]);
    expect(await w.poLine(w.widgetLine)).toMatchObject({ quantity_fulfilled: 4, billed_quantity: 4 });
    expect(await w.poLine(w.gadgetLine)).toMatchObject({ quantity_fulfilled: 0, billed_quantity: 0 });
    // Everything received is on a bill: nothing more to bill until more arrives.
    await api.expectRefusal(w.owner, 'POST', BILLS, { po_id: w.po.id }, 422, 'purchase_order_nothing_to_bill', 'po_id', w.clerk.secret);
    await w.receive([
      { line_id: w.widgetLine, quantity: 6 },
      { line_id: w.gadgetLine, quantity: 2 },
    ]);
    const second = await api.post(w.clerk.secret, BILLS, { po_id: w.po.id });
    expect(second.lines!.map((line) => [line.po_line_id, line.quantity, line.amount])).toEqual([
      [w.widgetLine, 6, 18],
      [w.gadgetLine, 2, 4],
    ]);
    expect(await w.poLine(w.widgetLine)).toMatchObject({ quantity_fulfilled: 10, billed_quantity: 10 });
  });

  it('item lines carrying po_line_id (without po_id) bill that PO: the bill takes its po_id and vendor; expense lines ride along', async () => {
    const w = await poWorld();
    await w.receive([{ line_id: w.widgetLine, quantity: 5 }]);
    const bill = await api.post(w.clerk.secret, BILLS, {
      lines: [
        { type: 'item', po_line_id: w.widgetLine, quantity: 2, unit_cost: '3.1' },
        { type: 'expense', account_id: w.chart.expense, amount: 4, description: 'Freight' },
      ],
    });
    expect(bill).toMatchObject({ po_id: w.po.id, vendor_id: w.vendor.id, subtotal: 10.2 });
    const added = await api.post(w.clerk.secret, `${BILLS}/${bill.id}/lines`, { type: 'item', po_line_id: w.widgetLine });
    expect(added.lines!.at(-1)).toMatchObject({ po_line_id: w.widgetLine, product_id: w.product.id, quantity: 3, unit_cost: 3, amount: 9 });
    expect(await w.poLine(w.widgetLine)).toMatchObject({ billed_quantity: 5 });
    // Deleting a line gives its units back.
    await api.delete(w.clerk.secret, `${BILLS}/${bill.id}/lines/${added.lines!.at(-1)!.id}`);
    expect(await w.poLine(w.widgetLine)).toMatchObject({ billed_quantity: 2 });
  });

  it('three-way match: billed quantity ≤ received quantity minus already billed; an over-bill is 422 naming the line and the quantities, and writes nothing', async () => {
    const w = await poWorld();
    await w.receive([{ line_id: w.widgetLine, quantity: 4 }]);
    const refused = await api.expectRefusal(
      w.owner,
      'POST',
      BILLS,
      { po_id: w.po.id, lines: [{ type: 'item', po_line_id: w.widgetLine, quantity: 5 }] },
      422,
      'bill_quantity_exceeds_received',
      'lines[0].quantity',
      w.clerk.secret,
    );
    expect(refused).toMatchObject({ type: 'validation_error', po_line_id: w.widgetLine, received_quantity: 4, billed_quantity: 0, requested_quantity: 5 });
    expect(await w.poLine(w.widgetLine)).toMatchObject({ billed_quantity: 0 });

    const bill = await api.post(w.clerk.secret, BILLS, { po_id: w.po.id, lines: [{ type: 'item', po_line_id: w.widgetLine, quantity: 3 }] });
    expect(bill.bill_number).toBe('BILL-000001');
    // Two lines of one request add up against the same PO line.
    const twice = await api.expectRefusal(
      w.owner,
      'POST',
      BILLS,
      {
        po_id: w.po.id,
        lines: [
          { type: 'item', po_line_id: w.widgetLine, quantity: 1 },
          { type: 'item', po_line_id: w.widgetLine, quantity: 1 },
        ],
      },
      422,
      'bill_quantity_exceeds_received',
      'lines[1].quantity',
      w.clerk.secret,
    );
    expect(twice).toMatchObject({ received_quantity: 4, billed_quantity: 4, requested_quantity: 1 });
    const onLine = await api.expectRefusal(
      w.owner,
      'POST',
      `${BILLS}/${bill.id}/lines`,
      { type: 'item', po_line_id: w.widgetLine, quantity: 2 },
      422,
      'bill_quantity_exceeds_received',
      'quantity',
      w.clerk.secret,
    );
    expect(onLine).toMatchObject({ received_quantity: 4, billed_quantity: 3, requested_quantity: 2 });
    // Raising the line's own quantity counts its own units as free: 4 is fine, 5 is not.
    const lineId = bill.lines![0].id;
    await api.expectRefusal(
      w.owner,
      'PATCH',
      `${BILLS}/${bill.id}/lines/${lineId}`,
      { quantity: 5 },
      422,
      'bill_quantity_exceeds_received',
      'quantity',
      w.clerk.secret,
    );
    expect((await api.patch(w.clerk.secret, `${BILLS}/${bill.id}/lines/${lineId}`, { quantity: 4 })).lines![0]).toMatchObject({ quantity: 4, amount: 12 });
    expect(await w.poLine(w.widgetLine)).toMatchObject({ billed_quantity: 4 });
    // A line that was never received cannot be billed at all; the refused creates took no bill number.
    await api.expectRefusal(
      w.owner,
      'POST',
      BILLS,
      { po_id: w.po.id, lines: [{ type: 'item', po_line_id: w.gadgetLine, quantity: 1 }] },
      422,
      'bill_quantity_exceeds_received',
      'lines[0].quantity',
      w.clerk.secret,
    );
    expect((await w.bill()).bill_number).toBe('BILL-000002');
  });

  it("a bill from a PO is the PO's vendor's; another product on a PO line, a line of another PO and an expense line naming a PO line are refused", async () => {
    const w = await poWorld();
    await w.receive([{ line_id: w.widgetLine, quantity: 2 }]);
    const other = await api.post(w.owner, '/v1/vendors', { name: `Other vendor ${n++}` });
    const mismatch = await api.expectRefusal(
      w.owner,
      'POST',
      BILLS,
      { vendor_id: other.id, po_id: w.po.id },
      422,
      'purchase_order_vendor_mismatch',
      'vendor_id',
    );
    expect(mismatch).toMatchObject({ po_id: w.po.id, po_vendor_id: w.vendor.id });
    await api.expectRefusal(
      w.owner,
      'POST',
      BILLS,
      { po_id: w.po.id, lines: [{ type: 'item', po_line_id: w.widgetLine, product_id: w.gadget.id }] },
      400,
      'parameter_invalid',
      'lines[0].product_id',
    );
    await api.expectRefusal(
      w.owner,
      'POST',
      BILLS,
      { po_id: w.po.id, lines: [{ type: 'item', po_line_id: newId() }] },
      404,
      'not_found',
      'lines[0].po_line_id',
    );
    await api.expectRefusal(
      w.owner,
      'POST',
      BILLS,
      { vendor_id: w.vendor.id, lines: [{ type: 'expense', account_id: w.chart.expense, amount: 1, po_line_id: w.widgetLine }] },
      400,
      'parameter_invalid',
      'lines[0].po_line_id',
    );
    const bill = await api.post(w.clerk.secret, BILLS, { po_id: w.po.id });
    await api.expectRefusal(w.owner, 'PATCH', `${BILLS}/${bill.id}`, { vendor_id: other.id }, 422, 'purchase_order_vendor_mismatch', 'vendor_id');
  });

  it('posting debits received_not_billed at the receipt cost (not inventory) and posts the price difference to purchase_price_variance, to the cent', async () => {
    const w = await poWorld();
    // 4 received at 3.00 and 2 at 3.50: 19.00 of received-not-billed cost over 6 units.
    await w.receive([{ line_id: w.widgetLine, quantity: 4 }]);
    await w.receive([{ line_id: w.widgetLine, quantity: 2, unit_cost: '3.5' }]);
    expect(await glBalance(w.owner, 'received_not_billed')).toBe('-19');
    expect(await glBalance(w.owner, 'inventory')).toBe('19');

    // 3 of the 6 at 3.10: the receipt cost is half the pool, 9.50; the bill is 9.30, so 0.20 is credited to the variance.
    const cheaper = await api.post(w.clerk.secret, BILLS, {
      po_id: w.po.id,
      lines: [{ type: 'item', po_line_id: w.widgetLine, quantity: 3, unit_cost: '3.1' }],
    });
    const first = await w.post(cheaper.id);
    expect(first.lines![0].receipt_cost).toBe(9.5);
    expect(await postingOf(w.owner, first.journal_entry_id)).toEqual([
      ['received_not_billed', 9.5, 0],
      ['purchase_price_variance', 0, 0.2],
      ['accounts_payable', 0, 9.3],
    ]);

    // The last 3 at 3.50 = 10.50 take what is left of the pool, 9.50: 1.00 is debited to the variance.
    const dearer = await api.post(w.clerk.secret, BILLS, {
      po_id: w.po.id,
      lines: [{ type: 'item', po_line_id: w.widgetLine, quantity: 3, unit_cost: '3.5' }],
    });
    const second = await w.post(dearer.id);
    expect(await postingOf(w.owner, second.journal_entry_id)).toEqual([
      ['received_not_billed', 9.5, 0],
      ['purchase_price_variance', 1, 0],
      ['accounts_payable', 0, 10.5],
    ]);
    // Received-not-billed is cleared exactly; inventory keeps the receipt cost; the variance nets 0.80.
    expect(await glBalance(w.owner, 'received_not_billed')).toBe('0');
    expect(await glBalance(w.owner, 'inventory')).toBe('19');
    expect(await glBalance(w.owner, 'purchase_price_variance')).toBe('0.8');
    expect(await glBalance(w.owner, 'accounts_payable')).toBe('-19.8');
  });

  it('a bill at the receipt cost posts no variance; a bill of a part of a receipt clears its share, rounded half away from zero', async () => {
    const w = await poWorld();
    // 3 at 3.3333: 9.9999 received.
    await w.receive([{ line_id: w.widgetLine, quantity: 3, unit_cost: '3.3333' }]);
    const one = await api.post(w.clerk.secret, BILLS, {
      po_id: w.po.id,
      lines: [{ type: 'item', po_line_id: w.widgetLine, quantity: 1, unit_cost: '3.3333' }],
    });
    const posted = await w.post(one.id);
    expect(await postingOf(w.owner, posted.journal_entry_id)).toEqual([
      ['received_not_billed', 3.33, 0],
      ['accounts_payable', 0, 3.33],
    ]);
    const rest = await api.post(w.clerk.secret, BILLS, { po_id: w.po.id });
    expect(rest.lines![0]).toMatchObject({ quantity: 2, unit_cost: 3, amount: 6 });
    const last = await w.post(rest.id);
    // The last units clear what is left (9.9999 − 3.33 = 6.6699 → 6.67): 0.67 below the receipts, to the variance.
    expect(await postingOf(w.owner, last.journal_entry_id)).toEqual([
      ['received_not_billed', 6.67, 0],
      ['purchase_price_variance', 0, 0.67],
      ['accounts_payable', 0, 6],
    ]);
    expect(await glBalance(w.owner, 'received_not_billed')).toBe('0');
  });

  it('voiding a PO bill gives the billed quantity back and reverses the clearing and the variance', async () => {
    const w = await poWorld();
    await w.receive([{ line_id: w.widgetLine, quantity: 4 }]);
    const bill = await api.post(w.clerk.secret, BILLS, { po_id: w.po.id, lines: [{ type: 'item', po_line_id: w.widgetLine, unit_cost: 4 }] });
    expect(bill.lines![0]).toMatchObject({ quantity: 4, amount: 16 });
    const posted = await w.post(bill.id);
    expect(await glBalance(w.owner, 'received_not_billed')).toBe('0');
    expect(await glBalance(w.owner, 'purchase_price_variance')).toBe('4');
    expect(await w.poLine(w.widgetLine)).toMatchObject({ billed_quantity: 4 });

    const voided = await api.post(w.owner, `${BILLS}/${posted.id}/void`, undefined, 200);
    expect(voided.status).toBe('voided');
    expect(await w.poLine(w.widgetLine)).toMatchObject({ billed_quantity: 0 });
    expect(await glBalance(w.owner, 'received_not_billed')).toBe('-12');
    expect(await glBalance(w.owner, 'purchase_price_variance')).toBe('0');
    expect(await glBalance(w.owner, 'accounts_payable')).toBe('0');
    // The units bill again, and the new bill clears the whole receipt again.
    const again = await w.post((await api.post(w.clerk.secret, BILLS, { po_id: w.po.id })).id);
    expect(again.lines![0].receipt_cost).toBe(12);
    expect(await glBalance(w.owner, 'received_not_billed')).toBe('0');
    // A draft's units come back too.
    await w.receive([{ line_id: w.widgetLine, quantity: 1 }]);
    const draft = await api.post(w.clerk.secret, BILLS, { po_id: w.po.id });
    expect(await w.poLine(w.widgetLine)).toMatchObject({ billed_quantity: 5 });
    await api.post(w.owner, `${BILLS}/${draft.id}/void`, undefined, 200);
    expect(await w.poLine(w.widgetLine)).toMatchObject({ billed_quantity: 4 });
  });

  it('E21 expand purchase_order returns the PO with its lines and their billed_quantity', async () => {
    const w = await poWorld();
    await w.receive([{ line_id: w.widgetLine, quantity: 2 }]);
    const bill = await api.post(w.clerk.secret, BILLS, { po_id: w.po.id });
    const read = await api.get(w.owner, `${BILLS}/${bill.id}`, { 'expand[]': ['purchase_order', 'lines'] });
    const po = read.purchase_order as { id: string; order_number: string; document_type: string; lines: { id: string; billed_quantity: number }[] };
    expect(po).toMatchObject({ id: w.po.id, order_number: w.po.order_number, document_type: 'purchase_order' });
    expect(po.lines.find((line) => line.id === w.widgetLine)).toMatchObject({ billed_quantity: 2 });
    const list = await api.get(w.owner, BILLS, { 'expand[]': ['data.purchase_order'], limit: '5' });
    expect(list.data.map((row) => (row.purchase_order as { id: string } | null)?.id ?? null)).toEqual([w.po.id]);
  });

  it("another entity's PO (or PO line) is 404, and so is a test-mode PO from a live key", async () => {
    const w = await poWorld();
    await w.receive([{ line_id: w.widgetLine, quantity: 2 }]);
    const stranger = await payablesWorld(api);
    await api.expectRefusal(stranger.owner, 'POST', BILLS, { po_id: w.po.id }, 404, 'not_found', 'po_id');
    await api.expectRefusal(stranger.owner, 'POST', BILLS, { lines: [{ type: 'item', po_line_id: w.widgetLine }] }, 404, 'not_found', 'lines[0].po_line_id');
    const draft = await stranger.bill();
    await api.expectRefusal(stranger.owner, 'POST', `${BILLS}/${draft.id}/lines`, { type: 'item', po_line_id: w.widgetLine }, 404, 'not_found', 'po_line_id');

    // The entity's test-mode PO, received, from its live key.
    const { live, test } = await api.newEntityPair();
    const vendor = await api.post(test, '/v1/vendors', { name: 'Test vendor' });
    const product = await api.post(test, '/v1/products', { sku: `TM-${n++}`, name: 'Test part', cost: 1 });
    const location = await api.post(test, '/v1/locations', { name: 'Test dock' });
    const po = await api.post(test, '/v1/orders', {
      document_type: 'purchase_order',
      account_id: vendor.id,
      location_id: location.id,
      lines: [{ product_id: product.id, quantity: 2, sell_rate: 1 }],
    });
    await api.post(test, `/v1/orders/${po.id}/confirm`, undefined, 200);
    await api.post(test, `/v1/orders/${po.id}/receipts`, { lines: [{ line_id: po.lines[0].id, quantity: 2 }] });
    await api.expectRefusal(live, 'POST', BILLS, { po_id: po.id }, 404, 'not_found', 'po_id');
    expect((await api.post(test, BILLS, { po_id: po.id })).lines![0]).toMatchObject({ po_line_id: po.lines[0].id, quantity: 2 });
  });
});

describe('item lines without a purchase order', () => {
  it('move no stock and debit cost_of_goods_sold, not inventory, so the inventory account keeps tying to the stock valuation', async () => {
    const w = await poWorld();
    const bill = await api.post(w.clerk.secret, BILLS, {
      vendor_id: w.vendor.id,
      lines: [{ type: 'item', product_id: w.product.id, quantity: 5, unit_cost: 3 }],
    });
    expect(bill.po_id).toBeNull();
    const posted = await w.post(bill.id);
    expect(await postingOf(w.owner, posted.journal_entry_id)).toEqual([
      ['cost_of_goods_sold', 15, 0],
      ['accounts_payable', 0, 15],
    ]);
    expect(await glBalance(w.owner, 'inventory')).toBe('0');
    const balances = await api.get(w.owner, '/v1/inventory/balances', { product_id: w.product.id });
    expect(balances.data.reduce((sum, balance) => sum + balance.on_hand, 0)).toBe(0);
  });
});
