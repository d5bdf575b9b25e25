/**
 * Input limits (issue 10): every malformed or hostile input is a 4xx envelope with its code and
 * param and writes nothing; card numbers are refused wherever they sit in a body and never reach
 * a log line. Gateway-level limits (URL, headers, query key names, path escapes) are in
 * gateway-limits.test.ts.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { handler as createLocation } from '../../functions/locations/create-location';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH, MAX_STRING_LENGTH } from '../../shared/http/validation';
import { unchecked } from '../support/client';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';
import { salesWorld, type SalesWorld } from '../support/worlds';

const api = setupTestApi();

const PAN = '4111111111111111';
const PAN_DIGITS = /4111|1111/;

/** Nested `{ a: { a: ... } }` objects, `levels` deep counting the outermost. */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

let world: SalesWorld;
let owner: TestEntity;

beforeAll(async () => {
  world = await salesWorld(api);
  owner = world.owner;
});

describe('money and quantity fields', () => {
  it('refuse non-numeric, exponent, non-finite and over-long values with 400 parameter_invalid and the field', async () => {
    const line = { product_id: world.widget.id, quantity: 1 };
    const base = { document_type: 'sales_order', account_id: world.account.id, lines: [line] };
    const cases: [unknown, string][] = [
      [{ ...base, shipping_total: 'abc' }, 'shipping_total'],
      [{ ...base, shipping_total: 'NaN' }, 'shipping_total'],
      [{ ...base, shipping_total: 'Infinity' }, 'shipping_total'],
      [{ ...base, shipping_total: '1e5' }, 'shipping_total'],
      [{ ...base, shipping_total: '9'.repeat(5000) }, 'shipping_total'],
      [{ ...base, lines: [{ ...line, quantity: 'abc' }] }, 'lines[0].quantity'],
      [{ ...base, lines: [line, { ...line, unit_price: '12abc' }] }, 'lines[1].unit_price'],
      [{ ...base, lines: [{ ...line, discount_percent: '-' }] }, 'lines[0].discount_percent'],
    ];
    for (const [body, param] of cases) {
      await api.expectRefusal(owner, 'POST', '/v1/orders', unchecked(body), 400, 'parameter_invalid', param);
    }
    await api.expectRefusal(owner, 'POST', '/v1/products', unchecked({ sku: 'NUM-1', name: 'n', list_price: 'abc' }), 400, 'parameter_invalid', 'list_price');
    // A journal line checks its two sides together; a side that failed its own check must not reach that rule.
    for (const debit of ['', 'NaN', ' ', '0x1A']) {
      const entry = { entry_date: '2026-03-10', lines: [{ account_id: world.account.id, debit }] };
      await api.expectRefusal(owner, 'POST', '/v1/journal-entries', unchecked(entry), 400, 'parameter_invalid', 'lines[0].debit');
    }
    const template = { name: 'r', frequency: 'monthly', start_date: '2026-03-10', template_lines: [{ account_id: world.account.id, debit: 1, credit: 'x' }] };
    await api.expectRefusal(owner, 'POST', '/v1/recurring-journal-entries', unchecked(template), 400, 'parameter_invalid', 'template_lines[0].credit');
    const receipt = { product_id: world.widget.id, location_id: world.location.id, quantity: 'abc', unit_cost: 1 };
    await api.expectRefusal(owner, 'POST', '/v1/inventory/receipts', unchecked(receipt), 400, 'parameter_invalid', 'quantity');
  });

  it('refuse a JSON number too large to be finite (1e400) as 400, not 500', async () => {
    const before = await tenantRowCounts(owner.entity.id);
    const rawBody = `{"document_type":"sales_order","account_id":"${world.account.id}","shipping_total":1e400,"lines":[]}`;
    const response = await api.raw('POST', '/v1/orders', { key: owner.secret, rawBody, headers: { 'Content-Type': 'application/json' } });
    expect([response.status, response.error.code, response.error.param]).toEqual([400, 'parameter_invalid', 'shipping_total']);
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });
});

