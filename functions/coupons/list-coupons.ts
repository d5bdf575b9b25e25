import { onFirstUse } from '../../shared/schemas/lazy';
import { z } from 'zod';
import { listCoupons } from '../../shared/orders/coupons';
import { lambdaHandler } from '../../shared/http/handler-stack';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
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
  query: listQuery(
    () => ({
      code: z.string().trim().min(1).max(50).optional().describe('The coupon with this code (case-insensitive).'),
    }),
    { flags: { is_active: 'Only active (true) or inactive (false) coupons.' } },
  ),
  response: onFirstUse(() => listEnvelope(Coupon)),
  list: true,
  handler: (ctx, { query }) => listCoupons(ctx.db, ctx.entityId, { is_active: query.is_active, code: query.code }, query),
});

export const handler = lambdaHandler(route);
