/**
 * The subledger reports a controller ties at month end and a migration team signs the cutover
 * with: the AR aging and the inventory valuation, each as of any date, each beside its control
 * account.
 */
import { describe, expect, it } from 'vitest';
import { setupTestApi, type TestEntity } from '../support/harness';
import { closedPeriod, userWithKey } from '../support/ledger-helpers';
import { salesWorld, type SalesWorld } from '../support/worlds';

const api = setupTestApi();

const arAgingPath = (owner: TestEntity) => `/v1/entities/${owner.entity.id}/reconciliation/ar-aging` as const;
const valuationPath = (owner: TestEntity) => `/v1/entities/${owner.entity.id}/reconciliation/inventory-valuation` as const;
const noon = (date: string) => `${date}T12:00:00Z`;

/** A GET with this query is a 400 naming `param` (and `code`, when given). */
async function expectBadQuery(
  owner: TestEntity,
  path: `/v1/entities/${string}/reconciliation/${'ar-aging' | 'inventory-valuation'}`,
  query: Record<string, string>,
  param: string,
  code?: string,
) {
  const response = await api.request('GET', path, { key: owner.secret, query });
  expect(response.status, response.text).toBe(400);
  expect(response.error.param).toBe(param);
  if (code) expect(response.error.code).toBe(code);
}

/** A posted invoice of `quantity` widgets at 10.00, dated and due as given. */
async function invoice(w: SalesWorld<{ other: string }>, accountId: string, quantity: number, orderDate: string, dueDate?: string) {
  const created = await api.post(w.owner, '/v1/orders', {
    document_type: 'invoice',
    account_id: accountId,
    lines: [{ product_id: w.widget.id, quantity }],
    order_date: noon(orderDate),
    ...(dueDate && { due_date: `${dueDate}T00:00:00Z` }),
  });
  await w.act(created.id, 'confirm');
  return created;
}

/**
 * Acme: five invoices, one per bucket on 2026-06-30 (10, 20 of which 5 paid on 06-15, 30, 40, 50
 * paid on 07-10), and 12.00 of unapplied payment money received on 06-10. Zed: one invoice of 70
 * due 06-29, and a credit memo of 20 dated 06-05 applied to it on 07-05.
 */
async function agingWorld() {
  const w = await salesWorld(api, { location: false, account: 'Acme', other: 'Zed' });
  const acme = w.account.id;
  const zed = w.other.id;
  const a1 = await invoice(w, acme, 1, '2026-06-01', '2026-07-15');
  const a2 = await invoice(w, acme, 2, '2026-05-01', '2026-06-20');
  const a3 = await invoice(w, acme, 3, '2026-04-01', '2026-05-15');
  const a4 = await invoice(w, acme, 4, '2026-03-01', '2026-04-10');
  const a5 = await invoice(w, acme, 5, '2025-12-01', '2026-01-01');
  const z1 = await invoice(w, zed, 7, '2026-06-01', '2026-06-29');
  await api.post(w.owner, `/v1/orders/${a2.id}/payments`, { amount: 5, payment_date: '2026-06-15' }, 201);
  await api.post(w.owner, `/v1/orders/${a5.id}/payments`, { amount: 50, payment_date: '2026-07-10' }, 201);
  await api.post(w.owner, '/v1/payments/multi-invoice-apply', { account_id: acme, amount: 12, route_unapplied: 'credit', payment_date: '2026-06-10' }, 201);
  const memo = await api.post(w.owner, '/v1/orders', {
    document_type: 'return',
    account_id: zed,
    lines: [{ product_id: w.widget.id, quantity: 2 }],
    order_date: noon('2026-06-05'),
  });
  await w.act(memo.id, 'confirm');
  await api.post(w.owner, `/v1/orders/${memo.id}/apply-credit`, { invoice_id: z1.id, amount: 20, applied_date: '2026-07-05' }, 200);
  return { w, acme, zed, invoices: { a1, a2, a3, a4, a5, z1 } };
}

