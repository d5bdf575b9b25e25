/** Batch load of manufacturers by id, for expand[]=manufacturer (row level security confines it). */
import type { Db } from '../db/database';
import type { Manufacturer } from './schemas/manufacturer';

export function loadManufacturers(db: Db, ids: string[]): Promise<Manufacturer[]> {
  return db.query<Manufacturer>(
    `SELECT id, 'manufacturer' AS object, entity_id, name, website, notes, metadata, created_at, updated_at FROM manufacturers WHERE id = ANY($1::uuid[])`,
    [ids],
  );
}
