/**
 * The README's promise, end to end: `npm start` on a fresh data folder brings the API up, prints
 * and saves a demo key, and the README's flows work through the typed client (client/), with
 * every response held to the served OpenAPI document. The reference page renders in Chromium.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ApiClient } from '../../client';
import { conformanceChecker, type OpenApiDocument } from './conformance';
import { startLocalServer, type LocalServer } from './local-server';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** Screenshots and other artefacts of the tests (gitignored). */
const outputDir = path.join(repoRoot, 'test-output');
/** Debian's chromium (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let server: LocalServer;
let conformance: ReturnType<typeof conformanceChecker>;
let api: ApiClient;
let anonymous: ApiClient;

beforeAll(async () => {
  // A fresh npm start: no allowlist of the machine's environment (row 9 tests the default).
  server = await startLocalServer({ WEBHOOK_URL_ALLOWLIST: undefined });
  const document = (await (await fetch(`${server.baseUrl}/v1/openapi.json`)).json()) as OpenApiDocument;
  conformance = conformanceChecker(document);
  api = createClient({ baseUrl: server.baseUrl, apiKey: server.demoKey });
  anonymous = createClient({ baseUrl: server.baseUrl });
  api.use(conformance.middleware);
  anonymous.use(conformance.middleware);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

/** The body of a response the test expects to succeed, or an error naming what came back. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}

describe('npm start', () => {
  it('prints the demo key it saved, the reference page and where events go', () => {
    expect(server.output()).toContain(server.demoKey);
    expect(server.output()).toContain('demo entity');
    expect(server.output()).toMatch(/reference: http:\/\/localhost:\d+\/docs/);
  });

  it('serves the README flow: create, list, fetch with ETag, update, delete', async () => {
    const created = await api.POST('/v1/locations', {
      body: { name: 'Main warehouse', city: 'Austin', country: 'US' },
      params: { header: { 'Idempotency-Key': 'first-location' } },
    });
    expect(created.response.status).toBe(201);
    const location = ok(created);
    expect(location.is_default).toBe(true);
    const list = ok(await api.GET('/v1/locations', { params: { query: { limit: 10 } } }));
    expect(list.data.map((l) => l.id)).toContain(location.id);
    const fetched = await api.GET('/v1/locations/{id}', { params: { path: { id: location.id } } });
    const etag = fetched.response.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    // Sent with its length in one piece, not chunked.
    expect(fetched.response.headers.get('transfer-encoding')).toBeNull();
    expect(Number(fetched.response.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(fetched.data)));
    const unchanged = await api.GET('/v1/locations/{id}', { params: { path: { id: location.id }, header: { 'If-None-Match': etag } } });
    expect(unchanged.response.status).toBe(304);
    const updated = ok(
      await api.PATCH('/v1/locations/{id}', { params: { path: { id: location.id }, header: { 'If-Match': etag } }, body: { phone: '+1 512 555 0100' } }),
    );
    expect(updated.phone).toBe('+1 512 555 0100');
    const manufacturer = ok(await api.POST('/v1/manufacturers', { body: { name: 'Bosch' } }));
    const removed = ok(await api.DELETE('/v1/manufacturers/{id}', { params: { path: { id: manufacturer.id } } }));
    expect(removed.data).toMatchObject({ id: manufacturer.id, name: 'Bosch', deleted: true });
    const keys = ok(
      await api.GET('/v1/entities/{entity_id}/api-keys', {
        params: { path: { entity_id: location.entity_id }, query: { 'expand[]': ['data.created_by_user'] } },
      }),
    );
    expect(keys.data.length).toBeGreaterThanOrEqual(1);
  });

  it('serves the README payment method flow: setup intent, test-helper confirm, attach, list', async () => {
    const account = ok(await api.POST('/v1/accounts', { body: { name: 'Card holder' } }));
    const intent = ok(await api.POST('/v1/accounts/{id}/payment-methods', { params: { path: { id: account.id } }, body: { type: 'card' } }));
    const confirmed = ok(
      await api.POST('/v1/test_helpers/setup_intents/{setup_intent_id}/confirm', {
        params: { path: { setup_intent_id: intent.setup_intent_id } },
        body: { payment_method: 'pm_card_visa' },
      }),
    );
    expect(confirmed).toMatchObject({ status: 'succeeded', payment_method: expect.stringMatching(/^pm_sbx_/) });
    const attached = ok(
      await api.POST('/v1/accounts/{id}/payment-methods/attach', { params: { path: { id: account.id } }, body: { setup_intent_id: intent.setup_intent_id } }),
    );
    expect(attached).toMatchObject({ card_brand: 'visa', last_four: '4242', is_default: true });
    const listed = ok(await api.GET('/v1/account-payment-methods', { params: { query: { account_id: account.id } } }));
    expect(listed.data.map((method) => method.id)).toEqual([attached.id]);
  });

  it("serves the README's first hour: an order, a payment on it, and the events in the data folder", async () => {
    const account = ok(await api.POST('/v1/accounts', { body: { name: 'First customer' } }));
    const product = ok(await api.POST('/v1/products', { body: { sku: 'WIDGET-1', name: 'Widget', list_price: 25 } }));
    const order = ok(
      await api.POST('/v1/orders', { body: { document_type: 'sales_order', account_id: account.id, lines: [{ product_id: product.id, quantity: 2 }] } }),
    );
    expect(order).toMatchObject({ order_total: 50, payment_status: 'unpaid' });
    ok(await api.POST('/v1/orders/{id}/confirm', { params: { path: { id: order.id } } }));
    const payment = ok(await api.POST('/v1/orders/{id}/payments', { params: { path: { id: order.id } }, body: { amount: 50, payment_method: 'check' } }));
    expect(payment).toMatchObject({ amount: 50, order_id: order.id });
    const paid = ok(await api.GET('/v1/orders/{id}', { params: { path: { id: order.id } } }));
    expect(paid).toMatchObject({ amount_paid: 50, payment_status: 'paid' });
    const events = readFileSync(path.join(server.dataDir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: { object: { id: string } } });
    expect(events.filter((event) => event.data.object.id === order.id).map((event) => event.type)).toEqual(
      expect.arrayContaining(['order.created', 'order.confirmed']),
    );
    expect(events.find((event) => event.type === 'payment.created')?.data.object.id).toBe(payment.id);
  });

  it('answers errors in the envelope, with doc_url, and serves the OpenAPI document without a key', async () => {
    const unauthorized = await createClient({ baseUrl: server.baseUrl, apiKey: 'nope' }).GET('/v1/locations');
    expect(unauthorized.response.status).toBe(401);
    conformance.check('GET', '/v1/locations', 401, unauthorized.response.headers.get('content-type'), JSON.stringify(unauthorized.error));
    expect(unauthorized.error).toMatchObject({
      code: 'api_key_malformed',
      doc_url: expect.stringMatching(/^http:\/\/localhost:\d+\/docs#error-api_key_malformed$/),
    });
    const doc = ok(await anonymous.GET('/v1/openapi.json'));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([
      { url: expect.stringMatching(/^http:\/\/localhost:\d+$/), description: 'Local: this machine (npm start).', 'x-internal': false },
    ]);
  });

  it('held every response above to the document, and refuses a drift', () => {
    // One check per call of the tests above: each went through the conformance middleware.
    expect(conformance.checked()).toBe(21);
    // Every request the typed client sent was held to the document too (the 401 above was checked by hand).
    expect(conformance.requestsChecked()).toBe(20);
    const location = { id: 'not-a-uuid', object: 'location' };
    expect(() => conformance.check('GET', '/v1/locations/{id}', 200, 'application/json', JSON.stringify(location))).toThrow(/breaks the document/);
    expect(() => conformance.check('GET', '/v1/locations/{id}', 418, 'application/json', '{}')).toThrow(/status not documented/);
  });
});

describe('requests held to the document', () => {
  it('lets a request the document refuses be refused, and would refuse a drift either way', async () => {
    const unknownMember = { name: 'Annex', nickname: 'x' } as unknown as { name: string };
    const refused = await api.POST('/v1/locations', { body: unknownMember });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({ code: 'parameter_unknown', param: 'nickname' });
    const url = new URL(`${server.baseUrl}/v1/locations?limit=2`);
    expect(conformance.requestProblems('GET', '/v1/locations', url, {}, '')).toEqual([]);
    expect(conformance.requestProblems('GET', '/v1/locations', new URL(`${server.baseUrl}/v1/locations?limit=zero&colour=red`), {}, '')).toEqual([
      'query colour is not declared',
      expect.stringMatching(/^query limit: /),
    ]);
    expect(conformance.requestProblems('POST', '/v1/locations', new URL(`${server.baseUrl}/v1/locations`), {}, JSON.stringify(unknownMember))).toEqual([
      expect.stringMatching(/^body: /),
    ]);
  });
});

describe('row 7: a method the path does not have', () => {
  it('is a 405 method_not_allowed naming the methods in Allow and in the envelope', async () => {
    const response = await fetch(`${server.baseUrl}/v1/accounts`, { method: 'PUT', headers: { Authorization: `Bearer ${server.demoKey}` } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect(await response.json()).toMatchObject({ code: 'method_not_allowed', type: 'validation_error', allow: ['GET', 'POST'] });
  });
});

describe('row 9: webhook receivers on this machine', () => {
  it('are accepted by default at loopback, so a developer can watch deliveries; http elsewhere is refused naming WEBHOOK_URL_ALLOWLIST', async () => {
    const entityId = /demo entity \(test mode\): ([0-9a-f-]{36})/.exec(server.output())![1];
    const create = (url: string) =>
      api.POST('/v1/entities/{entity_id}/webhook-endpoints', { params: { path: { entity_id: entityId } }, body: { url, enabled_events: ['*'] } });
    for (const url of ['http://localhost:4000/hook', 'http://127.0.0.1:4000/hook', 'http://[::1]:4000/hook']) {
      const created = await create(url);
      expect(created.response.status, url).toBe(201);
      expect(ok(created).url, url).toBe(url);
    }
    const insecure = await create('http://93.184.216.34/hook');
    expect(insecure.response.status).toBe(400);
    expect(insecure.error).toMatchObject({ code: 'webhook_url_insecure', param: 'url', hint: expect.stringContaining('WEBHOOK_URL_ALLOWLIST') as unknown });
  });
});

describe('the reference page (/docs) in Chromium', () => {
  it('renders the Orders section, the create-order operation and an anchor per error code, from this server only', async () => {
    if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath}: apt-get install -y chromium (.ci/run does), or set CHROMIUM_PATH`);
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const origin = new URL(server.baseUrl).origin;
      const foreign: string[] = [];
      page.on('response', (response) => {
        // Redoc runs its search in a worker made from a blob of this page: same origin too.
        if (![`${origin}/`, `blob:${origin}/`, 'data:'].some((prefix) => response.url().startsWith(prefix))) foreign.push(response.url());
      });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));

      await page.goto(`${server.baseUrl}/docs#error-order_not_found`);
      const orders = page.locator('[data-section-id="tag/Orders"]');
      await orders.first().waitFor({ timeout: 90_000 });
      await expect(orders.locator('h1, h2').first().textContent()).resolves.toContain('Orders');
      const createOrder = page.locator('[data-section-id="operation/orders.create"]');
      await createOrder.waitFor();
      await expect(createOrder.textContent()).resolves.toContain('/v1/orders');
      // The error anchors: every envelope's doc_url lands on one of these rows.
      const anchor = page.locator('#error-order_not_found');
      await anchor.waitFor();
      await expect(anchor.textContent()).resolves.toContain('order_not_found');
      expect(await page.locator('tr[id^="error-"]').count()).toBeGreaterThan(50);
      expect((await anchor.boundingBox())!.y).toBeLessThan(900); // the page scrolled to it

      mkdirSync(outputDir, { recursive: true });
      await page.screenshot({ path: path.join(outputDir, 'docs-error-anchor.png') });
      // Typed by hand: the tests compile without the DOM's types.
      await createOrder.evaluate((section: { scrollIntoView(): void }) => section.scrollIntoView());
      await page.screenshot({ path: path.join(outputDir, 'docs-create-order.png') });
      expect(foreign).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 150_000);
});
