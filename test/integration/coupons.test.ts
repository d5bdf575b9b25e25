/** Coupons (issue 5): the resource, POST /v1/orders/{id}/apply-coupon, E2 coupon_code, removal. */
import { describe, expect, it } from 'vitest';
import { unchecked } from '../support/client';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';
import { salesWorld, type OrderLineBody, type OrderWithLines, type SalesWorld } from '../support/worlds';

const api = setupTestApi();
const WORLD = { other: 'Other customer', widget: { name: 'Widget', list_price: 10 }, gadget: false } as const;
type CouponWorld = SalesWorld<typeof WORLD>;

/** A draft sales order for the world's customer: three widgets at 10.01 unless stated. */
const draft = (w: CouponWorld, lines: OrderLineBody[] = [{ product_id: w.widget.id, quantity: 3, sell_rate: '10.01' }]) => w.order('sales_order', lines);
const apply = (owner: TestEntity, orderId: string, code: string) =>
  api.request('POST', `/v1/orders/${orderId}/apply-coupon`, { key: owner.secret, body: { code } });
const getCoupon = (owner: TestEntity, id: string) => api.get(owner, `/v1/coupons/${id}`);

describe('/v1/coupons', () => {
  it('creates, reads, lists by keyset and code, updates with If-Match and deletes an unused coupon', async () => {
    const { owner } = await salesWorld(api, WORLD);
    const created = await api.request('POST', '/v1/coupons', {
      key: owner.secret,
      body: {
        code: 'Spring10',
        discount_type: 'percentage',
        value: 10,
        valid_until: '2999-01-01T00:00:00Z',
        max_redemptions: 5,
        max_redemptions_per_account: 1,
        min_order_subtotal: '20',
        metadata: { campaign: 'spring' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'coupon',
      code: 'Spring10',
      name: 'Spring10',
      discount_type: 'percentage',
      value: 10,
      valid_from: null,
      valid_until: '2999-01-01T00:00:00.000Z',
      max_redemptions: 5,
      max_redemptions_per_account: 1,
      times_redeemed: 0,
      min_order_subtotal: 20,
      is_active: true,
      metadata: { campaign: 'spring' },
    });
    const second = await api.post(owner, '/v1/coupons', { code: 'FLAT5', name: 'Five off', discount_type: 'fixed_amount', value: '5.00' });
    expect(await getCoupon(owner, created.body.id)).toEqual(created.body);

    const page1 = await api.request('GET', '/v1/coupons', { key: owner.secret, query: { limit: '1' } });
    expect(page1.body).toMatchObject({ object: 'list', has_more: true, next_cursor: second.id });
    expect(page1.body.data.map((c) => c.id)).toEqual([second.id]);
    const page2 = await api.request('GET', '/v1/coupons', { key: owner.secret, query: { limit: '1', starting_after: second.id } });
    expect(page2.body.data.map((c) => c.id)).toEqual([created.body.id]);
    expect(page2.body.has_more).toBe(false);
    const byCode = await api.request('GET', '/v1/coupons', { key: owner.secret, query: { code: 'SPRING10' } });
    expect(byCode.body.data.map((c) => c.id)).toEqual([created.body.id]);

    const stale = (await api.request('GET', `/v1/coupons/${created.body.id}`, { key: owner.secret })).headers.get('etag')!;
    await api.request('PATCH', `/v1/coupons/${created.body.id}`, { key: owner.secret, body: { name: 'Spring sale' } });
    const refused = await api.request('PATCH', `/v1/coupons/${created.body.id}`, { key: owner.secret, headers: { 'If-Match': stale }, body: { value: 20 } });
    expect(refused.status).toBe(412);
    const current = (await api.request('GET', `/v1/coupons/${created.body.id}`, { key: owner.secret })).headers.get('etag')!;
    const updated = await api.request('PATCH', `/v1/coupons/${created.body.id}`, {
      key: owner.secret,
      headers: { 'If-Match': current },
      body: { value: 15, min_order_subtotal: null, is_active: false },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Spring sale', value: 15, min_order_subtotal: null, is_active: false });
    const event = api.published.filter((e) => e.entity_id === owner.entity.id && e.type === 'coupon.updated').at(-1)!;
    expect(event.data.previous_attributes).toMatchObject({ value: 10, min_order_subtotal: 20, is_active: true });

    const deleted = await api.request('DELETE', `/v1/coupons/${second.id}`, { key: owner.secret });
    expect(deleted.body).toEqual({ id: second.id, object: 'coupon', livemode: false, deleted: true });
    expect((await api.request('GET', `/v1/coupons/${second.id}`, { key: owner.secret })).status).toBe(404);
    const types = api.published.filter((e) => e.entity_id === owner.entity.id && e.type.startsWith('coupon.')).map((e) => e.type);
    expect(types).toEqual(['coupon.created', 'coupon.created', 'coupon.updated', 'coupon.updated', 'coupon.deleted']);
  });

  it('refuses bad coupons with the offending param and writes nothing; another entity cannot see one', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner } = w;
    const coupon = await api.post(owner, '/v1/coupons', { code: 'TAKEN', discount_type: 'fixed_amount', value: 5 });
    // Worth 150 (fine for a fixed amount, not for a percentage) and redeemed twice: the patches below need both.
    await api.patch(owner, `/v1/coupons/${coupon.id}`, { value: 150 });
    for (let i = 0; i < 2; i++) expect((await apply(owner, (await draft(w)).id, 'TAKEN')).status).toBe(200);
    const before = await tenantRowCounts(owner.entity.id);
    const base = { code: 'NEW1', discount_type: 'percentage', value: 10 };
    const cases: [unknown, number, string, string][] = [
      [{ ...base, code: 'taken' }, 409, 'coupon_code_taken', 'code'],
      [{ ...base, code: 'has space' }, 400, 'parameter_invalid', 'code'],
      [{ ...base, value: 101 }, 400, 'parameter_invalid', 'value'],
      [{ ...base, value: 0 }, 400, 'parameter_invalid', 'value'],
      [{ ...base, discount_type: 'fixed_amount', value: '1.005' }, 400, 'parameter_invalid', 'value'],
      [{ ...base, discount_type: 'bogo' }, 400, 'parameter_invalid', 'discount_type'],
      [{ ...base, valid_from: '2030-01-02T00:00:00Z', valid_until: '2030-01-01T00:00:00Z' }, 400, 'parameter_invalid', 'valid_until'],
      [{ ...base, max_redemptions: 0 }, 400, 'parameter_invalid', 'max_redemptions'],
      [{ ...base, min_order_subtotal: -1 }, 400, 'parameter_invalid', 'min_order_subtotal'],
      [{ discount_type: 'percentage', value: 10 }, 400, 'parameter_missing', 'code'],
      [{ ...base, times_redeemed: 3 }, 400, 'parameter_unknown', 'times_redeemed'],
    ];
    for (const [body, status, code, param] of cases) {
      const response = await api.request('POST', '/v1/coupons', { key: owner.secret, body: unchecked(body) });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.error).toMatchObject({ code, param });
    }
    const patches: [unknown, number, string, string][] = [
      [{ discount_type: 'percentage', value: 150 }, 400, 'parameter_invalid', 'value'],
      [{ discount_type: 'percentage' }, 400, 'parameter_invalid', 'discount_type'], // 5.00 would be fine, hence 150 above
      [{ valid_from: '2030-01-02T00:00:00Z', valid_until: '2030-01-01T00:00:00Z' }, 400, 'parameter_invalid', 'valid_until'],
    ];
    for (const [body, status, code, param] of patches) {
      const response = await api.request('PATCH', `/v1/coupons/${coupon.id}`, { key: owner.secret, body: unchecked(body) });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.error).toMatchObject({ code, param });
    }
    const below = await api.request('PATCH', `/v1/coupons/${coupon.id}`, { key: owner.secret, body: { max_redemptions: 1 } });
    expect(below.error).toMatchObject({ code: 'parameter_invalid', param: 'max_redemptions' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);

    const stranger = await api.newEntity();
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await api.request(method, `/v1/coupons/${coupon.id}`, { key: stranger.secret, body });
      expect(response.status).toBe(404);
      expect(response.error).toMatchObject({ code: 'not_found', param: 'id' });
    }
    expect((await api.get(stranger, '/v1/coupons')).data).toEqual([]);
    // The same code is free in another entity.
    expect((await api.request('POST', '/v1/coupons', { key: stranger.secret, body: { code: 'TAKEN', discount_type: 'percentage', value: 1 } })).status).toBe(
      201,
    );
  });
});

