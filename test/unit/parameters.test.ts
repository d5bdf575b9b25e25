/**
 * A query of declared parameters (param.*) is read without zod (readQuery, shared/schemas/query.ts).
 * For every route with a query, whatever it reads must be exactly what the route's schema parses
 * the same query string into, as the handler stack collects and checks it (strict).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';
import { DEFAULT_PAGE_LIMIT, listQuery } from '../../shared/schemas/list';
import { idParams, readPath, readQuery } from '../../shared/schemas/parameters';
import { collectQuery, queryValues } from '../../shared/http/request-input';
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
const readPage = (schema: unknown, single: Single | undefined, multi: Multi | undefined) => readQuery(schema, valuesOf(single, multi));

const queryRoutes = ROUTES.filter((route) => route.query !== undefined);
const listRoutes = queryRoutes.filter((route) => readPage(route.query, {}, undefined)?.limit === DEFAULT_PAGE_LIMIT);

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

/** The values a route's enum parameters take (their aliases included), and some that are nearly those. */
function enumValues(route: Route): string[] {
  const shape = (route.query as z.ZodObject).shape as Record<string, { unwrap?: () => unknown }>;
  const options = Object.values(shape).flatMap((field) => {
    const unwrapped = (field.unwrap?.() ?? field) as { options?: unknown; in?: { options?: unknown } };
    const values = unwrapped.options ?? unwrapped.in?.options;
    return Array.isArray(values) ? values.filter((option): option is string => typeof option === 'string') : [];
  });
  return [...options, ...options.map((option) => option.toUpperCase()), ...options.map((option) => ` ${option}`)];
}

/**
 * A query string for one route: mostly its own parameters, each with any value or with one its
 * schema accepts (several for a list of values, under its name or name[]), and some other names.
 */
function queryOf(route: Route) {
  const shape = (route.query as z.ZodObject).shape as Record<string, z.ZodType>;
  const id = 'C0FFEE00-0000-4000-8000-000000000001';
  const pool = [
    ...['true', 'false', 'bolt', ' bolt ', 'B-1', id, id.toLowerCase(), '2024-02-29', '2026-01-01T00:00:00.5+02:00'],
    ...['0', '1', '10', '90', '365', '366', '1000', '1001', '1899', '1900', '2026', '9999', '-1', '007'],
    ...['order.created', 'invoice.paid', 'Order.created', 'order', 'order.created ', 'constructor', 'toString'],
    ...enumValues(route),
  ];
  const other = fc.constantFrom('limit[]', 'LIMIT', 'constructor', '__proto__', 'is_active', 'types[]', 'type[]');
  const entry = fc.oneof(
    ...Object.entries(shape).map(([name, schema]) => {
      const list = schema.safeParse([]).success || schema.safeParse(['order.created']).success;
      const accepted = pool.filter((candidate) => schema.safeParse(list ? [candidate] : candidate).success);
      const value = accepted.length ? fc.oneof(anyValue, fc.constantFrom(...accepted)) : anyValue;
      return fc.tuple(
        fc.constantFrom(name, ...(list ? [`${name}[]`] : [])),
        list ? fc.array(value, { minLength: 1, maxLength: 22 }) : value.map((one) => [one]),
      );
    }),
    fc.tuple(
      fc.oneof(other, fc.string({ maxLength: 8 })),
      anyValue.map((one) => [one]),
    ),
  );
  const single = fc.array(entry, { maxLength: 3 }).map((entries): Single => Object.fromEntries(entries.map(([name, values]) => [name, values.at(-1)])));
  const multi = fc.option(
    fc.array(entry, { maxLength: 3 }).map((entries): Multi => Object.fromEntries(entries)),
    { nil: undefined },
  );
  return fc.tuple(fc.constant(route), single, multi);
}

