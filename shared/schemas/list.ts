/** The list conventions on the wire: the paging query parameters, a list's query and the list envelope. */
import { z } from 'zod';
import { id, readId } from './common';
import { onFirstUse } from './lazy';

export const DEFAULT_PAGE_LIMIT = 25;

export function paginationQuery(maxLimit = 100) {
  return {
    limit: z.coerce.number().int().min(1).max(maxLimit).default(DEFAULT_PAGE_LIMIT).describe(`Page size, 1 to ${maxLimit}.`),
    starting_after: id().optional().describe('An object id from a previous page: return the objects after it (older).'),
    ending_before: id().optional().describe('An object id from a previous page: return the objects before it (newer).'),
  };
}

/** The list query schemas whose paging parameters alone make a whole query, with their largest page size. */
const pagingAlone = new WeakMap<object, number>();

/**
 * A list route's query: the paging parameters and the route's filters, built on first use. The
 * filters are optional and have no default, so a query of paging parameters alone is complete
 * and is read without zod (readPagingQuery): a list's first request, like a read's, then loads
 * none. A list whose query needs a filter (orders need their document_type) says so with
 * `requiresFilter`, and every query it gets is parsed with the schema. A property test holds
 * readPagingQuery to the schema's answers for every list route.
 */
export function listQuery<F extends z.ZodRawShape = Record<never, never>>(
  filters?: () => F,
  options: { maxLimit?: number; requiresFilter?: boolean } = {},
): z.ZodObject<ReturnType<typeof paginationQuery> & F> {
  const maxLimit = options.maxLimit ?? 100;
  const schema = onFirstUse(() => z.object({ ...paginationQuery(maxLimit), ...filters?.() }) as z.ZodObject<ReturnType<typeof paginationQuery> & F>);
  if (!options.requiresFilter) pagingAlone.set(schema, maxLimit);
  return schema;
}

export interface PagingQuery {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

const LIMIT_PATTERN = /^[1-9][0-9]{0,3}$/;

/**
 * What a list query (listQuery) parses a query string of paging parameters alone into, read
 * without building the schema. Undefined for every other query string: a filter, `expand`, a
 * repeated or bracketed name, a value the schema would have to coerce or refuse; the caller then
 * parses it with the schema and gets the schema's answer. `values` are the query's names and
 * values as the handler stack collects them (queryValues).
 */
export function readPagingQuery(schema: unknown, values: ReadonlyMap<string, readonly string[]>): PagingQuery | undefined {
  const maxLimit = typeof schema === 'object' && schema !== null ? pagingAlone.get(schema) : undefined;
  if (maxLimit === undefined) return undefined;
  const query: PagingQuery = { limit: DEFAULT_PAGE_LIMIT };
  const read = (name: string, value: string): boolean => {
    if (name === 'limit') {
      if (!LIMIT_PATTERN.test(value) || Number(value) > maxLimit) return false;
      query.limit = Number(value);
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
