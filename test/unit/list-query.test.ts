/**
 * A list's query of paging parameters and flags alone is read without zod (readListQuery,
 * shared/schemas/list.ts). For every list route, whatever it reads must be exactly what the
 * route's schema parses the same query string into, as the handler stack checks it (strict).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';
import { DEFAULT_PAGE_LIMIT, listQuery, readListQuery } from '../../shared/schemas/list';
import { queryValues } from '../../shared/http/handler-stack';
import { checkInputValue } from '../../shared/http/validation';
import { DATE_PATTERN, TIMESTAMP_PATTERN } from '../../shared/schemas/common';
import { regexes } from 'zod/v4/core';
import type { Route } from '../../shared/http/route';
import type { z } from 'zod';

type Single = Record<string, string | undefined>;
type Multi = Record<string, string[] | undefined>;

/** The query string's names and values as the handler stack collects them, then read as a page. */
const valuesOf = (single: Single | undefined, multi: Multi | undefined) =>
  queryValues({ queryStringParameters: single ?? null, multiValueQueryStringParameters: multi ?? null });
const readPage = (schema: unknown, single: Single | undefined, multi: Multi | undefined) => readListQuery(schema, valuesOf(single, multi));

const readsPagingAlone = (route: Route) => readPage(route.query, {}, undefined) !== undefined;
const pagingRoutes = ROUTES.filter(readsPagingAlone);

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFgG-'), minLength: length, maxLength: length });
const anyValue = fc.oneof(
  fc.integer({ min: 0, max: 600 }).map(String),
  fc.constantFrom('0', '007', ' 5', '5 ', '1e1', '2.5', '0x10', '', ' ', '-1', '10000', 'true', 'false', 'TRUE', '1', 'true '),
  // Dates and date-times on and around what isoDate() and timestamp() accept.
  fc.constantFrom(
    '2026-02-29',
    '2024-02-29',
    '2100-02-29',
    '2000-02-29',
    '0000-01-01',
    '0001-01-01',
    '9999-12-31',
    '2026-1-01',
    '2026-01-01T00:00:00Z',
    '2026-01-01T00:00:00.123456789+14:00',
    '2026-01-01T00:00:00+14:01',
    '2026-01-01T00:00:00-12:00',
    '2026-01-01T00:00:00-12:30',
    '2026-01-01T24:00:00Z',
    '2026-01-01T00:00Z',
    '2026-01-01T00:00:00',
    '2026-01-01t00:00:00z',
    '2026-01-01T00:00:00+0100',
    '9999-12-31T23:59:59Z',
    '9999-12-31T23:59:58.999Z',
    '0001-01-01T00:00:00+01:00',
    '0001-01-01T00:00:00-01:00',
  ),
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((date) => date.toISOString()),
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  // What no request may carry: NUL, a lone surrogate, more than 10,000 characters (here mostly space, which trimming would hide).
  fc.constantFrom('bolt\u0000', '\uD800bolt', 'bolt\uDC00', `${' '.repeat(10_001)}bolt`),
  fc.uuid(),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((parts) => parts.join('-')),
  fc.string(),
  fc.string().map((text) => ` ${text}\t`),
  // Around the text filters' limits (50, 100, 200, 254 characters), with surrounding space.
  fc.string({ minLength: 45, maxLength: 260 }).map((text) => (text.length % 2 ? ` ${text} ` : text)),
);

/** The values a route's enum filters take, and some that are nearly those. */
function enumValues(route: Route): string[] {
  const shape = (route.query as z.ZodObject).shape as Record<string, { unwrap?: () => unknown; options?: unknown }>;
  const options = Object.values(shape).flatMap((field) => {
    const inner = (field.unwrap?.() ?? field) as { options?: unknown };
    return Array.isArray(inner.options) ? inner.options.filter((option): option is string => typeof option === 'string') : [];
  });
  return [...options, ...options.map((option) => option.toUpperCase()), ...options.map((option) => ` ${option}`)];
}

