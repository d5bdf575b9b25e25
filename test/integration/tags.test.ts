import { describe, expect, it } from 'vitest';
import type { DocumentType } from '../support/worlds';
import { setupTestApi, tenantRowCounts } from '../support/harness';

const api = setupTestApi();

describe('tags (E18)', () => {
  it('attaches to and detaches from products, accounts and vendors; lists per resource, empty when none', async () => {
    const owner = await api.newEntity();
    const vip = (await api.request('POST', '/v1/tags', { key: owner.secret, body: { name: 'VIP', color: '#ff0000' } })).body;
    const hot = (await api.request('POST', '/v1/tags', { key: owner.secret, body: { name: 'Hot' } })).body;
    expect(vip).toMatchObject({ object: 'tag', name: 'VIP', color: '#ff0000' });
    expect((await api.get(owner, '/v1/tags', { limit: '10' })).data.map((t) => t.name).sort()).toEqual(['Hot', 'VIP']);
    expect((await api.get(owner, '/v1/tags', { name: 'vip' })).data.map((t) => t.id)).toEqual([vip.id]);
    const account = (await api.request('POST', '/v1/accounts', { key: owner.secret, body: { name: 'Customer' } })).body;
    const vendor = (await api.request('POST', '/v1/vendors', { key: owner.secret, body: { name: 'Supplier' } })).body;
    const product = (await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: 'T-1', name: 'Tagged' } })).body;
    expect(await api.get(owner, `/v1/tags/account/${account.id}`)).toEqual({ data: [] });
    const attached = await api.request('POST', `/v1/tags/account/${account.id}`, { key: owner.secret, body: { tag_id: vip.id } });
    expect(attached.status).toBe(200);
    expect(attached.body.data.map((t) => t.name)).toEqual(['VIP']);
    await api.request('POST', `/v1/tags/account/${account.id}`, { key: owner.secret, body: { tag_id: hot.id } });
    const again = await api.request('POST', `/v1/tags/account/${account.id}`, { key: owner.secret, body: { tag_id: vip.id } });
    expect(again.body.data.map((t) => t.name)).toEqual(['Hot', 'VIP']);
    await api.request('POST', `/v1/tags/vendor/${vendor.id}`, { key: owner.secret, body: { tag_id: hot.id } });
    await api.request('POST', `/v1/tags/product/${product.id}`, { key: owner.secret, body: { tag_id: hot.id } });
    expect((await api.get(owner, `/v1/tags/vendor/${vendor.id}`)).data).toHaveLength(1);
    const detached = await api.request('DELETE', `/v1/tags/account/${account.id}/${vip.id}`, { key: owner.secret });
    expect(detached.body.data.map((t) => t.name)).toEqual(['Hot']);
    // A deleted product takes its tag rows with it.
    await api.request('DELETE', `/v1/products/${product.id}`, { key: owner.secret });
    const remaining = await owner.sql((db) => db.query(`SELECT 1 FROM tag_assignments WHERE resource_type = 'product'`));
    expect(remaining).toHaveLength(0);
    const events = api.published.filter((e) => e.entity_id === owner.entity.id && e.type.startsWith('tag.')).map((e) => e.type);
    expect(events.filter((t) => t === 'tag.attached')).toHaveLength(4);
  });

  it('answers 404 for missing resources and tags, 422 for resource types served later, 400 for unknown types; writes nothing', async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    const tag = (await api.request('POST', '/v1/tags', { key: owner.secret, body: { name: 'T' } })).body;
    const theirTag = (await api.request('POST', '/v1/tags', { key: other.secret, body: { name: 'T' } })).body;
    const theirProduct = (await api.request('POST', '/v1/products', { key: other.secret, body: { sku: 'X', name: 'X' } })).body;
    const product = (await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: 'Y', name: 'Y' } })).body;
    const before = await tenantRowCounts(owner.entity.id);
    const foreign = await api.request('POST', `/v1/tags/product/${theirProduct.id}`, { key: owner.secret, body: { tag_id: tag.id } });
    expect(foreign.status).toBe(404);
    expect(foreign.error).toMatchObject({ code: 'not_found', param: 'resourceId' });
    expect((await api.request('GET', `/v1/tags/product/${theirProduct.id}`, { key: owner.secret })).status).toBe(404);
    const foreignTag = await api.request('POST', `/v1/tags/product/${product.id}`, { key: owner.secret, body: { tag_id: theirTag.id } });
    expect(foreignTag.error).toMatchObject({ code: 'not_found', param: 'tag_id' });
    // vendor_bill is served: a product id is no vendor bill.
    expect((await api.request('POST', `/v1/tags/vendor_bill/${product.id}`, { key: owner.secret, body: { tag_id: tag.id } })).error).toMatchObject({
      code: 'not_found',
      param: 'resourceId',
    });
    for (const type of ['contact', 'package']) {
      const later = await api.request('POST', `/v1/tags/${type}/${product.id}`, { key: owner.secret, body: { tag_id: tag.id } });
      expect(later.status, type).toBe(422);
      expect(later.error).toMatchObject({ code: 'resource_type_unavailable', param: 'resourceType' });
      const detach = await api.request('DELETE', `/v1/tags/${type}/${product.id}/${tag.id}`, { key: owner.secret });
      expect(detach.error).toMatchObject({ code: 'resource_type_unavailable', param: 'resourceType' });
    }
    // A product id is no order.
    expect((await api.request('POST', `/v1/tags/order/${product.id}`, { key: owner.secret, body: { tag_id: tag.id } })).error).toMatchObject({
      code: 'not_found',
      param: 'resourceId',
    });
    expect(await api.get(owner, `/v1/tags/package/${product.id}`)).toEqual({ data: [] });
    const unknown = await api.request('GET', `/v1/tags/widget/${product.id}`, { key: owner.secret });
    expect(unknown.error).toMatchObject({ code: 'parameter_invalid', param: 'resourceType' });
    const notAttached = await api.request('DELETE', `/v1/tags/product/${product.id}/${tag.id}`, { key: owner.secret });
    expect(notAttached.error).toMatchObject({ code: 'not_found', param: 'tagId' });
    expect((await api.request('POST', '/v1/tags', { key: owner.secret, body: { name: 't' } })).error).toMatchObject({ code: 'tag_name_taken', param: 'name' });
    expect((await api.request('POST', '/v1/tags', { key: owner.secret, body: { name: 'C', color: 'red' } })).body).toMatchObject({ param: 'color' });
    expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
  });

  it('tags order documents: order is a quote or sales order, invoice, return and purchase_order their own document_type', async () => {
    const owner = await api.newEntity();
    const other = await api.newEntity();
    const tag = (await api.request('POST', '/v1/tags', { key: owner.secret, body: { name: 'Rush' } })).body;
    const account = (await api.request('POST', '/v1/accounts', { key: owner.secret, body: { name: 'Customer' } })).body;
    const vendor = (await api.request('POST', '/v1/vendors', { key: owner.secret, body: { name: 'Supplier' } })).body;
    const product = (await api.request('POST', '/v1/products', { key: owner.secret, body: { sku: 'OT-1', name: 'Thing', list_price: 1 } })).body;
    const order = async (document_type: DocumentType, party = account.id) => {
      const created = await api.request('POST', '/v1/orders', {
        key: owner.secret,
        body: { document_type, account_id: party, lines: [{ product_id: product.id, quantity: 1 }] },
      });
      expect(created.status, created.text).toBe(201);
      return created.body;
    };
    const docs = {
      quote: await order('quote'),
      sales_order: await order('sales_order'),
      invoice: await order('invoice'),
      return: await order('return'),
      purchase_order: await order('purchase_order', vendor.id),
    };
    const matches: Record<string, string[]> = {
      order: ['quote', 'sales_order'],
      invoice: ['invoice'],
      return: ['return'],
      purchase_order: ['purchase_order'],
    };
    for (const [type, documentTypes] of Object.entries(matches)) {
      for (const [documentType, doc] of Object.entries(docs)) {
        const before = await tenantRowCounts(owner.entity.id);
        const response = await api.request('POST', `/v1/tags/${type}/${doc.id}`, { key: owner.secret, body: { tag_id: tag.id } });
        if (documentTypes.includes(documentType)) {
          expect(response.status, `${type} ${documentType}`).toBe(200);
          expect(response.body.data.map((t) => t.name)).toEqual(['Rush']);
          expect((await api.get(owner, `/v1/tags/${type}/${doc.id}`)).data).toHaveLength(1);
        } else {
          expect(response.status, `${type} ${documentType}`).toBe(404);
          expect(response.error).toMatchObject({ code: 'not_found', param: 'resourceId' });
          expect((await api.request('GET', `/v1/tags/${type}/${doc.id}`, { key: owner.secret })).status).toBe(404);
          expect(await tenantRowCounts(owner.entity.id)).toEqual(before);
        }
      }
    }
    const detached = await api.request('DELETE', `/v1/tags/purchase_order/${docs.purchase_order.id}/${tag.id}`, { key: owner.secret });
    expect(detached.status).toBe(200);
    expect(detached.body).toEqual({ data: [] });
    // Another entity's order is a 404; so is a deleted one.
    const theirs = (await api.request('POST', '/v1/tags', { key: other.secret, body: { name: 'Theirs' } })).body;
    const foreign = await api.request('POST', `/v1/tags/order/${docs.quote.id}`, { key: other.secret, body: { tag_id: theirs.id } });
    expect(foreign.status).toBe(404);
    expect((await api.request('DELETE', `/v1/orders/${docs.quote.id}`, { key: owner.secret })).status).toBe(200);
    expect((await api.request('GET', `/v1/tags/order/${docs.quote.id}`, { key: owner.secret })).status).toBe(404);
    expect(api.published.filter((e) => e.entity_id === owner.entity.id && e.type === 'tag.attached')).toHaveLength(5);
  });
});
