/**
 * Drop-ship purchase orders: a confirmed sales order's drop-ship lines are ordered from
 * their vendors, who ship straight to the customer. Each purchase order line names its sales line
 * (drop_ship_source_line_id) and each sales line its purchase order (drop_ship_po_id); from then
 * on the sales line's quantity and drop-ship fields are frozen (E5 answers 409
 * dropship_po_issued_blocks_line_edit). Receiving the purchase order fulfils the sales line
 * (purchase-receipts.ts).
 */
import type { Db } from '../db/database';
import { ApiError } from '../errors';
import { amount } from '../money';
import type { Order } from './schemas/order';
import { begin, invalidTransition } from './order-state';
import { createOrder } from './create-order';
import { getOrder } from './order-reads';
import { preferredVendors, productVendorLinks } from '../catalog/product-facts';
import { loadParties } from '../parties/parties';

interface DropShipLine {
  id: string;
  product_id: string;
  quantity: string;
  quantity_fulfilled: string;
  drop_ship_vendor_id: string | null;
  preferred_vendor_id: string | null;
}

/**
 * One purchase order per vendor over the sales order's drop-ship lines that have no live purchase
 * order yet (none issued, or the one issued was cancelled) and units left to ship. The vendor is
 * the line's drop_ship_vendor_id, else the product's preferred vendor; quantities are the units
 * not yet fulfilled; costs come from the product-vendor relationship's vendor_cost, else the
 * product's cost (the purchase order pricing of POST /v1/orders). The purchase orders are drafts
 * at the sales order's location, to be sent (POST /v1/orders/{id}/send) like any other.
 */
export async function createDropShipPurchaseOrders(
  db: Db,
  actor: { entityId: string; userId: string },
  salesOrderId: string,
): Promise<{ purchaseOrders: Order[]; salesOrder: Order }> {
  const { entityId } = actor;
  // A drop-ship purchase order is a way of shipping: the order must be one that may ship now.
  const { order } = await begin(db, entityId, salesOrderId, 'fulfill');
  if (order.document_type !== 'sales_order') {
    throw invalidTransition(order, 'fulfill', 'not_a_sales_order', 'Drop-ship purchase orders are issued from confirmed sales orders.');
  }
  const unshipped = await db.query<Omit<DropShipLine, 'preferred_vendor_id'>>(
    `SELECT l.id, l.product_id, l.quantity, l.quantity_fulfilled, l.drop_ship_vendor_id
     FROM order_lines l
     LEFT JOIN orders po ON po.entity_id = l.entity_id AND po.id = l.drop_ship_po_id
     WHERE l.entity_id = $1 AND l.order_id = $2 AND l.is_drop_ship AND l.kit_parent_line_id IS NULL AND l.quantity > l.quantity_fulfilled
       AND (l.drop_ship_po_id IS NULL OR po.order_status = 'cancelled' OR po.deleted_at IS NOT NULL)
     ORDER BY l.sort_order, l.created_at, l.id FOR UPDATE OF l`,
    [entityId, order.id],
  );
  const preferred = await preferredVendors(
    db,
    entityId,
    unshipped.map((line) => line.product_id),
  );
  const lines: DropShipLine[] = unshipped.map((line) => ({ ...line, preferred_vendor_id: preferred.get(line.product_id) ?? null }));
  if (lines.length === 0) {
    throw new ApiError('no_drop_ship_lines', {
      param: 'id',
      hint: 'No line of this sales order is marked is_drop_ship with units left to ship and no live drop-ship purchase order.',
    });
  }
  const byVendor = new Map<string, DropShipLine[]>();
  for (const line of lines) {
    const vendorId = line.drop_ship_vendor_id ?? line.preferred_vendor_id;
    if (!vendorId) {
      throw new ApiError('drop_ship_vendor_missing', {
        param: 'id',
        details: { line_id: line.id, product_id: line.product_id },
      });
    }
    byVendor.set(vendorId, [...(byVendor.get(vendorId) ?? []), line]);
  }
  const vendors = await loadParties(db, 'vendor', [...byVendor.keys()]);
  const archived = vendors.find((vendor) => vendor.is_archived);
  if (archived) {
    throw new ApiError('party_archived', { param: 'id', hint: 'A drop-ship vendor of this order is archived.', details: { vendor_id: archived.id } });
  }
  const relationships = await productVendorLinks(
    db,
    entityId,
    lines.map((line) => line.product_id),
    [...byVendor.keys()],
  );
  const relationship = (productId: string, vendorId: string) => relationships.find((row) => row.product_id === productId && row.vendor_id === vendorId)?.id;

  const purchaseOrders: Order[] = [];
  for (const [vendorId, vendorLines] of byVendor) {
    const created = await createOrder(db, actor, {
      document_type: 'purchase_order',
      account_id: vendorId,
      location_id: order.location_id,
      notes: `Drop ship for ${order.order_number}`,
      metadata: { drop_ship_sales_order_id: order.id, drop_ship_sales_order_number: order.order_number },
      lines: vendorLines.map((line) => {
        const productVendorId = relationship(line.product_id, vendorId);
        return {
          product_id: line.product_id,
          quantity: amount(line.quantity).minus(line.quantity_fulfilled).toString(),
          ...(productVendorId ? { product_vendor_id: productVendorId } : {}),
        };
      }),
    });
    // createOrder keeps the lines in the order given (sort_order 1..n).
    const poLines = created.lines!;
    await db.query(
      `UPDATE order_lines l SET drop_ship_source_line_id = v.source, is_drop_ship = true, updated_at = now() FROM unnest($2::uuid[], $3::uuid[]) AS v(id, source)
       WHERE l.entity_id = $1 AND l.id = v.id`,
      [entityId, poLines.map((line) => line.id), vendorLines.map((line) => line.id)],
    );
    await db.query(`UPDATE order_lines SET drop_ship_po_id = $3, drop_ship_vendor_id = $4, updated_at = now() WHERE entity_id = $1 AND id = ANY($2::uuid[])`, [
      entityId,
      vendorLines.map((line) => line.id),
      created.id,
      vendorId,
    ]);
    purchaseOrders.push(await getOrder(db, entityId, created.id));
  }
  await db.query('UPDATE orders SET updated_at = now() WHERE entity_id = $1 AND id = $2', [entityId, order.id]);
  return { purchaseOrders, salesOrder: await getOrder(db, entityId, order.id) };
}
