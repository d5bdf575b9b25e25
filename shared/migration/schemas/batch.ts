/** Import batches: a migration team's unit of loading, counting and rolling back migrated records. */
import * as z from 'zod/mini';
import { id, metadata, optionalText, timestamp } from '../../schemas/common';
import { livemode } from '../../schemas/livemode';

/** The resource types a batch can carry, in the order a rollback removes them (dependents first). */
export const BATCH_RESOURCE_TYPES = ['orders', 'pricing_policies', 'products', 'accounts', 'vendors'] as const;
export type BatchResourceType = (typeof BATCH_RESOURCE_TYPES)[number];

const countsObject = (what: string) =>
  z.object(
    Object.fromEntries(BATCH_RESOURCE_TYPES.map((type) => [type, z.number().check(z.int(), z.describe(`${what} ${type.replace('_', ' ')}.`))])) as {
      [K in BatchResourceType]: z.ZodMiniNumber;
    },
  );

export const MigrationBatch = z
  .object({
    id: id(),
    object: z.literal('migration_batch'),
    livemode: livemode(),
    entity_id: id(),
    external_source: z
      .string()
      .check(z.describe('The source system; records created in the batch without external_source (source_platform on orders) take it.')),
    description: z.nullable(z.string()),
    status: z
      .enum(['open', 'completed', 'rolled_back'])
      .check(z.describe('open takes records; completed and rolled_back refuse them (409 migration_batch_closed); a rollback can run in any status.')),
    counts: countsObject('Records that carry this batch id now:').check(
      z.describe('Live counts per resource type: what the batch received, less what rollbacks removed.'),
    ),
    removed_counts: countsObject('Records removed by rollbacks:').check(z.describe('Per resource type, what rollbacks of this batch removed so far.')),
    metadata: z.record(z.string(), z.string()),
    completed_at: z.nullable(timestamp()),
    rolled_back_at: z.nullable(timestamp()).check(z.describe('The last rollback.')),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .register(z.globalRegistry, {
    id: 'MigrationBatch',
    description: 'An import batch: records created with its id, counted per resource type, and removable together before cutover.',
  });
export type MigrationBatch = z.infer<typeof MigrationBatch>;

export const MigrationBatchCreate = z.strictObject({
  external_source: z.string().check(z.trim(), z.minLength(1), z.maxLength(100), z.describe('The source system, e.g. quickbooks.')),
  description: optionalText(1000),
  metadata: z.optional(metadata()),
});
export type MigrationBatchCreate = z.infer<typeof MigrationBatchCreate>;

const ROLLBACK_REASONS = ['order_not_draft', 'inventory_movements', 'ledger_postings', 'payments', 'referenced'] as const;
export type RollbackReason = (typeof ROLLBACK_REASONS)[number];

export const MigrationBatchRollback = z
  .object({
    object: z.literal('migration_batch_rollback'),
    livemode: livemode(),
    batch: MigrationBatch,
    removed_counts: countsObject('Removed by this rollback:'),
    kept: z
      .array(
        z.object({
          id: id(),
          resource_type: z.enum(BATCH_RESOURCE_TYPES),
          reason: z
            .enum(ROLLBACK_REASONS)
            .check(
              z.describe(
                'order_not_draft: the order left draft (confirmed, fulfilled, cancelled ...), so it may have moved stock or posted; inventory_movements: stock moved for it; ledger_postings: a journal entry points at it; payments: a payment or refund names it; referenced: another record (referenced_by) points at it.',
              ),
            ),
          referenced_by: z
            .nullable(
              z.object({
                resource_type: z.string().check(z.describe('The table of the referencing record, e.g. order_lines, pricing_policies.')),
                id: z.nullable(id()),
              }),
            )
            .check(z.describe('For reason referenced: one record that points at it.')),
        }),
      )
      .check(z.describe('Records of the batch left in place, each with why; they stay in the batch, and a later rollback tries them again.')),
  })
  .register(z.globalRegistry, {
    id: 'MigrationBatchRollback',
    description: 'What a rollback removed (per resource type) and which records of the batch it kept, with the reason for each.',
  });
export type MigrationBatchRollback = z.infer<typeof MigrationBatchRollback>;
