import { lambdaHandler } from '../../shared/http/handler-stack';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { DbSnapshot, snapshotParams } from '../../shared/migration/schemas/cutover';
import { getSnapshot } from '../../shared/migration/snapshots';

export const route = defineRoute({
  id: 'migration.cutover_snapshot_get',
  method: 'GET',
  path: '/v1/entities/{entity_id}/migration/cutover/snapshots/{snapshot_id}',
  tag: 'Migration',
  summary: 'Retrieve a cutover snapshot',
  description: 'The status of a cutover snapshot (creating, available, failed) and its percent_progress, updated as the workflow polls the database service.',
  scopes: ['migration:read'],
  params: snapshotParams,
  response: DbSnapshot,
  errors: ['snapshot_not_found'],
  handler: (ctx, { params }) => {
    requireOwnEntity(ctx, params.entity_id);
    return getSnapshot(ctx.db, ctx.entityId, params.snapshot_id);
  },
});

export const handler = lambdaHandler(route);