describe('strings', () => {
  it('refuse NUL and unpaired surrogates in body values and keys, in the query and in the path, naming where', async () => {
    await api.expectRefusal(owner, 'POST', '/v1/locations', { name: 'a\u0000b' }, 400, 'parameter_invalid', 'name');
    await api.expectRefusal(owner, 'POST', '/v1/locations', { name: 'ok', metadata: { note: 'x\ud800' } }, 400, 'parameter_invalid', 'metadata.note');
    await api.expectRefusal(owner, 'POST', '/v1/locations', { name: 'ok', metadata: { 'k\u0000': 'v' } }, 400, 'parameter_invalid', 'metadata.k\ufffd');
    await api.expectRefusal(owner, 'POST', '/v1/accounts', { name: '\udc00' }, 400, 'parameter_invalid', 'name');
    const query = await api.request('GET', '/v1/products', { key: owner.secret, query: { sku: 'a\u0000' } });
    expect([query.status, query.error.code, query.error.param]).toEqual([400, 'parameter_invalid', 'sku']);
    const path = await api.raw('GET', '/v1/locations/%00', { key: owner.secret });
    expect([path.status, path.error.code, path.error.param]).toEqual([400, 'parameter_invalid', 'id']);
  });

  it(`refuse a string over ${MAX_STRING_LENGTH} characters anywhere, and a multi-megabyte one as 413`, async () => {
    const long = 'x'.repeat(MAX_STRING_LENGTH + 1);
    await api.expectRefusal(owner, 'POST', '/v1/locations', { name: long }, 400, 'parameter_invalid', 'name');
    await api.expectRefusal(owner, 'POST', '/v1/locations', { name: 'ok', metadata: { note: long } }, 400, 'parameter_invalid', 'metadata.note');
    await api.expectRefusal(owner, 'POST', '/v1/products', unchecked({ sku: 'S', name: 'n', extra: long }), 400, 'parameter_invalid', 'extra');
    await api.expectRefusal(owner, 'POST', '/v1/locations', { name: 'y'.repeat(3 * 1024 * 1024) }, 413, 'request_too_large');
    const query = await api.request('GET', '/v1/products', { key: owner.secret, query: { sku: 'q'.repeat(MAX_STRING_LENGTH + 1) } });
    // Over the URL limit first: a query this long never reaches the handler.
    expect([query.status, query.error.code]).toEqual([414, 'uri_too_long']);
  });
});

