/**
 * balance_due is "forced to 0 on ... cancelled, archived or expired orders": archiving closed
 * documents (archive, unarchive, hidden from lists unless asked for) and the expiry of quotes.
 */
import { describe, expect, it } from 'vitest';
import { expectArTies } from '../support/cash-fixtures';
import { setupTestApi } from '../support/harness';
import { salesWorld, type SalesWorld } from '../support/worlds';

const api = setupTestApi();

const lastEvent = (type: string, id: string) => api.published.filter((e) => e.type === type && e.data.object.id === id).at(-1);
const listIds = async (w: SalesWorld, query: Record<string, string>) =>
  (await api.get(w.owner, '/v1/orders', { document_type: 'sales_order', ...query })).data.map((o) => o.id);

describe('archived orders', () => {
  it('balance_due: forced to 0 on archived orders; an archived document is hidden from lists unless asked for and read-only until unarchived', async () => {
    const w = await salesWorld(api, { widgetStock: 20 });
    const open = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 3 }]);
    const order = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 10 }]);
    await w.act(order.id, 'confirm');
    await w.act(order.id, 'fulfillments', { lines: [{ line_id: order.lines[0].id, quantity: 10 }] });
    expect(await w.getOrder(order.id)).toMatchObject({ order_status: 'fulfilled', balance_due: 100, is_archived: false, archived_at: null });

    const archived = await api.post(w.owner, `/v1/orders/${order.id}/archive`, {}, 200);
    expect(archived).toMatchObject({ order_status: 'fulfilled', is_archived: true, archived_at: expect.any(String), balance_due: 0, amount_due: 100 });
    expect(lastEvent('order.archived', order.id)?.data.previous_attributes).toEqual({ is_archived: false, archived_at: null, balance_due: 100 });

    // Hidden from lists unless asked for.
    expect(await listIds(w, {})).toEqual([open.id]);
    expect(await listIds(w, { archived: 'true' })).toEqual([order.id]);
    expect(await listIds(w, { archived: 'all' })).toEqual([order.id, open.id]);
    expect((await w.getOrder(order.id)).is_archived).toBe(true);

    // Read-only: edits, money moves and lifecycle operations are 409 order_archived, writing nothing.
    const refusals = [
      await api.request('PATCH', `/v1/orders/${order.id}`, { key: w.owner.secret, body: { notes: 'late note' } }),
      await api.request('POST', `/v1/orders/${order.id}/payments`, { key: w.owner.secret, body: { amount: 10, payment_method: 'check' } }),
      await api.request('POST', `/v1/orders/${order.id}/convert`, { key: w.owner.secret, body: {} }),
      await api.request('POST', `/v1/orders/${order.id}/adjustments`, {
        key: w.owner.secret,
        body: { name: 'Late fee', effect_type: 'fee', discount_type: 'fixed_amount', value: 5 },
      }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(409);
      expect(refused.error).toMatchObject({ code: 'order_archived' });
    }
    expect(await w.getOrder(order.id)).toMatchObject({ notes: null, amount_paid: 0, fee_total: 0, balance_due: 0 });

    // Archiving again answers it unchanged, with no second event.
    const events = api.published.length;
    expect(await api.post(w.owner, `/v1/orders/${order.id}/archive`, {}, 200)).toMatchObject({ is_archived: true, archived_at: archived.archived_at });
    expect(api.published.length).toBe(events);

    const back = await api.post(w.owner, `/v1/orders/${order.id}/unarchive`, {}, 200);
    expect(back).toMatchObject({ is_archived: false, archived_at: null, balance_due: 100 });
    expect(lastEvent('order.unarchived', order.id)?.data.previous_attributes).toEqual({ is_archived: true, archived_at: archived.archived_at, balance_due: 0 });
    expect(await listIds(w, {})).toEqual([order.id, open.id]);
    await api.patch(w.owner, `/v1/orders/${order.id}`, { notes: 'late note' });
    await expectArTies(w.owner);
  });

  it('only closed documents are archived, and an invoice only with nothing owing (order_not_archivable), so AR keeps tying', async () => {
    const w = await salesWorld(api, { location: false });
    const draft = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 1 }]);
    const invoice = await w.order('invoice', [{ product_id: w.widget.id, quantity: 5 }]);
    await w.act(invoice.id, 'confirm');
    for (const [id, reason] of [
      [draft.id, 'not_closed'],
      [invoice.id, 'balance_owing'],
    ] as const) {
      const refused = await api.request('POST', `/v1/orders/${id}/archive`, { key: w.owner.secret, body: {} });
      expect(refused.status).toBe(422);
      expect(refused.error).toMatchObject({ code: 'order_not_archivable', param: 'id', reason });
    }
    expect((await w.getOrder(invoice.id)).is_archived).toBe(false);
    // Paid in full: closed and owing nothing, it is archived; AR is unchanged.
    await api.post(w.owner, `/v1/orders/${invoice.id}/payments`, { amount: 50, payment_method: 'check' }, 201);
    expect(await api.post(w.owner, `/v1/orders/${invoice.id}/archive`, {}, 200)).toMatchObject({ is_archived: true, balance_due: 0, payment_status: 'paid' });
    // A cancelled draft is closed too.
    await w.act(draft.id, 'cancel');
    expect(await api.post(w.owner, `/v1/orders/${draft.id}/archive`, {}, 200)).toMatchObject({ is_archived: true, balance_due: 0 });
    await expectArTies(w.owner);
  });
});

