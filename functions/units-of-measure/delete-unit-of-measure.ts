import { deleteUnitOfMeasure, getUnitOfMeasure } from '../../shared/catalog/units-of-measure';
import { unitHasTransactions } from '../../shared/inventory/stock-usage';
import { unitOnOrderLines } from '../../shared/orders/references';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { deletedObject } from '../../shared/schemas/common';
import { idParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'units_of_measure.delete',
  method: 'DELETE',
  path: '/v1/units-of-measure/{id}',
  tag: 'Units of measure',
  summary: 'Delete a unit of measure',
  description:
    'Permanently deletes a unit of measure and returns {id, object, deleted}. Refused with 409 uom_in_use while a product, a purchase order line or an inventory transaction uses it (references.products lists up to 100 product ids, references.product_count counts them all, references.has_order_lines and references.has_inventory_transactions say whether lines or transactions use it; a line keeps its unit even on a deleted or closed order); the base unit of a type cannot be deleted while other units of that type exist (409 uom_is_base).',
  scopes: ['settings:write'],
  params: idParams,
  response: deletedObject('unit_of_measure'),
  errors: ['uom_in_use', 'uom_is_base'],
  current: (ctx, { params }) => getUnitOfMeasure(ctx.db, ctx.entityId, params.id, { lock: true }),
  handler: async (ctx, { params }) => {
    const unit = await deleteUnitOfMeasure(ctx.db, ctx.entityId, params.id, async () => ({
      has_inventory_transactions: await unitHasTransactions(ctx.db, ctx.entityId, params.id),
      has_order_lines: await unitOnOrderLines(ctx.db, ctx.entityId, params.id),
    }));
    await ctx.events.record('unit_of_measure.deleted', unit);
    return { id: unit.id, object: 'unit_of_measure' as const, deleted: true as const };
  },
});

export const handler = lambdaHandler(route, idempotency);
