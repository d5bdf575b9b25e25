import { listProducts } from '../../shared/catalog/products';
import { productDemand } from '../../shared/inventory/product-demand';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { Product, PRODUCT_TYPES } from '../../shared/catalog/schemas/product';
import { PRODUCT_EXPAND } from './expand';

export const ProductListQuery = listQuery({
  product_type: param.oneOf(PRODUCT_TYPES, 'Only products of this type.'),
  is_active: param.flag('Only active (true) or inactive (false) products.'),
  manufacturer_id: param.id('Only products of this manufacturer.'),
  sku: param.text({ min: 1, max: 100 }, 'Exact SKU, case-insensitive.'),
  q: param.text({ min: 1, max: 100, trim: true }, 'Search: SKU starting with, or name containing, this text (case-insensitive).'),
  external_id: param.text({ min: 1, max: 200 }, 'Exact external_id of a migrated row.'),
});

export const route = defineRoute({
  id: 'products.list',
  method: 'GET',
  path: '/v1/products',
  tag: 'Products',
  summary: 'List products',
  description:
    "Newest first. Filters combine with AND. demand_avg_per_day is the sum of the product's location balances' demand_avg_per_day (GET /v1/inventory/balances): fulfilled sales plus posted build_consume draws of the last 365 days, divided by the days since each balance's first movement (at most 365, at least 1); each physical decrement counts once, for the product it drew. The demand of a page is loaded in one query.",
  scopes: ['products:read'],
  query: ProductListQuery,
  response: listEnvelope(Product),
  list: true,
  expand: PRODUCT_EXPAND,
  handler: (ctx, { query }) => {
    const { limit, starting_after, ending_before, ...filters } = query;
    return listProducts(ctx.db, ctx.entityId, filters, { limit, starting_after, ending_before }, productDemand);
  },
});

export const handler = lambdaHandler(route);
