/**
 * The document says exactly what the server does (issue 42): each `describe` is one of its rules,
 * checked on the document and against the running server, so a generated client or a validating
 * proxy agrees with it.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ROUTES } from '../../functions/routes';
import { checkResponse } from '../../shared/http/route-pipeline';
import type { Route, RouteSchemas } from '../../shared/http/route';
import { newId } from '../../shared/ids';
import { decimalInput, DECIMAL_PLACES_KEYWORD } from '../../shared/money';
import { timestamp } from '../../shared/schemas/common';
import { addDocumentKeywords, conformanceChecker, type OpenApiDocument } from '../e2e/conformance';
import { apWorld } from '../support/ap-fixtures';
import { unchecked } from '../support/client';
import { setupTestApi, type TestEntity } from '../support/harness';
import { seedOrder } from '../support/order-fixtures';

const api = setupTestApi();

type Schema = Record<string, unknown>;
interface Operation {
  requestBody?: { required: boolean; content: { 'application/json': { schema: Schema } } };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface Document extends OpenApiDocument {
  paths: Record<string, Record<string, Operation | undefined>>;
  components: { schemas: Record<string, Schema> };
}

let doc: Document;
let owner: TestEntity;
beforeAll(async () => {
  doc = (await api.request('GET', '/v1/openapi.json')).body as unknown as Document;
  owner = await api.newEntity();
});

/** Every operation of the document with its route. */
function operations(): { route: Route; operation: Operation }[] {
  return ROUTES.flatMap((route) => {
    const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
    return operation ? [{ route, operation }] : [];
  });
}