describe('GET /v1/entities/{entity_id}/reconciliation/ar-aging', () => {
  it('open invoice balances per customer in buckets by due date, unapplied credit beside them, each total equal to its control account', async () => {
    const { w, acme, zed } = await agingWorld();
    const report = await api.get(w.owner, arAgingPath(w.owner), { as_of_date: '2026-06-30' });
    expect(report).toMatchObject({ object: 'ar_aging', as_of_date: '2026-06-30', aging_basis: 'due_date' });
    expect(report.customers).toEqual([
      { id: acme, name: 'Acme', current: 10, days_1_30: 15, days_31_60: 30, days_61_90: 40, days_over_90: 50, total: 145, unapplied_credits: 12 },
      { id: zed, name: 'Zed', current: 0, days_1_30: 70, days_31_60: 0, days_61_90: 0, days_over_90: 0, total: 70, unapplied_credits: 20 },
    ]);
    expect(report.totals).toEqual({ current: 10, days_1_30: 85, days_31_60: 30, days_61_90: 40, days_over_90: 50, total: 215 });
    expect(report).toMatchObject({ unapplied_credits: 32, accounts_receivable_balance: 215, customer_credits_balance: 32 });
  });

  it('as of a later date: an invoice paid after the earlier date was open on it, and a credit applied after it was still credit', async () => {
    const { w, acme, zed } = await agingWorld();
    const july = await api.get(w.owner, arAgingPath(w.owner), { as_of_date: '2026-07-31' });
    expect(july.customers).toEqual([
      { id: acme, name: 'Acme', current: 0, days_1_30: 10, days_31_60: 15, days_61_90: 30, days_over_90: 40, total: 95, unapplied_credits: 12 },
      { id: zed, name: 'Zed', current: 0, days_1_30: 0, days_31_60: 50, days_61_90: 0, days_over_90: 0, total: 50, unapplied_credits: 0 },
    ]);
    expect(july).toMatchObject({ unapplied_credits: 12, accounts_receivable_balance: 145, customer_credits_balance: 12 });
    const before = await api.get(w.owner, arAgingPath(w.owner), { as_of_date: '2025-11-30' });
    expect(before).toMatchObject({ customers: [], unapplied_credits: 0, accounts_receivable_balance: 0 });
    expect(before.totals.total).toBe(0);
    // Default: today (UTC), by due date.
    const today = await api.get(w.owner, arAgingPath(w.owner));
    expect(today).toMatchObject({ as_of_date: new Date().toISOString().slice(0, 10), aging_basis: 'due_date', accounts_receivable_balance: 145 });
    expect(today.totals.total).toBe(145);
    expect(today.customers.map((c) => [c.name, c.total, c.unapplied_credits])).toEqual([
      ['Acme', 95, 12],
      ['Zed', 50, 0],
    ]);
  });

  it('aging_basis invoice_date counts days from the invoice date', async () => {
    const { w, acme } = await agingWorld();
    const report = await api.get(w.owner, arAgingPath(w.owner), { as_of_date: '2026-06-30', aging_basis: 'invoice_date' });
    expect(report.aging_basis).toBe('invoice_date');
    expect(report.customers.find((c) => c.id === acme)).toMatchObject({
      current: 0,
      days_1_30: 10,
      days_31_60: 15,
      days_61_90: 30,
      days_over_90: 90,
      total: 145,
    });
    expect(report.totals).toEqual({ current: 0, days_1_30: 80, days_31_60: 15, days_61_90: 30, days_over_90: 90, total: 215 });
  });

  it('expand[]=customers.invoices lists the open invoices behind each customer, with their balance and bucket on the date', async () => {
    const { w, acme, invoices } = await agingWorld();
    const report = await api.get(w.owner, arAgingPath(w.owner), { as_of_date: '2026-06-30', 'expand[]': 'customers.invoices' });
    const own = report.customers.find((c) => c.id === acme)!;
    expect(own.invoices!.map((i) => [i.id, i.days_past, i.bucket, i.balance_due])).toEqual([
      [invoices.a5.id, 180, 'days_over_90', 50],
      [invoices.a4.id, 81, 'days_61_90', 40],
      [invoices.a3.id, 46, 'days_31_60', 30],
      [invoices.a2.id, 10, 'days_1_30', 15],
      [invoices.a1.id, -15, 'current', 10],
    ]);
    expect(own.invoices![0]).toMatchObject({ invoice_date: '2025-12-01', due_date: '2026-01-01' });
    const zed = report.customers.find((c) => c.id !== acme)!;
    expect(zed.invoices).toEqual([expect.objectContaining({ id: invoices.z1.id, balance_due: 70, bucket: 'days_1_30' })]);
  });

  it('pages customers by name, then id, both ways; every page carries the totals over every customer; expand loads only the page', async () => {
    const { w, acme, zed, invoices } = await agingWorld();
    const mid = await api.post(w.owner, '/v1/accounts', { name: 'Mid' });
    await invoice(w, mid.id, 6, '2026-06-20', '2026-07-20');
    const idle = await api.post(w.owner, '/v1/accounts', { name: 'Idle' });
    const path = arAgingPath(w.owner);
    const asOf = { as_of_date: '2026-06-30' };
    const whole = await api.get(w.owner, path, asOf);
    expect(whole.customers.map((c) => c.id)).toEqual([acme, mid.id, zed]);
    expect(whole).toMatchObject({ has_more: false, next_cursor: null });
    const everyPage = {
      totals: { current: 70, days_1_30: 85, days_31_60: 30, days_61_90: 40, days_over_90: 50, total: 275 },
      unapplied_credits: 32,
      accounts_receivable_balance: 275,
      customer_credits_balance: 32,
    };
    expect(whole).toMatchObject(everyPage);

    const forward = [];
    let page = await api.get(w.owner, path, { ...asOf, limit: '1', 'expand[]': 'customers.invoices' });
    for (;;) {
      expect(page).toMatchObject(everyPage);
      expect(page.customers).toHaveLength(1);
      forward.push(page.customers[0]);
      if (!page.has_more) break;
      expect(page.next_cursor).toBe(page.customers[0].id);
      page = await api.get(w.owner, path, { ...asOf, limit: '1', starting_after: page.next_cursor!, 'expand[]': 'customers.invoices' });
    }
    expect(page.next_cursor).toBeNull();
    expect(forward.map(({ invoices: own, ...customer }) => [customer, own!.length])).toEqual(whole.customers.map((customer, i) => [customer, [5, 1, 1][i]]));
    expect(forward[0].invoices!.map((i) => i.id)).toContain(invoices.a5.id);
    expect(forward[2].invoices!.map((i) => i.id)).toEqual([invoices.z1.id]);

    const backwards = await api.get(w.owner, path, { ...asOf, limit: '2', ending_before: zed });
    expect(backwards).toMatchObject({ ...everyPage, has_more: false, next_cursor: null });
    expect(backwards.customers).toEqual(whole.customers.slice(0, 2));
    const lastOne = await api.get(w.owner, path, { ...asOf, limit: '1', ending_before: zed });
    expect(lastOne).toMatchObject({ ...everyPage, has_more: true, next_cursor: mid.id });
    expect(lastOne.customers.map((c) => c.id)).toEqual([mid.id]);
    const pastTheEnd = await api.get(w.owner, path, { ...asOf, starting_after: zed });
    expect(pastTheEnd).toMatchObject({ ...everyPage, customers: [], has_more: false, next_cursor: null });

    // A customer without a balance or credit on the date, another entity's customer, an unknown id: not a customer of this aging.
    const stranger = await salesWorld(api, { location: false, account: 'Elsewhere' });
    for (const cursor of [idle.id, stranger.account.id, '01a24e95-0c11-7d2e-9a51-3f2b7c1d0002']) {
      await expectBadQuery(w.owner, path, { ...asOf, starting_after: cursor }, 'starting_after');
      await expectBadQuery(w.owner, path, { ...asOf, ending_before: cursor }, 'ending_before');
    }
    // Mid had nothing open in May: its id is no cursor of that date's aging.
    await expectBadQuery(w.owner, path, { as_of_date: '2026-05-31', starting_after: mid.id }, 'starting_after');
    await expectBadQuery(w.owner, path, { ...asOf, starting_after: acme, ending_before: zed }, 'ending_before');
    await expectBadQuery(w.owner, path, { ...asOf, limit: '0' }, 'limit');
    await expectBadQuery(w.owner, path, { ...asOf, limit: '501' }, 'limit');
    await expectBadQuery(w.owner, path, { ...asOf, starting_after: 'acme' }, 'starting_after');
  });

  it('400 with param for a bad date, basis or expansion; scopes accounting:read or migration:read; another entity and the other mode are 404', async () => {
    const { w } = await agingWorld();
    const path = arAgingPath(w.owner);
    await expectBadQuery(w.owner, path, { as_of_date: '2026-02-30' }, 'as_of_date');
    await expectBadQuery(w.owner, path, { as_of_date: 'yesterday' }, 'as_of_date');
    await expectBadQuery(w.owner, path, { aging_basis: 'posting_date' }, 'aging_basis');
    await expectBadQuery(w.owner, path, { 'expand[]': 'customers.payments' }, 'expand[0]', 'expand_error');
    await expectBadQuery(w.owner, path, { page: '2' }, 'page', 'parameter_unknown');

    for (const scope of ['accounting:read', 'migration:read']) {
      const reader = await userWithKey(w.owner, [], [scope]);
      expect((await api.get(reader.secret, path, { as_of_date: '2026-06-30' })).totals.total).toBe(215);
    }
    const purchasing = await userWithKey(w.owner, [], ['purchasing:read']);
    const refused = await api.request('GET', path, { key: purchasing.secret });
    expect(refused.status).toBe(403);
    expect(refused.error.code).toBe('insufficient_scope');

    const stranger = await api.newEntity();
    expect((await api.request('GET', path, { key: stranger.secret })).status).toBe(404);
    const pair = await api.newEntityPair();
    const otherMode = await api.request('GET', arAgingPath(pair.live), { key: pair.test.secret });
    expect(otherMode.status).toBe(404);
    expect(otherMode.error).toMatchObject({ code: 'not_found', param: 'entity_id' });
  });
});

