import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import { runIdempotent } from '../../shared/http/idempotency-store';
import { logger } from '../../shared/powertools';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

describe('Idempotency-Key', () => {
  it('executes 20 concurrent requests with one key exactly once', async () => {
    const { secret, entity } = await api.newEntity();
    const headers = { 'Idempotency-Key': 'concurrent-create-1' };
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => api.request('POST', '/v1/manufacturers', { key: secret, headers, body: { name: 'Acme Tools' } })),
    );
    const statuses = responses.map((r) => r.status);
    // Each is either the one execution, a replay of it, or told to retry while it runs.
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const conflicts = responses.filter((r) => r.status === 409);
    for (const conflict of conflicts) {
      expect(conflict.error.code).toBe('idempotency_key_in_use');
      expect(conflict.headers.get('retry-after')).toBe('1');
    }
    const ok = responses.filter((r) => r.status === 201);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    expect((await tenantRowCounts(entity.id)).manufacturers).toBe(1);
    expect(api.published.filter((e) => e.entity_id === entity.id && e.type === 'manufacturer.created')).toHaveLength(1);
  });

  it('replays the original status and body byte for byte, marked Idempotent-Replayed', async () => {
    const { secret, entity } = await api.newEntity();
    const headers = { 'Idempotency-Key': 'replay-1' };
    const first = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Replay' } });
    const second = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Replay' } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await tenantRowCounts(entity.id)).locations).toBe(1);
  });

  it('saves the response while the events are published: a replay is answered before the publish has finished', async () => {
    const { secret } = await api.newEntity();
    const headers = { 'Idempotency-Key': 'publish-alongside' };
    // A UUID, not a timestamp: 13 digits can pass the Luhn check and be refused as a card number.
    const body = { name: `Alongside ${randomUUID()}` };
    const replays: number[] = [];
    // Holds the publish of this write until a replay of it is answered: were the record saved only
    // after the publish, every replay meanwhile would be 409 idempotency_key_in_use.
    const unsubscribe = api.bus.subscribe(async (event) => {
      if ((event.data.object as { name?: string }).name !== body.name) return;
      for (let attempt = 0; attempt < 50 && replays.at(-1) !== 201; attempt++) {
        replays.push((await api.request('POST', '/v1/locations', { key: secret, headers, body })).status);
        if (replays.at(-1) !== 201) await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    try {
      const first = await api.request('POST', '/v1/locations', { key: secret, headers, body });
      expect(first.status, first.text).toBe(201);
      expect(replays.at(-1)).toBe(201);
      expect(replays.every((status) => status === 201 || status === 409)).toBe(true);
      expect(api.published.filter((event) => (event.data.object as { name?: string }).name === body.name)).toHaveLength(1);
    } finally {
      unsubscribe();
    }
  });

  it('refuses the same key with a different body with 422, writing nothing', async () => {
    const { secret, entity } = await api.newEntity();
    const headers = { 'Idempotency-Key': 'different-body' };
    await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'One' } });
    const before = await tenantRowCounts(entity.id);
    const reused = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Two' } });
    expect(reused.status).toBe(422);
    expect(reused.error).toMatchObject({ code: 'idempotency_key_reused', param: 'Idempotency-Key' });
    expect(await tenantRowCounts(entity.id)).toEqual(before);
  });

  it('scopes keys to the entity and the route', async () => {
    const a = await api.newEntity();
    const b = await api.newEntity();
    const headers = { 'Idempotency-Key': 'shared-key' };
    const first = await api.request('POST', '/v1/locations', { key: a.secret, headers, body: { name: 'Same' } });
    const otherEntity = await api.request('POST', '/v1/locations', { key: b.secret, headers, body: { name: 'Same' } });
    expect(otherEntity.status).toBe(201);
    expect(otherEntity.body.id).not.toBe(first.body.id);
    const otherRoute = await api.request('POST', '/v1/manufacturers', { key: a.secret, headers, body: { name: 'Same' } });
    expect(otherRoute.status).toBe(201);
    expect(otherRoute.body.object).toBe('manufacturer');
  });

  it('does not store failures: a retry after a 4xx runs again', async () => {
    const { secret } = await api.newEntity();
    const headers = { 'Idempotency-Key': 'after-conflict' };
    await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Taken' } });
    const conflict = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Taken' } });
    expect(conflict.status).toBe(409);
    await api.request('PATCH', `/v1/locations/${(await api.get(secret, '/v1/locations')).data[0].id}`, {
      key: secret,
      body: { name: 'Renamed' },
    });
    const retry = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Taken' } });
    expect(retry.status).toBe(201);
  });

  it('rejects keys longer than 255 characters with 400 idempotency_key_invalid', async () => {
    const { secret, entity } = await api.newEntity();
    const before = await tenantRowCounts(entity.id);
    const response = await api.request('POST', '/v1/locations', { key: secret, headers: { 'Idempotency-Key': 'k'.repeat(256) }, body: { name: 'Long' } });
    expect(response.status).toBe(400);
    expect(response.error).toMatchObject({ code: 'idempotency_key_invalid', param: 'Idempotency-Key' });
    expect(await tenantRowCounts(entity.id)).toEqual(before);
    const max = await api.request('POST', '/v1/locations', { key: secret, headers: { 'Idempotency-Key': 'k'.repeat(255) }, body: { name: 'Max' } });
    expect(max.status).toBe(201);
  });

  it('makes DELETE and PATCH idempotent too', async () => {
    const { secret } = await api.newEntity();
    const location = (await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Gone' } })).body;
    const headers = { 'Idempotency-Key': 'delete-once' };
    const first = await api.request('DELETE', `/v1/locations/${location.id}`, { key: secret, headers });
    const again = await api.request('DELETE', `/v1/locations/${location.id}`, { key: secret, headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    const without = await api.request('DELETE', `/v1/locations/${location.id}`, { key: secret });
    expect(without.status).toBe(404);
  });

  describe('when the idempotency store fails (after the three attempts of each call)', () => {
    /**
     * Stands between the API and the store: forwards every call but the operations named in
     * `failing`, which it answers with a 500 as DynamoDB does when it cannot serve a call.
     */
    async function storeWith(failing: string[]): Promise<{ endpoint: string; close: () => Promise<void> }> {
      const store = new URL(process.env.AWS_ENDPOINT_URL_DYNAMODB as string);
      const server: Server = createServer((incoming, outgoing) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const operation = String(incoming.headers['x-amz-target']).split('.').pop() as string;
          if (failing.includes(operation)) {
            outgoing.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
            outgoing.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'Internal server error' }));
            return;
          }
          const forwarded = httpRequest(store, { method: 'POST', path: '/', headers: incoming.headers }, (answer) => {
            outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
            answer.pipe(outgoing);
          });
          forwarded.end(Buffer.concat(chunks));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return {
        endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      };
    }

    async function withStore<T>(endpoint: string, work: () => Promise<T>): Promise<T> {
      const real = process.env.AWS_ENDPOINT_URL_DYNAMODB;
      process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoint;
      try {
        return await work();
      } finally {
        process.env.AWS_ENDPOINT_URL_DYNAMODB = real;
      }
    }

    it('answers 503 with Retry-After and runs nothing when the record cannot be saved; the same key then runs once', async () => {
      const { secret, entity } = await api.newEntity();
      const before = await tenantRowCounts(entity.id);
      const headers = { 'Idempotency-Key': 'store-down-before' };
      const failing = await storeWith(['PutItem', 'GetItem', 'UpdateItem', 'DeleteItem']);
      const refused = await withStore(failing.endpoint, () => api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Dock 7' } }));
      await failing.close();
      expect(refused.status).toBe(503);
      expect(refused.error).toMatchObject({ error: 'service_unavailable', code: 'service_unavailable', type: 'internal' });
      expect(refused.error.hint).toMatch(/idempotency store/);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await tenantRowCounts(entity.id)).toEqual(before);
      expect(api.published.filter((e) => e.entity_id === entity.id && e.type === 'location.created')).toHaveLength(0);

      const retried = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Dock 7' } });
      const replayed = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Dock 7' } });
      expect(retried.status).toBe(201);
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body.id).toBe(retried.body.id);
      expect((await tenantRowCounts(entity.id)).locations).toBe(before.locations + 1);
    });

    it("answers with the work's own result when the store fails after it ran, and keeps the key in progress", async () => {
      const { secret, entity } = await api.newEntity();
      const before = await tenantRowCounts(entity.id);
      const headers = { 'Idempotency-Key': 'store-down-after' };
      const failing = await storeWith(['UpdateItem']);
      const created = await withStore(failing.endpoint, () => api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Dock 8' } }));
      await failing.close();
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ object: 'location', name: 'Dock 8' });
      expect((await tenantRowCounts(entity.id)).locations).toBe(before.locations + 1);
      // The record was left in progress: the same key is told to wait rather than run twice.
      const retried = await api.request('POST', '/v1/locations', { key: secret, headers, body: { name: 'Dock 8' } });
      expect(retried.status).toBe(409);
      expect(retried.error.code).toBe('idempotency_key_in_use');
      expect((await tenantRowCounts(entity.id)).locations).toBe(before.locations + 1);
    });

    it("passes the work's own error on when the store cannot release the key after it", async () => {
      const { secret } = await api.newEntity();
      await api.request('POST', '/v1/locations', { key: secret, body: { name: 'Taken twice' } });
      const failing = await storeWith(['DeleteItem']);
      const conflict = await withStore(failing.endpoint, () =>
        api.request('POST', '/v1/locations', { key: secret, headers: { 'Idempotency-Key': 'store-down-error' }, body: { name: 'Taken twice' } }),
      );
      await failing.close();
      expect(conflict.status).toBe(409);
      expect(conflict.error.code).toBe('location_name_taken');
    });

    it("passes a request's own network error on untouched when the store is well", async () => {
      // An error that looks like a store fault (it has a syscall) but came from the work itself.
      const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', syscall: 'read' });
      const logged = vi.spyOn(logger, 'error');
      const context = { getRemainingTimeInMillis: () => 29_000 } as Context;
      try {
        const call = { scope: `own-error-${Date.now()}`, fingerprint: {} };
        await expect(runIdempotent('locations.create', call, context, () => Promise.reject(reset))).rejects.toBe(reset);
        expect(logged).not.toHaveBeenCalled();
      } finally {
        logged.mockRestore();
      }
    });
  });
});
