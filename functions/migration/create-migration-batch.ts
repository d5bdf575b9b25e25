import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { createMigrationBatch } from '../../shared/migration/batches';
import { MigrationBatch, MigrationBatchCreate } from '../../shared/migration/schemas/batch';
import { entityScopedParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'migration.batches.create',
  method: 'POST',
  path: '/v1/entities/{entity_id}/migration/batches',
  tag: 'Migration',
  summary: 'Open an import batch',
  description:
    "Opens a batch (status open) for one load from a source system. Products, customer accounts, vendors, pricing policies and orders created with its id as migration_batch_id keep it and get imported_at; those without external_source (source_platform on orders) take the batch's. A batch of another entity or of the other mode is a 404 on migration_batch_id. GET the batch for what each resource type received; roll it back to remove what nothing references yet.",
  scopes: ['migration:write'],
  params: entityScopedParams,
  body: MigrationBatchCreate,
  response: MigrationBatch,
  successStatus: 201,
  handler: async (ctx, { params, body }) => {
    requireOwnEntity(ctx, params.entity_id);
    const batch = await createMigrationBatch(ctx.db, ctx.entityId, body);
    await ctx.events.record('migration.batch_created', batch);
    return batch;
  },
});

export const handler = lambdaHandler(route, idempotency);
