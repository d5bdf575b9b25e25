import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { completeMigrationBatch } from '../../shared/migration/batches';
import { MigrationBatch } from '../../shared/migration/schemas/batch';
import { entityResourceParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'migration.batches.complete',
  method: 'POST',
  path: '/v1/entities/{entity_id}/migration/batches/{id}/complete',
  tag: 'Migration',
  summary: 'Complete an import batch',
  description:
    'The load is done: the batch takes no more records (a create naming it is a 409 migration_batch_closed). Completing a completed batch changes nothing; a rolled-back batch cannot be completed (409 migration_batch_closed). A completed batch can still be rolled back.',
  scopes: ['migration:write'],
  params: entityResourceParams,
  response: MigrationBatch,
  errors: ['migration_batch_closed'],
  handler: async (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    const { batch, changed } = await completeMigrationBatch(ctx.db, ctx.entityId, params.id);
    if (changed) await ctx.events.record('migration.batch_completed', batch);
    return batch;
  },
});

export const handler = lambdaHandler(route, idempotency);
