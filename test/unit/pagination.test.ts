import { describe, expect, it } from 'vitest';
import { statusOf } from '../../shared/http/error-status';
import type { Db } from '../../shared/db/database';
import { ApiError } from '../../shared/errors';
import { keysetPage, type KeysetQuery } from '../../shared/db/keyset';
import { DEFAULT_PAGE_LIMIT, listEnvelope, listQuery } from '../../shared/schemas/list';
import * as z from 'zod/mini';

interface Row {
  id: string;
}

/** A Db that records every statement and answers from canned results, in order. */
function fakeDb(options: { rows?: Row[]; cursorExists?: boolean } = {}) {
  const calls: { method: 'query' | 'one' | 'maybeOne'; sql: string; params: unknown[] }[] = [];
  const db: Db = {
    query<T>(sql: string, params: unknown[] = []) {
      calls.push({ method: 'query', sql, params });
      return Promise.resolve((options.rows ?? []) as T[]);
    },
    one<T>(sql: string, params: unknown[] = []): Promise<T> {
      calls.push({ method: 'one', sql, params });
      return Promise.reject(new Error('keysetPage should not call one'));
    },
    maybeOne<T>(sql: string, params: unknown[] = []) {
      calls.push({ method: 'maybeOne', sql, params });
      return Promise.resolve((options.cursorExists ? { '?column?': 1 } : undefined) as T | undefined);
    },
  };
  return { db, calls };
}

const squash = (sql: string) => sql.replace(/\s+/g, ' ').trim();

const QUERY: KeysetQuery = {
  table: 'locations',
  alias: 'l',
  select: 'l.id, l.name',
  where: ['l.entity_id = $1', 'l.is_active = $2'],
  params: ['entity-1', true],
};
const CURSOR = '0b0e6f4e-8c1a-4b7e-9a43-0c4f1b8e2d11';
const rows = (...ids: string[]): Row[] => ids.map((id) => ({ id }));

