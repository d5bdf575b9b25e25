/**
 * E29 relink: migrated inventory transactions get the order they belong to as reference_id, in
 * two set-based statements (which sources are live orders, then the relink), and nothing else about
 * them (or stock) changes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { withTransaction, type Db } from '../../shared/db/database';
import { newId } from '../../shared/ids';
import { relinkSources } from '../../shared/migration/relink-sources';
import { seedOrder } from '../support/order-fixtures';
import { unchecked } from '../support/client';
import { setupTestApi, type TestEntity } from '../support/harness';

const api = setupTestApi();
let owner: TestEntity;
let location: string;
let product: string;
let sequence = 0;

const path = (entity: TestEntity) => `/v1/entities/${entity.entity.id}/migration/inventory-transactions/relink-source` as const;
const externalId = () => `ITX-${Date.now().toString(36)}-${(sequence++).toString(36)}`;

beforeAll(async () => {
  owner = await api.newEntity();
  location = (await api.post(owner, '/v1/locations', { name: 'Relink warehouse' })).id;
  product = (await api.post(owner, '/v1/products', { sku: 'RELINK-1', name: 'Relinked product', cost: 2 })).id;
});

/** A migrated receipt (reference_type source_migration) carrying the source system's id. */
async function migratedReceipt(transactionId: string, quantity = 3): Promise<string> {
  return (
    await api.post(owner, '/v1/inventory/receipts', {
      product_id: product,
      location_id: location,
      quantity,
      unit_cost: 1.5,
      transaction_id: transactionId,
      source_migration: true,
    })
  ).id;
}

const referenceOf = (transactionId: string) =>
  owner.sql(
    async (db) =>
      (await db.one<{ reference_id: string | null }>('SELECT reference_id FROM inventory_transactions WHERE id = $1', [transactionId])).reference_id,
  );

