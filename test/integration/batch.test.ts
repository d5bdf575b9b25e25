/** POST /v1/batch: operations through their own routes, atomic or not, references, scopes, dry run, limits. */
import { describe, expect, it } from 'vitest';
import { setupTestApi, tenantContents } from '../support/harness';
import { salesWorld } from '../support/worlds';

const api = setupTestApi();

type Result = { index: number; status: number; body: Record<string, unknown>; idempotent_replay?: boolean };
type BatchAnswer = { object: 'batch'; atomic: boolean; results: Result[]; dry_run?: true; events?: string[]; journal_entries?: unknown[] };

async function batch(key: string, body: unknown, query?: Record<string, string>) {
  return api.raw('POST', '/v1/batch', { key, body, ...(query && { query }) });
}

describe('POST /v1/batch', () => {
  it('creates an account, its first order and confirms it, each operation using an earlier one’s answer; events once committed', async () => {
    const w = await salesWorld(api, { account: false, widgetStock: 5 });
    const published = api.published.length;
    const response = await batch(w.owner.secret, {
      operations: [
        { method: 'POST', path: '/v1/accounts', body: { name: 'Batch customer' } },
        { method: 'POST', path: '/v1/orders', body: { document_type: 'invoice', account_id: '$ops[0].id', lines: [{ product_id: w.widget.id, quantity: 2 }] } },
        { method: 'POST', path: '/v1/orders/$ops[1].id/confirm', body: {} },
      ],
    });
    expect(response.status, response.text).toBe(200);
    const answer = response.body as BatchAnswer;
    expect(answer.results.map((result) => result.status)).toEqual([201, 201, 200]);
    const [account, order, confirmed] = answer.results.map((result) => result.body);
    expect(order.account_id).toBe(account.id);
    expect(confirmed).toMatchObject({ id: order.id, order_status: 'confirmed', order_total: 20 });
    expect((await api.get(w.owner, `/v1/orders/${String(order.id)}`)).order_status).toBe('confirmed');
    const types = api.published.slice(published).map((event) => event.type);
    expect(types).toEqual(expect.arrayContaining(['account.created', 'order.created', 'order.confirmed', 'journal_entry.posted']));
  });

  it('atomic: the first failure rolls everything back and names the operation; nothing written, nothing published', async () => {
    const w = await salesWorld(api);
    const before = await tenantContents(w.owner.entity.id);
    const published = api.published.length;
    const response = await batch(w.owner.secret, {
      operations: [
        { method: 'POST', path: '/v1/accounts', body: { name: 'Kept only if all pass' } },
        { method: 'POST', path: '/v1/orders', body: { document_type: 'invoice', account_id: '00000000-0000-4000-8000-000000000000' } },
        { method: 'POST', path: '/v1/accounts', body: { name: 'Never run' } },
      ],
    });
    const single = await api.raw('POST', '/v1/orders', {
      key: w.owner.secret,
      body: { document_type: 'invoice', account_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(response.status).toBe(single.status);
    expect(response.error).toMatchObject({ code: single.error.code, param: single.error.param, failed_index: 1 });
    expect(await tenantContents(w.owner.entity.id)).toEqual(before);
    expect(api.published.length).toBe(published);
  });

  it('atomic false: each operation in a savepoint; the successful ones are kept, the failed one writes nothing', async () => {
    const w = await salesWorld(api);
    const response = await batch(w.owner.secret, {
      atomic: false,
      operations: [
        { method: 'POST', path: '/v1/locations', body: { name: 'North' } },
        { method: 'POST', path: '/v1/locations', body: { name: 'North' } },
        { method: 'PATCH', path: '/v1/locations/$ops[1].id', body: { name: 'Never' } },
        { method: 'PATCH', path: '/v1/locations/$ops[3].id', body: { name: 'Later' } },
        { method: 'POST', path: '/v1/locations', body: { name: 'South' } },
      ],
    });
    expect(response.status, response.text).toBe(200);
    const results = (response.body as BatchAnswer).results;
    expect(results.map((result) => result.status)).toEqual([201, 409, 400, 400, 201]);
    expect(results[1].body).toMatchObject({ code: 'location_name_taken' });
    expect(results[2].body).toMatchObject({ code: 'batch_reference_invalid', param: 'operations[2].path' });
    expect(results[3].body).toMatchObject({ code: 'batch_reference_invalid' });
    const names = (await api.get(w.owner, '/v1/locations', { limit: '100' })).data.map((location) => location.name).sort();
    expect(names).toEqual(['Main', 'North', 'South']);
  });

  it('checks each operation against the key’s scopes, not a union up front', async () => {
    const w = await salesWorld(api);
    const key = await api.request('POST', `/v1/entities/${w.owner.entity.id}/api-keys`, { key: w.owner.secret, body: { scopes: ['accounts:write'] } });
    const response = await batch(key.body.secret, {
      atomic: false,
      operations: [
        { method: 'POST', path: '/v1/accounts', body: { name: 'Allowed' } },
        { method: 'POST', path: '/v1/orders', body: { document_type: 'quote', account_id: '$ops[0].id' } },
      ],
    });
    expect(response.status, response.text).toBe(200);
    const results = (response.body as BatchAnswer).results;
    expect(results[0].status).toBe(201);
    expect(results[1]).toMatchObject({ status: 403, body: { code: 'insufficient_scope', required: 'orders:write' } });
  });

  it('refuses routes that cannot run in a batch, operations with their own dry_run, and more than 100 operations', async () => {
    const w = await salesWorld(api);
    const before = await tenantContents(w.owner.entity.id);
    const notAllowed = await batch(w.owner.secret, {
      atomic: false,
      operations: [
        { method: 'POST', path: `/v1/accounts/${w.account.id}/payment-methods`, body: { type: 'card' } },
        { method: 'POST', path: '/v1/batch', body: { operations: [] } },
        { method: 'POST', path: '/v1/nowhere', body: {} },
        { method: 'POST', path: '/v1/locations', query: { dry_run: 'true' }, body: { name: 'X' } },
      ],
    });
    expect(notAllowed.status, notAllowed.text).toBe(200);
    for (const result of (notAllowed.body as BatchAnswer).results) expect(result).toMatchObject({ status: 400, body: { code: 'batch_operation_not_allowed' } });
    const read = await batch(w.owner.secret, { operations: [{ method: 'GET', path: '/v1/locations' }] });
    expect(read.status).toBe(400);
    expect(read.error).toMatchObject({ code: 'parameter_invalid', param: 'operations[0].method' });
    const many = await batch(w.owner.secret, {
      operations: Array.from({ length: 101 }, (_, i) => ({ method: 'POST', path: '/v1/locations', body: { name: `L${i}` } })),
    });
    expect(many.status).toBe(400);
    expect(many.error).toMatchObject({ code: 'batch_too_large', param: 'operations' });
    expect(await tenantContents(w.owner.entity.id)).toEqual(before);
  });

  it('dry-runs a whole batch: every operation runs, nothing is kept, the answer lists the postings and events', async () => {
    const w = await salesWorld(api, { account: false, widgetStock: 5 });
    const before = await tenantContents(w.owner.entity.id);
    const published = api.published.length;
    const response = await batch(
      w.owner.secret,
      {
        operations: [
          { method: 'POST', path: '/v1/accounts', body: { name: 'Dry customer' } },
          {
            method: 'POST',
            path: '/v1/orders',
            body: { document_type: 'invoice', account_id: '$ops[0].id', lines: [{ product_id: w.widget.id, quantity: 1 }] },
          },
          { method: 'POST', path: '/v1/orders/$ops[1].id/confirm', body: {} },
        ],
      },
      { dry_run: 'true' },
    );
    expect(response.status, response.text).toBe(200);
    const answer = response.body as BatchAnswer;
    expect(answer.dry_run).toBe(true);
    expect(answer.results.map((result) => result.status)).toEqual([201, 201, 200]);
    expect(answer.events).toEqual(expect.arrayContaining(['account.created', 'order.created', 'order.confirmed']));
    expect(answer.journal_entries!.length).toBeGreaterThan(0);
    expect(await tenantContents(w.owner.entity.id)).toEqual(before);
    expect(api.published.length).toBe(published);
  });

  it('loads records of an import batch inside a batch, and the import batch then rolls them back', async () => {
    const w = await salesWorld(api);
    const entity = w.owner.entity.id;
    const importBatch = await api.request('POST', `/v1/entities/${entity}/migration/batches`, { key: w.owner.secret, body: { external_source: 'quickbooks' } });
    expect(importBatch.status).toBe(201);
    const response = await batch(w.owner.secret, {
      operations: [1, 2, 3].map((n) => ({ method: 'POST', path: '/v1/accounts', body: { name: `Imported ${n}`, migration_batch_id: importBatch.body.id } })),
    });
    expect(response.status, response.text).toBe(200);
    const ids = (response.body as BatchAnswer).results.map((result) => result.body.id as string);
    for (const result of (response.body as BatchAnswer).results) expect(result.body.migration_batch_id).toBe(importBatch.body.id);
    const rollback = await api.raw('POST', `/v1/entities/${entity}/migration/batches/${importBatch.body.id}/rollback`, { key: w.owner.secret, body: {} });
    expect(rollback.status, rollback.text).toBe(200);
    for (const id of ids) expect((await api.raw('GET', `/v1/accounts/${id}`, { key: w.owner.secret })).status).toBe(404);
  });

  describe('idempotency_key per operation', () => {
    const locationCount = async (owner: Parameters<typeof api.get>[0]) => (await api.get(owner, '/v1/locations', { limit: '100' })).data.length;

    it('replays an operation’s stored answer for the same key and request, within batches and to a single request with that key', async () => {
      const w = await salesWorld(api);
      const operations = [{ method: 'POST', path: '/v1/locations', body: { name: 'Replayed' }, idempotency_key: 'op-replay-1' }];
      const before = await locationCount(w.owner);
      const first = await batch(w.owner.secret, { operations });
      expect(first.status, first.text).toBe(200);
      const again = await batch(w.owner.secret, { operations });
      expect(again.status, again.text).toBe(200);
      const [original] = (first.body as BatchAnswer).results;
      const [replay] = (again.body as BatchAnswer).results;
      expect(original).toMatchObject({ status: 201, idempotent_replay: false });
      expect(replay).toEqual({ ...original, idempotent_replay: true });
      const single = await api.raw('POST', '/v1/locations', { key: w.owner.secret, headers: { 'Idempotency-Key': 'op-replay-1' }, body: { name: 'Replayed' } });
      expect(single.status).toBe(201);
      expect(single.headers.get('idempotent-replayed')).toBe('true');
      expect((single.body as { id: string }).id).toBe(original.body.id);
      expect(await locationCount(w.owner)).toBe(before + 1);
    });

    it('answers a key reused with another request as a single request is answered, writing nothing', async () => {
      const w = await salesWorld(api);
      const key = 'op-reused-1';
      const first = await batch(w.owner.secret, { operations: [{ method: 'POST', path: '/v1/locations', body: { name: 'One' }, idempotency_key: key }] });
      expect(first.status, first.text).toBe(200);
      const before = await tenantContents(w.owner.entity.id);
      const reused = await batch(w.owner.secret, {
        atomic: false,
        operations: [{ method: 'POST', path: '/v1/locations', body: { name: 'Two' }, idempotency_key: key }],
      });
      const single = await api.raw('POST', '/v1/locations', { key: w.owner.secret, headers: { 'Idempotency-Key': key }, body: { name: 'Two' } });
      expect(single.status).toBe(422);
      const [result] = (reused.body as BatchAnswer).results;
      expect(result).toMatchObject({ status: 422, idempotent_replay: false, body: { code: single.error.code, param: single.error.param } });
      expect(single.error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
      expect(await tenantContents(w.owner.entity.id)).toEqual(before);
    });

    it('atomic: a failed batch releases its operations’ keys; the retry runs them and writes once', async () => {
      const w = await salesWorld(api);
      const before = await locationCount(w.owner);
      const location = { method: 'POST', path: '/v1/locations', body: { name: 'Retried' }, idempotency_key: 'op-rollback-1' };
      const failing = { method: 'POST', path: '/v1/orders', body: { document_type: 'invoice', account_id: '00000000-0000-4000-8000-000000000000' } };
      const failed = await batch(w.owner.secret, { operations: [location, failing] });
      expect(failed.status).toBeGreaterThanOrEqual(400);
      expect(failed.error).toMatchObject({ failed_index: 1 });
      expect(await locationCount(w.owner)).toBe(before);
      const retried = await batch(w.owner.secret, { operations: [location] });
      expect(retried.status, retried.text).toBe(200);
      expect((retried.body as BatchAnswer).results[0]).toMatchObject({ status: 201, idempotent_replay: false, body: { name: 'Retried' } });
      const replayed = await batch(w.owner.secret, { operations: [location] });
      expect((replayed.body as BatchAnswer).results[0]).toMatchObject({ status: 201, idempotent_replay: true });
      expect(await locationCount(w.owner)).toBe(before + 1);
    });

    it('atomic: a key in progress fails the batch with 409 and its Retry-After, and the batch’s reservation is released', async () => {
      const w = await salesWorld(api);
      const before = await tenantContents(w.owner.entity.id);
      const published = api.published.length;
      const operations = [
        { method: 'POST', path: '/v1/locations', body: { name: 'Held' }, idempotency_key: 'op-in-progress-1' },
        { method: 'POST', path: '/v1/locations', body: { name: 'Held' }, idempotency_key: 'op-in-progress-1' },
      ];
      const conflict = await batch(w.owner.secret, { operations });
      expect(conflict.status, conflict.text).toBe(409);
      expect(conflict.error).toMatchObject({ code: 'idempotency_key_in_use', param: 'Idempotency-Key', failed_index: 1 });
      expect(conflict.headers.get('retry-after')).toBe('1');
      expect(await tenantContents(w.owner.entity.id)).toEqual(before);
      expect(api.published.length).toBe(published);
      const alone = await batch(w.owner.secret, { operations: [operations[0]] });
      expect((alone.body as BatchAnswer).results[0]).toMatchObject({ status: 201, idempotent_replay: false });
    });

    it('atomic false: keeps the keys of the operations that succeeded only; a retry replays those and runs the others again', async () => {
      const w = await salesWorld(api);
      const before = await locationCount(w.owner);
      const operations = [
        { method: 'POST', path: '/v1/locations', body: { name: 'Kept' }, idempotency_key: 'op-partial-ok' },
        { method: 'POST', path: '/v1/locations', body: { name: 'Kept' }, idempotency_key: 'op-partial-taken' },
      ];
      const first = await batch(w.owner.secret, { atomic: false, operations });
      expect(first.status, first.text).toBe(200);
      expect((first.body as BatchAnswer).results.map((r) => [r.status, r.idempotent_replay])).toEqual([
        [201, false],
        [409, false],
      ]);
      const retried = await batch(w.owner.secret, { atomic: false, operations: [operations[0], { ...operations[1], body: { name: 'Second' } }] });
      const results = (retried.body as BatchAnswer).results;
      expect(results[0]).toEqual({ ...(first.body as BatchAnswer).results[0], idempotent_replay: true });
      expect(results[1]).toMatchObject({ status: 201, idempotent_replay: false, body: { name: 'Second' } });
      expect(await locationCount(w.owner)).toBe(before + 2);
    });

    it('refuses operation keys in a dry-run batch, as a dry run refuses an Idempotency-Key', async () => {
      const w = await salesWorld(api);
      const before = await tenantContents(w.owner.entity.id);
      const dry = await batch(
        w.owner.secret,
        {
          operations: [
            { method: 'POST', path: '/v1/locations', body: { name: 'Dry' } },
            { method: 'POST', path: '/v1/locations', body: { name: 'Dry 2' }, idempotency_key: 'op-dry-1' },
          ],
        },
        { dry_run: 'true' },
      );
      const single = await api.raw('POST', '/v1/locations', {
        key: w.owner.secret,
        headers: { 'Idempotency-Key': 'op-dry-1' },
        query: { dry_run: 'true' },
        body: { name: 'Dry' },
      });
      expect(dry.status).toBe(single.status);
      expect(dry.error).toMatchObject({ code: single.error.code, param: 'operations[1].idempotency_key' });
      expect(single.error.code).toBe('dry_run_idempotency_key');
      expect(await tenantContents(w.owner.entity.id)).toEqual(before);
      const invalid = await batch(w.owner.secret, {
        operations: [{ method: 'POST', path: '/v1/locations', body: { name: 'X' }, idempotency_key: 'has space' }],
      });
      expect(invalid.status).toBe(400);
      expect(invalid.error).toMatchObject({ param: 'operations[0].idempotency_key' });
    });
  });
});
