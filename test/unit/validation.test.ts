import { describe, expect, it } from 'vitest';
import { statusOf } from '../../shared/http/error-status';
import * as z from 'zod/mini';
import { ApiError } from '../../shared/errors';
import { ROUTES } from '../../functions/routes';
import type { RouteSchemas } from '../../shared/http/route';
import { checkInputValue, formatParam, isArraySchema, MAX_JSON_DEPTH, MAX_STRING_LENGTH, parseOrThrow } from '../../shared/http/validation';

function errorOf(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError');
}

const kit = z.strictObject({
  name: z.string(),
  quantity: z.optional(z.number().check(z.int(), z.gte(1))),
  components: z.optional(z.array(z.strictObject({ sku: z.string(), quantity_per_kit: z.number() }))),
  address: z.optional(z.strictObject({ city: z.optional(z.string()), country: z.optional(z.string().check(z.length(2))) })),
});

describe('formatParam', () => {
  it('joins object keys with dots and array indexes with brackets', () => {
    expect(formatParam(['components', 2, 'quantity_per_kit'])).toBe('components[2].quantity_per_kit');
    expect(formatParam(['a', 'b', 'c'])).toBe('a.b.c');
    expect(formatParam(['matrix', 0, 1])).toBe('matrix[0][1]');
  });

  it('returns the empty string for an empty path without prefix', () => {
    expect(formatParam([])).toBe('');
  });

  it('returns just the prefix for an empty path', () => {
    expect(formatParam([], 'metadata')).toBe('metadata');
  });

  it('continues from a prefix with a dot for keys and brackets for indexes', () => {
    expect(formatParam(['color'], 'metadata')).toBe('metadata.color');
    expect(formatParam([3, 'sku'], 'lines')).toBe('lines[3].sku');
  });

  it('does not start with a dot when the first part is a key', () => {
    expect(formatParam(['name'])).toBe('name');
    expect(formatParam(['name'], '')).toBe('name');
  });
});

describe('parseOrThrow', () => {
  it('returns the parsed data when valid', () => {
    expect(parseOrThrow(kit, { name: 'Kit', quantity: 2 })).toEqual({ name: 'Kit', quantity: 2 });
  });

  it('maps a missing required field to parameter_missing naming the field', () => {
    const error = errorOf(() => parseOrThrow(kit, {}));
    expect(error.code).toBe('parameter_missing');
    expect(statusOf(error)).toBe(400);
    expect(error.options.param).toBe('name');
    expect(error.toEnvelope('r').hint).toBe('Missing required parameter: name.');
  });

  it('maps a wrong type to parameter_invalid', () => {
    const error = errorOf(() => parseOrThrow(kit, { name: 42 }));
    expect(error.code).toBe('parameter_invalid');
    expect(error.options.param).toBe('name');
  });

  it('maps null for a required string to parameter_invalid, not parameter_missing', () => {
    const error = errorOf(() => parseOrThrow(kit, { name: null }));
    expect(error.code).toBe('parameter_invalid');
    expect(error.options.param).toBe('name');
  });

  it('maps a failed refinement (min) to parameter_invalid', () => {
    const error = errorOf(() => parseOrThrow(kit, { name: 'Kit', quantity: 0 }));
    expect(error.code).toBe('parameter_invalid');
    expect(error.options.param).toBe('quantity');
  });

  it('maps an unknown key in a strict object to parameter_unknown naming the key', () => {
    const error = errorOf(() => parseOrThrow(kit, { name: 'Kit', colour: 'red' }));
    expect(error.code).toBe('parameter_unknown');
    expect(error.options.param).toBe('colour');
    expect(error.toEnvelope('r').hint).toBe('Received unknown parameter: colour.');
  });

  it('names a nested unknown key with its path (a.b)', () => {
    const error = errorOf(() => parseOrThrow(kit, { name: 'Kit', address: { street: 'Main St' } }));
    expect(error.code).toBe('parameter_unknown');
    expect(error.options.param).toBe('address.street');
  });

  it('names an unknown key inside an array item with its index', () => {
    const error = errorOf(() => parseOrThrow(kit, { name: 'Kit', components: [{ sku: 'a', quantity_per_kit: 1, note: 'x' }] }));
    expect(error.code).toBe('parameter_unknown');
    expect(error.options.param).toBe('components[0].note');
  });

  it('includes the array index of a missing nested field', () => {
    const components = [{ sku: 'a', quantity_per_kit: 1 }, { sku: 'b', quantity_per_kit: 2 }, { sku: 'c' }];
    const error = errorOf(() => parseOrThrow(kit, { name: 'Kit', components }));
    expect(error.code).toBe('parameter_missing');
    expect(error.options.param).toBe('components[2].quantity_per_kit');
  });

  it('includes the array index of an invalid nested field', () => {
    const error = errorOf(() => parseOrThrow(kit, { name: 'Kit', components: [{ sku: 'a', quantity_per_kit: 'one' }] }));
    expect(error.code).toBe('parameter_invalid');
    expect(error.options.param).toBe('components[0].quantity_per_kit');
  });

  it('puts the prefix in front of the param', () => {
    const schema = z.strictObject({ color: z.string() });
    expect(errorOf(() => parseOrThrow(schema, {}, 'metadata')).options.param).toBe('metadata.color');
    expect(errorOf(() => parseOrThrow(schema, { color: 'red', size: 1 }, 'metadata')).options.param).toBe('metadata.size');
  });

  it('uses the prefix alone for a root-level failure', () => {
    const error = errorOf(() => parseOrThrow(z.string(), 42, 'body'));
    expect(error.code).toBe('parameter_invalid');
    expect(error.options.param).toBe('body');
  });

  it('leaves param out for a root-level failure without prefix', () => {
    const error = errorOf(() => parseOrThrow(z.string(), 42));
    expect(error.code).toBe('parameter_invalid');
    expect(error.options.param).toBeUndefined();
    expect(error.toEnvelope('r')).not.toHaveProperty('param');
  });

  it('reports the first issue only', () => {
    const error = errorOf(() => parseOrThrow(z.strictObject({ a: z.string(), b: z.string() }), {}));
    expect(error.options.param).toBe('a');
  });
});