describe('POST /v1/entities/{entity_id}/migration/inventory-transactions/relink-source', () => {
  it('sets reference_id of a migrated transaction to the order, and reports it with the spec shape', async () => {
    const order = await seedOrder(api, owner);
    const external = externalId();
    const transaction = await migratedReceipt(external);
    const result = await api.post(owner, path(owner), { items: [{ external_id: external, source_id: order.id }] }, 200);
    expect(result).toEqual({
      object: 'migration_itx_source_relink_result',
      livemode: false,
      total: 1,
      relinked: 1,
      already_linked: 0,
      not_found: 0,
      failed: 0,
      results: [{ external_id: external, inventory_transaction_id: transaction, source_id: order.id, relinked: true, error: null, code: null, hint: null }],
    });
    expect(await referenceOf(transaction)).toBe(order.id);
  });

  it('a source_id that is not an order of the entity rejects that item and writes nothing for it; the other items proceed', async () => {
    const order = await seedOrder(api, owner);
    const stranger = await api.newEntity();
    const foreignOrder = await seedOrder(api, stranger);
    const [bad, missing, good] = [externalId(), externalId(), externalId()];
    const badTransaction = await migratedReceipt(bad);
    const missingTransaction = await migratedReceipt(missing);
    const goodTransaction = await migratedReceipt(good);
    const result = await api.post(
      owner,
      path(owner),
      {
        items: [
          { external_id: bad, source_id: foreignOrder.id },
          { external_id: missing, source_id: newId() },
          { external_id: good, source_id: order.id },
        ],
      },
      200,
    );
    expect(result.results.map((item) => [item.external_id, item.code, item.relinked, item.inventory_transaction_id])).toEqual([
      [bad, 'relink_source_not_found', false, null],
      [missing, 'relink_source_not_found', false, null],
      [good, null, true, goodTransaction],
    ]);
    expect(result.results[0]).toMatchObject({ error: 'relink_source_not_found', hint: expect.stringContaining('not an order of this entity') });
    expect({ failed: result.failed, relinked: result.relinked, total: result.total }).toEqual({ failed: 2, relinked: 1, total: 3 });
    expect(await referenceOf(badTransaction)).toBeNull();
    expect(await referenceOf(missingTransaction)).toBeNull();
  });

  it('a transaction that already carries the target reference_id answers relinked false (no-op); re-running is safe', async () => {
    const order = await seedOrder(api, owner);
    const external = externalId();
    const transaction = await migratedReceipt(external);
    const body = { items: [{ external_id: external, source_id: order.id }] };
    expect((await api.post(owner, path(owner), body, 200)).relinked).toBe(1);
    const again = await api.post(owner, path(owner), body, 200);
    expect(again).toMatchObject({
      total: 1,
      relinked: 0,
      already_linked: 1,
      results: [{ inventory_transaction_id: transaction, relinked: false, code: null }],
    });
    expect(await referenceOf(transaction)).toBe(order.id);
  });

  it('only reference_type source_migration can match: a native transaction with the same transaction_id is never touched', async () => {
    const order = await seedOrder(api, owner);
    const external = externalId();
    const native = (
      await api.post(owner, '/v1/inventory/receipts', { product_id: product, location_id: location, quantity: 1, unit_cost: 1, transaction_id: external })
    ).id;
    const result = await api.post(owner, path(owner), { items: [{ external_id: external, source_id: order.id }] }, 200);
    expect(result).toMatchObject({
      total: 1,
      not_found: 1,
      relinked: 0,
      results: [{ code: 'relink_transaction_not_found', error: 'relink_transaction_not_found', inventory_transaction_id: null }],
    });
    expect(await referenceOf(native)).toBeNull();
  });

  it('only reference_id changes: quantity, cost, balances and cost layers stay exactly as they were', async () => {
    const order = await seedOrder(api, owner);
    const external = externalId();
    const transaction = await migratedReceipt(external, 7);
    const state = () =>
      owner.sql(async (db: Db) => ({
        transaction: await db.one<Record<string, unknown>>('SELECT * FROM inventory_transactions WHERE id = $1', [transaction]),
        balances: await db.query('SELECT * FROM inventory_balances WHERE product_id = $1 ORDER BY location_id', [product]),
        layers: await db.query('SELECT * FROM inventory_cost_layers WHERE product_id = $1 ORDER BY id', [product]),
        draws: await db.query('SELECT count(*)::int AS n FROM inventory_layer_draws'),
      }));
    const before = await state();
    await api.post(owner, path(owner), { items: [{ external_id: external, source_id: order.id }] }, 200);
    const after = await state();
    expect(after.transaction.reference_id).toBe(order.id);
    expect({ ...after.transaction, reference_id: null }).toEqual({ ...before.transaction, reference_id: null });
    expect(after.transaction).toMatchObject({ quantity: '7.0000', unit_cost: '1.5000', reference_type: 'source_migration' });
    expect(after.balances).toEqual(before.balances);
    expect(after.layers).toEqual(before.layers);
    expect(after.draws).toEqual(before.draws);
  });

  it('one external id matching several migrated transactions relinks all of them, one result each', async () => {
    const order = await seedOrder(api, owner);
    const external = externalId();
    const first = await migratedReceipt(external);
    const second = await migratedReceipt(external);
    const result = await api.post(owner, path(owner), { items: [{ external_id: external, source_id: order.id }] }, 200);
    expect(result).toMatchObject({ total: 2, relinked: 2 });
    expect(result.results.map((item) => item.inventory_transaction_id)).toEqual([first, second].sort());
    expect([await referenceOf(first), await referenceOf(second)]).toEqual([order.id, order.id]);
  });

  it('the same external id twice in one request is rejected at every occurrence, writing nothing for it', async () => {
    const [orderA, orderB] = [await seedOrder(api, owner), await seedOrder(api, owner)];
    const external = externalId();
    const transaction = await migratedReceipt(external);
    const result = await api.post(
      owner,
      path(owner),
      {
        items: [
          { external_id: external, source_id: orderA.id },
          { external_id: external, source_id: orderB.id },
        ],
      },
      200,
    );
    expect(result).toMatchObject({ total: 2, failed: 2, relinked: 0 });
    expect(result.results.map((item) => item.code)).toEqual(['relink_duplicate_external_id', 'relink_duplicate_external_id']);
    expect(result.results[0].error).toBe('relink_duplicate_external_id');
    expect(await referenceOf(transaction)).toBeNull();
  });

  it('a source_id that is not a uuid rejects only its item, with its error, writing nothing for it; the rest proceed (issue 42 row 10)', async () => {
    const order = await seedOrder(api, owner);
    const [malformed, good] = [externalId(), externalId()];
    const malformedTransaction = await migratedReceipt(malformed);
    const goodTransaction = await migratedReceipt(good);
    const result = await api.post(
      owner,
      path(owner),
      {
        items: [
          { external_id: malformed, source_id: 'not-a-uuid' },
          { external_id: good, source_id: order.id.toUpperCase() },
        ],
      },
      200,
    );
    expect(result.results).toEqual([
      {
        external_id: malformed,
        inventory_transaction_id: null,
        source_id: 'not-a-uuid',
        relinked: false,
        error: 'relink_source_not_found',
        code: 'relink_source_not_found',
        hint: expect.stringContaining('not an order of this entity') as unknown,
      },
      { external_id: good, inventory_transaction_id: goodTransaction, source_id: order.id, relinked: true, error: null, code: null, hint: null },
    ]);
    expect({ failed: result.failed, relinked: result.relinked, total: result.total }).toEqual({ failed: 1, relinked: 1, total: 2 });
    expect(await referenceOf(malformedTransaction)).toBeNull();
    expect(await referenceOf(goodTransaction)).toBe(order.id);
  });

  it('refuses 10,001 items with 400 naming items, and a source_id that is no string with its param, writing nothing', async () => {
    const order = await seedOrder(api, owner);
    const items = Array.from({ length: 10_001 }, (_, n) => ({ external_id: `X${n.toString(36)}`, source_id: order.id }));
    await api.expectRefusal(owner, 'POST', path(owner), { items }, 400, undefined, 'items');
    await api.expectRefusal(owner, 'POST', path(owner), unchecked({ items: [{ external_id: 'A', source_id: 42 }] }), 400, undefined, 'items[0].source_id');
    await api.expectRefusal(owner, 'POST', path(owner), { items: [] }, 400, undefined, 'items');
  });

  it('another entity in the path is a 404, and a key without migration:write a 403 naming it', async () => {
    const stranger = await api.newEntity();
    const order = await seedOrder(api, owner);
    await api.expectRefusal(owner, 'POST', path(stranger), { items: [{ external_id: 'A', source_id: order.id }] }, 404, 'not_found', 'entity_id');
    const reader = await api.newEntity({ scopes: ['migration:read'] });
    const refused = await api.request('POST', path(reader), { key: reader.secret, body: { items: [{ external_id: 'A', source_id: order.id }] } });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'insufficient_scope', required: 'migration:write' });
  });

  it('an Idempotency-Key retry returns the stored result', async () => {
    const order = await seedOrder(api, owner);
    const external = externalId();
    await migratedReceipt(external);
    const options = {
      key: owner.secret,
      headers: { 'Idempotency-Key': `relink-${external}` },
      body: { items: [{ external_id: external, source_id: order.id }] },
    };
    const first = await api.request('POST', path(owner), options);
    const replay = await api.request('POST', path(owner), options);
    expect(first.status).toBe(200);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.body.relinked).toBe(1);
  });

  it('is set-based: two statements per request (the orders check, the relink), for 3 items as for 2,000', async () => {
    const order = await seedOrder(api, owner);
    for (const size of [3, 2_000]) {
      const items = Array.from({ length: size }, (_, n) => ({ external_id: `SET-${size}-${n.toString(36)}`, source_id: order.id }));
      const statements = await withTransaction({ role: 'app_user', entityId: owner.entity.id }, async (db) => {
        let count = 0;
        const counting: Db = {
          query: (sql, params) => (count++, db.query(sql, params)),
          one: (sql, params) => (count++, db.one(sql, params)),
          maybeOne: (sql, params) => (count++, db.maybeOne(sql, params)),
        };
        const result = await relinkSources(counting, owner.entity.id, { items });
        expect(result.not_found).toBe(size);
        return count;
      });
      expect(statements, `${size} items`).toBe(2);
    }
  });
});
