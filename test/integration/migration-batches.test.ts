import { describe, expect, it } from 'vitest';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';
import { openBatch } from '../support/migration-batch-fixtures';

const api = setupTestApi();

const batchesPath = (owner: TestEntity) => `/v1/entities/${owner.entity.id}/migration/batches` as const;
const batchPath = (owner: TestEntity, id: string) => `/v1/entities/${owner.entity.id}/migration/batches/${id}` as const;

/** One record of each resource type in the batch: two products, an account, a vendor, a pricing policy and a draft order. */
async function loadBatch(owner: TestEntity, batchId: string, prefix = 'L') {
  const product = await api.post(owner, '/v1/products', {
    sku: `${prefix}-P1`,
    name: 'Widget',
    list_price: 10,
    migration_batch_id: batchId,
    external_id: `${prefix}-P1`,
  });
  const spare = await api.post(owner, '/v1/products', { sku: `${prefix}-P2`, name: 'Spare', migration_batch_id: batchId, external_id: `${prefix}-P2` });
  const account = await api.post(owner, '/v1/accounts', { name: 'Acme', migration_batch_id: batchId, external_id: `${prefix}-A1` });
  const vendor = await api.post(owner, '/v1/vendors', { name: 'Supplier', migration_batch_id: batchId, external_id: `${prefix}-V1` });
  const policy = await api.post(owner, '/v1/pricing-policies', {
    product_id: product.id,
    sell_price: 9,
    migration_batch_id: batchId,
    external_id: `${prefix}-PP1`,
  });
  const order = await api.post(owner, '/v1/orders', {
    document_type: 'sales_order',
    account_id: account.id,
    external_order_id: `${prefix}-SO1`,
    migration_batch_id: batchId,
    lines: [{ product_id: product.id, quantity: 2 }],
  });
  return { product, spare, account, vendor, policy, order };
}

