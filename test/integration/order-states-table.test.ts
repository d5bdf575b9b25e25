/**
 * The spec's "States and transitions" table, one test per stated order move, each named after the
 * rule it proves (state · operation · condition → next state · also). The vendor bill, snapshot
 * and vendor credit rows belong to the purchasing and migration issues and are tested there.
 */
import { describe, expect, it } from 'vitest';
import { setupTestApi, tenantRowCounts } from '../support/harness';
import { salesWorld, type DocumentType, type OrderBody, type SalesWorld } from '../support/worlds';
import { userWithKey } from '../support/ledger-helpers';

const api = setupTestApi();
const WORLD = { gadget: false, widgetStock: 100 } as const;
type StatesWorld = SalesWorld<typeof WORLD>;

/** A draft of 2 widgets (20.00) at the location, from the web channel. */
const order = (w: StatesWorld, documentType: DocumentType, extra: Partial<OrderBody> = {}) =>
  w.order(documentType, [{ product_id: w.widget.id, quantity: 2 }], { metadata: { channel: 'web' }, ...extra });
const pay = (w: StatesWorld, orderId: string, amount: number) => w.act(orderId, 'payments', { amount, payment_method: 'check' });

describe('states table: DELETE /v1/orders/{id}', () => {
  it('order in draft or quote · DELETE /v1/orders/{id} · order is draft or quote → soft-deleted · response {deleted, id}', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner } = w;
    for (const document of [await order(w, 'sales_order'), await order(w, 'quote')]) {
      const response = await api.request('DELETE', `/v1/orders/${document.id}`, { key: owner.secret });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ deleted: true, id: document.id });
      // Soft: gone from the API, the row (and its number) kept.
      expect((await api.request('GET', `/v1/orders/${document.id}`, { key: owner.secret })).status).toBe(404);
      const row = await owner.sql((db) => db.one<{ deleted_at: Date | null }>('SELECT deleted_at FROM orders WHERE id = $1', [document.id]));
      expect(row.deleted_at).not.toBeNull();
    }
  });

  it('order confirmed · DELETE /v1/orders/{id} → unchanged · 409 order_not_deletable; use POST /v1/orders/{id}/cancel instead', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, act } = w;
    const so = await order(w, 'sales_order');
    await act(so.id, 'confirm');
    const body = await api.expectRefusal(owner, 'DELETE', `/v1/orders/${so.id}`, undefined, 409, 'order_not_deletable');
    expect(body.hint).toMatch(/cancel/);
  });

  it('order invoiced · DELETE /v1/orders/{id} → unchanged · 409 order_not_deletable', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, act } = w;
    const invoice = await order(w, 'invoice');
    await act(invoice.id, 'confirm');
    await api.expectRefusal(owner, 'DELETE', `/v1/orders/${invoice.id}`, undefined, 409, 'order_not_deletable');
    // A sales order that has been invoiced (converted) is not deletable either.
    const so = await order(w, 'sales_order');
    await act(so.id, 'confirm');
    await act(so.id, 'convert', undefined, 201);
    await api.expectRefusal(owner, 'DELETE', `/v1/orders/${so.id}`, undefined, 409, 'order_not_deletable');
  });

  it('order having payments · DELETE /v1/orders/{id} → unchanged · 409 order_not_deletable', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, act } = w;
    const so = await order(w, 'sales_order');
    await act(so.id, 'confirm');
    await pay(w, so.id, 5);
    await api.expectRefusal(owner, 'DELETE', `/v1/orders/${so.id}`, undefined, 409, 'order_not_deletable');
  });

  it('DELETE /v1/orders/{id} accepts the order_number in place of the uuid, resolved within the caller entity', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner } = w;
    const so = await order(w, 'sales_order');
    const response = await api.request('DELETE', `/v1/orders/${so.order_number}`, { key: owner.secret });
    expect(response.body).toEqual({ deleted: true, id: so.id });
    const stranger = await api.newEntity();
    const other = await salesWorld(api, WORLD);
    const foreign = await order(other, 'sales_order');
    expect((await api.request('DELETE', `/v1/orders/${foreign.order_number}`, { key: stranger.secret })).status).toBe(404);
  });
});

