/** Editing a document's header; a closed document keeps its amounts and obligations. */
import type { Db } from '../db/database';
import { previousAttributes } from '../events/outbox';
import type { Order } from './schemas/order';
import type { OrderUpdate } from './schemas/order-requests';
import { documentLock, lockedError } from './order-editability';
import { getOrder } from './order-reads';
import { checkParty, updateOrderColumns } from './order-store';
import { recalculatedOrder } from './recalculate-order';
import { checkLocation } from '../inventory/locations';
import { ApiError } from '../errors';

const HEADER_COLUMNS = [
  'location_id',
  'po_number',
  'order_date',
  'due_date',
  'expires_at',
  'shipping_total',
  'tax_exempt',
  'delivery_option',
  'notes',
  'internal_notes',
  'ship_complete',
  'source_platform',
  'external_order_id',
  'external_order_number',
  'metadata',
  'sales_channel_id',
] as const;
/** Fields a closed document still accepts: they change no amount and no obligation. */
const ALWAYS_EDITABLE = new Set(['notes', 'internal_notes', 'metadata']);

export async function updateOrder(db: Db, entityId: string, orderId: string, patch: OrderUpdate): Promise<{ order: Order; previous: Partial<Order> }> {
  const before = await getOrder(db, entityId, orderId, { lock: true });
  const lock = documentLock(before);
  const changing = Object.keys(patch).filter((key) => patch[key as keyof OrderUpdate] !== undefined);
  if (lock && changing.some((key) => !ALWAYS_EDITABLE.has(key))) {
    throw lockedError(before, lock, 'A closed document accepts changes to notes, internal_notes and metadata only.');
  }
  if (patch.expires_at != null && before.document_type !== 'quote') {
    throw new ApiError('parameter_invalid', { param: 'expires_at', hint: 'Only quotes expire.' });
  }
  // account_id is stored as the vendor of a purchase order, the customer account of anything else.
  const partyColumn = before.document_type === 'purchase_order' ? 'vendor_id' : 'customer_account_id';
  const changes: Record<string, unknown> = { ...patch };
  if (patch.account_id !== undefined && patch.account_id !== before.account_id) {
    await checkParty(db, entityId, before.document_type, patch.account_id);
    changes[partyColumn] = patch.account_id;
  }
  if (patch.location_id) await checkLocation(db, entityId, patch.location_id, { lock: true });
  // A quote given another expires_at may lapse again: the expiry job announces that lapse anew.
  const movesExpiry = patch.expires_at !== undefined && !sameInstant(patch.expires_at, before.expires_at);
  if (movesExpiry) changes.expired_at = null;
  const columns = [partyColumn, ...HEADER_COLUMNS, ...(movesExpiry ? ['expired_at'] : [])];
  if (!(await updateOrderColumns(db, entityId, orderId, changes, columns))) return { order: before, previous: {} };
  const order = await recalculatedOrder(db, entityId, orderId);
  const { lines: _l, adjustments: _a, ...beforeHeader } = before;
  const { lines: _l2, adjustments: _a2, ...afterHeader } = order;
  return { order, previous: previousAttributes(beforeHeader, afterHeader) };
}

function sameInstant(a: string | null, b: string | null): boolean {
  return a === null || b === null ? a === b : new Date(a).getTime() === new Date(b).getTime();
}
