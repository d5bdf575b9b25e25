import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { listMigrationBatches } from '../../shared/migration/batches';
import { MigrationBatch } from '../../shared/migration/schemas/batch';
import { listEnvelope, listQuery } from '../../shared/schemas/list';
import { param, entityScopedParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'migration.batches.list',
  method: 'GET',
  path: '/v1/entities/{entity_id}/migration/batches',
  tag: 'Migration',
  summary: 'List import batches',
  description: 'Newest first, each with its counts.',
  scopes: ['migration:read'],
  params: entityScopedParams,
  query: listQuery({ status: param.oneOf(['open', 'completed', 'rolled_back'], 'Only batches in this status.') }),
  response: listEnvelope(MigrationBatch),
  list: true,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return listMigrationBatches(ctx.db, ctx.entityId, { status: query.status }, query);
  },
});

export const handler = lambdaHandler(route);
