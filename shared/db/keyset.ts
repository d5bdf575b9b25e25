/**
 * Cursor pagination, Stripe style: `limit`, `starting_after`, `ending_before` take object ids,
 * lists are newest first, and the envelope says whether more exist. Queries are keyset queries on
 * (created_at, id); there is no OFFSET anywhere, so page 10,000 costs what page 1 costs.
 */
import type { Db } from './database';
import { ApiError } from '../errors';

export interface PageRequest {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

/** A page as the data layer returns it; the handler stack adds the list's `url`. */
export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface KeysetQuery {
  /** The paged table: its rows carry created_at and id. */
  table: string;
  alias: string;
  /** Joins for the select list (display names and the like). */
  joins?: string;
  select: string;
  /** Filters (entity, status ...) as SQL using $1..$n of `params`. */
  where: string[];
  params: unknown[];
}

/**
 * One page of a keyset query. The cursor row is looked up by id inside the same entity scope, so
 * another entity's id, or an id that does not exist, is a 400 on the cursor parameter.
 */
export async function keysetPage<T extends { id: string }>(db: Db, query: KeysetQuery, page: PageRequest): Promise<Page<T>> {
  if (page.starting_after && page.ending_before) {
    throw new ApiError('parameter_invalid', { param: 'ending_before', hint: 'Pass starting_after or ending_before, not both.' });
  }
  const params = [...query.params];
  const where = [...query.where];
  const cursor = page.starting_after ?? page.ending_before;
  const backwards = page.ending_before !== undefined;
  const { alias } = query;
  if (cursor) {
    params.push(cursor);
    const op = backwards ? '>' : '<';
    where.push(`(${alias}.created_at, ${alias}.id) ${op} (SELECT c.created_at, c.id FROM ${query.table} c WHERE c.id = $${params.length})`);
  }
  const direction = backwards ? 'ASC' : 'DESC';
  params.push(page.limit + 1);
  const sql = `SELECT ${query.select} FROM ${query.table} ${alias} ${query.joins ?? ''} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY ${alias}.created_at ${direction}, ${alias}.id ${direction} LIMIT $${params.length}`;
  const rows = await db.query<T>(sql, params);
  if (cursor && rows.length === 0) {
    const exists = await db.maybeOne(`SELECT 1 FROM ${query.table} WHERE id = $1`, [cursor]);
    if (!exists) {
      throw new ApiError('parameter_invalid', {
        param: backwards ? 'ending_before' : 'starting_after',
        hint: 'The cursor is not the id of an object in this list.',
      });
    }
  }
  const hasMore = rows.length > page.limit;
  const data = rows.slice(0, page.limit);
  if (backwards) data.reverse();
  const edge = backwards ? data[0] : data[data.length - 1];
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore && edge ? edge.id : null };
}
