/**
 * DynamoDB's attribute values for the JSON-like data of the idempotency records: strings, numbers,
 * booleans, null, lists and maps. What `@aws-sdk/util-dynamodb`'s marshall and unmarshall do for
 * these types, without loading that package: importing it from a bundle took 7–11 ms of the first
 * request that carried an Idempotency-Key (test/unit/dynamodb-attributes.test.ts holds the two to
 * the same output). Sets and binary values are never written by the store, so they are refused.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export type Item = Record<string, AttributeValue>;

/** One value as an attribute value. Like util-dynamodb, a non-finite or unsafe number is refused, not rounded. */
export function toAttribute(value: unknown): AttributeValue {
  if (value === null) return { NULL: true };
  switch (typeof value) {
    case 'string':
      return { S: value };
    case 'boolean':
      return { BOOL: value };
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} cannot be stored as a DynamoDB number`);
      if (!Number.isSafeInteger(value) && Number.isInteger(value)) throw new TypeError(`${value} is beyond Number.MAX_SAFE_INTEGER`);
      return { N: String(value) };
    case 'object': {
      if (Array.isArray(value)) return { L: value.map(toAttribute) };
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype === Object.prototype || prototype === null) return { M: toItem(value as Record<string, unknown>) };
      throw new TypeError(`a ${value.constructor?.name ?? 'class instance'} cannot be stored as a DynamoDB attribute`);
    }
    default:
      throw new TypeError(`a ${typeof value} cannot be stored as a DynamoDB attribute`);
  }
}

/** An object's fields as an item; fields whose value is undefined are left out (util-dynamodb's removeUndefinedValues). */
export function toItem(value: Readonly<Record<string, unknown>>): Item {
  // fromEntries defines every name as an own field, `__proto__` included (an assignment would set the prototype).
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .map(([name, field]) => [name, toAttribute(field)]),
  );
}

/** One attribute value as JavaScript; numbers past Number's safe integers are refused rather than rounded. */
function fromAttribute(attribute: AttributeValue): unknown {
  if (attribute.S !== undefined) return attribute.S;
  if (attribute.N !== undefined) {
    const number = Number(attribute.N);
    if (Number.isInteger(number) && !Number.isSafeInteger(number)) throw new RangeError(`${attribute.N} is beyond Number.MAX_SAFE_INTEGER`);
    return number;
  }
  if (attribute.BOOL !== undefined) return attribute.BOOL;
  if (attribute.NULL !== undefined) return null;
  if (attribute.L !== undefined) return attribute.L.map(fromAttribute);
  if (attribute.M !== undefined) return fromItem(attribute.M);
  throw new TypeError(`unexpected DynamoDB attribute type ${Object.keys(attribute).join(', ')}`);
}

export function fromItem(item: Item): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).map(([name, attribute]) => [name, fromAttribute(attribute)]));
}
