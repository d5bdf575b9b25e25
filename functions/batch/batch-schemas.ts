/** The request and answer of POST /v1/batch (run-batch.ts). */
import * as z from 'zod/mini';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../shared/http/idempotency';
import { livemode } from '../../shared/schemas/livemode';

export const MAX_BATCH_OPERATIONS = 100;
/** Under Lambda's 6 MB response limit, with room for the envelope and headers. */
export const MAX_BATCH_ANSWER_BYTES = 5 * 1024 * 1024;

const BatchOperation = z.strictObject({
  method: z.enum(['POST', 'PATCH', 'DELETE']).check(z.describe('The method of the route to run.')),
  path: z
    .string()
    .check(
      z.minLength(4),
      z.maxLength(2048),
      z.regex(/^\/v1\/[^?#]*$/, 'must start with /v1/ and carry no query (send it in query)'),
      z.describe('The path of the route, under /v1; a whole segment may be a reference: /v1/orders/$ops[0].id/confirm.'),
    ),
  query: z
    .optional(z.record(z.string(), z.string().check(z.maxLength(10_000))))
    .check(z.describe('Query parameters, as the route takes them (no dry_run: dry-run the whole batch).')),
  body: z
    .optional(z.record(z.string(), z.unknown()))
    .check(z.describe('The JSON body of the route; any string that is exactly a reference ($ops[n].field) is replaced.')),
  idempotency_key: z
    .optional(z.string().check(z.minLength(1), z.maxLength(IDEMPOTENCY_KEY_MAX_LENGTH), z.regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')))
    .check(
      z.describe(
        'The operation’s Idempotency-Key, scoped as the route’s own header (entity and route). Its record is saved only if the batch commits (only for the operations that succeeded, when atomic is false), and released when the batch or the operation is rolled back. The same key with the same request replays the stored answer (idempotent_replay: true); with another request 422 idempotency_key_reused; while it is in progress 409 idempotency_key_in_use. Refused in a dry-run batch (400 dry_run_idempotency_key).',
      ),
    ),
});

export const BatchRequest = z.strictObject({
  operations: z
    .array(BatchOperation)
    .check(z.minLength(1), z.describe(`At most ${MAX_BATCH_OPERATIONS} operations (400 batch_too_large beyond), run in order.`)),
  atomic: z
    ._default(z.boolean(), true)
    .check(
      z.describe(
        'true (default): one transaction; the first failure rolls everything back and the answer is its error envelope with failed_index. false: each operation in its own savepoint; the successful ones are kept.',
      ),
    ),
});

const OperationResult = z
  .object({
    index: z.number().check(z.int(), z.describe('The operation’s position in operations.')),
    status: z.number().check(z.int(), z.describe('The HTTP status the route answered.')),
    body: z.record(z.string(), z.unknown()).check(z.describe('The route’s answer: its resource, or its error envelope.')),
    idempotent_replay: z
      .optional(z.boolean())
      .check(z.describe('Present when the operation carried an idempotency_key: true when its answer is the replay of an earlier request with that key.')),
  })
  .register(z.globalRegistry, {
    id: 'BatchOperationResult',
    description: 'What one operation of a batch answered: its status and body, as its route answers.',
  });

export const BatchResult = z
  .object({
    object: z.literal('batch'),
    atomic: z.boolean(),
    results: z.array(OperationResult).check(z.describe('One per operation, in order.')),
    livemode: livemode(),
  })
  .register(z.globalRegistry, { id: 'Batch', description: 'The answer of POST /v1/batch: each operation’s status and body, in order.' });
