/**
 * Fuzz requests: for a random operation, a valid request (real ids of the caller's world in the
 * path, valid query, a valid body) with one thing broken, named by a category label
 * (`body.money-string`, `path.upper-uuid`...). Mostly one mutation on a nearly valid request, so
 * validation passes and the handlers run; sometimes the request stays valid and changes state.
 *
 * Generation depends only on the seed and the world's shape (how many ids of each kind), never
 * on responses, so a seed names the same request sequence on every run.
 */
import fc from 'fast-check';
import type { Operation } from './operations';
import { alternatives, isDecimalSchema, isUuidSchema, valueArbitrary, type IdPool, type JsonSchema } from './schema-arbitrary';

export interface FuzzWorld {
  secret: string;
  entityId: string;
  /** Path parameters of a seeded record, by route path (`/v1/orders/{id}` → { id }). */
  params: Record<string, Record<string, string>>;
  ids: IdPool;
  /** Valid bodies by operation id (the security matrix's samples, with real ids). */
  samples: Record<string, unknown>;
}

export interface FuzzRequest {
  label: string;
  operation: string;
  method: string;
  /** Path and query as sent, already percent-encoded (or deliberately malformed). */
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** The body carries a Luhn-valid card number: accepting it (2xx) is a defect. */
  cardNumber?: boolean;
}

/** JSON text spliced into the serialised body as is (1e999, 6,000 brackets). */
class RawJson {
  constructor(readonly text: string) {}
}

type Json = unknown;
type Location = { path: (string | number)[]; schema: JsonSchema };

interface Draft {
  label: string;
  op: Operation;
  pathValues: Record<string, string>;
  /** Replaces one encoded path segment value as is (malformed escapes). */
  rawPathValues: Record<string, string>;
  query: [string, string][];
  rawQuery?: string;
  body?: Json;
  rawBody?: string;
  headers: Record<string, string>;
  method?: string;
  rawUrl?: string;
  cardNumber?: boolean;
}

const INJECTION = [
  "' OR '1'='1",
  "'; DROP TABLE orders; --",
  '" OR ""="',
  '1; SELECT pg_sleep(5)',
  '$$; SELECT 1; $$',
  '<script>alert(1)</script>',
  '${7*7}',
  '{{7*7}}',
  '../../../../etc/passwd',
  '%s%s%s%n',
  '\r\nX-Injected: 1',
  '\u202Egnp.exe',
  '🙂👩‍👩‍👧‍👦',
  'null',
  'undefined',
  '__proto__',
  '\\',
  '%00',
  'a'.repeat(300),
];

const MONEY_STRINGS = [
  'abc',
  '',
  ' ',
  '1e5',
  'NaN',
  'Infinity',
  '-Infinity',
  '1,000.00',
  '0x1A',
  '１２３',
  '12.3.4',
  '--1',
  '+1',
  '.5',
  '5.',
  '1_000',
  '99999999999999999999999999999.99',
  '-0',
  '0.000000000001',
  ' 12',
  '12 ',
  '4242424242424242',
];

const CARD_NUMBERS = [
  '4242424242424242',
  '4111 1111 1111 1111',
  '5555-5555-5555-4444',
  'card 378282246310005 exp 12/30',
  '6011111111111117',
  'pan:4000056655665556',
];
const LONE_SURROGATES = ['\ud800', 'a\udfffb', '\udbff', 'x\ud83d'];
const NON_FINITE = [
  '1e999',
  '-1e999',
  '1e309',
  '123456789012345678901234567890',
  '1e308',
  '-0',
  '5e-324',
  '1e-400',
  '1E+2',
  '0.1e1',
  '1e19',
  '99999999999999999999',
  '-99999999999999999999',
  '999999999999999.99995',
];
/** Values a decimal field's pattern may let through but a numeric(19,4) column or a rule may not. */
const EDGE_DECIMALS = [
  '99999999999999999999',
  '9999999999999999.9999',
  '0.00000000000000000001',
  '-1',
  '0',
  '-0.01',
  '0.001',
  '1000000000000000',
  '-99999999999999999999.99999999999999999999',
];
const EDGE_INTEGERS = ['2147483648', '-2147483649', '9007199254740993', '1e300', '4294967296', '-1', '0'];
const EDGE_DATES = ['0000-01-01', '0001-01-01', '9999-12-31', '1900-02-28', '2000-02-29', '1969-12-31', '2038-01-19'];
const EDGE_TIMES = [
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999999999Z',
  '2000-02-29T12:00:00+23:59',
  '1970-01-01T00:00:00.1234567891234Z',
  '2024-06-30T23:59:59-00:00',
];
const NOT_OBJECTS = ['[]', '[{}]', '"text"', '42', 'null', 'true', '1e999'];
const INVALID_JSON = [
  '{',
  '{"a":}',
  "{'name':'x'}",
  '{"name":"x",}',
  'NaN',
  '\ufeff{}',
  '{"a":1}{"b":2}',
  '{"name":"\\x41"}',
  '{"name":"a\nb"}',
  '{"a":01}',
  'undefined',
  '<xml/>',
  '{"name": "x"} trailing',
  '\u0000',
  '{"a":"\\u12"}',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/jsonx',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  '',
];
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', '__proto__[admin]'];
const WRONG_TYPES: Json[] = ['x', 123, -1, 1.5, true, false, null, {}, [], [1, 2], { a: 1 }, [null]];
const QUERY_WRONG = ['abc', '-1', '0', '1.5', 'true', '', ' ', '[]', '{}', 'null', '2020-13-45', '9999-99-99T99:99:99Z'];
const HUGE_LIMITS = ['1e999', '99999999999999999999', '101', '1000000', '-1', '0', '1.5', 'Infinity', 'NaN', '0x10', ' 5', '5abc', '１０'];
const BAD_ESCAPES = ['%zz', '%E0%A4%A', '%', '%%', '%C0%AF', '%ED%A0%80', '%FF'];
const NOT_UUIDS = ['abc', '1', 'null', 'undefined', '-1', '0', '{id}', '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'];

