/** Small SQL builders shared by the data modules. */

/**
 * `SET a = $n, b = $n+1, updated_at = now()` for the patch members that are allowed columns.
 * Returns undefined when the patch changes nothing.
 */
export function updateSet(patch: Record<string, unknown>, columns: readonly string[], params: unknown[]): string | undefined {
  const assignments: string[] = [];
  for (const column of columns) {
    if (patch[column] === undefined) continue;
    params.push(patch[column]);
    assignments.push(`${column} = $${params.length}`);
  }
  if (assignments.length === 0) return undefined;
  return `SET ${[...assignments, 'updated_at = now()'].join(', ')}`;
}

/** Serialises a transaction's work on one entity's resource family (first-default rules and the like). */
export const lockEntityResource = (resource: string) => `SELECT pg_advisory_xact_lock(hashtextextended(current_entity_id()::text || ':${resource}', 0))`;

/** Lower-cases a search term and escapes LIKE's wildcards, for `lower(col) LIKE '%' || $n || '%'`. */
export const likeEscape = (value: string) => value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The WHERE conditions of a list in one entity: `alias.entity_id = $1`, then one condition per
 * filter the caller gave. `add` skips an undefined value; otherwise it binds the value as the next
 * parameter and passes its placeholder (`$n`) to `condition`.
 */
export function entityFilters(alias: string, entityId: string) {
  const where = [`${alias}.entity_id = $1`];
  const params: unknown[] = [entityId];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    if (value === undefined) return;
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  return { where, params, add };
}