describe('POST /v1/orders/{id}/apply-coupon', () => {
  it('records the coupon as a discount prorated into coupon_adjustment, counts the redemption and answers with the new total', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, widget } = w;
    const coupon = await api.post(owner, '/v1/coupons', { code: 'TEN', name: 'Ten off', discount_type: 'fixed_amount', value: 10 });
    const order = await draft(w, [
      { product_id: widget.id, quantity: 1, sell_rate: '10.01' },
      { product_id: widget.id, quantity: 1, sell_rate: '10.01' },
      { product_id: widget.id, quantity: 1, sell_rate: '10.01' },
    ]);
    const response = await apply(owner, order.id, 'ten');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      object: 'order_adjustment',
      order_id: order.id,
      name: 'Ten off',
      effect_type: 'discount',
      discount_type: 'fixed_amount',
      value: 10,
      amount: 10,
      coupon_id: coupon.id,
      created_by_user_id: owner.owner.id,
      order_total: 20.03,
      discount_total: 10,
      fee_total: 0,
    });
    const after = await api.get(owner, `/v1/orders/${order.id}`);
    // 10 over three equal lines: 3.33 each, the remainder cent to the first line. The shares sum to 10 exactly.
    expect(after.lines.map((l) => l.coupon_adjustment)).toEqual([3.34, 3.33, 3.33]);
    expect(after.lines.map((l) => l.line_total)).toEqual([6.67, 6.68, 6.68]);
    expect(after.lines[0].adjustments).toEqual([
      expect.objectContaining({ source_type: 'coupon', source_id: coupon.id, source_label: 'Ten off', line_amount: 3.34, quantity: 1 }),
    ]);
    expect(after.adjustments).toEqual([expect.objectContaining({ id: response.body.id, coupon_id: coupon.id })]);
    expect((await getCoupon(owner, coupon.id)).times_redeemed).toBe(1);

    // A manual percentage after the coupon is of the merchandise left after the coupon (20.03).
    const manual = await api.post(
      owner,
      `/v1/orders/${order.id}/adjustments`,
      { name: 'Ten percent', effect_type: 'discount', discount_type: 'percentage', value: 10 },
      200,
    );
    expect(manual).toMatchObject({ amount: 2, coupon_id: null, discount_total: 12, order_total: 18.03 });
    // Editing a line re-prorates the coupon.
    const edited = await api.request('PATCH', `/v1/orders/${order.id}/items/${after.lines[2].id}`, { key: owner.secret, body: { quantity: 2 } });
    expect(edited.status).toBe(200);
    const again = await api.get(owner, `/v1/orders/${order.id}`);
    expect(again.lines.map((l) => l.coupon_adjustment)).toEqual([2.5, 2.5, 5]);
    expect(again.discount_total).toBe(13); // 10 + 10 % of 30.04
    const types = api.published.filter((e) => e.entity_id === owner.entity.id && e.type.startsWith('order_adjustment')).map((e) => e.type);
    expect(types).toEqual(['order_adjustment.created', 'order_adjustment.created']);
  });

  it('applies a percentage coupon of the merchandise after line discounts', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, widget } = w;
    await api.post(owner, '/v1/coupons', { code: 'PCT', discount_type: 'percentage', value: '12.5' });
    const order = await draft(w, [
      { product_id: widget.id, quantity: 2, sell_rate: 10, discount_amount: 4 },
      { product_id: widget.id, quantity: 1, sell_rate: 24 },
    ]);
    const response = await apply(owner, order.id, 'PCT');
    expect(response.body).toMatchObject({ amount: 5, discount_total: 9, order_total: 35 }); // 12.5 % of 16 + 24
    const after = await api.get(owner, `/v1/orders/${order.id}`);
    expect(after.lines.map((l) => [l.discount_amount, l.coupon_adjustment])).toEqual([
      [4, 2],
      [0, 3],
    ]);
  });

  it('refuses every invalid coupon with its code and param and writes nothing', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, account, other, widget } = w;
    await api.post(owner, '/v1/coupons', { code: 'OFF', discount_type: 'fixed_amount', value: 1, is_active: false });
    await api.post(owner, '/v1/coupons', { code: 'OLD', discount_type: 'fixed_amount', value: 1, valid_until: '2020-01-01T00:00:00Z' });
    await api.post(owner, '/v1/coupons', { code: 'LATER', discount_type: 'fixed_amount', value: 1, valid_from: '2999-01-01T00:00:00Z' });
    const once = await api.post(owner, '/v1/coupons', { code: 'ONCE', discount_type: 'fixed_amount', value: 1, max_redemptions: 1 });
    await api.post(owner, '/v1/coupons', { code: 'PERACCT', discount_type: 'fixed_amount', value: 1, max_redemptions_per_account: 1 });
    await api.post(owner, '/v1/coupons', { code: 'BIG', discount_type: 'fixed_amount', value: 1, min_order_subtotal: 100 });
    const used = await draft(w);
    expect((await apply(owner, used.id, 'ONCE')).status).toBe(200);
    expect((await apply(owner, used.id, 'PERACCT')).status).toBe(200);
    const stranger = await api.newEntity();
    await api.post(stranger, '/v1/coupons', { code: 'THEIRS', discount_type: 'fixed_amount', value: 1 });

    const order = await draft(w);
    const before = await tenantRowCounts(owner.entity.id);
    const cases: [string, number, string, Record<string, unknown>][] = [
      ['NOPE', 404, 'coupon_not_found', {}],
      ['THEIRS', 404, 'coupon_not_found', {}],
      ['off', 422, 'coupon_inactive', {}],
      ['OLD', 422, 'coupon_expired', { valid_until: '2020-01-01T00:00:00.000Z' }],
      ['LATER', 422, 'coupon_not_yet_valid', { valid_from: '2999-01-01T00:00:00.000Z' }],
      ['ONCE', 422, 'coupon_usage_limit_reached', { limit: 'max_redemptions', max_redemptions: 1, times_redeemed: 1, coupon_id: once.id }],
      ['peracct', 422, 'coupon_usage_limit_reached', { limit: 'max_redemptions_per_account', max_redemptions_per_account: 1, account_redemptions: 1 }],
      ['BIG', 422, 'coupon_minimum_not_met', { min_order_subtotal: 100, subtotal: 30.03 }],
    ];
    for (const [code, status, errorCode, details] of cases) {
      const response = await apply(owner, order.id, code);
      expect(response.status, code).toBe(status);
      expect(response.error).toMatchObject({ code: errorCode, param: 'code', ...details });
    }
    const bad = await api.request('POST', `/v1/orders/${order.id}/apply-coupon`, { key: owner.secret, body: unchecked({}) });
    expect(bad.error).toMatchObject({ code: 'parameter_missing', param: 'code' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);

    // The per-account limit is per account: another customer may still redeem it.
    const theirs = await api.post(owner, '/v1/orders', { document_type: 'sales_order', account_id: other.id, lines: [{ product_id: widget.id, quantity: 1 }] });
    expect((await apply(owner, theirs.id, 'PERACCT')).status).toBe(200);

    // Applied twice to one document: 409.
    const twice = await apply(owner, used.id, 'once');
    expect(twice.status).toBe(409);
    expect(twice.error).toMatchObject({ code: 'coupon_already_applied', param: 'code' });

    // Order states as E2: cancelled, fulfilled, posted invoice 422 with the status; purchase orders take no coupons.
    await api.post(owner, '/v1/coupons', { code: 'ANY', discount_type: 'percentage', value: 5 });
    const before2 = await tenantRowCounts(owner.entity.id);
    const close = {
      cancelled: (order: OrderWithLines) => w.act(order.id, 'cancel'),
      fulfilled: async (order: OrderWithLines) => {
        await w.receive(w.widget.id, 3, 4);
        await w.act(order.id, 'confirm');
        await w.act(order.id, 'fulfillments', { lines: [{ line_id: order.lines[0].id, quantity: 3 }] });
      },
    };
    for (const status of ['cancelled', 'fulfilled'] as const) {
      const closed = await draft(w);
      await close[status](closed);
      const b = await tenantRowCounts(owner.entity.id);
      const response = await apply(owner, closed.id, 'ANY');
      expect(response.status).toBe(422);
      expect(response.error).toMatchObject({ code: 'order_not_adjustable', param: 'id', current_status: status });
      expect(await tenantRowCounts(owner.entity.id)).toEqual(b);
    }
    const invoice = await api.post(owner, '/v1/orders', { document_type: 'invoice', account_id: account.id, lines: [{ product_id: widget.id, quantity: 1 }] });
    await w.act(invoice.id, 'confirm');
    expect((await apply(owner, invoice.id, 'ANY')).error).toMatchObject({
      code: 'order_not_adjustable',
      current_status: 'confirmed',
      document_type: 'invoice',
    });
    const vendor = await api.post(owner, '/v1/vendors', { name: 'Supplier' });
    const po = await api.post(owner, '/v1/orders', { document_type: 'purchase_order', account_id: vendor.id });
    const b3 = await tenantRowCounts(owner.entity.id);
    const onPo = await apply(owner, po.id, 'ANY');
    expect(onPo.status).toBe(422);
    expect(onPo.error).toMatchObject({ code: 'coupon_not_applicable', param: 'id', document_type: 'purchase_order' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(b3);
    expect(before2.coupon_redemptions).toBe(b3.coupon_redemptions);

    // Another entity's order: 404 order_not_found, even with a code valid there.
    const foreign = await apply(stranger, order.id, 'THEIRS');
    expect(foreign.status).toBe(404);
    expect(foreign.error).toMatchObject({ code: 'order_not_found', type: 'not_found', param: 'id' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(b3);
  });

  it('redeems a coupon with max_redemptions 1 exactly once under concurrent applies', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner } = w;
    const coupon = await api.post(owner, '/v1/coupons', { code: 'RACE', discount_type: 'percentage', value: 50, max_redemptions: 1 });
    const orders = [];
    for (let i = 0; i < 6; i++) orders.push(await draft(w));
    const responses = await Promise.all(orders.map((order) => apply(owner, order.id, 'RACE')));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 422, 422, 422, 422, 422]);
    for (const refused of responses.filter((r) => r.status === 422)) expect(refused.error).toMatchObject({ code: 'coupon_usage_limit_reached' });
    expect((await getCoupon(owner, coupon.id)).times_redeemed).toBe(1);
    const redemptions = await owner.sql((db) => db.query<{ n: number }>('SELECT count(*)::int AS n FROM coupon_redemptions WHERE coupon_id = $1', [coupon.id]));
    expect(redemptions[0].n).toBe(1);
  });
});

