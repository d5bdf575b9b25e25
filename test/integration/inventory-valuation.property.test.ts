/**
 * The inventory identity as a property through the API: after any sequence of stock receipts,
 * adjustments (both directions, sometimes below zero), sales shipped from stock, transfers and kit
 * builds with 4-decimal costs and quantities, the inventory GL account equals Σ inventory_value of
 * GET /v1/inventory/balances to the cent, after every step. Steps whose preconditions do not hold
 * (not enough stock to ship or transfer) are refused by the API and change nothing, which the
 * identity then also checks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positive } from '../support/decimal-arbitraries';
import { setupTestApi, type TestEntity } from '../support/harness';
import { stockValuation, trialBalanceOf } from '../support/valuation-fixtures';

const api = setupTestApi();

type Op =
  | { kind: 'receive'; product: number; at: number; quantity: string; cost: string }
  | { kind: 'adjust'; product: number; at: number; quantity: string; negative: boolean; allowNegative: boolean }
  | { kind: 'sell'; product: number; quantity: string }
  | { kind: 'transfer'; product: number; from: number; quantity: string }
  | { kind: 'build'; quantity: string };

const product = fc.integer({ min: 0, max: 1 });
const at = fc.integer({ min: 0, max: 1 });
const quantity = positive(30, 4);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('receive' as const), product, at, quantity, cost: positive(99, 4) }), weight: 4 },
  {
    arbitrary: fc.record({ kind: fc.constant('adjust' as const), product, at, quantity, negative: fc.boolean(), allowNegative: fc.boolean() }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('sell' as const), product, quantity }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('transfer' as const), product, from: at, quantity }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('build' as const), quantity: positive(3, 4) }), weight: 1 },
);

interface World {
  owner: TestEntity;
  products: string[];
  locations: string[];
  kit: string;
  account: string;
}

let sequence = 0;

async function setup(): Promise<World> {
  const owner = await api.newEntity();
  const n = sequence++;
  const locations = [(await api.post(owner, '/v1/locations', { name: 'Main' })).id, (await api.post(owner, '/v1/locations', { name: 'Annex' })).id];
  const products = [
    (await api.post(owner, '/v1/products', { sku: `V-${n}-A`, name: 'A', list_price: 25, cost: 7.3333 })).id,
    (await api.post(owner, '/v1/products', { sku: `V-${n}-B`, name: 'B', list_price: 9, cost: 0.0049 })).id,
  ];
  const kit = await api.post(owner, '/v1/kits', {
    sku: `V-${n}-K`,
    product_name: 'Kit',
    components: [
      { component_product_id: products[0], quantity_per_kit: 1.5 },
      { component_product_id: products[1], quantity_per_kit: 3 },
    ],
  });
  const account = await api.post(owner, '/v1/accounts', { name: 'Customer' });
  return { owner, products, locations, kit: kit.id, account: account.id };
}

/** A step through the API; a refusal (4xx) is part of the property, a 5xx is a defect. */
async function run(world: World, step: Op): Promise<void> {
  const key = world.owner.secret;
  const send = async (path: string, body: unknown) => {
    const response = await api.request('POST', path as '/v1/inventory/receipts', { key, body: body as never });
    expect(response.status, `${path} ${JSON.stringify(body)} → ${JSON.stringify(response.body)}`).toBeLessThan(500);
    return response;
  };
  switch (step.kind) {
    case 'receive':
      await send('/v1/inventory/receipts', {
        product_id: world.products[step.product],
        location_id: world.locations[step.at],
        quantity: step.quantity,
        unit_cost: step.cost,
      });
      return;
    case 'adjust':
      await send('/v1/inventory/adjustments', {
        product_id: world.products[step.product],
        location_id: world.locations[step.at],
        quantity: step.negative ? `-${step.quantity}` : step.quantity,
        reason: 'count',
        ...(step.negative && step.allowNegative ? { allow_negative: true } : {}),
      });
      return;
    case 'sell': {
      const invoice = await send('/v1/orders', {
        document_type: 'invoice',
        account_id: world.account,
        location_id: world.locations[0],
        lines: [{ product_id: world.products[step.product], quantity: step.quantity }],
      });
      const order = invoice.body as unknown as { id: string; lines: { id: string }[] };
      await send(`/v1/orders/${order.id}/confirm`, undefined);
      await send(`/v1/orders/${order.id}/fulfillments`, { lines: [{ line_id: order.lines[0].id, quantity: step.quantity }] });
      return;
    }
    case 'transfer':
      await send('/v1/inventory/transfers', {
        product_id: world.products[step.product],
        from_location_id: world.locations[step.from],
        to_location_id: world.locations[1 - step.from],
        quantity: step.quantity,
      });
      return;
    case 'build':
      await send(`/v1/kits/${world.kit}/builds`, { location_id: world.locations[0], quantity: step.quantity });
      return;
  }
}

describe('inventory valuation (property)', () => {
  it('after any sequence of receipts, adjustments, sales, transfers and builds, the inventory account equals Σ inventory_value to the cent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (steps) => {
        const world = await setup();
        for (const [index, step] of steps.entries()) {
          await run(world, step);
          const valuation = await stockValuation(api, world.owner);
          const gl = await trialBalanceOf(api, world.owner, 'inventory');
          expect(gl, `inventory account after step ${index + 1} ${JSON.stringify(step)}`).toBe(valuation);
        }
      }),
      { numRuns: Number(process.env.INVENTORY_PROPERTY_RUNS ?? 8), endOnFailure: true },
    );
  }, 600_000);
});
