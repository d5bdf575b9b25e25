/** The list conventions on the wire: the paging query parameters and the list envelope. */
import { z } from 'zod';
import { id } from './common';

export const DEFAULT_PAGE_LIMIT = 25;

export function paginationQuery(maxLimit = 100) {
  return {
    limit: z.coerce.number().int().min(1).max(maxLimit).default(DEFAULT_PAGE_LIMIT).describe(`Page size, 1 to ${maxLimit}.`),
    starting_after: id().optional().describe('An object id from a previous page: return the objects after it (older).'),
    ending_before: id().optional().describe('An object id from a previous page: return the objects before it (newer).'),
  };
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
