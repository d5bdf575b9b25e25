/**
 * Path and query parameters declared once (param.*) and parsed by the route's zod schema, as the
 * handler stack collects and checks them (strict): what each kind of parameter accepts and refuses,
 * and that no query string gets anything but a parameter error naming what was sent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../functions/routes';
import { DEFAULT_PAGE_LIMIT, listQuery } from '../../shared/schemas/list';
import { idParams } from '../../shared/schemas/parameters';
import { collectQuery, queryValues, strictQuery } from '../../shared/http/request-input';
import { checkInputValue, parseOrThrow } from '../../shared/http/validation';
import { ApiError } from '../../shared/errors';
import type { Route } from '../../shared/http/route';
import type { z } from 'zod/mini';

type Single = Record<string, string | undefined>;
type Multi = Record<string, string[] | undefined>;

/** The query string's names and values as the handler stack collects them. */
const valuesOf = (single: Single | undefined, multi: Multi | undefined) =>
  queryValues({ queryStringParameters: single ?? null, multiValueQueryStringParameters: multi ?? null });
/** A query as the handler stack parses it with the route's schema (strict), or the error it answers. */
function parseQuery(schema: unknown, values: ReadonlyMap<string, string[]>): Record<string, unknown> | ApiError {
  const strict = strictQuery(schema as z.ZodMiniObject);
  try {
    return parseOrThrow(strict, collectQuery(values, strict));
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}
/** The parsed query, or undefined when it is refused. */
const readPage = (schema: unknown, single: Single | undefined, multi: Multi | undefined) => {
  const parsed = parseQuery(schema, valuesOf(single, multi));
  return parsed instanceof ApiError ? undefined : parsed;
};

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
  const shape = (route.query as z.ZodMiniObject).shape as Record<string, { unwrap?: () => unknown }>;
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
  const shape = (route.query as z.ZodMiniObject).shape as Record<string, z.ZodMiniType>;
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
  // Half the queries start with every required parameter given a value its schema accepts, so a
  // route with required parameters (orders.list takes document_type) is parsed as often as refused.
  const required = Object.entries(shape)
    .filter(([, schema]) => !schema.safeParse(undefined).success)
    .map(([name, schema]): [string, string[]] => [name, [pool.find((candidate) => schema.safeParse(candidate).success)!]]);
  const single = fc
    .tuple(fc.boolean(), fc.array(entry, { maxLength: 3 }))
    .map(([withRequired, entries]): Single =>
      Object.fromEntries([...(withRequired ? required : []), ...entries].map(([name, values]) => [name, values.at(-1)])),
    );
  const multi = fc.option(
    fc.array(entry, { maxLength: 3 }).map((entries): Multi => Object.fromEntries(entries)),
    { nil: undefined },
  );
  return fc.tuple(fc.constant(route), single, multi);
}

