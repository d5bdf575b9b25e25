/**
 * Compile-time checks of the typed test client (`npx tsc --noEmit` checks them; nothing runs them):
 * each `@ts-expect-error` below must stay an error, or the typecheck fails.
 */
import { expectTypeOf } from 'vitest';
import { unchecked, type TestClient } from './client';

export async function typedClientChecks(api: TestClient, key: string, id: string): Promise<void> {
  // A path that is no route, or a route under another method, does not compile.
  // @ts-expect-error no such route
  await api.request('GET', '/v1/nothing-here', { key });
  // @ts-expect-error no DELETE on the confirm action
  await api.request('DELETE', `/v1/orders/${id}/confirm`, { key });
  // @ts-expect-error a path parameter fills one segment only
  await api.request('POST', `/v1/orders/${id}/bogus`, { key, body: {} });

  // The body must fit the route's body schema: unknown fields, wrong values and missing required fields do not compile.
  // @ts-expect-error unknown field
  await api.request('POST', '/v1/locations', { key, body: { name: 'X', colour: 'red' } });
  // @ts-expect-error not a document type
  await api.post(key, '/v1/orders', { document_type: 'memo', account_id: id });
  // @ts-expect-error name is required
  await api.post(key, '/v1/locations', { city: 'Austin' });
  // @ts-expect-error the body is required
  await api.request('POST', '/v1/orders', { key });
  // ... unless the test says it means it.
  await api.request('POST', '/v1/locations', { key, body: unchecked({ name: 'X', colour: 'red' }) });

  // The response body is the route's response schema output; the error envelope sits beside it.
  const created = await api.request('POST', '/v1/orders', { key, body: { document_type: 'invoice', account_id: id } });
  expectTypeOf(created.body.order_number).toEqualTypeOf<string>();
  expectTypeOf(created.error.code).toEqualTypeOf<string>();
  // The most specific route wins: the static segment is not read as an order id.
  const rules = await api.get(key, '/v1/orders/approval-rules');
  expectTypeOf(rules.object).toEqualTypeOf<'list'>();
  // A single order always carries its lines.
  const order = await api.get(key, `/v1/orders/${id}`);
  expectTypeOf(order.lines[0].quantity).toEqualTypeOf<number>();
}
