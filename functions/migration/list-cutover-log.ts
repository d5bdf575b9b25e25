import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { listCutoverLog } from '../../shared/migration/cutover-freeze';
import { CutoverLogEntry } from '../../shared/migration/schemas/cutover';
import { entityScopedParams } from '../../shared/schemas/parameters';
import { listEnvelope, listQuery } from '../../shared/schemas/list';

export const route = defineRoute({
  id: 'migration.cutover_log_list',
  method: 'GET',
  path: '/v1/entities/{entity_id}/migration/cutover/log',
  tag: 'Migration',
  summary: 'List the cutover log',
  description: 'Every freeze, unfreeze and snapshot request of the entity, newest first, with the key and request that made it.',
  scopes: ['migration:read'],
  params: entityScopedParams,
  query: listQuery(),
  response: listEnvelope(CutoverLogEntry),
  list: true,
  handler: (ctx, { params, query }) => {
    requireOwnEntity(ctx, params.entity_id);
    return listCutoverLog(ctx.db, ctx.entityId, query);
  },
});

export const handler = lambdaHandler(route);
