import { describe, expect, it } from 'vitest';
import { setupTestApi, tenantRowCounts, type TestEntity } from '../support/harness';

const api = setupTestApi();

async function productWithOptions(owner: TestEntity, names: string[]) {
  const product = (await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: `O-${Math.random().toString(36).slice(2)}`, name: 'Shirt' } }))
    .body;
  const options = [];
  for (const name of names)
    options.push((await api.request('POST', `/v1/products/${product.id}/options`, { key: owner.secret, body: { name, values: ['a', 'b'] } })).body);
  return { product, options };
}

describe('product options and E11 reorder', () => {
  it('adds options in sequence, lists them, and deletes one', async () => {
    const owner = await api.newEntity();
    const { product, options } = await productWithOptions(owner, ['Size', 'Colour', 'Fit']);
    expect(options[0]).toMatchObject({ object: 'product_option', product_id: product.id, name: 'Size', values: ['a', 'b'], sequence: 1 });
    expect(options.map((o) => o.sequence)).toEqual([1, 2, 3]);
    const duplicate = await api.request('POST', `/v1/products/${product.id}/options`, { key: owner.secret, body: { name: 'size' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error).toMatchObject({ code: 'option_name_taken', param: 'name' });
    const deleted = await api.request('DELETE', `/v1/products/${product.id}/options/${options[2].id}`, { key: owner.secret });
    expect(deleted.body).toEqual({ id: options[2].id, object: 'product_option', livemode: false, deleted: true });
    const list = await api.request('GET', `/v1/products/${product.id}/options`, { key: owner.secret });
    expect(list.body.data.map((o) => o.name)).toEqual(['Size', 'Colour']);
  });

  it('sets the listed options to their positions and leaves the others unchanged', async () => {
    const owner = await api.newEntity();
    const { product, options } = await productWithOptions(owner, ['A', 'B', 'C', 'D']);
    const result = await api.request('POST', `/v1/products/${product.id}/options/reorder`, {
      key: owner.secret,
      body: { order: [options[2].id, options[0].id] },
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ reordered: 2 });
    const list = (await api.get(owner, `/v1/products/${product.id}/options`)).data;
    expect(Object.fromEntries(list.map((o) => [o.name, o.sequence]))).toEqual({ C: 1, A: 2, B: 2, D: 4 });
  });

  it("refuses another product's option, unknown ids, repeats and an empty list, changing nothing", async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    const { product, options } = await productWithOptions(owner, ['A', 'B']);
    const second = await productWithOptions(owner, ['X']);
    const foreign = await productWithOptions(other, ['Z']);
    const before = await tenantRowCounts(owner.entity.id);
    const listBefore = await api.get(owner, `/v1/products/${product.id}/options`);
    const reorder = (order: string[]) => api.request('POST', `/v1/products/${product.id}/options/reorder`, { key: owner.secret, body: { order } });
    const otherProduct = await reorder([options[1].id, second.options[0].id]);
    expect(otherProduct.status).toBe(404);
    expect(otherProduct.error).toMatchObject({ code: 'not_found', param: 'order[1]' });
    expect((await reorder([foreign.options[0].id])).error).toMatchObject({ code: 'not_found', param: 'order[0]' });
    expect((await reorder([options[0].id, options[0].id])).error).toMatchObject({ code: 'parameter_invalid', param: 'order[1]' });
    expect((await reorder([])).error).toMatchObject({ code: 'parameter_invalid', param: 'order' });
    expect((await reorder(['nope'])).error).toMatchObject({ code: 'parameter_invalid', param: 'order[0]' });
    expect(await api.get(owner, `/v1/products/${product.id}/options`)).toEqual(listBefore);
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });
});
