/** Creating a document: a numbered draft header, its lines, and its totals. */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { newId } from '../ids';
import type { Order } from './schemas/order';
import type { OrderCreate } from './schemas/order-requests';
import { insertLines, type OrderHeader } from './order-line-insert';
import { checkParty, CURRENT_ORDER_COLUMNS, DEFAULT_LOCATION, insertOrder, refuseTakenExternalOrderId, type CurrentOrderRow } from './order-store';
import { INSERTED_FACTS_COLUMNS, type DocumentFacts } from './document-money';
import { recalculatedOrder } from './recalculate-order';
import { checkLocation } from '../inventory/locations';

export async function createOrder(db: Db, actor: { entityId: string; userId: string }, input: OrderCreate & { imported_at?: string }): Promise<Order> {
  const { entityId } = actor;
  const party = await checkParty(db, entityId, input.document_type, input.account_id);
  if (input.invoice_type !== undefined && input.document_type !== 'invoice') {
    throw new ApiError('parameter_invalid', { param: 'invoice_type', hint: 'invoice_type applies to invoices only.' });
  }
  if (input.expires_at != null && input.document_type !== 'quote') {
    throw new ApiError('parameter_invalid', { param: 'expires_at', hint: 'Only quotes expire.' });
  }
  if (input.location_id) await checkLocation(db, entityId, input.location_id, { lock: true });
  await refuseTakenExternalOrderId(db, entityId, input);
  const id = newId();
  const isPurchase = input.document_type === 'purchase_order';
  const header: OrderHeader = { id, document_type: input.document_type, order_status: 'draft', payment_status: 'unpaid', account_id: input.account_id };
  // The header as inserted, with its facts: the recalculation below needs to read neither.
  const inserted = await insertOrder<CurrentOrderRow & DocumentFacts>(
    db,
    entityId,
    {
      id,
      document_type: input.document_type,
      customer_account_id: isPurchase ? null : input.account_id,
      vendor_id: isPurchase ? input.account_id : null,
      location_id: input.location_id === undefined ? DEFAULT_LOCATION : input.location_id,
      po_number: input.po_number ?? null,
      order_date: input.order_date ?? null,
      due_date: input.due_date ?? null,
      shipping_total: input.shipping_total ?? '0',
      tax_exempt: input.tax_exempt ?? party.tax_exempt,
      delivery_option: input.delivery_option ?? null,
      notes: input.notes ?? null,
      internal_notes: input.internal_notes ?? null,
      invoice_type: input.document_type === 'invoice' ? (input.invoice_type ?? 'manual') : null,
      ship_complete: input.ship_complete ?? false,
      source_platform: input.source_platform ?? null,
      external_order_id: input.external_order_id ?? null,
      external_order_number: input.external_order_number ?? null,
      metadata: input.metadata ?? {},
      created_by_user_id: actor.userId,
      sales_channel_id: input.sales_channel_id ?? null,
      migration_batch_id: input.migration_batch_id ?? null,
      imported_at: input.imported_at ?? null,
      expires_at: input.expires_at ?? null,
    },
    `${CURRENT_ORDER_COLUMNS}, ${INSERTED_FACTS_COLUMNS}`,
  );
  const lines = await insertLines(db, entityId, header, input.lines ?? [], (index) => `lines[${index}].`, null, {
    shipping_total: input.shipping_total ?? '0',
    tax_exempt: input.tax_exempt ?? party.tax_exempt,
  });
  return recalculatedOrder(db, entityId, id, lines && { order: inserted, lines });
}
