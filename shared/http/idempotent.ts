/**
 * The idempotency layer a mutating route's handler is built with: `lambdaHandler(route,
 * idempotency)`. Reads never take it, so their bundles carry none of it (about 20 kB of code and
 * 1 ms of a cold start). The store itself (Powertools on DynamoDB, idempotency-store.ts) is
 * imported by the first request that carries an Idempotency-Key: the DynamoDB client is a large
 * share of a cold start, and most writes never need it.
 */
import type { RunIdempotent } from './idempotency';

export const idempotency: RunIdempotent = async (routeId, call, lambdaContext, execute) => {
  const { runIdempotent } = await import('./idempotency-store');
  return runIdempotent(routeId, call, lambdaContext, execute);
};
