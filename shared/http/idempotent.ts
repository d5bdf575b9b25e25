/**
 * The layer a mutating route's handler is built with: `lambdaHandler(route, idempotency)`. Reads
 * never take it, so their bundles carry none of it: neither the idempotency store nor the event
 * publisher, with the SDK clients they call. The store (Powertools on DynamoDB,
 * idempotency-store.ts) is imported, not `import()`ed: through an `import()` esbuild bundles the
 * whole DynamoDB client package (every command), evaluated on the first keyed request; imported,
 * the bundle keeps what Powertools calls, and creates the client with the first Idempotency-Key.
 */
import { publishCommitted } from '../events/publisher';
import { runIdempotent } from './idempotency-store';
import type { WriteLayer } from './idempotency';

export const idempotency: WriteLayer = { run: runIdempotent, publish: publishCommitted };
