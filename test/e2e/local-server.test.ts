/**
 * The README's promise, end to end: `npm start` on a fresh data folder brings the API up,
 * prints and saves a demo key, and the README's curl flow works through a real HTTP client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../support/client';
import { createFileDatabase } from '../support/harness';

let server: ChildProcess;
let output = '';
let baseUrl: string;
let demoKey: string;
let dataDir: string;
let dropDatabase: () => Promise<void>;

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'bizops-e2e-'));
  const database = await createFileDatabase();
  dropDatabase = database.drop;
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir };
  // With a real PostgreSQL (CI) the server uses a database of its own; otherwise its embedded one.
  if (process.env.DATABASE_URL) env.DATABASE_URL = database.url;
  else delete env.DATABASE_URL;
  server = spawn(process.execPath, ['--import', 'tsx', 'local/server.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout!.on('data', (chunk) => (output += chunk));
  server.stderr!.on('data', (chunk) => (output += chunk));
  await waitFor(() => output.includes('listening on'), 90_000);
  await waitFor(() => /bo_test_ent_demo_\w{32}/.test(output), 10_000);
  baseUrl = `http://127.0.0.1:${port}`;
  demoKey = readFileSync(path.join(dataDir, 'demo-key.txt'), 'utf8').trim();
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await dropDatabase?.();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = createClient(() => baseUrl);

describe('npm start', () => {
  it('prints the demo key it saved, with every scope', () => {
    expect(output).toContain(demoKey);
    expect(output).toContain('demo entity');
  });

  it('serves the README flow: create, list, fetch with ETag, update, delete', async () => {
    const created = await api.request('POST', '/v1/locations', { key: demoKey, body: { name: 'Main warehouse', city: 'Austin', country: 'US' } });
    expect(created.status).toBe(201);
    expect(created.body.is_default).toBe(true);
    const list = await api.request('GET', '/v1/locations', { key: demoKey });
    expect(list.body.data.map((l) => l.id)).toContain(created.body.id);
    const fetched = await api.request('GET', `/v1/locations/${created.body.id}`, { key: demoKey });
    expect(fetched.headers.get('etag')).toBeTruthy();
    const updated = await api.request('PATCH', `/v1/locations/${created.body.id}`, { key: demoKey, body: { phone: '+1 512 555 0100' } });
    expect(updated.body.phone).toBe('+1 512 555 0100');
    const manufacturer = await api.request('POST', '/v1/manufacturers', { key: demoKey, body: { name: 'Bosch' } });
    expect(manufacturer.status).toBe(201);
    const removed = await api.request('DELETE', `/v1/manufacturers/${manufacturer.body.id}`, { key: demoKey });
    expect(removed.body.data).toMatchObject({ id: manufacturer.body.id, name: 'Bosch', deleted: true });
    const keys = await api.request('GET', `/v1/entities/${created.body.entity_id}/api-keys`, { key: demoKey });
    expect(keys.body.data.length).toBeGreaterThanOrEqual(1);
  });

  it('serves the README payment method flow: setup intent, test-helper confirm, attach, list', async () => {
    const account = await api.request('POST', '/v1/accounts', { key: demoKey, body: { name: 'Card holder' } });
    expect(account.status).toBe(201);
    const intent = await api.request('POST', `/v1/accounts/${account.body.id}/payment-methods`, { key: demoKey, body: { type: 'card' } });
    expect(intent.status).toBe(201);
    const confirmed = await api.request('POST', `/v1/test_helpers/setup_intents/${intent.body.setup_intent_id}/confirm`, {
      key: demoKey,
      body: { payment_method: 'pm_card_visa' },
    });
    expect(confirmed.body).toMatchObject({ status: 'succeeded', payment_method: expect.stringMatching(/^pm_sbx_/) });
    const attached = await api.request('POST', `/v1/accounts/${account.body.id}/payment-methods/attach`, {
      key: demoKey,
      body: { setup_intent_id: intent.body.setup_intent_id },
    });
    expect(attached.status).toBe(201);
    expect(attached.body).toMatchObject({ card_brand: 'visa', last_four: '4242', is_default: true });
    const listed = await api.request('GET', '/v1/account-payment-methods', { key: demoKey, query: { account_id: account.body.id } });
    expect(listed.body.data.map((method) => method.id)).toEqual([attached.body.id]);
  });

  it('answers errors in the envelope and serves the OpenAPI document without a key', async () => {
    const unauthorized = await api.request('GET', '/v1/locations', { key: 'nope' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.error).toMatchObject({ code: 'api_key_malformed', request_id: expect.any(String) });
    const doc = await api.request('GET', '/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
  });
});