describe('import batches', () => {
  it('opens a batch, tags what is created in it, and counts each resource type', async () => {
    const owner = await api.newEntity();
    const created = await api.post(owner, batchesPath(owner), { external_source: 'legacy-erp', description: 'First load', metadata: { run: 'a' } });
    expect(created).toMatchObject({
      object: 'migration_batch',
      status: 'open',
      external_source: 'legacy-erp',
      description: 'First load',
      metadata: { run: 'a' },
      counts: { orders: 0, pricing_policies: 0, products: 0, accounts: 0, vendors: 0 },
      removed_counts: { orders: 0, pricing_policies: 0, products: 0, accounts: 0, vendors: 0 },
    });
    const { product, account, vendor, policy, order } = await loadBatch(owner, created.id);
    for (const record of [product, account, vendor, policy]) {
      expect(record).toMatchObject({ migration_batch_id: created.id, external_source: 'legacy-erp' });
      expect(record.imported_at).toEqual(expect.any(String));
    }
    expect(order).toMatchObject({ migration_batch_id: created.id, source_platform: 'legacy-erp', external_order_id: 'L-SO1' });
    expect(order.imported_at).toEqual(expect.any(String));
    // A record outside any batch keeps neither.
    const plain = await api.post(owner, '/v1/products', { sku: 'PLAIN', name: 'Plain' });
    expect(plain).toMatchObject({ migration_batch_id: null, imported_at: null, external_source: null });

    const fetched = await api.get(owner, batchPath(owner, created.id));
    expect(fetched.counts).toEqual({ orders: 1, pricing_policies: 1, products: 2, accounts: 1, vendors: 1 });
    const second = await openBatch(api, owner, 'other');
    const listed = await api.get(owner, batchesPath(owner), { limit: '1' });
    expect(listed.data.map((batch) => batch.id)).toEqual([second]);
    expect(listed.has_more).toBe(true);
    const older = await api.get(owner, batchesPath(owner), { limit: '1', starting_after: second });
    expect(older.data.map((batch) => [batch.id, batch.counts.products])).toEqual([[created.id, 2]]);
    const open = await api.get(owner, batchesPath(owner), { status: 'open' });
    expect(open.data).toHaveLength(2);
    const byBatch = await api.get(owner, '/v1/pricing-policies', { migration_batch_id: created.id });
    expect(byBatch.data.map((row) => row.id)).toEqual([policy.id]);
    const events = api.published.filter((event) => event.type === 'migration.batch_created' && event.data.object.id === created.id);
    expect(events).toHaveLength(1);
  });

  it('answers a repeated external id with 409 external_id_taken naming the existing record, writing nothing', async () => {
    const owner = await api.newEntity();
    const batch = await openBatch(api, owner);
    const { product, account, vendor, policy, order } = await loadBatch(owner, batch);
    const cases = [
      {
        path: '/v1/products',
        body: { sku: 'OTHER', name: 'Again', migration_batch_id: batch, external_id: 'L-P1' },
        existing: product.id,
        param: 'external_id',
      },
      { path: '/v1/accounts', body: { name: 'Again', migration_batch_id: batch, external_id: 'L-A1' }, existing: account.id, param: 'external_id' },
      { path: '/v1/vendors', body: { name: 'Again', migration_batch_id: batch, external_id: 'L-V1' }, existing: vendor.id, param: 'external_id' },
      {
        path: '/v1/pricing-policies',
        body: { product_id: product.id, sell_price: 8, min_quantity: 5, migration_batch_id: batch, external_id: 'L-PP1' },
        existing: policy.id,
        param: 'external_id',
      },
      {
        path: '/v1/orders',
        body: { document_type: 'sales_order', account_id: account.id, external_order_id: 'L-SO1', migration_batch_id: batch },
        existing: order.id,
        param: 'external_order_id',
      },
    ] as const;
    for (const { path, body, existing, param } of cases) {
      const error = await api.expectRefusal(owner, 'POST', path, body, 409, 'external_id_taken', param);
      expect(error).toMatchObject({ type: 'conflict', existing_id: existing });
    }
    // The batch's source is the key's source: the same id without a batch (and so without a source) is another key.
    await api.post(owner, '/v1/products', { sku: 'NO-SOURCE', name: 'No source', external_id: 'L-P1' });
    const noSourceAgain = await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: 'NO-SOURCE-2', name: 'Again', external_id: 'L-P1' } });
    expect(noSourceAgain.status).toBe(409);
    expect(noSourceAgain.error).toMatchObject({ code: 'external_id_taken', param: 'external_id' });
    expect((await api.get(owner, batchPath(owner, batch))).counts).toEqual({ orders: 1, pricing_policies: 1, products: 2, accounts: 1, vendors: 1 });
  });

  it("refuses another entity's or the other mode's batch (404 on migration_batch_id) and a closed batch (409)", async () => {
    const owner = await api.newEntity();
    const stranger = await api.newEntity();
    const theirs = await openBatch(api, stranger);
    for (const [path, body] of [
      ['/v1/products', { sku: 'X-1', name: 'X', migration_batch_id: theirs }],
      ['/v1/accounts', { name: 'X', migration_batch_id: theirs }],
      ['/v1/vendors', { name: 'X', migration_batch_id: theirs }],
    ] as const) {
      const error = await api.expectRefusal(owner, 'POST', path, body, 404, 'not_found', 'migration_batch_id');
      expect(error.type).toBe('not_found');
    }
    await api.expectRefusal(owner, 'GET', `/v1/entities/${owner.entity.id}/migration/batches/${theirs}`, undefined, 404, 'not_found', 'id');
    await api.expectRefusal(owner, 'POST', `/v1/entities/${owner.entity.id}/migration/batches/${theirs}/rollback`, undefined, 404, 'not_found', 'id');

    const { live, test } = await api.newEntityPair();
    const liveBatch = await openBatch(api, live);
    await api.expectRefusal(test, 'POST', '/v1/products', { sku: 'M-1', name: 'M', migration_batch_id: liveBatch }, 404, 'not_found', 'migration_batch_id');
    await api.expectRefusal(test, 'GET', `/v1/entities/${test.entity.id}/migration/batches/${liveBatch}`, undefined, 404, 'not_found', 'id');

    const batch = await openBatch(api, owner);
    const completed = await api.post(owner, `/v1/entities/${owner.entity.id}/migration/batches/${batch}/complete`, undefined, 200);
    expect(completed).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
    expect(await api.post(owner, `/v1/entities/${owner.entity.id}/migration/batches/${batch}/complete`, undefined, 200)).toEqual(completed);
    const closed = await api.expectRefusal(
      owner,
      'POST',
      '/v1/accounts',
      { name: 'Late', migration_batch_id: batch },
      409,
      'migration_batch_closed',
      'migration_batch_id',
    );
    expect(closed).toMatchObject({ type: 'conflict', current_status: 'completed' });
  });

  it('rolls back what nothing references, keeps and explains the rest, and a re-run loads again', async () => {
    const owner = await api.newEntity();
    const batch = await openBatch(api, owner);
    const { product, spare, account, vendor, policy, order } = await loadBatch(owner, batch);
    // Kept: a product an order outside the batch sells, a confirmed order of the batch (and its
    // account), a product with stock received.
    const referenced = await api.post(owner, '/v1/products', { sku: 'R-1', name: 'Referenced', migration_batch_id: batch, external_id: 'R-1' });
    const outsider = await api.post(owner, '/v1/accounts', { name: 'Outsider' });
    const foreignOrder = await api.post(owner, '/v1/orders', {
      document_type: 'quote',
      account_id: outsider.id,
      lines: [{ product_id: referenced.id, quantity: 1 }],
    });
    const confirmedAccount = await api.post(owner, '/v1/accounts', { name: 'Confirmed', migration_batch_id: batch, external_id: 'C-A1' });
    const confirmed = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: confirmedAccount.id,
      migration_batch_id: batch,
      external_order_id: 'C-SO1',
      lines: [{ product_id: spare.id, quantity: 1 }],
    });
    await api.post(owner, `/v1/orders/${confirmed.id}/confirm`, undefined, 200);
    const stocked = await api.post(owner, '/v1/products', { sku: 'S-1', name: 'Stocked', migration_batch_id: batch, external_id: 'S-1' });
    const location = await api.post(owner, '/v1/locations', { name: 'Main' });
    await api.post(owner, '/v1/inventory/receipts', { product_id: stocked.id, location_id: location.id, quantity: 3, unit_cost: 2 });
    const tag = await api.post(owner, '/v1/tags', { name: 'Imported' });
    await api.post(owner, `/v1/tags/product/${product.id}`, { tag_id: tag.id }, 200);
    const ledgerBefore = await owner.sql((db) => db.one<{ n: number }>('SELECT count(*)::int AS n FROM journal_lines'));
    const stockBefore = await owner.sql((db) => db.one<{ n: number }>('SELECT count(*)::int AS n FROM inventory_transactions'));

    const result = await api.post(owner, `/v1/entities/${owner.entity.id}/migration/batches/${batch}/rollback`, undefined, 200);
    expect(result.object).toBe('migration_batch_rollback');
    expect(result.removed_counts).toEqual({ orders: 1, pricing_policies: 1, products: 1, accounts: 1, vendors: 1 });
    const kept = [...result.kept].sort((a, b) => a.id.localeCompare(b.id));
    expect(kept).toEqual(
      [
        { id: confirmed.id, resource_type: 'orders', reason: 'order_not_draft', referenced_by: null },
        { id: spare.id, resource_type: 'products', reason: 'referenced', referenced_by: { resource_type: 'orders', id: confirmed.id } },
        { id: referenced.id, resource_type: 'products', reason: 'referenced', referenced_by: { resource_type: 'orders', id: foreignOrder.id } },
        {
          id: stocked.id,
          resource_type: 'products',
          reason: 'inventory_movements',
          referenced_by: { resource_type: 'inventory_transactions', id: expect.any(String) },
        },
        { id: confirmedAccount.id, resource_type: 'accounts', reason: 'referenced', referenced_by: { resource_type: 'orders', id: confirmed.id } },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(result.batch).toMatchObject({
      status: 'rolled_back',
      rolled_back_at: expect.any(String),
      counts: { orders: 1, pricing_policies: 0, products: 3, accounts: 1, vendors: 0 },
      removed_counts: { orders: 1, pricing_policies: 1, products: 1, accounts: 1, vendors: 1 },
    });
    for (const [path, id] of [
      ['/v1/products', product.id],
      ['/v1/accounts', account.id],
      ['/v1/vendors', vendor.id],
      ['/v1/pricing-policies', policy.id],
      ['/v1/orders', order.id],
    ] as const) {
      expect((await api.raw('GET', `${path}/${id}`, { key: owner.secret })).status, path).toBe(404);
    }
    await api.get(owner, `/v1/orders/${confirmed.id}`);
    await api.get(owner, `/v1/products/${referenced.id}`);
    expect(await owner.sql((db) => db.one<{ n: number }>('SELECT count(*)::int AS n FROM tag_assignments'))).toEqual({ n: 0 });
    expect(await owner.sql((db) => db.one<{ n: number }>('SELECT count(*)::int AS n FROM journal_lines'))).toEqual(ledgerBefore);
    expect(await owner.sql((db) => db.one<{ n: number }>('SELECT count(*)::int AS n FROM inventory_transactions'))).toEqual(stockBefore);
    const rolledBack = api.published.filter((event) => event.type === 'migration.batch_rolled_back' && event.data.object.id === batch);
    expect(rolledBack).toHaveLength(1);

    // Idempotent: nothing more to remove, the same records kept; the totals do not move.
    const before = await tenantRowCounts(owner.entity.id);
    const again = await api.post(owner, `/v1/entities/${owner.entity.id}/migration/batches/${batch}/rollback`, undefined, 200);
    expect(again.removed_counts).toEqual({ orders: 0, pricing_policies: 0, products: 0, accounts: 0, vendors: 0 });
    expect([...again.kept].sort((a, b) => a.id.localeCompare(b.id))).toEqual(kept);
    expect(again.batch.removed_counts).toEqual(result.batch.removed_counts);
    const after = await tenantRowCounts(owner.entity.id);
    expect({ ...after, event_outbox: 0, migration_batches: 0 }).toEqual({ ...before, event_outbox: 0, migration_batches: 0 });

    // The rolled-back batch takes nothing more; a re-run goes into a new batch, and loads what was removed.
    await api.expectRefusal(owner, 'POST', '/v1/vendors', { name: 'Late', migration_batch_id: batch }, 409, 'migration_batch_closed', 'migration_batch_id');
    await api.expectRefusal(
      owner,
      'POST',
      `/v1/entities/${owner.entity.id}/migration/batches/${batch}/complete`,
      undefined,
      409,
      'migration_batch_closed',
      'id',
    );
    const rerun = await openBatch(api, owner);
    const reloaded = await api.post(owner, '/v1/products', { sku: 'L-P1', name: 'Widget', migration_batch_id: rerun, external_id: 'L-P1' });
    expect(reloaded.id).not.toBe(product.id);
    expect(reloaded).toMatchObject({ external_id: 'L-P1', migration_batch_id: rerun });
    // What the first batch kept is still in: the re-run is told where, and skips it.
    for (const [body, existing] of [
      [{ sku: 'L-P2', name: 'Spare', migration_batch_id: rerun, external_id: 'L-P2' }, spare.id],
      [{ sku: 'R-1-AGAIN', name: 'Referenced', migration_batch_id: rerun, external_id: 'R-1' }, referenced.id],
    ] as const) {
      const skipped = await api.expectRefusal(owner, 'POST', '/v1/products', body, 409, 'external_id_taken', 'external_id');
      expect(skipped.existing_id).toBe(existing);
    }
    const reloadedAccount = await api.post(owner, '/v1/accounts', { name: 'Acme', migration_batch_id: rerun, external_id: 'L-A1' });
    await api.post(owner, '/v1/vendors', { name: 'Supplier', migration_batch_id: rerun, external_id: 'L-V1' });
    await api.post(owner, '/v1/pricing-policies', { product_id: reloaded.id, sell_price: 9, migration_batch_id: rerun, external_id: 'L-PP1' });
    await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: reloadedAccount.id,
      external_order_id: 'L-SO1',
      migration_batch_id: rerun,
      lines: [{ product_id: reloaded.id, quantity: 2 }],
    });
    expect((await api.get(owner, batchPath(owner, rerun))).counts).toEqual({ orders: 1, pricing_policies: 1, products: 1, accounts: 1, vendors: 1 });
  });

  it('rolls back a product together with the kit of the batch that uses it, and a product only the batch orders used', async () => {
    const owner = await api.newEntity();
    const batch = await openBatch(api, owner);
    const component = await api.post(owner, '/v1/products', { sku: 'K-C', name: 'Component', migration_batch_id: batch });
    // Kits are created by POST /v1/kits, which takes no batch: tagged here as an import tool would (no endpoint sets it).
    const kit = await api.post(owner, '/v1/kits', {
      sku: 'K-1',
      product_name: 'Kit',
      components: [{ component_product_id: component.id, quantity_per_kit: 2 }],
    });
    await owner.sql((db) => db.query('UPDATE products SET migration_batch_id = $1 WHERE id = $2', [batch, kit.id]));
    const result = await api.post(owner, `/v1/entities/${owner.entity.id}/migration/batches/${batch}/rollback`, undefined, 200);
    expect(result.removed_counts.products).toBe(2);
    expect(result.kept).toEqual([]);
  });

  it('keeps a record referenced in a way no rule names, found by its foreign key, and still removes the others', async () => {
    const owner = await api.newEntity();
    const batch = await openBatch(api, owner);
    const ruled = await api.post(owner, '/v1/accounts', { name: 'Ruled', migration_batch_id: batch });
    const free = await api.post(owner, '/v1/accounts', { name: 'Free', migration_batch_id: batch });
    await api.post(owner, '/v1/orders/approval-rules', { account_id: ruled.id, threshold_amount: 1000, approver_user_id: owner.owner.id });
    const result = await api.post(owner, `/v1/entities/${owner.entity.id}/migration/batches/${batch}/rollback`, undefined, 200);
    expect(result.removed_counts.accounts).toBe(1);
    expect(result.kept).toEqual([
      { id: ruled.id, resource_type: 'accounts', reason: 'referenced', referenced_by: { resource_type: 'order_approval_rules', id: null } },
    ]);
    expect((await api.raw('GET', `/v1/accounts/${free.id}`, { key: owner.secret })).status).toBe(404);
    await api.get(owner, `/v1/accounts/${ruled.id}`);
  });

  it('needs migration:write to open, complete or roll back a batch, and migration:read to read one', async () => {
    const owner = await api.newEntity();
    const batch = await openBatch(api, owner);
    const reader = await api.post(owner, `/v1/entities/${owner.entity.id}/api-keys`, { scopes: ['migration:read'] });
    const other = await api.post(owner, `/v1/entities/${owner.entity.id}/api-keys`, { scopes: ['products:write'] });
    expect((await api.raw('GET', batchPath(owner, batch), { key: reader.secret })).status).toBe(200);
    for (const [path, body] of [
      [batchesPath(owner), { external_source: 'x' }],
      [`/v1/entities/${owner.entity.id}/migration/batches/${batch}/complete`, undefined],
      [`/v1/entities/${owner.entity.id}/migration/batches/${batch}/rollback`, undefined],
    ] as const) {
      const refused = await api.raw('POST', path, { key: reader.secret, body });
      expect(refused.status, path).toBe(403);
      expect(refused.error).toMatchObject({ code: 'insufficient_scope', required: 'migration:write' });
    }
    const unread = await api.raw('GET', batchPath(owner, batch), { key: other.secret });
    expect(unread.status).toBe(403);
    expect(unread.error).toMatchObject({ code: 'insufficient_scope', required: 'migration:read' });
    // Tagging a record needs only the resource's own scope: the batch is named, not changed.
    const tagged = await api.raw('POST', '/v1/products', { key: other.secret, body: { sku: 'T-1', name: 'Tagged', migration_batch_id: batch } });
    expect(tagged.status).toBe(201);
  });
});
