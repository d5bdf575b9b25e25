import * as z from 'zod/mini';
import { id } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

/** The most items one relink request takes: 10,000 (the body limit of 1 MiB holds them with external ids of up to ~30 characters). */
const MAX_RELINK_ITEMS = 10_000;

const RelinkItem = z.strictObject({
  external_id: z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.maxLength(200),
      z.describe('The source-system transaction id: the transaction_id the migrated inventory transactions carry.'),
    ),
  // Any string: one that is not a uuid rejects its item (relink_source_not_found), not the request.
  source_id: z
    .string()
    .check(
      z.trim(),
      z.minLength(1),
      z.describe(
        'The order (any document: quote, sales order, invoice, return, purchase order) the transactions belong to: its uuid. A value that is no order of the entity, a uuid or not, rejects its item only (relink_source_not_found).',
      ),
    ),
});

export const RelinkRequest = z.strictObject({
  items: z
    .array(RelinkItem)
    .check(z.minLength(1), z.maxLength(MAX_RELINK_ITEMS), z.describe(`1 to ${MAX_RELINK_ITEMS.toLocaleString('en-US')} pairs of external id and order id.`)),
});
export type RelinkRequest = z.infer<typeof RelinkRequest>;

export const RelinkItemResult = z
  .object({
    external_id: z.string(),
    inventory_transaction_id: z
      .nullable(id())
      .check(z.describe('The migrated transaction this result is about; null when the item matched none or was rejected.')),
    source_id: z.string().check(z.describe('As sent; lower-cased when it is a uuid.')),
    relinked: z.boolean().check(z.describe('True when reference_id was changed by this request; false for a no-op (already linked) and for a rejected item.')),
    error: z.nullable(z.string()).check(z.describe('The broad error key of a rejected or unmatched item; null otherwise.')),
    code: z
      .nullable(z.string())
      .check(z.describe('The precise code (relink_source_not_found, relink_transaction_not_found, relink_duplicate_external_id); null otherwise.')),
    hint: z.nullable(z.string()),
  })
  .register(z.globalRegistry, {
    id: 'MigrationItxSourceRelinkItemResult',
    description: 'What happened to one migrated inventory transaction (or to one item that matched none).',
  });
export type RelinkItemResult = z.infer<typeof RelinkItemResult>;

export const RelinkResult = z
  .object({
    object: z.literal('migration_itx_source_relink_result'),
    livemode: livemode(),
    total: z.number().check(z.int(), z.describe('Number of results: one per matched transaction, plus one per item that matched none or was rejected.')),
    relinked: z.number().check(z.int(), z.describe('Transactions whose reference_id this request set.')),
    already_linked: z.number().check(z.int(), z.describe('Transactions that already carried the order id (no-op).')),
    not_found: z.number().check(z.int(), z.describe('Items whose external id no migrated transaction of the entity carries.')),
    failed: z
      .number()
      .check(
        z.int(),
        z.describe('Items rejected (the source_id is not a uuid of an order in the entity, or the external id was sent twice); nothing written for them.'),
      ),
    results: z
      .array(RelinkItemResult)
      .check(z.describe('In the order of the items sent; an item that matched several transactions has one result each, in transaction id order.')),
  })
  .register(z.globalRegistry, {
    id: 'MigrationItxSourceRelinkResult',
    description: 'The outcome of a relink pass: counts and a result per migrated inventory transaction concerned.',
  });
export type RelinkResult = z.infer<typeof RelinkResult>;
