/** The list conventions on the wire: the paging query parameters, a list's query and the list envelope. */
import * as z from 'zod/mini';
import { param, queryParams, type Param } from './parameters';

export const DEFAULT_PAGE_LIMIT = 25;

/** The paging parameters of a list whose pages hold up to `maxLimit` objects. */
const pagingParams = (maxLimit: number) => ({
  limit: param.int({ min: 1, max: maxLimit }, `Page size, 1 to ${maxLimit}.`, { default: DEFAULT_PAGE_LIMIT }),
  starting_after: param.id('An object id from a previous page: return the objects after it (older).'),
  ending_before: param.id('An object id from a previous page: return the objects before it (newer); not with starting_after.'),
});

/** A list route's query: the paging parameters and the route's filters (param.*), read like any query (queryParams). */
export function listQuery<const F extends Record<string, Param> = Record<never, never>>(filters?: F, options: { maxLimit?: number } = {}) {
  return queryParams({ ...pagingParams(options.maxLimit ?? 100), ...(filters as F) });
}

export function listEnvelope<T extends z.ZodMiniType>(item: T) {
  return z.object({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean().check(z.describe('Whether more objects exist in the direction of paging.')),
    next_cursor: z
      .nullable(z.string())
      .check(z.describe('Pass as starting_after (or as ending_before, when paging backwards) to continue; null on the last page.')),
    url: z.string().check(z.describe('The path of this list.')),
  });
}