/** A JSON pointer into the document, as a URI fragment. */
const pointer = (...segments: string[]) => `openapi.json#/${segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;

/**
 * Validators of the document's schemas: as Prism runs Ajv (not strict, unknown keywords ignored),
 * and the same with the document's own x-decimal-places keyword.
 */
function validators(withDocumentKeywords: boolean): (ref: string) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  if (withDocumentKeywords) addDocumentKeywords(ajv);
  ajv.addSchema(doc, 'openapi.json');
  const cache = new Map<string, ValidateFunction>();
  return (ref) => {
    let validate = cache.get(ref);
    if (!validate) cache.set(ref, (validate = ajv.compile({ $ref: ref })));
    return validate;
  };
}

describe('row 1: every response carries only what its schema declares', () => {
  it('every object the server stamps with livemode (an `object` name other than list) declares livemode', () => {
    const missing: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((item) => walk(item, where));
      if (!node || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, { const?: unknown; enum?: unknown[] }> }).properties;
      const name = properties?.object?.const ?? properties?.object?.enum?.[0];
      if (typeof name === 'string' && name !== 'list' && !('livemode' in properties!)) missing.push(`${where} (${name})`);
      for (const [key, inner] of Object.entries(node)) walk(inner, key === 'properties' ? where : `${where}/${key}`);
    };
    for (const [name, schema] of Object.entries(doc.components.schemas)) walk(schema, name);
    for (const { route, operation } of operations()) walk(operation.responses, route.id);
    expect(missing).toEqual([]);
  });

  it('the handler stack refuses a response member its schema does not declare, at any depth (zod strips it, the document refuses it)', () => {
    const route = {
      id: 'test.nested',
      auth: 'api_key',
      response: z.object({ object: z.literal('thing'), applications: z.array(z.object({ id: z.string() })) }),
    } as unknown as Route;
    expect(() => checkResponse(route, { object: 'thing', applications: [{ id: 'a' }] })).not.toThrow();
    expect(() => checkResponse(route, { object: 'thing', applications: [{ id: 'a' }, { id: 'b', livemode: false }] })).toThrow(
      /does not declare: applications\[1\]\.livemode/,
    );
    expect(() => checkResponse(route, { object: 'thing', applications: [], extra: 1 })).toThrow(/does not declare: extra/);
  });

  it('an AP payment as created, read, listed and voided validates against the document; one more member in an application does not', async () => {
    const world = await apWorld(api, owner);
    const bill = await world.postedBill(30);
    const created = await api.request('POST', '/v1/ap-payments', {
      key: owner.secret,
      body: { bills: [{ bill_id: bill.id, amount: 7 }], bank_account_id: world.bankAccountId, method: 'check', reference: '1001' },
    });
    const conformance = conformanceChecker(doc);
    const check = (method: string, path: string, response: { status: number; headers: Headers; text: string }) =>
      conformance.check(method, path, response.status, response.headers.get('content-type'), response.text);
    check('POST', '/v1/ap-payments', created);
    const id = created.body.id;
    expect(created.body.applications).toEqual([expect.objectContaining({ object: 'ap_payment_application', livemode: false })]);
    check('GET', '/v1/ap-payments/{id}', await api.request('GET', `/v1/ap-payments/${id}`, { key: owner.secret }));
    check('GET', '/v1/ap-payments', await api.request('GET', '/v1/ap-payments', { key: owner.secret }));
    check('POST', '/v1/ap-payments/{id}/void', await api.request('POST', `/v1/ap-payments/${id}/void`, { key: owner.secret }));
    expect(conformance.checked()).toBe(4);
    const tampered = { ...created.body, applications: created.body.applications.map((item) => ({ ...item, note: 'x' })) };
    expect(() => conformance.check('GET', '/v1/ap-payments/{id}', 200, 'application/json', JSON.stringify(tampered))).toThrow(/additional properties/);
  });
});

describe('row 2: every number rule the server enforces on an input is in its schema', () => {
  const NUMBERS = [
    0, -0, 0.07, 0.1, 1, 1.5, 10.001, 10.0001, 10.00001, 99.99, 100, 100.0001, 150, 1e-7, 999_999_999_999, 999_999_999_999.01, 1e12, -1, -0.01,
    -999_999_999_999,
  ];
  const TEXTS = [
    '0.07',
    '10.001',
    '10.0001',
    '10.00010',
    '0',
    '0.00',
    '-0.0',
    '00.10',
    '1',
    '-1',
    '-0.5',
    '12.5000',
    '12.50000000000000000000',
    '12.500000000000000000000',
    'abc',
    '1e3',
    '.5',
    '5.',
  ];

  it('states no multipleOf anywhere (float division in Ajv and Prism refuses valid amounts such as 0.07)', () => {
    expect(JSON.stringify(doc)).not.toContain('"multipleOf"');
    // What it would do: Ajv as Prism runs it refuses 0.07 against multipleOf 0.01.
    expect(new Ajv2020().compile({ type: 'number', multipleOf: 0.01 })(0.07)).toBe(false);
  });

  it('for every decimal member of every request body, the document and the server accept and refuse the same values', () => {
    const exact = validators(true);
    const prismLike = validators(false);
    let members = 0;
    for (const { route, operation } of operations()) {
      const schemas: RouteSchemas = route;
      const body = operation.requestBody?.content['application/json'].schema;
      const shape = (schemas.body as z.ZodMiniObject | undefined)?.shape;
      if (!body || !shape) continue;
      for (const [name, member] of Object.entries(shape as Record<string, z.ZodMiniType>)) {
        const documented = (body.properties as Record<string, Schema>)[name];
        if (!JSON.stringify(documented).includes(DECIMAL_PLACES_KEYWORD)) continue;
        members += 1;
        const ref = pointer('paths', route.path, route.method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema', 'properties', name);
        for (const value of NUMBERS) {
          const server = member.safeParse(value).success;
          expect(exact(ref)(value), `${route.id} ${name} = ${value}`).toBe(server);
          // A validator that does not know the keyword may let more through, never refuse what the server takes.
          if (server) expect(prismLike(ref)(value), `${route.id} ${name} = ${value} (Prism)`).toBe(true);
        }
        for (const value of TEXTS) expect(exact(ref)(value), `${route.id} ${name} = "${value}"`).toBe(member.safeParse(value).success);
      }
    }
    expect(members).toBeGreaterThan(30);
  });

  it('states money at 2 decimals, quantities and prices at 4, amounts > 0 as exclusiveMinimum, as the server refuses', async () => {
    const payment = doc.paths['/v1/orders/{id}/payments'].post!.requestBody!.content['application/json'].schema;
    expect((payment.properties as Record<string, Schema>).amount).toMatchObject({
      anyOf: [{ type: 'number', exclusiveMinimum: 0, maximum: 999_999_999_999, [DECIMAL_PLACES_KEYWORD]: 2 }, { type: 'string' }],
    });
    const order = await seedOrder(api, owner);
    const refusal = await api.request('POST', '/v1/orders/{id}/payments'.replace('{id}', order.id) as '/v1/orders/{id}/payments', {
      key: owner.secret,
      body: { amount: 10.001, payment_method: 'check' },
    });
    expect([refusal.status, refusal.error.param]).toEqual([400, 'amount']);
    const exact = validators(true)(pointer('paths', '/v1/orders/{id}/payments', 'post', 'requestBody', 'content', 'application/json', 'schema'));
    expect(exact({ amount: 10.001, payment_method: 'check' })).toBe(false);
    expect(exact({ amount: 0, payment_method: 'check' })).toBe(false);
    expect(exact({ amount: 0.07, payment_method: 'check' })).toBe(true);
    const line = (doc.components.schemas.OrderLineCreate ?? {}).properties as Record<string, Schema> | undefined;
    if (line) expect(JSON.stringify(line.quantity)).toContain(`"${DECIMAL_PLACES_KEYWORD}":4`);
  });

  it('states UTC offsets from -12:00 to +14:00 in every date-time input, as the server refuses', () => {
    const exact = validators(true);
    const server = timestamp();
    let members = 0;
    for (const { route, operation } of operations()) {
      const body = operation.requestBody?.content['application/json'].schema;
      for (const [name, member] of Object.entries((body?.properties ?? {}) as Record<string, Schema>)) {
        if (!JSON.stringify(member).includes('"date-time"')) continue;
        members += 1;
        const validate = exact(
          pointer('paths', route.path, route.method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema', 'properties', name),
        );
        for (const offset of ['Z', '+14:00', '+14:01', '+13:59', '-12:00', '-12:01', '-11:30', '+05:45', '+23:59', '-23:59', '+15:00', '+00:00']) {
          const value = `2030-06-01T10:00:00${offset}`;
          expect(validate(value), `${route.id} ${name} ${value}`).toBe(server.safeParse(value).success);
        }
      }
    }
    expect(members).toBeGreaterThan(0);
    expect(server.safeParse('2030-06-01T10:00:00+14:01').success).toBe(false);
    expect(server.safeParse('2030-06-01T10:00:00-12:00').success).toBe(true);
  });

  it('one rule, two forms: decimalInput states in the document what it enforces', () => {
    const options = { scale: 4, min: 0, exclusiveMin: true } as const;
    const json = z.toJSONSchema(decimalInput(options), { io: 'input', target: 'draft-2020-12' }) as { anyOf: Schema[] };
    expect(json.anyOf[0]).toMatchObject({ type: 'number', exclusiveMinimum: 0, [DECIMAL_PLACES_KEYWORD]: 4 });
    expect(json.anyOf[1].pattern).toBe('^(?!-?0+(?:\\.0+)?$)(?:-(?=0+(?:\\.0+)?$))?\\d{1,20}(?:\\.(?=\\d{1,20}$)\\d{1,4}0*)?$');
  });
});

describe('row 3: requestBody.required exactly where a body is needed, and every body a route reads is declared', () => {
  it('is required when the body schema refuses {} or the route needs one of its alternatives; a POST without parameters declares an optional empty body', () => {
    for (const { route, operation } of operations()) {
      const schemas: RouteSchemas = route;
      if (schemas.body) {
        expect(operation.requestBody?.required, route.id).toBe(route.bodyRequired ?? !schemas.body.safeParse({}).success);
      } else if (route.method === 'POST' && route.auth === 'api_key') {
        expect(operation.requestBody, route.id).toEqual({
          required: false,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/EmptyBody' }, example: {} } },
        });
      } else {
        expect(operation.requestBody, route.id).toBeUndefined();
      }
    }
    const required = (path: string) => doc.paths[path].post!.requestBody!.required;
    expect(
      [
        '/v1/orders/{id}/send',
        '/v1/vendor-bills/{id}/post',
        '/v1/ap-payments/{id}/void',
        '/v1/journal-entries/{id}/reverse',
        '/v1/payments/{payment_id}/refunds',
      ].map(required),
    ).toEqual([false, false, false, false, false]);
    expect(['/v1/orders', '/v1/vendor-bills', '/v1/orders/{id}/adjustments'].map(required)).toEqual([true, true, true]);
  });

  it('a key roll and an order cancel succeed without a body; the cancel reads an empty object and refuses any member, as EmptyBody says', async () => {
    const entity = await api.newEntity();
    const rolled = await api.request(
      'POST',
      `/v1/entities/${entity.entity.id}/api-keys/${entity.key.id}/roll` as '/v1/entities/{entity_id}/api-keys/{id}/roll',
      {
        key: entity.secret,
      },
    );
    expect(rolled.status, rolled.text).toBe(201);
    const first = await seedOrder(api, owner);
    expect((await api.raw('POST', `/v1/orders/${first.id}/cancel`, { key: owner.secret })).status).toBe(200);
    const second = await seedOrder(api, owner);
    await api.expectRefusal(owner, 'POST', `/v1/orders/${second.id}/cancel` as '/v1/orders/{id}/cancel', unchecked({ reason: 'x' }), 400, 'parameter_unknown');
    expect((await api.raw('POST', `/v1/orders/${second.id}/cancel`, { key: owner.secret, body: {} })).status).toBe(200);
    const emptyBody = validators(true)(pointer('components', 'schemas', 'EmptyBody'));
    expect([emptyBody({}), emptyBody({ entity_id: newId() }), emptyBody({ reason: 'x' })]).toEqual([true, true, false]);
  });
});

describe('row 5: entity_id in a body is declared, deprecated, as ignored', () => {
  it('every request body declares entity_id as a deprecated member described as ignored', () => {
    for (const { route, operation } of operations()) {
      const body = operation.requestBody?.content['application/json'].schema;
      if (!body) continue;
      const ref = typeof body.$ref === 'string' ? body.$ref : undefined;
      const schema = (ref ? doc.components.schemas[ref.split('/').pop()!] : body) as { properties: Record<string, Schema> };
      expect(schema.properties.entity_id, route.id).toMatchObject({ deprecated: true, description: expect.stringContaining('Ignored') as unknown });
    }
  });

  it('a body naming any entity_id is valid against the document and the server ignores it', async () => {
    const body = { name: `Ignored entity ${newId().slice(0, 8)}`, entity_id: newId() };
    expect(validators(true)(pointer('paths', '/v1/locations', 'post', 'requestBody', 'content', 'application/json', 'schema'))(body)).toBe(true);
    const created = await api.request('POST', '/v1/locations', { key: owner.secret, body: unchecked(body) });
    expect(created.status, created.text).toBe(201);
    expect(created.body.entity_id).toBe(owner.entity.id);
  });
});

describe('row 6: the reference page is not an operation of the API', () => {
  it('lists only /v1 paths, while /docs and its script are still served', async () => {
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/v1/'))).toEqual([]);
    expect((await api.raw('GET', '/docs')).status).toBe(200);
    expect((await api.raw('GET', '/docs/redoc.standalone.js')).status).toBe(200);
  });
});