describe('GET /v1/entities/{entity_id}/reconciliation/inventory-valuation', () => {
  /** Main: 10 widgets at 4.00 on 03-01, 5 at 6.00 on 04-01, 12 written off on 05-01 (FIFO: 10 at 4.00 and 2 at 6.00). Back room: 2 at 1.50 on 02-01. */
  async function stockWorld() {
    const w = await salesWorld(api, { account: false });
    const back = await api.post(w.owner, '/v1/locations', { name: 'Back room' });
    const main = w.location.id;
    const receive = (locationId: string, quantity: number, unitCost: number, date: string) =>
      api.post(w.owner, '/v1/inventory/receipts', { product_id: w.widget.id, location_id: locationId, quantity, unit_cost: unitCost, occurred_at: noon(date) });
    await receive(main, 10, 4, '2026-03-01');
    await receive(main, 5, 6, '2026-04-01');
    await receive(back.id, 2, 1.5, '2026-02-01');
    await api.post(w.owner, '/v1/inventory/adjustments', {
      product_id: w.widget.id,
      location_id: main,
      quantity: -12,
      reason: 'shrinkage',
      occurred_at: noon('2026-05-01'),
    });
    return { w, main, back: back.id };
  }

  /** Items in the report's order: by product_id, then location_id (uuids compare as their lower-case text). */
  const byKey = <T extends { product_id: string; location_id: string }>(items: T[]) =>
    [...items].sort((a, b) => (a.product_id === b.product_id ? (a.location_id < b.location_id ? -1 : 1) : a.product_id < b.product_id ? -1 : 1));

  it('quantity and FIFO value per product and location as of each date, the total equal to the inventory account to the cent', async () => {
    const { w, main, back } = await stockWorld();
    const at = (asOf?: string) => api.get(w.owner, valuationPath(w.owner), asOf ? { as_of_date: asOf } : {});
    const row = (locationId: string, quantity: number, value: number) => ({
      product_id: w.widget.id,
      sku: w.widget.sku,
      product_name: 'Widget',
      location_id: locationId,
      location_name: locationId === main ? 'Main' : 'Back room',
      quantity_on_hand: quantity,
      value,
    });

    expect(await at('2026-01-31')).toMatchObject({
      object: 'inventory_valuation',
      items: [],
      totals: { quantity_on_hand: 0, value: 0 },
      inventory_account_balance: 0,
    });
    const march = await at('2026-03-15');
    expect(march.items).toEqual(byKey([row(back, 2, 3), row(main, 10, 40)]));
    expect(march).toMatchObject({ as_of_date: '2026-03-15', totals: { quantity_on_hand: 12, value: 43 }, inventory_account_balance: 43 });
    const april = await at('2026-04-30');
    expect(april.items).toEqual(byKey([row(back, 2, 3), row(main, 15, 70)]));
    expect(april).toMatchObject({ totals: { quantity_on_hand: 17, value: 73 }, inventory_account_balance: 73 });
    const may = await at('2026-05-01');
    expect(may.items).toEqual(byKey([row(back, 2, 3), row(main, 3, 18)]));
    expect(may).toMatchObject({ totals: { quantity_on_hand: 5, value: 21 }, inventory_account_balance: 21 });
    const today = await at();
    expect(today).toMatchObject({
      as_of_date: new Date().toISOString().slice(0, 10),
      totals: { quantity_on_hand: 5, value: 21 },
      inventory_account_balance: 21,
    });
  });

  it('400 on a bad date; scopes accounting:read or migration:read; another entity and the other mode are 404', async () => {
    const { w } = await stockWorld();
    const path = valuationPath(w.owner);
    await expectBadQuery(w.owner, path, { as_of_date: '2026-13-01' }, 'as_of_date');
    await expectBadQuery(w.owner, path, { location_id: 'x' }, 'location_id', 'parameter_unknown');
    for (const scope of ['accounting:read', 'migration:read']) {
      const reader = await userWithKey(w.owner, [], [scope]);
      expect((await api.get(reader.secret, path)).totals.value).toBe(21);
    }
    const products = await userWithKey(w.owner, [], ['products:read']);
    expect((await api.request('GET', path, { key: products.secret })).status).toBe(403);
    const stranger = await api.newEntity();
    expect((await api.request('GET', path, { key: stranger.secret })).status).toBe(404);
    const pair = await api.newEntityPair();
    expect((await api.request('GET', valuationPath(pair.live), { key: pair.test.secret })).status).toBe(404);
  });
});