/**
 * A query string for one route: mostly its own parameters (paging and filters), each with any value
 * or with one its schema accepts, and some other names.
 */
function queryOf(route: Route) {
  const shape = (route.query as z.ZodObject).shape as Record<string, z.ZodType>;
  const id = 'C0FFEE00-0000-4000-8000-000000000001';
  const pool = ['true', 'false', 'bolt', ' bolt ', 'B-1', '10', id, id.toLowerCase(), '2024-02-29', '2026-01-01T00:00:00.5+02:00', ...enumValues(route)];
  const other = fc.constantFrom('limit[]', 'expand', 'LIMIT', 'constructor', '__proto__', 'is_active');
  const entry = fc.oneof(
    ...Object.entries(shape).map(([name, schema]) => {
      const accepted = pool.filter((candidate) => schema.safeParse(candidate).success);
      return fc.tuple(fc.constant(name), accepted.length ? fc.oneof(anyValue, fc.constantFrom(...accepted)) : anyValue);
    }),
    fc.tuple(fc.oneof(other, fc.string({ maxLength: 8 })), anyValue),
  );
  const single = fc.array(entry, { maxLength: 3 }).map((entries): Single => Object.fromEntries(entries));
  const multi = fc.option(
    fc.array(entry, { maxLength: 3 }).map((entries): Multi => Object.fromEntries(entries.map(([name, value]) => [name, [value]]))),
    { nil: undefined },
  );
  return fc.tuple(fc.constant(route), single, multi);
}

