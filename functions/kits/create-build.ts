import { buildKits } from '../../shared/inventory/stock-operations';
import { openOrderQuantitiesSql } from '../../shared/orders/open-order-quantities';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { KitBuild, KitBuildCreate } from '../../shared/inventory/schemas/inventory';

export const route = defineRoute({
  id: 'kits.builds.create',
  method: 'POST',
  path: '/v1/kits/{id}/builds',
  tag: 'Kits',
  summary: 'Build (assemble) kits',
  description:
    "Draws quantity x quantity_per_kit of every component at the location as posted build_consume transactions (FIFO cost) and receives the kits as one build_produce transaction at the cost drawn. All rows share a group_id; a component short of stock refuses the whole build with 422 insufficient_stock (details name the product). A bundle is never built: 422 product_not_stockable. The kits' layer carries exactly the cents the component draws took, so a build posts nothing unless it settles negative kit stock (that part to inventory_adjustments, dated occurred_at); occurred_at in a closed period is 422 period_closed.",
  scopes: ['products:write'],
  params: idParams,
  body: KitBuildCreate,
  response: KitBuild,
  successStatus: 201,
  errors: ['insufficient_stock', 'product_not_stockable', 'period_closed'],
  handler: (ctx, { params, body }) => buildKits(ctx.db, ctx, params.id, body, openOrderQuantitiesSql),
});

export const handler = lambdaHandler(route, idempotency);