describe('inventory valuation pages', () => {
  /** Four products in two locations: eight items, each at its own quantity and value. */
  async function pagedWorld() {
    const w = await salesWorld(api, { account: false });
    const back = await api.post(w.owner, '/v1/locations', { name: 'Back room' });
    const products = [w.widget.id, w.gadget.id];
    for (const name of ['Sprocket', 'Flange']) {
      products.push((await api.post(w.owner, '/v1/products', { sku: `${name}-${w.owner.entity.id.slice(0, 8)}`, name, cost: 2 })).id);
    }
    let quantity = 1;
    for (const productId of products) {
      for (const locationId of [w.location.id, back.id]) {
        await api.post(w.owner, '/v1/inventory/receipts', {
          product_id: productId,
          location_id: locationId,
          quantity: quantity++,
          unit_cost: 1.25,
          occurred_at: noon('2026-03-01'),
        });
      }
    }
    return w;
  }

  it('pages concatenate to the whole, both ways, with the totals of every item on every page', async () => {
    const w = await pagedWorld();
    const path = valuationPath(w.owner);
    const whole = await api.get(w.owner, path, { as_of_date: '2026-03-31', limit: '1000' });
    expect(whole.items).toHaveLength(8);
    expect(whole.items).toEqual(
      [...whole.items].sort((a, b) => (a.product_id === b.product_id ? (a.location_id < b.location_id ? -1 : 1) : a.product_id < b.product_id ? -1 : 1)),
    );
    // 1 + 2 + ... + 8 units at 1.25.
    expect(whole).toMatchObject({ totals: { quantity_on_hand: 36, value: 45 }, inventory_account_balance: 45, has_more: false, next_cursor: null });

    const forward: (typeof whole)[] = [];
    let cursor: string | null = null;
    do {
      const page: typeof whole = await api.get(w.owner, path, { as_of_date: '2026-03-31', limit: '3', ...(cursor && { starting_after: cursor }) });
      expect(page).toMatchObject({ totals: whole.totals, inventory_account_balance: 45 });
      forward.push(page);
      cursor = page.next_cursor;
    } while (cursor);
    expect(forward.map((page) => page.items.length)).toEqual([3, 3, 2]);
    expect(forward.map((page) => page.has_more)).toEqual([true, true, false]);
    expect(forward.flatMap((page) => page.items)).toEqual(whole.items);

    // Backwards from the second page's cursor (its last item, the sixth): the five items before it.
    const before = await api.get(w.owner, path, { as_of_date: '2026-03-31', limit: '3', ending_before: forward[1].next_cursor! });
    expect(before).toMatchObject({ has_more: true, totals: whole.totals, inventory_account_balance: 45 });
    expect(before.items).toEqual(whole.items.slice(2, 5));
    const first = await api.get(w.owner, path, { as_of_date: '2026-03-31', limit: '3', ending_before: before.next_cursor! });
    expect(first).toMatchObject({ has_more: false, next_cursor: null, totals: whole.totals });
    expect(first.items).toEqual(whole.items.slice(0, 2));

    // Before any stock: no items, zero totals, no cursor.
    expect(await api.get(w.owner, path, { as_of_date: '2026-01-31', limit: '3' })).toMatchObject({
      items: [],
      has_more: false,
      next_cursor: null,
      totals: { quantity_on_hand: 0, value: 0 },
    });
  });

  it("400 on a malformed cursor, another entity's or mode's cursor, both cursors, or a limit out of range", async () => {
    const w = await pagedWorld();
    const path = valuationPath(w.owner);
    const cursor = (await api.get(w.owner, path, { limit: '1' })).next_cursor!;
    expect(cursor).toEqual(expect.any(String));
    await expectBadQuery(w.owner, path, { starting_after: 'not-a-cursor' }, 'starting_after', 'parameter_invalid');
    await expectBadQuery(w.owner, path, { ending_before: Buffer.from('["a"]').toString('base64url') }, 'ending_before', 'parameter_invalid');
    await expectBadQuery(w.owner, path, { starting_after: cursor, ending_before: cursor }, 'ending_before', 'parameter_invalid');
    await expectBadQuery(w.owner, path, { limit: '0' }, 'limit');
    await expectBadQuery(w.owner, path, { limit: '1001' }, 'limit');
    // The same key in the other mode is not this report's cursor.
    const [entityId, mode, productId, locationId] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as string[];
    const otherMode = Buffer.from(JSON.stringify([entityId, mode === 'live' ? 'test' : 'live', productId, locationId])).toString('base64url');
    await expectBadQuery(w.owner, path, { starting_after: otherMode }, 'starting_after', 'parameter_invalid');
    const stranger = await salesWorld(api, { account: false, widgetStock: 1 });
    const strangerCursor = (await api.get(stranger.owner, valuationPath(stranger.owner), { limit: '1' })).next_cursor;
    expect(strangerCursor).toBeNull();
    await expectBadQuery(stranger.owner, valuationPath(stranger.owner), { starting_after: cursor }, 'starting_after', 'parameter_invalid');
  });
});