const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const deepObject = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

function clone(value: Json): Json {
  if (value instanceof RawJson) return value;
  if (Array.isArray(value)) return value.map(clone);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, clone(inner)]));
  return value;
}

/** The schema a value meets, picking the matching anyOf option. */
function resolve(schema: JsonSchema, value: Json): JsonSchema {
  if (!schema.anyOf) return schema;
  const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value === 'object' ? 'object' : undefined;
  return schema.anyOf.find((option) => option.type === kind) ?? schema.anyOf.find((option) => option.type === 'object' || option.type === 'array') ?? schema;
}

/** Every place in a body a value can go: existing values, absent properties, metadata keys. */
function locations(schema: JsonSchema, value: Json, path: (string | number)[] = []): Location[] {
  const out: Location[] = [];
  const resolved = resolve(schema, value);
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      const items = resolved.items ?? {};
      out.push({ path: [...path, index], schema: items }, ...locations(items, item, [...path, index]));
    });
  } else if (value && typeof value === 'object' && !(value instanceof RawJson)) {
    const record = value as Record<string, Json>;
    for (const [key, inner] of Object.entries(resolved.properties ?? {})) {
      out.push({ path: [...path, key], schema: inner });
      if (key in record) out.push(...locations(inner, record[key], [...path, key]));
    }
    if (typeof resolved.additionalProperties === 'object') out.push({ path: [...path, 'fuzz_key'], schema: resolved.additionalProperties });
  }
  return out;
}

function setAt(body: Json, path: (string | number)[], value: Json): Json {
  if (path.length === 0) return value;
  const root = clone(body) as Record<string | number, Json>;
  let current = root;
  for (const key of path.slice(0, -1)) current = current[key] as Record<string | number, Json>;
  current[path[path.length - 1]] = value;
  return root;
}

function removeAt(body: Json, path: (string | number)[]): Json {
  const root = clone(body) as Record<string | number, Json>;
  let current = root;
  for (const key of path.slice(0, -1)) current = current[key] as Record<string | number, Json>;
  const last = path[path.length - 1];
  if (Array.isArray(current)) current.splice(Number(last), 1);
  else delete current[last];
  return root;
}

/** Required properties present in the body, as locations (to remove one). */
function requiredLocations(schema: JsonSchema, value: Json, path: (string | number)[] = []): (string | number)[][] {
  const resolved = resolve(schema, value);
  const out: (string | number)[][] = [];
  if (Array.isArray(value)) value.forEach((item, index) => out.push(...requiredLocations(resolved.items ?? {}, item, [...path, index])));
  else if (value && typeof value === 'object' && !(value instanceof RawJson)) {
    const record = value as Record<string, Json>;
    for (const key of resolved.required ?? []) if (key in record) out.push([...path, key]);
    for (const [key, inner] of Object.entries(resolved.properties ?? {})) if (key in record) out.push(...requiredLocations(inner, record[key], [...path, key]));
  }
  return out;
}

function serialise(body: Json): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value instanceof RawJson) {
      raws.push(value.text);
      return `@@fuzz-raw-${raws.length - 1}@@`;
    }
    return value;
  });
  return text.replace(/"@@fuzz-raw-(\d+)@@"/g, (_, index: string) => raws[Number(index)]);
}

