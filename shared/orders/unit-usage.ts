/** Whether order lines use a unit of measure: what the catalog's deletion of a unit asks orders. */
import type { Db } from '../db/database';

/** A line of any order (deleted or closed ones too: a line keeps its unit) is in the unit. */
export async function unitOnOrderLines(db: Db, entityId: string, uomId: string): Promise<boolean> {
  const found = await db.maybeOne('SELECT 1 FROM order_lines WHERE entity_id = $1 AND unit_of_measure_id = $2 LIMIT 1', [entityId, uomId]);
  return found !== undefined;
}
