/**
 * The attribute codec of the idempotency records (shared/http/dynamodb-attributes.ts) writes and
 * reads what `@aws-sdk/util-dynamodb` does for JSON-like values, which it replaces in the bundles.
 */
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromItem, toAttribute, toItem } from '../../shared/http/dynamodb-attributes';

// JSON values whose numbers DynamoDB and util-dynamodb keep exactly: finite, within the safe integers.
// Names are any text but two that util-dynamodb misreads: it assigns `__proto__` (setting the
// prototype) and takes an object with its own `constructor` field for a class instance. The codec
// keeps both as fields (tested below).
const name = fc.string({ minLength: 1 }).filter((text) => text !== '__proto__' && text !== 'constructor');
const safeNumber = fc.oneof(
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }),
);
const value = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    safeNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(name, tie('value'), { maxKeys: 4 }),
  ),
})).value;
const record = fc.dictionary(name, value, { maxKeys: 6 });

describe('the idempotency records’ attribute codec', () => {
  it('marshals a record as util-dynamodb does', () => {
    fc.assert(
      fc.property(record, (item) => {
        expect(toItem(item)).toEqual(marshall(item));
      }),
    );
  });

  it('reads back what it wrote, as util-dynamodb reads it', () => {
    fc.assert(
      fc.property(record, (item) => {
        const stored = toItem(item);
        expect(fromItem(stored)).toEqual(unmarshall(stored));
        expect(fromItem(stored)).toEqual(item);
      }),
    );
  });

  it('writes a stored response as a map of its status, headers and body', () => {
    const response = { statusCode: 201, headers: { 'Content-Type': 'application/json', ETag: '"abc"' }, body: '{"id":"loc_1"}' };
    expect(toAttribute(response)).toEqual({
      M: {
        statusCode: { N: '201' },
        headers: { M: { 'Content-Type': { S: 'application/json' }, ETag: { S: '"abc"' } } },
        body: { S: '{"id":"loc_1"}' },
      },
    });
  });

  it('leaves out undefined fields, as util-dynamodb does with removeUndefinedValues', () => {
    const input = { status: 'INPROGRESS', expiration: undefined, nested: { kept: 1, dropped: undefined } };
    expect(toItem(input)).toEqual(marshall(input, { removeUndefinedValues: true }));
    expect(toItem(input)).toEqual({ status: { S: 'INPROGRESS' }, nested: { M: { kept: { N: '1' } } } });
  });

  it('keeps fields named __proto__ and constructor as fields', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "constructor": "x", "plain": 1}') as Record<string, unknown>;
    const item = toItem(input);
    expect(Object.keys(item)).toEqual(['__proto__', 'constructor', 'plain']);
    expect(Object.getPrototypeOf(item)).toBe(Object.prototype);
    const read = fromItem(item);
    expect(Object.hasOwn(read, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(read).toEqual(input);
  });

  it('refuses numbers it could not keep exactly and values that are not JSON', () => {
    for (const number of [Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 2, -1e20]) {
      expect(() => toAttribute(number), String(number)).toThrow(TypeError);
      expect(() => marshall({ number }), String(number)).toThrow();
    }
    expect(() => toAttribute(new Date(0))).toThrow(/Date/);
    expect(() => toAttribute(() => 1)).toThrow(/function/);
    expect(() => fromItem({ big: { N: '123456789012345678901' } })).toThrow(RangeError);
    expect(() => fromItem({ set: { SS: ['a'] } })).toThrow(/SS/);
  });
});