describe('states table: POST /v1/orders/{id}/duplicate', () => {
  it('any source order · duplicate → new order in draft · copies lines, account, location, metadata; fresh order number and created_at; payment and fulfillment history not copied', async () => {
    const w = await salesWorld(api, WORLD);
    const { act } = w;
    const so = await order(w, 'sales_order');
    await act(so.id, 'confirm');
    await act(so.id, 'fulfillments', { lines: [{ line_id: so.lines[0].id, quantity: 1 }] }, 201);
    await pay(w, so.id, 7);
    const source = await w.getOrder(so.id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const copy = await act(so.id, 'duplicate', undefined, 201);
    expect(copy).toMatchObject({
      order_status: 'draft',
      document_type: 'sales_order',
      account_id: source.account_id,
      location_id: source.location_id,
      metadata: source.metadata,
      payment_status: 'unpaid',
      fulfillment_status: 'unfulfilled',
      amount_paid: 0,
      order_total: source.order_total,
    });
    expect(copy.id).not.toBe(source.id);
    expect(copy.order_number).not.toBe(source.order_number);
    expect(Date.parse(copy.created_at)).toBeGreaterThan(Date.parse(source.created_at));
    expect(copy.lines.map((line) => [line.product_id, line.quantity, line.quantity_fulfilled])).toEqual([[source.lines[0].product_id, 2, 0]]);
  });
});

describe('states table: POST /v1/orders/{id}/adjustments', () => {
  const adjustment = { name: 'Loyalty', effect_type: 'discount', discount_type: 'percentage', value: 10 } as const;

  it('order in draft or open · adjustments · valid body → unchanged · adjustment recorded in order_adjustments; totals recalculated immediately', async () => {
    const w = await salesWorld(api, WORLD);
    const { act } = w;
    const draft = await order(w, 'sales_order');
    const open = await order(w, 'sales_order');
    await act(open.id, 'confirm');
    for (const document of [draft, open]) {
      const result = await act(document.id, 'adjustments', adjustment, 200);
      expect(result.order_total).toBe(18);
      expect(result).toMatchObject({ object: 'order_adjustment', name: 'Loyalty', amount: 2 });
    }
  });

  it('order cancelled, fulfilled or posted-invoice · adjustments → unchanged · 422', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, act } = w;
    const cancelled = await order(w, 'sales_order');
    await act(cancelled.id, 'cancel');
    const fulfilled = await order(w, 'sales_order');
    await act(fulfilled.id, 'confirm');
    await act(fulfilled.id, 'fulfillments', { lines: [{ line_id: fulfilled.lines[0].id, quantity: 2 }] }, 201);
    const posted = await order(w, 'invoice');
    await act(posted.id, 'confirm');
    for (const document of [cancelled, fulfilled, posted]) {
      const body = await api.expectRefusal(owner, 'POST', `/v1/orders/${document.id}/adjustments`, adjustment, 422, 'order_not_adjustable');
      expect(body.current_status).toBeDefined();
    }
  });
});

