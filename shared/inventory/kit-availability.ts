/** How many kits the stock on hand can build, per component and in all (E24's availability). */
import { productDemand } from './product-demand';
import type { Db } from '../db/database';
import { getKit } from '../catalog/kits';
import { QUANTITY_SCALE, toJsonNumber, ZERO } from '../money';
import { buildableKits } from './buildable-kits';
import { availableByProduct } from './inventory-balances';
import { checkLocation } from './locations';
import type { OpenOrderQuantitiesSql } from './open-order-quantities';

export async function kitAvailability(db: Db, entityId: string, kitId: string, openQuantities: OpenOrderQuantitiesSql, locationId?: string) {
  const kit = await getKit(db, entityId, kitId, productDemand);
  if (locationId) await checkLocation(db, entityId, locationId);
  const available = await availableByProduct(
    db,
    entityId,
    kit.components.map((c) => c.component_product_id),
    openQuantities,
    locationId,
  );
  const components = kit.components.map((component) => {
    const stock = available.get(component.component_product_id) ?? ZERO;
    return {
      component_product_id: component.component_product_id,
      component_product_sku: component.component_product_sku,
      quantity_per_kit: component.quantity_per_kit,
      available: toJsonNumber(stock, QUANTITY_SCALE),
      buildable_quantity: buildableKits([{ quantity_per_kit: String(component.quantity_per_kit), available: stock }]),
    };
  });
  return {
    object: 'kit_availability' as const,
    kit_product_id: kit.id,
    location_id: locationId ?? null,
    buildable_quantity: buildableKits(components.map((c) => ({ quantity_per_kit: String(c.quantity_per_kit), available: c.available }))),
    components,
  };
}