/** Percent-encodes a query or path value; lone surrogates become the bytes of their (invalid) UTF-8 form. */
function encode(value: string): string {
  return value
    .replace(/[\ud800-\udfff]/g, '\ufffd')
    .split('')
    .map((ch) => (/[A-Za-z0-9\-_.~]/.test(ch) ? ch : encodeURIComponent(ch)))
    .join('');
}

function buildUrl(draft: Draft): string {
  if (draft.rawUrl) return draft.rawUrl;
  const path = draft.op.path.replace(/\{(\w+)\}/g, (_, name: string) => draft.rawPathValues[name] ?? encode(draft.pathValues[name] ?? ''));
  const query = draft.rawQuery ?? draft.query.map(([name, value]) => `${encode(name).replace(/%5B%5D$/, '[]')}=${encode(value)}`).join('&');
  return query ? `${path}?${query}` : path;
}

function finish(draft: Draft): FuzzRequest {
  const headers = { ...draft.headers };
  let body = draft.rawBody;
  if (body === undefined && draft.body !== undefined) body = serialise(draft.body);
  if (body !== undefined && !('content-type' in headers)) headers['content-type'] = 'application/json';
  return {
    label: draft.label,
    operation: draft.op.id,
    method: draft.method ?? draft.op.method,
    url: buildUrl(draft),
    headers,
    body,
    ...(draft.cardNumber && { cardNumber: true }),
  };
}

type Mutation = { weight: number; label: string; applies?: (draft: Draft) => boolean; mutate: (draft: Draft) => fc.Arbitrary<Draft> };

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const withLabel = (draft: Draft, label: string, change: Partial<Draft>): Draft => ({ ...draft, ...change, label });

const hasBody = (draft: Draft) => draft.op.body !== undefined && draft.body !== undefined;
const bodyLocations = (draft: Draft, filter: (location: Location) => boolean = () => true) =>
  draft.op.body ? locations(draft.op.body, draft.body).filter(filter) : [];
const stringLocation = (location: Location) => {
  return alternatives(location.schema).some((schema) => schema.type === 'string' && !schema.enum && !schema.format && !schema.pattern);
};

/** Sets a value at one body location matching `filter` (or any location), labelled. */
function atLocation(label: string, values: fc.Arbitrary<Json>, filter?: (location: Location) => boolean): Mutation['mutate'] {
  return (draft) => {
    let candidates = bodyLocations(draft, filter);
    if (candidates.length === 0) candidates = bodyLocations(draft);
    if (candidates.length === 0) return values.map((value) => withLabel(draft, label, { body: { fuzz: value } }));
    return fc.tuple(pick(candidates), values).map(([location, value]) => withLabel(draft, label, { body: setAt(draft.body, location.path, value) }));
  };
}

