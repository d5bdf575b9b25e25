/** The list conventions on the wire: the paging query parameters, a list's query and the list envelope. */
import { z } from 'zod';
import { id, isoDate, queryBoolean, readId, readIsoDate, readTimestamp, timestamp } from './common';
import { onFirstUse } from './lazy';

export const DEFAULT_PAGE_LIMIT = 25;

export function paginationQuery(maxLimit = 100) {
  return {
    limit: z.coerce.number().int().min(1).max(maxLimit).default(DEFAULT_PAGE_LIMIT).describe(`Page size, 1 to ${maxLimit}.`),
    starting_after: id().optional().describe('An object id from a previous page: return the objects after it (older).'),
    ending_before: id().optional().describe('An object id from a previous page: return the objects before it (newer).'),
  };
}

/**
 * A list's filters, each declared once: the kinds below (an id, one of a set of values, a piece of
 * text, a yes-or-no flag, a date, a date-time) are built into their schema by listQuery and read
 * without zod by readListQuery; any other filter (a list of values, a required one) is a function
 * that builds its schema, and a query that uses it is parsed with zod. Every filter is optional and
 * has no default. An absent description leaves the parameter undescribed.
 */
export const filter = {
  /** An object id: any case in, lower case out (id()). */
  id: (description?: string) => ({ kind: 'id' as const, description }),
  /** Exactly one of `values`. */
  oneOf: <const T extends readonly [string, ...string[]]>(values: T, description?: string) => ({ kind: 'oneOf' as const, values, description }),
  /** Text of `min` to `max` characters (UTF-16 units, as zod counts), trimmed first when `trim`. */
  text: (limits: { min?: number; max: number; trim?: boolean }, description?: string) => ({ kind: 'text' as const, ...limits, description }),
  /** Yes or no: `true` or `false` on the wire, a boolean to the handler. */
  flag: (description: string) => ({ kind: 'flag' as const, description }),
  /** A calendar date, YYYY-MM-DD (isoDate()). */
  date: (description?: string) => ({ kind: 'date' as const, description }),
  /** An ISO 8601 date-time with Z or an offset (timestamp()). */
  timestamp: (description?: string) => ({ kind: 'timestamp' as const, description }),
};

type PlainFilter = ReturnType<(typeof filter)[keyof typeof filter]>;
type Filter = PlainFilter | (() => z.ZodType);

const oneOfSchema = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values).optional();
const flagSchema = () => queryBoolean().optional();
const idSchema = () => id().optional();
const dateSchema = () => isoDate().optional();
const timestampSchema = () => timestamp().optional();

/** The schema each filter becomes, so a handler's query is typed as it was with hand-written zod. */
type FilterSchema<E> = E extends { kind: 'id' }
  ? ReturnType<typeof idSchema>
  : E extends { kind: 'oneOf'; values: infer T extends readonly [string, ...string[]] }
    ? ReturnType<typeof oneOfSchema<T>>
    : E extends { kind: 'text' }
      ? z.ZodOptional<z.ZodString>
      : E extends { kind: 'flag' }
        ? ReturnType<typeof flagSchema>
        : E extends { kind: 'date' }
          ? ReturnType<typeof dateSchema>
          : E extends { kind: 'timestamp' }
            ? ReturnType<typeof timestampSchema>
            : E extends () => infer S
              ? S
              : never;
type FiltersShape<F extends Record<string, Filter>> = { [K in keyof F]: FilterSchema<F[K]> };

function filterSchema(declared: Filter): z.ZodType {
  if (typeof declared === 'function') return declared();
  let schema: z.ZodType;
  if (declared.kind === 'id') schema = idSchema();
  else if (declared.kind === 'oneOf') schema = oneOfSchema(declared.values);
  else if (declared.kind === 'flag') schema = flagSchema();
  else if (declared.kind === 'date') schema = dateSchema();
  else if (declared.kind === 'timestamp') schema = timestampSchema();
  else {
    let text = z.string();
    if (declared.trim) text = text.trim();
    if (declared.min !== undefined) text = text.min(declared.min);
    schema = text.max(declared.max).optional();
  }
  return declared.description === undefined ? schema : schema.describe(declared.description);
}

/** What a list query (listQuery) reads without zod: its largest page size, and its cursors and plain filters. */
interface PlainQuery {
  maxLimit: number;
  filters: ReadonlyMap<string, PlainFilter>;
}
/** The list query schemas whose paging parameters and plain filters alone make a whole query. */
const plainQueries = new WeakMap<object, PlainQuery>();

/**
 * A list route's query: the paging parameters and the route's filters (filter.*), built on first
 * use. Filters are optional and have no default, so a query of paging parameters and plain filters
 * alone is complete and is read without zod (readListQuery): a list's first request, like a
 * read's, then loads none. A list whose query needs a filter (orders need their document_type)
 * says so with `requiresFilter`, and every query it gets is parsed with the schema. A property
 * test holds readListQuery to the schema's answers for every list route.
 */
export function listQuery<const F extends Record<string, Filter> = Record<never, never>>(
  filters?: F,
  options: { maxLimit?: number; requiresFilter?: boolean } = {},
): z.ZodObject<ReturnType<typeof paginationQuery> & FiltersShape<F>> {
  const maxLimit = options.maxLimit ?? 100;
  const declared = Object.entries(filters ?? {});
  const schema = onFirstUse(
    () =>
      z.object({
        ...paginationQuery(maxLimit),
        ...Object.fromEntries(declared.map(([name, entry]) => [name, filterSchema(entry)])),
      }) as z.ZodObject<ReturnType<typeof paginationQuery> & FiltersShape<F>>,
  );
  if (!options.requiresFilter) {
    const plain = declared.filter((entry): entry is [string, PlainFilter] => typeof entry[1] !== 'function');
    // The cursors are ids, read like any id filter.
    plainQueries.set(schema, { maxLimit, filters: new Map([['starting_after', filter.id()], ['ending_before', filter.id()], ...plain]) });
  }
  return schema;
}

export interface PagingQuery {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

const LIMIT_PATTERN = /^[1-9][0-9]{0,3}$/;

/** What a plain filter's schema parses `value` into, or undefined where it would refuse it (or is not sure to accept it). */
function readFilter(declared: PlainFilter, value: string): string | boolean | undefined {
  switch (declared.kind) {
    case 'id':
      return readId(value);
    case 'oneOf':
      return declared.values.includes(value) ? value : undefined;
    case 'flag':
      return value === 'true' ? true : value === 'false' ? false : undefined;
    case 'date':
      return readIsoDate(value);
    case 'timestamp':
      return readTimestamp(value);
    case 'text': {
      const text = declared.trim ? value.trim() : value;
      return text.length >= (declared.min ?? 0) && text.length <= declared.max ? text : undefined;
    }
  }
}

/**
 * What a list query (listQuery) parses a query string of paging parameters and plain filters alone
 * into, read without building the schema. Undefined for every other query string: another filter,
 * `expand`, a repeated or bracketed name, a value the schema would have to coerce or refuse; the
 * caller then parses it with the schema and gets the schema's answer. `values` are the query's
 * names and values as the handler stack collects them (queryValues).
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
    const declared = plain.filters.get(name);
    const parsed = declared && readFilter(declared, value);
    if (parsed === undefined) return false;
    query[name] = parsed;
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
