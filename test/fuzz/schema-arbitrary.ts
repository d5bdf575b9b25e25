/**
 * Valid values for the subset of JSON Schema 2020-12 the OpenAPI document's request schemas use
 * (type, enum, const, anyOf, properties, required, additionalProperties, propertyNames, items,
 * minItems/maxItems, minLength/maxLength, pattern, format, minimum/maximum, exclusiveMinimum,
 * x-decimal-places). The fuzzer starts from these and breaks one thing, so most requests pass
 * validation and reach the handlers. Keywords that only narrow (allOf's second pattern of a
 * date-time, `not` zero) are known and left to the occasional refusal they cause.
 *
 * An unknown keyword fails loudly (`assertKnownKeywords`): a new zod construct in a route then
 * shows up here instead of silently producing values that never validate.
 */
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  'x-decimal-places'?: number;
  allOf?: JsonSchema[];
  not?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
}

const KNOWN_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'anyOf',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'x-decimal-places',
  'allOf',
  'not',
  'deprecated',
  'title',
  'minItems',
  'maxItems',
  'default',
  'description',
]);

/** Throws on a keyword this generator does not understand, naming where it sits. */
export function assertKnownKeywords(schema: JsonSchema, where: string): void {
  for (const key of Object.keys(schema)) if (!KNOWN_KEYWORDS.has(key)) throw new Error(`fuzz: unsupported JSON Schema keyword ${key} at ${where}`);
  for (const [name, inner] of Object.entries(schema.properties ?? {})) assertKnownKeywords(inner, `${where}.${name}`);
  if (typeof schema.additionalProperties === 'object') assertKnownKeywords(schema.additionalProperties, `${where}.*`);
  if (schema.propertyNames) assertKnownKeywords(schema.propertyNames, `${where}<key>`);
  if (schema.items) assertKnownKeywords(schema.items, `${where}[]`);
  schema.anyOf?.forEach((option, index) => assertKnownKeywords(option, `${where}|${index}`));
  schema.allOf?.forEach((option, index) => assertKnownKeywords(option, `${where}&${index}`));
  if (schema.not) assertKnownKeywords(schema.not, `${where}!`);
}

/** Real ids of the caller's world, by property name (`product_id`), so references resolve. */
export type IdPool = (propertyName: string) => readonly string[];

/** A schema's alternatives, nested anyOf flattened (a nullable decimal is anyOf [anyOf [number, text], null]). */
export function alternatives(schema: JsonSchema): JsonSchema[] {
  return schema.anyOf ? schema.anyOf.flatMap(alternatives) : [schema];
}

/** Decimal text: the pattern of digits, with sign and fraction rules, of decimalInput (shared/money.ts). */
const isDecimalPattern = (pattern: string | undefined) => pattern !== undefined && pattern.includes('\\d{1,20}');

/** Whether a schema is a money or quantity field: a number with its decimal places, or decimal text. */
export function isDecimalSchema(schema: JsonSchema): boolean {
  const options = alternatives(schema);
  return (
    options.some((option) => option.type === 'number' && option['x-decimal-places'] !== undefined) &&
    options.some((option) => option.type === 'string' && isDecimalPattern(option.pattern))
  );
}

export function isUuidSchema(schema: JsonSchema): boolean {
  return alternatives(schema).some((option) => option.format === 'uuid');
}

const isoDate = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true });

function uuidArbitrary(name: string, ids: IdPool): fc.Arbitrary<string> {
  const known = ids(name);
  const random = fc.uuid({ version: 4 });
  return known.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: random }) : random;
}

function clampLength(value: string, schema: JsonSchema): string {
  let out = value;
  if (schema.maxLength !== undefined && out.length > schema.maxLength) out = out.slice(0, schema.maxLength);
  while (schema.minLength !== undefined && out.length < schema.minLength) out += 'x';
  return out;
}

function stringArbitrary(schema: JsonSchema, name: string, ids: IdPool): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return uuidArbitrary(name, ids);
    case 'date-time':
      return isoDate.map((date) => date.toISOString());
    case 'date':
      return isoDate.map((date) => date.toISOString().slice(0, 10));
    case 'email':
      return fc.nat(9999).map((n) => `fuzz${n}@example.com`);
    case 'uri':
      return fc.nat(9999).map((n) => `https://example.com/fuzz/${n}`);
  }
  if (isDecimalPattern(schema.pattern)) return fc.tuple(fc.nat(100_000), fc.nat(99)).map(([units, cents]) => `${units}.${String(cents).padStart(2, '0')}`);
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).map((value) => clampLength(value, schema));
  const maxLength = Math.min(schema.maxLength ?? 24, 24);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  return fc.string({ unit: 'grapheme-ascii', minLength: Math.max(minLength, 1), maxLength: Math.max(maxLength, 1) }).map((value) => clampLength(value, schema));
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  // Greater than the exclusive minimum by a cent (the smallest step of every decimal field).
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 0.01) : integer ? -1000 : 0);
  const max = schema.maximum ?? 100_000;
  const boundedMin = Math.max(min, -1_000_000);
  const boundedMax = Math.min(max, Math.max(boundedMin, 1_000_000));
  if (integer) return fc.integer({ min: Math.ceil(boundedMin), max: Math.floor(boundedMax) });
  // Two decimals: what money and quantity fields take at every scale, so the value stays valid.
  return fc.integer({ min: Math.ceil(boundedMin * 100), max: Math.floor(boundedMax * 100) }).map((cents) => cents / 100);
}

/** Singular of a plural property name, for the items of an id array (`invoice_ids` → `invoice_id`). */
const singular = (name: string) => name.replace(/s$/, '');

/** A value valid for `schema`; `name` is the property it goes in (for id pools). */
export function valueArbitrary(schema: JsonSchema, name: string, ids: IdPool): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) {
    // Prefer the non-null options: a null is valid but exercises less.
    const options = schema.anyOf.map((option) => ({ weight: option.type === 'null' ? 1 : 4, arbitrary: valueArbitrary(option, name, ids) }));
    return fc.oneof(...options);
  }
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => valueArbitrary({ ...schema, type }, name, ids)));
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema, name, ids);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueArbitrary(schema.items ?? {}, singular(name), ids), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case 'object':
      return objectArbitrary(schema, ids);
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  }
}

function objectArbitrary(schema: JsonSchema, ids: IdPool): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const record = fc.record(Object.fromEntries(Object.entries(properties).map(([key, inner]) => [key, valueArbitrary(inner, key, ids)])), {
    requiredKeys: [...required].filter((key) => key in properties),
  });
  if (typeof schema.additionalProperties !== 'object') return record;
  const extra = fc.dictionary(
    valueArbitrary(schema.propertyNames ?? { type: 'string', minLength: 1, maxLength: 20 }, 'key', ids) as fc.Arbitrary<string>,
    valueArbitrary(schema.additionalProperties, 'value', ids),
    { maxKeys: 3 },
  );
  return fc.tuple(record, extra).map(([known, more]) => ({ ...more, ...known }));
}
