/**
 * What `@aws-lambda-powertools/idempotency` and its `/persistence` entry become in a function
 * bundle: the package, read from `powertools-idempotency.cjs` beside the bundle's `index.mjs`.
 * Only the idempotency store imports it (shared/http/idempotency-store.ts and
 * dynamodb-persistence.ts), and the store is imported by the first request that carries an
 * Idempotency-Key (shared/http/idempotent.ts). A write without a key never reads this file, and no
 * write parses the package's code while it loads (infra/bundle.ts, POWERTOOLS_IDEMPOTENCY_FILE).
 * It is CommonJS, loaded with require(), so the store's persistence layer can extend
 * BasePersistenceLayer when the store's module evaluates.
 */
import type * as Idempotency from '@aws-lambda-powertools/idempotency';
import type * as Persistence from '@aws-lambda-powertools/idempotency/persistence';
import { createRequire } from 'node:module';

const idempotency = createRequire(import.meta.url)('./powertools-idempotency.cjs') as typeof Idempotency & typeof Persistence;

// The members our sources import; a source that imports another fails the build ("No matching export").
export const {
  BasePersistenceLayer,
  IdempotencyConfig,
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecord,
  IdempotencyRecordStatus,
  makeIdempotent,
  PERSISTENCE_ATTRIBUTE_KEY_MAPPINGS,
} = idempotency;
