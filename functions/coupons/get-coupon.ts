import { getCoupon } from '../../shared/orders/coupons';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute } from '../../shared/http/route';
import { idParams } from '../../shared/schemas/parameters';
import { Coupon } from '../../shared/orders/schemas/coupon';

export const route = defineRoute({
  id: 'coupons.get',
  method: 'GET',
  path: '/v1/coupons/{id}',
  tag: 'Coupons',
  summary: 'Retrieve a coupon',
  scopes: ['settings:read'],
  params: idParams,
  response: Coupon,
  handler: (ctx, { params }) => getCoupon(ctx.db, ctx.entityId, params.id),
});

export const handler = lambdaHandler(route);