async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('keysetPage', () => {
  it('pages newest first by (created_at, id) DESC and asks for limit + 1 rows', async () => {
    const { db, calls } = fakeDb({ rows: rows('c', 'b', 'a') });
    const page = await keysetPage<Row>(db, QUERY, { limit: 3 });
    expect(calls).toHaveLength(1);
    const sql = squash(calls[0].sql);
    expect(sql).toContain('SELECT l.id, l.name FROM locations l');
    expect(sql).toContain('WHERE l.entity_id = $1 AND l.is_active = $2');
    expect(sql).toContain('ORDER BY l.created_at DESC, l.id DESC LIMIT $3');
    expect(sql).not.toMatch(/OFFSET/i);
    expect(calls[0].params).toEqual(['entity-1', true, 4]);
    expect(page).toEqual({ object: 'list', data: rows('c', 'b', 'a'), has_more: false, next_cursor: null });
  });

  it('does not change the caller’s where or params arrays', async () => {
    const query = { ...QUERY, where: [...QUERY.where], params: [...QUERY.params] };
    await keysetPage<Row>(fakeDb({ rows: rows('x') }).db, query, { limit: 2, starting_after: CURSOR });
    expect(query.where).toEqual(QUERY.where);
    expect(query.params).toEqual(QUERY.params);
  });

  it('includes the joins in the statement', async () => {
    const { db, calls } = fakeDb();
    await keysetPage<Row>(db, { ...QUERY, joins: 'LEFT JOIN manufacturers m ON m.id = l.manufacturer_id' }, { limit: 1 });
    expect(squash(calls[0].sql)).toContain('FROM locations l LEFT JOIN manufacturers m ON m.id = l.manufacturer_id WHERE');
  });

  it('leaves WHERE out when there are no filters and no cursor', async () => {
    const { db, calls } = fakeDb();
    await keysetPage<Row>(db, { ...QUERY, where: [], params: [] }, { limit: 10 });
    expect(squash(calls[0].sql)).not.toContain('WHERE');
    expect(calls[0].params).toEqual([11]);
  });

  it('sets has_more and next_cursor (the last row) when limit + 1 rows come back', async () => {
    const { db } = fakeDb({ rows: rows('e', 'd', 'c', 'b') });
    const page = await keysetPage<Row>(db, QUERY, { limit: 3 });
    expect(page.data).toEqual(rows('e', 'd', 'c'));
    expect(page.has_more).toBe(true);
    expect(page.next_cursor).toBe('c');
  });

  it('has no more and no cursor when exactly limit rows come back', async () => {
    const { db } = fakeDb({ rows: rows('c', 'b', 'a') });
    const page = await keysetPage<Row>(db, QUERY, { limit: 3 });
    expect(page.has_more).toBe(false);
    expect(page.next_cursor).toBeNull();
  });

  it('returns an empty page without a cursor lookup when there is no cursor', async () => {
    const { db, calls } = fakeDb({ rows: [] });
    const page = await keysetPage<Row>(db, QUERY, { limit: 3 });
    expect(page).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    expect(calls.map((c) => c.method)).toEqual(['query']);
  });

  describe('starting_after', () => {
    it('adds a < tuple comparison against the cursor row and keeps DESC order', async () => {
      const { db, calls } = fakeDb({ rows: rows('b', 'a') });
      await keysetPage<Row>(db, QUERY, { limit: 5, starting_after: CURSOR });
      const sql = squash(calls[0].sql);
      expect(sql).toContain('(l.created_at, l.id) < (SELECT c.created_at, c.id FROM locations c WHERE c.id = $3)');
      expect(sql).toContain('l.entity_id = $1 AND l.is_active = $2 AND (l.created_at, l.id) <');
      expect(sql).toContain('ORDER BY l.created_at DESC, l.id DESC LIMIT $4');
      expect(calls[0].params).toEqual(['entity-1', true, CURSOR, 6]);
    });

    it('returns rows in query order with next_cursor the oldest row', async () => {
      const { db } = fakeDb({ rows: rows('c', 'b', 'a') });
      const page = await keysetPage<Row>(db, QUERY, { limit: 2, starting_after: CURSOR });
      expect(page.data).toEqual(rows('c', 'b'));
      expect(page.has_more).toBe(true);
      expect(page.next_cursor).toBe('b');
    });

    it('refuses a cursor that yields no rows and does not exist, with parameter_invalid on starting_after', async () => {
      const { db, calls } = fakeDb({ rows: [], cursorExists: false });
      const error = await apiErrorOf(keysetPage<Row>(db, QUERY, { limit: 5, starting_after: CURSOR }));
      expect(error.code).toBe('parameter_invalid');
      expect(statusOf(error)).toBe(400);
      expect(error.options.param).toBe('starting_after');
      expect(calls[1]).toEqual({ method: 'maybeOne', sql: 'SELECT 1 FROM locations WHERE id = $1', params: [CURSOR] });
    });

    it('returns an empty last page when the cursor exists but nothing is older', async () => {
      const { db, calls } = fakeDb({ rows: [], cursorExists: true });
      const page = await keysetPage<Row>(db, QUERY, { limit: 5, starting_after: CURSOR });
      expect(page).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
      expect(calls.map((c) => c.method)).toEqual(['query', 'maybeOne']);
    });

    it('does not look the cursor up when the page has rows', async () => {
      const { db, calls } = fakeDb({ rows: rows('a') });
      await keysetPage<Row>(db, QUERY, { limit: 5, starting_after: CURSOR });
      expect(calls.map((c) => c.method)).toEqual(['query']);
    });
  });

  describe('ending_before', () => {
    it('adds a > tuple comparison and ASC order', async () => {
      const { db, calls } = fakeDb({ rows: rows('x') });
      await keysetPage<Row>(db, QUERY, { limit: 5, ending_before: CURSOR });
      const sql = squash(calls[0].sql);
      expect(sql).toContain('(l.created_at, l.id) > (SELECT c.created_at, c.id FROM locations c WHERE c.id = $3)');
      expect(sql).toContain('ORDER BY l.created_at ASC, l.id ASC LIMIT $4');
      expect(calls[0].params).toEqual(['entity-1', true, CURSOR, 6]);
    });

    it('reverses the rows back to newest first; next_cursor is the newest row of the page', async () => {
      // ASC from the cursor: the oldest newer rows first; the fourth row only signals has_more.
      const { db } = fakeDb({ rows: rows('d', 'e', 'f', 'g') });
      const page = await keysetPage<Row>(db, QUERY, { limit: 3, ending_before: CURSOR });
      expect(page.data).toEqual(rows('f', 'e', 'd'));
      expect(page.has_more).toBe(true);
      expect(page.next_cursor).toBe('f');
    });

    it('has no more when fewer than limit + 1 rows come back', async () => {
      const { db } = fakeDb({ rows: rows('d', 'e') });
      const page = await keysetPage<Row>(db, QUERY, { limit: 3, ending_before: CURSOR });
      expect(page.data).toEqual(rows('e', 'd'));
      expect(page.has_more).toBe(false);
      expect(page.next_cursor).toBeNull();
    });

    it('refuses a cursor that does not exist, with parameter_invalid on ending_before', async () => {
      const { db } = fakeDb({ rows: [], cursorExists: false });
      const error = await apiErrorOf(keysetPage<Row>(db, QUERY, { limit: 5, ending_before: CURSOR }));
      expect(error.code).toBe('parameter_invalid');
      expect(error.options.param).toBe('ending_before');
    });
  });

  it('refuses starting_after together with ending_before, naming ending_before, before any query', async () => {
    const { db, calls } = fakeDb();
    const error = await apiErrorOf(keysetPage<Row>(db, QUERY, { limit: 5, starting_after: CURSOR, ending_before: CURSOR }));
    expect(error.code).toBe('parameter_invalid');
    expect(error.options.param).toBe('ending_before');
    expect(calls).toHaveLength(0);
  });
});

describe('listQuery', () => {
  const schema = listQuery(undefined, { maxLimit: 50 });

  it('defaults the limit and coerces it from a query string', () => {
    expect(schema.parse({})).toEqual({ limit: DEFAULT_PAGE_LIMIT });
    expect(schema.parse({ limit: '10' }).limit).toBe(10);
  });

  it('refuses limits outside 1..max and non-UUID cursors', () => {
    expect(schema.safeParse({ limit: '0' }).success).toBe(false);
    expect(schema.safeParse({ limit: '51' }).success).toBe(false);
    expect(schema.safeParse({ limit: '2.5' }).success).toBe(false);
    expect(schema.safeParse({ starting_after: 'abc' }).success).toBe(false);
    expect(schema.safeParse({ ending_before: CURSOR }).success).toBe(true);
  });
});

describe('listEnvelope', () => {
  it('accepts a page produced by keysetPage once the handler stack adds its url', async () => {
    const page = await keysetPage<Row>(fakeDb({ rows: rows('b', 'a') }).db, QUERY, { limit: 1 });
    expect(listEnvelope(z.object({ id: z.string() })).safeParse({ ...page, url: '/v1/locations' }).success).toBe(true);
  });
});
