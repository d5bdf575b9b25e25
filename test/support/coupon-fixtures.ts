/**
 * Security-matrix fixtures of the coupon, tax rate and order adjustment routes (spread into
 * route-fixtures.ts).
 */
import type { TestApi, TestEntity } from './harness';
import { seedOrder } from './order-fixtures';

type Params = Record<string, string>;

let sequence = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${sequence++}`;

export const COUPON_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/coupons/{id}': async (api, owner) => ({
    id: (await api.post(owner, '/v1/coupons', { code: unique('C'), discount_type: 'percentage', value: 10 })).id,
  }),
  '/v1/tax-rates/{id}': async (api, owner) => ({ id: (await api.post(owner, '/v1/tax-rates', { name: unique('Tax'), rate: 5 })).id }),
  '/v1/orders/{id}/apply-coupon': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/adjustments/{adjustment_id}': async (api, owner) => {
    const { id } = await seedOrder(api, owner);
    const adjustment = await api.post(
      owner,
      `/v1/orders/${id}/adjustments`,
      { name: 'Seeded', effect_type: 'discount', discount_type: 'percentage', value: 5 },
      200,
    );
    return { id, adjustment_id: adjustment.id };
  },
};

export const COUPON_SAMPLE_BODIES: Record<string, unknown> = {
  'coupons.create': { code: 'SAMPLE10', discount_type: 'percentage', value: 10 },
  'coupons.update': { name: 'Renamed coupon' },
  'tax_rates.create': { name: 'Sample tax', rate: 5 },
  'tax_rates.update': { description: 'Sample description' },
  'orders.apply_coupon': { code: 'SAMPLE10' },
};