describe('query parameters', () => {
  it('reads the query of every route that takes one', () => {
    expect(queryRoutes.length).toBeGreaterThanOrEqual(40);
    expect(listRoutes.length).toBeGreaterThanOrEqual(32);
    for (const route of listRoutes) expect((route as { list?: boolean }).list, route.id).toBe(true);
  });

  it('answers every query string of every route with its parsed query or a parameter error naming what was sent', () => {
    const outcomes = new Map<string, { parsed: number; refused: number }>();
    fc.assert(
      fc.property(fc.oneof(...queryRoutes.map(queryOf)), ([route, singleValues, multiValues]) => {
        const values = valuesOf(singleValues, multiValues);
        // The stack refuses what no request may carry (NUL, a lone surrogate, too long) before it parses the query.
        try {
          checkInputValue(Object.fromEntries([...values].map(([name, given]) => [name, given.length === 1 ? given[0] : given])));
        } catch {
          return;
        }
        const result = parseQuery(route.query, values);
        const outcome = outcomes.get(route.id) ?? { parsed: 0, refused: 0 };
        outcomes.set(route.id, outcome);
        if (!(result instanceof ApiError)) {
          outcome.parsed++;
          return;
        }
        outcome.refused++;
        expect(['parameter_invalid', 'parameter_missing', 'parameter_unknown'], route.id).toContain(result.code);
        const param = result.options.param!;
        const declared = Object.keys((route.query as z.ZodMiniObject).shape);
        const named = param.replace(/\[\d+\]$/, '');
        expect([...declared, ...[...values.keys()].map((name) => name.replace(/\[\]$/, ''))], route.id).toContain(named);
      }),
      { numRuns: 200 * queryRoutes.length },
    );
    // The generated queries reach both answers for every route.
    expect(queryRoutes.filter((route) => !(outcomes.get(route.id)?.parsed && outcomes.get(route.id)?.refused)).map((route) => route.id)).toEqual([]);
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

  it("reads a list's plain filters (ids, values, text, flags, dates, date-times) as their schema would, and refuses the others", () => {
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
    // A single-value parameter written as name[] with one value is that value.
    expect(readPage(events, { 'type[]': 'order.created' }, undefined)).toEqual({ limit: DEFAULT_PAGE_LIMIT, type: 'order.created' });
  });

  it('applies defaults, reads whole numbers, and refuses a missing required parameter', () => {
    const query = (id: string): unknown => ROUTES.find((candidate) => candidate.id === id)!.query;
    const reorder = query('purchasing.reorder_report.get');
    expect(readPage(reorder, {}, undefined)).toEqual({ demand_window: 90, demand_basis: 'sales_and_builds', limit: 100 });
    expect(readPage(reorder, { demand_window: '365', demand_basis: 'sales', limit: '1000', include_all: 'true' }, undefined)).toEqual({
      demand_window: 365,
      demand_basis: 'sales',
      limit: 1000,
      include_all: true,
    });
    for (const refused of ['0', '366', '2.5', '', '-0', 'ninety']) expect(readPage(reorder, { demand_window: refused }, undefined), refused).toBeUndefined();
    // Whole numbers are read as numbers, whatever their notation.
    for (const [written, number] of [
      ['007', 7],
      [' 5', 5],
      ['1e1', 10],
    ] as const)
      expect(readPage(reorder, { demand_window: written }, undefined)?.demand_window, written).toBe(number);
    const periods = query('periods.list');
    expect(readPage(periods, { fiscal_year: '2026' }, undefined)).toEqual({ fiscal_year: 2026 });
    expect(readPage(periods, { fiscal_year: '1899' }, undefined)).toBeUndefined();
    const orders = query('orders.list');
    expect(readPage(orders, { document_type: 'invoice', limit: '5' }, undefined)).toEqual({ document_type: 'invoice', limit: 5 });
    expect(readPage(orders, { limit: '5' }, undefined)).toBeUndefined();
    expect(readPage(query('reconciliation.trial_balance'), { as_of_date: '2026-01-31' }, undefined)).toEqual({ as_of_date: '2026-01-31' });
    expect(readPage(query('reconciliation.trial_balance'), {}, undefined)).toEqual({});
  });

  it('honours the largest page size of the list', () => {
    const payments = listQuery(undefined, { maxLimit: 500 });
    expect(readPage(payments, { limit: '500' }, undefined)).toEqual({ limit: 500 });
    expect(readPage(payments, { limit: '501' }, undefined)).toBeUndefined();
    expect(readPage(listQuery(), { limit: '101' }, undefined)).toBeUndefined();
  });
});

describe('path parameters', () => {
  const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEFgG-'), minLength: length, maxLength: length });
  const uuidLike = fc
    .tuple(hex(8), hex(4), hex(4), hex(4), hex(12), fc.constantFrom('', ' ', '\n', '0', '}'))
    .map(([a, b, c, d, e, tail]) => `${a}-${b}-${c}-${d}-${e}${tail}`);
  // zod's UUID pattern: RFC 9562 versions 1 to 8 with their variant, the nil and the max UUID (lower case).
  const UUID =
    /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

  it('idParams takes a UUID in any case and gives it lower-cased; anything else is parameter_invalid on id', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uuid(),
          fc.uuid().map((value) => value.toUpperCase()),
          uuidLike,
          fc.string(),
        ),
        (value) => {
          if (UUID.test(value)) expect(parseOrThrow(idParams, { id: value })).toEqual({ id: value.toLowerCase() });
          else
            expect(() => parseOrThrow(idParams, { id: value })).toThrow(
              expect.objectContaining({ code: 'parameter_invalid', options: expect.objectContaining({ param: 'id' }) }),
            );
        },
      ),
      { numRuns: 5000 },
    );
    for (const value of ['00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff'])
      expect(parseOrThrow(idParams, { id: value })).toEqual({ id: value.toLowerCase() });
    expect(() => parseOrThrow(idParams, {})).toThrow(expect.objectContaining({ code: 'parameter_missing' }));
  });
});
