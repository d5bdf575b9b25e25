/** The list conventions on the wire: the paging query parameters, a list's query and the list envelope. */
import { z } from 'zod';
import { id, queryBoolean, readId } from './common';
import { onFirstUse } from './lazy';

export const DEFAULT_PAGE_LIMIT = 25;

export function paginationQuery(maxLimit = 100) {
  return {
    limit: z.coerce.number().int().min(1).max(maxLimit).default(DEFAULT_PAGE_LIMIT).describe(`Page size, 1 to ${maxLimit}.`),
    starting_after: id().optional().describe('An object id from a previous page: return the objects after it (older).'),
    ending_before: id().optional().describe('An object id from a previous page: return the objects before it (newer).'),
  };
}

/** A list's yes-or-no filter: `true` or `false` on the wire, a boolean to the handler, no default. */
const flag = (description: string) => queryBoolean().optional().describe(description);
type FlagShape<G extends Record<string, string>> = { [K in keyof G]: ReturnType<typeof flag> };

/** What a list query (listQuery) reads without zod: its largest page size and its flags. */
interface PlainQuery {
  maxLimit: number;
  flags: ReadonlySet<string>;
}
/** The list query schemas whose paging parameters and flags alone make a whole query. */
const plainQueries = new WeakMap<object, PlainQuery>();

/**
 * A list route's query: the paging parameters, the route's filters and its flags (yes-or-no
 * filters: name → description), built on first use. Filters and flags are optional and have no
 * default, so a query of paging parameters and flags alone is complete and is read without zod
 * (readListQuery): a list's first request, like a read's, then loads none. A list whose query needs
 * a filter (orders need their document_type) says so with `requiresFilter`, and every query it
 * gets is parsed with the schema. A property test holds readListQuery to the schema's answers for
 * every list route.
 */
export function listQuery<F extends z.ZodRawShape = Record<never, never>, const G extends Record<string, string> = Record<never, never>>(
  filters?: () => F,
  options: { maxLimit?: number; requiresFilter?: boolean; flags?: G } = {},
): z.ZodObject<ReturnType<typeof paginationQuery> & F & FlagShape<G>> {
  const maxLimit = options.maxLimit ?? 100;
  const flags = Object.entries(options.flags ?? {});
  const schema = onFirstUse(
    () =>
      z.object({
        ...paginationQuery(maxLimit),
        ...filters?.(),
        ...Object.fromEntries(flags.map(([name, description]) => [name, flag(description)])),
      }) as z.ZodObject<ReturnType<typeof paginationQuery> & F & FlagShape<G>>,
  );
  if (!options.requiresFilter) plainQueries.set(schema, { maxLimit, flags: new Set(flags.map(([name]) => name)) });
  return schema;
}

export interface PagingQuery {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

const LIMIT_PATTERN = /^[1-9][0-9]{0,3}$/;

/**
 * What a list query (listQuery) parses a query string of paging parameters and flags alone into,
 * read without building the schema. Undefined for every other query string: a filter, `expand`, a
 * repeated or bracketed name, a value the schema would have to coerce or refuse; the caller then
 * parses it with the schema and gets the schema's answer. `values` are the query's names and
 * values as the handler stack collects them (queryValues).
 */
export function readListQuery(schema: unknown, values: ReadonlyMap<string, readonly string[]>): (PagingQuery & Record<string, unknown>) | undefined {
  const plain = typeof schema === 'object' && schema !== null ? plainQueries.get(schema) : undefined;
  if (plain === undefined) return undefined;
  const query: PagingQuery & Record<string, unknown> = { limit: DEFAULT_PAGE_LIMIT };
  const read = (name: string, value: string): boolean => {
    if (name === 'limit') {
      if (!LIMIT_PATTERN.test(value) || Number(value) > plain.maxLimit) return false;
      query.limit = Number(value);
      return true;
    }
    if (plain.flags.has(name)) {
      if (value !== 'true' && value !== 'false') return false;
      query[name] = value === 'true';
      return true;
    }
    if (name !== 'starting_after' && name !== 'ending_before') return false;
    const cursor = readId(value);
    if (cursor === undefined) return false;
    query[name] = cursor;
    return true;
  };
  for (const [name, given] of values) if (given.length !== 1 || !read(name, given[0])) return undefined;
  return query;
}

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean().describe('Whether more objects exist in the direction of paging.'),
    next_cursor: z.string().nullable().describe('Pass as starting_after (or as ending_before, when paging backwards) to continue; null on the last page.'),
    url: z.string().describe('The path of this list.'),
  });
}