describe('expired quotes', () => {
  it('an expired quote cannot be converted or confirmed (quote_expired); it is expired from expires_at on, by a read-time rule', async () => {
    const w = await salesWorld(api, { location: false });
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const quote = await w.order('quote', [{ product_id: w.widget.id, quantity: 2 }], { expires_at: past });
    expect(quote).toMatchObject({ expires_at: past, is_expired: true, order_status: 'draft', balance_due: 20 });
    for (const action of ['confirm', 'convert'] as const) {
      const refused = await api.request('POST', `/v1/orders/${quote.id}/${action}`, { key: w.owner.secret, body: {} });
      expect(refused.status).toBe(422);
      expect(refused.error).toMatchObject({ code: 'quote_expired', param: 'id' });
    }
    const quotes = async (expired: string) => (await api.get(w.owner, '/v1/orders', { document_type: 'quote', expired })).data.map((o) => o.id);
    const fresh = await w.order('quote', [{ product_id: w.widget.id, quantity: 1 }], { expires_at: later });
    expect(fresh.is_expired).toBe(false);
    expect(await quotes('true')).toEqual([quote.id]);
    expect(await quotes('false')).toEqual([fresh.id]);

    // Moving expires_at later revives it; confirmed, then lapsed, it still cannot be converted.
    expect(await api.patch(w.owner, `/v1/orders/${quote.id}`, { expires_at: later })).toMatchObject({ is_expired: false });
    await w.act(quote.id, 'confirm');
    expect(await api.patch(w.owner, `/v1/orders/${quote.id}`, { expires_at: past })).toMatchObject({ order_status: 'confirmed', is_expired: true });
    const lapsed = await api.request('POST', `/v1/orders/${quote.id}/convert`, { key: w.owner.secret, body: {} });
    expect(lapsed.status).toBe(422);
    expect(lapsed.error).toMatchObject({ code: 'quote_expired' });
    expect(lastEvent('order.updated', quote.id)?.data.previous_attributes).toMatchObject({ expires_at: later, is_expired: false });

    // Expired, it is closed: archived, and its balance_due stays (quotes are never forced to 0).
    expect(await api.post(w.owner, `/v1/orders/${quote.id}/archive`, {}, 200)).toMatchObject({ is_archived: true, is_expired: true, balance_due: 20 });
    // A fresh quote is open: not archivable.
    const open = await api.request('POST', `/v1/orders/${fresh.id}/archive`, { key: w.owner.secret, body: {} });
    expect(open.status, open.text).toBe(422);
    expect(open.error).toMatchObject({ code: 'order_not_archivable', reason: 'not_closed' });
  });

  it('expires_at is for quotes only: 400 parameter_invalid on other documents', async () => {
    const w = await salesWorld(api, { location: false });
    const expires_at = new Date(Date.now() + 86_400_000).toISOString();
    const created = await api.request('POST', '/v1/orders', {
      key: w.owner.secret,
      body: { document_type: 'sales_order', account_id: w.account.id, expires_at },
    });
    expect(created.status).toBe(400);
    expect(created.error).toMatchObject({ code: 'parameter_invalid', param: 'expires_at' });
    const order = await w.order('sales_order', [{ product_id: w.widget.id, quantity: 1 }]);
    const patched = await api.request('PATCH', `/v1/orders/${order.id}`, { key: w.owner.secret, body: { expires_at } });
    expect(patched.status).toBe(400);
    expect(patched.error).toMatchObject({ code: 'parameter_invalid', param: 'expires_at' });
  });
});