describe('readListQuery', () => {
  it('is used by most list routes, and only by list routes', () => {
    expect(pagingRoutes.length).toBeGreaterThanOrEqual(30);
    for (const route of pagingRoutes) expect((route as { list?: boolean }).list, route.id).toBe(true);
  });

  it('reads, for every list route, exactly what the route schema parses, and nothing it would refuse', () => {
    let reads = 0;
    let filtered = 0;
    fc.assert(
      fc.property(fc.constantFrom(...pagingRoutes).chain(queryOf), ([route, singleValues, multiValues]) => {
        const values = valuesOf(singleValues, multiValues);
        // The stack refuses what no request may carry (NUL, a lone surrogate, too long) before either reads the query.
        try {
          checkInputValue(Object.fromEntries([...values].map(([name, given]) => [name, given.length === 1 ? given[0] : given])));
        } catch {
          return;
        }
        const read = readListQuery(route.query, values);
        if (read === undefined) return;
        reads++;
        if (Object.keys(read).some((key) => !['limit', 'starting_after', 'ending_before'].includes(key))) filtered++;
        // What the reader accepts has one value per name, which is what the handler stack then parses.
        const parsed = (route.query as z.ZodObject).strict().safeParse(Object.fromEntries([...values].map(([name, [first]]) => [name, first])));
        expect(parsed.success, route.id).toBe(true);
        expect(read).toStrictEqual(parsed.data);
      }),
      { numRuns: 20_000 },
    );
    // The generated queries reach the reader, filters included, not only its refusals.
    expect(reads).toBeGreaterThan(2_000);
    expect(filtered).toBeGreaterThan(1_000);
  });

  it('reads the paging parameters every list takes, without a filter', () => {
    const cursor = 'C0FFEE00-0000-4000-8000-000000000001';
    for (const route of pagingRoutes) {
      expect(readPage(route.query, undefined, undefined), route.id).toEqual({ limit: DEFAULT_PAGE_LIMIT });
      expect(readPage(route.query, { limit: '10', starting_after: cursor }, undefined)).toEqual({ limit: 10, starting_after: cursor.toLowerCase() });
      expect(readPage(route.query, { limit: '9' }, { ending_before: [cursor], limit: ['7'] })).toEqual({
        limit: 7,
        ending_before: cursor.toLowerCase(),
      });
      expect(readPage(route.query, { limit: '10', no_such_filter: 'open' }, undefined)).toBeUndefined();
      expect(readPage(route.query, { limit: '0' }, undefined)).toBeUndefined();
      expect(readPage(route.query, undefined, { limit: ['5', '6'] })).toBeUndefined();
    }
  });

  it("reads a list's plain filters (ids, values, text, flags, dates, date-times) as their schema would, and leaves the others to it", () => {
    const route = (id: string): unknown => ROUTES.find((candidate) => candidate.id === id)!.query;
    const locations = route('locations.list');
    expect(readPage(locations, { limit: '10', is_active: 'true' }, undefined)).toEqual({ limit: 10, is_active: true });
    expect(readPage(locations, { is_active: 'false' }, undefined)).toEqual({ limit: DEFAULT_PAGE_LIMIT, is_active: false });
    for (const refused of ['TRUE', '1', 'yes', '', 'true ']) expect(readPage(locations, { is_active: refused }, undefined), refused).toBeUndefined();
    expect(readPage(locations, { is_archived: 'true' }, undefined)).toBeUndefined();
    const methods = route('account_payment_methods.list');
    const account = 'C0FFEE00-0000-4000-8000-000000000001';
    expect(readPage(methods, { is_default: 'true', type: 'card', account_id: account }, undefined)).toEqual({
      limit: DEFAULT_PAGE_LIMIT,
      is_default: true,
      type: 'card',
      account_id: account.toLowerCase(),
    });
    for (const refused of [{ type: 'CARD' }, { type: 'card ' }, { account_id: `${account}0` }]) expect(readPage(methods, refused, undefined)).toBeUndefined();
    const products = route('products.list');
    expect(readPage(products, { q: '  bolt ', sku: 'B-1' }, undefined)).toEqual({ limit: DEFAULT_PAGE_LIMIT, q: 'bolt', sku: 'B-1' });
    for (const refused of [{ q: '   ' }, { q: 'x'.repeat(101) }, { sku: '' }]) expect(readPage(products, refused, undefined)).toBeUndefined();
    const entries = route('journal_entries.list');
    expect(readPage(entries, { entry_date_gte: '2024-02-29' }, undefined)).toEqual({ limit: DEFAULT_PAGE_LIMIT, entry_date_gte: '2024-02-29' });
    for (const refused of ['2026-02-29', '0000-01-01', '2026-1-01']) expect(readPage(entries, { entry_date_gte: refused }, undefined), refused).toBeUndefined();
    const bills = route('vendor_bills.list');
    expect(readPage(bills, { created_gte: '2026-01-01T00:00:00.5+02:00' }, undefined)).toEqual({
      limit: DEFAULT_PAGE_LIMIT,
      created_gte: '2026-01-01T00:00:00.5+02:00',
    });
    for (const refused of ['2026-01-01T00:00:00+14:01', '2026-01-01T00:00:00', '9999-12-31T23:59:59Z'])
      expect(readPage(bills, { created_gte: refused }, undefined), refused).toBeUndefined();
    // A list of values is no plain filter: the schema reads it.
    expect(readPage(route('events.list'), { types: 'order.created' }, undefined)).toBeUndefined();
  });

  it("reads dates and date-times with zod's own patterns", () => {
    expect(DATE_PATTERN.source).toBe(regexes.date.source);
    expect(TIMESTAMP_PATTERN.source).toBe(regexes.datetime({ offset: true }).source);
  });

  it('honours the largest page size of the list; a list that requires a filter or a schema that is no list query is never read', () => {
    const payments = listQuery(undefined, { maxLimit: 500 });
    expect(readPage(payments, { limit: '500' }, undefined)).toEqual({ limit: 500 });
    expect(readPage(payments, { limit: '501' }, undefined)).toBeUndefined();
    expect(readPage(listQuery(), { limit: '101' }, undefined)).toBeUndefined();
    expect(readPage(listQuery(undefined, { requiresFilter: true }), { limit: '10' }, undefined)).toBeUndefined();
    expect(readPage(undefined, {}, undefined)).toBeUndefined();
    const orders = ROUTES.find((route) => route.id === 'orders.list')!;
    expect(readsPagingAlone(orders)).toBe(false);
  });
});
