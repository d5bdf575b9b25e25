/** What other capabilities ask about orders' records: whether a document exists, whether lines use a unit. */
import type { Db } from '../db/database';

/**
 * An order document of one of the types exists in the entity and is not deleted; `lock` takes a
 * key-share lock so it cannot be deleted while the caller writes a row that refers to it.
 */
export async function documentExists(db: Db, entityId: string, id: string, documentTypes: readonly string[], lock: boolean): Promise<boolean> {
  const found = await db.maybeOne(
    `SELECT 1 FROM orders WHERE entity_id = $1 AND id = $2 AND document_type = ANY($3::text[]) AND deleted_at IS NULL ${lock ? 'FOR KEY SHARE' : ''}`,
    [entityId, id, documentTypes],
  );
  return found !== undefined;
}

/** A line of any order (deleted or closed ones too: a line keeps its unit) is in the unit. */
export async function unitOnOrderLines(db: Db, entityId: string, uomId: string): Promise<boolean> {
  const found = await db.maybeOne('SELECT 1 FROM order_lines WHERE entity_id = $1 AND unit_of_measure_id = $2 LIMIT 1', [entityId, uomId]);
  return found !== undefined;
}
