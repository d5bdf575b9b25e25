/**
 * The cutover through the running local server (`npm start`), as a migration team drives it: a
 * freeze, the snapshot answered 202 at once and polled until available (the repository's state
 * machine definition run by aws-local-stepfunctions, stub branch), the migration.snapshot_taken
 * event in the events feed and delivered to a webhook endpoint, then the unfreeze. Also the
 * refusals: a wrong freeze token, a key missing one of the two scopes, a snapshot while not frozen,
 * and a normal key writing while frozen.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from './local-server';

let server: LocalServer;
let receiver: http.Server;
let receiverUrl: string;
const received: { type: string; snapshotId: string }[] = [];
let entityId: string;

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const event = JSON.parse(body) as { type: string; data: { object: { snapshot_id: string } } };
      received.push({ type: event.type, snapshotId: event.data.object.snapshot_id });
      response.writeHead(200);
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://localhost:${(receiver.address() as AddressInfo).port}/hooks`;
  server = await startLocalServer({ WEBHOOK_URL_ALLOWLIST: 'localhost', WEBHOOK_POLL_MS: '100' });
  const location = await call('POST', '/v1/locations', { name: 'Cutover e2e' });
  entityId = String(location.body.entity_id);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(method: string, path: string, body?: unknown, key = server.demoKey): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const cutover = (rest: string) => `/v1/entities/${entityId}/migration/cutover${rest}`;

async function keyWith(scopes: string[]): Promise<string> {
  const created = await call('POST', `/v1/entities/${entityId}/api-keys`, { scopes });
  expect(created.status).toBe(201);
  return String(created.body.secret);
}

describe('cutover on the local server', () => {
  it('refuses a snapshot while the entity is not frozen: 409 entity_not_frozen', async () => {
    const refused = await call('POST', cutover('/snapshot'), { freeze_token: '0190f7d2-7b5c-7cc0-8000-00000000000a', description: 'not frozen' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'entity_not_frozen' });
    expect((await call('GET', cutover('/snapshots'))).body.data).toEqual([]);
  });

  it('freeze → 202 snapshot → polled to available → migration.snapshot_taken in the feed and at the webhook → unfreeze', async () => {
    const endpoint = await call('POST', `/v1/entities/${entityId}/webhook-endpoints`, { url: receiverUrl, enabled_events: ['migration.snapshot_taken'] });
    expect(endpoint.status).toBe(201);
    const writer = await keyWith(['products:write', 'migration:write']);
    const adminOnly = await keyWith(['migration:admin']);
    const writeOnly = await keyWith(['migration:write']);

    const frozen = await call('POST', cutover('/freeze'), { description: 'go-live' });
    expect(frozen.status).toBe(200);
    expect(frozen.body).toMatchObject({ object: 'cutover_freeze', frozen: true, freeze_token: expect.any(String) });
    const token = String(frozen.body.freeze_token);

    // Writes of a key without migration:admin are refused; its reads continue.
    const blocked = await call('POST', '/v1/products', { sku: 'FROZEN-1', name: 'Written while frozen' }, writer);
    expect(blocked.status).toBe(409);
    expect(blocked.body).toMatchObject({ code: 'entity_frozen' });
    expect((await call('GET', '/v1/products', undefined, writer)).status).toBe(200);

    // Both scopes are needed; the refusal names the missing one.
    for (const [key, missing] of [
      [adminOnly, 'migration:write'],
      [writeOnly, 'migration:admin'],
    ]) {
      const refused = await call('POST', cutover('/snapshot'), { freeze_token: token, description: 'one scope' }, key);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'insufficient_scope', required: missing });
    }

    const wrong = await call('POST', cutover('/snapshot'), { freeze_token: '0190f7d2-7b5c-7cc0-8000-00000000000b', description: 'wrong token' });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toMatchObject({ code: 'freeze_token_mismatch', param: 'freeze_token' });

    const startedAt = Date.now();
    const started = await call('POST', cutover('/snapshot'), { freeze_token: token, description: 'go-live snapshot' });
    expect(started.status).toBe(202);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    expect(started.body).toMatchObject({
      object: 'db_snapshot',
      livemode: false,
      entity_id: entityId,
      status: 'creating',
      percent_progress: 0,
      env: 'dev',
      dev_stub: true,
      db_instance_id: 'local-dev',
      cutover_log_id: expect.any(String),
    });
    const snapshotId = String(started.body.snapshot_id);

    const deadline = Date.now() + 20_000;
    const progress: number[] = [];
    let snapshot = started.body;
    while (snapshot.status === 'creating' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      snapshot = (await call('GET', cutover(`/snapshots/${snapshotId}`))).body;
      progress.push(Number(snapshot.percent_progress));
    }
    expect(snapshot).toMatchObject({ status: 'available', percent_progress: 100, failure_reason: null });
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const events = await call('GET', `/v1/entities/${entityId}/events?type=migration.snapshot_taken`);
    expect((events.body.data as { data: { object: { snapshot_id: string } } }[]).map((event) => event.data.object.snapshot_id)).toEqual([snapshotId]);
    while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual([{ type: 'migration.snapshot_taken', snapshotId }]);

    const lifted = await call('POST', cutover('/unfreeze'));
    expect(lifted.status).toBe(200);
    expect(lifted.body).toMatchObject({ frozen: false, freeze_token: null });
    expect((await call('POST', '/v1/products', { sku: 'THAWED-1', name: 'Written after the freeze' }, writer)).status).toBe(201);

    const log = await call('GET', cutover('/log'));
    expect((log.body.data as { action: string }[]).map((entry) => entry.action)).toEqual(['unfreeze', 'snapshot', 'freeze']);
  });
});
