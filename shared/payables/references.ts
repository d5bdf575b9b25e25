/** What other capabilities ask about payables' records. */
import type { Db } from '../db/database';

/** The vendor bill exists in the entity; `lock` takes a key-share lock so it cannot be deleted while the caller writes a row that refers to it. */
export async function vendorBillExists(db: Db, entityId: string, billId: string, lock: boolean): Promise<boolean> {
  const found = await db.maybeOne(`SELECT 1 FROM vendor_bills WHERE entity_id = $1 AND id = $2 ${lock ? 'FOR KEY SHARE' : ''}`, [entityId, billId]);
  return found !== undefined;
}
