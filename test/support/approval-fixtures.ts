/**
 * Security-matrix fixtures of the order approval routes (spread into route-fixtures.ts): an
 * approval rule for the rule paths, a draft sales order for approve and reject.
 */
import type { TestApi, TestEntity } from './harness';
import { seedOrder } from './order-fixtures';

type Params = Record<string, string>;

/** A per-channel approval rule approved by the entity's owner. */
async function seedApprovalRule(api: TestApi, owner: TestEntity): Promise<Params> {
  const rule = await api.post(owner, '/v1/orders/approval-rules', {
    sales_channel_id: '00000000-0000-4000-8000-0000000000c1',
    threshold_amount: 1000,
    approver_user_id: owner.owner.id,
  });
  return { id: rule.id };
}

export const APPROVAL_SEEDERS: Record<string, (api: TestApi, owner: TestEntity) => Promise<Params>> = {
  '/v1/orders/approval-rules/{id}': seedApprovalRule,
  '/v1/orders/{id}/approve': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
  '/v1/orders/{id}/reject': async (api, owner) => ({ id: (await seedOrder(api, owner)).id }),
};

export const APPROVAL_SAMPLE_BODIES: Record<string, unknown> = {
  'orders.approval_rules.create': {
    sales_channel_id: '00000000-0000-4000-8000-0000000000c1',
    threshold_amount: 1000,
    approver_user_id: '00000000-0000-4000-8000-000000000001',
  },
  'orders.approval_rules.update': { threshold_amount: 500 },
  'orders.reject': { reason: 'Sample reason' },
};