describe('readQuery', () => {
  it('reads the query of every route that takes one', () => {
    expect(queryRoutes.length).toBeGreaterThanOrEqual(40);
    expect(listRoutes.length).toBeGreaterThanOrEqual(32);
    for (const route of listRoutes) expect((route as { list?: boolean }).list, route.id).toBe(true);
  });

  it('reads, for every route, exactly what the route schema parses, and nothing it would refuse', () => {
    const reads = new Map<string, number>();
    let withParameters = 0;
    fc.assert(
      fc.property(fc.oneof(...queryRoutes.map(queryOf)), ([route, singleValues, multiValues]) => {
        const values = valuesOf(singleValues, multiValues);
        // The stack refuses what no request may carry (NUL, a lone surrogate, too long) before either reads the query.
        try {
          checkInputValue(Object.fromEntries([...values].map(([name, given]) => [name, given.length === 1 ? given[0] : given])));
        } catch {
          return;
        }
        const read = readQuery(route.query, values);
        if (read === undefined) return;
        reads.set(route.id, (reads.get(route.id) ?? 0) + 1);
        if (values.size > 0) withParameters++;
        // What the reader accepts, the handler stack collects and parses to the same query.
        const strict = (route.query as z.ZodObject).strict();
        const parsed = strict.safeParse(collectQuery(values, strict));
        expect(parsed.success, route.id).toBe(true);
        expect(read).toStrictEqual(parsed.data);
      }),
      { numRuns: 20_000 },
    );
    // The generated queries reach the reader for every route, with parameters, not only its refusals.
    expect(queryRoutes.filter((route) => !reads.has(route.id)).map((route) => route.id)).toEqual([]);
    expect([...reads.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThan(2_500);
    expect(withParameters).toBeGreaterThan(1_500);
  });

  it('reads the paging parameters every list takes, without a filter', () => {
    const cursor = 'C0FFEE00-0000-4000-8000-000000000001';
    for (const route of listRoutes) {
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
    // A value's alias is read as the value.
    expect(readPage(bills, { status: 'void' }, undefined)).toEqual({ limit: DEFAULT_PAGE_LIMIT, status: 'voided' });
    expect(readPage(bills, { status: 'voided' }, undefined)).toEqual({ limit: DEFAULT_PAGE_LIMIT, status: 'voided' });
    for (const refused of ['Void', 'constructor', 'hasOwnProperty']) expect(readPage(bills, { status: refused }, undefined), refused).toBeUndefined();
  });

  it('reads lists of values under their name or name[], within their count and pattern', () => {
    const events = ROUTES.find((candidate) => candidate.id === 'events.list')!.query;
    expect(readPage(events, { types: 'order.created' }, undefined)).toEqual({ limit: DEFAULT_PAGE_LIMIT, types: ['order.created'] });
    expect(readPage(events, undefined, { 'types[]': ['order.created', 'invoice.paid'], types: ['order.updated'] })).toEqual({
      limit: DEFAULT_PAGE_LIMIT,
      types: ['order.created', 'invoice.paid', 'order.updated'],
    });
    expect(readPage(events, undefined, { types: Array.from({ length: 21 }, () => 'order.created') })).toBeUndefined();
    expect(readPage(events, undefined, { types: ['order.created', 'Order.created'] })).toBeUndefined();
    expect(readPage(events, { type: 'order.created' }, undefined)).toEqual({ limit: DEFAULT_PAGE_LIMIT, type: 'order.created' });
    expect(readPage(events, undefined, { type: ['order.created', 'order.updated'] })).toBeUndefined();
    expect(readPage(events, { 'type[]': 'order.created' }, undefined)).toBeUndefined();
  });

  it('applies defaults, reads whole numbers as written, and leaves a missing required parameter to the schema', () => {
    const query = (id: string): unknown => ROUTES.find((candidate) => candidate.id === id)!.query;
    const reorder = query('purchasing.reorder_report.get');
    expect(readPage(reorder, {}, undefined)).toEqual({ demand_window: 90, demand_basis: 'sales_and_builds', limit: 100 });
    expect(readPage(reorder, { demand_window: '365', demand_basis: 'sales', limit: '1000', include_all: 'true' }, undefined)).toEqual({
      demand_window: 365,
      demand_basis: 'sales',
      limit: 1000,
      include_all: true,
    });
    for (const refused of ['0', '366', '007', ' 5', '1e1', '2.5', '', '-0'])
      expect(readPage(reorder, { demand_window: refused }, undefined), refused).toBeUndefined();
    const periods = query('periods.list');
    expect(readPage(periods, { fiscal_year: '2026' }, undefined)).toEqual({ fiscal_year: 2026 });
    expect(readPage(periods, { fiscal_year: '1899' }, undefined)).toBeUndefined();
    const orders = query('orders.list');
    expect(readPage(orders, { document_type: 'invoice', limit: '5' }, undefined)).toEqual({ document_type: 'invoice', limit: 5 });
    expect(readPage(orders, { limit: '5' }, undefined)).toBeUndefined();
    expect(readPage(query('reconciliation.trial_balance'), { as_of_date: '2026-01-31' }, undefined)).toEqual({ as_of_date: '2026-01-31' });
    expect(readPage(query('reconciliation.trial_balance'), {}, undefined)).toEqual({});
  });

  it("reads dates and date-times with zod's own patterns", () => {
    expect(DATE_PATTERN.source).toBe(regexes.date.source);
    expect(TIMESTAMP_PATTERN.source).toBe(regexes.datetime({ offset: true }).source);
  });

  it('honours the largest page size of the list; a schema queryParams did not build is never read', () => {
    const payments = listQuery(undefined, { maxLimit: 500 });
    expect(readPage(payments, { limit: '500' }, undefined)).toEqual({ limit: 500 });
    expect(readPage(payments, { limit: '501' }, undefined)).toBeUndefined();
    expect(readPage(listQuery(), { limit: '101' }, undefined)).toBeUndefined();
    expect(readPage(undefined, {}, undefined)).toBeUndefined();
    expect(readPage(listQuery().strict(), {}, undefined)).toBeUndefined();
  });
});

describe('readPath', () => {
  const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFgG-'), minLength: length, maxLength: length });
  const uuidLike = fc
    .tuple(hex(8), hex(4), hex(4), hex(4), hex(12), fc.constantFrom('', ' ', '\n', '0', '}'))
    .map(([a, b, c, d, e, tail]) => `${a}-${b}-${c}-${d}-${e}${tail}`);
  const candidates = fc.oneof(
    fc.uuid(),
    fc.uuid().map((value) => value.toUpperCase()),
    uuidLike,
    fc.constantFrom('00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '', 'SO-000042', 'order', 'product', 'Order'),
    fc.string(),
  );

  it('answers what idParams answers, without zod: the lower-cased id for every id it accepts, undefined for every other value', () => {
    fc.assert(
      fc.property(candidates, (value) => {
        const parsed = idParams.safeParse({ id: value });
        expect(readPath(idParams, { id: value })).toEqual(parsed.success ? parsed.data : undefined);
      }),
      { numRuns: 5000 },
    );
    expect(readPath(idParams, {})).toBeUndefined();
    expect(readPath(idParams, { id: undefined })).toBeUndefined();
  });

  it('reads, for every route, exactly what its path schema parses, and nothing it would refuse', () => {
    const paramRoutes = ROUTES.filter((route) => route.params !== undefined);
    const reads = new Set<string>();
    // Each parameter gets any candidate, or one its schema accepts (an id, a value of its enum, a snapshot id).
    const pool = ['C0FFEE00-0000-4000-8000-000000000001', 'c0ffee00-0000-4000-8000-000000000002', 'order', 'product', 'SO-000042', ' SO-000042 ', 'snapshot-1'];
    const pathOf = (route: Route) => {
      const shape = (route.params as z.ZodObject).shape as Record<string, z.ZodType>;
      const entries = Object.entries(shape).map(([name, schema]) => {
        const accepted = pool.filter((candidate) => schema.safeParse(candidate).success);
        return fc.tuple(fc.constant(name), accepted.length ? fc.oneof(candidates, fc.constantFrom(...accepted)) : candidates);
      });
      return fc.tuple(
        fc.constant(route),
        fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs)),
      );
    };
    fc.assert(
      fc.property(fc.oneof(...paramRoutes.map(pathOf)), ([route, path]) => {
        const read = readPath(route.params, path);
        if (read === undefined) return;
        reads.add(route.id);
        const parsed = (route.params as z.ZodObject).safeParse(path);
        expect(parsed.success, route.id).toBe(true);
        expect(read).toStrictEqual(parsed.data);
      }),
      { numRuns: 20_000 },
    );
    // Every route's path parameters are declared (param.*), so each is read without zod.
    expect(paramRoutes.filter((route) => !reads.has(route.id)).map((route) => route.id)).toEqual([]);
  });
});
