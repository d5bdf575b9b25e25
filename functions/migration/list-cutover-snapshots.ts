import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { DbSnapshot } from '../../shared/migration/schemas/cutover';
import { listSnapshots } from '../../shared/migration/snapshots';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { listEnvelope, listQuery } from '../../shared/schemas/list';

export const route = defineRoute({
  id: 'migration.cutover_snapshot_list',
  method: 'GET',
  path: '/v1/entities/{entity_id}/migration/cutover/snapshots',
  tag: 'Migration',
  summary: 'List cutover snapshots',
  description: 'The cutover snapshots of the entity, newest first (cursor pagination on the object id).',
  scopes: ['migration:read'],
  params: entityScopedParams,
  query: listQuery(),
  response: listEnvelope(DbSnapshot),
  list: true,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return listSnapshots(ctx.db, ctx.entityId, query);
  },
});

export const handler = lambdaHandler(route);
