/**
 * demand_avg_per_day on product and kit objects (Versioning 3): the sum of the product's balances,
 * each by the balance rule, loaded in one query per page.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../shared/db/database';
import { listKits } from '../../shared/catalog/kits';
import { listProducts } from '../../shared/catalog/products';
import { productDemand } from '../../shared/inventory/product-demand';
import { postMovementDirect } from '../support/inventory-fixtures';
import { setupTestApi } from '../support/harness';

const api = setupTestApi();
const DAY = 86_400_000;

/** Counts every statement a data function sends. */
function countingDb(db: Db) {
  let statements = 0;
  const wrapped: Db = {
    query: (sql, params) => {
      statements++;
      return db.query(sql, params);
    },
    one: (sql, params) => {
      statements++;
      return db.one(sql, params);
    },
    maybeOne: (sql, params) => {
      statements++;
      return db.maybeOne(sql, params);
    },
  };
  return { db: wrapped, count: () => statements };
}

describe('demand_avg_per_day on products and kits', () => {
  it('sums the balances of every location; a kit counts its own sales, its components the builds that drew them', async () => {
    const owner = await api.newEntity();
    const main = await api.post(owner, '/v1/locations', { name: 'Main' });
    const annex = await api.post(owner, '/v1/locations', { name: 'Annex' });
    const bolt = await api.post(owner, '/v1/products', { sku: 'BOLT', name: 'Bolt' });
    const plate = await api.post(owner, '/v1/products', { sku: 'PLATE', name: 'Plate' });
    const idle = await api.post(owner, '/v1/products', { sku: 'IDLE', name: 'Never moved' });
    const kit = await api.post(owner, '/v1/kits', {
      sku: 'BRACKET',
      product_name: 'Bracket',
      components: [
        { component_product_id: bolt.id, quantity_per_kit: 4 },
        { component_product_id: plate.id, quantity_per_kit: '0.5' },
      ],
    });
    expect(kit.demand_avg_per_day).toBe(0);

    // Bolt at Main: stocked 400 days ago, so its window is the full 365 days.
    await api.post(owner, '/v1/inventory/receipts', {
      product_id: bolt.id,
      location_id: main.id,
      quantity: 1000,
      unit_cost: 1,
      occurred_at: new Date(Date.now() - 400 * DAY).toISOString(),
    });
    await postMovementDirect(owner, bolt.id, main.id, 'sale_fulfillment', '-73', 10);
    // Bolt at Annex: first movement 9.5 days ago, so its window is 10 days, not diluted by the year.
    await api.post(owner, '/v1/inventory/receipts', {
      product_id: bolt.id,
      location_id: annex.id,
      quantity: 100,
      unit_cost: 1,
      occurred_at: new Date(Date.now() - 9.5 * DAY).toISOString(),
    });
    await postMovementDirect(owner, bolt.id, annex.id, 'sale_fulfillment', '-20', 5);
    // A transfer is no demand.
    await api.post(owner, '/v1/inventory/transfers', { product_id: bolt.id, from_location_id: main.id, to_location_id: annex.id, quantity: 5 });
    await api.post(owner, '/v1/inventory/receipts', { product_id: plate.id, location_id: main.id, quantity: 10, unit_cost: 2 });
    // The build draws 12 bolts and 1.5 plates (build_consume) and produces 3 kits (not demand).
    await api.post(owner, `/v1/kits/${kit.id}/builds`, { location_id: main.id, quantity: 3 });
    // Two kits sold from stock: demand of the kit, not of its components.
    await postMovementDirect(owner, kit.id, main.id, 'sale_fulfillment', '-2', 0);

    // Bolt: Main (73 + 12) / 365 = 0.2329, Annex 20 / 10 = 2; plate 1.5 / 1 day; kit 2 / 1 day.
    const expected = { [bolt.id]: 2.2329, [plate.id]: 1.5, [kit.id]: 2, [idle.id]: 0 };
    for (const [id, value] of Object.entries(expected)) {
      const product = await api.request('GET', `/v1/products/${id}`, { key: owner.secret });
      expect(product.body.demand_avg_per_day, product.body.sku).toBe(value);
      const balances = await api.request('GET', '/v1/inventory/balances', { key: owner.secret, query: { product_id: id } });
      const summed = balances.body.data.reduce((total, b) => total + Math.round(b.demand_avg_per_day * 10_000), 0) / 10_000;
      expect(summed, `${product.body.sku}: sum of its balances`).toBe(value);
    }
    const list = await api.request('GET', '/v1/products', { key: owner.secret });
    expect(Object.fromEntries(list.body.data.map((p) => [p.id, p.demand_avg_per_day]))).toEqual(expected);

    const fetchedKit = await api.request('GET', `/v1/kits/${kit.id}`, { key: owner.secret });
    expect(fetchedKit.body.demand_avg_per_day).toBe(2);
    const kits = await api.request('GET', '/v1/kits', { key: owner.secret });
    expect(kits.body.data.map((k) => [k.sku, k.demand_avg_per_day])).toEqual([['BRACKET', 2]]);
  });

  it('loads a page of products or kits with a constant number of statements', async () => {
    const owner = await api.newEntity();
    const location = await api.post(owner, '/v1/locations', { name: 'Main' });
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await api.post(owner, '/v1/products', { sku: `Q-${i}`, name: `Product ${i}` })).id);
    for (const id of ids.slice(0, 10)) {
      await api.post(owner, '/v1/inventory/receipts', { product_id: id, location_id: location.id, quantity: 10, unit_cost: 1 });
      await postMovementDirect(owner, id, location.id, 'sale_fulfillment', '-1', 0);
    }
    for (let i = 0; i < 3; i++) {
      await api.post(owner, '/v1/kits', {
        sku: `KIT-${i}`,
        product_name: `Kit ${i}`,
        components: ids.slice(i * 2, i * 2 + 2).map((id) => ({ component_product_id: id, quantity_per_kit: 1 })),
      });
    }
    const statements = async (work: (db: Db) => Promise<{ data: unknown[] }>, rows: number) =>
      owner.sql(async (db) => {
        const counter = countingDb(db);
        const page = await work(counter.db);
        expect(page.data).toHaveLength(rows);
        return counter.count();
      });
    const productPage = (limit: number) => (db: Db) => listProducts(db, owner.entity.id, {}, { limit }, productDemand);
    const kitPage = (limit: number) => (db: Db) => listKits(db, owner.entity.id, {}, { limit }, productDemand);
    // The page query and one demand query, whatever the page size.
    expect(await statements(productPage(25), 25)).toBe(2);
    expect(await statements(productPage(1), 1)).toBe(2);
    // Kits add one query for the components of the page.
    expect(await statements(kitPage(3), 3)).toBe(3);
    expect(await statements(kitPage(1), 1)).toBe(3);
    const page = await api.request('GET', '/v1/products', { key: owner.secret, query: { limit: '25', product_type: 'simple' } });
    expect(page.body.data.filter((p) => p.demand_avg_per_day === 1)).toHaveLength(10);
  });
});