describe('isArraySchema', () => {
  it('is true for arrays, however wrapped in optional, default or nullable', () => {
    expect(isArraySchema(z.array(z.string()))).toBe(true);
    expect(isArraySchema(z.optional(z.array(z.string())))).toBe(true);
    expect(isArraySchema(z._default(z.array(z.string()), []))).toBe(true);
    expect(isArraySchema(z._default(z.optional(z.array(z.string())), []))).toBe(true);
    expect(isArraySchema(z.optional(z.nullable(z.array(z.string()))))).toBe(true);
  });

  it('is false for scalars and objects, wrapped or not', () => {
    expect(isArraySchema(z.string())).toBe(false);
    expect(isArraySchema(z.optional(z.string()))).toBe(false);
    expect(isArraySchema(z._default(z.coerce.number(), 25))).toBe(false);
    expect(isArraySchema(z.object({ a: z.array(z.string()) }))).toBe(false);
  });
});

describe('checkInputValue', () => {
  const refusal = (value: unknown, prefix?: string) => errorOf(() => checkInputValue(value, prefix));

  it('accepts ordinary values, nesting up to the limit and the longest allowed string', () => {
    let nested: unknown = 'leaf';
    for (let i = 0; i < MAX_JSON_DEPTH; i++) nested = { a: nested };
    expect(() => checkInputValue(nested)).not.toThrow();
    expect(() => checkInputValue({ name: 'x'.repeat(MAX_STRING_LENGTH), emoji: '😀', lines: [{ q: 1 }, null, true] })).not.toThrow();
  });

  it('refuses nesting one level deeper than the limit, naming where, at any depth without recursion', () => {
    let nested: unknown = 'leaf';
    for (let i = 0; i < MAX_JSON_DEPTH + 1; i++) nested = { a: nested };
    const error = refusal(nested);
    expect([error.code, statusOf(error)]).toEqual(['parameter_invalid', 400]);
    expect(error.options.param).toBe(Array(MAX_JSON_DEPTH).fill('a').join('.'));
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(refusal({ lines: deep }).options.param).toBe(`lines${'[0]'.repeat(MAX_JSON_DEPTH - 1)}`);
  });

  it('refuses NUL, unpaired surrogates and over-long strings in values and keys, with the path and without the value', () => {
    const cases: [unknown, string][] = [
      [{ name: 'a\u0000b' }, 'name'],
      [{ lines: [{ notes: 'ok' }, { notes: '\ud800' }] }, 'lines[1].notes'],
      [{ metadata: { note: 'x\udc00y' } }, 'metadata.note'],
      [{ metadata: { ['k\u0000']: 'v' } }, 'metadata.k\ufffd'],
      [{ name: 'x'.repeat(MAX_STRING_LENGTH + 1) }, 'name'],
      [{ tags: ['a', 'b\u0000'] }, 'tags[1]'],
    ];
    for (const [value, param] of cases) {
      const error = refusal(value);
      expect([error.code, error.options.param]).toEqual(['parameter_invalid', param]);
      expect(error.message).not.toContain('xxxx');
    }
    expect(refusal('a\u0000', 'sku').options.param).toBe('sku');
  });
});

describe('id schemas', () => {
  /** Every schema reachable from `schema` (zod v4 keeps children in `_zod.def`). */
  function collect(schema: unknown, found: Set<z.ZodMiniType>, seen = new Set<unknown>()): Set<z.ZodMiniType> {
    if (!schema || typeof schema !== 'object' || seen.has(schema)) return found;
    seen.add(schema);
    if (schema instanceof z.ZodMiniType) {
      found.add(schema);
      collect(schema._zod.def, found, seen);
    } else for (const value of Object.values(schema)) collect(value, found, seen);
    return found;
  }

  it('every uuid in every route’s params, query and body accepts any case and yields lower case', () => {
    const upper = '0190ABCD-EF01-7234-8567-89ABCDEF0123';
    let checked = 0;
    for (const route of ROUTES) {
      const schemas: RouteSchemas = route;
      for (const schema of [schemas.params, schemas.query, schemas.body]) {
        for (const member of collect(schema, new Set())) {
          if (!(member instanceof z.ZodMiniUUID)) continue;
          expect(member.parse(upper), route.id).toBe(upper.toLowerCase());
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
