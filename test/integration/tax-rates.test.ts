/** Tax rates (issue 5): the resource, and what a rate change does (and does not do) to documents. */
import { describe, expect, it } from 'vitest';
import { setupTestApi, tenantRowCounts } from '../support/harness';
import { salesWorld } from '../support/worlds';

const api = setupTestApi();
let n = 0;

const WORLD = { widget: { name: 'Widget', list_price: 10 }, gadget: false } as const;

describe('/v1/tax-rates', () => {
  it('creates, reads, lists, updates with If-Match and deletes an unused rate, with events', async () => {
    const { owner } = await salesWorld(api, WORLD);
    const created = await api.request('POST', '/v1/tax-rates', {
      key: owner.secret,
      body: { name: 'State', rate: '8.2500', description: 'State sales tax', metadata: { jurisdiction: 'UT' } },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'tax_rate',
      entity_id: owner.entity.id,
      name: 'State',
      rate: 8.25,
      description: 'State sales tax',
      is_active: true,
      metadata: { jurisdiction: 'UT' },
    });
    const county = await api.post(owner, '/v1/tax-rates', { name: 'County', rate: 1.5, is_active: false });
    expect(await api.get(owner, `/v1/tax-rates/${created.body.id}`)).toEqual(created.body);

    const page = await api.request('GET', '/v1/tax-rates', { key: owner.secret, query: { limit: '1' } });
    expect(page.body).toMatchObject({ object: 'list', has_more: true, next_cursor: county.id });
    const rest = await api.request('GET', '/v1/tax-rates', { key: owner.secret, query: { starting_after: county.id } });
    expect(rest.body.data.map((t) => t.id)).toEqual([created.body.id]);
    const active = await api.request('GET', '/v1/tax-rates', { key: owner.secret, query: { is_active: 'true' } });
    expect(active.body.data.map((t) => t.id)).toEqual([created.body.id]);

    const stale = (await api.request('GET', `/v1/tax-rates/${created.body.id}`, { key: owner.secret })).headers.get('etag')!;
    await api.request('PATCH', `/v1/tax-rates/${created.body.id}`, { key: owner.secret, body: { description: null } });
    const refused = await api.request('PATCH', `/v1/tax-rates/${created.body.id}`, { key: owner.secret, headers: { 'If-Match': stale }, body: { rate: 9 } });
    expect(refused.status).toBe(412);
    const current = (await api.request('GET', `/v1/tax-rates/${created.body.id}`, { key: owner.secret })).headers.get('etag')!;
    const updated = await api.request('PATCH', `/v1/tax-rates/${created.body.id}`, { key: owner.secret, headers: { 'If-Match': current }, body: { rate: 9 } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ rate: 9, description: null });

    const deleted = await api.request('DELETE', `/v1/tax-rates/${county.id}`, { key: owner.secret });
    expect(deleted.body).toEqual({ id: county.id, object: 'tax_rate', livemode: false, deleted: true });
    expect((await api.request('GET', `/v1/tax-rates/${county.id}`, { key: owner.secret })).status).toBe(404);
    const events = api.published.filter((e) => e.entity_id === owner.entity.id && e.type.startsWith('tax_rate.'));
    expect(events.map((e) => e.type)).toEqual(['tax_rate.created', 'tax_rate.created', 'tax_rate.updated', 'tax_rate.updated', 'tax_rate.deleted']);
    expect(events[3].data.previous_attributes).toMatchObject({ rate: 8.25 });
  });

  it('refuses bad rates with the offending param, writes nothing, and hides rates from other entities', async () => {
    const { owner } = await salesWorld(api, WORLD);
    const rate = await api.post(owner, '/v1/tax-rates', { name: 'State', rate: 5 });
    const before = await tenantRowCounts(owner.entity.id);
    const cases: [string, string, unknown, number, string, string][] = [
      ['POST', '/v1/tax-rates', { name: 'state', rate: 1 }, 409, 'tax_rate_name_taken', 'name'],
      ['POST', '/v1/tax-rates', { name: 'Too high', rate: 100.5 }, 400, 'parameter_invalid', 'rate'],
      ['POST', '/v1/tax-rates', { name: 'Negative', rate: -1 }, 400, 'parameter_invalid', 'rate'],
      ['POST', '/v1/tax-rates', { name: 'Precise', rate: '1.00001' }, 400, 'parameter_invalid', 'rate'],
      ['POST', '/v1/tax-rates', { rate: 1 }, 400, 'parameter_missing', 'name'],
      ['POST', '/v1/tax-rates', { name: 'No rate' }, 400, 'parameter_missing', 'rate'],
      ['PATCH', `/v1/tax-rates/${rate.id}`, { rate: 101 }, 400, 'parameter_invalid', 'rate'],
      ['PATCH', `/v1/tax-rates/${rate.id}`, { percentage: 5 }, 400, 'parameter_unknown', 'percentage'],
    ];
    await api.post(owner, '/v1/tax-rates', { name: 'Other', rate: 1 });
    const withOther = await tenantRowCounts(owner.entity.id);
    cases.push(['PATCH', `/v1/tax-rates/${rate.id}`, { name: 'OTHER' }, 409, 'tax_rate_name_taken', 'name']);
    for (const [method, path, body, status, code, param] of cases) {
      // Invalid bodies across two routes, from a table: the untyped escape hatch.
      const response = await api.raw(method, path, { key: owner.secret, body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.error).toMatchObject({ code, param });
    }
    expect(await tenantRowCounts(owner.entity.id)).toEqual(withOther);
    expect(withOther.tax_rates).toBe(before.tax_rates + 1);

    const stranger = await api.newEntity();
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { rate: 1 }],
      ['DELETE', undefined],
    ] as const) {
      const response = await api.request(method, `/v1/tax-rates/${rate.id}`, { key: stranger.secret, body });
      expect(response.status).toBe(404);
      expect(response.error).toMatchObject({ code: 'not_found', param: 'id' });
    }
    expect((await api.get(stranger, '/v1/tax-rates')).data).toEqual([]);
    // A foreign rate cannot be put on a line either.
    const account = await api.post(stranger, '/v1/accounts', { name: 'Theirs' });
    const product = await api.post(stranger, '/v1/products', { sku: `F-${n++}`, name: 'Foreign', list_price: 1 });
    const line = await api.request('POST', '/v1/orders', {
      key: stranger.secret,
      body: { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: product.id, quantity: 1, tax_rate_id: rate.id }] },
    });
    expect(line.status).toBe(404);
    expect(line.error.param).toBe('lines[0].tax_rate_id');
  });

  it('lines snapshot the rate: a change never alters a draft or a posted invoice; a rate in use is archived, not deleted', async () => {
    const { owner, account, widget } = await salesWorld(api, WORLD);
    const rate = await api.post(owner, '/v1/tax-rates', { name: 'State', rate: 10 });
    const draft = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: account.id,
      lines: [{ product_id: widget.id, quantity: 1, tax_rate_id: rate.id }],
    });
    expect(draft).toMatchObject({ tax_total: 1, order_total: 11 });
    const invoice = await api.post(owner, '/v1/orders', {
      document_type: 'invoice',
      account_id: account.id,
      lines: [{ product_id: widget.id, quantity: 2, tax_rate_id: rate.id }],
    });
    const posted = await api.post(owner, `/v1/orders/${invoice.id}/confirm`, undefined, 200);
    expect(posted).toMatchObject({ order_status: 'confirmed', tax_total: 2, order_total: 22 });

    await api.request('PATCH', `/v1/tax-rates/${rate.id}`, { key: owner.secret, body: { rate: 20 } });
    // Recalculating the draft (a line edit) keeps the line's own rate.
    const edited = await api.request('PATCH', `/v1/orders/${draft.id}/items/${draft.lines[0].id}`, { key: owner.secret, body: { quantity: 2 } });
    expect(edited.body).toMatchObject({ tax_amount: 2, tax_rate_id: rate.id });
    expect(await api.get(owner, `/v1/orders/${invoice.id}`)).toMatchObject({ tax_total: 2, order_total: 22 });
    // Setting the rate on the line again takes the new rate.
    const retaken = await api.request('PATCH', `/v1/orders/${draft.id}/items/${draft.lines[0].id}`, { key: owner.secret, body: { tax_rate_id: rate.id } });
    expect(retaken.body).toMatchObject({ tax_amount: 4 });

    const before = await tenantRowCounts(owner.entity.id);
    const inUse = await api.request('DELETE', `/v1/tax-rates/${rate.id}`, { key: owner.secret });
    expect(inUse.status).toBe(409);
    expect(inUse.error).toMatchObject({ code: 'tax_rate_in_use', param: 'id', references: { order_lines: 2 } });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    const archived = await api.request('PATCH', `/v1/tax-rates/${rate.id}`, { key: owner.secret, body: { is_active: false } });
    expect(archived.body.is_active).toBe(false);
    // Lines keep an archived rate; new lines cannot take it.
    expect((await api.get(owner, `/v1/orders/${draft.id}`)).tax_total).toBe(4);
    const refused = await api.request('POST', `/v1/orders/${draft.id}/lines`, {
      key: owner.secret,
      body: { product_id: widget.id, quantity: 1, tax_rate_id: rate.id },
    });
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ code: 'parameter_invalid', param: 'tax_rate_id' });
  });
});
