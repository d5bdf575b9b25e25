import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { rollbackMigrationBatch } from '../../shared/migration/batch-rollback';
import { MigrationBatchRollback } from '../../shared/migration/schemas/batch';
import { entityResourceParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'migration.batches.rollback',
  method: 'POST',
  path: '/v1/entities/{entity_id}/migration/batches/{id}/rollback',
  tag: 'Migration',
  summary: 'Roll back an import batch',
  description:
    "Deletes the batch's records that nothing else references yet, in dependency order (orders, pricing policies, products, accounts, vendors), so a record only the batch's own removed records used goes too; tag assignments go with them. Kept, and listed in kept with a reason: orders that left draft (they may have moved stock or posted to the ledger), orders with stock movements, journal entries or payments, products with stock movements, and records another record references (referenced_by names one). The ledger and stock never move. The whole rollback is one transaction: it removes what it reports, or nothing. The batch becomes rolled_back (it takes no more records; re-run the import into a new batch: the external ids of removed records are free again). Idempotent: a repeat removes only what has been freed since and reports the rest again. Rolled-back orders' numbers are not reused.",
  scopes: ['migration:write'],
  params: entityResourceParams,
  response: MigrationBatchRollback,
  handler: async (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    const result = await rollbackMigrationBatch(ctx.db, ctx.entityId, params.id);
    await ctx.events.record('migration.batch_rolled_back', result.batch);
    return { object: 'migration_batch_rollback' as const, ...result };
  },
});

export const handler = lambdaHandler(route, idempotency);
