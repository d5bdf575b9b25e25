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
const value = fc.oneof(
  fc.integer({ min: 0, max: 600 }).map(String),
  fc.constantFrom('0', '007', ' 5', '5 ', '1e1', '2.5', '0x10', '', '-1', '10000', 'true', 'false', 'TRUE', '1', 'true '),
  fc.uuid(),
  fc.uuid().map((id) => id.toUpperCase()),
  fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((parts) => parts.join('-')),
  fc.string(),
);
const name = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('limit', 'starting_after', 'ending_before') },
  { weight: 2, arbitrary: fc.constantFrom('is_active', 'is_archived', 'is_bank', 'is_default', 'expired') },
  { weight: 1, arbitrary: fc.constantFrom('limit[]', 'expand', 'status', 'LIMIT', 'constructor', '__proto__') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const single = fc.dictionary(name, fc.option(value, { nil: undefined }), { maxKeys: 3 });
const multi = fc.option(fc.dictionary(name, fc.option(fc.array(value, { maxLength: 2 }), { nil: undefined }), { maxKeys: 3 }), { nil: undefined });

describe('readListQuery', () => {
  it('is used by most list routes, and only by list routes', () => {
    expect(pagingRoutes.length).toBeGreaterThanOrEqual(30);
    for (const route of pagingRoutes) expect((route as { list?: boolean }).list, route.id).toBe(true);
  });

  it('reads, for every list route, exactly what the route schema parses, and nothing it would refuse', () => {
    let reads = 0;
    fc.assert(
      fc.property(fc.constantFrom(...pagingRoutes), single, multi, (route, singleValues, multiValues) => {
        const values = valuesOf(singleValues, multiValues);
        const read = readListQuery(route.query, values);
        if (read === undefined) return;
        reads++;
        // What the reader accepts has one value per name, which is what the handler stack then parses.
        const parsed = (route.query as z.ZodObject).strict().safeParse(Object.fromEntries([...values].map(([name, [first]]) => [name, first])));
        expect(parsed.success, route.id).toBe(true);
        expect(read).toStrictEqual(parsed.data);
      }),
      { numRuns: 20_000 },
    );
    expect(reads).toBeGreaterThan(2_000); // the generated queries reach the reader, not only its refusals
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
      expect(readPage(route.query, { limit: '10', status: 'open' }, undefined)).toBeUndefined();
      expect(readPage(route.query, { limit: '0' }, undefined)).toBeUndefined();
      expect(readPage(route.query, undefined, { limit: ['5', '6'] })).toBeUndefined();
    }
  });

  it("reads a list's flags, true or false and nothing else, and no other list's", () => {
    const locations = ROUTES.find((route) => route.id === 'locations.list')!;
    expect(readPage(locations.query, { limit: '10', is_active: 'true' }, undefined)).toEqual({ limit: 10, is_active: true });
    expect(readPage(locations.query, { is_active: 'false' }, undefined)).toEqual({ limit: DEFAULT_PAGE_LIMIT, is_active: false });
    for (const refused of ['TRUE', '1', 'yes', '', 'true ']) expect(readPage(locations.query, { is_active: refused }, undefined), refused).toBeUndefined();
    expect(readPage(locations.query, { is_archived: 'true' }, undefined)).toBeUndefined();
    const methods = ROUTES.find((route) => route.id === 'account_payment_methods.list')!;
    expect(readPage(methods.query, { is_default: 'true', is_active: 'false' }, undefined)).toEqual({
      limit: DEFAULT_PAGE_LIMIT,
      is_default: true,
      is_active: false,
    });
    expect(readPage(methods.query, { is_default: 'true', type: 'card' }, undefined)).toBeUndefined();
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
