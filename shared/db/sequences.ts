/** Gap-free per-entity counters for human-facing numbers. */
import type { Db } from './database';

/**
 * Takes the next number of `name` for the current entity, inside the caller's transaction. The
 * counter row stays locked until that transaction ends, which is what makes the numbers gap-free.
 */
export async function nextNumber(db: Db, entityId: string, name: string): Promise<number> {
  const row = await db.one<{ last_value: number }>(
    `INSERT INTO number_sequences (entity_id, name, last_value) VALUES ($1, $2, 1)
     ON CONFLICT (entity_id, name) DO UPDATE SET last_value = number_sequences.last_value + 1
     RETURNING last_value`,
    [entityId, name],
  );
  return row.last_value;
}

/**
 * nextNumber inside the statement that inserts the document, so numbering costs no round trip of
 * its own: a common table expression `taken_number` whose one row's `value` is the number
 * formatted as formatNumber does, for `prefix` (all three arguments are the statement's
 * parameters, e.g. '$2'). The counter row is locked exactly as by nextNumber.
 */
export function takenNumberCte(entityId: string, name: string, prefix: string, width = 6): string {
  return `taken_number AS (
    INSERT INTO number_sequences (entity_id, name, last_value) VALUES (${entityId}, ${name}, 1)
    ON CONFLICT (entity_id, name) DO UPDATE SET last_value = number_sequences.last_value + 1
    RETURNING ${prefix}::text || lpad(last_value::text, greatest(${width}, length(last_value::text)), '0') AS value)`;
}

/** `prefix` + zero-padded number, e.g. formatNumber('SO-', 42) → 'SO-000042'. */
export function formatNumber(prefix: string, value: number, width = 6): string {
  return `${prefix}${String(value).padStart(width, '0')}`;
}
