/**
 * Posts an inventory movement straight through the data layer, dated in the past, the way the
 * order flows post sale fulfillments and returns (no public endpoint posts these types).
 */
import { getStockProduct, lockBalances, postMovement } from '../../shared/inventory/stock-movements';
import { createEventRecorder } from '../../shared/events/outbox';
import type { TestEntity } from './harness';
import { openOrderQuantitiesSql } from '../../shared/orders/open-order-quantities';

const DAY_MS = 86_400_000;

export async function postMovementDirect(
  owner: TestEntity,
  productId: string,
  locationId: string,
  type: 'sale_fulfillment' | 'build_consume' | 'return',
  quantity: string,
  daysAgo: number,
  options: { unitCost?: string } = {},
): Promise<void> {
  await owner.sql(async (db) => {
    const events = createEventRecorder(db, { entityId: owner.entity.id, mode: 'test', requestId: null });
    const product = await getStockProduct(db, owner.entity.id, productId);
    const balances = await lockBalances(db, owner.entity.id, [{ product_id: productId, location_id: locationId }]);
    await postMovement(
      db,
      owner.entity.id,
      events,
      balances,
      {
        product,
        location_id: locationId,
        transaction_type: type,
        quantity,
        ...(options.unitCost !== undefined && { unit_cost: options.unitCost }),
        occurred_at: new Date(Date.now() - daysAgo * DAY_MS).toISOString(),
        allow_negative: true,
      },
      openOrderQuantitiesSql,
    );
  });
}
