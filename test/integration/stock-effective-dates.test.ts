/**
 * Fulfilments and return receipts take an effective date (fulfillment_date, received_date; default
 * today UTC) and their postings land on it: never before the document's own date (400), never in a
 * closed period (422 period_closed), and a refusal writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { closedPeriod, entryLines } from '../support/ledger-helpers';
import { setupTestApi, tenantRowCounts } from '../support/harness';
import { inventoryTies } from '../support/valuation-fixtures';
import { salesWorld } from '../support/worlds';

const api = setupTestApi();
const today = () => new Date().toISOString().slice(0, 10);

describe('effective dates of fulfilments and return receipts', () => {
  it('a fulfilment books its cost of goods sold on fulfillment_date: not before the order, not in a closed period', async () => {
    const w = await salesWorld(api, { widgetStock: 10 });
    const invoice = await w.order('invoice', [{ product_id: w.widget.id, quantity: 5 }], { order_date: '2025-03-01T00:00:00Z' });
    await w.act(invoice.id, 'confirm');
    await closedPeriod(api, w.owner, { period_name: 'Mar 2025', start_date: '2025-03-01', end_date: '2025-03-31' });
    const path = `/v1/orders/${invoice.id}/fulfillments` as const;
    const line = (quantity: number) => [{ line_id: invoice.lines[0].id, quantity }];
    const before = await tenantRowCounts(w.owner.entity.id);
    await api.expectRefusal(w.owner, 'POST', path, { lines: line(2), fulfillment_date: '2025-02-28' }, 400, 'parameter_invalid', 'fulfillment_date');
    await api.expectRefusal(w.owner, 'POST', path, { lines: line(2), fulfillment_date: '2025-03-20' }, 422, 'period_closed', 'fulfillment_date');
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);

    const late = await w.act(invoice.id, 'fulfillments', { lines: line(2), fulfillment_date: '2025-04-05' });
    expect(late).toMatchObject({ fulfillment_date: '2025-04-05', cost_total: 8 });
    const { entry, lines } = await entryLines(api, w.owner, late.journal_entry_id);
    expect(entry).toMatchObject({ entry_date: '2025-04-05', source_type: 'order_fulfillment' });
    expect(lines).toEqual([
      { key: 'cost_of_goods_sold', debit: 8, credit: 0 },
      { key: 'inventory', debit: 0, credit: 8 },
    ]);
    const movement = await api.get(w.owner, `/v1/inventory/transactions/${late.inventory_transaction_ids[0]}`);
    expect(movement.occurred_at).toBe('2025-04-05T00:00:00.000Z');

    const now = await w.act(invoice.id, 'fulfillments', { lines: line(3) });
    expect(now.fulfillment_date).toBe(today());
    expect((await entryLines(api, w.owner, now.journal_entry_id)).entry.entry_date).toBe(today());
    await inventoryTies(api, w.owner);
  });

  it('a return receipt books its inventory on received_date: not before the return, not in a closed period', async () => {
    const w = await salesWorld(api, { widgetStock: 10 });
    const invoice = await w.order('invoice', [{ product_id: w.widget.id, quantity: 4 }]);
    await w.act(invoice.id, 'confirm');
    await w.act(invoice.id, 'fulfillments', { lines: [{ line_id: invoice.lines[0].id, quantity: 4 }] });
    const rma = await w.act(invoice.id, 'returns', { lines: [{ line_id: invoice.lines[0].id, quantity: 3 }] });
    await api.patch(w.owner, `/v1/orders/${rma.id}`, { order_date: '2025-03-01T00:00:00Z' });
    await w.act(rma.id, 'confirm');
    await closedPeriod(api, w.owner, { period_name: 'Mar 2025', start_date: '2025-03-01', end_date: '2025-03-31' });
    const path = `/v1/orders/${rma.id}/receive-return` as const;
    const line = (quantity: number) => [{ line_id: rma.lines[0].id, quantity }];
    const before = await tenantRowCounts(w.owner.entity.id);
    await api.expectRefusal(w.owner, 'POST', path, { lines: line(1), received_date: '2025-02-28' }, 400, 'parameter_invalid', 'received_date');
    await api.expectRefusal(w.owner, 'POST', path, { lines: line(1), received_date: '2025-03-31' }, 422, 'period_closed', 'received_date');
    expect(await tenantRowCounts(w.owner.entity.id)).toEqual(before);

    const late = await w.act(rma.id, 'receive-return', { lines: line(1), received_date: '2025-04-02' });
    expect(late).toMatchObject({ received_date: '2025-04-02', cost_total: 4 });
    const { entry, lines } = await entryLines(api, w.owner, late.journal_entry_id);
    expect(entry).toMatchObject({ entry_date: '2025-04-02', source_type: 'order_return' });
    expect(lines).toEqual([
      { key: 'inventory', debit: 4, credit: 0 },
      { key: 'cost_of_goods_sold', debit: 0, credit: 4 },
    ]);

    const now = await w.act(rma.id, 'receive-return');
    expect(now).toMatchObject({ received_date: today(), cost_total: 8 });
    expect((await entryLines(api, w.owner, now.journal_entry_id)).entry.entry_date).toBe(today());
    await inventoryTies(api, w.owner);
  });
});
