/**
 * The unit of measure a purchase order line buys in (E28: a unit in use on an order line cannot be
 * deleted). Only purchase order lines carry one; the line's quantity stays in the product's stock
 * unit (on_order and receiving count it as is), the unit is what the vendor sells in.
 */
import type { Db } from '../db/database';
import { checkUnitOfMeasure, unitsOfMeasure } from './order-line-insert';

/** Validates and stores a line's unit_of_measure_id; undefined changes nothing. Runs in the request's transaction. */
export async function setLineUnitOfMeasure(
  db: Db,
  entityId: string,
  documentType: string,
  lineId: string,
  unitId: string | null | undefined,
  param: string,
): Promise<void> {
  if (unitId === undefined) return;
  const units = documentType === 'purchase_order' ? await unitsOfMeasure(db, entityId, [unitId]) : new Map<string, unknown>();
  checkUnitOfMeasure(documentType, units, unitId, param);
  await db.query('UPDATE order_lines SET unit_of_measure_id = $3 WHERE entity_id = $1 AND id = $2', [entityId, lineId, unitId]);
}
