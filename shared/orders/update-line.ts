/** E5: editing one line, under the closed-document, kit and drop-ship rules; a paid document needs override. */
import type { Db } from '../db/database';
import { requirePermission } from '../auth/permissions';
import { ApiError } from '../errors';
import { previousAttributes } from '../events/outbox';
import { amount, QUANTITY_SCALE, round, toJsonNumber } from '../money';
import type { Order, OrderAdjustment, OrderLineItem } from './schemas/order';
import { dropCouponsBelowMinimum } from './coupon-minimums';
import type { OrderLineUpdate } from './schemas/order-requests';
import { documentLock, lineFloor, lockedError } from './order-editability';
import { catalogPrices, checkedTaxRate, checkVendor, productsById, resolveSellRate, taxRatesById, vendorIds } from './order-line-insert';
import { followKitQuantity, lineRow, updateLineRow } from './order-line-store';
import { setLineUnitOfMeasure } from './order-line-uom';
import { toOrder } from './order-mapping';
import { refreshFulfillmentProgress } from './order-progress';
import { getOrderHeader, linesOf } from './order-reads';
import { linkedPurchaseOrder, recordRevision, touchOrder } from './order-store';
import { recalculateOrder } from './recalculate-order';

const REVISION_OVERRIDE_PERMISSION = 'orders.revision_override';

export interface LineUpdateResult {
  line: OrderLineItem;
  order: Order;
  previousOrder: Partial<Order>;
  overridden: boolean;
  /** Coupons whose minimum subtotal the edited document no longer meets: dropped (order_adjustment.deleted). */
  droppedCoupons: OrderAdjustment[];
}

