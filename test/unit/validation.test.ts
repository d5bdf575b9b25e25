import { describe, expect, it } from 'vitest';
import { statusOf } from '../../shared/http/error-status';
import { z } from 'zod';
import { ApiError } from '../../shared/errors';
import { formatParam, isArraySchema, parseOrThrow } from '../../shared/http/validation';

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
  quantity: z.number().int().min(1).optional(),
  components: z.array(z.strictObject({ sku: z.string(), quantity_per_kit: z.number() })).optional(),
  address: z.strictObject({ city: z.string().optional(), country: z.string().length(2).optional() }).optional(),
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
    expect(isArraySchema(z.array(z.string()).optional())).toBe(true);
    expect(isArraySchema(z.array(z.string()).default([]))).toBe(true);
    expect(isArraySchema(z.array(z.string()).optional().default([]))).toBe(true);
    expect(isArraySchema(z.array(z.string()).nullable().optional())).toBe(true);
  });

  it('is false for scalars and objects, wrapped or not', () => {
    expect(isArraySchema(z.string())).toBe(false);
    expect(isArraySchema(z.string().optional())).toBe(false);
    expect(isArraySchema(z.coerce.number().default(25))).toBe(false);
    expect(isArraySchema(z.object({ a: z.array(z.string()) }))).toBe(false);
  });
});
