import { lambdaHandler } from '../../shared/http/handler-stack';
import { idempotency } from '../../shared/http/idempotent';
import { defineRoute, requireOwnEntity } from '../../shared/http/route';
import { DbSnapshot, SnapshotRequest } from '../../shared/migration/schemas/cutover';
import { startSnapshot } from '../../shared/migration/start-snapshot';
import { entityScopedParams } from '../../shared/schemas/parameters';

export const route = defineRoute({
  id: 'migration.cutover_snapshot_create',
  method: 'POST',
  path: '/v1/entities/{entity_id}/migration/cutover/snapshot',
  tag: 'Migration',
  summary: 'Take the cutover database snapshot',
  description: [
    'Starts an asynchronous database snapshot and answers 202 at once with status creating (a real snapshot typically takes 5 to 20 minutes).',
    'Poll GET /v1/entities/{entity_id}/migration/cutover/snapshots/{snapshot_id} for status and percent_progress, or subscribe to the',
    'migration.snapshot_taken and migration.snapshot_failed events. Needs both migration:admin and migration:write.',
    'The entity must be frozen and freeze_token must be its current freeze token: 409 entity_not_frozen when it is not frozen, 409 freeze_token_mismatch otherwise.',
    'In the dev environment, and for test-mode keys, no real snapshot is taken (dev_stub true): the workflow runs its stub branch through the same states in seconds.',
    'A snapshot covers the whole database cluster (db_instance_id), not only this entity: restore it only for the whole deployment.',
  ].join(' '),
  scopes: ['migration:admin', 'migration:write'],
  // It starts a Step Functions execution once committed: the snapshot is not the transaction's work.
  transactional: false,
  params: entityScopedParams,
  body: SnapshotRequest,
  response: DbSnapshot,
  successStatus: 202,
  errors: ['entity_not_frozen', 'freeze_token_mismatch'],
  handler: (ctx, { params, body }) => {
    requireOwnEntity(ctx, params.entity_id);
    return startSnapshot(ctx, body);
  },
});

export const handler = lambdaHandler(route, idempotency);