function mutations(world: FuzzWorld): Mutation[] {
  const allIds = world.ids('*');
  const upperId = allIds.length ? pick(allIds).map((id) => id.toUpperCase()) : fc.uuid().map((id) => id.toUpperCase());
  const queryNames = (draft: Draft) => draft.op.query.map((parameter) => parameter.name).filter((name) => name !== 'expand[]');
  const setQuery = (draft: Draft, name: string, value: string): [string, string][] => [...draft.query.filter(([key]) => key !== name), [name, value]];
  const pathParamNames = (draft: Draft) => draft.op.pathParams.map((parameter) => parameter.name);
  const hasPathParams = (draft: Draft) => draft.op.pathParams.length > 0;
  const pathValue =
    (label: string, values: fc.Arbitrary<string>, raw = false): Mutation['mutate'] =>
    (draft) =>
      fc
        .tuple(pick(pathParamNames(draft)), values)
        .map(([name, value]) =>
          withLabel(draft, label, raw ? { rawPathValues: { ...draft.rawPathValues, [name]: value } } : { pathValues: { ...draft.pathValues, [name]: value } }),
        );
  return [
    { weight: 22, label: 'valid', mutate: (draft) => fc.constant(draft) },
    // Body: one thing wrong in a nearly valid body.
    { weight: 6, label: 'body.wrong-type', applies: hasBody, mutate: atLocation('body.wrong-type', pick(WRONG_TYPES)) },
    {
      weight: 3,
      label: 'body.missing-required',
      applies: (draft) => hasBody(draft) && requiredLocations(draft.op.body!, draft.body).length > 0,
      mutate: (draft) =>
        pick(requiredLocations(draft.op.body!, draft.body)).map((path) => withLabel(draft, 'body.missing-required', { body: removeAt(draft.body, path) })),
    },
    {
      weight: 2,
      label: 'body.unknown-field',
      applies: hasBody,
      mutate: (draft) =>
        fc
          .tuple(pick(['fuzz', 'Name', 'entity', 'id', 'object', 'created_at', 'amount ']), pick(WRONG_TYPES))
          .map(([key, value]) => withLabel(draft, 'body.unknown-field', { body: { ...(draft.body as object), [key]: value } })),
    },
    {
      weight: 3,
      label: 'body.huge-string',
      applies: hasBody,
      mutate: atLocation('body.huge-string', pick(['A'.repeat(100_000), '€'.repeat(40_000), 'x'.repeat(1_000_000)]), stringLocation),
    },
    {
      weight: 3,
      label: 'body.deep-nesting',
      applies: hasBody,
      mutate: atLocation('body.deep-nesting', pick([new RawJson(deepArray(6000)), new RawJson(deepObject(6000)), new RawJson(deepArray(200))])),
    },
    {
      weight: 1,
      label: 'body.deep-nesting-whole',
      mutate: (draft) =>
        pick([deepArray(6000), `{"a":${deepObject(6000)}}`, deepObject(100_000)]).map((rawBody) => withLabel(draft, 'body.deep-nesting-whole', { rawBody })),
    },
    { weight: 3, label: 'body.nul', applies: hasBody, mutate: atLocation('body.nul', pick(['a\u0000b', '\u0000', 'x\u0000'.repeat(3)]), stringLocation) },
    { weight: 1, label: 'body.nul-any', applies: hasBody, mutate: atLocation('body.nul-any', pick(['a\u0000b', '\u0000'])) },
    { weight: 3, label: 'body.lone-surrogate', applies: hasBody, mutate: atLocation('body.lone-surrogate', pick(LONE_SURROGATES), stringLocation) },
    {
      weight: 1,
      label: 'body.nul-key',
      applies: hasBody,
      mutate: (draft) =>
        pick(['a\u0000b', '\ud800']).map((key) => withLabel(draft, 'body.nul-key', { body: { ...(draft.body as object), metadata: { [key]: 'v' } } })),
    },
    { weight: 4, label: 'body.non-finite', applies: hasBody, mutate: atLocation('body.non-finite', pick(NON_FINITE.map((text) => new RawJson(text)))) },
    {
      weight: 4,
      label: 'body.non-finite-number-field',
      applies: (draft) => hasBody(draft) && bodyLocations(draft, (location) => isDecimalSchema(location.schema)).length > 0,
      mutate: atLocation('body.non-finite-number-field', pick(NON_FINITE.map((text) => new RawJson(text))), (location) => isDecimalSchema(location.schema)),
    },
    { weight: 4, label: 'body.injection', applies: hasBody, mutate: atLocation('body.injection', pick(INJECTION), stringLocation) },
    {
      weight: 6,
      label: 'body.money-string',
      applies: (draft) => hasBody(draft) && bodyLocations(draft, (location) => isDecimalSchema(location.schema)).length > 0,
      mutate: atLocation('body.money-string', pick(MONEY_STRINGS), (location) => isDecimalSchema(location.schema)),
    },
    {
      weight: 4,
      label: 'body.card-number',
      applies: hasBody,
      mutate: (draft) => atLocation('body.card-number', pick(CARD_NUMBERS), stringLocation)(draft).map((next) => ({ ...next, cardNumber: true })),
    },
    {
      weight: 4,
      label: 'body.upper-uuid',
      applies: (draft) => hasBody(draft) && bodyLocations(draft, (location) => isUuidSchema(location.schema)).length > 0,
      mutate: atLocation('body.upper-uuid', upperId, (location) => isUuidSchema(location.schema)),
    },
    {
      weight: 3,
      label: 'body.edge-decimal',
      applies: (draft) => hasBody(draft) && bodyLocations(draft, (location) => isDecimalSchema(location.schema)).length > 0,
      mutate: atLocation(
        'body.edge-decimal',
        fc.tuple(pick(EDGE_DECIMALS), fc.boolean()).map(([text, asNumber]) => (asNumber ? new RawJson(text) : text)),
        (location) => isDecimalSchema(location.schema),
      ),
    },
    {
      weight: 2,
      label: 'body.edge-integer',
      applies: (draft) =>
        hasBody(draft) && bodyLocations(draft, (location) => alternatives(location.schema).some((schema) => schema.type === 'integer')).length > 0,
      mutate: atLocation('body.edge-integer', pick(EDGE_INTEGERS.map((text) => new RawJson(text))), (location) =>
        alternatives(location.schema).some((schema) => schema.type === 'integer'),
      ),
    },
    {
      weight: 2,
      label: 'body.edge-date',
      applies: (draft) =>
        hasBody(draft) &&
        bodyLocations(draft, (location) => alternatives(location.schema).some((schema) => schema.format === 'date' || schema.format === 'date-time')).length >
          0,
      mutate: (draft) => {
        const dated = bodyLocations(draft, (location) =>
          alternatives(location.schema).some((schema) => schema.format === 'date' || schema.format === 'date-time'),
        );
        return pick(dated).chain((location) =>
          pick(alternatives(location.schema).some((schema) => schema.format === 'date') ? EDGE_DATES : EDGE_TIMES).map((value) =>
            withLabel(draft, 'body.edge-date', { body: setAt(draft.body, location.path, value) }),
          ),
        );
      },
    },
    {
      weight: 2,
      label: 'body.max-length',
      applies: (draft) =>
        hasBody(draft) && bodyLocations(draft, (location) => alternatives(location.schema).some((schema) => schema.maxLength !== undefined)).length > 0,
      mutate: (draft) => {
        const bounded = bodyLocations(draft, (location) => alternatives(location.schema).some((schema) => schema.maxLength !== undefined));
        return fc.tuple(pick(bounded), pick(['x', '€', '🙂', 'ß']), fc.boolean()).map(([location, unit, over]) => {
          const max = alternatives(location.schema).find((schema) => schema.maxLength !== undefined)!.maxLength!;
          const text = unit.repeat(Math.ceil(max / unit.length) + (over ? 1 : 0)).slice(0, max + (over ? 1 : 0));
          return withLabel(draft, 'body.max-length', { body: setAt(draft.body, location.path, text) });
        });
      },
    },
    { weight: 2, label: 'body.blank-string', applies: hasBody, mutate: atLocation('body.blank-string', pick(['', ' ', '\t', '\n', '\u200b']), stringLocation) },
    {
      weight: 2,
      label: 'body.duplicate-item',
      applies: (draft) => hasBody(draft) && bodyLocations(draft, (location) => typeof location.path[location.path.length - 1] === 'number').length > 0,
      mutate: (draft) => {
        const items = bodyLocations(draft, (location) => typeof location.path[location.path.length - 1] === 'number');
        return pick(items).map((location) => {
          const arrayPath = location.path.slice(0, -1);
          let array: Json = draft.body;
          for (const key of arrayPath) array = (array as Record<string | number, Json>)[key];
          const list = array as Json[];
          return withLabel(draft, 'body.duplicate-item', {
            body: setAt(draft.body, arrayPath, [...list, clone(list[Number(location.path[location.path.length - 1])])]),
          });
        });
      },
    },
    {
      weight: 2,
      label: 'body.proto-key',
      applies: hasBody,
      mutate: (draft) =>
        pick(PROTO_KEYS).map((key) => {
          const text = serialise(draft.body);
          const inner = `${JSON.stringify(key)}:{"admin":true,"entity_id":"x"}`;
          return withLabel(draft, 'body.proto-key', { rawBody: text === '{}' ? `{${inner}}` : text.replace(/^\{/, `{${inner},`) });
        }),
    },
    { weight: 2, label: 'body.not-object', mutate: (draft) => pick(NOT_OBJECTS).map((rawBody) => withLabel(draft, 'body.not-object', { rawBody })) },
    { weight: 3, label: 'body.invalid-json', mutate: (draft) => pick(INVALID_JSON).map((rawBody) => withLabel(draft, 'body.invalid-json', { rawBody })) },
    {
      weight: 3,
      label: 'body.content-type',
      mutate: (draft) =>
        fc.tuple(pick(CONTENT_TYPES), fc.boolean()).map(([type, drop]) => {
          const body = draft.body === undefined ? {} : draft.body;
          return withLabel(
            draft,
            'body.content-type',
            drop
              ? { rawBody: serialise(body), headers: { ...draft.headers, 'content-type': '' } }
              : { body, headers: { ...draft.headers, 'content-type': type } },
          );
        }),
    },
    {
      weight: 1,
      label: 'body.huge-array',
      applies: (draft) =>
        hasBody(draft) && bodyLocations(draft, (location) => alternatives(location.schema).some((schema) => schema.type === 'array')).length > 0,
      mutate: (draft) => {
        const arrays = bodyLocations(draft, (location) => alternatives(location.schema).some((schema) => schema.type === 'array'));
        return pick(arrays).map((location) =>
          withLabel(draft, 'body.huge-array', {
            body: setAt(
              draft.body,
              location.path,
              Array.from({ length: 10_000 }, () => 'x'),
            ),
          }),
        );
      },
    },
    {
      weight: 1,
      label: 'body.unexpected',
      applies: (draft) => draft.op.body === undefined,
      mutate: (draft) => pick<Json>([{}, { a: 1 }, { name: 'x' }, []]).map((body) => withLabel(draft, 'body.unexpected', { body })),
    },
    {
      weight: 0.3,
      label: 'body.too-large',
      mutate: (draft) => fc.constant(withLabel(draft, 'body.too-large', { body: { name: 'x'.repeat(6.5 * 1024 * 1024) } })),
    },
    // Query string.
    {
      weight: 3,
      label: 'query.wrong-type',
      applies: (draft) => queryNames(draft).length > 0,
      mutate: (draft) =>
        fc
          .tuple(pick(queryNames(draft)), pick(QUERY_WRONG))
          .map(([name, value]) => withLabel(draft, 'query.wrong-type', { query: setQuery(draft, name, value) })),
    },
    {
      weight: 2,
      label: 'query.unknown-key',
      mutate: (draft) =>
        pick(['foo', 'Limit', 'entity_id', 'page', 'offset', 'q[]']).map((name) =>
          withLabel(draft, 'query.unknown-key', { query: [...draft.query, [name, '1']] }),
        ),
    },
    {
      weight: 3,
      label: 'query.proto-key',
      mutate: (draft) =>
        fc
          .tuple(pick(PROTO_KEYS), pick(['1', '', 'x']))
          .map(([name, value]) => withLabel(draft, 'query.proto-key', { query: [...draft.query, [name, value]] })),
    },
    {
      weight: 2,
      label: 'query.nul',
      mutate: (draft) =>
        fc
          .tuple(fc.option(pick(queryNames(draft).length ? queryNames(draft) : ['sku'])), pick(['a\u0000b', '\u0000']))
          .map(([name, value]) => withLabel(draft, 'query.nul', { query: name === null ? [...draft.query, [value, '1']] : setQuery(draft, name, value) })),
    },
    {
      weight: 2,
      label: 'query.surrogate',
      applies: (draft) => queryNames(draft).length > 0,
      mutate: (draft) =>
        fc
          .tuple(pick(queryNames(draft)), pick(['%ED%A0%80', 'a%ED%B0%80b', '%F0%9F%98%80', '%C3%28']))
          .map(([name, value]) => withLabel(draft, 'query.surrogate', { rawQuery: `${encode(name).replace(/%5B%5D$/, '[]')}=${value}` })),
    },
    {
      weight: 3,
      label: 'query.huge-limit',
      applies: (draft) => queryNames(draft).includes('limit'),
      mutate: (draft) => pick(HUGE_LIMITS).map((value) => withLabel(draft, 'query.huge-limit', { query: setQuery(draft, 'limit', value) })),
    },
    {
      weight: 3,
      label: 'query.unknown-expand',
      mutate: (draft) =>
        pick<[string, string][]>([
          [['expand[]', 'nope']],
          [['expand[]', 'data.nope']],
          [['expand', 'account.nope.nope.nope']],
          [['expand[]', '__proto__']],
          [['expand[]', '']],
          Array.from({ length: 200 }, (): [string, string] => ['expand[]', 'data.account']),
          [['expand[]', 'a'.repeat(5000)]],
        ]).map((pairs) => withLabel(draft, 'query.unknown-expand', { query: [...draft.query, ...pairs] })),
    },
    {
      weight: 1,
      label: 'query.repeated',
      applies: (draft) => draft.query.length > 0,
      mutate: (draft) => pick(draft.query).map((pair) => withLabel(draft, 'query.repeated', { query: [...draft.query, pair] })),
    },
    {
      weight: 2,
      label: 'query.injection',
      applies: (draft) => queryNames(draft).length > 0,
      mutate: (draft) =>
        fc.tuple(pick(queryNames(draft)), pick(INJECTION)).map(([name, value]) => withLabel(draft, 'query.injection', { query: setQuery(draft, name, value) })),
    },
    {
      weight: 1,
      label: 'query.huge-string',
      applies: (draft) => queryNames(draft).length > 0,
      mutate: (draft) => pick(queryNames(draft)).map((name) => withLabel(draft, 'query.huge-string', { query: setQuery(draft, name, 'A'.repeat(10_000)) })),
    },
    {
      weight: 2,
      label: 'query.edge-date',
      applies: (draft) =>
        draft.op.query.some((parameter) => alternatives(parameter.schema).some((schema) => schema.format === 'date' || schema.format === 'date-time')),
      mutate: (draft) => {
        const dated = draft.op.query.filter((parameter) =>
          alternatives(parameter.schema).some((schema) => schema.format === 'date' || schema.format === 'date-time'),
        );
        return pick(dated).chain((parameter) =>
          pick(alternatives(parameter.schema).some((schema) => schema.format === 'date') ? EDGE_DATES : EDGE_TIMES).map((value) =>
            withLabel(draft, 'query.edge-date', { query: setQuery(draft, parameter.name, value) }),
          ),
        );
      },
    },
    {
      weight: 2,
      label: 'query.upper-uuid',
      applies: (draft) => draft.op.query.some((parameter) => isUuidSchema(parameter.schema)),
      mutate: (draft) =>
        fc
          .tuple(pick(draft.op.query.filter((parameter) => isUuidSchema(parameter.schema)).map((parameter) => parameter.name)), upperId)
          .map(([name, value]) => withLabel(draft, 'query.upper-uuid', { query: setQuery(draft, name, value) })),
    },
    {
      weight: 2,
      label: 'query.bad-escape',
      mutate: (draft) =>
        fc
          .tuple(pick(queryNames(draft).length ? queryNames(draft) : ['sku']), pick(BAD_ESCAPES))
          .map(([name, value]) => withLabel(draft, 'query.bad-escape', { rawQuery: `${encode(name).replace(/%5B%5D$/, '[]')}=${value}` })),
    },
    // Path parameters.
    {
      weight: 4,
      label: 'path.upper-uuid',
      applies: hasPathParams,
      mutate: (draft) =>
        pick(pathParamNames(draft)).map((name) =>
          withLabel(draft, 'path.upper-uuid', { pathValues: { ...draft.pathValues, [name]: draft.pathValues[name].toUpperCase() } }),
        ),
    },
    { weight: 2, label: 'path.not-uuid', applies: hasPathParams, mutate: pathValue('path.not-uuid', pick(NOT_UUIDS)) },
    { weight: 2, label: 'path.random-uuid', applies: hasPathParams, mutate: pathValue('path.random-uuid', fc.uuid()) },
    { weight: 2, label: 'path.nul', applies: hasPathParams, mutate: pathValue('path.nul', pick(['\u0000', 'a\u0000b'])) },
    { weight: 2, label: 'path.bad-escape', applies: hasPathParams, mutate: pathValue('path.bad-escape', pick(BAD_ESCAPES), true) },
    { weight: 1, label: 'path.long', applies: hasPathParams, mutate: pathValue('path.long', pick(['a'.repeat(2000), 'f'.repeat(8000)])) },
    { weight: 1, label: 'path.injection', applies: hasPathParams, mutate: pathValue('path.injection', pick(INJECTION)) },
    {
      weight: 1,
      label: 'path.encoded-slash',
      applies: hasPathParams,
      mutate: pathValue('path.encoded-slash', pick(['%2F..%2F', '..', '.', '%2e%2e', '%5C']), true),
    },
    // Headers.
    {
      weight: 2,
      label: 'header.idempotency-key',
      applies: (draft) => draft.op.idempotencyKey,
      mutate: (draft) =>
        pick(['fuzz-key-1', 'fuzz-key-2', 'fuzz-key-1', '', ' ', 'k'.repeat(300), 'key with spaces', 'k\u00e9y', '\t']).map((key) =>
          withLabel(draft, 'header.idempotency-key', { headers: { ...draft.headers, 'idempotency-key': key } }),
        ),
    },
    {
      weight: 1,
      label: 'header.if-match',
      mutate: (draft) =>
        fc
          .tuple(pick(['if-match', 'if-none-match']), pick(['*', '"abc"', 'W/"x"', 'garbage', '"' + 'a'.repeat(4000) + '"', ',,,', '""']))
          .map(([name, value]) => withLabel(draft, 'header.conditional', { headers: { ...draft.headers, [name]: value } })),
    },
    {
      weight: 1,
      label: 'header.authorization',
      mutate: (draft) =>
        pick([
          '',
          'Bearer ',
          'Bearer bo_test_ent_x_AAAA',
          `Bearer ${world.secret.toUpperCase()}`,
          `Bearer ${world.secret} `,
          `Bearer ${world.secret.replace('_test_', '_live_')}`,
          `bearer ${world.secret}`,
          `Basic ${Buffer.from('a:b').toString('base64')}`,
          `Bearer ${'A'.repeat(5000)}`,
          `Bearer ${world.secret}%00`,
          "Bearer ' OR 1=1 --",
        ]).map((value) => {
          const headers = { ...draft.headers };
          if (value) headers.authorization = value;
          else delete headers.authorization;
          return withLabel(draft, 'header.authorization', { headers });
        }),
    },
    // The URL as a whole (the local gateway's own parsing).
    {
      weight: 1,
      label: 'url.over-long',
      mutate: (draft) =>
        pick([17_000, 70_000]).map((length) =>
          withLabel(draft, 'url.over-long', { rawUrl: `${buildUrl(draft)}${draft.query.length ? '&' : '?'}q=${'a'.repeat(length)}` }),
        ),
    },
    {
      weight: 1,
      label: 'url.unknown-route',
      mutate: (draft) =>
        pick([
          '/v1/nope',
          '/v2/products',
          '/',
          '/v1',
          '/v1/products/x/y/z',
          '/v1/openapi.json/x',
          '/V1/PRODUCTS',
          '/v1/%zz',
          '/v1/products%00',
          '*',
          '/v1/products/%',
        ]).map((rawUrl) => withLabel(draft, 'url.unknown-route', { rawUrl })),
    },
    {
      weight: 1,
      label: 'url.method',
      mutate: (draft) => pick(['PUT', 'OPTIONS', 'TRACE', 'PATCH', 'DELETE', 'POST', 'GET']).map((method) => withLabel(draft, 'url.method', { method })),
    },
    {
      weight: 1,
      label: 'url.odd-shape',
      mutate: (draft) =>
        pick(['//', '/./', '/../v1/']).map((join) =>
          withLabel(draft, 'url.odd-shape', { rawUrl: buildUrl(draft).replace('/v1/', join === '/../v1/' ? join : `${join}v1${join}`) }),
        ),
    },
  ];
}

/** A body the route accepts: its security-matrix sample (ids made real) or one generated from its schema. */
function bodyArbitrary(op: Operation, world: FuzzWorld): fc.Arbitrary<Json> {
  if (!op.body) return fc.constant(undefined);
  const generated = valueArbitrary(op.body, 'body', world.ids);
  const sample = world.samples[op.id];
  if (sample === undefined) return generated;
  return fc.oneof({ weight: 3, arbitrary: realIds(sample, op.body, world) }, { weight: 2, arbitrary: generated });
}

/** The sample with every id swapped for one of the world's ids of the same property name. */
function realIds(sample: Json, schema: JsonSchema, world: FuzzWorld): fc.Arbitrary<Json> {
  const uuidPaths = locations(schema, sample).filter((location) => {
    let value: Json = sample;
    for (const key of location.path) value = value && typeof value === 'object' ? (value as Record<string | number, Json>)[key] : undefined;
    return typeof value === 'string' && isUuidSchema(location.schema);
  });
  if (uuidPaths.length === 0) return fc.constant(sample);
  return fc
    .tuple(...uuidPaths.map((location) => valueArbitrary(location.schema, nameOf(location.path), world.ids)))
    .map((values) => uuidPaths.reduce<Json>((body, location, index) => setAt(body, location.path, values[index]), sample));
}

function nameOf(path: (string | number)[]): string {
  const named = [...path].reverse().find((key) => typeof key === 'string');
  return typeof named === 'string' ? named : 'id';
}

function queryArbitrary(op: Operation, world: FuzzWorld): fc.Arbitrary<[string, string][]> {
  const parameters = op.query.map((parameter) => {
    const name = parameter.name.replace(/\[\]$/, '');
    const value = parameter.name.endsWith('[]')
      ? (valueArbitrary(parameter.schema, name, world.ids) as fc.Arbitrary<unknown[]>).map((values) =>
          values.slice(0, 2).map((value): [string, string] => [parameter.name, String(value)]),
        )
      : valueArbitrary(parameter.schema, name, world.ids).map((value): [string, string][] => [[parameter.name, String(value)]]);
    return parameter.required ? value : fc.option(value, { freq: 3 }).map((pairs) => pairs ?? []);
  });
  return fc.tuple(...parameters).map((lists) => lists.flat());
}

function draftArbitrary(op: Operation, world: FuzzWorld): fc.Arbitrary<Draft> {
  const seeded = world.params[op.path] ?? {};
  const pathValues = Object.fromEntries(op.pathParams.map((parameter) => [parameter.name, seeded[parameter.name] ?? '00000000-0000-4000-8000-000000000000']));
  return fc.tuple(queryArbitrary(op, world), bodyArbitrary(op, world)).map(([query, body]): Draft => ({
    label: 'valid',
    op,
    pathValues,
    rawPathValues: {},
    query,
    body,
    headers: op.auth ? { authorization: `Bearer ${world.secret}` } : {},
  }));
}

/** Requests over every operation: a nearly valid request with (usually) one mutation. */
export function requestArbitrary(operations: Operation[], world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const all = mutations(world);
  return pick(operations)
    .chain((op) => draftArbitrary(op, world))
    .chain((draft) => {
      const applicable = all.filter((mutation) => !mutation.applies || mutation.applies(draft));
      return fc
        .oneof(...applicable.map((mutation) => ({ weight: Math.max(1, Math.round(mutation.weight * 10)), arbitrary: fc.constant(mutation) })))
        .chain((mutation) => mutation.mutate(draft));
    })
    .map(finish);
}
