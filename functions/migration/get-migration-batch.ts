import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { getMigrationBatch } from '../../shared/migration/batches';
import { MigrationBatch } from '../../shared/migration/schemas/batch';
import { entityResourceParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'migration.batches.get',
  method: 'GET',
  path: '/v1/entities/{entity_id}/migration/batches/{id}',
  tag: 'Migration',
  summary: 'Retrieve an import batch',
  description: 'counts: the records of each resource type that carry the batch id now; removed_counts: what rollbacks removed.',
  scopes: ['migration:read'],
  params: entityResourceParams,
  response: MigrationBatch,
  handler: (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    return getMigrationBatch(ctx.db, ctx.entityId, params.id);
  },
});

export const handler = lambdaHandler(route);
