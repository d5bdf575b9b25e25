/**
 * The tag targets the catalog cannot see: order documents and vendor bills, each asked of the
 * capability that owns it (a route may import every capability; the catalog may not).
 */
import type { Db } from '../../shared/db/database';
import type { OwnedResourceExists } from '../../shared/catalog/tags';
import type { TagResourceType } from '../../shared/catalog/schemas/tag';
import { documentExists } from '../../shared/orders/references';
import { vendorBillExists } from '../../shared/payables/references';

/**
 * Order documents share one table: `order` is a quote or sales order, the others their own
 * document_type (a sales order's id tagged as an invoice is a 404). Deleted documents are gone.
 */
const ORDER_DOCUMENT_TYPES: Partial<Record<TagResourceType, readonly string[]>> = {
  order: ['quote', 'sales_order'],
  invoice: ['invoice'],
  return: ['return'],
  purchase_order: ['purchase_order'],
};

export function ownedResourceExists(db: Db, entityId: string): OwnedResourceExists {
  return async (resourceType, resourceId, lock) => {
    if (resourceType === 'vendor_bill') return vendorBillExists(db, entityId, resourceId, lock);
    const documentTypes = ORDER_DOCUMENT_TYPES[resourceType];
    return documentTypes ? documentExists(db, entityId, resourceId, documentTypes, lock) : undefined;
  };
}