describe('JSON depth', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses one more with the path, before any walk`, async () => {
    // The body object is level 1; metadata values must be strings, so this depth fails the schema, not the limit.
    const atLimit = await api.request('POST', '/v1/locations', { key: owner.secret, body: unchecked({ name: 'deep', metadata: nested(MAX_JSON_DEPTH - 1) }) });
    expect([atLimit.status, atLimit.error.code, atLimit.error.param]).toEqual([400, 'parameter_invalid', 'metadata.a']);
    const error = await api.expectRefusal(
      owner,
      'POST',
      '/v1/locations',
      unchecked({ name: 'deep', metadata: nested(MAX_JSON_DEPTH) }),
      400,
      'parameter_invalid',
    );
    expect(error.param).toBe(`metadata${'.a'.repeat(MAX_JSON_DEPTH - 1)}`);
    expect(error.hint).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
  });

  it('refuses a 6,000-deep 36 KB body on a write route with 400, quickly', async () => {
    const rawBody = '['.repeat(6000) + ']'.repeat(6000);
    for (const [path, bodyText] of [
      ['/v1/locations', `{"name":"x","metadata":${rawBody}}`],
      ['/v1/orders', rawBody],
    ] as const) {
      const before = await tenantRowCounts(owner.entity.id);
      const started = performance.now();
      const response = await api.raw('POST', path, { key: owner.secret, rawBody: bodyText, headers: { 'Content-Type': 'application/json' } });
      expect([response.status, response.error.code]).toEqual([400, 'parameter_invalid']);
      expect(performance.now() - started).toBeLessThan(2000);
      expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
    }
  });
});

describe('body size on the Lambda path', () => {
  it(`answers 413 request_too_large for a body over ${MAX_BODY_BYTES} bytes without the local gateway`, async () => {
    const event = {
      httpMethod: 'POST',
      path: '/v1/locations',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'big', metadata: { note: 'z'.repeat(MAX_BODY_BYTES) } }),
      isBase64Encoded: false,
      requestContext: {
        requestId: 'req_lambda_413',
        authorizer: { entityId: owner.entity.id, entityCode: 'x', keyId: 'k', userId: 'u', mode: 'test', scopes: 'settings:write' },
      },
    } as unknown as APIGatewayProxyEvent;
    const result = await createLocation(event, {} as Context);
    expect(result.statusCode).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ code: 'request_too_large', request_id: 'req_lambda_413' });
  });
});

describe('UUIDs in any case', () => {
  it('are accepted in path, query and body on every kind of route, and come back lower case', async () => {
    const upper = (id: string) => id.toUpperCase();
    const kit = await api.post(owner, '/v1/kits', {
      sku: 'CASE-KIT',
      product_name: 'Case kit',
      components: [{ component_product_id: upper(world.widget.id), quantity_per_kit: 1 }],
    });
    expect(kit.components[0].component_product_id).toBe(world.widget.id);
    const component = kit.components[0].id;
    expect((await api.get(owner, `/v1/kits/${upper(kit.id)}`)).id).toBe(kit.id);
    expect((await api.get(owner, `/v1/kits/${upper(kit.id)}/components/${upper(component)}`)).id).toBe(component);
    await api.get(owner, `/v1/kits/${upper(kit.id)}/availability`, { location_id: upper(world.location.id) });
    expect((await api.get(owner, `/v1/locations/${upper(world.location.id)}`)).id).toBe(world.location.id);
    expect((await api.get(owner, `/v1/accounts/${upper(world.account.id)}`)).id).toBe(world.account.id);

    const order = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: upper(world.account.id),
      location_id: upper(world.location.id),
      lines: [{ product_id: upper(world.widget.id), quantity: 1 }],
    });
    expect([order.account_id, order.location_id, order.lines[0].product_id]).toEqual([world.account.id, world.location.id, world.widget.id]);
    expect((await api.get(owner, `/v1/orders/${upper(order.id)}`)).id).toBe(order.id);
    const listed = await api.get(owner, '/v1/orders', { document_type: 'sales_order', account_id: upper(world.account.id) });
    expect(listed.data.map((row) => row.id)).toContain(order.id);
    const page = await api.get(owner, '/v1/products', { limit: '1', starting_after: upper(world.gadget.id) });
    expect(page.data.map((row) => row.id)).not.toContain(world.gadget.id);
    const patched = await api.patch(owner, `/v1/orders/${upper(order.id)}/items/${upper(order.lines[0].id)}`, { quantity: 2 });
    expect([patched.id, patched.quantity]).toEqual([order.lines[0].id, 2]);
  });

  it('refuses a malformed id as 400 parameter_invalid on the param', async () => {
    await api.expectRefusal(
      owner,
      'POST',
      '/v1/orders',
      unchecked({ document_type: 'sales_order', account_id: 'not-a-uuid' }),
      400,
      'parameter_invalid',
      'account_id',
    );
    const response = await api.raw('GET', '/v1/kits/NOT-A-UUID', { key: owner.secret });
    expect([response.status, response.error.code, response.error.param]).toEqual([400, 'parameter_invalid', 'id']);
  });
});

describe('card numbers', () => {
  const logged: string[] = [];
  const capture = () => {
    logged.length = 0;
    const keep = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
    vi.spyOn(console, 'log').mockImplementation(keep);
    vi.spyOn(console, 'error').mockImplementation(keep);
    vi.spyOn(console, 'warn').mockImplementation(keep);
    vi.spyOn(console, 'info').mockImplementation(keep);
    const write = (chunk: unknown) => {
      logged.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(write);
    vi.spyOn(process.stderr, 'write').mockImplementation(write);
  };
  afterEach(() => vi.restoreAllMocks());

  it('are refused under any field name, in text, metadata, arrays and numbers, with the JSON path', async () => {
    const line = { product_id: world.widget.id, quantity: 1 };
    const order = { document_type: 'sales_order', account_id: world.account.id, lines: [line] };
    const cases: [string, unknown, string][] = [
      ['/v1/orders', { ...order, notes: `call re card ${PAN.replace(/(\d{4})/g, '$1 ').trim()}` }, 'notes'],
      ['/v1/orders', { ...order, metadata: { cc: PAN } }, 'metadata.cc'],
      ['/v1/orders', { ...order, lines: [{ ...line, notes: `pan ${PAN}` }] }, 'lines[0].notes'],
      ['/v1/orders', { ...order, external_order_id: '4242-4242-4242-4242' }, 'external_order_id'],
      ['/v1/orders', { ...order, shipping_total: Number(PAN) }, 'shipping_total'],
      ['/v1/orders', { ...order, lines: [{ ...line, quantity: Number(PAN) }] }, 'lines[0].quantity'],
      ['/v1/accounts', { name: 'Acme card', account_number: PAN }, 'account_number'],
      ['/v1/locations', { name: 'Card', metadata: { [PAN]: 'x' } }, 'metadata.****************'],
    ];
    for (const [path, body, param] of cases) {
      const error = await api.expectRefusal(owner, 'POST', path as '/v1/orders', unchecked(body), 400, 'raw_card_data_refused', param);
      expect(JSON.stringify(error)).not.toMatch(PAN_DIGITS);
    }
    await api.expectRefusal(
      owner,
      'POST',
      '/v1/accounts',
      { name: 'Bank', metadata: { bank_details: '021000021 000123456789' } },
      400,
      'raw_bank_data_refused',
      'metadata.bank_details',
    );
  });

  it('accept ordinary long identifiers: UUIDs, Amazon-style order numbers, a GTIN in a barcode field', async () => {
    const created = await api.post(owner, '/v1/orders', {
      document_type: 'sales_order',
      account_id: world.account.id,
      external_order_id: '113-1234567-1234567',
      metadata: { barcode: '0000000000000', ref: world.widget.id },
      lines: [{ product_id: world.widget.id, quantity: 1 }],
    });
    expect(created.external_order_id).toBe('113-1234567-1234567');
  });

  it('never reach a log line, whatever the field kind (money, quantity, text, metadata, query, path)', async () => {
    capture();
    const line = { product_id: world.widget.id, quantity: 1 };
    const order = { document_type: 'sales_order', account_id: world.account.id, lines: [line] };
    const bodies: unknown[] = [
      { ...order, shipping_total: Number(PAN) },
      { ...order, shipping_total: PAN },
      { ...order, lines: [{ ...line, quantity: PAN }] },
      { ...order, lines: [{ ...line, quantity: Number(PAN) }] },
      { ...order, notes: PAN },
      { ...order, metadata: { cc: PAN } },
      { ...order, account_id: PAN },
      { ...order, lines: [{ ...line, product_id: `${PAN}\u0000` }] },
    ];
    for (const body of bodies) {
      const response = await api.raw('POST', '/v1/orders', { key: owner.secret, body });
      expect(response.status, response.text).toBeGreaterThanOrEqual(400);
      expect(response.status, response.text).toBeLessThan(500);
    }
    const reads = [
      await api.raw('GET', '/v1/products', { key: owner.secret, query: { sku: PAN } }),
      await api.raw('GET', '/v1/orders', { key: owner.secret, query: { account_id: PAN } }),
      await api.raw('GET', `/v1/orders/${PAN}`, { key: owner.secret }),
      await api.raw('GET', `/v1/locations/${PAN}`, { key: owner.secret }),
      await api.raw('GET', `/v1/products/${PAN}%00`, { key: owner.secret }),
    ];
    for (const response of reads) expect(response.status, response.text).toBeLessThan(500);
    vi.restoreAllMocks();
    expect(logged.join('\n')).not.toMatch(PAN_DIGITS);
  });
});