/** Edits one line and recalculates the order. */
export async function updateLine(
  db: Db,
  actor: { entityId: string; userId: string; keyId: string },
  orderId: string,
  itemId: string,
  patch: OrderLineUpdate,
): Promise<LineUpdateResult> {
  const { entityId } = actor;
  // The header only: the lines are read (once) by the recalculation.
  const order = await getOrderHeader(db, entityId, orderId, { lock: true });
  const line = await lineRow(db, entityId, orderId, itemId);

  const quantityChanges = patch.quantity !== undefined && !amount(patch.quantity).eq(line.quantity);
  const dropShipChanges =
    quantityChanges ||
    (patch.is_drop_ship !== undefined && patch.is_drop_ship !== line.is_drop_ship) ||
    (patch.drop_ship_vendor_id !== undefined && patch.drop_ship_vendor_id !== line.drop_ship_vendor_id);
  if (line.drop_ship_po_id && dropShipChanges) {
    const po = await linkedPurchaseOrder(db, entityId, line.drop_ship_po_id);
    throw new ApiError('dropship_po_issued_blocks_line_edit', {
      param: patch.quantity !== undefined ? 'quantity' : patch.is_drop_ship !== undefined ? 'is_drop_ship' : 'drop_ship_vendor_id',
      details: { linked_purchase_order: po ?? { id: line.drop_ship_po_id } },
    });
  }
  if (line.kit_parent_line_id !== null && Object.keys(patch).some((key) => key !== 'notes' && key !== 'override' && key !== 'override_reason')) {
    throw new ApiError('line_not_editable', {
      param: 'item_id',
      hint: "A kit component line follows its kit's line: change the kit's line instead.",
      details: { reason: 'kit_component', kit_parent_line_id: line.kit_parent_line_id },
    });
  }
  const lock = documentLock(order);
  let overridden = false;
  if (lock) {
    if (!patch.override || !lock.overridable) {
      throw lockedError(
        order,
        lock,
        lock.overridable ? 'This document is paid: revise the order, or send override true (needs the orders.revision_override permission).' : undefined,
      );
    }
    await requirePermission(db, { entityId, userId: actor.userId }, REVISION_OVERRIDE_PERMISSION, {
      param: 'override',
      hint: `Editing a paid document needs the ${REVISION_OVERRIDE_PERMISSION} permission.`,
    });
    overridden = true;
  }

  const newQuantity = patch.quantity ?? line.quantity;
  const floor = lineFloor(line);
  if (amount(newQuantity).lt(floor.value)) {
    throw new ApiError('line_quantity_below_floor', {
      param: 'quantity',
      details: { floor: toJsonNumber(floor.value, QUANTITY_SCALE), reason: floor.reason },
    });
  }
  if (patch.discount_amount !== undefined && patch.discount_percent !== undefined && patch.discount_percent !== null) {
    throw new ApiError('parameter_invalid', { param: 'discount_percent', hint: 'Send discount_amount or discount_percent, not both.' });
  }
  const override = resolveSellRate(patch, (name) => name);
  let sellRate = override ?? line.sell_rate;
  let listPrice = line.list_price;
  if (override === undefined && quantityChanges && !line.price_overridden) {
    // The line's product exists (a foreign key).
    const product = (await productsById(db, entityId, [line.product_id])).get(line.product_id)!;
    const [price] = await catalogPrices(db, entityId, order.document_type, order.account_id, [{ product, quantity: newQuantity }]);
    sellRate = price.sell_rate;
    listPrice = price.list_price;
  }
  const lineSubtotal = round(amount(sellRate).times(newQuantity));
  const discountAmount = patch.discount_amount ?? (patch.discount_percent !== undefined ? '0' : line.discount_amount);
  const discountPercent = patch.discount_amount !== undefined ? null : patch.discount_percent !== undefined ? patch.discount_percent : line.discount_percent;
  if (discountPercent === null && amount(discountAmount).gt(lineSubtotal)) {
    throw new ApiError('parameter_invalid', { param: 'discount_amount', hint: 'A line discount cannot exceed the line subtotal.' });
  }
  let taxRateId = line.tax_rate_id;
  let rate = line.tax_rate;
  if (patch.tax_rate_id !== undefined) {
    taxRateId = patch.tax_rate_id;
    rate = taxRateId ? checkedTaxRate(await taxRatesById(db, entityId, [taxRateId]), taxRateId, 'tax_rate_id') : null;
  }
  if (patch.drop_ship_vendor_id) checkVendor(await vendorIds(db, entityId, [patch.drop_ship_vendor_id]), patch.drop_ship_vendor_id, 'drop_ship_vendor_id');

  await updateLineRow(db, entityId, line.id, {
    quantity: newQuantity,
    sell_rate: sellRate,
    list_price: listPrice,
    price_overridden: override !== undefined,
    discount_amount: discountPercent === null ? discountAmount : '0',
    discount_percent: discountPercent,
    tax_rate_id: taxRateId,
    tax_rate: rate,
    notes: patch.notes !== undefined ? patch.notes : line.notes,
    is_drop_ship: patch.is_drop_ship ?? line.is_drop_ship,
    drop_ship_vendor_id: patch.drop_ship_vendor_id !== undefined ? patch.drop_ship_vendor_id : line.drop_ship_vendor_id,
    cost_follows_price: order.document_type === 'purchase_order',
  });
  await setLineUnitOfMeasure(db, entityId, order.document_type, line.id, patch.unit_of_measure_id, 'unit_of_measure_id');
  if (quantityChanges) await followKitQuantity(db, entityId, line.id, newQuantity);
  if (overridden) {
    const changes = Object.fromEntries(Object.entries(patch).filter(([key]) => key !== 'override' && key !== 'override_reason'));
    await recordRevision(db, entityId, {
      orderId,
      lineId: line.id,
      userId: actor.userId,
      keyId: actor.keyId,
      reason: patch.override_reason ?? null,
      lockReason: lock!.reason,
      changes,
    });
  } else {
    await touchOrder(db, entityId, orderId);
  }
  if (quantityChanges) await refreshFulfillmentProgress(db, entityId, order);
  // The answer is the line, and the event carries the order's header (events leave lines out), so
  // only this line is rendered: a one-line edit of a 500-line order does not build 500 lines.
  let recalculated = await recalculateOrder(db, entityId, orderId);
  const droppedCoupons = await dropCouponsBelowMinimum(db, entityId, orderId);
  if (droppedCoupons.length) recalculated = await recalculateOrder(db, entityId, orderId);
  const edited = (await linesOf(db, entityId, [recalculated.order], [await lineRow(db, entityId, orderId, line.id, false)])).get(orderId)!;
  const after = toOrder(recalculated.order);
  const { lines: _l, adjustments: _a, ...beforeHeader } = order;
  const { lines: _l2, adjustments: _a2, ...afterHeader } = after;
  return {
    line: edited[0],
    order: after,
    previousOrder: previousAttributes(beforeHeader, afterHeader),
    overridden,
    droppedCoupons,
  };
}
