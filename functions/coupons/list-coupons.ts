import { listCoupons } from '../../shared/orders/coupons';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param } from '../../shared/schemas/parameters';
import { defineRoute } from '../../shared/http/route';
import { Coupon } from '../../shared/orders/schemas/coupon';

export const route = defineRoute({
  id: 'coupons.list',
  method: 'GET',
  path: '/v1/coupons',
  tag: 'Coupons',
  summary: 'List coupons',
  description: 'Newest first.',
  scopes: ['settings:read'],
  query: listQuery({
    is_active: param.flag('Only active (true) or inactive (false) coupons.'),
    code: param.text({ min: 1, max: 50, trim: true }, 'The coupon with this code (case-insensitive).'),
  }),
  response: listEnvelope(Coupon),
  list: true,
  handler: (ctx, { query }) => listCoupons(ctx.db, ctx.entityId, { is_active: query.is_active, code: query.code }, query),
});

export const handler = lambdaHandler(route);