describe('E2 coupon_code and removing a coupon', () => {
  it('applies a coupon through E2 with the same checks (param coupon_code) and refuses mixing it with manual fields', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner } = w;
    const coupon = await api.post(owner, '/v1/coupons', { code: 'E2CODE', discount_type: 'fixed_amount', value: 3, max_redemptions: 1 });
    const order = await draft(w);
    const applied = await api.post(owner, `/v1/orders/${order.id}/adjustments`, { coupon_code: 'e2code', notes: 'via E2' }, 200);
    expect(applied).toMatchObject({ coupon_id: coupon.id, amount: 3, notes: 'via E2', order_total: 27.03 });
    expect((await getCoupon(owner, coupon.id)).times_redeemed).toBe(1);
    const second = await draft(w);
    const before = await tenantRowCounts(owner.entity.id);
    const cases: [unknown, number, string, string][] = [
      [{ coupon_code: 'E2CODE' }, 422, 'coupon_usage_limit_reached', 'coupon_code'],
      [{ coupon_code: 'MISSING' }, 404, 'coupon_not_found', 'coupon_code'],
      [{ coupon_code: 'E2CODE', name: 'X' }, 400, 'parameter_invalid', 'coupon_code'],
      [{ name: 'X', effect_type: 'discount', discount_type: 'percentage' }, 400, 'parameter_missing', 'value'],
    ];
    for (const [body, status, code, param] of cases) {
      const response = await api.request('POST', `/v1/orders/${second.id}/adjustments`, { key: owner.secret, body: unchecked(body) });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.error).toMatchObject({ code, param });
    }
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('removing the coupon adjustment releases the redemption; a coupon in use cannot be deleted', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner } = w;
    const coupon = await api.post(owner, '/v1/coupons', { code: 'ONLY', discount_type: 'fixed_amount', value: 5, max_redemptions: 1 });
    const order = await draft(w);
    const adjustment = (await apply(owner, order.id, 'ONLY')).body;
    const inUse = await api.request('DELETE', `/v1/coupons/${coupon.id}`, { key: owner.secret });
    expect(inUse.status).toBe(409);
    expect(inUse.error).toMatchObject({ code: 'coupon_in_use', param: 'id', references: { orders: 1 } });

    const stranger = await api.newEntity();
    const foreign = await api.request('DELETE', `/v1/orders/${order.id}/adjustments/${adjustment.id}`, { key: stranger.secret });
    expect(foreign.error).toMatchObject({ code: 'order_not_found', param: 'id' });

    const removed = await api.request('DELETE', `/v1/orders/${order.id}/adjustments/${adjustment.id}`, { key: owner.secret });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      id: adjustment.id,
      object: 'order_adjustment',
      livemode: false,
      deleted: true,
      coupon_released: true,
      order_total: 30.03,
      discount_total: 0,
      fee_total: 0,
    });
    const after = await api.get(owner, `/v1/orders/${order.id}`);
    expect(after.adjustments).toEqual([]);
    expect(after.lines[0]).toMatchObject({ coupon_adjustment: 0, adjustments: [] });
    expect((await getCoupon(owner, coupon.id)).times_redeemed).toBe(0);
    const missing = await api.request('DELETE', `/v1/orders/${order.id}/adjustments/${adjustment.id}`, { key: owner.secret });
    expect(missing.error).toMatchObject({ code: 'not_found', param: 'adjustment_id' });
    // Released: the limit of one allows a new redemption.
    expect((await apply(owner, (await draft(w)).id, 'ONLY')).status).toBe(200);
    // A manual adjustment removes the same way and releases nothing.
    const manual = await api.post(
      owner,
      `/v1/orders/${order.id}/adjustments`,
      { name: 'Fee', effect_type: 'fee', discount_type: 'fixed_amount', value: 2 },
      200,
    );
    const gone = await api.request('DELETE', `/v1/orders/${order.id}/adjustments/${manual.id}`, { key: owner.secret });
    expect(gone.body).toMatchObject({ coupon_released: false, fee_total: 0, order_total: 30.03 });
  });

  it('coupons re-check their minimum subtotal after line edits: an edit or deletion below min_order_subtotal drops the coupon (order_adjustment.deleted, redemption released)', async () => {
    const w = await salesWorld(api, WORLD);
    const { owner, widget } = w;
    const big = await api.post(owner, '/v1/coupons', { code: 'BIG', discount_type: 'fixed_amount', value: 5, min_order_subtotal: 25 });
    const open = await api.post(owner, '/v1/coupons', { code: 'ANY', discount_type: 'fixed_amount', value: 1 });
    const order = await draft(w, [
      { product_id: widget.id, quantity: 2, sell_rate: '10' },
      { product_id: widget.id, quantity: 1, sell_rate: '10' },
    ]);
    const bigAdjustment = (await apply(owner, order.id, 'BIG')).body;
    expect((await apply(owner, order.id, 'ANY')).status).toBe(200);
    expect(await api.get(owner, `/v1/orders/${order.id}`)).toMatchObject({ subtotal: 30, discount_total: 6, order_total: 24 });

    // An edit that keeps the subtotal at the minimum keeps the coupon.
    const lines = (await api.get(owner, `/v1/orders/${order.id}`)).lines;
    await api.patch(owner, `/v1/orders/${order.id}/items/${lines[0].id}`, { quantity: 1.5 });
    expect(await api.get(owner, `/v1/orders/${order.id}`)).toMatchObject({ subtotal: 25, discount_total: 6 });
    expect((await getCoupon(owner, big.id)).times_redeemed).toBe(1);

    // Below it: the edit proceeds and the coupon is dropped, the other coupon stays.
    const mark = api.published.length;
    await api.patch(owner, `/v1/orders/${order.id}/items/${lines[0].id}`, { quantity: 1 });
    const after = await api.get(owner, `/v1/orders/${order.id}`);
    expect(after).toMatchObject({ subtotal: 20, discount_total: 1, order_total: 19 });
    expect(after.adjustments.map((a) => a.coupon_id)).toEqual([open.id]);
    expect(after.lines.map((l) => l.coupon_adjustment)).toEqual([0.5, 0.5]);
    expect((await getCoupon(owner, big.id)).times_redeemed).toBe(0);
    expect((await getCoupon(owner, open.id)).times_redeemed).toBe(1);
    const events = api.published.slice(mark).filter((e) => e.entity_id === owner.entity.id);
    expect(events.map((e) => e.type)).toEqual(['order_adjustment.deleted', 'order.updated']);
    expect(events[0].data.object).toMatchObject({ id: bigAdjustment.id, coupon_id: big.id, amount: 5 });
    // 25 − 6 before, 20 − 1 after: the total stands at 19, the subtotal and the discount moved.
    expect(events[1].data.previous_attributes).toMatchObject({ subtotal: 25, discount_total: 6 });
    expect(events[1].data.object).toMatchObject({ subtotal: 20, discount_total: 1, order_total: 19 });

    // A deletion below the minimum drops it the same way.
    const second = await draft(w, [
      { product_id: widget.id, quantity: 2, sell_rate: '10' },
      { product_id: widget.id, quantity: 1, sell_rate: '10' },
    ]);
    expect((await apply(owner, second.id, 'BIG')).status).toBe(200);
    const mark2 = api.published.length;
    await api.delete(owner, `/v1/orders/${second.id}/items/${second.lines[1].id}`);
    expect(await api.get(owner, `/v1/orders/${second.id}`)).toMatchObject({ subtotal: 20, discount_total: 0, order_total: 20, adjustments: [] });
    expect((await getCoupon(owner, big.id)).times_redeemed).toBe(0);
    expect(api.published.slice(mark2).map((e) => e.type)).toEqual(['order_adjustment.deleted', 'order.updated']);
  });

  it('a quote converted to a sales order keeps its coupon discount without a second redemption', async () => {
    const { owner, account, widget } = await salesWorld(api, WORLD);
    const coupon = await api.post(owner, '/v1/coupons', { code: 'QUOTE', discount_type: 'percentage', value: 10, max_redemptions: 1 });
    const quote = await api.post(owner, '/v1/orders', {
      document_type: 'quote',
      account_id: account.id,
      lines: [{ product_id: widget.id, quantity: 2, sell_rate: 10 }],
    });
    expect((await apply(owner, quote.id, 'QUOTE')).status).toBe(200);
    const converted = await api.request('POST', `/v1/orders/${quote.id}/convert`, { key: owner.secret, body: {} });
    expect([200, 201]).toContain(converted.status);
    const salesOrder = await api.get(owner, `/v1/orders/${converted.body.id}`);
    expect(salesOrder).toMatchObject({ document_type: 'sales_order', discount_total: 2, order_total: 18 });
    expect(salesOrder.adjustments[0].coupon_id).toBe(coupon.id);
    expect(salesOrder.lines[0].coupon_adjustment).toBe(2);
    expect((await getCoupon(owner, coupon.id)).times_redeemed).toBe(1);
  });
});