describe('both reports as of a date inside a closed period', () => {
  it('answer the same after later payments, credit applications and stock movements', async () => {
    const w = await salesWorld(api, { account: 'Acme' });
    const main = w.location.id;
    await api.post(w.owner, '/v1/inventory/receipts', {
      product_id: w.widget.id,
      location_id: main,
      quantity: 10,
      unit_cost: 4,
      occurred_at: noon('2026-03-01'),
    });
    const march = await api.post(w.owner, '/v1/orders', {
      document_type: 'invoice',
      account_id: w.account.id,
      lines: [{ product_id: w.widget.id, quantity: 2 }],
      order_date: noon('2026-03-10'),
      due_date: '2026-04-09T00:00:00Z',
    });
    await w.act(march.id, 'confirm');
    await api.post(w.owner, `/v1/orders/${march.id}/payments`, { amount: 5, payment_date: '2026-03-20' }, 201);
    const credit = await api.post(
      w.owner,
      '/v1/payments/multi-invoice-apply',
      { account_id: w.account.id, amount: 8, route_unapplied: 'credit', payment_date: '2026-03-25' },
      201,
    );
    await closedPeriod(api, w.owner, { period_name: 'March 2026', start_date: '2026-03-01', end_date: '2026-03-31' });

    const aging = () => api.get(w.owner, arAgingPath(w.owner), { as_of_date: '2026-03-31', 'expand[]': 'customers.invoices' });
    const valuation = () => api.get(w.owner, valuationPath(w.owner), { as_of_date: '2026-03-31' });
    const agingAtClose = await aging();
    const valuationAtClose = await valuation();
    expect(agingAtClose.customers).toEqual([
      expect.objectContaining({
        name: 'Acme',
        current: 15,
        total: 15,
        unapplied_credits: 8,
        invoices: [expect.objectContaining({ id: march.id, balance_due: 15 })],
      }),
    ]);
    expect(agingAtClose).toMatchObject({ accounts_receivable_balance: 15, customer_credits_balance: 8 });
    expect(valuationAtClose).toMatchObject({ totals: { quantity_on_hand: 10, value: 40 }, inventory_account_balance: 40 });

    // April: the March invoice paid off, the unapplied money applied to an April invoice, stock written off and received.
    await api.post(w.owner, `/v1/orders/${march.id}/payments`, { amount: 15, payment_date: '2026-04-05' }, 201);
    const april = await api.post(w.owner, '/v1/orders', {
      document_type: 'invoice',
      account_id: w.account.id,
      lines: [{ product_id: w.widget.id, quantity: 1 }],
      order_date: noon('2026-04-02'),
    });
    await w.act(april.id, 'confirm');
    await api.post(w.owner, `/v1/payments/${credit.data.id}/apply-credit`, { invoice_id: april.id, applied_date: '2026-04-06' }, 200);
    await api.post(w.owner, '/v1/inventory/adjustments', {
      product_id: w.widget.id,
      location_id: main,
      quantity: -3,
      reason: 'damage',
      occurred_at: noon('2026-04-03'),
    });
    await api.post(w.owner, '/v1/inventory/receipts', {
      product_id: w.widget.id,
      location_id: main,
      quantity: 4,
      unit_cost: 5,
      occurred_at: noon('2026-04-04'),
    });

    expect(await aging()).toEqual(agingAtClose);
    expect(await valuation()).toEqual(valuationAtClose);
    const now = await api.get(w.owner, arAgingPath(w.owner));
    expect(now).toMatchObject({
      customers: [expect.objectContaining({ total: 2, unapplied_credits: 0 })],
      accounts_receivable_balance: 2,
      customer_credits_balance: 0,
    });
    expect(await api.get(w.owner, valuationPath(w.owner))).toMatchObject({ totals: { quantity_on_hand: 11, value: 48 }, inventory_account_balance: 48 });
  });
});
