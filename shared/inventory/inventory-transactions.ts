/** Inventory transaction rows: the immutable record of every movement, their wire shape and reads. */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { keysetPage, type Page, type PageRequest } from '../db/keyset';
import { QUANTITY_SCALE, toJsonNumber } from '../money';
import { COST_SCALE, type InventoryTransaction, type TransactionType } from './schemas/inventory';

export const TRANSACTION_COLUMNS = `t.id, 'inventory_transaction' AS object, t.entity_id, t.product_id, t.location_id, t.transaction_type, t.quantity, t.unit_cost,
  t.total_cost, t.uom_id, t.reference_type, t.reference_id, t.transaction_id, t.group_id, t.reason, t.notes, t.metadata, t.occurred_at, t.created_at`;

export type TransactionRow = Omit<InventoryTransaction, 'quantity' | 'unit_cost' | 'total_cost'> & { quantity: string; unit_cost: string; total_cost: string };

export function toTransaction(row: TransactionRow): InventoryTransaction {
  return {
    ...row,
    quantity: toJsonNumber(row.quantity, QUANTITY_SCALE),
    unit_cost: toJsonNumber(row.unit_cost, COST_SCALE),
    total_cost: toJsonNumber(row.total_cost, COST_SCALE),
  };
}

export async function getTransaction(db: Db, entityId: string, transactionId: string): Promise<InventoryTransaction> {
  const row = await db.maybeOne<TransactionRow>(`SELECT ${TRANSACTION_COLUMNS} FROM inventory_transactions t WHERE t.entity_id = $1 AND t.id = $2`, [
    entityId,
    transactionId,
  ]);
  if (!row) throw new ApiError('not_found', { param: 'id', hint: 'No such inventory transaction in this entity.' });
  return toTransaction(row);
}

export interface TransactionFilters {
  product_id?: string;
  location_id?: string;
  transaction_type?: TransactionType;
  reference_type?: string;
  reference_id?: string;
  group_id?: string;
}

export async function listTransactions(db: Db, entityId: string, filters: TransactionFilters, page: PageRequest): Promise<Page<InventoryTransaction>> {
  const where = ['t.entity_id = $1'];
  const params: unknown[] = [entityId];
  for (const [column, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`t.${column} = $${params.length}`);
  }
  const result = await keysetPage<TransactionRow>(db, { table: 'inventory_transactions', alias: 't', select: TRANSACTION_COLUMNS, where, params }, page);
  return { ...result, data: result.data.map(toTransaction) };
}
