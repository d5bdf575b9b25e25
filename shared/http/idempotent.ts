/**
 * The layer a mutating route's handler is built with: `lambdaHandler(route, idempotency)`. Reads
 * never take it, so their bundles carry none of it: neither the idempotency store nor the event
 * publisher, with the SDK clients they call. The store itself (Powertools on DynamoDB,
 * idempotency-store.ts) is imported by the first request that carries an Idempotency-Key: most
 * writes never need it.
 */
import { publishCommitted } from '../events/publisher';
import type { WriteLayer } from './idempotency';

export const idempotency: WriteLayer = {
  run: async (routeId, call, lambdaContext, execute) => {
    const { runIdempotent } = await import('./idempotency-store');
    return runIdempotent(routeId, call, lambdaContext, execute);
  },
  publish: publishCommitted,
};