describe('states table: PATCH /v1/orders/{id}/items/{item_id}', () => {
  it('order line on a cancelled or voided document · PATCH without override → unchanged · edit blocked', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, act } = w;
    const cancelled = await order(w, 'sales_order');
    await act(cancelled.id, 'cancel');
    const voided = await order(w, 'invoice');
    await act(voided.id, 'confirm');
    await act(voided.id, 'void');
    for (const document of [cancelled, voided]) {
      const body = await api.expectRefusal(owner, 'PATCH', `/v1/orders/${document.id}/items/${document.lines[0].id}`, { quantity: 3 }, 409, 'order_locked');
      expect(body.overridable).toBe(false);
    }
  });

  it('order line on a posted or fulfilled document · PATCH without override → unchanged · edit blocked; suggested_action create_return', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, act } = w;
    const posted = await order(w, 'invoice');
    await act(posted.id, 'confirm');
    const fulfilled = await order(w, 'sales_order');
    await act(fulfilled.id, 'confirm');
    await act(fulfilled.id, 'fulfillments', { lines: [{ line_id: fulfilled.lines[0].id, quantity: 2 }] }, 201);
    for (const document of [posted, fulfilled]) {
      const body = await api.expectRefusal(owner, 'PATCH', `/v1/orders/${document.id}/items/${document.lines[0].id}`, { quantity: 3 }, 409, 'order_locked');
      expect(body.suggested_action).toBe('create_return');
    }
  });

  it('order line on a billed-and-paid document · PATCH without override → unchanged · edit blocked; suggested_action revise_order for paid', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, act } = w;
    const so = await order(w, 'sales_order');
    await act(so.id, 'confirm');
    await pay(w, so.id, 20);
    const body = await api.expectRefusal(owner, 'PATCH', `/v1/orders/${so.id}/items/${so.lines[0].id}`, { quantity: 3 }, 409, 'order_locked');
    expect(body).toMatchObject({ suggested_action: 'revise_order', reason: 'document_paid', overridable: true });
  });

  it('paid document · PATCH line with override true · caller holds orders.revision_override → unchanged status · edit proceeds, revision_count increments, override audited', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, act } = w;
    const so = await order(w, 'sales_order');
    await act(so.id, 'confirm');
    await pay(w, so.id, 20);
    // Without the permission the override is refused.
    const plain = await userWithKey(owner, []);
    const refusal = await api.request('PATCH', `/v1/orders/${so.id}/items/${so.lines[0].id}`, {
      key: plain.secret,
      body: { quantity: 3, override: true, override_reason: 'customer added one' },
    });
    expect(refusal.status).toBe(403);
    const reviser = await userWithKey(owner, ['orders.revision_override']);
    const response = await api.request('PATCH', `/v1/orders/${so.id}/items/${so.lines[0].id}`, {
      key: reviser.secret,
      body: { quantity: 3, override: true, override_reason: 'customer added one' },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.quantity).toBe(3);
    const after = await w.getOrder(so.id);
    expect(after).toMatchObject({ order_status: 'confirmed', revision_count: 1, order_total: 30 });
    const audit = await owner.sql((db) =>
      db.query<{ user_id: string; reason: string; lock_reason: string }>('SELECT user_id, reason, lock_reason FROM order_revisions WHERE order_id = $1', [
        so.id,
      ]),
    );
    expect(audit).toEqual([{ user_id: reviser.userId, reason: 'customer added one', lock_reason: 'document_paid' }]);
  });

  it('line with drop_ship_po_id set · PATCH changing quantity, is_drop_ship or drop_ship_vendor_id → unchanged · 409 dropship_po_issued_blocks_line_edit, not overridable', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, account, location, widget, act } = w;
    const vendor = await api.post(owner, '/v1/vendors', { name: 'Dropshipper' });
    const so = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      location_id: location.id,
      lines: [{ product_id: widget.id, quantity: 2, is_drop_ship: true, drop_ship_vendor_id: vendor.id }],
    });
    await act(so.id, 'confirm');
    // The issued purchase order, linked to the line by drop-ship purchase ordering.
    const [po] = (await act(so.id, 'drop-ship-purchase-orders')).data;
    const reviser = await userWithKey(owner, ['orders.revision_override']);
    for (const change of [{ quantity: 3 }, { is_drop_ship: false }, { drop_ship_vendor_id: null }, { quantity: 3, override: true, override_reason: 'try' }]) {
      const before = await tenantRowCounts(owner.entity.id);
      const response = await api.request('PATCH', `/v1/orders/${so.id}/items/${so.lines[0].id}`, { key: reviser.secret, body: change });
      expect(response.status, JSON.stringify(change)).toBe(409);
      expect(response.error.code).toBe('dropship_po_issued_blocks_line_edit');
      expect(response.error.linked_purchase_order).toMatchObject({ id: po.id, order_number: po.order_number });
      expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    }
    // Notes are not a drop-ship field: they still change.
    const notes = await api.request('PATCH', `/v1/orders/${so.id}/items/${so.lines[0].id}`, { key: owner.secret, body: { notes: 'leave at dock' } });
    expect(notes.status, notes.text).toBe(200);
  });
});
